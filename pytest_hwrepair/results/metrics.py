"""Metric definitions (contract: DESIGN §9). Pure functions over counts."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import cast


@functools.lru_cache(maxsize=1 << 16)  # a million bugs' (n, c) pairs take few distinct values
def pass_at_k(n: int, c: int, k: int) -> float | None:
    """Unbiased pass@k = 1 - C(n-c, k)/C(n, k) (Chen et al. 2021); None when n < k."""
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if n < k:
        return None
    if n - c < k:
        return 1.0
    # Product form: C(n-c, k)/C(n, k) = prod_{i=n-c+1}^{n} (1 - k/i); stable for large n.
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def mean_pass_at_k(counts: Sequence[tuple[int, int]], k: int) -> float | None:
    """Mean over bugs of pass@k; None (n/a) when any bug has n < k or there are no bugs."""
    return mean_of([pass_at_k(n, c, k) for n, c in counts])


def mean_of(per_bug: Sequence[float | None]) -> float | None:
    """Mean over bugs of their pass@k values; None (n/a) when there are none or any bug's is None (n < k)."""
    if not per_bug or None in per_bug:
        return None
    return sum(cast("Sequence[float]", per_bug)) / len(per_bug)


def multiplicity(patches: Sequence[str | None]) -> float | None:
    """Distinct candidates / n (candidates equal after removing whitespace; None counts as one)."""
    if not patches:
        return None
    return len(set(patches)) / len(patches)


def underconstrained(mult: float | None, passes: int, n: int = 2) -> bool:
    """A bug where the fixer scatters (multiplicity >= 0.8) and never passes; needs two samples to say."""
    return n >= 2 and mult is not None and mult >= 0.8 and passes == 0


def mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def category_changes(categories: Sequence[str]) -> int:
    return sum(1 for a, b in zip(categories, categories[1:]) if a != b)


def add_counts(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    """The per-key sums of several count tables (a table row's categories over its bugs)."""
    total: Counter[str] = Counter()
    for table in counts:
        total.update(table)
    return dict(total)
