"""Each report statistic against a value computed by hand, on planted numbers and planted run directories."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest

from pytest_hwrepair.report.build import (
    Interval,
    bootstrap_mean,
    build_report,
    kendall,
    mann_whitney,
    spearman,
    swing,
    wilcoxon,
)
from pytest_hwrepair.report.load import load_runs, merge
from pytest_hwrepair.report.model import Report

from ..report_helpers import bug_samples, five_bugs, fixer_b, plant


def test_spearman_rho_matches_the_rank_difference_formula() -> None:
    # ranks differ by d = (-1, 1, -1, 1, 0): rho = 1 - 6 * 4 / (5 * 24) = 0.8
    res = spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])
    assert res.statistic == pytest.approx(0.8)
    t = 0.8 * math.sqrt(3 / (1 - 0.64))  # the p-value of rho through Student's t with n - 2 = 3 degrees
    assert res.p == pytest.approx(2 * (1 - _t3_cdf(t)), rel=1e-6)


def _t3_cdf(t: float) -> float:
    """CDF of Student's t with 3 degrees of freedom, in closed form."""
    x = t / math.sqrt(3)
    return 0.5 + (math.atan(x) + x / (1 + x * x)) / math.pi


def test_spearman_of_a_constant_variable_says_why_it_is_undefined() -> None:
    res = spearman([1, 2, 3], [0.5, 0.5, 0.5], ("loc", "pass@1"))
    assert res.statistic is None and res.note == "pass@1 is constant"
    assert spearman([1, 2], [1, 2]).note == "needs at least 3 points, has 2"


def test_kendall_tau_counts_concordant_minus_discordant_pairs() -> None:
    # rankings 1 2 3 4 and 1 3 2 4: 5 concordant pairs, 1 discordant -> tau = 4 / 6
    assert kendall([1, 2, 3, 4], [1, 3, 2, 4]).statistic == pytest.approx(2 / 3)
    assert kendall([1, 2, 3], [3, 2, 1]).statistic == pytest.approx(-1.0)


def test_swing_is_best_minus_worst_and_na_when_a_score_is_missing() -> None:
    assert swing([0.2, 0.5, 0.35]) == pytest.approx(0.3)
    assert swing([0.2, None]) is None
    assert swing([0.4]) is None


def test_mann_whitney_u_and_exact_p() -> None:
    # every value of a is below every value of b: U = 0; exact two-sided p = 2 / C(6, 3) = 0.1
    res = mann_whitney([1, 2, 3], [4, 5, 6])
    assert res.statistic == 0 and res.p == pytest.approx(0.1)
    assert mann_whitney([1, 1], [1]).note == "every value is the same"


def test_wilcoxon_signed_rank_w_and_exact_p() -> None:
    # differences 1..5 all positive: W- = 0; exact two-sided p = 2 / 2^5 = 0.0625
    res = wilcoxon([1, 2, 3, 4, 5], [0, 0, 0, 0, 0])
    assert res.statistic == 0 and res.p == pytest.approx(0.0625)
    assert wilcoxon([1, 2], [1, 2]).note == "every pair is equal"


def test_bootstrap_interval_contains_the_mean_and_shrinks_with_more_bugs() -> None:
    small, large = bootstrap_mean([0, 1, 1, 0, 1] * 2), bootstrap_mean([0, 1, 1, 0, 1] * 20)
    for interval in (small, large):
        assert interval.value == pytest.approx(0.6)
        assert interval.low is not None and interval.high is not None
        assert interval.low <= 0.6 <= interval.high
    assert large.high - large.low < (small.high - small.low) / 2  # type: ignore[operator]
    assert bootstrap_mean([0.4]).low is None  # one bug: nothing to resample
    assert bootstrap_mean([0.5, 0.5]) == Interval(0.5, 0.5, 0.5)  # no spread, no width


def test_bootstrap_is_reproducible() -> None:
    assert bootstrap_mean([0.1, 0.9, 0.3, 0.7]) == bootstrap_mean([0.1, 0.9, 0.3, 0.7])


@pytest.fixture
def two_fixers(tmp_path: Path) -> Report:
    plant(tmp_path / "run", five_bugs("a") + fixer_b())
    return build_report(merge(load_runs([tmp_path / "run"])), [1, 5], resamples=500)


def _corr(report: Report, fixer: str, x: str) -> tuple[float | None, int]:
    found = next(c for c in report.correlations if c.fixer == fixer and c.x == x)
    return found.rho, found.n


def test_report_spearman_of_pass1_against_multiplicity_and_loc(two_fixers: Report) -> None:
    # pass@1 1.0 .6 .8 .2 0 (ranks 5 3 4 2 1) against multiplicity .2 .4 .6 .8 1 (ranks 1..5):
    # d^2 = 16 + 1 + 1 + 4 + 16 = 38, rho = 1 - 6 * 38 / 120 = -0.9
    assert _corr(two_fixers, "a", "multiplicity") == (pytest.approx(-0.9), 5)
    # against LOC 50 10 40 20 30 (ranks 5 1 4 2 3): d^2 = 0 + 4 + 0 + 0 + 4 = 8, rho = 1 - 48 / 120 = 0.6
    assert _corr(two_fixers, "a", "loc") == (pytest.approx(0.6), 5)
    assert _corr(two_fixers, "(pooled)", "loc")[1] == 10


def test_report_correct_and_plausible_counts_next_to_pass(two_fixers: Report) -> None:
    first = next(b for b in two_fixers.bugs if b.fixer == "a" and b.bug == "OOB-01")
    assert (first.c, first.correct, first.plausible, first.undecided) == (5, 3, 1, 1)
    assert first.correct_at["1"] == pytest.approx(0.6)  # 3 of 5 samples are correct
    row = next(r for r in two_fixers.tables.fixers if r.group == {"fixer": "a"})
    # correct@1 averages over the same five bugs as pass@1: the four without a strong oracle have no correct sample.
    assert row.strong_bugs == 1 and row.correct_at["1"].value == pytest.approx(0.6 / 5)
    assert row.pass_at["1"].value == pytest.approx((1.0 + 0.6 + 0.8 + 0.2 + 0.0) / 5)
    e = row.pass_at["1"]
    assert e.low is not None and e.high is not None and e.low <= e.value <= e.high  # type: ignore[operator]
    assert row.pass_at["5"].value == pytest.approx(0.8)  # four of five bugs have a passing sample


def test_report_class_split_is_mann_whitney_u(two_fixers: Report) -> None:
    # semantic (INIT .8, USE .2, BUF 0) against syntactic (OOB 1, SHFT .6): one pair (0.8 > 0.6) ranks above,
    # U = 1; exact two-sided p = 2 * P(U <= 1) = 2 * 2 / C(5, 2) = 0.4
    split = next(s for s in two_fixers.splits if s.fixer == "a")
    assert (split.a, split.b, split.n_a, split.n_b) == ("semantic", "syntactic", 3, 2)
    assert split.u == 1 and split.p == pytest.approx(0.4)


def test_report_paired_test_between_two_fixers(two_fixers: Report) -> None:
    # a - b per bug: 1.0, 0.2, 0.6, -0.4, 0 -> ranks of |d| 4, 1, 3, 2; W- = 2; exact p = 2 * 3 / 16 = 0.375
    pair = two_fixers.paired[0]
    assert (pair.a, pair.b, pair.bugs, pair.wins_a, pair.wins_b, pair.ties) == ("a", "b", 5, 3, 1, 1)
    assert pair.w == 2 and pair.p == pytest.approx(0.375)


def _runs_with_scores(root: Path, scores: dict[str, int], feedback: str) -> Path:
    records = []
    for fixer, passes in scores.items():
        records += bug_samples(fixer, "OOB-01", " ".join(["Pg"] * passes + ["Fa"] * (10 - passes)))
    return plant(root, records, {"feedback": feedback})


def test_comparison_kendall_tau_and_swing_across_protocol_settings(tmp_path: Path) -> None:
    one = _runs_with_scores(tmp_path / "L0", {"f1": 8, "f2": 4, "f3": 6}, "L0")
    two = _runs_with_scores(tmp_path / "L3", {"f1": 5, "f2": 3, "f3": 10}, "L3")
    cmp = build_report(merge(load_runs([one, two])), [1], resamples=200).comparison
    assert cmp is not None and cmp.axes == {"feedback": {"L0": "L0", "L3": "L3"}}
    assert {s.fixer: s.swing for s in cmp.scores} == {"f1": pytest.approx(0.3), "f2": pytest.approx(0.1),
                                                      "f3": pytest.approx(0.4)}
    # rankings f1 > f3 > f2 and f3 > f1 > f2: pairs (f1,f2) and (f2,f3) agree, (f1,f3) not: tau = 1/3
    assert cmp.rankings[0].tau == pytest.approx(1 / 3, abs=1e-4) and cmp.rankings[0].fixers == 3


def test_runs_sharing_no_bug_are_not_compared(tmp_path: Path) -> None:
    one = plant(tmp_path / "s1", bug_samples("f", "OOB-01", "Pg Fa"))
    two = plant(tmp_path / "s2", bug_samples("f", "SHFT-01", "Pg Pg"))
    cmp = build_report(merge(load_runs([one, two])), [1], resamples=200).comparison
    assert cmp is not None and cmp.bugs == 0 and cmp.note is not None and "share no bug" in cmp.note
    assert cmp.scores[0].swing is None


def test_correct_at_k_counts_samples_the_strong_oracle_never_saw(tmp_path: Path) -> None:
    # Two passes confirmed by the strong oracle, one plausible pass, two compile failures (no strong verdict):
    # correct@1 = 2/5, never above pass@1 = 3/5, in the report and in the scoreboard summary alike.
    samples = bug_samples("a", "OOB-01", "Pg Pg Ph Fa Fb", strong=[True, True, False, None, None])
    samples = [s if s.outcome == "passed" else dataclasses.replace(s, category="compile_fail") for s in samples]
    report = build_report(merge(load_runs([plant(tmp_path / "run", samples)])), [1], resamples=200)
    row = report.tables.fixers[0]
    assert (row.passed, row.correct, row.plausible) == (3, 2, 1)
    assert row.correct_at["1"].value == pytest.approx(0.4) and row.pass_at["1"].value == pytest.approx(0.6)
    assert report.summary["fixers"][0]["correct_at"]["1"] == pytest.approx(0.4)


def test_model_and_endpoint_are_comparison_axes(tmp_path: Path) -> None:
    runs = []
    for name, model, endpoint in (("A", "gpt-4.1", "http://127.0.0.1:1/v1"),
                                  ("B", "gpt-4.1-mini", "http://127.0.0.1:2/v1")):
        run = _runs_with_scores(tmp_path / name, {"openai": 5}, "L0")
        info = json.loads((run / "run.json").read_text())
        info["fixer_configs"] = {"openai": {"name": "openai", "model": model, "endpoint": endpoint}}
        (run / "run.json").write_text(json.dumps(info))
        runs.append(run)
    cmp = build_report(merge(load_runs(runs)), [1], resamples=200).comparison
    assert cmp is not None and cmp.axes == {
        "model": {"A": "openai=gpt-4.1", "B": "openai=gpt-4.1-mini"},
        "endpoint": {"A": "openai=http://127.0.0.1:1/v1", "B": "openai=http://127.0.0.1:2/v1"}}
