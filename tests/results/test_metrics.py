"""Properties of the metric definitions and of the summary (DESIGN §9)."""

from __future__ import annotations

import json
import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_hwrepair.controller import summarize
from pytest_hwrepair.results.metrics import mean_pass_at_k, multiplicity, pass_at_k, underconstrained
from pytest_hwrepair.results.rundir import SampleRecord

counts = st.integers(min_value=1, max_value=60).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=0, max_value=n)))


@given(counts, st.integers(min_value=1, max_value=60))
def test_pass_at_k_is_a_probability_or_na(nc: tuple[int, int], k: int) -> None:
    n, c = nc
    value = pass_at_k(n, c, k)
    if n < k:
        assert value is None
    else:
        assert value is not None and 0.0 <= value <= 1.0


@given(counts)
def test_pass_at_1_is_the_pass_fraction(nc: tuple[int, int]) -> None:
    n, c = nc
    assert math.isclose(pass_at_k(n, c, 1) or 0.0, c / n, abs_tol=1e-12)


@given(counts, st.integers(min_value=1, max_value=59))
def test_pass_at_k_is_monotone_in_k(nc: tuple[int, int], k: int) -> None:
    n, c = nc
    a, b = pass_at_k(n, c, k), pass_at_k(n, c, k + 1)
    if a is not None and b is not None:
        assert b >= a - 1e-12


@given(counts, st.integers(min_value=1, max_value=60))
def test_pass_at_k_is_monotone_in_c(nc: tuple[int, int], k: int) -> None:
    n, c = nc
    if c < n and n >= k:
        assert (pass_at_k(n, c + 1, k) or 0.0) >= (pass_at_k(n, c, k) or 0.0) - 1e-12


@given(counts, st.integers(min_value=1, max_value=20))
def test_pass_at_k_matches_the_combinatorial_definition(nc: tuple[int, int], k: int) -> None:
    n, c = nc
    if n >= k:
        exact = 1 - math.comb(n - c, k) / math.comb(n, k)
        assert math.isclose(pass_at_k(n, c, k) or 0.0, exact, abs_tol=1e-9)


def test_pass_at_k_is_stable_for_large_n() -> None:
    assert math.isclose(pass_at_k(10_000, 1, 1) or 0.0, 1e-4)
    assert pass_at_k(10_000, 5_000, 100) == 1.0 or (pass_at_k(10_000, 5_000, 100) or 0) > 0.999999


def test_mean_pass_at_k_is_na_when_any_bug_has_too_few_samples() -> None:
    assert mean_pass_at_k([(5, 1), (3, 0)], 5) is None
    assert mean_pass_at_k([(5, 5), (5, 0)], 1) == 0.5


def test_multiplicity_counts_distinct_candidates() -> None:
    assert multiplicity(["a", "a", "b", "c"]) == 0.75
    assert underconstrained(0.8, 0, 5) and not underconstrained(0.8, 1, 5) and not underconstrained(1.0, 0, 1)


outcomes = st.sampled_from(["passed", "failed", "failed", "error", "skipped"])


@st.composite
def records(draw: st.DrawFn) -> list[SampleRecord]:
    out = []
    for i in range(draw(st.integers(min_value=1, max_value=40))):
        outcome = draw(outcomes)
        domain = draw(st.sampled_from(["hls", "rtl"]))
        bug_type = draw(st.sampled_from(["OOB", "SHFT"]))
        out.append(SampleRecord(
            run="r", key=f"k{i}", case=f"{domain}/s/c{draw(st.integers(0, 2))}",
            bug=f"{bug_type}-0{draw(st.integers(1, 3))}", domain=domain, suite="s", bug_type=bug_type,
            fixer=draw(st.sampled_from(["a", "b"])), protocol="repeated", sample=i, iteration=None,
            outcome=outcome, category={"passed": "pass", "failed": "test_fail", "error": "infra_error",
                                       "skipped": "skipped"}[outcome],
            patch_sha=draw(st.sampled_from(["x", "y", "z"])), strong=draw(st.sampled_from([None, True, False])),
            cost_usd=draw(st.floats(0, 1, allow_nan=False)), bug_class="behavioural"))
    return out


@settings(max_examples=40, deadline=None)
@given(records(), st.randoms())
def test_summary_is_invariant_under_permutation(rs: list[SampleRecord], rnd: random.Random) -> None:
    shuffled = list(rs)
    rnd.shuffle(shuffled)
    assert json.dumps(summarize(rs, [1, 2]), sort_keys=True) == json.dumps(summarize(shuffled, [1, 2]), sort_keys=True)


@settings(max_examples=40, deadline=None)
@given(records())
def test_errors_and_skips_never_enter_the_denominator(rs: list[SampleRecord]) -> None:
    summary = summarize(rs, [1])
    for row in summary["fixers"]:
        counted = [r for r in rs if r.fixer == row["fixer"] and r.outcome in ("passed", "failed")]
        assert row["samples"] == len(counted)
        assert row["errors"] == sum(r.outcome == "error" for r in rs if r.fixer == row["fixer"])


@settings(max_examples=30, deadline=None)
@given(records())
def test_record_json_round_trips(rs: list[SampleRecord]) -> None:
    for r in rs:
        assert SampleRecord.from_json(json.loads(json.dumps(r.to_json()))) == r
