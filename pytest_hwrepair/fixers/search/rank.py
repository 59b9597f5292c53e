"""The order a search tries edits in: suspicious lines first, likely operators first, seeded ties."""

from __future__ import annotations

import bisect
import math
import random
import re

from ...strength.mutate import Edit, Language, Op, Source
from ...strength.mutate.source import Kind
from .localize import Localisation

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
