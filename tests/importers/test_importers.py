"""`hwrepair import`: the chrysalis and cudabeaver importers on fixtures written here in the upstream formats."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.cli import main
from pytest_hwrepair.importers import BUILTIN, ImporterError, Reason, chrysalis, registry
from pytest_hwrepair.importers.base import dump_toml, prepare_out, read_text
from pytest_hwrepair.importers.chrysalis import dedupe, load_selection, load_specs, place, unwrap
from pytest_hwrepair.importers.cudabeaver import adapt
from pytest_hwrepair.importers.hls_programs import chstone
from pytest_hwrepair.importers.snippets import calls, find_definitions, find_snippet, mask
from pytest_hwrepair.oracles.base import populate
from pytest_hwrepair.strength.selfcheck import BugCheck

DATA = Path(__file__).parents[1] / "data" / "importers"


def chrysalis_args(out: Path, *extra: str, polybench: str = "polybench") -> list[str]:
    return ["import", "chrysalis", "--chstone", str(DATA / "chstone"), "--machsuite", str(DATA / "machsuite"),
            "--polybench", str(DATA / polybench), "--specs", str(DATA / "chrysalis"), "--out", str(out),
            "--dataset", "MINI", "--timeout", "2", "-j", "2", "--cache-dir", str(out.parent / "cache"), *extra]


def select(tmp_path: Path, *sources: str) -> str:
    path = tmp_path / "select.json"
    path.write_text(json.dumps([source.split("/") for source in sources]))
    return str(path)


def log(out: Path, importer: str = "chrysalis") -> dict[str, dict[str, Any]]:
    data = json.loads((out / f"import-{importer}.json").read_text())
    return {e["source"]: e for e in data["entries"]}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("chrysalis") / "out"
    assert main(chrysalis_args(out)) == 0
    return out


def outcome(imported: Path, source: str) -> tuple[str, str | None]:
    entry = log(imported)[source]
    return entry["status"], entry["reason"]


# --- chrysalis: what each kind of spec becomes -----------------------------------------------------------------

@pytest.mark.parametrize(("source", "expected"), [
    ("chstone/sum_all/ZERO", ("accepted", None)),
    ("chstone/sum_all/OOB", ("rejected", "not found")),
    ("chstone/missing_fn/OOB", ("rejected", "not found")),
    ("chstone/clip/MLU", ("rejected", "ambiguous")),
    ("chstone/scale_all/SHFT", ("rejected", "duplicate")),
    ("chstone/scale_all/ZERO", ("rejected", "not observable")),
    ("chstone/clip/INIT", ("rejected", "compile error")),
    ("chstone/triple/SHFT", ("rejected", "reference fails")),
    ("chstone/sum_all/INF", ("accepted", None)),
    ("chstone/main/INF", ("accepted", None)),
    ("chstone/chain_len/INF", ("accepted", None)),
    ("chstone/double_it/USE", ("rejected", "no-op edit")),
    ("chstone/double_it/MLU", ("rejected", "duplicate")),
    ("chstone/sum_all/SHFT", ("rejected", "unsupported spec")),
    ("machsuite/vsum/ZERO", ("rejected", "not observable")),
    ("machsuite/vdiff/OOB", ("accepted", None)),
    ("polybench/kernel_reg_detect/OOB", ("rejected", "not found")),
])
def test_every_spec_ends_accepted_or_rejected_with_its_reason(imported: Path, source: str,
                                                              expected: tuple[str, str | None]) -> None:
    assert outcome(imported, source) == expected


def test_two_type_spec_files_are_not_candidates(imported: Path) -> None:
    assert not [s for s in log(imported) if "OOB_INIT" in s]


def test_counts_per_suite_and_reason_are_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(chrysalis_args(tmp_path / "out", "--no-check")) == 0
    out = capsys.readouterr().out
    assert "chstone: 22 candidates: 0 accepted, 15 imported, 7 rejected" in out
    assert "  rejected - ambiguous: 1" in out and "REJECTED chstone/clip/MLU: ambiguous:" in out


def test_whitespace_normalised_snippet_edits_the_source_text(imported: Path) -> None:
    entry = log(imported)["chstone/sum_all/MLU"]
    case = load_case(imported / entry["case"] / "case.toml")
    bug = case.bug(entry["bug"])
    assert entry["status"] == "accepted"
    assert bug.find == "for (i = 0; i < n; i++)" and bug.replace == "for (i=0;i<n-1;i++)"
    assert "i<n-1" in case.buggy_files(bug)["ckmini_ops.c"].split("sum_all (const int *v, int n)\n{")[1]


def test_of_two_specs_making_the_same_edit_the_first_is_kept_and_the_other_names_it(imported: Path) -> None:
    entries = log(imported)
    assert entries["chstone/double_it/INF"]["status"] == "accepted"
    assert entries["chstone/double_it/MLU"]["detail"] == "the same edit as chstone/double_it/INF"


def test_of_two_specs_making_the_same_edit_the_one_that_passed_its_check_stands_for_both() -> None:
    specs, _ = load_specs(DATA / "chrysalis")
    edits, _ = place([s for s in specs if s.function == "double_it"], {"chstone": chstone(DATA / "chstone")})
    kept, dropped = dedupe(edits, lambda edit: edit.spec.type == "MLU")
    assert [e.spec.source for e in kept] == ["chstone/double_it/MLU"]
    assert [(e.source, e.detail) for e in dropped] == [("chstone/double_it/INF",
                                                        "the same edit as chstone/double_it/MLU")]


def test_instance_whose_second_check_disagrees_is_not_repeatable(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    specs, _ = load_specs(DATA / "chrysalis")
    edits, _ = place([s for s in specs if s.source == "chstone/sum_all/ZERO"], {"chstone": chstone(DATA / "chstone")})
    said = iter(["accepted", "rejected"])

    def flaky(paths: list[Path], **_: object) -> dict[tuple[str, str], BugCheck]:
        path = next(Path(paths[0]).rglob("case.toml"))
        status = next(said)
        return {(str(path), "ZERO-01"): BugCheck(str(path), "ZERO-01", status, "" if status == "accepted" else
                                                 "bug not observable: the buggy version passes")}

    monkeypatch.setattr(chrysalis, "two_sided", flaky)
    [entry] = chrysalis.checked(tmp_path / "out", edits, 1, tmp_path / "cache")
    assert (entry.status.value, entry.reason) == ("rejected", Reason.NOT_REPEATABLE)
    assert entry.detail == "not repeatable: accepted once, then rejected: bug not observable: the buggy version passes"
    assert not (tmp_path / "out").exists()


def bug_of(imported: Path, source: str) -> tuple[dict[str, Any], Any, Any]:
    entry = log(imported)[source]
    case = load_case(imported / entry["case"] / "case.toml")
    return entry, case, case.bug(entry["bug"])


def test_snippet_in_several_functions_is_placed_in_the_one_the_spec_names(imported: Path) -> None:
    entry, case, bug = bug_of(imported, "chstone/chain_len/INF")
    buggy = case.buggy_files(bug)["chain.c"]
    assert (bug.find, bug.occurrence) == ("while (p != 0)", 2)  # chain_sum holds the file's first one
    assert "while (1)" in buggy.split("chain_len (const struct node *p)")[1].split("chain_check")[0]
    assert entry["detail"].startswith("in chain_len;")


def test_snippet_not_in_the_named_function_is_placed_in_the_first_function_it_calls_that_holds_it(
        imported: Path) -> None:
    entry, case, bug = bug_of(imported, "chstone/chain_check/MLU")
    buggy = case.buggy_files(bug)["chain.c"]
    assert bug.occurrence == 3  # chain_last and chain_sum hold the first two, but chain_check calls neither first
    assert "p->next->next" in buggy.split("chain_len (const struct node *p)")[1].split("chain_check")[0]
    assert entry["detail"].startswith("in chain_len, which chain_check calls;")


def test_snippet_several_times_in_its_function_takes_the_first(imported: Path) -> None:
    entry, case, bug = bug_of(imported, "chstone/scale_all/USE")
    scale_all = case.buggy_files(bug)["ckmini_ops.c"].split("scale_all (const int *v, int *out, int n)")[1]
    assert (bug.find, bug.occurrence) == ("for (i = 0; i < n; i++)", 2)  # sum_all holds the file's first
    assert scale_all.index("for (i = 1; i < n; i++)") < scale_all.index("for (i = 0; i < n; i++)")
    assert entry["detail"].startswith("the first of 2 occurrences in scale_all")


def test_snippet_the_function_does_not_reach_must_be_unique_in_its_file(imported: Path) -> None:
    assert log(imported)["chstone/clip/MLU"]["detail"] == (
        "the original code is not in clip or the code it calls, and occurs 3 times in its file (ckmini/ckmini_ops.c)")


@pytest.mark.parametrize(("source", "failure"), [("chstone/chain_len/INF", "runtime_crash"),
                                                 ("chstone/sum_all/INF", "test_fail"),
                                                 ("chstone/main/INF", "timeout")])
def test_inf_label_is_an_edit_shape_so_a_crash_or_a_wrong_result_is_as_good_as_a_hang(
        imported: Path, source: str, failure: str) -> None:
    entry = log(imported)[source]
    assert entry["status"] == "accepted" and entry["detail"].endswith(f"; fails with {failure}")


def test_multi_line_original_and_old_style_definitions_are_placed(imported: Path) -> None:
    entries = log(imported)
    assert entries["chstone/scale_all/BUF"]["status"] == "accepted"
    clip = entries["chstone/clip/OOB"]
    case = load_case(imported / clip["case"] / "case.toml")
    assert clip["status"] == "accepted" and case.bug(clip["bug"]).find == "if (x > hi)\n    return hi;"


def test_program_exiting_zero_on_failure_is_judged_by_its_printed_result(imported: Path, tmp_path: Path) -> None:
    entry = log(imported)["chstone/double_it/INF"]
    assert entry["status"] == "accepted"
    case = load_case(imported / entry["case"] / "case.toml")
    populate(tmp_path, case, case.buggy_files(case.bug(entry["bug"])))
    subprocess.run(case.oracle.build or "", shell=True, cwd=tmp_path, check=True)
    ran = subprocess.run("./prog", shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert (ran.returncode, ran.stdout.strip()) == (0, "4")
    assert case.oracle.kind == "exit-code" and case.oracle.stdout == r"^0\s*\Z"


def test_helper_in_several_programs_lands_in_the_first_and_numbered_names_in_the_next(imported: Path) -> None:
    entries = log(imported)
    assert entries["chstone/helper_add/ZERO"]["case"] == "chstone/alpha-helper"
    assert entries["chstone/helper_add_1/USE"]["case"] == "chstone/beta-helper"


def test_machsuite_check_data_is_compared_by_the_harness_outside_the_workspace(imported: Path, tmp_path: Path) -> None:
    entry = log(imported)["machsuite/vsum/MLU"]
    case = load_case(imported / entry["case"] / "case.toml")
    assert entry["status"] == "accepted"
    assert (case.oracle.kind, case.oracle.compare, case.oracle.expected) == ("output-diff", "file:output.data",
                                                                             "check.data")
    populate(tmp_path, case, case.buggy_files(case.bug(entry["bug"])))
    assert not (tmp_path / "check.data").exists() and (tmp_path / "input.data").exists()
    assert "generate.c" not in case.model.sources


def test_machsuite_benchmark_including_the_shared_header_by_its_upstream_path_keeps_the_upstream_layout(
        imported: Path) -> None:
    entry = log(imported)["machsuite/vdiff/OOB"]
    case = load_case(imported / entry["case"] / "case.toml")
    assert entry["case"] == "machsuite/vdiff_vdiff" and case.target == "vdiff/vdiff/vdiff.c"
    assert {"vdiff/vdiff/vdiff.h", "common/support.h", "common/support.c"} <= set(case.model.sources)
    assert (case.oracle.build or "").startswith("gcc -O0 -Icommon vdiff/vdiff/local_support.c vdiff/vdiff/vdiff.c ")


def test_polybench_dump_is_compared_with_the_reference_build_at_the_chosen_size(imported: Path) -> None:
    entry = log(imported)["polybench/kernel_tri_smooth_imper/USE"]
    case = load_case(imported / entry["case"] / "case.toml")
    assert entry["status"] == "accepted" and case.model.title == "PolyBench/C 4.x tri (MINI dataset): tri.c"
    assert case.oracle.compare == "stderr" and case.oracle.expected is None
    assert "-DMINI_DATASET" in (case.oracle.build or "") and "-DPOLYBENCH_DUMP_ARRAYS" in (case.oracle.build or "")


def test_imported_cases_pass_validate_and_pytest_reference_and_fail_noop(imported: Path) -> None:
    accepted = {(e["case"], e["bug"]): e for e in log(imported).values() if e["status"] == "accepted"}
    cache = str(imported.parent / "cache")
    checked = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "validate", str(imported), "-j", "2",
                              "--json", "--cache-dir", cache], capture_output=True, text=True, check=False)
    verdicts = [json.loads(line) for line in checked.stdout.splitlines() if line.startswith("{")]
    assert len(verdicts) == len(accepted) == 15, checked.stdout + checked.stderr
    for v in verdicts:  # validate still reads an INF label as "must hang"; the import reads it as an edit shape
        entry = accepted[(str(Path(v["path"]).parent.relative_to(imported)), v["bug"])]
        label_only = v["reason"].startswith("INF bug does not fail by timeout") and entry["group"] == "INF"
        assert v["status"] == "accepted" or label_only, v
    for fixer, status, words in (("reference", 0, "15 passed"), ("noop", 1, "15 failed")):
        run = subprocess.run([sys.executable, "-m", "pytest", str(imported), f"--fixer={fixer}", "-p", "no:randomly",
                              "-p", "no:cacheprovider", "--hwrepair-run", str(imported.parent / f"run-{fixer}")],
                             capture_output=True, text=True, cwd=imported.parent, check=False)
        assert run.returncode == status and words in run.stdout, run.stdout[-3000:]


def test_selection_keeps_only_the_listed_triples_and_reports_the_missing_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(chrysalis_args(out, "--no-check", "--select", str(DATA / "select.json"))) == 0
    assert sorted(log(out)) == ["chstone/scale_all/USE", "chstone/sum_all/ZERO", "machsuite/vsum/MLU",
                                "polybench/kernel_tri_smooth_imper/USE"]
    text = capsys.readouterr().out
    assert "selection: 5 triples: 4 kept, 0 rejected, 1 with no spec file" in text
    assert "selection has no spec: chstone/gone/OOB" in text


def test_selected_specs_leaving_the_same_program_behind_are_all_kept_and_marked_same_as(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    chosen = select(tmp_path, "chstone/double_it/INF", "chstone/double_it/MLU")
    assert main(chrysalis_args(out, "--select", chosen)) == 0
    first, twin = log(out)["chstone/double_it/INF"], log(out)["chstone/double_it/MLU"]
    assert (first["status"], first["same_as"], twin["status"], twin["same_as"]) == (
        "accepted", None, "accepted", "chstone/double_it/INF")
    assert "  selection kept, the same program as another kept one (same_as): 1" in capsys.readouterr().out
    case = load_case(out / twin["case"] / "case.toml")
    assert [b.id for b in case.bugs] == ["INF-01", "MLU-01"] and case.bug("MLU-01").find == case.bug("INF-01").find
    assert case.bug("MLU-01").note.endswith("the same program as chstone/double_it/INF")


def test_without_a_selection_a_spec_leaving_the_same_program_behind_is_a_duplicate(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(chrysalis_args(out, "--no-check")) == 0
    assert log(out)["chstone/double_it/MLU"]["reason"] == "duplicate"


def test_polybench_3x_checkout_is_imported_with_its_own_kernels_and_its_version_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    chosen = select(tmp_path, "polybench/kernel_tri_smooth_imper/USE", "polybench/kernel_reg_detect/OOB")
    assert main(chrysalis_args(out, "--select", chosen, polybench="polybench3")) == 0
    entries = log(out)
    assert {s: e["status"] for s, e in entries.items()} == {"polybench/kernel_tri_smooth_imper/USE": "accepted",
                                                           "polybench/kernel_reg_detect/OOB": "accepted"}
    case = load_case(out / entries["polybench/kernel_reg_detect/OOB"]["case"] / "case.toml")
    assert case.model.title == "PolyBench/C 3.2 reg_detect (MINI dataset): reg_detect.c"
    assert json.loads((out / "import-chrysalis.json").read_text())["polybench"] == "3.2"
    assert "polybench: PolyBench/C 3.2 (" in capsys.readouterr().out


@pytest.mark.parametrize(("polybench", "dataset", "allowed"), [
    ("polybench3", "MEDIUM", "PolyBench/C 3.2 ("), ("polybench", "STANDARD", "PolyBench/C 4.x (")])
def test_dataset_the_polybench_release_does_not_have_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                polybench: str, dataset: str, allowed: str) -> None:
    args = chrysalis_args(tmp_path / "out", "--no-check", polybench=polybench)
    args[args.index("--dataset") + 1] = dataset
    assert main(args) == 2
    assert f"--dataset {dataset}: {allowed}" in capsys.readouterr().err


# --- chrysalis: the pieces -------------------------------------------------------------------------------------

def test_selection_reads_study_objects_lists_and_text(tmp_path: Path) -> None:
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([["MachSuite", "bfs_1", "oob"]]))
    text = tmp_path / "list.txt"
    text.write_text("# suite function type\npolybench, kernel_2mm, BUF\n")
    assert load_selection(listed) == {("machsuite", "bfs_1", "OOB")}
    assert load_selection(text) == {("polybench", "kernel_2mm", "BUF")}
    assert ("chstone", "sum_all", "ZERO") in load_selection(DATA / "select.json")


@pytest.mark.parametrize(("line", "problem"), [("rtl x OOB", "unknown suite 'rtl'"), ("chstone x APT", "bug type"),
                                               ("chstone x", "expected suite, function and bug type")])
def test_bad_selection_entry_is_one_line_naming_the_entry(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "sel.txt"
    path.write_text(line + "\n")
    with pytest.raises(ImporterError, match=f"entry 1: .*{problem}"):
        load_selection(path)


def test_definitions_skip_prototypes_calls_comments_and_strings() -> None:
    text = ('int f (int a);\n/* f (x) { */\nint g (void) { return f (1); }\nchar *s = "f (y) {";\n'
            "int\nf (int a)\n{\n  return a;\n}\n")
    spans = find_definitions(text, "f")
    assert len(spans) == 1 and text[spans[0].start:spans[0].end] == "f (int a)\n{\n  return a;\n}"


def test_calls_are_listed_once_in_order_without_keywords_comments_or_strings() -> None:
    text = 'void f (void)\n{\n  if (g (1)) h ();\n  /* k () */ puts ("m (x)");\n  g (sizeof (int));\n}\n'
    [body] = find_definitions(text, "f")
    assert calls(text, body) == ["f", "g", "h", "puts"]


def test_mask_keeps_offsets() -> None:
    text = 'a /* b */ "c{" // d\n#define X {\ne'
    masked = mask(text)
    assert len(masked) == len(text) and "{" not in masked and masked.endswith("\ne")


def test_snippet_matches_whole_words_only() -> None:
    text = "total_sum = 0;\nsum = 0;\n"
    assert [text[s.start:s.end] for s in find_snippet(text, "sum=0;")] == ["sum = 0;"]


C_TOKENS = st.sampled_from(["i", "n", "acc", "0", "1", "=", "<", "<<", "+", "(", ")", "[", "]", ";", "{", "}", "for"])


@given(st.lists(C_TOKENS, min_size=1, max_size=12), st.lists(st.sampled_from([" ", "", "\n  ", "\t"]), min_size=12,
                                                             max_size=12))
def test_a_snippet_is_found_however_its_source_is_spaced(tokens: list[str], gaps: list[str]) -> None:
    snippet = " ".join(tokens)
    source = tokens[0]
    for tok, gap in zip(tokens[1:], gaps):
        wordy = source[-1].isalnum() and tok[0].isalnum()
        source += (gap or (" " if wordy else "")) + tok  # two words need some space between them
    spans = find_snippet(source, snippet)
    assert [(s.start, s.end) for s in spans] == [(0, len(source))]


def test_spec_wrappers_and_elided_bodies_are_undone() -> None:
    assert unwrap('"""a;"""', '"""b;"""') == ("a;", "b;")
    assert unwrap("for (;;){...}", "for (;0;){...}") == ("for (;;){", "for (;0;){")
    assert unwrap("x{...}", "y;") == ("x{...}", "y;")


@given(st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
                       st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.booleans(),
                                 st.lists(st.text(), max_size=3)), max_size=6))
def test_case_files_round_trip_through_toml(fields: dict[str, Any]) -> None:
    assert tomllib.loads(dump_toml(fields)) == fields


def test_links_and_binaries_are_never_copied_from_a_checkout(tmp_path: Path) -> None:
    (tmp_path / "prog").write_bytes(b"\x7fELF\x00\x01")
    (tmp_path / "secret.c").symlink_to("/etc/hostname")
    (tmp_path / "ok.c").write_text("int x;\n")
    assert [read_text(tmp_path / n) for n in ("prog", "secret.c", "ok.c")] == [None, None, "int x;\n"]


def test_output_directory_of_someone_else_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(ImporterError, match="not empty and not written by `hwrepair import chrysalis`"):
        prepare_out(tmp_path, "chrysalis", ["chstone"])
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_reimport_replaces_only_what_the_importer_wrote(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(chrysalis_args(out, "--no-check")) == 0
    (out / "notes.md").write_text("mine")
    (out / "chstone" / "stale").mkdir()
    assert main(chrysalis_args(out, "--no-check")) == 0
    assert (out / "notes.md").read_text() == "mine" and not (out / "chstone" / "stale").exists()


def test_missing_checkout_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = chrysalis_args(tmp_path / "out")
    args[args.index("--machsuite") + 1] = str(tmp_path / "nowhere")
    assert main(args) == 2
    assert capsys.readouterr().err.strip().startswith("hwrepair import chrysalis: --machsuite")


# --- cudabeaver ------------------------------------------------------------------------------------------------

def cudabeaver_checkout(root: Path) -> Path:
    """A CUDABeaver-shaped checkout: the fixture tasks plus what its preparation script links and ships."""
    shutil.copytree(DATA / "cudabeaver", root)
    task = root / "data" / "cuda_90_scale__logic_error__00000002" / "testbench"
    (task / "test").write_bytes(b"\x7fELF\x02\x01\x01\x00prebuilt")
    (task / "reference_sources").mkdir()
    (task / "reference_sources" / "cutlass").symlink_to(root / "data" / "_external" / "cutlass")
    (task / "secret.h").symlink_to("/etc/hostname")
    return root


@pytest.fixture
def beaver(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    assert main(["import", "cudabeaver", str(cudabeaver_checkout(tmp_path / "checkout")), "--out", str(out)]) == 0
    return out


def beaver_case(out: Path, task: str) -> Any:
    return load_case(out / log(out, "cudabeaver")[task]["case"] / "case.toml")


def test_cuda_task_becomes_a_case_with_its_start_bucket_commands_and_prompt(beaver: Path) -> None:
    case = beaver_case(beaver, "cuda_7__compile_error__00000001")
    bug = case.bugs[0]
    checkout = beaver.parent / "checkout" / "data" / "cuda_7__compile_error__00000001"
    assert (case.domain, case.suite, case.target, bug.bucket) == ("cuda", "cuda", "solution.cu", "compile_error")
    assert case.files["solution.cu"] == (checkout / "reference.cu").read_text()
    assert case.buggy_files(bug)["solution.cu"] == (checkout / "broken_start.cu").read_text()
    assert case.spec_text == (checkout / "prompt.txt").read_text()
    assert case.oracle.build == "nvcc -I include -o test.out solution.cu test/*.cu -arch=native"
    assert case.oracle.run == "./test.out" and set(case.model.sources) >= {"include/scale.h", "test/test_main.cu"}


def test_bundled_library_is_wired_by_path_and_binaries_and_links_stay_behind(beaver: Path) -> None:
    case = beaver_case(beaver, "cuda_90_scale__logic_error__00000002")
    external = (beaver.parent / "checkout" / "data" / "_external" / "cutlass").resolve()
    assert f"CUTLASS_DIR={external}" in (case.oracle.build or "")
    assert case.oracle.min_sm == 80 and case.target == "solution.h"
    names = set(case.model.sources) | set(case.model.data)
    assert "test" not in names and "secret.h" not in names and not any(n.startswith("reference_sources") for n in names)


@pytest.mark.parametrize(("task", "why"), [
    ("layernorm_fwd_64__perf_broken__00000003", "applied-kernels runner"),
    ("kernelbench_level1_9__logic_error__00000004", "no known-good solution"),
    ("cuda_8__wrong_bucket__00000005", "error_category 'wrong_bucket' is not one of"),
    ("cuda_9__logic_error__00000006", "solution_file '../escape.cu' must be a relative path inside the testbench"),
    ("cutlass_91_gemm__compile_error__00000008", "reference.cu is the restored upstream example"),
    ("cudabench_3__memory_crash__00000007", "no compilable reference"),
])
def test_task_that_cannot_be_a_case_is_rejected_with_the_reason(beaver: Path, task: str, why: str) -> None:
    entry = log(beaver, "cudabeaver")[task]
    assert entry["status"] == "rejected" and entry["reason"] == "not importable" and why in entry["detail"]


def test_counts_per_bucket_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", "cudabeaver", str(cudabeaver_checkout(tmp_path / "c")), "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "imported per bucket:\n  compile_error: 1\n  logic_error: 1\n" in out
    assert "cutlass: 1 candidates: 0 accepted, 0 imported, 1 rejected" in out


@pytest.mark.parametrize(("command", "adapted"), [
    ("nvcc -o t s.cu -arch=native", "nvcc -o t s.cu -arch=sm_90"),
    ("nvcc -o t s.cu -gencode arch=compute_80,code=[sm_80,compute_80] -ldl", "nvcc -o t s.cu -arch=sm_90 -ldl"),
    ("make test CUTLASS_DIR=x", "make test ARCH=-arch=sm_90 CUTLASS_DIR=x"),
    ("cd k && make GPU=RTX5070 clean && make GPU=RTX5070", "cd k && make GPU=H100 clean && make GPU=H100"),
])
def test_gpu_architecture_flags_follow_the_option(tmp_path: Path, command: str, adapted: str) -> None:
    assert adapt(command, tmp_path, 90) == adapted
    assert adapt(command, tmp_path, None) == command


def test_gpu_arch_option_rejects_a_non_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["import", "cudabeaver", str(tmp_path), "--out", str(tmp_path / "o"), "--gpu-arch", "hopper"])
    assert "is not an SM number such as 90 or sm_90" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_compile_error_start_fails_at_build_two_sided_with_real_nvcc(beaver: Path) -> None:
    case = beaver / log(beaver, "cudabeaver")["cuda_7__compile_error__00000001"]["case"]
    run = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "validate", str(case), "-j", "2", "--json",
                          "--cache-dir", str(beaver.parent / "cache")], capture_output=True, text=True, check=False)
    check = json.loads(run.stdout.strip().splitlines()[0])
    assert (check["status"], check["noop"]) == ("accepted", "failed/compile_fail"), check
    assert check["reference"] == "skipped/skipped"


# --- the registry and the command line -------------------------------------------------------------------------

def test_both_importers_are_built_in_and_declared_in_the_entry_point_group() -> None:
    from importlib.metadata import entry_points

    declared = {ep.name for ep in entry_points(group="hwrepair.importers")}
    assert {"chrysalis", "cudabeaver"} <= set(BUILTIN) and {"chrysalis", "cudabeaver"} <= declared
    assert set(registry()) >= {"chrysalis", "cudabeaver"}


def test_contract_command_lines_parse(tmp_path: Path) -> None:
    from pytest_hwrepair.cli import _parser

    ns = _parser().parse_args(["import", "chrysalis", "--chstone", "a", "--machsuite", "b", "--polybench", "c",
                               "--specs", "d", "--out", "e", "--dataset", "LARGE", "--select", "f"])
    assert (ns.source, ns.dataset, ns.select, ns.out) == ("chrysalis", "LARGE", Path("f"), Path("e"))
    ns = _parser().parse_args(["import", "cudabeaver", "g", "--out", "h", "--gpu-arch", "sm_90"])
    assert (ns.source, ns.checkout, ns.gpu_arch) == ("cudabeaver", Path("g"), 90)
