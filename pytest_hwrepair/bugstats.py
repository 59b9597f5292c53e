"""Per-bug counts of one fixer's samples: what tables, gates and reports are built from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .metrics import mean_pass_at_k, underconstrained
from .results import SampleRecord
from .verdict import Outcome

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


def finals(records: Iterable[SampleRecord]) -> list[SampleRecord]:
    return [r for r in records if r.final]


class BugTally:
    """The counts of one bug x fixer, added to one final record at a time (a report streams them)."""

    __slots__ = (
        "c",
        "categories",
        "errors",
        "first",
        "has_strong",
        "n",
        "patches",
        "plausible",
        "runs",
        "skipped",
        "strong_c",
        "strong_n",
        "undecided",
    )

    def __init__(self, first: SampleRecord) -> None:
        self.first = first  # the bug's attributes (label, suite, type, class, loc) come from its first record
        self.n = self.c = self.strong_c = self.strong_n = self.errors = self.skipped = 0
        self.plausible = self.undecided = 0
        self.patches: set[str | None] = set()
        self.categories: Counter[str] = Counter()
        self.has_strong = False
        self.runs: set[str] = set()

    def add(self, r: SampleRecord) -> None:
        self.runs.add(r.run)
        if r.strong is not None or (r.metrics and r.metrics.get("strong_oracle")):
            self.has_strong = True
        outcome = r.outcome
        if outcome is Outcome.ERROR:
            self.errors += 1
            return
        if outcome is Outcome.SKIPPED:
            self.skipped += 1
            return
        self.n += 1
        self.patches.add(r.patch_sha)
        self.categories[r.category.value] += 1
        if r.strong is not None:
            self.strong_n += 1
        if outcome is Outcome.PASSED:
            self.c += 1
            if r.strong is None:
                self.undecided += 1
            elif r.strong:
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

    def stats(self, fixer: str) -> BugStats:
        first = self.first
        return BugStats(
            fixer=fixer, label=first.label or fixer, case=first.case, bug=first.bug, domain=first.domain,
            suite=first.suite, bug_type=first.bug_type, bug_class=first.bug_class,
            loc=int(first.loc.get("target", 0)), n=self.n, c=self.c, strong_c=self.strong_c,
            strong_n=self.strong_n, errors=self.errors, skipped=self.skipped,
            mult=len(self.patches) / self.n if self.n else None, categories=dict(self.categories),
            plausible=self.plausible, undecided=self.undecided, has_strong=self.has_strong)


BugKey = tuple[str, str, str]


def tally_bugs(records: Iterable[SampleRecord]) -> dict[BugKey, BugTally]:
    """Per (fixer, case, bug): the tally of its final records."""
    bugs: dict[BugKey, BugTally] = {}
    for r in records:
        if r.final:
            key = (r.fixer, r.case, r.bug)
            tally = bugs.get(key)
            if tally is None:
                tally = bugs[key] = BugTally(r)
            tally.add(r)
    return bugs


def stats_of(bugs: dict[BugKey, BugTally]) -> list[BugStats]:
    """The bugs' stats in the scoreboard's order (fixer, case, bug)."""
    return [bugs[key].stats(key[0]) for key in sorted(bugs)]


def bug_stats(records: Iterable[SampleRecord]) -> list[BugStats]:
    return stats_of(tally_bugs(records))


def correct_at_k(stats: Sequence[BugStats], k: int) -> float | None:
    """pass@k over the same bugs counting only samples the strong oracle passed too (a failed or undecided one
    is not correct, so correct@k <= pass@k); n/a when no bug has a strong oracle or pass@k is n/a."""
    scored = [s for s in stats if s.n > 0]
    return mean_pass_at_k([(s.n, s.strong_c) for s in scored], k) if any(s.has_strong for s in scored) else None


__all__ = ["COUNTED", "BugKey", "BugStats", "BugTally", "bug_stats", "correct_at_k", "finals", "stats_of", "tally_bugs"]
