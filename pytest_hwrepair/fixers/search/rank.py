"""Where the fault is and the order a search tries edits in.

Fault localisation uses what a developer observes: coverage of the failing run, the failure's log, and for RTL
the backward slice of the output the suite oracle reports as differing. Edits on suspicious lines come first,
likely operators first, ties broken by the seed.
"""

from __future__ import annotations

import bisect
import math
import random
import re
from collections import defaultdict
from dataclasses import dataclass

from ...strength.mutate import Edit, Language, Op, Source
from ...strength.mutate.structure import StmtKind
from ...strength.mutate.tokens import Kind
from ...verdict import Category, Verdict

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
    found: list[int] = []
    for pattern in _LOG_LINE:
        for m in re.finditer(pattern.format(name=name), log):
            line = int(m.group(1))
            if line not in found:
                found.append(line)
    return found


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
    frontier = [output]
    while frontier:
        nxt = []
        for name in frontier:
            for _, uses in defs.get(name, []):
                for used in uses:
                    if used not in distance:
                        distance[used] = distance[name] + 1
                        nxt.append(used)
        frontier = nxt
    weights: dict[int, float] = {}
    for name, d in distance.items():
        for line, _ in defs.get(name, []):
            weights[line] = max(weights.get(line, 0.0), 1.0 / (1 + 0.5 * d))
    for line, w in list(weights.items()):
        for header in _header_lines(src, line):
            weights[header] = max(weights.get(header, 0.0), 0.8 * w)
    return Localisation(weights, COLD, "slice")


def _controls(src: Source, first: int) -> set[str]:
    """Names tested by the `if`/`case` headers shortly before a statement (its control dependences)."""
    names: set[str] = set()
    for a, b in src.headers:
        if a < first and first - b < 40:
            names |= {t.text for t in src.tokens[a:b] if t.kind is Kind.IDENT}
    return names


def _header_lines(src: Source, line: int) -> list[int]:
    return [src.tokens[a].line for a, b in src.headers if 0 < line - src.tokens[b].line < 12]


def localise(text: str, target: str, verdict: Verdict, coverage: dict[int, int] | None) -> Localisation:
    """The best localisation the evidence allows; uniform when there is none."""
    if verdict.category in (Category.COMPILE_FAIL, Category.LINT_FAIL):
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
    """Each distinct edit with how many edits of the same site come before it (operators list their
    likeliest variant first, and candidate_edits keeps that order)."""
    seen: dict[int, int] = {}
    out: list[tuple[Edit, int]] = []
    for e in dict.fromkeys(edits):
        out.append((e, seen.get(e.offset, 0)))
        seen[e.offset] = seen.get(e.offset, 0) + 1
    return out


class Ranker:
    """Scores edits of one text: line weight x operator prior x context x seeded noise."""

    def __init__(self, text: str, language: Language, loc: Localisation, seed: int, build_broken: bool) -> None:
        self.text, self.loc, self.seed, self.build_broken = text, loc, seed, build_broken
        self.src = Source(text, language)
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.by_offset = {t.start: i for i, t in enumerate(self.src.tokens)}

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def order(self, edits: list[Edit], limit: int, preferred: list[Edit] | None = None) -> list[Edit]:
        """The `limit` best edits; `preferred` (log-guided repairs, most specific first) keep their order."""
        rng = random.Random(self.seed)
        rank = {e: n for n, e in enumerate(preferred or [])}
        scored = []
        for e, nth in site_ranks(sorted([*edits, *(preferred or [])], key=lambda e: e.offset)):
            noise = math.exp(NOISE * rng.gauss(0.0, 1.0))
            if e in rank:  # the log rule chose the place: line weights do not apply
                scored.append((-(self.prior(e) * PREFERRED_DECAY ** rank[e]), e))
                continue
            score = self.loc.weight(self.line(e.offset)) * self.prior(e) * DIVERSITY ** nth * noise
            scored.append((-score, e))
        scored.sort(key=lambda s: (s[0], s[1]))
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
        prev, nxt = self.src.tok(i - 1), self.src.tok(i + 1)
        near = {t.text for t in (prev, nxt) if t is not None and t.kind is Kind.PUNCT}
        if near & _SHIFTS:
            return SHIFT_AMOUNT
        if near & _COMPARISONS or self.src.in_header(i):
            return COMPARED
        if not self.src.verilog and self.src.block_of(i) is None:
            return TABLE_DATA  # a literal of a file-scope table or initializer
        return 1.0
