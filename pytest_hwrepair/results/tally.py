"""What a summary is computed from, gathered one record at a time.

A summary (summary.json, the terminal tables, `hwrepair report`) needs per-bug counts, per-fixer costs
and a few per-fixer counters, never the records themselves. `Tally.add` folds one record into them,
so a report over a million records holds counts, not records. Only the sections that follow one
sample's trajectory (iterative runs, repository cases' feedback arm) keep their records.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace

from ..cases.domains import has
from ..oracles.cuda.tables import COLUMNS, count_build
from .bugstats import BugKey, BugStats, BugTally, View, add_to, stats_of, view_of
from .rundir import SampleRecord

PERF_SWEEP = (0.0, 0.5, 0.7, 0.8, 1.0, 1.2, 1.5, 2.0)
TIER_CELLS = {(True, True): "both_pass", (True, False): "s_pass_f_fail", (False, True): "s_fail_f_pass",
              (False, False): "both_fail"}
TOKENS = ("input", "output", "cache_read", "cache_write")
DECIDED = ("passed", "failed")
_TOKEN_COUNTS = operator.itemgetter(*TOKENS)
_BY_DOMAIN = frozenset({"rtl", "cuda"})  # the domains with tables of their own


class Cost:
    """One fixer's spending: dollars (each sample's, summed once with math.fsum: the correctly rounded sum,
    whatever the records' order), cached answers and tokens."""

    __slots__ = ("cached", "dollars", "tokens")

    def __init__(self) -> None:
        self.dollars = array("d")  # 8 bytes a sample
        self.cached = 0
        self.tokens = dict.fromkeys(TOKENS, 0)

    def add(self, v: View) -> None:
        self.dollars.append(v["cost_usd"])
        if v["cached"]:
            self.cached += 1
        tokens = v["tokens"]
        if tokens:
            mine = self.tokens
            for name, value in tokens.items():
                if name in mine:
                    mine[name] += int(value)

    def absorb(self, other: Cost) -> None:
        self.dollars.extend(other.dollars)
        self.cached += other.cached
        for name in TOKENS:
            self.tokens[name] += other.tokens[name]

    def total(self) -> float:
        return math.fsum(self.dollars)


class Cuda:
    """One fixer's counted cuda samples: correct, timed, slower than the reference, perf-gate sweep."""

    __slots__ = ("categories", "correct", "samples", "slower", "sweep", "timed")

    def __init__(self) -> None:
        self.samples = self.correct = self.timed = self.slower = 0
        self.sweep = dict.fromkeys(PERF_SWEEP, 0)
        self.categories: Counter[str] = Counter()

    def add(self, v: View) -> None:
        self.samples += 1
        self.categories[str(v["metrics"].get("cuda_category", "n/a"))] += 1
        if not (v["outcome"] == "passed" or v["category"] == "perf_fail"):
            return
        self.correct += 1
        if v["speedup"] is None:
            return
        self.timed += 1
        speed = v["speedup"] or 0
        self.slower += speed < 1.0
        for p in PERF_SWEEP:
            self.sweep[p] += speed >= p

    def absorb(self, other: Cuda) -> None:
        for name in ("samples", "correct", "timed", "slower"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for p in PERF_SWEEP:
            self.sweep[p] += other.sweep[p]
        self.categories.update(other.categories)


def keeps(v: View) -> bool:
    """Records the trajectory sections read: iterations of iterative runs, and repository samples."""
    if v["protocol"] == "iterative" and v["iteration"] is not None:
        return True
    return bool(v["metrics"] and v["metrics"].get("repo"))


class Tally:
    """Everything a summary is computed from, for the records added so far."""

    def __init__(self) -> None:
        self.bugs: dict[BugKey, BugTally] = {}  # the tally of each bug x fixer
        self.costs: dict[str, Cost] = {}
        self.tiers: dict[str, Counter[str]] = defaultdict(Counter)
        self.cuda: dict[str, Cuda] = {}
        self.builds: dict[tuple[str, str], dict[str, int]] = {}
        self.retries: Counter[str] = Counter()
        self.protocols: Counter[str] = Counter()
        self.finals = 0
        self.kept: list[SampleRecord] = []
        self._stats: tuple[int, list[BugStats]] | None = None

    @classmethod
    def of(cls, records: Iterable[SampleRecord]) -> Tally:
        tally = cls()
        for r in records:
            tally.add(r)
        return tally

    def add(self, r: SampleRecord) -> None:
        """Fold one record in: an iteration of a trajectory, or a sample's final record."""
        self.fold(view_of(r), r)

    def fold(self, v: View, record: SampleRecord | Callable[[], SampleRecord]) -> None:
        """Fold one record's view in; `record` is the record, or makes it (only kept records are made)."""
        metrics = v["metrics"]
        if metrics and metrics.get("retries"):
            for name, value in metrics["retries"].items():
                self.retries[name] += int(value)
        if keeps(v):
            self.kept.append(record if isinstance(record, SampleRecord) else record())
        if not v["final"]:
            return
        self.finals += 1
        self.protocols[v["protocol"]] += 1
        fixer = v["fixer"]
        add_to(self.bugs, v)
        cost = self.costs.get(fixer)
        if cost is None:
            cost = self.costs[fixer] = Cost()
        cost.add(v)
        self._by_domain(v)

    def _by_domain(self, v: View) -> None:
        """The rtl and cuda tables' counts of one final record."""
        domain, fixer = v["domain"], v["fixer"]
        if has(domain, "tier_tables"):
            if v["strong"] is not None and v["outcome"] in DECIDED:
                self.tiers[fixer][TIER_CELLS[(v["outcome"] == "passed", bool(v["strong"]))]] += 1
        elif has(domain, "build_stage"):
            if v["outcome"] in DECIDED:
                self.cuda.setdefault(fixer, Cuda()).add(v)
            count_build(self.builds.setdefault((fixer, v["suite"]), dict.fromkeys(COLUMNS, 0)), v)

    def absorb(self, other: Tally, prefix: str = "", *, take: bool = False) -> None:
        """Add another tally of disjoint samples (another run directory); `prefix` renames its fixers.

        With `take` the other tally is used up: its bugs' tallies become this one's instead of copies."""
        bugs = self.bugs
        for (fixer, case, bug), t in other.bugs.items():
            key = (prefix + fixer, case, bug)
            mine = bugs.get(key)
            if mine is None:
                bugs[key] = t if take else t.copy()
            else:
                mine.absorb(t)
        for fixer, cost in other.costs.items():
            self.costs.setdefault(prefix + fixer, Cost()).absorb(cost)
        for fixer, cells in other.tiers.items():
            self.tiers[prefix + fixer].update(cells)
        for fixer, cuda in other.cuda.items():
            self.cuda.setdefault(prefix + fixer, Cuda()).absorb(cuda)
        for (fixer, suite), row in other.builds.items():
            mine_row = self.builds.setdefault((prefix + fixer, suite), dict.fromkeys(COLUMNS, 0))
            for column, value in row.items():
                mine_row[column] += value
        self.retries.update(other.retries)
        self.protocols.update(other.protocols)
        self.finals += other.finals
        self.kept += [replace(r, fixer=prefix + r.fixer) for r in other.kept] if prefix else other.kept

    def bug_stats(self) -> list[BugStats]:
        """The bugs' stats in the scoreboard's order (computed once for the records added so far)."""
        if self._stats is None or self._stats[0] != self.finals:
            self._stats = (self.finals, stats_of(self.bugs))
        return self._stats[1]

    @property
    def iterative(self) -> bool:
        return self.protocols.get("iterative", 0) > 0

    @property
    def has_repo(self) -> bool:
        return any(r.final and r.metrics.get("repo") for r in self.kept)


__all__ = ["PERF_SWEEP", "Cost", "Cuda", "Tally", "keeps"]
