"""The `cuda` oracle: anti-cheat, nvcc build, one process per run, taxonomy, perf gate.

Without a CUDA device the build stage is still judged and the runtime stage skipped, never failed. A failed
build (or a test step missing a Python module) is the candidate's only when the reference gets through that step
here; otherwise the item is a skip (a missing dependency) or a harness error. With a device, every GPU step holds
a per-GPU lock so parallel workers do not disturb each other's timings; reference timings are cached per GPU,
SM, CUDA release and reference hash.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from pydantic import Field, field_validator

from ...cases.case import Bug, Case, OracleSpec, SpecModel, compile_regex
from ...sandbox.base import Execution, Sandbox
from ...sandbox.process import signal_of
from ...sandbox.untrusted import UntrustedFileError, read_untrusted
from ...verdict import Category, Verdict
from ..base import (
    OracleContext,
    OracleKind,
    OracleOptions,
    cached_text,
    content_hash,
    locked,
    populate,
    scratch_workspace,
    typed_spec,
)
from .checks import (
    NO_DEVICE,
    RESULT_CAP,
    RESULT_FILE,
    GpuInfo,
    Measurement,
    ResultReader,
    TestResult,
    TimingStats,
    anti_cheat_violation,
    device_present,
    measure,
    missing_requirements,
    parse_result,
    probe_gpu,
    same_expectations,
    speedup_metrics,
)
from .classify import Classification, CudaCategory, Stage, StepLog, classify
from .screen import candidate_part, directive_violation, preprocess_commands, required_violation, screen_preprocessed

SOURCE_CAP = 1 << 20
DEFAULT_PERF_GATE = 0.7
DEFAULT_TIMING_RUNS = 5
HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".cuh")
PREPROCESSED_CAP = 64 << 20

# Reference steps that failed in this process (a success is remembered on disk): by cache
# directory, sandbox, reference and stage.
_REFERENCE_FAILURES: dict[tuple[str, str, str], tuple[Classification, str]] = {}


class AntiCheat(SpecModel):
    blocked: list[str] = []
    required: list[str] = []

    @field_validator("blocked", "required")
    @classmethod
    def _regexes(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            compile_regex(pattern, "anti_cheat")
        return patterns


class CudaSpec(OracleSpec):
    """`cuda`: nvcc build and test commands, the device it needs, timing, anti-cheat, perf gate."""

    build: str
    run: str
    min_sm: int | None = Field(None, ge=10, le=1000)
    requires: list[str] = []
    timing: str | None = None
    anti_cheat: AntiCheat = AntiCheat()
    perf_gate: float | None = Field(None, ge=0, le=1000, allow_inf_nan=False)

    @field_validator("timing")
    @classmethod
    def _timing(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            compile_regex(pattern, "timing")
        return pattern


def step_log(stage: Stage, ex: Execution) -> StepLog:
    text = "\n".join(part for part in (ex.stdout, ex.stderr) if part)
    sig = ex.signal if ex.signal is not None else signal_of(ex.returncode)
    return StepLog(stage, text, ex.returncode, ex.timed_out, sig)


class CudaOracle:
    """Judges a CUDA candidate: passes when it builds, the test passes and it is fast enough."""

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        self.case, self.ctx, self.spec = case, ctx, typed_spec(case.oracle, CudaSpec)
        self.runs = int(ctx.options.timing_runs or DEFAULT_TIMING_RUNS)

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        started = time.monotonic()
        rejected = self.screen(workspace) or self.screen_preprocessed(workspace, sandbox)
        if rejected is not None:
            return rejected.with_durations({"screen": time.monotonic() - started})
        build = self.step(sandbox, workspace, Stage.BUILD)
        durations = {"screen": time.monotonic() - started - build.duration, "build": build.duration}
        failed = self.build_failure(build, sandbox)
        if failed is not None:
            return failed.with_durations(durations)
        if self.is_reference(workspace):
            self.reference_passed(Stage.BUILD).touch()
        if not device_present(self.ctx.options.gpu):
            return Verdict.skip(NO_DEVICE, metrics={"cuda_stage": "build", "build": "passed"}, durations=durations)
        gpu = probe_gpu()
        if self.spec.min_sm and gpu.sm and gpu.sm < self.spec.min_sm:
            return Verdict.skip(f"{gpu.name} is sm_{gpu.sm}; this task needs sm_{self.spec.min_sm} or newer",
                                durations=durations)
        with locked(self.ctx.cache_dir / "cuda" / f"gpu-{gpu.lock_name}.lock"):
            return self.runtime(workspace, sandbox, gpu).with_durations(durations)

    def screen(self, workspace: Path) -> Verdict | None:
        """Anti-cheat over the candidate's own text and the task's requirements, before any build."""
        try:
            source = read_untrusted(workspace, self.case.target, SOURCE_CAP).text
        except (OSError, UntrustedFileError) as exc:
            return Verdict.fail(Category.COMPILE_FAIL, f"{self.case.target}: not a readable file in the workspace "
                                f"({type(exc).__name__})",
                                metrics={"cuda_category": CudaCategory.INTEGRATION.value, "speedup": None})
        rules = self.spec.anti_cheat
        reason = directive_violation(source) or anti_cheat_violation(source, rules.blocked, rules.required)
        if reason is not None:
            return _cheat(reason)
        missing = missing_requirements(self.spec.requires)
        if missing:
            return Verdict.skip(f"this task requires {', '.join(missing)}, which this machine lacks")
        return None

    def screen_preprocessed(self, workspace: Path, sandbox: Sandbox) -> Verdict | None:
        """Anti-cheat over what the compiler sees: the candidate's preprocessed code, host and device pass."""
        rules = self.spec.anti_cheat
        # A header the task ships among its sources is its API (a CUDABeaver task's `scale.h`); every other
        # workspace file (the test harness, data, the oracle's assets) is the harness's and may not be included.
        shown_headers = [n for n in self.case.model.sources if n.endswith(HEADER_SUFFIXES) and n != self.case.target]
        files = [Path(n).name for n in [*self.case.model.sources, *self.case.model.data, *self.spec.assets]
                 if n not in shown_headers]
        limits = replace(self.ctx.limits, output=PREPROCESSED_CAP)
        parts = []
        for stage, argv in preprocess_commands(self.spec.build, self.case.target):
            ex = sandbox.run(workspace, argv, timeout=self.spec.timeout, limits=limits)
            failed = self.build_failure(ex, sandbox)
            if failed is not None:
                return failed
            if ex.truncated:
                return _cheat(f"anti-cheat ({stage}): the preprocessed code is over {PREPROCESSED_CAP} bytes")
            part = candidate_part(ex.stdout, self.case.target)
            # Forbidden patterns on every pass; required ones on the candidate's own lines of all passes.
            reason = screen_preprocessed(part, rules.blocked, files, stage)
            if reason is not None:
                return _cheat(reason)
            parts.append(part)
        reason = required_violation(parts, rules.required)
        return _cheat(reason) if reason is not None else None

    def step(self, sandbox: Sandbox, workspace: Path, stage: Stage) -> Execution:
        argv = self.spec.build if stage is Stage.BUILD else self.spec.run
        limits = self.ctx.limits if stage is Stage.BUILD else replace(self.ctx.limits, gpu=True)
        return sandbox.run(workspace, argv, timeout=self.spec.timeout, limits=limits)

    def build_failure(self, build: Execution, sandbox: Sandbox) -> Verdict | None:
        found = classify(step_log(Stage.BUILD, build), self.case.target)
        if found.category is CudaCategory.PASSED:
            return None
        if found.rule == "nvcc_missing":
            return Verdict.skip("nvcc not found: the cuda build stage cannot run here")
        return self.reference_blocked(sandbox, Stage.BUILD) or self.rejection(found, build.tail())

    def reference_blocked(self, sandbox: Sandbox, stage: Stage) -> Verdict | None:
        """When the reference fails `stage` here too, a skip (a missing dependency) or a harness error."""
        failure = self.reference_failure(sandbox, stage)
        if failure is None:
            return None
        found, tail = failure
        said = f"the reference fails its {found.stage.value} here too: {found.category.value}: {found.evidence}"
        metrics = {"cuda_category": found.category.value, "cuda_stage": found.stage.value, "cuda_rule": found.rule,
                   "reference_fails": True, "speedup": None}
        if found.category is CudaCategory.ENVIRONMENT_DEPENDENCY:
            return Verdict.skip(f"this machine lacks what the task needs ({said})", log_tail=tail, metrics=metrics)
        return Verdict.error(f"environment, not the candidate: {said}", log_tail=tail, metrics=metrics)

    def reference_passed(self, stage: Stage) -> Path:
        """The marker file saying the reference got through `stage` here."""
        key = content_hash("cuda-reference-steps", stage.value, self.reference_hash())
        path = self.ctx.cache_dir / "cuda" / f"{key}.passed"
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def is_reference(self, workspace: Path) -> bool:
        """True when every source in the workspace is the golden one (the build just run was the reference's)."""
        for name in self.case.model.sources:
            try:
                found = read_untrusted(workspace, name)
            except (OSError, UntrustedFileError):
                return False
            if found.truncated or found.text != self.case.files[name]:
                return False
        return True

    def reference_failure(self, sandbox: Sandbox, stage: Stage) -> tuple[Classification, str] | None:
        """The reference's own build (and, for RUN, one test run) here: its failure, or None (cached)."""
        passed = self.reference_passed(stage)
        memo = (str(self.ctx.cache_dir.resolve()), sandbox.name, passed.stem)
        with locked(passed.with_suffix(".lock")):
            if passed.exists():
                return None
            if memo not in _REFERENCE_FAILURES:
                with scratch_workspace("hwrepair-cuda-ref-") as ws:
                    populate(ws, self.case, self.case.golden_files())
                    failure = self._reference_steps(ws, sandbox, stage)
                if failure is None:
                    passed.write_text("passed\n", encoding="utf-8")
                    return None
                _REFERENCE_FAILURES[memo] = failure
            return _REFERENCE_FAILURES[memo]

    def _reference_steps(self, ws: Path, sandbox: Sandbox, stage: Stage) -> tuple[Classification, str] | None:
        for step in (Stage.BUILD, Stage.RUN)[: 1 if stage is Stage.BUILD else 2]:
            ex = self.step(sandbox, ws, step)
            found = classify(step_log(step, ex), self.case.target)
            if found.category is not CudaCategory.PASSED:
                return found, ex.tail()
        return None

    def rejection(self, found: Classification, tail: str, extra: Mapping[str, object] | None = None) -> Verdict:
        metrics = {"cuda_category": found.category.value, "cuda_stage": found.stage.value,
                   "cuda_rule": found.rule, "speedup": None, **(extra or {})}
        what = f"{found.stage.value} failed: {found.category.value}"
        summary = f"{what}: {found.evidence}" if found.evidence else what
        if found.harness_fault:
            return Verdict.error(f"environment, not the candidate: {summary}", log_tail=tail, metrics=metrics)
        return Verdict.fail(found.harness_category, summary, log_tail=tail, metrics=metrics)

    def timed_runs(self, workspace: Path, sandbox: Sandbox) -> tuple[Measurement, ResultReader, list[Execution]]:
        """The built test's warm-up and timed runs, each run's result file read and re-checked by the harness."""
        executions: list[Execution] = []
        results = ResultReader(workspace)

        def run_once() -> StepLog:
            results.clear()
            executions.append(self.step(sandbox, workspace, Stage.RUN))
            return step_log(Stage.RUN, executions[-1])

        result = measure(run_once, runs=self.runs, timing=self.spec.timing, target=self.case.target,
                         read=results.read)
        return result, results, executions

    def runtime(self, workspace: Path, sandbox: Sandbox, gpu: GpuInfo) -> Verdict:
        result, results, executions = self.timed_runs(workspace, sandbox)
        seconds = {"run": sum(ex.duration for ex in executions)}
        if not result.passed:
            found = result.classification
            if found.category is CudaCategory.ENVIRONMENT_DEPENDENCY and not found.harness_fault:
                blocked = self.reference_blocked(sandbox, Stage.RUN)
                if blocked is not None:
                    return blocked.with_durations(seconds)
            extra = {"failed_run": result.failed_run} if result.failed_run else {}
            return self.rejection(found, executions[-1].tail(), extra).with_durations(seconds)
        if result.timing is None:
            return Verdict.ok("test passed (the task declares no timing)", durations=seconds,
                              metrics={"cuda_category": CudaCategory.PASSED.value, "speedup": None})
        try:
            reference, expected = self.reference_timing(sandbox, gpu)
        except RuntimeError as exc:
            return Verdict.error(str(exc), durations=seconds)
        assert results.last is not None
        tampered = same_expectations(results.last, expected)
        if tampered is not None:
            found = Classification(Stage.RUN, CudaCategory.FUNCTIONAL_CORRECTNESS, "expected_values", tampered)
            return self.rejection(found, executions[-1].tail()).with_durations(seconds)
        return self.perf_gate(result, reference).with_durations(seconds)

    def perf_gate(self, result: Measurement, reference: TimingStats) -> Verdict:
        assert result.timing is not None
        gate = self.ctx.options.perf_gate
        gate = float(gate if gate is not None else self.spec.perf_gate if self.spec.perf_gate is not None
                     else DEFAULT_PERF_GATE)
        metrics = {"cuda_category": CudaCategory.PASSED.value, **speedup_metrics(reference, result.timing, gate)}
        speedup = float(metrics["speedup"])  # type: ignore[arg-type]
        said = f"{speedup:.2f}x the reference ({result.timing.median:.4g} ms vs {reference.median:.4g} ms)"
        if speedup < gate:
            return Verdict.fail(Category.PERF_FAIL, f"correct but slow: {said}, below the perf gate {gate}",
                                log_tail=result.log.text[-2000:], metrics=metrics)
        flag = " [suspect: over 10x faster than the reference]" if metrics["suspect_speedup"] else ""
        return Verdict.ok(f"passed at {said}{flag}", metrics=metrics)

    def reference_timing(self, sandbox: Sandbox, gpu: GpuInfo) -> tuple[TimingStats, TestResult]:
        """The reference's timings and recorded results on this GPU, once per (GPU, SM, CUDA, reference)."""
        key = content_hash("cuda-reference", gpu.name, str(gpu.sm), gpu.cuda, self.reference_hash(),
                           str(self.runs))
        data = json.loads(cached_text(self.ctx.cache_dir / "cuda", key, lambda: self._time_reference(sandbox)))
        return TimingStats.from_json(data), parse_result(data["result"])

    def reference_hash(self) -> str:
        files = [f"{n}\0{self.case.files.get(n, '')}" for n in self.case.model.sources + self.case.oracle.assets]
        return content_hash(self.spec.build, self.spec.run, self.spec.timing or "", *files)

    def _time_reference(self, sandbox: Sandbox) -> str:
        with scratch_workspace("hwrepair-cuda-ref-") as ws:
            populate(ws, self.case, self.case.golden_files())
            build = self.step(sandbox, ws, Stage.BUILD)
            if not build.ok:
                raise RuntimeError(f"{self.case.path}: the reference fails to build: {build.tail(5)}")
            result, results, _ = self.timed_runs(ws, sandbox)
            if not result.passed or result.timing is None or results.last is None:
                raise RuntimeError(f"{self.case.path}: the reference fails its own test: "
                                   f"{result.classification.category.value}: {result.classification.evidence}")
            return json.dumps({**result.timing.to_json(), "result": read_untrusted(ws, RESULT_FILE, RESULT_CAP).text})


def _cheat(reason: str) -> Verdict:
    return Verdict.fail(Category.TEST_FAIL, reason, metrics={
        "cuda_category": CudaCategory.INTEGRATION.value, "cuda_stage": "anti_cheat", "speedup": None})


# Timings do not repeat: an identical workspace is judged afresh.
def runtime_unavailable(case: Case, bug: Bug, options: OracleOptions) -> str | None:
    """Without a device, a start that already builds (every bucket but compile_error) can show nothing."""
    if bug.bucket in (None, "compile_error") or device_present(options.gpu):
        return None
    return f"no CUDA device: a {bug.bucket} start is decided at run time (the fixer was not called)"


CUDA = OracleKind("cuda", ("cuda",), CudaOracle, CudaSpec, reusable=False, needs_gpu=True,
                  unavailable=runtime_unavailable)
