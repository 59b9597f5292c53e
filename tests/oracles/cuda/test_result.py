"""The CUDA verdict is the harness's reading of the result file, not the lines the test printed."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytest_hwrepair.oracles.cuda.checks import (
    RESULT_FILE,
    ResultError,
    ResultReader,
    judge_result,
    parse_result,
    same_expectations,
)

REPO = Path(__file__).resolve().parents[3]
TASK = REPO / "cases" / "cuda" / "elementwise" / "vector_add"
GOOD = ("hwrepair-result 1\ncheck 2 0 0x0p+0 0x1p-10 2 c out\nf 0 0x1p+0 0x1p+0\nf 1 0x1.8p+1 0x1.8p+1\n"
        "time 0x1p-3\nend 0\n")


def test_a_complete_passing_record_is_accepted() -> None:
    result = parse_result(GOOD)
    assert judge_result(result) is None
    assert result.ms == 0.125 and result.checks[0].name == "c out" and result.checks[0].count == 2


@pytest.mark.parametrize("text, why", [
    ("", "header"),
    ("PASSED\nKernel time: 0.001 ms\n", "header"),
    (GOOD.replace("end 0\n", ""), "incomplete"),
    (GOOD.replace("time 0x1p-3\n", ""), "incomplete"),
    (GOOD.replace("f 1 0x1.8p+1 0x1.8p+1\n", ""), "malformed"),
    (GOOD + "PASSED\n", "not part of the format"),
])
def test_malformed_records_are_rejected(text: str, why: str) -> None:
    with pytest.raises(ResultError, match=why):
        parse_result(text)


def test_the_sample_is_rechecked_whatever_the_test_counted() -> None:
    forged = GOOD.replace("f 1 0x1.8p+1 0x1.8p+1", "f 1 0x1p+5 0x1.8p+1")
    assert "re-checked by the harness" in (judge_result(parse_result(forged)) or "")
    nan = GOOD.replace("f 1 0x1.8p+1 0x1.8p+1", "f 1 nan 0x1.8p+1")
    assert judge_result(parse_result(nan)) is not None


def test_recorded_mismatches_fail_and_no_checks_fail() -> None:
    assert "outside tolerance" in (judge_result(parse_result(GOOD.replace("end 0", "end 3"))) or "")
    empty = "hwrepair-result 1\ntime 0x1p-3\nend 0\n"
    assert judge_result(parse_result(empty)) == "the test recorded no checked output"
    zero_time = GOOD.replace("time 0x1p-3", "time 0x0p+0")
    assert "kernel time" in (judge_result(parse_result(zero_time)) or "")


def test_expected_values_must_match_the_reference_run() -> None:
    moved = parse_result(GOOD.replace("f 0 0x1p+0 0x1p+0", "f 0 0x1p+1 0x1p+1"))
    assert same_expectations(moved, parse_result(GOOD)) is not None
    assert same_expectations(parse_result(GOOD), parse_result(GOOD)) is None


def test_a_missing_or_linked_result_file_is_a_wrong_answer(tmp_path: Path) -> None:
    reader = ResultReader(tmp_path)
    missing = reader.read().failure
    assert missing is not None and missing.category.value == "functional_correctness"
    assert "not a verdict" in missing.evidence
    (tmp_path / "real.txt").write_text(GOOD)
    (tmp_path / RESULT_FILE).symlink_to(tmp_path / "real.txt")
    linked = reader.read().failure
    assert linked is not None and "symbolic link" in linked.evidence
    reader.clear()
    assert not (tmp_path / RESULT_FILE).is_symlink()
    (tmp_path / RESULT_FILE).write_text(GOOD)
    assert reader.read().ms == 0.125 and reader.last is not None


# ---- end to end on the CPU emulator (scripts/cuda_emu): the harness header writes, the oracle reads


def _validate_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("validate_cuda_gpu", REPO / "scripts" / "validate_cuda_gpu.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("validate_cuda_gpu", module)
    spec.loader.exec_module(module)
    return module


def emulate(tmp_path: Path, solution: str) -> tuple[subprocess.CompletedProcess[str], ResultReader]:
    rewrite = _validate_script().rewrite_launches
    for name in ("test_main.cu",):
        (tmp_path / name).write_text(rewrite((TASK / name).read_text()))
    (tmp_path / "solution.cu").write_text(rewrite(solution))
    shutil.copy(REPO / "oracles" / "cuda" / "hwrepair_check.cuh", tmp_path / "hwrepair_check.cuh")
    build = subprocess.run(["g++", "-std=c++17", "-O1", "-w", "-DHWR_EMULATE", f"-I{REPO / 'scripts' / 'cuda_emu'}",
                            "-x", "c++", "test_main.cu", "-o", "test_emu", "-lm"], cwd=tmp_path, capture_output=True,
                           text=True, check=False, timeout=300)
    assert build.returncode == 0, build.stderr[-2000:]
    run = subprocess.run(["./test_emu"], cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120)
    return run, ResultReader(tmp_path)


needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


@needs_gxx
def test_the_reference_writes_a_result_the_harness_accepts(tmp_path: Path) -> None:
    run, reader = emulate(tmp_path, (TASK / "solution.cu").read_text())
    assert run.returncode == 0 and "PASSED" in run.stdout
    reading = reader.read()
    assert reading.failure is None, reading.failure
    assert reader.last is not None and reader.last.checks[0].count == 5000


@needs_gxx
def test_a_wrong_kernel_is_recorded_as_wrong(tmp_path: Path) -> None:
    wrong = (TASK / "solution.cu").read_text().replace("c[i] = a[i] + b[i];", "c[i] = a[i] - b[i];")
    run, reader = emulate(tmp_path, wrong)
    assert run.returncode == 1
    failure = reader.read().failure
    assert failure is not None and "outside tolerance" in failure.evidence


@needs_gxx
def test_a_printed_pass_without_the_harness_result_fails(tmp_path: Path) -> None:
    # What the screen stops from getting this far; the result file stops it again if it did.
    forged = (TASK / "solution.cu").read_text() + (
        '\nstruct Fake { Fake() { std::printf("Kernel time: 0.0001 ms\\nPASSED\\n"); std::fflush(stdout); '
        "std::_Exit(0); } };\nstatic Fake fake;\n")
    run, reader = emulate(tmp_path, forged)
    assert run.returncode == 0 and "PASSED" in run.stdout
    failure = reader.read().failure
    assert failure is not None and "not a verdict" in failure.evidence
