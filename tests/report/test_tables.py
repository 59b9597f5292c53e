"""Per-bug rows: made without pydantic's validation, they are the rows validation would make."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_hwrepair.report.build import HLS_CLASSES, bug_class, bug_rows
from pytest_hwrepair.report.model import BugRow
from pytest_hwrepair.results.metrics import pass_at_k
from pytest_hwrepair.results.tally import Tally

from ..report_helpers import record

OUTCOMES = ("passed", "failed", "error", "skipped")


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def validated(tally: Tally, ks: Sequence[int]) -> list[BugRow]:
    """The rows as pydantic validates them, each value computed on its own."""
    out = []
    for s in tally.bug_stats():
        t = tally.bugs[(s.fixer, s.case, s.bug)]
        out.append(BugRow(
            fixer=s.fixer, domain=s.domain, suite=s.suite, case=s.case, bug=s.bug, bug_type=s.bug_type,
            bug_class=bug_class(s, HLS_CLASSES), loc=s.loc, n=s.n, c=s.c, correct=s.strong_c,
            plausible=s.plausible, undecided=s.undecided, strong_n=s.strong_n, errors=s.errors, skipped=s.skipped,
            pass_at={str(k): _r(pass_at_k(s.n, s.c, k)) if s.n else None for k in ks},
            correct_at={str(k): _r(pass_at_k(s.n, s.strong_c, k)) if s.n and s.has_strong else None for k in ks},
            strong_oracle=s.has_strong, multiplicity=_r(s.mult), underconstrained=s.under,
            categories=dict(sorted(s.categories.items())), runs=sorted(t.runs)))
    return out


SAMPLE = st.tuples(st.integers(0, 5), st.sampled_from(OUTCOMES), st.sampled_from([True, False, None]),
                   st.sampled_from(["g", "h", None]), st.sampled_from(["a", "b"]))


@settings(max_examples=150, deadline=None)
@given(samples=st.lists(SAMPLE, max_size=40), ks=st.lists(st.integers(1, 6), min_size=1, max_size=3, unique=True))
def test_rows_are_the_validated_rows(samples: list[tuple[int, str, bool | None, str | None, str]],
                                     ks: list[int]) -> None:
    tally = Tally()
    for i, (bug, outcome, strong, sha, fixer) in enumerate(samples):
        tally.add(record(fixer, f"hls/demo/k{bug % 2}", f"{('OOB', 'INIT', 'ZERO')[bug % 3]}-0{bug}", outcome, sha,
                         sample=i, strong=strong if bug != 4 else None, run=f"r{i % 2}", loc={"target": 10 + bug}))
    rows = bug_rows(tally, ks, HLS_CLASSES)
    assert rows == validated(tally, ks)
    for row, made in zip(rows, validated(tally, ks)):  # what pydantic keeps beside the fields, too
        assert (row.model_fields_set, row.__pydantic_extra__, row.__pydantic_private__) == \
            (made.model_fields_set, made.__pydantic_extra__, made.__pydantic_private__)
        assert list(row.__dict__) == list(made.__dict__)
    for row in rows:
        assert BugRow.model_validate(row.model_dump()) == row  # every value has its field's type
        assert BugRow.model_validate_json(row.model_dump_json()) == row


def test_rows_do_not_share_their_mappings() -> None:
    tally = Tally()
    for i in range(4):
        tally.add(record("a", "hls/demo/k", f"OOB-0{i}", "passed", "g", strong=True))
    rows = bug_rows(tally, [1], HLS_CLASSES)
    assert len({id(r.pass_at) for r in rows}) == len(rows)
    assert len({id(r.correct_at) for r in rows}) == len(rows)
