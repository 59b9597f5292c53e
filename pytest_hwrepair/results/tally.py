"""What a summary is computed from, folded in one record at a time: counts, not records (a report reads a
million), except the records of the trajectory sections (iterative runs, repository cases' feedback arm)."""

from __future__ import annotations

import math
import operator
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from itertools import compress
from typing import Any

from ..cases.domains import has
from ..oracles.cuda.tables import COLUMNS, count_build
from ..verdict import Outcome
from .metrics import add_counts, mean, mean_pass_at_k, pass_at_k, underconstrained
from .rundir import SampleRecord

DECIDED = ("passed", "failed")
COUNTED = (Outcome.PASSED, Outcome.FAILED)  # the outcomes pass@k counts; errors and skips stand apart


@dataclass(frozen=True)
class BugStats:
    """Counted samples of one bug for one fixer (errors and skips kept apart)."""

    fixer: str
    label: str
    case: str
    bug: str
    domain: str
    suite: str
    bug_type: str
    bug_class: str | None
    loc: int
    n: int
    c: int
    strong_c: int
    strong_n: int
    errors: int
    skipped: int
    mult: float | None
    categories: dict[str, int]
    plausible: int = 0  # passed, failed the strong oracle
    undecided: int = 0  # passed, no strong verdict
    has_strong: bool = False  # the case declares a strong oracle

    @property
    def under(self) -> bool:
        return underconstrained(self.mult, self.c, self.n)


_STATS_FIELDS = tuple(f.name for f in fields(BugStats))


View = Mapping[str, Any]  # a record's fields by name, enums as their string values (`view_of`)
VIEW_FIELDS = ("run", "key", "case", "bug", "domain", "suite", "bug_type", "fixer", "label", "protocol", "outcome",
               "category", "patch_sha", "loc", "tokens", "cost_usd", "speedup", "strong", "cached", "final",
               "bug_class", "metrics", "iteration", "exec_id")
_VIEW = operator.attrgetter(*VIEW_FIELDS)


def view_of(r: SampleRecord) -> dict[str, Any]:
    """The fields a tally reads, by name, with the enums as their values (what the record's JSON holds)."""
    v = dict(zip(VIEW_FIELDS, _VIEW(r)))
    v["protocol"], v["outcome"], v["category"] = r.protocol.value, r.outcome.value, r.category.value
    return v


class BugTally:
    """The counts of one bug x fixer, added to one final record at a time (a report streams them)."""

    __slots__ = ("c", "categories", "errors", "first", "first_key", "has_strong", "n", "patches", "plausible",
                 "runs", "skipped", "strong_c", "strong_n", "undecided")

    def __init__(self, first: View) -> None:
        self._attributes(first)
        self._zero()

    def _zero(self) -> None:
        self.n = self.c = self.strong_c = self.strong_n = self.errors = self.skipped = 0
        self.plausible = self.undecided = 0
        self.patches: set[str | None] = set()
        self.categories: Counter[str] = Counter()
        self.has_strong = False
        self.runs: set[str] = set()

    def _attributes(self, v: View) -> None:
        # The bug's attributes (label, case, bug, domain, suite, type, class, loc) come from the record with the
        # smallest sample key, so they do not depend on the order records arrive in.
        self.first_key = v["key"]
        self.first = (v["label"], v["case"], v["bug"], v["domain"], v["suite"], v["bug_type"], v["bug_class"],
                      int(v["loc"].get("target", 0)))

    def add(self, v: View) -> None:
        if v["key"] < self.first_key:
            self._attributes(v)
        self.runs.add(v["run"])
        strong = v["strong"]
        if strong is not None or (v["metrics"] and v["metrics"].get("strong_oracle")):
            self.has_strong = True
        outcome = v["outcome"]
        if outcome == "error":
            self.errors += 1
            return
        if outcome == "skipped":
            self.skipped += 1
            return
        self.n += 1
        self.patches.add(v["patch_sha"])
        self.categories[v["category"]] += 1
        if strong is not None:
            self.strong_n += 1
        if outcome == "passed":
            self.c += 1
            if strong is None:
                self.undecided += 1
            elif strong:
                self.strong_c += 1
            else:
                self.plausible += 1

    def absorb(self, other: BugTally) -> None:
        """Add another tally of the same bug (disjoint samples: another run directory's)."""
        for name in ("n", "c", "strong_c", "strong_n", "errors", "skipped", "plausible", "undecided"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.patches |= other.patches
        self.categories.update(other.categories)
        self.has_strong = self.has_strong or other.has_strong
        self.runs |= other.runs
        if other.first_key < self.first_key:
            self.first_key, self.first = other.first_key, other.first

    def copy(self) -> BugTally:
        out = BugTally.__new__(BugTally)
        out.first, out.first_key = self.first, self.first_key
        out._zero()
        out.absorb(self)
        return out

    def stats(self, fixer: str) -> BugStats:
        label, case, bug, domain, suite, bug_type, bug_class, loc = self.first
        # The frozen dataclass's own __init__ sets each field through object.__setattr__: a report makes one per
        # bug (100 000), so its fields are set at once, in their order (tests/test_table_columns.py compares).
        out = object.__new__(BugStats)
        out.__dict__.update(zip(_STATS_FIELDS, (
            fixer, label or fixer, case, bug, domain, suite, bug_type, bug_class, loc, self.n, self.c, self.strong_c,
            self.strong_n, self.errors, self.skipped, len(self.patches) / self.n if self.n else None,
            dict(self.categories), self.plausible, self.undecided, self.has_strong)))
        return out


BugKey = tuple[str, str, str]


def add_to(bugs: dict[BugKey, BugTally], v: View) -> None:
    key = (v["fixer"], v["case"], v["bug"])
    tally = bugs.get(key)
    if tally is None:
        tally = bugs[key] = BugTally(v)
    tally.add(v)


def stats_of(bugs: dict[BugKey, BugTally]) -> list[BugStats]:
    """The bugs' stats in the scoreboard's order (fixer, case, bug)."""
    return [bugs[key].stats(key[0]) for key in sorted(bugs)]


def bug_stats(records: Iterable[SampleRecord]) -> list[BugStats]:
    """Per (fixer, case, bug), in the scoreboard's order: the stats of its final records."""
    bugs: dict[BugKey, BugTally] = {}
    for r in records:
        if r.final:
            add_to(bugs, view_of(r))
    return stats_of(bugs)


class Columns:
    """The per-bug values table rows sum and average, read once from the bugs' stats (a report groups 100 000 bugs
    nine ways); each row is built from a list of indices. `pass_at[k]` / `correct_at[k]`: each bug's pass@k (None
    without a counted sample or with n < k), the correct one counting only samples the strong oracle passed too."""

    INTS = ("n", "c", "strong_c", "plausible", "undecided", "errors", "skipped")

    def __init__(self, stats: Sequence[BugStats], ks: Sequence[int]) -> None:
        self.ints = {name: [getattr(s, name) for s in stats] for name in self.INTS}
        self.has_strong = [s.has_strong for s in stats]
        self.mult = [s.mult for s in stats]
        self.under = [s.under for s in stats]
        self.categories = [s.categories for s in stats]
        n = self.ints["n"]
        self.pass_at = {k: [pass_at_k(a, b, k) if a else None for a, b in zip(n, self.ints["c"])] for k in ks}
        self.correct_at = {k: [pass_at_k(a, b, k) if a else None for a, b in zip(n, self.ints["strong_c"])]
                           for k in ks}
        self._rounded: dict[int, list[float | None]] = {}
        seen: dict[tuple[tuple[str, int], ...], int] = {}
        self._table_of = [seen.setdefault(tuple(table.items()), len(seen)) for table in self.categories]
        self._tables = [dict(items) for items in seen]  # the distinct category tables, each once

    # A report groups 100 000 bugs nine ways: each method takes its values through C-level maps over the indices.

    def scored(self, idx: Sequence[int]) -> list[int]:
        """The bugs among these with a counted sample."""
        return list(compress(idx, map(self.ints["n"].__getitem__, idx)))  # n >= 0: a count

    def sums(self, idx: Sequence[int]) -> dict[str, int]:
        return {name: sum(map(values.__getitem__, idx)) for name, values in self.ints.items()}

    def strong(self, scored: Sequence[int]) -> int:
        return sum(map(self.has_strong.__getitem__, scored))

    def underconstrained(self, scored: Sequence[int]) -> int:
        return sum(map(self.under.__getitem__, scored))

    def mean_mult(self, scored: Sequence[int], digits: int | None = None) -> float | None:
        """Mean multiplicity (each bug's rounded to `digits` first, when given)."""
        if digits is None:
            return mean(map(self.mult.__getitem__, scored))
        rounded = self._rounded.get(digits)
        if rounded is None:  # each bug's value rounded once, not once per grouping it falls in
            rounded = self._rounded[digits] = [None if m is None else round(m, digits) for m in self.mult]
        return mean(map(rounded.__getitem__, scored))

    def counts(self, idx: Sequence[int]) -> dict[str, int]:
        """The categories' counts summed over these bugs (`add_counts` of their tables): each distinct table once,
        times how many of these bugs have it (bugs share a few tables)."""
        tables = self._tables
        return add_counts({name: value * times for name, value in tables[table].items()}
                          for table, times in sorted(Counter(map(self._table_of.__getitem__, idx)).items()))


def pick(values: Sequence[Any], idx: Sequence[int]) -> list[Any]:
    return [values[i] for i in idx]


def correct_at_k(stats: Sequence[BugStats], k: int) -> float | None:
    """pass@k over the same bugs counting only samples the strong oracle passed too (a failed or undecided one
    is not correct, so correct@k <= pass@k); n/a when no bug has a strong oracle or pass@k is n/a."""
    scored = [s for s in stats if s.n > 0]
    return mean_pass_at_k([(s.n, s.strong_c) for s in scored], k) if any(s.has_strong for s in scored) else None


PERF_SWEEP = (0.0, 0.5, 0.7, 0.8, 1.0, 1.2, 1.5, 2.0)
TIER_CELLS = {(True, True): "both_pass", (True, False): "s_pass_f_fail", (False, True): "s_fail_f_pass",
              (False, False): "both_fail"}
TOKENS = ("input", "output", "cache_read", "cache_write")


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

    def absorb(self, other: Tally, prefix: str = "") -> None:
        """Add another tally of disjoint samples (another run directory); `prefix` renames its fixers."""
        bugs = self.bugs
        for (fixer, case, bug), t in other.bugs.items():
            key = (prefix + fixer, case, bug)
            mine = bugs.get(key)
            if mine is None:
                bugs[key] = t.copy()
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
