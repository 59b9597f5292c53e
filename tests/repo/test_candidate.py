"""Repository candidates as file sets: overlays, diffs, testbench edits, build outputs and hostile workspaces."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.base import OracleContext, scratch_workspace
from pytest_hwrepair.oracles.rtl.repo_tests import RepoOracle, TestStatus, run_steps, trace_difference, write_files
from pytest_hwrepair.repo import candidate as cand
from pytest_hwrepair.repo.candidate import CandidateError, read_workspace, shape, workspace_diff
from pytest_hwrepair.repo.localise import Gold, Localisation, Stage, Tier, module_spans, tier_of, touched_modules
from pytest_hwrepair.repo.patch import write
from pytest_hwrepair.sandbox.base import Execution, Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Category

DEMO = Path(__file__).parents[1] / "data" / "repo_demo"
CASE = load_case(DEMO / "case.toml")
assert CASE.repo is not None
PARTS = CASE.repo
SNAP = PARTS.snapshot("LOGIC-01")
FIX = ("assign y = a + 2'd2;", "assign y = a + 1'b1;")


def fixed_counter() -> str:
    return SNAP["rtl/counter.v"].replace(*FIX)


def test_files_overlay_the_snapshot_and_a_diff_applies_on_top() -> None:
    diff = write({"rtl/top.v": SNAP["rtl/top.v"]}, {"rtl/top.v": SNAP["rtl/top.v"].replace("4'hf", "4'hF")})
    got = shape(PARTS, SNAP, {"rtl/counter.v": fixed_counter()}, diff)
    assert got.files is not None and got.files["rtl/counter.v"] == fixed_counter()
    assert "4'hF" in got.files["rtl/top.v"] and got.files["README.md"] == SNAP["README.md"]
    assert got.diff.count("--- a/") == 2


def test_testbench_edits_are_undone_and_reported() -> None:
    files = {"tb/tb_top.v": "module tb_top; endmodule\n", "tb/new_tb.v": "module x; endmodule\n"}
    got = shape(PARTS, SNAP, files, None)
    assert got.files is not None and got.files["tb/tb_top.v"] == SNAP["tb/tb_top.v"]
    assert "tb/new_tb.v" not in got.files and set(got.discarded) == {"tb/tb_top.v", "tb/new_tb.v"}
    assert got.diff == ""


def test_new_files_are_kept_only_when_they_are_hdl_sources() -> None:
    got = shape(PARTS, SNAP, {"rtl/extra.v": "module extra; endmodule\n", "top.vvp": "#! binary\n"}, None)
    assert got.files is not None and "rtl/extra.v" in got.files and "top.vvp" not in got.files
    assert got.ignored == ("top.vvp",)


@pytest.mark.parametrize("files, diff, error", [
    ({"../escape.v": "x"}, None, "not a relative path inside the repository"),
    ({}, "--- a/rtl/counter.v\n+++ b/rtl/counter.v\n@@ -1 +1 @@\n-no such line\n+x\n", "does not apply"),
    ({}, "--- a/rtl/nothere.v\n+++ b/rtl/nothere.v\n@@ -1 +1 @@\n-a\n+b\n", "does not exist"),
])
def test_candidates_that_leave_the_tree_or_do_not_apply_have_no_repository(files: dict[str, str], diff: str | None,
                                                                           error: str) -> None:
    got = shape(PARTS, SNAP, files, diff)
    assert got.files is None and error in got.error


def test_a_diff_may_delete_a_design_file_but_not_a_testbench() -> None:
    diff = write({"rtl/pulse.v": SNAP["rtl/pulse.v"], "tb/tb_pulse.v": SNAP["tb/tb_pulse.v"]}, {})
    got = shape(PARTS, SNAP, {}, diff)
    assert got.files is not None and "rtl/pulse.v" not in got.files and "tb/tb_pulse.v" in got.files


def test_workspace_reader_takes_regular_files_and_skips_links_fifos_and_build_outputs(tmp_path: Path) -> None:
    write_files(tmp_path, SNAP)
    (tmp_path / "rtl" / "counter.v").write_text(fixed_counter())
    (tmp_path / "sim.vvp").write_bytes(b"\x00\x01")
    (tmp_path / "rtl" / "link.v").symlink_to("/etc/passwd")
    (tmp_path / "linkdir").symlink_to("/etc")
    os.mkfifo(tmp_path / "rtl" / "fifo.v")
    (tmp_path / "rtl" / "top.v").unlink()
    diff, ignored = workspace_diff(tmp_path, SNAP)
    assert set(ignored) == {"sim.vvp", "rtl/link.v", "linkdir", "rtl/fifo.v"}
    assert "+++ /dev/null" in diff and "passwd" not in diff and "-    assign y = a + 2'd2;" in diff


def test_workspace_reader_refuses_oversized_files_and_floods(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big.v").write_text("x" * (cand.FILE_CAP + 1))
    with pytest.raises(CandidateError, match="a repository file may have at most"):
        read_workspace(tmp_path, [])
    (tmp_path / "big.v").unlink()
    monkeypatch.setattr(cand, "MAX_WALK", 5)
    for i in range(6):
        (tmp_path / f"f{i}.txt").write_text("x")
    with pytest.raises(CandidateError, match="more than 5 entries"):
        read_workspace(tmp_path, [])


def test_module_spans_ignore_comments_and_strings() -> None:
    text = "// module fake\nmodule a;\n  wire x; /* endmodule */\nendmodule\n\nmodule b;\nendmodule\n"
    assert module_spans(text) == [("a", 1, 3), ("b", 5, 6)]


def test_touched_modules_count_both_sides_and_insertions() -> None:
    before = "module a;\n  wire x;\nendmodule\nmodule b;\nendmodule\n"
    assert touched_modules(before, before.replace("wire x;", "wire y;")) == {"a"}
    assert touched_modules(before, before.replace("module b;\n", "module b;\n  wire z;\n")) == {"b"}
    assert touched_modules(before, before + "module c;\nendmodule\n") == {"c"}
    assert touched_modules(before, "// header\n" + before) == set()


@pytest.mark.parametrize("files, hunks, tier", [(1, 1, Tier.T1), (1, 2, Tier.T1), (1, 3, Tier.T2), (2, 2, Tier.T2),
                                                (3, 6, Tier.T2), (4, 4, Tier.T3), (2, 7, Tier.T3)])
def test_tiers_follow_the_gold_patch_files_and_hunks(files: int, hunks: int, tier: Tier) -> None:
    assert tier_of(files, hunks) is tier


def test_stages_of_unresolved_samples() -> None:
    gold = Gold(frozenset({"a.v", "b.v"}), frozenset({"a", "b"}), 2)
    snap = {"a.v": "x\n", "b.v": "y\n", "c.v": "z\n"}
    assert Localisation.of(snap, snap, gold).stage(False) is Stage.NO_EDIT
    assert Localisation.of(snap, {**snap, "a.v": "1\n"}, gold).stage(False) is Stage.LOCALISATION
    assert Localisation.of(snap, {**snap, "a.v": "1\n", "b.v": "2\n"}, gold).stage(False) is Stage.REPAIR
    assert Localisation.of(snap, {**snap, "a.v": "1\n", "b.v": "2\n"}, gold).stage(True) is None


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> RepoOracle:
    return RepoOracle(CASE, OracleContext(tmp_path_factory.mktemp("cache"))).for_bug("LOGIC-01")


needs_iverilog = pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs iverilog")


@needs_iverilog
def test_a_planted_testbench_in_the_workspace_never_runs(tmp_path: Path, oracle: RepoOracle) -> None:
    files = {**SNAP, "tb/tb_counter.v": 'module tb_counter; initial begin $display("TEST PASSED"); end endmodule\n'}
    write_files(tmp_path, files)
    verdict = oracle.check(tmp_path, LocalSandbox())
    assert not verdict.passed and verdict.metrics["tests"]["counter"] == TestStatus.FAIL.value


@needs_iverilog
def test_design_files_may_not_print_or_reach_into_the_testbench(tmp_path: Path, oracle: RepoOracle) -> None:
    hostile = SNAP["rtl/pulse.v"].replace("assign rise = d & ~last;", "assign rise = tb_pulse.d & ~last;")
    write_files(tmp_path, {**SNAP, "rtl/pulse.v": hostile})
    verdict = oracle.check(tmp_path, LocalSandbox())
    assert verdict.category is Category.LINT_FAIL and "hierarchical reference" in verdict.summary


@needs_iverilog
def test_a_self_check_that_passes_with_a_trace_unlike_the_fixed_design_fails(tmp_path: Path, oracle: RepoOracle,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    write_files(tmp_path, {**SNAP, "rtl/counter.v": fixed_counter()})
    assert oracle.check(tmp_path, LocalSandbox()).passed
    monkeypatch.setattr(oracle, "golden", lambda test, sandbox: ["TRACE from another design"])
    verdict = oracle.check(tmp_path, LocalSandbox())
    assert verdict.category is Category.TEST_FAIL and verdict.metrics["tests"]["counter"] == "trace_mismatch"
    assert "trace line 1: expected 'from another design'" in verdict.summary


def test_trace_difference_names_the_first_differing_line() -> None:
    assert trace_difference(["TRACE a", "TRACE b"], ("TRACE a", "TRACE c")) == "trace line 2: expected 'b', got 'c'"
    assert trace_difference(["TRACE a"], ()) == "the trace has 0 lines, the fixed design's has 1"


class KillOnce:
    """A sandbox whose first step is killed from outside (SIGKILL before its deadline)."""

    name = "kill-once"

    def __init__(self, kills: int) -> None:
        self.kills, self.calls = kills, 0

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        self.calls += 1
        if self.calls <= self.kills:
            return Execution(argv, -9, "", "", 0.1, signal=9)
        return LocalSandbox().run(workdir, argv, timeout=timeout, limits=limits)


@needs_iverilog
@pytest.mark.parametrize("kills, status", [(1, "pass"), (2, "build_fail")])
def test_a_step_killed_from_outside_runs_once_more(tmp_path: Path, kills: int, status: str) -> None:
    sandbox = KillOnce(kills)
    test = PARTS.model.test_by_name("pulse")
    with scratch_workspace() as bench:  # world-searchable: the sandbox runs steps under their own uid
        write_files(bench, {**SNAP, "rtl/counter.v": fixed_counter()})
        result = run_steps(bench, "p2p", test, 20, sandbox, OracleContext(tmp_path / "cache"))
    assert result.status.value == status and sandbox.calls == (3 if kills == 1 else 2)
