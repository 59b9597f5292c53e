"""Without a CUDA device: runtime-bucket samples are skipped before the fixer is called, and the build stage
is reported as its own table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.controller import summarize
from pytest_hwrepair.fixers.base import Candidate, RepairTask
from pytest_hwrepair.oracles import OracleContext
from pytest_hwrepair.oracles.cuda import oracle as cuda_oracle
from pytest_hwrepair.report.terminal import render
from pytest_hwrepair.results.rundir import RunDir
from pytest_hwrepair.run.runner import Harness, SampleResult, execute
from pytest_hwrepair.run.sample import ProtocolConfig, Sample
from pytest_hwrepair.verdict import Outcome, RepairProtocol

from ...oracles.cuda.test_oracle import CASE_TOML, GPU, SOLUTION, TEST_MAIN, FakeSandbox

LOGIC_BUG = """
[[bug]]
id = "LOGIC-01"
bucket = "logic_error"
broken = "broken/logic-01.cu"
"""


class CountingFixer:
    """Returns the reference solution and counts how often it was asked (a model's bill)."""

    name = "counting"
    deterministic = True
    config: dict[str, Any] = {"fixer": "counting"}

    def __init__(self) -> None:
        self.calls = 0

    def repair(self, task: RepairTask) -> Candidate:
        self.calls += 1
        return Candidate(files={task.target: SOLUTION})


@pytest.fixture
def case_dir(tmp_path: Path) -> Path:
    root = tmp_path / "case"
    (root / "broken").mkdir(parents=True)
    (root / "case.toml").write_text(CASE_TOML.format(extra="") + LOGIC_BUG)
    (root / "solution.cu").write_text(SOLUTION)
    (root / "test_main.cu").write_text(TEST_MAIN)
    (root / "broken" / "compile-01.cu").write_text(SOLUTION.replace("x[i] *= a;", "x[i] *= a"))
    (root / "broken" / "logic-01.cu").write_text(SOLUTION.replace("x[i] *= a;", "x[i] *= a + 1;"))
    return root


def one(case_dir: Path, tmp_path: Path, bug_id: str, *, gpu: bool, precheck: bool = True) -> tuple[SampleResult,
                                                                                                   CountingFixer]:
    case = load_case(case_dir / "case.toml")
    bug = next(b for b in case.bugs if b.id == bug_id)
    fixer = CountingFixer()
    harness = Harness(RunDir(tmp_path / "run"), OracleContext(tmp_path / "cache", options={"gpu": gpu}),
                      precheck=precheck)
    sample = Sample.make(case, bug, "counting", fixer, 0, RepairProtocol.ITERATIVE, ProtocolConfig())
    return execute(sample, fixer, harness, FakeSandbox()), fixer


def test_a_runtime_bucket_sample_is_skipped_before_the_fixer_is_called(case_dir: Path, tmp_path: Path) -> None:
    result, fixer = one(case_dir, tmp_path, "LOGIC-01", gpu=False)
    assert fixer.calls == 0
    assert result.verdict.outcome is Outcome.SKIPPED and "the fixer was not called" in result.verdict.summary
    assert result.records[-1].metrics == {"not_judged": True}


def test_a_compile_error_sample_is_still_judged_at_the_build_stage(case_dir: Path, tmp_path: Path) -> None:
    result, fixer = one(case_dir, tmp_path, "COMPILE-01", gpu=False)
    assert fixer.calls == 1 and result.records[-1].metrics.get("build") == "passed"


def test_with_a_device_every_bucket_calls_the_fixer(case_dir: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cuda_oracle, "probe_gpu", lambda: GPU)
    _, fixer = one(case_dir, tmp_path, "LOGIC-01", gpu=True)
    assert fixer.calls == 1


def test_validation_still_builds_a_runtime_bucket_start(case_dir: Path, tmp_path: Path) -> None:
    _, fixer = one(case_dir, tmp_path, "LOGIC-01", gpu=False, precheck=False)
    assert fixer.calls == 1


def test_the_build_stage_is_its_own_row(case_dir: Path, tmp_path: Path) -> None:
    records = [*one(case_dir, tmp_path / "a", "COMPILE-01", gpu=False)[0].records,
               *one(case_dir, tmp_path / "b", "LOGIC-01", gpu=False)[0].records]
    summary = summarize(records, [1])
    (row,) = summary["cuda_build"]
    assert row == {"fixer": "counting", "suite": "demo", "judged": 1, "built": 1, "compile_fail": 0,
                   "runtime_judged": 0, "runtime_skipped": 1, "not_judged": 1, "build_rate": 1.0}
    text = "\n".join(render(summary))
    assert "cuda build stage (no CUDA device here: the runtime stage was not judged" in text
    assert "judged: candidates whose build ran" in text
