"""`hwrepair import cirfix` on a checkout written here in the rtl-repair repository's benchmark format."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.cli import main
from pytest_hwrepair.importers import BUILTIN, registry
from pytest_hwrepair.importers.cirfix import PAPER_32, find_projects

CHECKOUT = Path(__file__).parents[1] / "data" / "importers" / "rtlrepair"
TOOLS = ("iverilog", "vvp", "verilator", "yosys")
needs_tools = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                 reason="needs iverilog, verilator and yosys on PATH")


def cirfix_args(out: Path, *extra: str) -> list[str]:
    return ["import", "cirfix", str(CHECKOUT), "--out", str(out), "-j", "2", "--cache-dir", str(out.parent / "cache"),
            *extra]


def log(out: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((out / "import-cirfix.json").read_text())
    return {e["source"]: e for e in data["entries"]}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cirfix") / "out"
    assert main(cirfix_args(out)) == 0
    return out


def case_of(out: Path, source: str) -> Any:
    return load_case(out / log(out)[source]["case"] / "case.toml", strict=True)


@needs_tools
@pytest.mark.parametrize(("source", "status", "reason"), [
    ("cirfix/flip_flop/wadden_buggy1", "accepted", None),
    ("cirfix/flip_flop/reset_buggy", "accepted", None),
    ("cirfix/flip_flop/comment_only", "rejected", "not observable"),
    ("cirfix/flip_flop/original", "rejected", "no-op edit"),
    ("cirfix/racy_mux/swapped", "rejected", "commercial simulator only"),
    ("cirfix/defined/step", "rejected", "reference fails"),
    ("fpga/acc-d1/d1", "accepted", None),
    ("fpga/acc-d1/d2", "rejected", "no testbench"),
])
def test_every_bug_ends_accepted_or_rejected_with_its_reason(imported: Path, source: str, status: str,
                                                             reason: str | None) -> None:
    entry = log(imported)[source]
    assert (entry["status"], entry["reason"]) == (status, reason), entry["detail"]


@needs_tools
def test_a_recording_icarus_does_not_reproduce_is_rejected_as_another_simulators(imported: Path) -> None:
    detail = log(imported)["cirfix/racy_mux/swapped"]["detail"]
    assert "does not reproduce its testbench's oracle under Icarus" in detail and "row 3: y is 12, expected 0" in detail


@needs_tools
def test_a_golden_design_breaking_the_candidate_rules_is_rejected_before_any_run(imported: Path) -> None:
    assert "compiler directive `define" in log(imported)["cirfix/defined/step"]["detail"]


@needs_tools
def test_bug_types_tag_the_papers_32_the_other_cirfix_bugs_and_the_fpga_set(imported: Path) -> None:
    entries = log(imported)
    assert ("flip_flop", "wadden_buggy1") in PAPER_32
    assert [entries[s]["group"] for s in ("cirfix/flip_flop/wadden_buggy1", "cirfix/flip_flop/reset_buggy",
                                          "fpga/acc-d1/d1")] == ["CIRFIX32", "CIRFIX", "FPGA"]
    assert case_of(imported, "cirfix/flip_flop/wadden_buggy1").bugs[0].bug_type == "CIRFIX32"
    assert case_of(imported, "fpga/acc-d1/d1").suite == "fpga"


@needs_tools
def test_the_original_is_golden_and_the_buggy_file_the_broken_start_of_its_target(imported: Path) -> None:
    case = case_of(imported, "cirfix/flip_flop/wadden_buggy1")
    upstream = CHECKOUT / "benchmarks" / "cirfix" / "flip_flop"
    bug = case.bugs[0]
    assert case.files["tff.v"] == (upstream / "tff.v").read_text() and case.target == "tff.v"
    assert case.buggy_files(bug)["tff.v"] == (upstream / "tff_wadden_buggy1.v").read_text()
    assert bug.class_ == "behavioural"


@needs_tools
def test_cirfix_testbench_and_oracle_file_are_harness_owned(imported: Path) -> None:
    case = case_of(imported, "cirfix/flip_flop/wadden_buggy1")
    oracle = case.oracle
    assert (oracle.kind, oracle.output, oracle.init) == ("rtl-tb", "output_tff_tb.txt", "x")
    assert oracle.testbench == ["testbench/tff_tb.v"] and oracle.expected == "testbench/expected/oracle.txt"
    assert set(case.model.sources) == {"tff.v"} and not case.model.data


@needs_tools
def test_fpga_bugs_replay_their_trace_table_with_zero_init(imported: Path) -> None:
    oracle = case_of(imported, "fpga/acc-d1/d1").oracle
    assert (oracle.table, oracle.clock, oracle.init) == ("testbench/tb.csv", "clk", "zero")


@needs_tools
def test_tier_f_is_the_strong_oracle_where_it_decides_the_golden_design(imported: Path) -> None:
    assert case_of(imported, "cirfix/flip_flop/wadden_buggy1").model.strong_oracle.kind == "rtl-equiv"
    notes = json.loads((imported / "import-cirfix.json").read_text())["notes"]
    assert "Tier F on cirfix/flip_flop: decides the golden design (kept)" in notes


@needs_tools
def test_ports_and_folders_without_a_description_are_noted(imported: Path) -> None:
    notes = json.loads((imported / "import-cirfix.json").read_text())["notes"]
    assert "fpga: fpga-debugging/acc-d1/acc_port.toml: a port of acc-d1 (project.toml is the original, imported)" \
        in notes
    assert "fpga: nodesc: no project description (not imported)" in notes
    assert "kept per tag:" in notes and "  CIRFIX32: 1 of 1" in notes and "  CIRFIX: 1 of 5" in notes


@needs_tools
def test_imported_cases_pass_reference_and_fail_noop_under_pytest(imported: Path) -> None:
    for fixer, status, words in (("reference", 0, "3 passed"), ("noop", 1, "3 failed")):
        run = subprocess.run([sys.executable, "-m", "pytest", str(imported), f"--fixer={fixer}", "-p", "no:randomly",
                              "-p", "no:cacheprovider", "--hwrepair-run", str(imported.parent / f"run-{fixer}")],
                             capture_output=True, text=True, cwd=imported.parent, check=False)
        assert run.returncode == status and words in run.stdout, run.stdout[-3000:]


@needs_tools
def test_trace_option_judges_cirfix_bugs_by_their_trace_table(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(cirfix_args(out, "--trace", "--project", "flip_flop")) == 0
    entries = log(out)
    assert entries["cirfix/flip_flop/wadden_buggy1"]["status"] == "accepted"
    assert case_of(out, "cirfix/flip_flop/wadden_buggy1").oracle.table == "testbench/orig_tb.csv"


@needs_tools
def test_preprocess_expands_macros_so_a_design_using_define_is_admitted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(cirfix_args(out, "--preprocess", "--project", "defined")) == 0
    entry = log(out)["cirfix/defined/step"]
    assert entry["status"] == "accepted", entry["detail"]
    case = case_of(out, "cirfix/defined/step")
    assert "`define" not in case.files["inc.v"] and "a + 4'd1" in case.files["inc.v"]
    assert "a + 4'd2" in case.buggy_files(case.bugs[0])["inc.v"] and "preprocessed" in case.bugs[0].note


def test_unchecked_import_writes_every_case_that_can_be_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(cirfix_args(out, "--no-check")) == 0
    text = capsys.readouterr().out
    assert "cirfix: 6 candidates: 0 accepted, 4 imported, 2 rejected" in text
    assert "fpga: 2 candidates: 0 accepted, 1 imported, 1 rejected" in text


def test_projects_are_read_from_the_toml_descriptions(tmp_path: Path) -> None:
    projects, _ = find_projects(CHECKOUT, ["cirfix", "fpga"])
    by_name = {p.name: p for p in projects}
    assert sorted(by_name) == ["acc-d1", "defined", "flip_flop", "racy_mux"]
    flip = by_name["flip_flop"]
    assert flip.pick("wadden_buggy1").name == "oracle-full" and flip.pick("x", trace=True).name == "orig_tb"
    assert by_name["acc-d1"].pick("d2") is None and by_name["acc-d1"].pick("d1").table == "tb.csv"


def test_a_description_leaving_its_directory_is_not_read(tmp_path: Path) -> None:
    bad = tmp_path / "benchmarks" / "cirfix" / "evil"
    bad.mkdir(parents=True)
    (bad / "project.toml").write_text('[project]\nsources = ["../../../secret.v"]\ntoplevel = "x"\n')
    projects, notes = find_projects(tmp_path, ["cirfix"])
    assert not projects and "leaves the project directory" in notes[0]


def test_a_directory_that_is_not_a_checkout_is_a_one_line_error(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", "cirfix", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "not a checkout of the rtl-repair repository" in capsys.readouterr().err


def test_an_unknown_project_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(cirfix_args(tmp_path / "o", "--project", "nope", "--no-check")) == 2
    assert "--project nope: no such project" in capsys.readouterr().err


def test_cirfix_is_built_in_declared_and_listed_by_import_help(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import entry_points

    assert "cirfix" in BUILTIN and "cirfix" in registry()
    assert "cirfix" in {ep.name for ep in entry_points(group="hwrepair.importers")} or _declared("cirfix")
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    assert "cirfix" in capsys.readouterr().out


def _declared(name: str) -> bool:
    """The entry point as pyproject.toml declares it (an installed copy may predate this checkout)."""
    import tomllib

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    return name in pyproject["project"]["entry-points"]["hwrepair.importers"]
