"""The `cuda-diff` strong oracle: the candidate against the reference at generated sizes and seeds.

The harness (`oracles/cuda/hwrepair_check.cuh`, included by every task's `test_main.cu`) reads `HWR_SHAPE=N`,
which replaces every `HWR_SIZE(gpu, small)` by a generated size (N = 1: the small size; N >= 2: drawn from
[small/2, 3*small/2] and odd, so never a multiple of a block size), and `HWR_SEED=N`, mixed into every input
generator's seed. Configuration N runs `HWR_SHAPE=N HWR_SEED=N <run>` for N = 1..`runs`, judged by the
harness's check and the suite oracle's classifier. The reference runs the same configurations first (cached):
one it fails is a broken case, an ERROR. Where `compute-sanitizer` is installed, configuration 1 also runs
under memcheck; a report fails the candidate. Without a CUDA device the check is skipped: no strong verdict.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import Field

from ...cases.case import Case, StrongSpec
from ...sandbox.base import Execution, Limits, Sandbox
from ...verdict import CaseError, Category, Verdict
from ..base import OracleContext, OracleKind, cached_text, content_hash, locked, populate, scratch_workspace
from .checks import GpuInfo, cuda_roots, device_present, probe_gpu
from .classify import CudaCategory, Stage, classify
from .oracle import CudaSpec, step_log

KIND = "cuda-diff"
SANITIZER_EXIT = 97
_SANITIZER_ERROR = re.compile(r"^=+\s+(?:Invalid|Program hit|Race|Uninitialized|Barrier|Leaked|Error)\b.*$",
                              re.MULTILINE)
_SANITIZER_SUMMARY = re.compile(r"ERROR SUMMARY: ([1-9][0-9]*) error")


class CudaDiffTable(StrongSpec):
    """The `[strong_oracle]` table of kind cuda-diff; build and run default to the suite oracle's."""

    runs: int = Field(6, ge=1, le=100)
    sanitizer: bool = True
    build: str | None = None
    run: str | None = None


def find_sanitizer() -> str | None:
    found = shutil.which("compute-sanitizer")
    paths = (Path(root) / "bin" / "compute-sanitizer" for root in cuda_roots())
    return found or next((str(p) for p in paths if p.is_file() and os.access(p, os.X_OK)), None)


@dataclass(frozen=True)
class Device:
    """Where the oracle learns about the GPU; tests give their own."""

    present: Callable[[object], bool] = device_present
    probe: Callable[[], GpuInfo] = probe_gpu
    sanitizer: Callable[[], str | None] = find_sanitizer


def _label(config: int) -> str:
    return f"configuration {config} (HWR_SHAPE={config} HWR_SEED={config})"


@dataclass(frozen=True, slots=True)
class CudaDiffSpec:
    build: str
    run: str
    runs: int
    sanitizer: bool
    timeout: float
    min_sm: int | None
    target: str

    def command(self, config: int, run: str | None = None) -> str:
        """Configuration `config` (a generated shape and seed) of the run, or of `run`."""
        return f"HWR_SHAPE={config} HWR_SEED={config} {run or self.run}"

    def sanitized(self, tool: str) -> str:
        """Configuration 1 under the memcheck tool: a report exits with SANITIZER_EXIT."""
        return self.command(1, f"{tool} --tool memcheck --error-exitcode {SANITIZER_EXIT} --print-limit 5 {self.run}")


def parse_spec(case: Case) -> CudaDiffSpec:
    """The case's cuda-diff spec; raises CaseError with one line naming the problem."""
    strong = case.model.strong_oracle
    if not isinstance(strong, CudaDiffTable):
        raise CaseError(f"{case.path}: strong_oracle.kind: the cuda-diff oracle needs kind = {KIND!r}")
    suite = case.oracle
    if not isinstance(suite, CudaSpec):
        raise CaseError(f"{case.path}: oracle.kind: cuda-diff needs the cuda suite oracle (kind = \"cuda\")")
    return CudaDiffSpec(build=strong.build or suite.build, run=strong.run or suite.run, runs=strong.runs,
                        sanitizer=strong.sanitizer, timeout=strong.timeout, min_sm=suite.min_sm, target=case.target)


class CudaDiffOracle:
    """Runs a candidate that passed the suite oracle at the strong configurations (correct@k)."""

    def __init__(self, case: Case, ctx: OracleContext, device: Device | None = None) -> None:
        self.case, self.ctx, self.device = case, ctx, device or Device()
        self.spec = parse_spec(case)

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        if not self.device.present(self.ctx.options.gpu):
            return Verdict.skip("no CUDA device: the cuda-diff runs need one (no strong verdict)")
        gpu = self.device.probe()
        if self.spec.min_sm and gpu.sm and gpu.sm < self.spec.min_sm:
            return Verdict.skip(f"{gpu.name} is sm_{gpu.sm}; this task needs sm_{self.spec.min_sm} or newer")
        tool = self.device.sanitizer() if self.spec.sanitizer else None
        with locked(self.ctx.cache_dir / "cuda" / f"gpu-{gpu.lock_name}.lock"):
            problem = self.golden_problem(sandbox, gpu, tool)
            if problem is not None:
                return Verdict.error(f"{self.case.path}: the reference fails cuda-diff: {problem}")
            return self.judge(workspace, sandbox, tool)

    def judge(self, workspace: Path, sandbox: Sandbox, tool: str | None) -> Verdict:
        build = self.step(sandbox, workspace, self.spec.build, Stage.BUILD)
        durations = {"build": build.duration, "run": 0.0}
        found = classify(step_log(Stage.BUILD, build), self.spec.target)
        if found.category is not CudaCategory.PASSED:
            return Verdict.fail(Category.COMPILE_FAIL, f"cuda-diff build failed: {found.evidence}",
                                log_tail=build.tail(), durations=durations)
        for config in range(1, self.spec.runs + 1):
            ex = self.step(sandbox, workspace, self.spec.command(config), Stage.RUN)
            durations["run"] += ex.duration
            failure = run_failure(ex, self.spec.target)
            if failure is not None:
                return replace(failure, summary=f"{_label(config)}: {failure.summary}", durations=durations,
                               metrics={**failure.metrics, "failed_config": _label(config)})
        if tool is not None:
            ex = self.step(sandbox, workspace, self.spec.sanitized(tool), Stage.RUN)
            durations["run"] += ex.duration
            report = sanitizer_report(ex)
            if report is not None:
                return Verdict.fail(Category.TEST_FAIL, f"compute-sanitizer memcheck, {_label(1)}: "
                                    f"{report}", log_tail=ex.tail(), durations=durations)
        said = "memcheck clean" if tool else "compute-sanitizer not found: memcheck not run"
        return Verdict.ok(f"passes the harness checks at {self.spec.runs} generated sizes and seeds; {said}",
                          metrics={"strong_runs": self.spec.runs, "memcheck": tool is not None},
                          durations=durations)

    def step(self, sandbox: Sandbox, workspace: Path, argv: str, stage: Stage) -> Execution:
        limits: Limits = self.ctx.limits if stage is Stage.BUILD else replace(self.ctx.limits, gpu=True)
        return sandbox.run(workspace, argv, timeout=self.spec.timeout, limits=limits)

    def golden_problem(self, sandbox: Sandbox, gpu: GpuInfo, tool: str | None) -> str | None:
        """Why the reference fails a configuration ('' cached as success), once per reference, GPU and commands."""
        files = [f"{n}\0{self.case.files.get(n, '')}" for n in self.case.model.sources + self.case.oracle.assets]
        key = content_hash(KIND, self.case.digest, gpu.name, str(gpu.sm), gpu.cuda, self.spec.build, self.spec.run,
                           str(self.spec.runs), tool or "", *files)

        def produce() -> str:
            with scratch_workspace("hwrepair-cuda-diff-ref-") as ws:
                populate(ws, self.case, self.case.golden_files())
                verdict = self.judge(ws, sandbox, tool)
            return "" if verdict.passed else f"{verdict.summary} | {verdict.log_tail[-300:]}"

        problem = cached_text(self.ctx.cache_dir / "cuda", key, produce)
        return problem or None


def run_failure(ex: Execution, target: str) -> Verdict | None:
    """The verdict for a failed test run (the suite oracle's classifier), None when it passed."""
    found = classify(step_log(Stage.RUN, ex), target)
    if found.category is CudaCategory.PASSED:
        return None
    what = f"{found.category.value}: {found.evidence}" if found.evidence else found.category.value
    metrics = {"cuda_category": found.category.value, "cuda_rule": found.rule}
    if found.harness_fault:
        return Verdict.error(f"environment, not the candidate: {what}", log_tail=ex.tail(), metrics=metrics)
    return Verdict.fail(found.harness_category, what, log_tail=ex.tail(), metrics=metrics)


def sanitizer_report(ex: Execution) -> str | None:
    """The first error compute-sanitizer reported, else None (a run that fails otherwise counts too)."""
    text = "\n".join((ex.stdout, ex.stderr))
    line = _SANITIZER_ERROR.search(text)
    if line is not None:
        return line.group(0).strip("= ").strip()[:200]
    if ex.returncode == SANITIZER_EXIT or _SANITIZER_SUMMARY.search(text):
        return f"errors reported (exit {ex.returncode})"
    failure = run_failure(ex, "")
    return None if failure is None else f"the run under the sanitizer failed: {failure.summary}"


CUDA_DIFF = OracleKind(KIND, ("cuda",), CudaDiffOracle, suite=False, strong=True, strong_spec=CudaDiffTable,
                       needs_gpu=True, strong_on_pass_only=True)
