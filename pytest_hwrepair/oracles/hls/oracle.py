"""HLS oracles `exit-code`, `output-diff` and the `hls-diff` strong oracle: all differential against the golden build.

The candidate's program only produces output, read as untrusted data and compared with the golden output the
candidate never sees: the case's `expected` file (never placed in a workspace) or the output of the case's own
sources built and run in a scratch workspace (golden.py).

hls-diff: the harness-owned driver takes `--seed N`: none (or 0) is the suite's fixed vectors, N >= 1 generates
inputs from N. The candidate is built once and run once per seed, each `variants` build (e.g. other dataset
sizes) is built and run, and with `sanitize = true` a build with AddressSanitizer and UBSan runs the fixed
vectors. The first output that differs from the golden sources', crash or sanitizer report fails the candidate;
a golden step that fails is an ERROR. The sanitizer build is trusted only if the candidate can neither escape
nor detect it, checked on its preprocessed files (so macros hide nothing): no sanitizer-disabling attribute,
feature macro, interface function or option hook, and the same lines with and without the sanitizer flags.
"""

from __future__ import annotations

import itertools
import re
import secrets
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import Field, field_validator

from ...cases.case import MAX_TOLERANCE, Case, OracleSpec, StrongSpec, compile_regex, path_problem
from ...sandbox.base import Command, Execution, Limits, Sandbox, run_commands
from ...verdict import CaseError, Category, Verdict
from ..base import OracleContext, OracleKind, remove_tree, step_failure, typed_spec
from .builds import BUILDS, linked_build, parse_build
from .golden import (
    SANITIZE_FLAGS,
    GoldenError,
    Step,
    StepResult,
    compare_outputs,
    golden_outputs,
    pristine_copy,
    read_output,
    run_steps,
    sanitized_build,
    sanitizer_report,
)

RUN = "run"
KIND = "hls-diff"
SEED = "{seed}"
VARIANT_KEYS = frozenset({"build", "run"})
_COMPARE = re.compile(r"^(stdout|stderr|file:[^/\s][^\s]*)$")
# Ways out of instrumentation, and ways to tell the instrumented build apart (GCC and Clang spellings).
FORBIDDEN = re.compile(
    r"\b(no_sanitize\w*|__no_sanitize\w*|no_address_safety_analysis|__no_address_safety_analysis__"
    r"|disable_sanitizer_instrumentation|__disable_sanitizer_instrumentation__|no_stack_protector"
    r"|__SANITIZE_\w+|__has_feature|__has_extension|__sanitizer_\w+|__asan_\w+|__ubsan_\w+|__lsan_\w+"
    r"|__hwasan_\w+|__msan_\w+|__tsan_\w+)\b")
# Preprocessor flags of the build that the screen keeps (what decides what the preprocessor emits).
PREPROCESSOR_FLAGS = ("-I", "-D", "-U", "-std=", "-include", "-iquote", "-isystem", "-ansi", "-f", "-m", "-O")
OUTPUT_CAP = 16 << 20
_MARKER = re.compile(r'^# \d+ "([^"]*)"')


class BuildRunSpec(OracleSpec):
    """`exit-code` and `output-diff`: a build command, a run command, and how the run is judged."""

    build: str
    run: str
    stdout: str | None = None
    compare: str = "stdout"
    tolerance: float = Field(0.0, ge=0, le=MAX_TOLERANCE, allow_inf_nan=False)
    rel_tolerance: float = Field(0.0, ge=0, le=MAX_TOLERANCE, allow_inf_nan=False)
    expected: str | None = None

    @field_validator("stdout")
    @classmethod
    def _regex(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            compile_regex(pattern, "stdout")
        return pattern

    @field_validator("compare")
    @classmethod
    def _compare(cls, compare: str) -> str:
        if compare in ("stdout", "stderr"):
            return compare
        if not compare.startswith("file:"):
            raise ValueError("compare: must be stdout, stderr or file:NAME")
        problem = path_problem(compare.removeprefix("file:"))
        if problem:
            raise ValueError(f"compare: {compare!r}: the file {problem.replace('case directory', 'workspace')}")
        return compare

    def case_files(self, where: str) -> list[tuple[str, str]]:
        return [(self.expected, f"{where}.expected")] if self.expected else []


class BuildRunOracle:
    """Build, then run; subclasses judge the run's output against the golden one."""

    kind = "hls"
    compare = "stdout"
    self_checking = False  # a non-zero exit of the run is a wrong answer the program found, not a crash

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        self.case, self.ctx, self.spec = case, ctx, typed_spec(case.oracle, BuildRunSpec)
        # The build the golden output comes from when checks build differently (linking prebuilt objects).
        self.golden_build: str | None = None

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        durations: dict[str, float] = {}
        timeout, limits = self.spec.timeout, self.ctx.limits
        build = linked_build(self.case, self.ctx, sandbox, workspace, self.spec.build, timeout=timeout, limits=limits)
        if self._strong_builds_alike():  # the build is kept for the strong oracle (builds.py)
            done = BUILDS.build_and_run(sandbox, workspace, build, self.spec.run, timeout=timeout, limits=limits)
        else:  # one batch: the run's output stays in the workspace, where `judge` reads it
            done = run_commands(sandbox, workspace, [Command(build), Command(self.spec.run)], timeout=timeout,
                                limits=limits)
        for stage, ex in zip(("build", RUN), done):
            durations[stage] = ex.duration
            failure = step_failure(ex, stage)
            if failure is not None:
                if stage == RUN and self.self_checking and ex.signal is None and not ex.timed_out:
                    failure = Verdict.fail(Category.TEST_FAIL, f"self-check failed (exit {ex.returncode})",
                                           log_tail=ex.tail())
                return failure.with_durations(durations)
        assert done
        try:
            return self.judge(workspace, done[-1], sandbox).with_durations(durations)
        except GoldenError as exc:
            return Verdict.error(str(exc))

    def _strong_builds_alike(self) -> bool:
        strong = self.case.model.strong_oracle
        return strong is not None and strong.kind == KIND and getattr(strong, "build", None) in (
            None, self.spec.build)

    def judge(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict:
        raise NotImplementedError

    def reference(self, sandbox: Sandbox) -> str:
        build = self.spec.build if self.golden_build is None else self.golden_build
        steps = Step("build", build), Step(RUN, self.spec.run, self.compare)
        return golden_outputs(self.case, self.ctx, sandbox, steps, self.spec.timeout, self.kind)[RUN]

    def differs(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict | None:
        """The failing verdict when the run's output is unreadable or differs from the golden one."""
        got = read_output(workspace, self.compare, ex)
        if got.problem is not None:
            return Verdict.fail(Category.TEST_FAIL, got.problem, log_tail=ex.tail())
        mismatch = compare_outputs(self.reference(sandbox), got.text, self.spec.tolerance, self.spec.rel_tolerance)
        return None if mismatch is None else Verdict.fail(Category.TEST_FAIL, mismatch, log_tail=ex.tail(),
                                                          metrics={"mismatch": mismatch})


class ExitCodeOracle(BuildRunOracle):
    """Passes on exit status 0, stdout matching the declared regex, and stdout equal to the golden run's."""

    kind = "exit-code"
    self_checking = True

    def judge(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict:
        pattern = self.spec.stdout
        if pattern is not None and not re.search(pattern, ex.stdout, re.MULTILINE):
            return Verdict.fail(Category.TEST_FAIL, f"stdout does not match {pattern!r}", log_tail=ex.tail())
        # A printed verdict is never trusted by itself: the whole stdout must be the golden one.
        failure = self.differs(workspace, ex, sandbox)
        if failure is not None:
            return Verdict.fail(Category.TEST_FAIL, f"stdout differs from the golden run: {failure.summary}",
                                log_tail=failure.log_tail, metrics=dict(failure.metrics))
        return Verdict.ok("exit status 0" + (f", stdout matches {pattern!r}" if pattern else "")
                          + ", stdout equals the golden run's")


class OutputDiffOracle(BuildRunOracle):
    """Compares the candidate's output with the reference output, exactly or within tolerances."""

    kind = "output-diff"

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        super().__init__(case, ctx)
        self.compare = self.spec.compare

    def judge(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict:
        return self.differs(workspace, ex, sandbox) or Verdict.ok("output matches the reference")

    def reference(self, sandbox: Sandbox) -> str:
        """The golden output: the case's `expected` file, else the golden build's output (cached)."""
        if self.spec.expected is not None:
            return self.case.files[self.spec.expected]
        return super().reference(sandbox)


EXIT_CODE = OracleKind("exit-code", ("hls",), ExitCodeOracle, BuildRunSpec)
OUTPUT_DIFF = OracleKind("output-diff", ("hls",), OutputDiffOracle, BuildRunSpec)


def _own_lines(text: str, source: str) -> list[str]:
    """The preprocessed lines the compiler attributes to `source` itself (not to headers it includes)."""
    lines, mine = [], False
    for line in text.splitlines():
        marker = _MARKER.match(line)
        if marker:
            mine = marker.group(1) == source
        elif mine and line.strip():
            lines.append(line)
    return lines


def escape_problem(workspace: Path, sandbox: Sandbox, build: str, case_sources: list[str], *, timeout: float,
                   limits: Limits) -> str | None:
    """Why the candidate could escape or detect the sanitizer build (one line), or None. Screened: the build's C
    files among the case's sources; a build that is not one plain compiler command is not screened."""
    parsed = parse_build(build)
    sources = [s for s in parsed.sources if s in case_sources] if parsed else []
    if parsed is None or not sources:
        return None
    flags = " ".join(w for w in parsed.words[1:] if w.startswith(PREPROCESSOR_FLAGS) and not w.startswith("-fsanitize"))
    nonce = secrets.token_hex(8)
    script = "".join(f"echo '@@{nonce} {i} plain'; {parsed.compiler} -E {flags} {src}; "
                     f"echo '@@{nonce} {i} sanitized'; {parsed.compiler} -E {flags} {SANITIZE_FLAGS} {src}; "
                     for i, src in enumerate(sources))
    ex = sandbox.run(workspace, script + f"echo '@@{nonce} end'", timeout=timeout,
                     limits=replace(limits, output=OUTPUT_CAP))
    if ex.truncated:
        return "its preprocessed text is too large to screen for the sanitizer build"
    parts = re.split(rf"^@@{nonce} (\d+|end) ?(plain|sanitized)?$", ex.stdout, flags=re.MULTILINE)
    if not ex.ok or f"@@{nonce} end" not in ex.stdout:
        return None  # it does not preprocess: the builds themselves say why
    texts = {(int(parts[i]), parts[i + 1]): parts[i + 2] for i in range(1, len(parts) - 2, 3)
             if parts[i] != "end" and parts[i + 1]}
    for i, src in enumerate(sources):
        plain, sanitized = (_own_lines(texts.get((i, kind), ""), src) for kind in ("plain", "sanitized"))
        for line in plain + sanitized:
            found = FORBIDDEN.search(line)
            if found:
                return f"{src} uses {found.group(1)!r}, which would escape or detect the sanitizer build"
        if plain != sanitized:
            return f"{src} compiles to other code under the sanitizer flags: the sanitizer build must see the same code"
    return None


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
    suite = case.oracle
    if not isinstance(suite, BuildRunSpec):
        raise CaseError(f"{case.path}: oracle.kind: hls-diff needs a suite oracle with build and run commands")
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
        tolerance=suite.tolerance if strong.tolerance is None else strong.tolerance,
        rel_tolerance=suite.rel_tolerance if strong.rel_tolerance is None else strong.rel_tolerance,
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
            # The builds after the first start from the workspace as it was before any step: by then the
            # candidate's program has run, and could have written over its own sources or the testbench.
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
        problem = escape_problem(workspace, sandbox, self.spec.build, self.case.model.sources,
                                 timeout=self.spec.timeout, limits=self.ctx.limits)
        return None if problem is None else Verdict.fail(Category.TEST_FAIL, f"sanitizer screen: {problem}",
                                                         metrics={"screen": "sanitizer"})

    def _linked(self, workspace: Path, sandbox: Sandbox, step: Step) -> Step:
        """A build step linking objects of the case's unchanged C files (builds.py); other steps as they are."""
        if step.output is not None:
            return step
        build = linked_build(self.case, self.ctx, sandbox, workspace, step.argv, timeout=self.spec.timeout,
                             limits=self.ctx.limits)
        return replace(step, argv=build)

    def _passed(self) -> str:
        parts = [f"{self.spec.seeds} seeds", f"{len(self.spec.variants)} variants" if self.spec.variants else "",
                 "the sanitizer build" if self.spec.sanitize else ""]
        return "matches the golden build on " + ", ".join(filter(None, parts))

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
        mismatch = compare_outputs(golden[step.label], result.output.text, self.spec.tolerance, self.spec.rel_tolerance)
        return None if mismatch is None else Verdict.fail(
            Category.TEST_FAIL, f"{step.label} (`{step.argv}`): {mismatch}", log_tail=ex.tail(),
            metrics={"mismatch": mismatch})


def _done(verdict: Verdict, durations: dict[str, float], steps: int, failed_step: str | None) -> Verdict:
    metrics = {**verdict.metrics, "strong_steps": steps, **({"failed_step": failed_step} if failed_step else {})}
    return replace(verdict, metrics=metrics, durations={k: round(v, 4) for k, v in durations.items()})


HLS_DIFF = OracleKind(KIND, ("hls",), HlsDiffOracle, suite=False, strong=True, strong_spec=HlsDiffTable,
                      strong_on_pass_only=True)
