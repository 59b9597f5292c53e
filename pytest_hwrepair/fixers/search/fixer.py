"""`search`: an offline generate-and-validate repair baseline (GenProg / CirFix tradition, written here).

It localises the fault from what a developer observes (coverage of the failing run, the failure's
log, the differing RTL output), ranks single edits from the benchmark's bug taxonomies, validates
them with the suite oracle through the harness's probe, and stacks improving edits when no single
one passes. It never sees the case, its golden files or the strong oracle. Samples differ by seed;
the same seed gives the same patch. The seconds budget counts CPU seconds, so a busy machine makes a
search slower, not different (unless the wall-clock safety net of 5x the budget cuts it short).
"""

from __future__ import annotations

import json
import re
import resource
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ...results.rundir import patch_sha
from ...settings import Settings
from ...strength.mutate import Edit, Language, Op, candidate_edits, parse_operators
from ...verdict import Category, Outcome, Verdict
from ..base import Candidate, FixerError, FixerUnavailable, ProbeFactory, RepairTask, SuiteProbe
from .rank import Localisation, Ranker, localise
from .syntax import syntax_edits

VERSION = 2  # part of the sample key: a changed search gives new keys
WALL_FACTOR = 5       # a search stops after this many times its CPU budget in wall seconds, whatever the load
CLIMB_DEPTH = 3       # edits stacked at most
CLIMB_BASES = 3       # improving candidates a climb starts from
# Edits that can break the build get the syntax-only pass first; the others go straight to the oracle.
RISKY = frozenset({Op.IDENTIFIER, Op.SWAP, Op.TYPE, Op.INIT, Op.GUARD, Op.DELETE, Op.SYNTAX, Op.WIDTH,
                   Op.BLOCKING, Op.TERNARY})
BUILD_FAILURES = (Category.COMPILE_FAIL, Category.LINT_FAIL)


@dataclass(frozen=True)
class SearchOptions:
    """Budget per sample (candidates, CPU seconds), operator families, and whether edits are stacked."""

    budget: int = 200
    seconds: float = 180.0
    operators: tuple[Op, ...] | None = None
    climb: bool = True

    def config(self) -> dict[str, Any]:
        return {"fixer": "search", "version": VERSION, "budget": self.budget, "seconds": self.seconds,
                "operators": [op.value for op in self.operators] if self.operators else "all",
                "climb": self.climb}


def parse_options(arg: str | None, settings: Settings) -> SearchOptions:
    """`--hwrepair-search-*` settings, overridden by `--fixer=search:budget=N,seconds=S,operators=a+b,climb=no`."""
    values: dict[str, str] = {"budget": str(settings.search_budget), "seconds": str(settings.search_seconds),
                              "operators": settings.search_operators or "", "climb": str(not settings.search_no_climb)}
    for part in (arg or "").split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep or key.strip() not in values:
            raise FixerError(f"--fixer search:{arg}: {part.strip()!r} is not KEY=VALUE with KEY one of "
                             "budget, seconds, operators, climb")
        values[key.strip()] = value.strip()
    where = f"--fixer search:{arg}" if arg else "--hwrepair-search-*"
    try:
        budget, seconds = int(values["budget"]), float(values["seconds"])
        operators = parse_operators(values["operators"].replace("+", ",").split(",")) \
            if values["operators"] else None
    except ValueError as exc:
        raise FixerError(f"{where}: {exc}") from None
    if budget < 1 or seconds <= 0:
        raise FixerError(f"{where}: budget must be at least 1 and seconds above 0 (got {budget}, {seconds:g})")
    climb = values["climb"].lower() not in ("0", "no", "false", "off")
    return SearchOptions(budget, seconds, operators, climb)


class SearchFixer:
    """Generate-and-validate repair with the suite oracle as its only judge."""

    deterministic = False  # seeded: each sample searches in its own order

    def __init__(self, options: SearchOptions, probe: ProbeFactory | None) -> None:
        self.options, self.probe = options, probe
        self.name = "search"
        self.config = options.config()

    def repair(self, task: RepairTask) -> Candidate:
        if self.probe is None:
            raise FixerError("search: the harness gave no suite probe (the search fixer runs under pytest)")
        if not task.source.strip():
            raise FixerUnavailable("search: the task shows no code to edit (input arm 'spec')")
        if task.issue is not None:
            raise FixerUnavailable("search: a repository issue spans many files; the search edits one target file")
        probe = self.probe(task)
        run = SearchRun(task.source, task.target, probe, Budget(self.options.budget, self.options.seconds),
                        task.seed, self.options.operators, self.options.climb)
        try:
            result = run.run()
        except ProbeFailure as exc:
            raise FixerError(f"search: the suite probe could not judge a candidate: {exc}") from None
        log = {"patch": list(result.best.notes), **_metrics(result), "trail": result.trail}
        return Candidate(files={task.target: result.best.text}, raw=summary(result), latency=result.seconds,
                         logs={"search.json": json.dumps(log, indent=1)}, metrics=_metrics(result))


def summary(result: SearchResult) -> str:
    edits = "; ".join(result.best.notes) or "none"
    what = "passes the suite oracle" if result.passed else f"best failing ({result.best.verdict.category.value})"
    return (f"search: {result.evaluated} candidates ({result.syntax_rejected} rejected by the syntax pass, "
            f"{result.full_checks} judged), {result.cpu_seconds:.1f} CPU s, {result.seconds:.1f} s; "
            f"localisation: {result.localisation}; {what}; edits: {edits}")


def _metrics(result: SearchResult) -> dict[str, Any]:
    return {"candidates": result.evaluated, "syntax_rejected": result.syntax_rejected,
            "full_checks": result.full_checks, "cpu_s": round(result.cpu_seconds, 3),
            "wall_s": round(result.seconds, 3), "suite_pass": result.passed, "edits": len(result.best.edits),
            "localisation": result.localisation, "stop": result.stop}


@dataclass(frozen=True)
class Budget:
    candidates: int
    seconds: float


@dataclass
class Tried:  # one evaluated candidate
    text: str
    edits: tuple[Edit, ...]
    verdict: Verdict
    fitness: float
    syntax_only: bool = False
    notes: tuple[str, ...] = ()


@dataclass
class SearchResult:
    best: Tried
    passed: bool
    evaluated: int
    syntax_rejected: int
    full_checks: int
    seconds: float
    cpu_seconds: float
    localisation: str
    trail: list[dict[str, Any]] = field(default_factory=list)
    stop: str = "passed"  # passed, or the budget that ended the search: candidates, cpu, wall, edits (none left)


class ProbeFailure(RuntimeError):
    """The suite probe could not judge a candidate (an infra error): the search stops as a harness error."""


def goal(verdict: Verdict) -> bool:
    """Passes the suite oracle; where the runtime stage cannot run here (no GPU), passes the build."""
    return verdict.passed or (verdict.outcome is Outcome.SKIPPED and verdict.metrics.get("build") == "passed")


def fitness(verdict: Verdict) -> float:
    """How close a verdict is to passing: build < hang < crash < wrong answer < pass, with progress within."""
    if goal(verdict):
        return 10.0
    c = verdict.category
    if c in (Category.TEST_FAIL, Category.EQUIV_FAIL, Category.PERF_FAIL):
        return 5.0 + _progress(verdict)
    if c is Category.RUNTIME_CRASH:
        return 4.0
    if c is Category.TIMEOUT:
        return 3.0
    if c in BUILD_FAILURES:
        errors = len(re.findall(r"\berror\b|%Error", verdict.log_tail, re.IGNORECASE))
        return 1.0 + 1.0 / (1 + errors)
    return 0.0


def _progress(verdict: Verdict) -> float:
    m = re.search(r"(?:token|cycle) (\d+)", verdict.summary)
    return int(m.group(1)) / (int(m.group(1)) + 1000.0) if m else 0.0


def _cpu() -> float:
    """This process's own CPU seconds; the sandboxed steps are the probe's count (children would count twice)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


class SearchRun:
    """The search for one task: `run()` returns the first passing candidate or the best failing one."""

    def __init__(self, source: str, target: str, probe: SuiteProbe, budget: Budget, seed: int,
                 operators: Sequence[Op] | None, climb: bool) -> None:
        self.source, self.target, self.probe, self.budget = source, target, probe, budget
        self.seed, self.operators, self.climb = seed, operators, climb
        self.language = Language(probe.language)
        self.seen: set[str] = set()
        self.evaluated = self.syntax_rejected = self.full_checks = 0
        self.start = time.monotonic()
        self.cpu0 = _cpu() + probe.cpu_seconds
        self.trail: list[dict[str, Any]] = []
        self.localisation = "none"

    def run(self) -> SearchResult:
        with ThreadPoolExecutor(self.probe.jobs, thread_name_prefix="hwrepair-search") as pool:
            self.pool = pool
            self.evaluated += 1
            base = self._evaluate(self.source, (), syntax=False)
            self._log(base, "the buggy program as given")
            best = base
            if not goal(base.verdict):
                best = self._search(base)
        cpu = self.cpu_used()
        stop = "passed" if goal(best.verdict) else (self.stop_reason() or "edits")
        return SearchResult(best, goal(best.verdict), self.evaluated, self.syntax_rejected, self.full_checks,
                            time.monotonic() - self.start, cpu, self.localisation, self.trail, stop)

    def _search(self, base: Tried) -> Tried:
        coverage = self.probe.coverage({self.target: self.source}) if self.language is Language.C else None
        loc = localise(self.source, self.target, base.verdict, coverage)
        self.localisation = loc.method
        found, improved = self._scan(base, self._ranked(base, loc))
        if found is not None or not self.climb:
            return found or self._best(base, improved)
        return self._climb(base, improved, loc)

    def _climb(self, base: Tried, improved: list[Tried], first: Localisation) -> Tried:
        best = self._best(base, improved)
        frontier = sorted(improved, key=lambda t: -t.fitness)[:CLIMB_BASES]
        for _ in range(CLIMB_DEPTH - 1):
            nxt: list[Tried] = []
            for start in frontier:
                if self.stop_reason() is not None:
                    return best
                loc = localise(start.text, self.target, start.verdict, None)
                if loc.method == "uniform":  # no new evidence: keep the first run's coverage
                    loc = first
                found, better = self._scan(start, self._ranked(start, loc, share=len(frontier)))
                if found is not None:
                    return found
                nxt += better
                best = self._best(best, better)
            if not nxt:
                break
            frontier = sorted(nxt, key=lambda t: -t.fitness)[:CLIMB_BASES]
        return best

    @staticmethod
    def _best(base: Tried, others: list[Tried]) -> Tried:
        return max([base, *others], key=lambda t: t.fitness)  # the first of the fittest: base wins ties

    def _ranked(self, base: Tried, loc: Localisation, share: int = 1) -> list[Edit]:
        edits = candidate_edits(base.text, self.language, self.operators)
        broken = base.verdict.category in BUILD_FAILURES
        guided = syntax_edits(base.text, self.language, base.verdict.log_tail + "\n" + base.verdict.summary,
                              self.target) if broken else []
        ranker = Ranker(base.text, self.language, loc, self.seed * 7919 + len(base.edits), broken)
        return ranker.order(edits, 2 * max(1, (self.budget.candidates - self.evaluated) // share), guided)

    def _scan(self, base: Tried, edits: list[Edit]) -> tuple[Tried | None, list[Tried]]:
        """Validate edits in rank order, `jobs` at a time; the first passing one in rank order wins."""
        improved: list[Tried] = []
        queue = list(edits)
        while queue and self.stop_reason() is None:
            room = self.budget.candidates - self.evaluated
            batch: list[tuple[str, Edit]] = []
            while queue and len(batch) < min(self.probe.jobs, room):
                edit = queue.pop(0)
                text = edit.apply(base.text)
                key = patch_sha(text)
                if key in self.seen:
                    continue
                self.seen.add(key)
                batch.append((text, edit))
            self.evaluated += len(batch)
            jobs = [self.pool.submit(self._evaluate, text, (*base.edits, edit), edit.operator in RISKY)
                    for text, edit in batch]
            found: Tried | None = None
            for (_, edit), job in zip(batch, jobs):  # every judged candidate is logged, in rank order
                tried = job.result()
                tried.notes = (*base.notes, edit.describe(base.text))
                self._log(tried, tried.notes[-1])
                if found is None and goal(tried.verdict):
                    found = tried
                elif tried.fitness > base.fitness:
                    improved.append(tried)
            if found is not None:
                return found, improved
        return None, improved

    def stop_reason(self) -> str | None:
        """Out of candidates or CPU seconds (load-independent), or past the wall-clock safety net."""
        if self.evaluated >= self.budget.candidates:
            return "candidates"
        if self.cpu_used() >= self.budget.seconds:
            return "cpu"
        if time.monotonic() - self.start >= WALL_FACTOR * self.budget.seconds:
            return "wall"
        return None

    def cpu_used(self) -> float:
        """CPU seconds of this search: the fixer's process and every sandboxed step of its probe."""
        return _cpu() + self.probe.cpu_seconds - self.cpu0

    def _evaluate(self, text: str, edits: tuple[Edit, ...], syntax: bool) -> Tried:
        """Runs on a pool thread: the syntax-only pass where asked, then the suite oracle."""
        files = {self.target: text}
        if syntax:
            rejected = self.probe.syntax(files)
            if rejected is not None:
                return Tried(text, edits, rejected, fitness(rejected) - 0.5, syntax_only=True)
        verdict = self.probe.check(files)
        if verdict.outcome is Outcome.ERROR:  # the harness failed, not the candidate: never a search result
            raise ProbeFailure(verdict.summary)
        return Tried(text, edits, verdict, 0.0)

    def _log(self, tried: Tried, what: str) -> None:
        if tried.syntax_only:
            self.syntax_rejected += 1
        else:
            self.full_checks += 1
            tried.fitness = fitness(tried.verdict)
        self.trail.append({"edit": what, "depth": len(tried.edits), "category": tried.verdict.category.value,
                           "summary": tried.verdict.summary[:200], "syntax_only": tried.syntax_only,
                           "fitness": round(tried.fitness, 4)})
