"""cuda-diff: the candidate at generated sizes and seeds, judged by the task's own harness check.

There is no GPU here: the oracle's runs go through a sandbox that builds with the CPU emulator
(scripts/cuda_emu) instead of nvcc, so the size and seed plumbing, the configurations, the golden
check and the verdicts are exercised for real; only the kernels' GPU behaviour is not.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType

import pytest

from pytest_hwrepair.cases.case import Case, find_case_files
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import OracleContext, kind_of
from pytest_hwrepair.oracles.base import populate
from pytest_hwrepair.oracles.cuda.checks import GpuInfo
from pytest_hwrepair.oracles.cuda.diff import CudaDiffOracle, Device, parse_spec, sanitizer_report
from pytest_hwrepair.sandbox.base import Execution, Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import CaseError, Category, Outcome, Verdict

ROOT = Path(__file__).resolve().parents[3]
VECTOR_ADD = ROOT / "cases" / "cuda" / "elementwise" / "vector_add"
EMULATOR = ROOT / "scripts" / "cuda_emu" / "cuda_runtime.h"
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ for the CUDA emulator")
# A float2 kernel without a scalar tail: right at the suite's even size, wrong at every odd one.
NO_TAIL = """
__global__ void add2(const float2* a, const float2* b, float2* c, int pairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pairs) c[i] = make_float2(a[i].x + b[i].x, a[i].y + b[i].y);
}

void launch_vector_add(const float* a, const float* b, float* c, int n)
{
    int pairs = n / 2;
    add2<<<(pairs + 255) / 256, 256>>>((const float2*)a, (const float2*)b, (float2*)c, pairs);
}
"""
FAKE_SANITIZER = """#!/bin/sh
# Stands in for compute-sanitizer: reports an invalid write when the candidate carries the marker.
shift 7
if grep -q SANITIZER-MARK solution.cu; then echo '========= Invalid __global__ write of size 4 bytes'; exit 97; fi
exec "$@"
"""


def _script() -> ModuleType:
    from ...corpus.test_cuda_corpus import load_gpu_script

    return load_gpu_script()


@dataclass
class EmulatorSandbox:
    """The local sandbox with every nvcc build made on the CPU emulator: a stand-in GPU for the plumbing."""

    inner: LocalSandbox = field(default_factory=LocalSandbox)
    commands: list[str] = field(default_factory=list)
    name: str = "emulator"

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        self.commands.append(argv)
        (workdir / "fake-sanitizer.sh").write_text(FAKE_SANITIZER, encoding="utf-8")
        if argv.startswith("nvcc "):
            rewrite = _script().rewrite_launches
            for path in workdir.iterdir():
                if path.suffix in (".cu", ".cuh"):
                    path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
            shutil.copyfile(EMULATOR, workdir / "cuda_runtime.h")
            argv = "g++ -std=c++17 -O1 -w -DHWR_EMULATE -I. -x c++ test_main.cu -o test -lm"
        return self.inner.run(workdir, argv, timeout=max(timeout, 120), limits=replace(limits, gpu=False))


GPU = GpuInfo("emulated", 90, "emu-0", "none", "none")


def device(sanitizer: str | None = None) -> Device:
    return Device(present=lambda force: True, probe=lambda: GPU, sanitizer=lambda: sanitizer)


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hwrepair-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def vector_add(root: Path, runs: int = 3, reference: str | None = None) -> Case:
    folder = root / "vector_add"
    shutil.copytree(VECTOR_ADD, folder)
    toml = folder / "case.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("runs = 6", f"runs = {runs}"), encoding="utf-8")
    if reference is not None:
        (folder / "solution.cu").write_text(reference, encoding="utf-8")
    return load_case(toml, strict=True)


def judge(root: Path, case: Case, candidate: str | None, dev: Device, sandbox: EmulatorSandbox) -> Verdict:
    ws = Path(tempfile.mkdtemp(prefix="ws-", dir=root))
    ws.chmod(0o755)
    populate(ws, case, {**case.golden_files(), **({case.target: candidate} if candidate is not None else {})})
    return CudaDiffOracle(case, OracleContext(root / "cache"), dev).check(ws, sandbox)


def test_every_cuda_case_has_the_cuda_diff_strong_oracle() -> None:
    paths = find_case_files([ROOT / "cases" / "cuda"])
    assert len(paths) == 33
    for path in paths:
        case = load_case(path, strict=True)
        assert case.model.strong_oracle is not None and case.model.strong_oracle.kind == "cuda-diff", path
        assert parse_spec(case).runs == 6


def test_without_a_device_the_check_is_skipped_with_the_reason_and_decides_nothing(tmp_path: Path) -> None:
    case = vector_add(tmp_path)
    absent = Device(present=lambda force: False, probe=lambda: GPU, sanitizer=lambda: None)
    sandbox = EmulatorSandbox()
    verdict = judge(tmp_path, case, None, absent, sandbox)
    assert verdict.outcome is Outcome.SKIPPED and verdict.summary.startswith("no CUDA device")
    kind = kind_of("cuda-diff")
    assert kind is not None and kind.decide(verdict) is None and kind.needs_gpu and kind.strong
    assert sandbox.commands == []


@needs_gxx
def test_reference_passes_every_generated_configuration(tmp_path: Path) -> None:
    sandbox = EmulatorSandbox()
    verdict = judge(tmp_path, vector_add(tmp_path), None, device(), sandbox)
    assert verdict.passed, verdict.summary + verdict.log_tail
    assert verdict.summary == ("passes the harness checks at 3 generated sizes and seeds; "
                               "compute-sanitizer not found: memcheck not run")
    runs = [c for c in sandbox.commands if c.startswith("HWR_")]
    assert runs[:3] == [f"HWR_SHAPE={n} HWR_SEED={n} ./test" for n in (1, 2, 3)]


@needs_gxx
def test_kernel_right_only_at_the_suite_size_fails_naming_the_configuration(tmp_path: Path) -> None:
    verdict = judge(tmp_path, vector_add(tmp_path), NO_TAIL, device(), EmulatorSandbox())
    assert verdict.outcome is Outcome.FAILED and verdict.category is Category.TEST_FAIL
    assert verdict.summary.startswith("configuration 2 (HWR_SHAPE=2 HWR_SEED=2): functional_correctness")


@needs_gxx
def test_reference_failing_a_configuration_is_a_case_error(tmp_path: Path) -> None:
    case = vector_add(tmp_path, reference=NO_TAIL)
    verdict = judge(tmp_path, case, None, device(), EmulatorSandbox())
    assert verdict.outcome is Outcome.ERROR and "the reference fails cuda-diff: configuration 2" in verdict.summary


@needs_gxx
def test_memcheck_report_fails_the_candidate(tmp_path: Path) -> None:
    case = vector_add(tmp_path, runs=1)
    marked = case.files[case.target] + "\n// SANITIZER-MARK\n"
    sandbox = EmulatorSandbox()
    verdict = judge(tmp_path, case, marked, device("sh fake-sanitizer.sh"), sandbox)
    assert verdict.category is Category.TEST_FAIL
    assert verdict.summary == ("compute-sanitizer memcheck, configuration 1 (HWR_SHAPE=1 HWR_SEED=1): "
                               "Invalid __global__ write of size 4 bytes")
    assert "HWR_SHAPE=1 HWR_SEED=1 sh fake-sanitizer.sh --tool memcheck --error-exitcode 97" in sandbox.commands[-1]
    clean = judge(tmp_path, case, None, device("sh fake-sanitizer.sh"), EmulatorSandbox())
    assert clean.passed and clean.summary.endswith("memcheck clean")


def _ex(stdout: str = "", stderr: str = "", rc: int = 0) -> Execution:
    return Execution("x", rc, stdout, stderr, 0.1)


def test_sanitizer_output_is_read_for_the_first_error() -> None:
    assert sanitizer_report(_ex("PASSED\n", "========= ERROR SUMMARY: 0 errors\n")) is None
    text = "========= Program hit cudaErrorLaunchFailure on CUDA API call\n========= ERROR SUMMARY: 2 errors\n"
    assert sanitizer_report(_ex(stderr=text, rc=97)) == "Program hit cudaErrorLaunchFailure on CUDA API call"
    assert sanitizer_report(_ex("PASSED\n", "========= ERROR SUMMARY: 3 errors\n")) == "errors reported (exit 0)"


def test_cuda_diff_outside_the_cuda_domain_is_a_one_line_case_error(tmp_path: Path) -> None:
    folder = tmp_path / "h"
    shutil.copytree(ROOT / "tests" / "data" / "hls_diff" / "clip", folder)
    toml = folder / "case.toml"
    text = toml.read_text(encoding="utf-8").replace('kind = "hls-diff"\nseeds = 4', 'kind = "cuda-diff"')
    toml.write_text(text, encoding="utf-8")
    with pytest.raises(CaseError, match=r"case\.toml: strong_oracle\.kind: 'cuda-diff' is not one of hls-diff "
                                        r"for domain hls$"):
        load_case(toml)


HEADER_PROBE = """#include "hwrepair_check.cuh"
int main()
{
    int a = HWR_SIZE(1 << 20, 1000), b = HWR_SIZE(9, 3), c = HWR_SIZE(1 << 20, 1000);
    printf("%d %d %d %.6f\\n", a, b, c, hwr_uniform(4, 7, 0.0f, 1.0f)[0]);
    return 0;
}
"""


@needs_gxx
def test_harness_sizes_and_seeds_follow_the_environment(tmp_path: Path) -> None:
    (tmp_path / "probe.cu").write_text(HEADER_PROBE, encoding="utf-8")
    shutil.copyfile(ROOT / "oracles" / "cuda" / "hwrepair_check.cuh", tmp_path / "hwrepair_check.cuh")
    shutil.copyfile(EMULATOR, tmp_path / "cuda_runtime.h")
    subprocess.run(["g++", "-std=c++17", "-w", "-DHWR_EMULATE", "-I.", "-x", "c++", "probe.cu", "-o", "probe"],
                   cwd=tmp_path, check=True)

    def probe(shape: int, seed: int) -> list[str]:
        env = {"HWR_SHAPE": str(shape), "HWR_SEED": str(seed)}
        return subprocess.run(["./probe"], cwd=tmp_path, env=env, capture_output=True, text=True,
                              check=True).stdout.split()

    suite, small = probe(0, 0), probe(1, 0)
    assert suite[:3] == ["1000", "3", "1000"] and small[:3] == ["1000", "3", "1000"] and suite[3] == small[3]
    generated = [probe(n, 0) for n in range(2, 8)]
    for sizes in generated:
        a, b, c = (int(v) for v in sizes[:3])
        assert 500 <= a <= 1501 and 500 <= c <= 1501 and a % 2 == c % 2 == 1 and b == 3
    assert len({tuple(s[:3]) for s in generated}) == len(generated) and probe(2, 0) == probe(2, 0)
    assert probe(0, 1)[3] != suite[3] and probe(0, 1) == probe(0, 1) and probe(0, 2)[3] != probe(0, 1)[3]
