"""Per-bug counts of one fixer's samples: what tables, gates and reports are built from."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .metrics import mean_pass_at_k, multiplicity, underconstrained
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


def bug_stats(records: Iterable[SampleRecord]) -> list[BugStats]:
    groups: dict[tuple[str, str, str], list[SampleRecord]] = defaultdict(list)
    for r in finals(records):
        groups[(r.fixer, r.case, r.bug)].append(r)
    out = []
    for (fixer, case, bug), rs in sorted(groups.items()):
        counted = [r for r in rs if r.outcome in COUNTED]
        strong = [r for r in counted if r.strong is not None]
        first = rs[0]
        out.append(BugStats(
            fixer=fixer, label=rs[0].label or fixer, case=case, bug=bug, domain=first.domain, suite=first.suite,
            bug_type=first.bug_type,
            bug_class=first.bug_class, loc=int(first.loc.get("target", 0)), n=len(counted),
            c=sum(r.outcome == Outcome.PASSED for r in counted),
            strong_c=sum(bool(r.strong) and r.outcome == Outcome.PASSED for r in strong), strong_n=len(strong),
            errors=sum(r.outcome == Outcome.ERROR for r in rs), skipped=sum(r.outcome == Outcome.SKIPPED for r in rs),
            mult=multiplicity([r.patch_sha for r in counted]) if counted else None,
            categories=dict(Counter(r.category.value for r in counted)),
            plausible=sum(r.strong is False and r.outcome == Outcome.PASSED for r in counted),
            undecided=sum(r.strong is None and r.outcome == Outcome.PASSED for r in counted),
            has_strong=any(r.strong is not None or bool(r.metrics.get("strong_oracle")) for r in rs),
        ))
    return out


def correct_at_k(stats: Sequence[BugStats], k: int) -> float | None:
    """pass@k over the same bugs counting only samples the strong oracle passed too (a failed or undecided one
    is not correct, so correct@k <= pass@k); n/a when no bug has a strong oracle or pass@k is n/a."""
    scored = [s for s in stats if s.n > 0]
    return mean_pass_at_k([(s.n, s.strong_c) for s in scored], k) if any(s.has_strong for s in scored) else None


__all__ = ["COUNTED", "BugStats", "bug_stats", "correct_at_k", "finals"]
