"""`search`: an offline generate-and-validate repair baseline (GenProg / CirFix tradition).

It localises the fault from what a developer observes (coverage, the failure's log, for RTL the backward slice
of the differing output), ranks single edits from the bug taxonomies, validates them with the suite oracle only
(never the case, its golden files or the strong oracle) and stacks improving edits when no single one passes.
The same seed gives the same patch; the budget counts CPU seconds, so load makes a search slower, not different."""

from __future__ import annotations

import bisect
import difflib
import json
import math
import random
import re
import resource
import time
from collections import Counter, defaultdict, deque
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..results.rundir import patch_sha
from ..settings import Settings
from ..strength.mutate import Edit, Language, Op, Source, candidate_edits, parse_operators
from ..strength.mutate.operators import C_TYPE_ALTERNATIVES
from ..strength.mutate.source import C_KEYWORDS, C_TYPES, VERILOG_KEYWORDS, Kind, StmtKind, Token
from ..verdict import Category, Outcome, Verdict
from .base import Candidate, FixerError, FixerUnavailable, ProbeFactory, RepairTask, SuiteProbe

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

    name = "search"
    deterministic = False  # seeded: each sample searches in its own order

    def __init__(self, options: SearchOptions, probe: ProbeFactory | None) -> None:
        self.options, self.probe = options, probe
        self.config = options.config()

    def repair(self, task: RepairTask) -> Candidate:
        if self.probe is None:
            raise FixerError("search: the harness gave no suite probe (the search fixer runs under pytest)")
        if not task.source.strip():
            raise FixerUnavailable("search: the task shows no code to edit (input arm 'spec')")
        if task.issue is not None:
            raise FixerUnavailable("search: a repository issue spans many files; the search edits one target file")
        options = self.options
        run = SearchRun(task.source, task.target, self.probe(task), Budget(options.budget, options.seconds),
                        task.seed, options.operators, options.climb)
        try:
            r = run.run()
        except ProbeFailure as exc:
            raise FixerError(f"search: the suite probe could not judge a candidate: {exc}") from None
        metrics = {"candidates": r.evaluated, "syntax_rejected": r.syntax_rejected, "full_checks": r.full_checks,
                   "cpu_s": round(r.cpu_seconds, 3), "wall_s": round(r.seconds, 3), "suite_pass": r.passed,
                   "edits": len(r.best.edits), "localisation": r.localisation, "stop": r.stop}
        what = "passes the suite oracle" if r.passed else f"best failing ({r.best.verdict.category.value})"
        raw = (f"search: {r.evaluated} candidates ({r.syntax_rejected} rejected by the syntax pass, "
               f"{r.full_checks} judged), {r.cpu_seconds:.1f} CPU s, {r.seconds:.1f} s; "
               f"localisation: {r.localisation}; {what}; edits: {'; '.join(r.best.notes) or 'none'}")
        log = {"patch": list(r.best.notes), **metrics, "trail": r.trail}
        return Candidate(files={task.target: r.best.text}, raw=raw, latency=r.seconds,
                         logs={"search.json": json.dumps(log, indent=1)}, metrics=metrics)


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
        m = re.search(r"(?:token|cycle) (\d+)", verdict.summary)  # how far the run got before it went wrong
        return 5.0 + (int(m.group(1)) / (int(m.group(1)) + 1000.0) if m else 0.0)
    if c in BUILD_FAILURES:
        errors = len(re.findall(r"\berror\b|%Error", verdict.log_tail, re.IGNORECASE))
        return 1.0 + 1.0 / (1 + errors)
    return {Category.RUNTIME_CRASH: 4.0, Category.TIMEOUT: 3.0}.get(c, 0.0)


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
            best = base if goal(base.verdict) else self._search(base)
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


# ---------------------------------------------------------------- localisation and ranking

COLD = 0.05          # weight of a line the failing run never executed (or outside every slice)
NEUTRAL = 0.6        # weight of a line coverage says nothing about (a declaration)
LOG_NEIGHBOURS = (1.0, 0.6, 0.3)
_LOG_LINE = (r"{name}:(\d+)",          # gcc, iverilog, verilator ("file.v:12:5:")
             r"{name}\((\d+)\)")        # nvcc ("solution.cu(22): error")
_OUTPUT = re.compile(r"output (\S+) differs")
NOISE = 0.35          # spread of the seeded perturbation of edit scores (samples differ by seed)
PREFERRED_DECAY = 0.97  # log-guided repairs keep the order the log rules list them in
DIVERSITY = 0.85      # each further edit of the same site weighs this much less: sites before variants
PRIOR = {
    Op.RELATIONAL: 1.0, Op.BOUND: 1.0, Op.RESET: 1.0, Op.ARITHMETIC: 0.9, Op.LOGICAL: 0.9, Op.SHIFT: 0.9,
    Op.INDEX: 0.9, Op.TERNARY: 0.9, Op.BLOCKING: 0.9, Op.SENSITIVITY: 0.9, Op.BIT_INDEX: 0.9,
    Op.TYPE: 1.1, Op.INIT: 1.1,  # few sites each (declarations, accumulators): cheap to try first
    Op.CONSTANT: 0.8, Op.SWAP: 0.7, Op.NEGATE: 0.7, Op.WIDTH: 0.7,
    Op.IDENTIFIER: 0.6, Op.DELETE: 0.4, Op.GUARD: 0.3, Op.SYNTAX: 0.2,
}
# Where the taxonomies put wrong constants: shift amounts (SHFT), loop bounds and limits (MLU, OOB).
SHIFT_AMOUNT, COMPARED, TABLE_DATA = 1.5, 1.2, 0.3
_SHIFTS = frozenset(["<<", ">>", "<<<", ">>>", "<<=", ">>="])
_COMPARISONS = frozenset(["<", "<=", ">", ">=", "==", "!="])


@dataclass(frozen=True)
class Localisation:
    """A suspiciousness weight per line of the target (lines not listed weigh `default`)."""

    weights: dict[int, float]
    default: float
    method: str

    def weight(self, line: int) -> float:
        return self.weights.get(line, self.default)


def log_lines(log: str, target: str) -> list[int]:
    """Line numbers of the target that a compiler or lint log points at, in order of appearance."""
    name = re.escape(target.rsplit("/", 1)[-1])
    return list(dict.fromkeys(int(m.group(1)) for pattern in _LOG_LINE
                              for m in re.finditer(pattern.format(name=name), log)))


def from_log(log: str, target: str) -> Localisation | None:
    lines = log_lines(log, target)
    if not lines:
        return None
    weights: dict[int, float] = {}
    for rank, line in enumerate(lines[:8]):
        scale = 1.0 / (1 + 0.2 * rank)
        for d, w in enumerate(LOG_NEIGHBOURS):
            for at in {line - d, line + d}:
                if at > 0:
                    weights[at] = max(weights.get(at, 0.0), w * scale)
    return Localisation(weights, 0.02, "log")


def from_coverage(counts: dict[int, int], hang: bool) -> Localisation:
    """Executed lines are suspicious, never-executed ones hardly; after a hang, the hottest lines most of all.
    Lines gcov does not count (declarations, braces) stay neutral: widths and missing initialisers live there."""
    top = max(counts.values(), default=0)
    weights: dict[int, float] = {}
    for line, count in counts.items():
        if count <= 0:
            weights[line] = COLD
            continue
        heat = math.log1p(count) / math.log1p(top) if top > 0 else 0.0
        weights[line] = 0.5 + 0.5 * heat if hang else 1.0
    return Localisation(weights, NEUTRAL, "coverage")


def from_slice(text: str, output: str) -> Localisation | None:
    """RTL: lines that assign the differing output or what it depends on, nearer ones heavier."""
    src = Source(text, Language.VERILOG)
    defs: dict[str, list[tuple[int, set[str]]]] = defaultdict(list)
    for stmt in src.statements:
        if stmt.kind not in (StmtKind.EXPR, StmtKind.ASSIGN, StmtKind.DECL):
            continue
        names = [t for t in src.tokens[stmt.first:stmt.last + 1] if t.kind is Kind.IDENT]
        eq = next((k for k in range(stmt.first, stmt.last) if src.tokens[k].text in ("=", "<=")), None)
        if eq is None:
            continue
        lhs = {t.text for t in names if t.start < src.tokens[eq].start}
        uses = {t.text for t in names if t.start > src.tokens[eq].start} | _controls(src, stmt.first)
        for name in lhs:
            defs[name].append((src.tokens[stmt.first].line, uses))
    if output not in defs:
        return None
    distance = {output: 0}
    queue = deque([output])  # breadth first: each name at its shortest distance from the output
    while queue:
        name = queue.popleft()
        for _, uses in defs.get(name, []):
            for used in uses - distance.keys():
                distance[used] = distance[name] + 1
                queue.append(used)
    weights: dict[int, float] = {}
    for name, d in distance.items():
        for line, _ in defs.get(name, []):
            weights[line] = max(weights.get(line, 0.0), 1.0 / (1 + 0.5 * d))
    for line, w in list(weights.items()):  # the `if`/`case` headers shortly above a line that matters
        for header in (src.tokens[a].line for a, b in src.headers if 0 < line - src.tokens[b].line < 12):
            weights[header] = max(weights.get(header, 0.0), 0.8 * w)
    return Localisation(weights, COLD, "slice")


def _controls(src: Source, first: int) -> set[str]:
    """Names tested by the `if`/`case` headers shortly before a statement (its control dependences)."""
    names: set[str] = set()
    for a, b in src.headers:
        if a < first and first - b < 40:
            names |= {t.text for t in src.tokens[a:b] if t.kind is Kind.IDENT}
    return names


def localise(text: str, target: str, verdict: Verdict, coverage: dict[int, int] | None) -> Localisation:
    """The best localisation the evidence allows; uniform when there is none."""
    if verdict.category in BUILD_FAILURES:
        found = from_log(verdict.log_tail + "\n" + verdict.summary, target)
        if found is not None:
            return found
    differs = _OUTPUT.search(verdict.summary)
    output = verdict.metrics.get("output") or (differs.group(1) if differs else None)
    if isinstance(output, str) and target.endswith((".v", ".sv")):
        sliced = from_slice(text, output)
        if sliced is not None:
            return sliced
    if coverage:
        return from_coverage(coverage, verdict.category is Category.TIMEOUT)
    return Localisation({}, 1.0, "uniform")


def site_ranks(edits: list[Edit]) -> list[tuple[Edit, int]]:
    """Each distinct edit with how many edits of its site come before it (likeliest variants come first)."""
    seen: Counter[int] = Counter()
    out: list[tuple[Edit, int]] = []
    for e in dict.fromkeys(edits):
        out.append((e, seen[e.offset]))
        seen[e.offset] += 1
    return out


class Ranker:
    """Scores edits of one text: line weight x operator prior x context x seeded noise."""

    def __init__(self, text: str, language: Language, loc: Localisation, seed: int, build_broken: bool) -> None:
        self.loc, self.seed, self.build_broken = loc, seed, build_broken
        self.src = Source(text, language)
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.by_offset = {t.start: i for i, t in enumerate(self.src.tokens)}

    def order(self, edits: list[Edit], limit: int, preferred: list[Edit] | None = None) -> list[Edit]:
        """The `limit` best edits; `preferred` (log-guided repairs, most specific first) keep their order."""
        rng = random.Random(self.seed)
        rank = {e: n for n, e in enumerate(preferred or [])}
        scored = []
        for e, nth in site_ranks(sorted([*edits, *(preferred or [])], key=lambda e: e.offset)):
            noise = math.exp(NOISE * rng.gauss(0.0, 1.0))
            if e in rank:  # the log rule chose the place: line weights do not apply
                score = self.prior(e) * PREFERRED_DECAY ** rank[e]
            else:
                line = bisect.bisect_right(self.starts, e.offset)
                score = self.loc.weight(line) * self.prior(e) * DIVERSITY ** nth * noise
            scored.append((-score, e))
        scored.sort()
        return [e for _, e in scored[:limit]]

    def prior(self, e: Edit) -> float:
        if self.build_broken:
            return 1.5 if e.operator is Op.SYNTAX else PRIOR.get(e.operator, 0.5) * 0.5
        prior = PRIOR.get(e.operator, 0.5)
        if e.operator is Op.CONSTANT:
            prior *= self.constant_context(e)
        return prior

    def constant_context(self, e: Edit) -> float:
        i = self.by_offset.get(e.offset)
        if i is None:
            return 1.0
        near = {t.text for t in (self.src.tok(i - 1), self.src.tok(i + 1)) if t is not None and t.kind is Kind.PUNCT}
        if near & _SHIFTS:
            return SHIFT_AMOUNT
        if near & _COMPARISONS or self.src.in_header(i):
            return COMPARED
        if not self.src.verilog and self.src.block_of(i) is None:
            return TABLE_DATA  # a literal of a file-scope table or initializer
        return 1.0


# ---------------------------------------------------------------- repairs guided by a compiler or lint log

_QUOTED = re.compile(r"""['"`‘]([A-Za-z_][A-Za-z0-9_$]*)['"’]""")
_NO_SEMI_AFTER = frozenset(["{", "}", ";", "begin", "end", "else", "endcase", "endmodule", ",", "(", "do", ":"])
_END_WORDS = ("end", "endcase", "endmodule")
END_REACH = 8
MAX_NAMES = 5
MAX_CLOSERS = 12


def syntax_edits(text: str, language: Language, log: str, target: str) -> list[Edit]:
    """Edits proposed by the log's complaints, most specific first; empty when the log names no line."""
    src = Source(text, language)
    lines = log_lines(log, target)[:4]
    out: list[Edit] = []
    if language is Language.CUDA:
        out += list(_cuda(src, log, lines))
    out += list(_names(src, log, lines))
    for line in lines:
        out += list(_missing_tokens(src, line))
    if language is Language.VERILOG:
        out += list(_missing_ends(src, lines))
    return list(dict.fromkeys(e for e in out if e.applies_to(text) and e.old != e.new))  # first of each, in order


def _line_tokens(src: Source, line: int) -> list[tuple[int, Token]]:
    return [(i, t) for i, t in enumerate(src.tokens) if t.line == line]


def _missing_tokens(src: Source, line: int) -> Iterator[Edit]:
    """`;` at the end of the line or the one before it; `)` where the line opens more than it closes."""
    for at in (line - 1, line):
        toks = _line_tokens(src, at)
        if toks and toks[-1][1].text not in _NO_SEMI_AFTER:
            yield Edit(toks[-1][1].end, "", ";", Op.SYNTAX)
    toks = _line_tokens(src, line)
    unmatched = [k for k, (i, t) in enumerate(toks) if t.text == "(" and i not in src.match]
    if unmatched:  # a `)` after each token that follows the unclosed `(`, from the end of the line back
        after = [t for _, t in toks[unmatched[-1] + 1:]]
        ends = [t.end for t in after if t.text != ";"]
        for end in reversed(ends[-MAX_CLOSERS:]):
            yield Edit(end, "", ")", Op.SYNTAX)


def _missing_ends(src: Source, lines: list[int]) -> Iterator[Edit]:
    """`end` / `endcase` / `endmodule` inserted at the start of a line shortly before the complaint."""
    starts = [0] + [m.end() for m in re.finditer("\n", src.text)]
    for line in lines[:2]:
        for at in range(line, max(line - END_REACH, 1) - 1, -1):
            if at > len(starts):
                continue
            offset = starts[at - 1]
            indent = re.match(r"[ \t]*", src.text[offset:]).group(0)  # type: ignore[union-attr]
            for word in _END_WORDS[:2]:
                yield Edit(offset, "", f"{indent}{word}\n", Op.SYNTAX)
    text = src.text
    if text.count("endmodule") < len(re.findall(r"\bmodule\b", text)):
        yield Edit(len(text.rstrip()), "", "\nendmodule", Op.SYNTAX)


def _names(src: Source, log: str, lines: list[int]) -> Iterator[Edit]:
    """A name the log quotes, or a near-keyword on a flagged line, replaced by the nearest known word."""
    keywords = VERILOG_KEYWORDS if src.verilog else C_KEYWORDS
    counts = Counter(t.text for t in src.tokens if t.kind in (Kind.IDENT, Kind.KEYWORD))
    quoted = {m.group(1) for m in _QUOTED.finditer(log)}
    flagged = {ln + d for ln in lines for d in (-1, 0, 1)}
    for t in src.tokens:
        if t.kind is not Kind.IDENT or not (t.text in quoted or t.line in flagged):
            continue
        if t.line in flagged and counts[t.text] == 1:
            for word in difflib.get_close_matches(t.text, keywords, n=2, cutoff=0.7):
                yield Edit(t.start, t.text, word, Op.SYNTAX)
        if t.text in quoted:
            pool = [n for n in counts if n != t.text and n not in keywords and n not in C_TYPES]
            for name in difflib.get_close_matches(t.text, pool, n=MAX_NAMES, cutoff=0.3):
                yield Edit(t.start, t.text, name, Op.SYNTAX)
    missing = [q for q in quoted if q not in counts and q not in keywords]
    for name in missing:  # the log expects a name the file lacks (a renamed port): rename the nearest
        for old in difflib.get_close_matches(name, [n for n in counts if n not in keywords], n=2, cutoff=0.3):
            yield _rename(src, old, name)


def _rename(src: Source, old: str, new: str) -> Edit:
    hits = [t for t in src.tokens if t.text == old and t.kind is Kind.IDENT]
    start, end = hits[0].start, hits[-1].end
    body = src.text[start:end]
    replaced = re.sub(rf"(?<![A-Za-z0-9_$]){re.escape(old)}(?![A-Za-z0-9_$])", new, body)
    return Edit(start, body, replaced, Op.SYNTAX)


def _cuda(src: Source, log: str, lines: list[int]) -> Iterator[Edit]:
    """nvcc's complaints mapped to token edits: qualifiers, const, casts, widths, host-only calls."""
    for m in re.finditer(r'calling a (?:constexpr )?__host__ function\("([A-Za-z_]\w*)', log):
        yield from _device_qualifier(src, m.group(1))
    for i, t in enumerate(src.tokens):
        if t.line not in lines:
            continue
        nxt = src.tok(i + 1)
        if t.text == "std" and nxt is not None and nxt.text == "::" and (fn := src.tok(i + 2)) is not None:
            end = i + 2
            after = src.tok(end + 1)
            if after is not None and after.text == "<":
                end = next((k for k in range(end + 1, min(end + 6, len(src.tokens))) if src.tokens[k].text == ">"), end)
            yield Edit(t.start, src.text[t.start:src.tokens[end].end], fn.text, Op.SYNTAX)
    if "cast away const" in log:
        for line in lines:
            yield from _add_const(src, line)
    for m in re.finditer(r'a value of type "[^"]+" cannot be used to initialize an entity of type "([^"]+)"', log):
        for line in lines:
            yield from _wrap_cast(src, line, m.group(1))
    if "expression must have a constant value" in log:
        yield from _constant_names(src, lines)
    for m in re.finditer(r'identifier "([A-Za-z_]\w*)" is undefined in device code', log):
        yield from _constexpr(src, m.group(1))
    if "no instance of overloaded function" in log:
        yield from _widen_declarations(src, lines)


def _device_qualifier(src: Source, name: str) -> Iterator[Edit]:
    for i, t in enumerate(src.tokens):
        nxt = src.tok(i + 1)
        if t.text != name or nxt is None or nxt.text != "(":
            continue
        line = [x for x in src.tokens[:i] if x.line == t.line]
        host = next((x for x in line if x.text == "__host__"), None)
        if host is not None:
            yield Edit(host.start, host.text, "__device__", Op.SYNTAX)
            yield Edit(host.start, host.text, "__host__ __device__", Op.SYNTAX)
        elif line and not any(x.text == "__device__" for x in line):
            yield Edit(line[0].start, "", "__device__ ", Op.SYNTAX)
        return


def _add_const(src: Source, line: int) -> Iterator[Edit]:
    toks = _line_tokens(src, line)
    if not toks:
        return
    start, end = toks[0][1].start, toks[-1][1].end
    body = src.text[start:end]
    made = re.sub(r"(?<!const )\b(float4|float2|float|int|double|half)\s*\*", r"const \1*", body)
    if made != body:
        yield Edit(start, body, made, Op.SYNTAX)


def _wrap_cast(src: Source, line: int, to: str) -> Iterator[Edit]:
    toks = _line_tokens(src, line)
    eq = next((k for k, (_, t) in enumerate(toks) if t.text == "="), None)
    semi = next((k for k, (_, t) in enumerate(toks) if t.text == ";"), None)
    if eq is None or semi is None or semi <= eq + 1:
        return
    a, b = toks[eq + 1][1].start, toks[semi - 1][1].end
    expr = src.text[a:b]
    yield Edit(a, expr, f"reinterpret_cast<{to.replace(' *', '*')}>({expr})", Op.SYNTAX)


def _constant_names(src: Source, lines: list[int]) -> Iterator[Edit]:
    constants = sorted({src.tokens[i + 2].text for i, t in enumerate(src.tokens[:-2])
                        if t.text in ("constexpr", "define") and src.tokens[i + 2].kind is Kind.IDENT}
                       | {src.tokens[i + 1].text for i, t in enumerate(src.tokens[:-1])
                          if t.text == "define" and src.tokens[i + 1].kind is Kind.IDENT})
    for _, t in (x for line in lines for x in _line_tokens(src, line)):
        if t.kind is Kind.IDENT and t.text not in constants:
            for name in constants:
                yield Edit(t.start, t.text, name, Op.SYNTAX)


def _constexpr(src: Source, name: str) -> Iterator[Edit]:
    for i, t in enumerate(src.tokens):
        if t.text == name and i >= 2 and src.tokens[i - 2].text == "const":
            yield Edit(src.tokens[i - 2].start, "const", "constexpr", Op.SYNTAX)
            yield Edit(src.tokens[i - 2].start, "const", "__device__ const", Op.SYNTAX)
            return


def _widen_declarations(src: Source, lines: list[int]) -> Iterator[Edit]:
    used = {t.text for line in lines for _, t in _line_tokens(src, line) if t.kind is Kind.IDENT}
    for i, t in enumerate(src.tokens):
        nxt = src.tok(i + 1)
        if t.text in C_TYPE_ALTERNATIVES and nxt is not None and nxt.text in used:
            for new in C_TYPE_ALTERNATIVES[t.text]:
                yield Edit(t.start, t.text, new, Op.SYNTAX)
