"""Per-bug rows and grouped table rows with bootstrap intervals, from sample records.

Counts and definitions come from the scoreboard (`bug_stats`) and metrics (`pass_at_k`,
`mean_pass_at_k`); this module adds what a report needs beyond them: correct@k and plausible counts
next to pass@k, bug classes, and intervals.

correct@k counts a sample when it passed the suite oracle and its record's `strong` is true, over
every counted sample of the bug (a sample that failed the suite oracle is not correct, whether or
not its strong oracle ran, and neither is a pass the strong oracle could not decide); like pass@k it
averages over every bug with a counted sample, so correct@k <= pass@k, and it is n/a where no
bug's case has a strong oracle (`bugstats.correct_at_k`).
"""

from __future__ import annotations

import operator
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import cast

from ..results.bugstats import BugStats, Columns, pick
from ..results.metrics import mean_of, pass_at_k
from ..results.tally import Tally
from .model import BugRow, Estimate, TableRow
from .stats import bootstrap_mean

# The HLS bug types split in two for the syntactic-vs-semantic comparison: a *syntactic* bug is
# repaired by restoring one operator, constant, bound or shift in place; a *semantic* one needs the
# program's dataflow (what is initialised, which value is used when, how wide a value must be, when a
# loop ends). rtl bugs carry their own class (syntactic | behavioural); cuda bugs are split by bucket.
HLS_CLASSES: dict[str, str] = {
    "OOB": "syntactic", "SHFT": "syntactic", "MLU": "syntactic", "ZERO": "syntactic",
    "INIT": "semantic", "USE": "semantic", "BUF": "semantic", "INF": "semantic",
}
Key = tuple[str, str, str]


def bug_class(stats: BugStats, class_map: Mapping[str, str]) -> str:
    """The class a bug is split by: the record's own class, else the type's class, else the type."""
    return stats.bug_class or class_map.get(stats.bug_type) or stats.bug_type


def rounded(value: float | None) -> float | None:
    """The value to 4 decimals, as every report figure is given."""
    return None if value is None else round(value, 4)


_ROW_FIELDS = tuple(BugRow.model_fields)
_set = object.__setattr__


def _row(*values: object) -> BugRow:
    """`BugRow.model_construct` of every field, in the fields' order, at a fifth of its cost (it looks each field
    up, for aliases and defaults, and a report makes 100 000 rows). Every value is computed from a checked tally
    with the field's own type: tests/report/test_tables.py validates rows made this way."""
    row = BugRow.__new__(BugRow)
    _set(row, "__dict__", dict(zip(_ROW_FIELDS, values)))
    _set(row, "__pydantic_fields_set__", set(_ROW_FIELDS))
    _set(row, "__pydantic_extra__", None)
    _set(row, "__pydantic_private__", None)
    return row


def bug_rows(tally: Tally, ks: Sequence[int], class_map: Mapping[str, str]) -> list[BugRow]:
    """One row per bug x fixer, in the scoreboard's order, made without pydantic's validation (`_row`)."""
    rows = []
    at: dict[tuple[int, int], dict[str, float | None]] = {}  # (n, c) -> pass@k by k: bugs share a few
    none = dict.fromkeys(map(str, ks))
    for s in tally.bug_stats():
        t = tally.bugs[(s.fixer, s.case, s.bug)]
        passes = at.get((s.n, s.c))
        if passes is None:
            passes = at[(s.n, s.c)] = {str(k): rounded(pass_at_k(s.n, s.c, k)) for k in ks} if s.n else none
        if s.n and s.has_strong:
            correct = at.get((s.n, s.strong_c))
            if correct is None:
                correct = at[(s.n, s.strong_c)] = {str(k): rounded(pass_at_k(s.n, s.strong_c, k)) for k in ks}
        else:
            correct = none
        rows.append(_row(  # in the order of BugRow's fields
            s.fixer, s.domain, s.suite, s.case, s.bug, s.bug_type, bug_class(s, class_map), s.loc, s.n, s.c,
            s.strong_c, s.plausible, s.undecided, s.strong_n, s.has_strong, s.errors, s.skipped, dict(passes),
            dict(correct), rounded(s.mult), s.under, dict(sorted(s.categories.items())), sorted(t.runs),
        ))
    return rows


def _estimate(per_bug: Sequence[float | None], resamples: int) -> Estimate:
    """The estimate from the bugs' own pass@k values (None: a bug with n < k, which makes the mean n/a)."""
    value = mean_of(per_bug)
    if value is None:
        return Estimate(value=None)
    interval = bootstrap_mean(cast("Sequence[float]", per_bug), resamples=resamples)
    return Estimate(value=rounded(value), low=rounded(interval.low), high=rounded(interval.high))


def table_row(group: dict[str, str], cols: Columns, idx: Sequence[int], ks: Sequence[int], *,
              resamples: int) -> TableRow:
    """The row of the bugs at these indices of the columns."""
    scored = cols.scored(idx)
    strong = cols.strong(scored)
    sums = cols.sums(idx)
    return TableRow(
        group=group, bugs=len(idx), samples=sums["n"], passed=sums["c"], correct=sums["strong_c"],
        plausible=sums["plausible"], undecided=sums["undecided"], strong_bugs=strong, errors=sums["errors"],
        skipped=sums["skipped"],
        pass_at={str(k): _estimate(pick(cols.pass_at[k], scored), resamples) for k in ks},
        correct_at={str(k): _estimate(pick(cols.correct_at[k], scored), resamples) if strong
                    else Estimate(value=None) for k in ks},
        multiplicity=rounded(cols.mean_mult(scored, digits=4)), underconstrained=cols.underconstrained(scored),
        categories=dict(sorted(cols.counts(idx).items())),
    )


def grouped(rows: Sequence[BugRow], keys: Sequence[str], ks: Sequence[int], cols: Columns, *,
            resamples: int) -> list[TableRow]:
    """Table rows grouped by the named BugRow fields, sorted by group; `cols` are the columns of the stats the
    rows were made from (`bug_rows`: the same bugs in the same order)."""
    groups: dict[tuple[str, ...], list[int]] = defaultdict(list)
    # Each row's group, a field at a time (C-level maps over the rows), then one pass to gather the indices.
    for i, key in enumerate(zip(*(map(str, map(operator.attrgetter(k), rows)) for k in keys))):
        groups[key].append(i)
    return [table_row(dict(zip(keys, key)), cols, members, ks, resamples=resamples)
            for key, members in sorted(groups.items())]


__all__ = ["HLS_CLASSES", "bug_class", "bug_rows", "grouped", "rounded", "table_row"]
