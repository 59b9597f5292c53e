"""`hwrepair import rtlrepairbench` on records written here in RTLRepairBench's formats (lint, semantic, real)."""

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
from pytest_hwrepair.importers import BUILTIN, Reason, registry
from pytest_hwrepair.importers.base import Entry, Status
from pytest_hwrepair.importers.check import Staged, drop_proving_tier_f
from pytest_hwrepair.importers.rtlrepairbench import apply_repair, realbug, synthetic
from pytest_hwrepair.repo.patch import PatchError

CHECKOUT = Path(__file__).parents[1] / "data" / "importers" / "rtlrepairbench"
DATA = CHECKOUT / "data"
TOOLS = ("iverilog", "vvp", "verilator", "yosys")
needs_tools = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                 reason="needs iverilog, verilator and yosys on PATH")


def rrb_args(out: Path, *extra: str) -> list[str]:
    return ["import", "rtlrepairbench", str(CHECKOUT), "--out", str(out), "-j", "2",
            "--cache-dir", str(out.parent / "cache"), *extra]


def log(out: Path) -> dict[tuple[str, str], dict[str, Any]]:
    data = json.loads((out / "import-rtlrepairbench.json").read_text())
    return {(e["suite"], e["source"]): e for e in data["entries"]}


def records(name: str) -> list[dict[str, Any]]:
    found = []
    for line in (DATA / name).read_text().splitlines():
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return found


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rrb") / "out"
    assert main(rrb_args(out, "--contract", "both")) == 0
    return out


def case_of(out: Path, suite: str, source: str) -> Any:
    return load_case(out / log(out)[(suite, source)]["case"] / "case.toml", strict=True)


@needs_tools
@pytest.mark.parametrize(("suite", "source", "status", "reason"), [
    ("rrb_lint", "repair_lint_0000", "accepted", None),
    ("rrb_lint_published", "repair_lint_0000", "accepted", None),
    ("rrb_lint", "repair_lint_0001", "rejected", "not observable"),  # BLKSEQ is off in Verilator's defaults
    ("rrb_lint_published", "repair_lint_0001", "accepted", None),  # the benchmark's gating classes include it
    ("rrb_lint", "repair_lint_0002", "rejected", "patch does not apply"),
    ("rrb_lint", "repair_lint_0003", "rejected", "not importable"),
    ("rrb_semantic", "repair_sem_0000", "accepted", None),
    ("rrb_semantic_published", "repair_sem_0000", "accepted", None),
    ("rrb_semantic", "repair_sem_0001", "rejected", "not observable"),  # differs only while reset is held
    ("rrb_semantic_published", "repair_sem_0001", "accepted", None),  # random reset, compared from cycle 0
    ("rrb_semantic", "repair_sem_0002", "rejected", "not observable"),
    ("rrb_semantic", "repair_sem_0003", "rejected", "fails the wrong way"),
    ("rrb_semantic", "repair_sem_0004", "rejected", "reference fails"),
    ("rrb_semantic", "repairbench_sem85.jsonl:6", "rejected", "not importable"),
    ("rrb_real", "realbug:Prob905_and3:base:1", "accepted", None),
    ("rrb_real", "realbug:Prob905_and3:base:2", "rejected", "not observable"),
    ("rrb_real", "realbug:Prob905_and3:tuned:1", "rejected", "no-op edit"),
    ("rrb_real", "realbug:Prob906_xor2:base:1", "rejected", "no testbench"),
])
def test_every_record_ends_accepted_or_rejected_with_its_reason(imported: Path, suite: str, source: str, status: str,
                                                                reason: str | None) -> None:
    entry = log(imported)[(suite, source)]
    assert (entry["status"], entry["reason"]) == (status, reason), entry["detail"]


@needs_tools
def test_lint_record_is_a_syntactic_case_with_the_repaired_module_as_golden(imported: Path) -> None:
    case = case_of(imported, "rrb_lint", "repair_lint_0000")
    bug = case.bugs[0]
    assert (case.oracle.kind, case.oracle.top, bug.class_, bug.bug_type) == ("rtl-lint", "Prob901_parity_ref",
                                                                             "syntactic", "DELETE_SEMICOLON")
    assert "assign parity = ^in;" in case.files[case.target]
    assert "assign parity = ^in\n" in case.buggy_files(bug)[case.target]
    assert "even parity" in case.spec_text and "unexpected endmodule" in case.spec_text
    assert case.model.strong_oracle.kind == "rtl-equiv"


@needs_tools
def test_the_two_contracts_differ_as_declared_and_each_case_says_which_it_has(imported: Path) -> None:
    seeded = case_of(imported, "rrb_semantic", "repair_sem_0000").oracle
    published = case_of(imported, "rrb_semantic_published", "repair_sem_0001").oracle
    assert (seeded.kind, seeded.cycles, seeded.seeds, seeded.corners, seeded.compare_from) == ("rtl-sim", 200, 10, 2, 0)
    assert (published.reset, published.seeds, published.corners, published.compare_from) == (None, 1, 0, 0)
    assert published.clock == "clk"
    assert "published contract" in case_of(imported, "rrb_semantic_published", "repair_sem_0001").model.title
    assert case_of(imported, "rrb_lint_published", "repair_lint_0001").oracle.lint_warn == ["BLKSEQ", "UNDRIVEN"]
    assert case_of(imported, "rrb_lint", "repair_lint_0000").oracle.lint_warn == []


@needs_tools
def test_seeded_contract_holds_the_reset_the_design_names(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(rrb_args(out, "--set", "semantic", "--no-check")) == 0
    oracle = case_of(out, "rrb_semantic", "repair_sem_0001").oracle
    assert (oracle.reset.signal, oracle.reset.active, oracle.reset.cycles) == ("reset", 1, 2)


@needs_tools
def test_real_bug_is_judged_by_its_verilogeval_testbench_kept_out_of_the_workspace(imported: Path) -> None:
    case = case_of(imported, "rrb_real", "realbug:Prob905_and3:base:1")
    oracle = case.oracle
    assert (oracle.kind, oracle.top, oracle.tb_top) == ("rtl-tb", "TopModule", "tb")
    assert oracle.testbench == ["testbench/Prob905_and3_test.sv"] and "Mismatches: 0 in" in oracle.pass_regex
    assert set(case.golden_files()) == {"TopModule.sv"} and "module TopModule (" in case.files["TopModule.sv"]
    assert case.spec_text.startswith("I would like you to implement a module named TopModule")
    assert "31 mismatched samples of 100" in case.spec_text


@needs_tools
def test_imported_cases_pass_reference_and_fail_noop_under_pytest(imported: Path) -> None:
    for fixer, status, words in (("reference", 0, "7 passed"), ("noop", 1, "7 failed")):
        run = subprocess.run([sys.executable, "-m", "pytest", str(imported), f"--fixer={fixer}", "-p", "no:randomly",
                              "-p", "no:cacheprovider", "--hwrepair-run", str(imported.parent / f"run-{fixer}")],
                             capture_output=True, text=True, cwd=imported.parent, check=False)
        assert run.returncode == status and words in run.stdout, run.stdout[-3000:]


def test_counts_per_suite_are_printed_for_an_unchecked_import(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(rrb_args(tmp_path / "out", "--no-check", "--contract", "published", "--set", "lint")) == 0
    text = capsys.readouterr().out
    assert "rrb_lint_published: 4 candidates: 0 accepted, 2 imported, 2 rejected" in text
    assert "rrb_lint:" not in text


def test_limit_reads_only_the_first_records_of_each_set(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(rrb_args(out, "--no-check", "--set", "real", "--limit", "2")) == 0
    assert sorted(s for _, s in log(out)) == ["realbug:Prob905_and3:base:1", "realbug:Prob905_and3:base:2"]


def test_missing_record_file_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", "rtlrepairbench", str(tmp_path), "--out", str(tmp_path / "o"), "--set", "real"]) == 2
    assert "no repairbench_realbugs.jsonl" in capsys.readouterr().err


def test_heldout_file_serves_both_synthetic_sets_by_bucket(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    both = records("repairbench_lint.jsonl") + records("repairbench_sem85.jsonl")
    (data / "repairbench_heldout.jsonl").write_text("".join(json.dumps(r) + "\n" for r in both))
    out = tmp_path / "out"
    assert main(["import", "rtlrepairbench", str(tmp_path), "--out", str(out), "--no-check", "--set", "lint",
                 "--set", "semantic"]) == 0
    suites = {suite for suite, _ in log(out)}
    assert suites == {"rrb_lint", "rrb_semantic"}
    assert sum(1 for suite, _ in log(out) if suite == "rrb_lint") == 4
    assert sum(1 for suite, _ in log(out) if suite == "rrb_semantic") == 5


# --- the records --------------------------------------------------------------------------------------------------

def test_golden_is_the_broken_module_with_the_repair_diff_applied() -> None:
    record = synthetic(records("repairbench_lint.jsonl")[0], "lint")
    assert record.golden == record.broken.replace("^in\n", "^in;\n")
    assert (record.name, record.kind, record.task) == ("Prob901_parity_ref.sv", "delete_semicolon", "Prob901_parity")


def test_a_hunk_whose_lines_moved_is_placed_where_its_old_lines_occur() -> None:
    text = "a\nb\nc\nd\n"
    head = "--- a/x.v\n+++ b/x.v\n"
    assert apply_repair(text, head + "@@ -1,2 +1,2 @@\n b\n-c\n+C\n") == "a\nb\nC\nd\n"
    assert apply_repair(text, head + "@@ -2,2 +2,3 @@\n b\n c\n+x\n") == "a\nb\nc\nx\nd\n"
    with pytest.raises(PatchError, match="does not apply"):
        apply_repair(text, head + "@@ -1,1 +1,1 @@\n-z\n+y\n")
    with pytest.raises(PatchError, match="exactly one existing file"):
        apply_repair(text, head + "@@ -1 +1 @@\n-a\n+A\n" + head.replace("x.v", "y.v") + "@@ -1 +1 @@\n-a\n+A\n")


def test_a_context_line_that_lost_its_space_still_counts() -> None:
    assert apply_repair("x\n\ny\n", "--- a/x.v\n+++ b/x.v\n@@ -1,3 +1,3 @@\n x\n\n-y\n+z\n") == "x\n\nz\n"


def test_real_bug_golden_takes_the_broken_modules_name() -> None:
    record = realbug(records("repairbench_realbugs.jsonl")[0])
    assert "module TopModule (" in record.golden and "Prob905_and3_ref" not in record.golden
    assert (record.name, record.kind, record.task) == ("TopModule.sv", "base", "Prob905_and3")


def test_a_bug_only_tier_f_proves_equivalent_is_kept_without_a_strong_oracle() -> None:
    entry = Entry("x", "s", Status.REJECTED, Reason.EQUIVALENT, "behavioural bug is proved equivalent ...")
    item = Staged("s/x", {"strong_oracle": {"kind": "rtl-equiv"}, "bug": [{"id": "B-01"}]}, {}, entry)
    [kept], notes = drop_proving_tier_f([item])
    assert kept.entry.status is Status.ACCEPTED and kept.fields["strong_oracle"] is None
    assert notes == ["x: Tier F proves the buggy design equivalent while the suite oracle fails it; kept without a "
                     "strong oracle"]


def test_rtlrepairbench_is_built_in_and_listed_by_import_help(capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert pyproject["project"]["entry-points"]["hwrepair.importers"]["rtlrepairbench"] == \
        "pytest_hwrepair.importers.rtlrepairbench:RtlRepairBenchImporter"
    assert "rtlrepairbench" in BUILTIN and "rtlrepairbench" in registry()
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    assert "rtlrepairbench" in capsys.readouterr().out
