"""`rtl-repo`: the fail-to-pass / pass-to-pass testbench runner of repository cases (cases/rtl/repo/README.md).

The bench is a scratch copy of the candidate repository (read without following links) with the harness's own
copy of every testbench path from the fixed tree; every HDL design file first passes the rtl source rules, so
only harness-owned testbenches print or stop the simulation. A test passes when it builds and runs in time,
prints a `TEST PASSED` line and no `TEST FAILED` line, and its `TRACE` lines equal those of the same test on the
fixed tree (cached outside every workspace): the testbench's own verdict is never trusted alone.
Bound to an instance (`for_bug`), the oracle runs its F2P then P2P tests; unbound, every test.
"""

from __future__ import annotations

import enum
import re
import signal
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ...cases.case import Case
from ...repo.candidate import CandidateError, feedback_text, read_workspace, repo_attempt
from ...repo.load import RepoParts, RepoTest, is_hdl
from ...sandbox.base import Execution, Sandbox
from ...verdict import Category, Verdict
from ..base import Oracle, OracleContext, OracleKind, cached_text, content_hash, scratch_workspace, write_files
from .preflight import PreflightRejection, check_source_rules, strip_comments

PASS_LINE, FAIL_PREFIX, TRACE_PREFIX = "TEST PASSED", "TEST FAILED", "TRACE "
LOG_LINES = 40


class TestStatus(enum.StrEnum):
    """The outcome of one testbench run."""

    __test__ = False  # not a pytest test class

    PASS = "pass"
    FAIL = "fail"
    TRACE_MISMATCH = "trace_mismatch"
    BUILD_FAIL = "build_fail"
    TIMEOUT = "timeout"
    CRASH = "crash"


CATEGORIES = {TestStatus.FAIL: Category.TEST_FAIL, TestStatus.TRACE_MISMATCH: Category.TEST_FAIL,
              TestStatus.BUILD_FAIL: Category.COMPILE_FAIL, TestStatus.TIMEOUT: Category.TIMEOUT,
              TestStatus.CRASH: Category.RUNTIME_CRASH}


@dataclass(frozen=True, slots=True)
class TestResult:
    """One test's status, a one-line detail, its log tail and its TRACE lines."""

    __test__ = False

    name: str
    role: str
    status: TestStatus
    detail: str
    log: str = ""
    trace: tuple[str, ...] = ()
    seconds: float = 0.0


class RepoOracle:
    """Runs a repository's testbenches on a candidate workspace."""

    def __init__(self, case: Case, ctx: OracleContext, bug_id: str | None = None) -> None:
        if not isinstance(case.repo, RepoParts):
            raise ValueError(f"{case.path}: oracle.kind: rtl-repo judges repository cases only")
        self.case, self.ctx, self.bug_id = case, ctx, bug_id
        self.repo = case.repo

    def for_bug(self, bug_id: str) -> RepoOracle:
        """The oracle of one instance: its F2P and P2P tests."""
        return RepoOracle(self.case, self.ctx, bug_id)

    def check(self, workspace: Path, sandbox: Sandbox) -> Verdict:
        with scratch_workspace("hwrepair-repo-") as bench:
            try:
                self.stage(workspace, bench)
            except PreflightRejection as exc:
                return Verdict.fail(Category.LINT_FAIL, f"preflight: {exc}",
                                    metrics={"stage": "preflight", "preflight": exc.rule})
            except CandidateError as exc:
                return Verdict.fail(Category.LINT_FAIL, f"preflight: {exc}", metrics={"stage": "preflight"})
            results = [self.run_test(bench, role, test, sandbox) for role, test in self.repo.tests(self.bug_id)]
        return verdict_of(results)

    def stage(self, workspace: Path, bench: Path) -> None:
        """The candidate's design files, checked, then the harness's testbench files, into the bench."""
        known = set(self.repo.tree).union(*self.repo.snapshots.values())
        files, _ = read_workspace(workspace, known)
        design = {p: t for p, t in files.items() if not self.repo.is_testbench(p)}
        for path in sorted(design):
            if is_hdl(path):
                check_source_rules(path, design[path])
        owned = {p: t for p, t in self.repo.tree.items() if self.repo.is_testbench(p)}
        if problem := shadowing(design, owned, known):
            raise PreflightRejection("shadows-testbench", problem)
        write_files(bench, {**design, **owned})

    def run_test(self, bench: Path, role: str, test: RepoTest, sandbox: Sandbox) -> TestResult:
        result = run_steps(bench, role, test, self.repo.timeout(test), sandbox, self.ctx)
        if result.status is not TestStatus.PASS:
            return result
        golden = self.golden(test, sandbox)
        if list(result.trace) != golden:
            return replace(result, status=TestStatus.TRACE_MISMATCH, detail=trace_difference(golden, result.trace))
        return result

    def golden(self, test: RepoTest, sandbox: Sandbox) -> list[str]:
        """The test's TRACE lines on the fixed tree, produced once per tree and test."""
        tree = content_hash(*(f"{p}\0{t}" for p, t in sorted(self.repo.tree.items())))
        key = content_hash("rtl-repo-golden", tree, test.name, test.build, test.run)
        text = cached_text(self.ctx.cache_dir / "repo-golden", key, lambda: self._produce_golden(test, sandbox))
        return text.splitlines()

    def _produce_golden(self, test: RepoTest, sandbox: Sandbox) -> str:
        with scratch_workspace("hwrepair-repo-golden-") as bench:
            write_files(bench, self.repo.tree)
            result = run_steps(bench, "golden", test, self.repo.timeout(test), sandbox, self.ctx)
        if result.status is not TestStatus.PASS:
            raise RuntimeError(f"{self.case.path}: test {test.name} fails on the fixed tree "
                               f"[{result.status.value}] {result.detail}")
        if not result.trace:
            raise RuntimeError(f"{self.case.path}: test {test.name} prints no {TRACE_PREFIX.strip()} lines on the "
                               "fixed tree; a repository test traces what it checks")
        return "\n".join(result.trace) + "\n"


_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_INCLUDE = re.compile(r'`include\s+"([^"]+)"')
_MODULE = re.compile(r"\b(?:module|macromodule|primitive|interface|package|program)\s+(?:automatic\s+|static\s+)?(\w+)")


def shadowing(design: Mapping[str, str], owned: Mapping[str, str], known: set[str]) -> str | None:
    """How a candidate's design file would take the place of harness-owned testbench code, or None: a lookup made
    from a testbench (an `include`, a module found in a `-y` library or by name) must find the harness's file, yet a
    new file named as a header it includes, or any design file defining one of its units, would be found first (the
    working directory and the design's library folders come before the testbench's)."""
    includes = {Path(name).name for text in owned.values() for name in _INCLUDE.findall(_COMMENT.sub(" ", text))}
    units = {name for text in owned.values() for name in _MODULE.findall(strip_comments(text))}
    for path in sorted(design):
        name = Path(path).name
        if path not in known and (name in includes or Path(path).stem in units):
            return (f"{path}: a new file named as the testbench's own {name!r} would be found in its place; "
                    "the testbench's lookups resolve to harness-owned files only")
        if clash := sorted(units & set(_MODULE.findall(strip_comments(design[path])))) if is_hdl(path) else []:
            return f"{path}: defines {clash[0]!r}, a unit of the harness-owned testbench; rename it in the design"
    return None


def run_step(bench: Path, argv: str, timeout: float, sandbox: Sandbox, ctx: OracleContext) -> Execution:
    """One step; a step killed (SIGKILL) before its deadline runs once more: such a kill comes from outside (a
    shared machine's process sweeps, the OOM killer); a candidate that really exhausts its limits is killed again."""
    ex = sandbox.run(bench, argv, timeout=timeout, limits=ctx.limits)
    if ex.signal == signal.SIGKILL and not ex.timed_out:
        ex = sandbox.run(bench, argv, timeout=timeout, limits=ctx.limits)
    return ex


def run_steps(bench: Path, role: str, test: RepoTest, timeout: float, sandbox: Sandbox,
              ctx: OracleContext) -> TestResult:
    """Build, then run; the status the outputs give, before the golden trace comparison."""
    build = run_step(bench, test.build, timeout, sandbox, ctx)
    if (failed := _step_status(build, "build")) is not None:
        return TestResult(test.name, role, failed[0], failed[1], build.tail(LOG_LINES), seconds=build.duration)
    run = run_step(bench, test.run, timeout, sandbox, ctx)
    seconds = build.duration + run.duration
    failed = _step_status(run, "run")
    if failed is None and run.truncated:
        failed = (TestStatus.FAIL, "the run's output exceeded the capture limit")
    if failed is not None:
        return TestResult(test.name, role, failed[0], failed[1], run.tail(LOG_LINES), seconds=seconds)
    lines = [line.rstrip() for line in run.stdout.splitlines()]
    trace = tuple(line for line in lines if line.startswith(TRACE_PREFIX))
    fails = [line for line in lines if line.startswith(FAIL_PREFIX)]
    if fails or PASS_LINE not in lines:
        detail = fails[0] if fails else f"the testbench printed no {PASS_LINE} line"
        return TestResult(test.name, role, TestStatus.FAIL, detail[:300], run.tail(LOG_LINES), trace, seconds)
    return TestResult(test.name, role, TestStatus.PASS, "passed", run.tail(LOG_LINES), trace, seconds)


def _step_status(ex: Execution, stage: str) -> tuple[TestStatus, str] | None:
    if ex.timed_out:
        return TestStatus.TIMEOUT, f"{stage} timed out after {ex.duration:.1f}s"
    if ex.returncode == 0:
        return None
    if stage == "build":
        first = next((line for line in ex.tail(LOG_LINES).splitlines() if "error" in line.lower()), "")
        return TestStatus.BUILD_FAIL, f"build failed (exit {ex.returncode}){': ' + first[:200] if first else ''}"
    why = f"signal {ex.signal}" if ex.signal is not None else f"exit {ex.returncode}"
    return TestStatus.CRASH, f"run stopped with {why}"


def trace_difference(golden: list[str], got: tuple[str, ...]) -> str:
    for index, (want, have) in enumerate(zip(golden, got), 1):
        if want != have:
            return f"trace line {index}: expected {want[len(TRACE_PREFIX):]!r}, got {have[len(TRACE_PREFIX):]!r}"
    return f"the trace has {len(got)} lines, the fixed design's has {len(golden)}"


def verdict_of(results: list[TestResult]) -> Verdict:
    """Resolved when every test passes; otherwise the first failing F2P test (else P2P) decides the category."""
    tests = {r.name: r.status.value for r in results}
    counts = {role: (sum(r.status is TestStatus.PASS for r in results if r.role == role),
                     sum(1 for r in results if r.role == role)) for role in ("f2p", "p2p", "all")}
    shown = ", ".join(f"{role.upper()} {p}/{n} pass" for role, (p, n) in counts.items() if n)
    metrics = {"stage": "tests", "tests": tests,
               "f2p_passed": counts["f2p"][0], "p2p_passed": counts["p2p"][0]}
    durations = {"tests": round(sum(r.seconds for r in results), 4)}
    failing = [r for r in results if r.status is not TestStatus.PASS]
    if not failing:
        return Verdict.ok(f"resolved: {shown}", metrics=metrics, durations=durations)
    first = failing[0]
    log = f"test {first.name} ({first.role.upper()}): {first.detail}\n{first.log}".rstrip()
    return Verdict.fail(CATEGORIES[first.status], f"{shown}; {first.name}: {first.detail}", log_tail=log,
                        metrics={**metrics, "failed_test": first.name}, durations=durations)


class RepoTree:
    """What running a repository sample asks of the kind: per-instance tests, whole-tree candidates, feedback."""

    attempt = staticmethod(repo_attempt)
    feedback = staticmethod(feedback_text)

    def bind(self, oracle: Oracle, bug: str) -> Oracle:
        return oracle.for_bug(bug) if isinstance(oracle, RepoOracle) else oracle


# Never a design case's [oracle]: the repository loader sets it (suite=False keeps it out of design cases).
RTL_REPO = OracleKind("rtl-repo", ("rtl",), RepoOracle, suite=False, marker="repo", tree=RepoTree())
