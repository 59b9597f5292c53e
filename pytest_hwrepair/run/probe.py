"""The harness side of the search fixer's probe: the suite oracle on candidates, a syntax pass, coverage.

A probe is made by the harness for one task and holds the case; the fixer only ever sees the
`SuiteProbe` methods. Each check lays out a fresh workspace exactly as the harness does for a
candidate (the visible buggy files with the candidate's target, the data and the oracle assets)
and runs the suite oracle through the run's sandbox, so every step takes a slot of the oracle
semaphore. The strong oracle and the golden files are never used.
"""

from __future__ import annotations

import re
import shlex
import tempfile
import threading
import traceback
from collections.abc import Callable
from pathlib import Path

from ..cases.case import Bug, Case
from ..cases.domains import domain_of
from ..oracles import OracleContext, make_oracle
from ..oracles.base import populate
from ..sandbox.base import Sandbox
from ..strength.mutate import Language
from ..verdict import Category, Verdict
from .probe_build import PrebuiltObjects, c_build, coverage_command, gcov_command, parse_gcov
from .probe_cpu import CountingSandbox

SYNTAX_TIMEOUT = 20.0


class ProbeError(ValueError):
    """A fixer handed the probe something a candidate cannot be: a file other than the target."""


class HarnessProbe:
    """The suite oracle of one (case, bug), as the search fixer may use it."""

    def __init__(self, case: Case, bug: Bug, sandbox: Sandbox, ctx: OracleContext, jobs: int, *,
                 reuse_objects: bool = True) -> None:
        self._counting = CountingSandbox(sandbox)
        self._case, self._sandbox, self._ctx = case, self._counting, ctx
        self._buggy = case.buggy_files(bug)
        self._target = case.target_of(bug)  # the file the bug lives in, which the search edits
        self._oracle = make_oracle(case, ctx)
        self._jobs = max(1, jobs)
        self._language = Language.of(self._target)
        self._build = c_build(case) if domain_of(case.domain).language == "c" else None
        self._reuse = reuse_objects
        self._prebuilt: PrebuiltObjects | None = None
        self._warm = False
        self._lock = threading.Lock()

    @property
    def jobs(self) -> int:
        return self._jobs

    @property
    def language(self) -> str:
        return self._language.value

    @property
    def reuses_objects(self) -> bool:
        """Whether checks link harness objects compiled once instead of compiling them again."""
        return self._prebuilt is not None and self._prebuilt.usable

    @property
    def cpu_seconds(self) -> float:
        return self._counting.seconds

    def check(self, files: dict[str, str]) -> Verdict:
        text = self._candidate(files)
        oracle, extra = self._oracle, {}
        if self._warm and self._reuse and self._build is not None:
            prebuilt = self._prebuilt_objects()
            if prebuilt is not None:
                oracle, extra = prebuilt.oracle, prebuilt.objects
        verdict = self._in_workspace(text, lambda ws: oracle.check(ws, self._sandbox), extra)
        self._warm = True  # the first check made any reference output the oracle caches
        return verdict

    def syntax(self, files: dict[str, str]) -> Verdict | None:
        text = self._candidate(files)
        argv = self._syntax_command()
        if argv is None:
            return None

        def run(ws: Path) -> Verdict:
            ex = self._sandbox.run(ws, argv, timeout=SYNTAX_TIMEOUT, limits=self._ctx.limits)
            if ex.ok:
                return Verdict.ok("parses")
            category = Category.LINT_FAIL if self._language is Language.VERILOG else Category.COMPILE_FAIL
            return Verdict.fail(category, "syntax-only pass failed", log_tail=ex.tail(40))

        verdict = self._in_workspace(text, run, {})
        return None if verdict.passed else verdict

    def coverage(self, files: dict[str, str]) -> dict[int, int] | None:
        if self._build is None:
            return None
        text = self._candidate(files)
        timeout = self._case.oracle.timeout
        build = coverage_command(self._build, timeout)
        found: dict[int, int] | None = None

        def run(ws: Path) -> Verdict:
            nonlocal found
            for name, source in build.helpers.items():
                (ws / name).write_text(source, encoding="utf-8")
            made = self._sandbox.run(ws, build.command, timeout=timeout + 30, limits=self._ctx.limits)
            if not made.ok:
                return Verdict.fail(Category.COMPILE_FAIL, "coverage build failed")
            run = getattr(self._case.oracle, "run", None)
            assert isinstance(run, str)
            self._sandbox.run(ws, run, timeout=timeout + 2, limits=self._ctx.limits)
            report = self._sandbox.run(ws, gcov_command(self._target), timeout=30, limits=self._ctx.limits)
            found = parse_gcov(report.stdout, self._target)
            return Verdict.ok("coverage")

        self._in_workspace(text, run, {})
        return found or None

    def _candidate(self, files: dict[str, str]) -> str:
        extra = sorted(set(files) - {self._target})
        if extra or self._target not in files:
            raise ProbeError(f"probe: a candidate holds exactly the target file {self._target!r}"
                             + (f", not {', '.join(repr(n) for n in extra)}" if extra else ""))
        return files[self._target]

    def _in_workspace(self, text: str, check: Callable[[Path], Verdict], extra: dict[str, bytes]) -> Verdict:
        with tempfile.TemporaryDirectory(prefix="hwrepair-probe-") as tmp:
            ws = Path(tmp)
            populate(ws, self._case, {**self._buggy, self._target: text})
            for name, data in extra.items():
                (ws / name).write_bytes(data)
            try:
                return check(ws)
            except Exception as exc:  # an oracle crash is the harness's fault, never the candidate's
                return Verdict.error(f"probe: oracle raised {type(exc).__name__}: {exc}",
                                     log_tail=traceback.format_exc(limit=6))

    def _prebuilt_objects(self) -> PrebuiltObjects | None:
        with self._lock:
            if self._prebuilt is None and self._build is not None:
                self._prebuilt = PrebuiltObjects.make(self._case, self._build, self._target, self._buggy,
                                                      self._sandbox, self._ctx)
            return self._prebuilt if self._prebuilt is not None and self._prebuilt.usable else None

    def _syntax_command(self) -> str | None:
        if self._build is not None:
            flags = " ".join(shlex.quote(f) for f in self._build.compile_flags)
            return f"{self._build.compiler} -fsyntax-only {flags} {shlex.quote(self._target)}"
        if self._language is Language.VERILOG:
            sources = [n for n in self._case.model.sources if re.search(r"\.s?v$", n)]
            return "iverilog -g2012 -t null " + " ".join(shlex.quote(n) for n in sources)
        return None
