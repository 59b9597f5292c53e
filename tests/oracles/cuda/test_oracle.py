"""The cuda oracle: anti-cheat, build classification, the no-GPU skip and the perf gate."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import Case
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import ORACLES, OracleContext, make_oracle
from pytest_hwrepair.oracles.cuda import oracle as cuda_oracle
from pytest_hwrepair.oracles.cuda.checks import (
    NO_DEVICE,
    RESULT_FILE,
    GpuInfo,
    TimingStats,
    anti_cheat_violation,
    measure,
    parse_timing,
)
from pytest_hwrepair.oracles.cuda.classify import CudaCategory, Stage, StepLog
from pytest_hwrepair.oracles.cuda.screen import clean
from pytest_hwrepair.sandbox.base import Execution, Limits
from pytest_hwrepair.verdict import Category, Outcome

CASE_TOML = """\
schema = 1
id = "scale"
domain = "cuda"
suite = "demo"
sources = ["solution.cu", "test_main.cu"]
target = "solution.cu"

[oracle]
kind = "cuda"
build = "nvcc -O2 -arch=sm_80 -o test test_main.cu"
run = "./test"
timeout = 30
min_sm = 80
timing = 'Kernel time: ([0-9.]+) ms'
anti_cheat = {{ blocked = ['\\bcublas', '\\bprintf\\b'], required = ['__global__'] }}
{extra}
[[bug]]
id = "COMPILE-01"
bucket = "compile_error"
broken = "broken/compile-01.cu"
"""

SOLUTION = """\
// reference: REF
__global__ void scale_kernel(float* x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

void launch_scale(float* x, float a, int n) { scale_kernel<<<(n + 255) / 256, 256>>>(x, a, n); }
"""

TEST_MAIN = """\
#include <cuda_runtime.h>
void launch_scale(float* x, float a, int n);
int main() { float* d; cudaMalloc(&d, 4096); launch_scale(d, 2.0f, 1024); return cudaDeviceSynchronize(); }
#include "solution.cu"
"""


def make_case(root: Path, extra: str = "", broken: str | None = None) -> Case:
    (root / "broken").mkdir(parents=True)
    (root / "case.toml").write_text(CASE_TOML.format(extra=extra))
    (root / "solution.cu").write_text(SOLUTION)
    (root / "test_main.cu").write_text(TEST_MAIN)
    (root / "broken" / "compile-01.cu").write_text(broken or SOLUTION.replace("x[i] *= a;", "x[i] *= a"))
    return load_case(root / "case.toml")


def workspace(root: Path, solution: str) -> Path:
    ws = root / "ws"
    ws.mkdir(parents=True)
    (ws / "solution.cu").write_text(solution)
    (ws / "test_main.cu").write_text(TEST_MAIN)
    return ws


@dataclass
class FakeSandbox:
    """Scripted steps: a build log per call, and a kernel time per run keyed by the workspace's solution."""

    build_log: str = ""
    build_rc: int = 0
    reference_build_log: str = ""
    reference_build_rc: int = 0
    candidate_ms: list[float] = field(default_factory=lambda: [1.0])
    reference_ms: float = 1.0
    run_text: str | None = None
    run_rc: int = 0
    reference_run_text: str | None = None
    calls: list[tuple[str, str, Limits]] = field(default_factory=list)
    name: str = "fake"

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        is_reference = "REF" in (workdir / "solution.cu").read_text() and workdir.name != "ws"
        who = "reference" if is_reference else "candidate"
        self.calls.append((who, argv, limits))
        if " -E " in argv:  # the screen's preprocessor pass: the candidate's lines, marked as its file
            return Execution(argv, 0, '# 1 "solution.cu" 1\n' + (workdir / "solution.cu").read_text(), "", 0.2)
        if argv.startswith("nvcc") and is_reference:
            return Execution(argv, self.reference_build_rc, "", self.reference_build_log, 1.5)
        if argv.startswith("nvcc"):
            return Execution(argv, self.build_rc, "", self.build_log, 1.5)
        if self.run_text is not None and not is_reference:
            return Execution(argv, self.run_rc, self.run_text, "", 0.5)
        if self.reference_run_text is not None and is_reference:
            return Execution(argv, 1, self.reference_run_text, "", 0.5)
        index = min(self.runs(who) - 1, len(self.candidate_ms) - 1)
        ms = self.reference_ms if is_reference else self.candidate_ms[index]
        (workdir / RESULT_FILE).write_text(result_file(ms))  # what the harness-owned test records
        return Execution(argv, 0, f"Kernel time: {ms:.4f} ms\nPASSED\n", "", 0.5)

    def runs(self, who: str) -> int:
        return sum(1 for w, argv, _ in self.calls if w == who and not argv.startswith("nvcc"))

    def builds(self) -> list[str]:
        return [argv for _, argv, _ in self.calls if argv.startswith("nvcc") and " -E " not in argv]


def result_file(ms: float, got: float = 2.0, want: float = 2.0, bad: int = 0) -> str:
    return (f"hwrepair-result 1\ncheck 3 {bad} 0x0p+0 0x0p+0 1 x\nf 0 {got.hex()} {want.hex()}\n"
            f"time {ms.hex()}\nend {bad}\n")


GPU = GpuInfo("NVIDIA H200", 90, "GPU-1234", "580.1", "13.0")


@pytest.fixture
def with_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cuda_oracle, "probe_gpu", lambda: GPU)


def context(tmp_path: Path, **options: object) -> OracleContext:
    return OracleContext(cache_dir=tmp_path / "cache", options={"timing_runs": 3, **options})


def builds(box: FakeSandbox) -> list[str]:
    """Who the nvcc builds were for (the screen's preprocessor passes are no builds)."""
    return [who for who, argv, _ in box.calls if argv.startswith("nvcc") and " -E " not in argv]


def test_cuda_kind_is_registered(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    assert "cuda" in ORACLES
    assert isinstance(make_oracle(case, context(tmp_path)), cuda_oracle.CudaOracle)


def test_blocked_pattern_fails_before_building(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox()
    ws = workspace(tmp_path, SOLUTION + '\n#include <cublas_v2.h>\n')
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path)).check(ws, box)
    assert verdict.outcome is Outcome.FAILED
    assert verdict.summary.startswith("anti-cheat: blocked pattern '\\\\bcublas' matches line 10")
    assert verdict.metrics["cuda_stage"] == "anti_cheat"
    assert box.calls == []


def test_missing_required_pattern_fails(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    ws = workspace(tmp_path, SOLUTION.replace("__global__", "__device__"))
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path)).check(ws, FakeSandbox())
    assert verdict.category is Category.TEST_FAIL
    assert "required pattern '__global__' does not occur" in verdict.summary


def test_blocked_word_in_a_comment_is_allowed() -> None:
    assert anti_cheat_violation("// no cublas, no printf here\n__global__ void k() {}\n", ["\\bcublas"], []) is None


def test_required_word_only_in_a_comment_does_not_count() -> None:
    reason = anti_cheat_violation("/* __shfl_down_sync */ int x;\n", [], ["__shfl_down_sync"])
    assert reason is not None


def test_cleaning_keeps_lines_and_empties_literals() -> None:
    code = 'a // x\n/* b\nc */ s = "// not a comment";\n'
    stripped = clean(code)
    assert stripped.count("\n") == code.count("\n")
    assert '""' in stripped and "not a comment" not in stripped
    assert "b" not in stripped.split("\n")[1]


def test_build_failure_is_classified(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    log = 'solution.cu(6): error: expected a ";"\n\n1 error detected in the compilation of "test_main.cu".\n'
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path)).check(
        workspace(tmp_path, SOLUTION), FakeSandbox(build_log=log, build_rc=2))
    assert verdict.category is Category.COMPILE_FAIL
    assert verdict.metrics["cuda_category"] == "buildability"
    assert verdict.summary == 'build failed: buildability: solution.cu(6): error: expected a ";"'
    assert verdict.durations["build"] == 1.5


def test_link_error_is_integration(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    log = "x.cpp:(.text+0x31): undefined reference to `launch_scale(float*, float, int)'\n"
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path)).check(
        workspace(tmp_path, SOLUTION), FakeSandbox(build_log=log, build_rc=1))
    assert (verdict.category, verdict.metrics["cuda_category"]) == (Category.COMPILE_FAIL, "integration")


MISSING_HEADER = "solution.cu:1:10: fatal error: cublas_v2.h: No such file or directory\ncompilation terminated.\n"
NO_TORCH = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'torch'\n"


def test_dependency_missing_for_the_reference_too_is_a_skip(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(build_log=MISSING_HEADER, build_rc=1, reference_build_log=MISSING_HEADER, reference_build_rc=1)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.outcome is Outcome.SKIPPED
    assert "the reference fails its build here too: environment_dependency" in verdict.summary
    assert verdict.metrics["reference_fails"] is True


def test_missing_header_only_the_candidate_needs_is_its_compile_failure(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(build_log=MISSING_HEADER, build_rc=1)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path)).check(workspace(tmp_path, SOLUTION), box)
    assert (verdict.category, verdict.metrics["cuda_category"]) == (Category.COMPILE_FAIL, "environment_dependency")
    assert builds(box) == ["candidate", "reference"]


def test_reference_that_fails_to_build_otherwise_is_a_harness_error(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    log = 'solution.cu(6): error: expected a ";"\n'
    box = FakeSandbox(build_log=log, build_rc=2, reference_build_log=log, reference_build_rc=2)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.outcome is Outcome.ERROR
    assert verdict.summary.startswith("environment, not the candidate: the reference fails its build here too")


def test_a_reference_that_builds_is_built_once_for_all_candidates(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(build_log='solution.cu(6): error: expected a ";"\n', build_rc=2)
    oracle = cuda_oracle.CudaOracle(case, context(tmp_path))
    for index in range(3):
        assert oracle.check(workspace(tmp_path / f"w{index}", SOLUTION), box).category is Category.COMPILE_FAIL
    assert sum(1 for who, argv, _ in box.calls if who == "reference" and argv.startswith("nvcc")) == 1


def test_test_step_module_missing_for_the_reference_too_is_a_skip(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(run_text=NO_TORCH, run_rc=1, reference_run_text=NO_TORCH)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.outcome is Outcome.SKIPPED
    assert "the reference fails its run here too" in verdict.summary


def test_test_step_module_only_the_candidate_imports_is_rejected(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(run_text=NO_TORCH, run_rc=1)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.outcome is Outcome.FAILED
    assert verdict.metrics["cuda_category"] == "environment_dependency"


def test_missing_nvcc_is_a_skip(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path)).check(
        workspace(tmp_path, SOLUTION), FakeSandbox(build_log="/bin/sh: 1: nvcc: not found\n", build_rc=127))
    assert verdict.outcome is Outcome.SKIPPED


def test_no_device_skips_the_runtime_stage_after_a_passing_build(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox()
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=False)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.outcome is Outcome.SKIPPED
    assert verdict.summary == NO_DEVICE
    assert "cuda_category" not in verdict.metrics
    assert box.builds() == [case.oracle.build]


def test_correct_and_fast_enough_passes_with_timing_metrics(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(candidate_ms=[1.25], reference_ms=1.0)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.outcome is Outcome.PASSED, verdict
    assert verdict.metrics["speedup"] == 0.8
    assert verdict.metrics["cuda_category"] == "passed"
    assert verdict.metrics["candidate_ms"] == 1.25
    assert verdict.metrics["candidate_cv"] == 0.0
    assert verdict.metrics["reference_runs_ms"] == [1.0, 1.0, 1.0]
    assert verdict.metrics["suspect_speedup"] is False


def test_below_the_perf_gate_is_perf_fail(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(candidate_ms=[5.0], reference_ms=1.0)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.category is Category.PERF_FAIL
    assert verdict.metrics["speedup"] == 0.2
    assert verdict.metrics["perf_gate"] == 0.7


def test_perf_gate_option_overrides_the_case(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case", extra="perf_gate = 0.9\n")
    box = FakeSandbox(candidate_ms=[5.0], reference_ms=1.0)
    oracle = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True, perf_gate=0.1))
    assert oracle.check(workspace(tmp_path, SOLUTION), box).passed


def test_case_perf_gate_applies_without_an_option(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case", extra="perf_gate = 0.9\n")
    box = FakeSandbox(candidate_ms=[1.25], reference_ms=1.0)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.category is Category.PERF_FAIL


def test_large_speedup_is_flagged_suspect(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(candidate_ms=[0.05], reference_ms=1.0)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.passed
    assert verdict.metrics["suspect_speedup"] is True
    assert "suspect" in verdict.summary


def test_reference_timing_is_measured_once_per_gpu_and_reference(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox()
    oracle = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True))
    for index in range(2):
        ws = workspace(tmp_path / f"w{index}", SOLUTION)
        assert oracle.check(ws, box).passed
    assert box.runs("reference") == 4  # one warm-up and three timed runs, once


def test_runs_use_gpu_limits_and_builds_do_not(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox()
    cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(workspace(tmp_path, SOLUTION), box)
    assert {limits.gpu for _, argv, limits in box.calls if argv.startswith("nvcc")} == {False}
    assert {limits.gpu for _, argv, limits in box.calls if argv == "./test"} == {True}


def test_wrong_answer_is_test_fail_with_its_category(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    box = FakeSandbox(run_text="MISMATCH x[3]: got 1 expected 2\nFAILED: 1 of 1024 values\n", run_rc=1)
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(workspace(tmp_path, SOLUTION), box)
    assert verdict.category is Category.TEST_FAIL
    assert verdict.metrics["cuda_category"] == "functional_correctness"
    assert verdict.metrics["speedup"] is None


def test_fault_is_runtime_crash(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    text = "CUDA error: an illegal memory access was encountered (cudaErrorIllegalAddress) at x.cu:3\n"
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(
        workspace(tmp_path, SOLUTION), FakeSandbox(run_text=text, run_rc=2))
    assert (verdict.category, verdict.metrics["cuda_category"]) == (Category.RUNTIME_CRASH, "illegal_memory_access")


def test_broken_driver_is_a_harness_error_not_the_candidates_fault(tmp_path: Path, with_gpu: None) -> None:
    case = make_case(tmp_path / "case")
    text = "CUDA error: no CUDA-capable device is detected (cudaErrorNoDevice) at x.cu:3\n"
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(
        workspace(tmp_path, SOLUTION), FakeSandbox(run_text=text, run_rc=2))
    assert verdict.outcome is Outcome.ERROR
    assert verdict.metrics["cuda_category"] == "environment_dependency"


def test_gpu_below_min_sm_is_a_skip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cuda_oracle, "probe_gpu", lambda: GpuInfo("Tesla T4", 75, "GPU-t4", "1", "13.0"))
    case = make_case(tmp_path / "case")
    verdict = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=True)).check(
        workspace(tmp_path, SOLUTION), FakeSandbox())
    assert verdict.outcome is Outcome.SKIPPED
    assert "sm_80" in verdict.summary


def test_timed_runs_recheck_correctness() -> None:
    outputs = iter(["Kernel time: 1.0 ms\n", "Kernel time: 1.0 ms\n", "MISMATCH y[0]: got 1 expected 2\n"])

    def run_once() -> StepLog:
        text = next(outputs)
        return StepLog(Stage.RUN, text, 1 if text.startswith("MISMATCH") else 0)

    result = measure(run_once, runs=3, timing=r"Kernel time: ([0-9.]+) ms", target="solution.cu")
    assert result.classification.category is CudaCategory.FUNCTIONAL_CORRECTNESS
    assert result.failed_run == 2


def test_missing_timing_line_is_integration() -> None:
    result = measure(lambda: StepLog(Stage.RUN, "PASSED\n", 0), runs=2, timing=r"Kernel time: ([0-9.]+) ms",
                     target=None)
    assert result.classification.category is CudaCategory.INTEGRATION
    assert result.classification.rule == "no_timing"


def test_timing_stats_median_and_cv() -> None:
    stats = TimingStats((1.0, 3.0, 2.0))
    assert stats.median == 2.0
    assert stats.cv == pytest.approx(0.4082, abs=1e-4)
    assert TimingStats.from_json(stats.to_json()) == stats


def test_parse_timing_takes_the_last_value() -> None:
    text = "Kernel time: 2.5 ms\nwarm\nKernel time: 1.25 ms\n"
    assert parse_timing(r"Kernel time: ([0-9.]+) ms", text) == 1.25
    assert parse_timing(r"Kernel time: ([0-9.]+) ms", "nothing") is None


class SubprocessSandbox:
    """Runs steps for real, as this user (the local sandbox may drop to a uid that cannot reach tmp_path)."""

    name = "subprocess"

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        done = subprocess.run(argv, shell=True, cwd=workdir, capture_output=True, text=True, timeout=timeout,
                              check=False)
        return Execution(argv, done.returncode, done.stdout, done.stderr, 0.0)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_real_nvcc_build_then_skip_without_a_gpu(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    oracle = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=False))
    good = oracle.check(workspace(tmp_path / "good", SOLUTION), SubprocessSandbox())
    bad = oracle.check(workspace(tmp_path / "bad", case.files["broken/compile-01.cu"]), SubprocessSandbox())
    assert good.outcome is Outcome.SKIPPED, good
    assert (bad.category, bad.metrics["cuda_category"]) == (Category.COMPILE_FAIL, "buildability"), bad
    assert bad.summary == 'build failed: buildability: solution.cu(6): error: expected a ";"'


def test_a_passing_reference_build_spares_the_rebuild_when_a_start_fails(tmp_path: Path) -> None:
    case = make_case(tmp_path / "case")
    oracle = cuda_oracle.CudaOracle(case, context(tmp_path))
    reference = workspace(tmp_path / "ref", SOLUTION)
    assert oracle.check(reference, FakeSandbox()).outcome is Outcome.SKIPPED  # built; no GPU here
    box = FakeSandbox(build_log='solution.cu(6): error: expected a ";"\n', build_rc=2)
    assert oracle.check(workspace(tmp_path / "start", SOLUTION + "x"), box).category is Category.COMPILE_FAIL
    assert builds(box) == ["candidate"]


TWO_UNITS = TEST_MAIN.replace('#include "solution.cu"\n', "")


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_a_build_of_two_translation_units_screens_the_candidate_where_it_is_compiled(tmp_path: Path) -> None:
    """DESIGN §3's build (`nvcc -O2 -o test test_main.cu solution.cu`): the harness's unit holds none of the
    candidate's lines; required patterns are judged on the candidate's own lines of every pass."""
    case = make_case(tmp_path / "case", extra="")
    text = (case.root / "case.toml").read_text().replace("-o test test_main.cu", "-o test test_main.cu solution.cu")
    text = text.replace("timeout = 30", "timeout = 300")  # nvcc on a busy two-core machine
    (case.root / "case.toml").write_text(text)
    (case.root / "test_main.cu").write_text(TWO_UNITS)
    case = load_case(case.root / "case.toml")
    oracle = cuda_oracle.CudaOracle(case, context(tmp_path, gpu=False))

    def judged(name: str, solution: str) -> object:
        ws = workspace(tmp_path / name, solution)
        (ws / "test_main.cu").write_text(TWO_UNITS)
        return oracle.check(ws, SubprocessSandbox())

    good = judged("good", SOLUTION)
    assert good.outcome is Outcome.SKIPPED and good.summary == NO_DEVICE, good  # built; no GPU here
    host_only = judged("host", SOLUTION.replace("__global__ void scale_kernel", "__host__ void scale_kernel")
                       .replace("scale_kernel<<<(n + 255) / 256, 256>>>(x, a, n)", "scale_kernel(x, a, n)"))
    assert host_only.outcome is Outcome.FAILED and "required pattern '__global__'" in host_only.summary, host_only
    blocked = judged("blocked", SOLUTION + 'void leak(void) { printf("x"); }\n')
    assert blocked.outcome is Outcome.FAILED and "blocked pattern" in blocked.summary, blocked
