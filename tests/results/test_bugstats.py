"""Table rows built from per-bug columns equal the definitions computed bug by bug (DESIGN §9).

Reports over many bugs read each bug's values once (`tally.Columns`) and build every grouping from
index lists; these properties restate each row field from its definition and compare, on random bugs.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_hwrepair.controller import grouped as board_grouped
from pytest_hwrepair.controller import table_row as board_row
from pytest_hwrepair.report.build import bootstrap_mean, grouped
from pytest_hwrepair.report.build import table_row as report_row
from pytest_hwrepair.results.metrics import add_counts, mean, mean_pass_at_k, pass_at_k
from pytest_hwrepair.results.tally import BugStats, Columns, correct_at_k

KS = (1, 2, 5)
CATEGORIES = ("pass", "test_fail", "compile_fail", "timeout")


@st.composite
def bug(draw: st.DrawFn, index: int) -> BugStats:
    n = draw(st.integers(0, 7))
    c = draw(st.integers(0, n))
    has_strong = draw(st.booleans())
    strong_c = draw(st.integers(0, c)) if has_strong else 0
    plausible = draw(st.integers(0, c - strong_c)) if has_strong else 0
    split = draw(st.lists(st.sampled_from(CATEGORIES[1:]), min_size=n - c, max_size=n - c))
    categories = dict(add_counts([{"pass": c} if c else {}, *({name: 1} for name in split)]))
    patches = draw(st.integers(1, n)) if n else 0
    return BugStats(
        fixer=draw(st.sampled_from(("a", "b"))), label="", case=f"hls/s/k{index % 3}", bug=f"B-{index}",
        domain=draw(st.sampled_from(("hls", "rtl"))), suite="s", bug_type=draw(st.sampled_from(("SHFT", "OOB"))),
        bug_class=None, loc=draw(st.integers(0, 900)), n=n, c=c, strong_c=strong_c, strong_n=n if has_strong else 0,
        errors=draw(st.integers(0, 2)), skipped=draw(st.integers(0, 1)), mult=patches / n if n else None,
        categories=categories, plausible=plausible, undecided=c - strong_c - plausible if has_strong else c,
        has_strong=has_strong)


bugs = st.integers(0, 12).flatmap(lambda size: st.tuples(*(bug(i) for i in range(size))))


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@settings(max_examples=200, deadline=None)
@given(bugs)
def test_a_summary_row_is_its_definition(stats: tuple[BugStats, ...]) -> None:
    scored = [s for s in stats if s.n > 0]
    samples = sum(s.n for s in stats)
    row = board_row(stats, KS)
    assert row["bugs"] == len(stats) and row["samples"] == samples
    assert row["passed"] == sum(s.c for s in stats) and row["correct"] == sum(s.strong_c for s in stats)
    assert row["plausible"] == sum(s.plausible for s in stats) and row["undecided"] == sum(s.undecided for s in stats)
    assert row["errors"] == sum(s.errors for s in stats) and row["skipped"] == sum(s.skipped for s in stats)
    for k in KS:
        assert row["pass_at"][str(k)] == _round(mean_pass_at_k([(s.n, s.c) for s in scored], k))
        assert row["correct_at"][str(k)] == _round(correct_at_k(stats, k))
    assert row["multiplicity"] == _round(mean(s.mult for s in scored))
    assert row["underconstrained"] == sum(s.under for s in scored)
    total = add_counts(s.categories for s in stats)
    assert row["categories"] == ({c: _round(v / samples) for c, v in sorted(total.items())} if samples else {})


@settings(max_examples=200, deadline=None)
@given(bugs)
def test_a_grouping_from_shared_columns_is_each_group_on_its_own(stats: tuple[BugStats, ...]) -> None:
    cols = Columns(stats, KS)
    shared = board_grouped(stats, ("fixer", "domain"), KS, cols=cols)
    alone = [{"fixer": f, "domain": d, **board_row([s for s in stats if (s.fixer, s.domain) == (f, d)], KS)}
             for f, d in sorted({(s.fixer, s.domain) for s in stats})]
    assert shared == alone


@settings(max_examples=100, deadline=None)
@given(bugs)
def test_a_report_row_is_its_definition(stats: tuple[BugStats, ...]) -> None:
    cols = Columns(stats, KS)
    row = report_row({"fixer": "all"}, cols, list(range(len(stats))), KS, resamples=200)
    scored = [s for s in stats if s.n > 0]
    assert (row.bugs, row.samples, row.passed, row.correct) == (
        len(stats), sum(s.n for s in stats), sum(s.c for s in stats), sum(s.strong_c for s in stats))
    assert row.strong_bugs == sum(1 for s in scored if s.has_strong)
    for k in KS:
        per_bug = [pass_at_k(s.n, s.c, k) for s in scored]
        if not per_bug or None in per_bug:
            assert row.pass_at[str(k)].value is None
        else:
            values = [v for v in per_bug if v is not None]
            interval = bootstrap_mean(values, resamples=200)
            assert row.pass_at[str(k)].value == _round(sum(values) / len(values))
            assert (row.pass_at[str(k)].low, row.pass_at[str(k)].high) == (_round(interval.low), _round(interval.high))
    rounded = [round(s.mult, 4) for s in scored if s.mult is not None]
    assert row.multiplicity == (_round(sum(rounded) / len(rounded)) if rounded else None)
    assert row.categories == dict(sorted(add_counts(s.categories for s in stats).items()))


def test_grouped_report_rows_follow_the_bug_rows_order() -> None:
    # The columns are the stats' and the keys the rows': the same bugs in the same order (bug_rows).
    from pytest_hwrepair.report.build import bug_rows
    from pytest_hwrepair.results.tally import Tally

    from ..report_helpers import record

    tally = Tally.of([record("a", "hls/s/k1", "B-1", "passed"), record("a", "hls/s/k1", "B-2", "failed"),
                      record("b", "hls/s/k2", "B-3", "passed")])
    rows = bug_rows(tally, KS, {})
    table = grouped(rows, ("fixer",), KS, Columns(tally.bug_stats(), KS), resamples=200)
    assert [(r.group["fixer"], r.bugs, r.passed) for r in table] == [("a", 2, 1), ("b", 1, 1)]


@settings(max_examples=200, deadline=None)
@given(bugs, st.data())
def test_the_columns_over_any_subset_are_the_bugs_own_values(stats: tuple[BugStats, ...], data: st.DataObject) -> None:
    # Each bug's categories as it has them, plus tables that name a category with no sample and tables holding the
    # same counts in another order: a row's categories are still those `add_counts` gives.
    tables = [dict(s.categories) for s in stats]
    for i, table in enumerate(tables):
        if i % 3 == 1:
            table["timeout"] = table.get("timeout", 0)
        elif i % 3 == 2:
            tables[i] = dict(reversed(table.items()))
    stats = tuple(BugStats(**{**s.__dict__, "categories": t}) for s, t in zip(stats, tables))
    cols = Columns(stats, KS)
    idx = data.draw(st.lists(st.integers(0, len(stats) - 1), unique=True).map(sorted)) if stats else []
    chosen = [stats[i] for i in idx]
    scored = [i for i in idx if stats[i].n > 0]
    assert cols.scored(idx) == scored
    assert cols.sums(idx) == {name: sum(getattr(s, name) for s in chosen) for name in Columns.INTS}
    assert cols.strong(scored) == sum(1 for i in scored if stats[i].has_strong)
    assert cols.underconstrained(scored) == sum(1 for i in scored if stats[i].under)
    assert cols.counts(idx) == add_counts(s.categories for s in chosen)
    assert cols.mean_mult(scored) == mean(stats[i].mult for i in scored)
    assert cols.mean_mult(scored, digits=4) == mean(None if stats[i].mult is None else round(stats[i].mult, 4)
                                                    for i in scored)


def test_a_tallys_stats_are_the_dataclass_its_fields_make() -> None:
    import dataclasses

    from pytest_hwrepair.results.tally import Tally

    from ..report_helpers import record

    tally = Tally.of([record("a", "hls/s/k1", "B-1", "passed"), record("a", "hls/s/k1", "B-1", "failed"),
                      record("b", "hls/s/k2", "B-3", "error")])
    for made in tally.bug_stats():
        by_init = BugStats(**{f.name: getattr(made, f.name) for f in dataclasses.fields(BugStats)})
        assert made == by_init and repr(made) == repr(by_init)
        assert list(made.__dict__) == list(by_init.__dict__)
        assert dataclasses.asdict(made) == dataclasses.asdict(by_init)


def test_a_summary_from_the_callers_columns_is_the_summary() -> None:
    from pytest_hwrepair.controller import summary_of
    from pytest_hwrepair.results.tally import Tally

    from ..report_helpers import record

    tally = Tally.of([record("a", "hls/s/k1", "B-1", "passed"), record("a", "hls/s/k1", "B-2", "failed"),
                      record("b", "hls/s/k2", "B-3", "passed"), record("b", "hls/s/k2", "B-3", "skipped")])
    cols = Columns(tally.bug_stats(), KS)
    cols.counts(range(3))  # used before, as a report's tables use them before its summary
    assert summary_of(tally, KS, cols) == summary_of(tally, KS)
