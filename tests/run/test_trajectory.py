"""The iterative protocol: scripted fixers drive every stop reason and metric, at -n0 and -n 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.run.sample import stagnation

from ..conftest import SUM_C, write_case

XDIST = [pytest.param([], id="n0"), pytest.param(["-n", "2"], id="n2")]

CASE = """\
schema = 1
id = "sum"
domain = "hls"
suite = "demo"
sources = ["sum.c"]
target = "sum.c"

[oracle]
kind = "exit-code"
build = "gcc -O0 sum.c -o prog"
run = "./prog"
timeout = 3
stdout = 'mismatches = 0'
""" + "".join(f"""
[[bug]]
id = "{bug}"
type = "MLU"
find = "i < 10"
replace = "i < 9"
""" for bug in ("LATE-01", "DUP-01", "CYCLE-01", "STUCK-01", "OSC-01", "LONG-01"))

SCRIPTED = """
import pytest
from pytest_hwrepair.fixers.base import Candidate

GOOD = open("cases/hls/demo/sum/sum.c").read()
VARIANTS = {
    "good": GOOD,
    "bad1": GOOD.replace("i < 10", "i < 9"),
    "bad2": GOOD.replace("i < 10", "i < 8"),
    "bad3": GOOD.replace("i < 10", "i < 7"),
    "cc1": GOOD.replace("int s = 0;", "int s = 0"),
    "cc2": GOOD.replace("return s != 45;", "return s != 45"),
}
SCRIPTS = {
    "LATE-01": ["bad1", "cc1", "good"],
    "DUP-01": ["bad1", "bad1"],
    "CYCLE-01": ["bad1", "cc1", "bad1"],
    "STUCK-01": ["bad1", "bad2", "bad3"],
    "OSC-01": ["cc1", "bad1", "cc2", "bad2"],
    "LONG-01": ["bad1", "bad2", "cc1", "cc2", "bad3"],
}

class Scripted:
    name = "scripted"
    config = {"fixer": "scripted"}
    def repair(self, task):
        assert len(task.history) == min(task.attempt, 4)
        if task.attempt:
            assert "did not pass" in task.history[-1].feedback
        return Candidate(files={task.target: VARIANTS[SCRIPTS[task.bug][task.attempt]]})

@pytest.fixture
def hwrepair_fixer():
    return Scripted()
"""

EXPECTED_STOPS = {"LATE-01": "passed", "DUP-01": "duplicate_code", "CYCLE-01": "code_cycle",
                  "STUCK-01": "no_progress", "OSC-01": "category_oscillation", "LONG-01": "budget"}


@pytest.fixture
def scripted(pytester: pytest.Pytester) -> pytest.Pytester:
    write_case(pytester.path, "sum", {"case.toml": CASE, "sum.c": SUM_C})
    pytester.makeconftest(SCRIPTED)
    return pytester


def run_iterative(pt: pytest.Pytester, run_dir: str, *extra: str) -> pytest.RunResult:
    return pt.runpytest_subprocess("-p", "no:cacheprovider", "cases", "--fixer", "noop",
                                   "--hwrepair-protocol", "iterative", "--hwrepair-iterations", "5",
                                   "--hwrepair-run", run_dir, *extra)


def load(run_dir: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    recs = [json.loads(line) for line in (run_dir / "samples.jsonl").read_text().splitlines()]
    return recs, json.loads((run_dir / "summary.json").read_text())


@pytest.mark.parametrize("xdist", XDIST)
def test_every_stop_reason_and_metric(scripted: pytest.Pytester, xdist: list[str]) -> None:
    result = run_iterative(scripted, "r", *xdist)
    result.assert_outcomes(passed=1, failed=5)
    recs, summary = load(scripted.path / "r")
    finals = {r["bug"]: r for r in recs if r["final"]}
    assert {bug: r["stop_reason"] for bug, r in finals.items()} == EXPECTED_STOPS
    attempts = {bug: sum(1 for r in recs if r["bug"] == bug) for bug in EXPECTED_STOPS}
    assert attempts == {"LATE-01": 3, "DUP-01": 2, "CYCLE-01": 3, "STUCK-01": 3, "OSC-01": 4, "LONG-01": 5}
    assert [r["iteration"] for r in recs if r["bug"] == "LATE-01"] == [0, 1, 2]
    it = summary["iterative"][0]
    assert it["trajectories"] == 6
    assert it["pass@1"] == 0.0
    assert it["pass_within"] == {"1": 0.0, "5": round(1 / 6, 4)}
    assert it["debug_rate"] == {"1": 0.0, "5": round(1 / 6, 4)}
    assert it["fix_rate"] == {"compile_fail": 0.0, "test_fail": 0.2}
    assert it["stop_reasons"] == {"budget": 1, "category_oscillation": 1, "code_cycle": 1, "duplicate_code": 1,
                                  "no_progress": 1, "passed": 1}
    assert it["stagnation_rate"]["duplicate_code"] == round(1 / 6, 4)
    assert it["transitions"]["test_fail"]["compile_fail"] == 4
    assert it["transitions"]["compile_fail"]["pass"] == 1
    # trajectories count once in the pass@k tables, by their final verdict
    assert summary["fixers"][0]["samples"] == 6 and summary["fixers"][0]["passed"] == 1


def test_iterative_summary_is_identical_with_and_without_xdist(scripted: pytest.Pytester) -> None:
    run_iterative(scripted, "a")
    run_iterative(scripted, "b", "-n", "2")
    a, b = load(scripted.path / "a")[1], load(scripted.path / "b")[1]
    a.pop("run"), b.pop("run")
    assert a == b


def test_finished_trajectories_are_not_run_again(scripted: pytest.Pytester) -> None:
    run_iterative(scripted, "r", "-k", "LATE or DUP")
    before = len(load(scripted.path / "r")[0])
    result = run_iterative(scripted, "r")
    result.assert_outcomes(passed=1, failed=5)
    recs, _ = load(scripted.path / "r")
    assert len(recs) == before + 3 + 4 + 5 + 3  # CYCLE, OSC, LONG, STUCK only
    assert len([r for r in recs if r["bug"] == "LATE-01"]) == 3


@pytest.mark.parametrize(("hashes", "categories", "expected"), [
    (["a", "a"], ["test_fail"] * 2, "duplicate_code"),
    (["a", "b", "a"], ["test_fail", "compile_fail", "test_fail"], "code_cycle"),
    (["a", "b", "c"], ["test_fail"] * 3, "no_progress"),
    (["a", "b", "c", "d"], ["compile_fail", "test_fail", "compile_fail", "test_fail"], "category_oscillation"),
    (["a", "b"], ["test_fail", "compile_fail"], None),
])
def test_stagnation_signals(hashes: list[str], categories: list[str], expected: str | None) -> None:
    signatures = [c if expected == "no_progress" else f"{c}{i}" for i, c in enumerate(categories)]
    assert stagnation(list(hashes), categories, signatures) == expected
