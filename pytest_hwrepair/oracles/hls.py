"""HLS oracles: `exit-code` (self-checking programs) and `output-diff` (against the reference)."""

from __future__ import annotations

import math
import re
from pathlib import Path

from pydantic import Field, field_validator

from ..cases import MAX_TOLERANCE, Case, OracleSpec, compile_regex, path_problem
from ..sandbox.base import Execution, Sandbox
from ..verdict import Category, Verdict
from .base import (
    OracleContext,
    OracleKind,
    cached_text,
    content_hash,
    populate,
    scratch_workspace,
    step_failure,
    typed_spec,
)


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
    """Build, then run; subclasses judge the run's output."""

    def __init__(self, case: Case, ctx: OracleContext) -> None:
        self.case, self.ctx, self.spec = case, ctx, typed_spec(case.oracle, BuildRunSpec)

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        durations: dict[str, float] = {}
        steps = (("build", self.spec.build), ("run", self.spec.run))
        ran: Execution | None = None
        for stage, argv in steps:
            ex = sandbox.run(workspace, argv, timeout=self.spec.timeout, limits=self.ctx.limits)
            durations[stage] = ex.duration
            failure = step_failure(ex, stage)
            if failure is not None:
                if stage == "run" and ex.signal is None and not ex.timed_out:
                    failure = self.nonzero_exit(ex, failure)
                return failure.with_durations(durations)
            ran = ex
        assert ran is not None
        return self.judge(workspace, ran, sandbox).with_durations(durations)

    def nonzero_exit(self, ex: Execution, failure: Verdict) -> Verdict:
        return failure

    def judge(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict:
        raise NotImplementedError


class ExitCodeOracle(BuildRunOracle):
    """Passes when the program exits 0 and its stdout matches the declared regex."""

    def nonzero_exit(self, ex: Execution, failure: Verdict) -> Verdict:
        # A self-checking program that exits non-zero reported mismatches: a wrong answer, not a crash.
        return Verdict.fail(Category.TEST_FAIL, f"self-check failed (exit {ex.returncode})",
                            log_tail=ex.tail())

    def judge(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict:
        pattern = self.spec.stdout
        if pattern is not None and not re.search(pattern, ex.stdout, re.MULTILINE):
            return Verdict.fail(Category.TEST_FAIL, f"stdout does not match {pattern!r}",
                                log_tail=ex.tail())
        return Verdict.ok("exit status 0" + (f", stdout matches {pattern!r}" if pattern else ""))


class OutputDiffOracle(BuildRunOracle):
    """Compares the candidate's output with the reference output, exactly or within tolerances."""

    def judge(self, workspace: Path, ex: Execution, sandbox: Sandbox) -> Verdict:
        got = self._output(workspace, ex)
        if got is None:
            return Verdict.fail(Category.TEST_FAIL, f"{self.spec.compare}: output file missing", log_tail=ex.tail())
        if ex.truncated and self.spec.compare in ("stdout", "stderr"):
            return Verdict.fail(Category.TEST_FAIL, "output exceeded the capture limit", log_tail=ex.tail())
        expected = self.reference(sandbox)
        mismatch = compare_outputs(expected, got, self.spec.tolerance, self.spec.rel_tolerance)
        if mismatch is not None:
            return Verdict.fail(Category.TEST_FAIL, mismatch, log_tail=ex.tail(),
                                metrics={"mismatch": mismatch})
        return Verdict.ok("output matches the reference")

    def _output(self, workspace: Path, ex: Execution) -> str | None:
        if self.spec.compare == "stdout":
            return ex.stdout
        if self.spec.compare == "stderr":
            return ex.stderr
        path = workspace / self.spec.compare.removeprefix("file:")
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def reference(self, sandbox: Sandbox) -> str:
        """The golden output: the `expected` file, else the reference build's output (cached)."""
        if self.spec.expected is not None:
            return self.case.files[self.spec.expected]
        key = content_hash("output-diff", self.case.digest)
        return cached_text(self.ctx.cache_dir / "reference", key, lambda: self._produce_reference(sandbox))

    def _produce_reference(self, sandbox: Sandbox) -> str:
        with scratch_workspace() as ws:
            populate(ws, self.case, {n: self.case.files[n] for n in self.case.model.sources})
            for argv in (self.spec.build, self.spec.run):
                ex = sandbox.run(ws, argv, timeout=self.spec.timeout, limits=self.ctx.limits)
                if not ex.ok:
                    raise RuntimeError(f"{self.case.path}: the reference sources fail `{argv}`: {ex.tail(5)}")
            out = self._output(ws, ex)
            if out is None:
                raise RuntimeError(f"{self.case.path}: the reference run wrote no {self.spec.compare}")
            return out


_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|nan|infinity)$", re.IGNORECASE)


def compare_outputs(expected: str, got: str, tol: float, rel: float) -> str | None:
    """None when equal; else a one-line description of the first difference."""
    if tol == 0 and rel == 0:
        if expected.split() == got.split():
            return None
    exp_tokens, got_tokens = expected.split(), got.split()
    for index, (a, b) in enumerate(zip(exp_tokens, got_tokens)):
        if a == b:
            continue
        if _NUMBER.match(a) and _NUMBER.match(b) and _close(float(a), float(b), tol, rel):
            continue
        line = _line_of(expected, index)
        return f"first mismatch at token {index + 1} (line {line}): expected {a!r}, got {b!r}"
    if len(exp_tokens) != len(got_tokens):
        return f"output has {len(got_tokens)} tokens, the reference has {len(exp_tokens)}"
    return None


def _close(a: float, b: float, tol: float, rel: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tol or abs(a - b) <= rel * abs(a)


def _line_of(text: str, token_index: int) -> int:
    count = 0
    for number, line in enumerate(text.splitlines(), 1):
        count += len(line.split())
        if count > token_index:
            return number
    return number if text else 0



EXIT_CODE = OracleKind("exit-code", ("hls",), ExitCodeOracle, BuildRunSpec)
OUTPUT_DIFF = OracleKind("output-diff", ("hls",), OutputDiffOracle, BuildRunSpec)
