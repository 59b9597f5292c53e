"""Statistics for reports (DESIGN §9): bootstrap intervals over bugs, rank correlations, rank tests.

Every function takes plain sequences of numbers and returns a frozen result whose `note` says why a
value is undefined (too few points, constant input) instead of returning NaN.
"""

from __future__ import annotations

import functools
import importlib
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from .model import BOOTSTRAP_RESAMPLES

BOOTSTRAP_SEED = 0
CONFIDENCE = 0.95


@functools.cache
def _scipy_stats() -> ModuleType:
    """scipy.stats, imported by the tests that use it (0.6 s: a report's tables need only numpy)."""
    return importlib.import_module("scipy.stats")


@dataclass(frozen=True, slots=True)
class Interval:
    """A point estimate with its percentile bootstrap interval (None where it cannot be computed)."""

    value: float | None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class TestResult:
    """A statistic, its two-sided p-value and the number of observations it rests on."""

    statistic: float | None
    p: float | None
    n: int
    note: str | None = None


def bootstrap_mean(values: Sequence[float], *, resamples: int = BOOTSTRAP_RESAMPLES,
                   seed: int = BOOTSTRAP_SEED) -> Interval:
    """Mean with a 95 % percentile bootstrap interval, resampling the values (bugs) with replacement.

    A resample of n bugs is n draws with replacement; when the values take few distinct levels (pass@k
    of bugs with equal n takes at most n + 1), it is drawn as multinomial counts of those levels, which
    is the same distribution at a cost that does not grow with the bugs. Otherwise indices are drawn,
    a few resamples at a time, so memory stays bounded."""
    if not values:
        return Interval(None)
    data = np.asarray(values, dtype=float)
    point = float(data.mean())
    if len(data) < 2:
        return Interval(point)
    if np.all(data == data[0]):
        return Interval(point, point, point)
    rng = np.random.default_rng(seed)
    n = len(data)
    levels, counts = np.unique(data, return_counts=True)
    if len(levels) * 8 <= n:
        draws = rng.multinomial(n, counts / n, size=resamples)
        means = draws @ levels / n
    else:
        chunk = max(1, 4_000_000 // n)
        means = np.concatenate([data[rng.integers(0, n, size=(min(chunk, resamples - start), n))].mean(axis=1)
                                for start in range(0, resamples, chunk)])
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return Interval(point, float(low), float(high))


def _undefined(x: Sequence[float], y: Sequence[float], minimum: int, names: tuple[str, str]) -> str | None:
    if len(x) != len(y):
        raise ValueError(f"paired samples differ in length: {len(x)} and {len(y)}")
    if len(x) < minimum:
        return f"needs at least {minimum} points, has {len(x)}"
    if len(set(x)) < 2:
        return f"{names[0]} is constant"
    if len(set(y)) < 2:
        return f"{names[1]} is constant"
    return None


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def _rank_test(name: str, x: Sequence[float], y: Sequence[float], minimum: int,
               names: tuple[str, str]) -> TestResult:
    note = _undefined(x, y, minimum, names)
    if note:
        return TestResult(None, None, len(x), note)
    res = getattr(_scipy_stats(), name)(x, y)
    return TestResult(_finite(res.statistic), _finite(res.pvalue), len(x))


def spearman(x: Sequence[float], y: Sequence[float], names: tuple[str, str] = ("x", "y")) -> TestResult:
    """Spearman's rank correlation ρ (ties get average ranks) with its two-sided p-value."""
    return _rank_test("spearmanr", x, y, 3, names)


def kendall(x: Sequence[float], y: Sequence[float], names: tuple[str, str] = ("x", "y")) -> TestResult:
    """Kendall's τ-b between two scorings of the same items (a ranking agreement), with its p-value."""
    return _rank_test("kendalltau", x, y, 2, names)


def swing(scores: Sequence[float | None]) -> float | None:
    """Swing Δ of one fixer across protocol settings: its best score minus its worst (n/a if any is n/a)."""
    if len(scores) < 2 or any(s is None for s in scores):
        return None
    present = [s for s in scores if s is not None]
    return max(present) - min(present)


def mann_whitney(a: Sequence[float], b: Sequence[float]) -> TestResult:
    """Mann-Whitney U of group a against group b (two-sided); U counts pairs where a ranks above b."""
    if not a or not b:
        return TestResult(None, None, len(a) + len(b), "one group is empty")
    if len(set(a) | set(b)) < 2:
        return TestResult(None, None, len(a) + len(b), "every value is the same")
    res = _scipy_stats().mannwhitneyu(a, b, alternative="two-sided")
    return TestResult(_finite(res.statistic), _finite(res.pvalue), len(a) + len(b))


def wilcoxon(a: Sequence[float], b: Sequence[float]) -> TestResult:
    """Wilcoxon signed-rank test of paired scores (zero differences dropped); W = the smaller rank sum."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    diffs = [x - y for x, y in zip(a, b) if x != y]
    if not diffs:
        return TestResult(None, None, 0, "every pair is equal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns that exact p-values are unavailable with ties
        res = _scipy_stats().wilcoxon(diffs, alternative="two-sided")
    return TestResult(_finite(res.statistic), _finite(res.pvalue), len(diffs))


__all__ = ["Interval", "TestResult", "bootstrap_mean", "kendall", "mann_whitney", "spearman", "swing", "wilcoxon"]
