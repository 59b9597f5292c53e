"""The CUDA corpus is consistent with its own contract: loadable, screened, logs in their buckets."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytest_hwrepair.cases.case import Case, find_case_files
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.cuda.checks import anti_cheat_violation
from pytest_hwrepair.oracles.cuda.classify import BUCKET_CATEGORIES, Stage, StepLog, classify

ROOT = Path(__file__).resolve().parents[2]
CASES = find_case_files([ROOT / "cases" / "cuda"])
IDS = [str(p.parent.relative_to(ROOT / "cases" / "cuda")) for p in CASES]


def load_gpu_script() -> ModuleType:
    """scripts/validate_cuda_gpu.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("validate_cuda_gpu", ROOT / "scripts" / "validate_cuda_gpu.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("validate_cuda_gpu", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_gpu_script()


def load(path: Path) -> Case:
    return load_case(path, strict=True)


def test_corpus_has_thirty_tasks_over_ten_families() -> None:
    cases = [load(p) for p in CASES]
    assert len(cases) >= 30
    assert len({c.suite for c in cases}) >= 10
    assert {b.bucket for c in cases for b in c.bugs} == set(BUCKET_CATEGORIES)


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_task_layout(path: Path) -> None:
    case = load(path)
    assert case.domain == "cuda" and case.target == "solution.cu"
    assert case.model.sources == ["solution.cu", "test_main.cu"]
    assert case.spec_text and case.oracle.timing and case.oracle.anti_cheat.required
    assert case.files["test_main.cu"].rstrip().endswith('#include "solution.cu"')
    assert (ROOT / "oracles" / case.oracle.assets[0]).is_file()


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_anti_cheat_accepts_reference_and_every_start(path: Path) -> None:
    case = load(path)
    rules = case.oracle.anti_cheat
    texts = [case.files[case.target]] + [case.files[b.broken] for b in case.bugs if b.broken]
    for text in texts:
        assert anti_cheat_violation(text, rules.blocked, rules.required) is None


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_every_start_is_a_distinct_change_of_the_reference(path: Path) -> None:
    case = load(path)
    starts = [case.files[b.broken] for b in case.bugs if b.broken]
    assert len(starts) == len(case.bugs)
    assert case.files[case.target] not in starts
    assert len(set(starts)) == len(starts)


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_recorded_logs_classify_into_their_bucket(path: Path) -> None:
    case = load(path)
    for bug in case.bugs:
        assert bug.bucket is not None
        if bug.bucket == "compile_error":
            assert bug.error_log, f"{bug.id}: compile_error starts carry their nvcc log"
        if not bug.error_log or bug.bucket == "perf_broken":
            continue
        stage = Stage.BUILD if bug.bucket == "compile_error" else Stage.RUN
        log = StepLog(stage, case.files[bug.error_log], 1, timed_out=bug.bucket == "timeout")
        assert classify(log, case.target).category in BUCKET_CATEGORIES[bug.bucket], bug.id


def test_launch_rewrite_for_the_emulator(script: ModuleType) -> None:
    source = "k<<<grid, dim3(32, 8)>>>(a, b);\nscan<256><<<1,\n  1024>>>(x);\n"
    assert script.rewrite_launches(source) == (
        "hwr_emu::launcher(k, grid, dim3(32, 8))(a, b);\nhwr_emu::launcher(scan<256>, 1,\n  1024)(x);\n")


def test_coverage_table_counts_starts_per_family_and_bucket(script: ModuleType) -> None:
    table = script.coverage_table(script.items_of(script.find_cases([ROOT / "cases" / "cuda"])))
    rows = {line.split("|")[1].strip(): line for line in table.splitlines()[2:]}
    total = sum(len(load(p).bugs) for p in CASES)
    assert rows["**all**"].rstrip(" |").endswith(str(total))
    assert set(rows) - {"**all**"} == {load(p).suite for p in CASES}


def test_record_log_adds_error_log_to_the_case(script: ModuleType, tmp_path: Path) -> None:
    case_dir = tmp_path / "task"
    (case_dir / "broken").mkdir(parents=True)
    (case_dir / "case.toml").write_text('[[bug]]\nid = "LOGIC-01"\nbroken = "broken/logic-01.cu"\nnote = "x"\n')
    bug = {"id": "LOGIC-01", "bucket": "logic_error", "broken": "broken/logic-01.cu"}
    item = script.Item(case_dir, {}, bug, status="ok", log="MISMATCH out[0]: got 1 expected 2\n")
    script.record_log(item, False)
    assert not (case_dir / "broken" / "logic-01.log").exists()
    script.record_log(item, True)
    assert (case_dir / "broken" / "logic-01.log").read_text() == "MISMATCH out[0]: got 1 expected 2\n"
    assert 'broken = "broken/logic-01.cu"\nerror_log = "broken/logic-01.log"\n' in (case_dir / "case.toml").read_text()


def test_the_gpu_script_runs_the_oracle_s_own_validation_with_progress(script: ModuleType,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The two-sided GPU validation is `hwrepair validate --gpu`; each start's line comes as its check ends.
    ran: list[list[str]] = []
    monkeypatch.setattr(script.subprocess, "run", lambda cmd, **kw: ran.append(cmd) or subprocess.CompletedProcess(
        cmd, 0))
    assert script.main(["--gpu", "yes", "--jobs", "3", str(ROOT / "cases" / "cuda" / "scan")]) == 0
    (cmd,) = ran
    assert cmd[1:4] == ["-m", "pytest_hwrepair.cli", "validate"]
    assert cmd[cmd.index("--gpu") + 1] == "yes" and cmd[cmd.index("-j") + 1] == "3" and "--progress" in cmd
    assert cmd[-1].endswith("cases/cuda/scan")
