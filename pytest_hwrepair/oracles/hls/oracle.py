"""HLS oracles: `exit-code` and `output-diff`, both differential against the golden build.

The harness decides: the candidate's program only produces output, read as untrusted data (no links,
regular files only, capped), and compared with the golden output the candidate never sees — the
case's `expected` file (read from the case, never placed in a workspace) or the output of the case's
own sources built and run in a scratch workspace, cached by content hash.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, field_validator

from ...cases.case import MAX_TOLERANCE, Case, OracleSpec, compile_regex, path_problem
from ...sandbox.base import Command, Execution, Sandbox, run_commands
from ...verdict import Category, Verdict
from ..base import OracleContext, OracleKind, step_failure, typed_spec
from .builds import BUILDS
from .golden import GoldenError, Step, golden_outputs
from .objects import linked_build
from .outputs import compare_outputs, read_output

RUN = "run"



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

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        self.case, self.ctx, self.spec = case, ctx, typed_spec(case.oracle, BuildRunSpec)
        # The build the golden output comes from when checks build differently (linking prebuilt objects).
        self.golden_build: str | None = None

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        try:
            return self._check(workspace, sandbox)
        except GoldenError as exc:
            return Verdict.error(str(exc))

    def _check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        durations: dict[str, float] = {}
        ran: Execution | None = None
        timeout, limits = self.spec.timeout, self.ctx.limits
        build = linked_build(self.case, self.ctx, sandbox, workspace, self.spec.build, timeout=timeout,
                             limits=limits)
        stages = (("build", build), (RUN, self.spec.run))
        if self._strong_builds_alike():  # the build is kept for the strong oracle (hls_builds.py)
            done = BUILDS.build_and_run(sandbox, workspace, stages[0][1], stages[1][1], timeout=timeout,
                                        limits=limits)
        else:  # one batch: the run's output stays in the workspace, where `judge` reads it
            done = run_commands(sandbox, workspace, [Command(argv) for _, argv in stages], timeout=timeout,
                                limits=limits)
        for (stage, _), ex in zip(stages, done):
            durations[stage] = ex.duration
            failure = step_failure(ex, stage)
            if failure is not None:
                if stage == RUN and ex.signal is None and not ex.timed_out:
                    failure = self.nonzero_exit(ex, failure)
                return failure.with_durations(durations)
            ran = ex
        assert ran is not None
        return self.judge(workspace, ran, sandbox).with_durations(durations)

    def nonzero_exit(self, ex: Execution, failure: Verdict) -> Verdict:
        return failure

    def _strong_builds_alike(self) -> bool:
        """Whether the case's hls-diff strong oracle builds with this oracle's build command."""
        strong = self.case.model.strong_oracle
        return strong is not None and strong.kind == "hls-diff" and getattr(strong, "build", None) in (
            None, self.spec.build)

    def judge(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict:
        raise NotImplementedError

    def steps(self) -> tuple[Step, ...]:
        return Step("build", self.spec.build), Step(RUN, self.spec.run, self.compare)

    def reference(self, sandbox: Sandbox) -> str:
        """The golden output of the run: built from the case's own sources, cached by content hash."""
        return golden_outputs(self.case, self.ctx, sandbox, self.golden_steps(), self.spec.timeout, self.kind)[RUN]

    def golden_steps(self) -> tuple[Step, ...]:
        """The steps of the golden run: the case's own build, even where a check links prebuilt objects."""
        steps = self.steps()
        return steps if self.golden_build is None else (Step("build", self.golden_build), *steps[1:])

    def differs(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict | None:
        """The failing verdict when the run's output is unreadable or differs from the golden one."""
        got = read_output(workspace, self.compare, ex)
        if got.problem is not None:
            return Verdict.fail(Category.TEST_FAIL, got.problem, log_tail=ex.tail())
        mismatch = compare_outputs(self.reference(sandbox), got.text, self.spec.tolerance, self.spec.rel_tolerance)
        if mismatch is not None:
            return Verdict.fail(Category.TEST_FAIL, mismatch, log_tail=ex.tail(), metrics={"mismatch": mismatch})
        return None


class ExitCodeOracle(BuildRunOracle):
    """Passes on exit status 0, stdout matching the declared regex, and stdout equal to the golden run's."""

    kind = "exit-code"

    def nonzero_exit(self, ex: Execution, failure: Verdict) -> Verdict:
        # A self-checking program that exits non-zero reported mismatches: a wrong answer, not a crash.
        return Verdict.fail(Category.TEST_FAIL, f"self-check failed (exit {ex.returncode})",
                            log_tail=ex.tail())

    def judge(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict:
        pattern = self.spec.stdout
        if pattern is not None and not re.search(pattern, ex.stdout, re.MULTILINE):
            return Verdict.fail(Category.TEST_FAIL, f"stdout does not match {pattern!r}",
                                log_tail=ex.tail())
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


__all__ = ["BuildRunOracle", "ExitCodeOracle", "OutputDiffOracle", "compare_outputs"]


EXIT_CODE = OracleKind("exit-code", ("hls",), ExitCodeOracle, BuildRunSpec)
OUTPUT_DIFF = OracleKind("output-diff", ("hls",), OutputDiffOracle, BuildRunSpec)
