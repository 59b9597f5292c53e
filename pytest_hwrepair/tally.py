"""What a summary is computed from, gathered one record at a time.

A summary (summary.json, the terminal tables, `hwrepair report`) needs per-bug counts, per-fixer costs
and a few per-fixer counters, never the records themselves. `Tally.add` folds one record into them,
so a report over a million records holds counts, not records. Only the sections that follow one
sample's trajectory (iterative runs, repository cases' feedback arm) keep their records.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import replace

from .bugstats import COUNTED, BugKey, BugStats, BugTally, stats_of
from .buildstage import COLUMNS, count_build
from .results import SampleRecord
from .verdict import Category, Outcome, RepairProtocol

PERF_SWEEP = (0.0, 0.5, 0.7, 0.8, 1.0, 1.2, 1.5, 2.0)
TIER_CELLS = {(True, True): "both_pass", (True, False): "s_pass_f_fail", (False, True): "s_fail_f_pass",
              (False, False): "both_fail"}
TOKENS = ("input", "output", "cache_read", "cache_write")


def add_exact(partials: list[float], x: float) -> None:
    """Add x to a running sum kept as non-overlapping partials (Shewchuk): math.fsum(partials) is then the
    correctly rounded sum of every value added, whatever their order."""
    i = 0
    for y in partials:
        if abs(x) < abs(y):
            x, y = y, x
        hi = x + y
        lo = y - (hi - x)
        if lo:
            partials[i] = lo
            i += 1
        x = hi
    partials[i:] = [x]


class Cost:
    """One fixer's spending: dollars (an exact running sum), cached answers and tokens."""

    __slots__ = ("cached", "partials", "special", "tokens")

    def __init__(self) -> None:
        self.partials: list[float] = []
        self.special: list[float] = []  # inf and nan do not go in partials; fsum still sees them
        self.cached = 0
        self.tokens = dict.fromkeys(TOKENS, 0)

    def add(self, r: SampleRecord) -> None:
        x = float(r.cost_usd)
        if math.isfinite(x):
            add_exact(self.partials, x)
        else:
            self.special.append(x)
        self.cached += int(r.cached)
        get = r.tokens.get
        for name in TOKENS:
            self.tokens[name] += int(get(name, 0))

    def absorb(self, other: Cost) -> None:
        for x in other.partials:
            add_exact(self.partials, x)
        self.special += other.special
        self.cached += other.cached
        for name in TOKENS:
            self.tokens[name] += other.tokens[name]

    def total(self) -> float:
        return math.fsum(self.partials + self.special)


class Cuda:
    """One fixer's counted cuda samples: correct, timed, slower than the reference, perf-gate sweep."""

    __slots__ = ("categories", "correct", "samples", "slower", "sweep", "timed")

    def __init__(self) -> None:
        self.samples = self.correct = self.timed = self.slower = 0
        self.sweep = dict.fromkeys(PERF_SWEEP, 0)
        self.categories: Counter[str] = Counter()

    def add(self, r: SampleRecord) -> None:
        self.samples += 1
        self.categories[str(r.metrics.get("cuda_category", "n/a"))] += 1
        if not (r.outcome is Outcome.PASSED or r.category is Category.PERF_FAIL):
            return
        self.correct += 1
        if r.speedup is None:
            return
        self.timed += 1
        speed = r.speedup or 0
        self.slower += speed < 1.0
        for p in PERF_SWEEP:
            self.sweep[p] += speed >= p

    def absorb(self, other: Cuda) -> None:
        for name in ("samples", "correct", "timed", "slower"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for p in PERF_SWEEP:
            self.sweep[p] += other.sweep[p]
        self.categories.update(other.categories)


def _kept(r: SampleRecord) -> bool:
    """Records the trajectory sections read: iterations of iterative runs, and repository samples."""
    if r.protocol is RepairProtocol.ITERATIVE and r.iteration is not None:
        return True
    return bool(r.metrics and r.metrics.get("repo"))


class Tally:
    """Everything a summary is computed from, for the records added so far."""

    def __init__(self) -> None:
        self.bugs: dict[BugKey, BugTally] = {}
        self.costs: dict[str, Cost] = {}
        self.tiers: dict[str, Counter[str]] = defaultdict(Counter)
        self.cuda: dict[str, Cuda] = {}
        self.builds: dict[tuple[str, str], dict[str, int]] = {}
        self.retries: Counter[str] = Counter()
        self.protocols: Counter[str] = Counter()
        self.finals = 0
        self.kept: list[SampleRecord] = []

    @classmethod
    def of(cls, records: Iterable[SampleRecord]) -> Tally:
        tally = cls()
        for r in records:
            tally.add(r)
        return tally

    def add(self, r: SampleRecord) -> None:
        """Fold one record in: an iteration of a trajectory, or a sample's final record."""
        if r.metrics:
            for name, value in (r.metrics.get("retries") or {}).items():
                self.retries[name] += int(value)
        if _kept(r):
            self.kept.append(r)
        if not r.final:
            return
        self.finals += 1
        self.protocols[r.protocol.value] += 1
        fixer = r.fixer
        key = (fixer, r.case, r.bug)
        bug = self.bugs.get(key)
        if bug is None:
            bug = self.bugs[key] = BugTally(r)
        bug.add(r)
        cost = self.costs.get(fixer)
        if cost is None:
            cost = self.costs[fixer] = Cost()
        cost.add(r)
        if r.domain == "rtl" and r.strong is not None and r.outcome in COUNTED:
            self.tiers[fixer][TIER_CELLS[(r.outcome is Outcome.PASSED, r.strong)]] += 1
        if r.domain == "cuda":
            if r.outcome in COUNTED:
                self.cuda.setdefault(fixer, Cuda()).add(r)
            count_build(self.builds.setdefault((fixer, r.suite), dict.fromkeys(COLUMNS, 0)), r)

    def absorb(self, other: Tally, prefix: str = "") -> None:
        """Add another tally of disjoint samples (another run directory); `prefix` renames its fixers."""
        def name(fixer: str) -> str:
            return f"{prefix}{fixer}"

        for (fixer, case, bug), t in other.bugs.items():
            key = (name(fixer), case, bug)
            if prefix:
                t = _renamed(t, name(fixer))
            mine = self.bugs.get(key)
            if mine is None:
                mine = self.bugs[key] = BugTally(t.first)
            mine.absorb(t)
        for fixer, cost in other.costs.items():
            self.costs.setdefault(name(fixer), Cost()).absorb(cost)
        for fixer, cells in other.tiers.items():
            self.tiers[name(fixer)].update(cells)
        for fixer, cuda in other.cuda.items():
            self.cuda.setdefault(name(fixer), Cuda()).absorb(cuda)
        for (fixer, suite), row in other.builds.items():
            mine_row = self.builds.setdefault((name(fixer), suite), dict.fromkeys(COLUMNS, 0))
            for column, value in row.items():
                mine_row[column] += value
        self.retries.update(other.retries)
        self.protocols.update(other.protocols)
        self.finals += other.finals
        self.kept += [replace(r, fixer=name(r.fixer)) for r in other.kept] if prefix else other.kept

    def bug_stats(self) -> list[BugStats]:
        return stats_of(self.bugs)

    @property
    def iterative(self) -> bool:
        return self.protocols.get(RepairProtocol.ITERATIVE.value, 0) > 0

    @property
    def has_repo(self) -> bool:
        return any(r.final and r.metrics.get("repo") for r in self.kept)


def _renamed(t: BugTally, fixer: str) -> BugTally:
    out = BugTally(replace(t.first, fixer=fixer))
    out.absorb(t)
    return out


__all__ = ["PERF_SWEEP", "Cost", "Cuda", "Tally", "add_exact"]
