"""The `hls-diff` strong oracle: the candidate against the golden build on generated inputs.

The harness-owned driver takes `--seed N`: no seed (or 0) is the suite's fixed vectors, N >= 1
generates inputs from N (random and degenerate ones). The candidate is built once and run once per
seed, each extra build (`variants`, e.g. other dataset sizes) is built and run once, and with
`sanitize = true` one more build with AddressSanitizer and UBSan runs the fixed vectors. Every
output is compared with the golden sources' output for the same step (cached by content hash
outside any workspace). The first mismatch, crash or sanitizer report fails the candidate; a golden
step that fails is an ERROR (a broken case).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import Field

from ...cases.case import MAX_TOLERANCE, Case, StrongSpec
from ...sandbox.base import Sandbox
from ...verdict import CaseError, Category, Verdict
from ..base import OracleContext, OracleKind, remove_tree, step_failure, typed_spec
from .builds import BUILDS
from .golden import (
    GoldenError,
    Step,
    StepResult,
    golden_outputs,
    pristine_copy,
    run_steps,
    sanitized_build,
    sanitizer_report,
)
from .instrumented import escape_problem
from .objects import linked_build, parse_build
from .oracle import BuildRunSpec
from .outputs import compare_outputs

KIND = "hls-diff"
SEED = "{seed}"
VARIANT_KEYS = frozenset({"build", "run"})
_COMPARE = re.compile(r"^(stdout|stderr|file:[^/\s][^\s]*)$")


class HlsDiffTable(StrongSpec):
    """The `[strong_oracle]` table of kind hls-diff; unset fields default to the suite oracle's."""

    seeds: int = Field(8, ge=1, le=1000)
    run: str | None = None
    build: str | None = None
    compare: str | None = None
    tolerance: float | None = Field(None, ge=0, le=MAX_TOLERANCE, allow_inf_nan=False)
    rel_tolerance: float | None = Field(None, ge=0, le=MAX_TOLERANCE, allow_inf_nan=False)
    sanitize: bool = False
    variants: list[dict[str, str]] = []


@dataclass(frozen=True, slots=True)
class HlsDiffSpec:
    """The checked `[strong_oracle]` of an hls-diff case."""

    seeds: int
    build: str
    run: str
    compare: str
    tolerance: float
    rel_tolerance: float
    timeout: float
    sanitize: str | None
    fixed_run: str
    variants: tuple[tuple[str, str], ...]

    def steps(self) -> tuple[Step, ...]:
        """Every step in the order it runs: the cheap ones first, so a wrong candidate stops early."""
        steps = [Step("build", self.build)]
        steps += [Step(f"seed {n}", self.run.replace(SEED, str(n)), self.compare) for n in range(1, self.seeds + 1)]
        for index, (build, run) in enumerate(self.variants, 1):
            steps.append(Step(f"variant {index} build", build, fresh=True))
            seeds = range(1, self.seeds + 1) if SEED in run else (0,)
            steps += [Step(f"variant {index}" + (f" seed {n}" if n else ""), run.replace(SEED, str(n)), self.compare)
                      for n in seeds]
        if self.sanitize is not None:
            # One closed step without the address-space limit: the run needs that (the shadow mapping), and the
            # build, gcc on the candidate's sources, gets no more room than the candidate's program after it.
            steps += [Step("sanitizer build", self.sanitize, fresh=True, shadow=True),
                      Step("sanitizer run", self.fixed_run, self.compare, sanitized=True, shadow=True)]
        return tuple(steps)


def parse_spec(case: Case) -> HlsDiffSpec:
    """The case's hls-diff spec; raises CaseError with one line naming the field and what is allowed."""
    strong = case.model.strong_oracle
    if not isinstance(strong, HlsDiffTable):
        raise CaseError(f"{case.path}: strong_oracle.kind: the hls-diff oracle needs kind = {KIND!r}")
    if not isinstance(case.oracle, BuildRunSpec):
        raise CaseError(f"{case.path}: oracle.kind: hls-diff needs a suite oracle with build and run commands")
    suite = typed_spec(case.oracle, BuildRunSpec)
    build = strong.build or suite.build
    run = strong.run or f"{suite.run} --seed {SEED}"
    compare = strong.compare or suite.compare
    _check(case, SEED in run, "run", f"{run!r} must contain {SEED} (the driver runs once per seed)")
    _check(case, bool(_COMPARE.match(compare)), "compare", f"{compare!r} must be stdout, stderr or file:NAME")
    inside = ".." not in Path(compare.removeprefix("file:")).parts
    _check(case, inside, "compare", f"{compare!r} must name a file inside the workspace")
    sanitize = sanitized_build(build) if strong.sanitize else None
    _check(case, not strong.sanitize or sanitize is not None, "sanitize",
           f"the build {build!r} must start with gcc, cc or clang to add the sanitizer flags")
    return HlsDiffSpec(
        seeds=strong.seeds, build=build, run=run, compare=compare,
        tolerance=_pick(strong.tolerance, suite.tolerance), rel_tolerance=_pick(strong.rel_tolerance,
                                                                               suite.rel_tolerance),
        timeout=strong.timeout, sanitize=sanitize, fixed_run=suite.run, variants=_variants(case, strong))


def _variants(case: Case, strong: HlsDiffTable) -> tuple[tuple[str, str], ...]:
    found: list[tuple[str, str]] = []
    for index, variant in enumerate(strong.variants, 1):
        unknown = sorted(set(variant) - VARIANT_KEYS)
        where = f"variants[{index}]"
        _check(case, not unknown, where, f"unknown key {unknown[0] if unknown else ''!r} (allowed: build, run)")
        _check(case, all(variant.get(k, "").strip() for k in VARIANT_KEYS), where, "needs a build and a run command")
        found.append((variant["build"], variant["run"]))
    return tuple(found)


def _pick(own: float | None, suite: float) -> float:
    return suite if own is None else own


def _check(case: Case, ok: bool, field: str, problem: str) -> None:
    if not ok:
        raise CaseError(f"{case.path}: strong_oracle.{field}: {problem}")


class HlsDiffOracle:
    """Differential testing of a candidate that passed the suite oracle (DESIGN §8, correct@k)."""

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        self.case, self.ctx = case, ctx
        self.spec = parse_spec(case)

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        steps = self.spec.steps()
        try:
            golden = golden_outputs(self.case, self.ctx, sandbox, steps, self.spec.timeout, KIND)
        except GoldenError as exc:
            return Verdict.error(str(exc))
        # The builds after the first start from the workspace as it was before any step: by then the
        # candidate's program has run, and could have written over its own sources or the testbench.
        try:
            pristine = pristine_copy(workspace) if any(step.fresh for step in steps) else None
        except GoldenError as exc:
            return Verdict.error(str(exc))
        try:
            escape = self._escape(workspace, sandbox)
            if escape is not None:
                return _done(escape, {}, 0, "sanitizer screen")
            return self._steps(workspace, sandbox, steps, golden, pristine)
        finally:
            if pristine is not None:
                remove_tree(pristine)

    def _steps(self, workspace: Path, sandbox: Sandbox, steps: tuple[Step, ...], golden: dict[str, str],
               pristine: Path | None) -> Verdict:
        durations: dict[str, float] = {"build": 0.0, "run": 0.0}
        # The first step builds as the suite oracle did, from the same files: that build is reused when kept.
        build = self._linked(workspace, sandbox, steps[0]).argv
        built = BUILDS.build(sandbox, workspace, build, timeout=self.spec.timeout, limits=self.ctx.limits, keep=False)
        reused = {"build_reused": True} if built.reused else {}
        first = StepResult(replace(built.ex, duration=0.0) if built.reused else built.ex, None)
        later = run_steps(workspace, steps[1:], sandbox, self.spec.timeout, self.ctx.limits, pristine=pristine,
                          prepare=lambda ws, step: self._linked(ws, sandbox, step))
        ran = itertools.chain([first], later if built.ex.ok else [])
        count = 0
        for count, (step, result) in enumerate(zip(steps, ran), 1):
            durations["build" if step.output is None else "run"] += result.ex.duration
            failure = self._failure(step, result, golden)
            if failure is not None:
                return _done(failure.with_metrics(**reused), durations, count, step.label)
        if count != len(steps):  # a pass needs every step's result
            return Verdict.error(f"the sandbox gave results for {count} of {len(steps)} steps")
        return _done(Verdict.ok(self._passed()).with_metrics(**reused), durations, len(steps), None)

    def _escape(self, workspace: Path, sandbox: Sandbox) -> Verdict | None:
        """A candidate that could escape or detect the sanitizer build fails before any step runs."""
        if self.spec.sanitize is None:
            return None
        parsed = parse_build(self.spec.build)
        sources = [s for s in (parsed.sources if parsed else ()) if s in self.case.model.sources]
        problem = escape_problem(workspace, sandbox, self.spec.build, sources, timeout=self.spec.timeout,
                                 limits=self.ctx.limits)
        if problem is None:
            return None
        return Verdict.fail(Category.TEST_FAIL, f"sanitizer screen: {problem}", metrics={"screen": "sanitizer"})

    def _linked(self, workspace: Path, sandbox: Sandbox, step: Step) -> Step:
        """A build step linking objects of the case's unchanged C files (hls_objects.py); other steps as they are."""
        if step.output is not None:
            return step
        build = linked_build(self.case, self.ctx, sandbox, workspace, step.argv, timeout=self.spec.timeout,
                             limits=self.ctx.limits)
        return replace(step, argv=build)

    def _passed(self) -> str:
        parts = [f"{self.spec.seeds} seeds"]
        if self.spec.variants:
            parts.append(f"{len(self.spec.variants)} variants")
        if self.spec.sanitize:
            parts.append("the sanitizer build")
        return "matches the golden build on " + ", ".join(parts)

    def _failure(self, step: Step, result: StepResult, golden: dict[str, str]) -> Verdict | None:
        ex = result.ex
        report = sanitizer_report(ex) if step.sanitized else None
        if report is not None or (step.sanitized and not ex.ok and not ex.timed_out):
            detail = report or f"exit status {ex.returncode}"
            return Verdict.fail(Category.TEST_FAIL, f"{step.label}: sanitizer report: {detail}", log_tail=ex.tail())
        failure = step_failure(ex, "build" if step.output is None else "run")
        if failure is not None:
            return Verdict.fail(failure.category, f"{step.label}: {failure.summary}", log_tail=failure.log_tail)
        if result.output is None:
            return None
        if result.output.problem is not None:
            return Verdict.fail(Category.TEST_FAIL, f"{step.label}: {result.output.problem}", log_tail=ex.tail())
        mismatch = compare_outputs(golden[step.label], result.output.text, self.spec.tolerance,
                                   self.spec.rel_tolerance)
        if mismatch is None:
            return None
        return Verdict.fail(Category.TEST_FAIL, f"{step.label} (`{step.argv}`): {mismatch}", log_tail=ex.tail(),
                            metrics={"mismatch": mismatch})


def _done(verdict: Verdict, durations: dict[str, float], steps: int, failed_step: str | None) -> Verdict:
    metrics = {**verdict.metrics, "strong_steps": steps, **({"failed_step": failed_step} if failed_step else {})}
    return Verdict(verdict.outcome, verdict.category, verdict.summary, verdict.log_tail, metrics,
                   {k: round(v, 4) for k, v in durations.items()})


__all__ = ["KIND", "HlsDiffOracle", "HlsDiffSpec", "parse_spec"]


HLS_DIFF = OracleKind(KIND, ("hls",), HlsDiffOracle, suite=False, strong=True, strong_spec=HlsDiffTable,
                      strong_on_pass_only=True)
