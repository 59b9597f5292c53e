"""Fault localisation from what a developer observes: coverage of the failing run, the failure's log,
and for RTL the backward slice of the output the suite oracle reports as differing."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass

from ...strength.mutate import Language, Source
from ...strength.mutate.source import Kind, StmtKind
from ...verdict import Category, Verdict

COLD = 0.05          # weight of a line the failing run never executed (or outside every slice)
NEUTRAL = 0.6        # weight of a line coverage says nothing about (a declaration)
LOG_NEIGHBOURS = (1.0, 0.6, 0.3)
_LOG_LINE = (r"{name}:(\d+)",          # gcc, iverilog, verilator ("file.v:12:5:")
             r"{name}\((\d+)\)")        # nvcc ("solution.cu(22): error")
_OUTPUT = re.compile(r"output (\S+) differs")


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
