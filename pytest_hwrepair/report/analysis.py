"""Correlations, class splits, paired fixer tests and run comparisons over per-bug rows."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .load import Run
from .model import BugRow, Comparison, Correlation, Paired, RankAgreement, RunScore, Split
from .stats import TestResult, kendall, mann_whitney, spearman, swing, wilcoxon
from .tables import rounded

POOLED = "(pooled)"
# run.json settings that make two runs different protocols (the axes a comparison names).
AXES = ("protocol", "feedback", "history", "iterations", "perf_gate", "input", "samples", "temperature", "top_p",
        "max_tokens", "seed", "sandbox", "simulator", "prompt", "model", "endpoint")
FIXER_AXES = ("model", "endpoint")  # per fixer, in run.json's fixer_configs


def _p(value: float | None) -> float | None:
    return None if value is None else float(f"{value:.4g}")


def _mean(values: Sequence[float]) -> float | None:
    return rounded(sum(values) / len(values)) if values else None


def _pass1(rows: Sequence[BugRow]) -> list[tuple[BugRow, float]]:
    """(row, pass@1) for every bug with a counted sample."""
    return [(b, b.c / b.n) for b in rows if b.n > 0]


def correlations(rows: Sequence[BugRow]) -> list[Correlation]:
    """Spearman ρ of per-bug pass@1 against multiplicity and against LOC, per fixer and pooled."""
    by_fixer: dict[str, list[BugRow]] = defaultdict(list)
    for b in rows:
        by_fixer[b.fixer].append(b)
    groups = [*sorted(by_fixer.items()), *([(POOLED, list(rows))] if len(by_fixer) > 1 else [])]
    out = []
    for fixer, members in groups:
        points = _pass1(members)
        mult = [(b.multiplicity, p) for b, p in points if b.multiplicity is not None]
        out.append(_correlation(fixer, "multiplicity", [m for m, _ in mult], [p for _, p in mult]))
        out.append(_correlation(fixer, "loc", [float(b.loc) for b, _ in points], [p for _, p in points]))
    return out


def _correlation(fixer: str, x: str, xs: Sequence[float], ys: Sequence[float]) -> Correlation:
    res = spearman(xs, ys, (x, "pass@1"))
    return Correlation(fixer=fixer, x=x, n=res.n, rho=rounded(res.statistic), p=_p(res.p), note=res.note)


def splits(rows: Sequence[BugRow]) -> list[Split]:
    """Mann-Whitney U of per-bug pass@1 between each pair of bug classes, per fixer and domain."""
    groups: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row, p in _pass1(rows):
        groups[(row.fixer, row.domain)][row.bug_class or row.bug_type].append(p)
    out = []
    for (fixer, domain), classes in sorted(groups.items()):
        for a, b in itertools.combinations(sorted(classes), 2):
            res = mann_whitney(classes[a], classes[b])
            out.append(Split(fixer=fixer, domain=domain, a=a, b=b, n_a=len(classes[a]), n_b=len(classes[b]),
                             mean_a=_mean(classes[a]), mean_b=_mean(classes[b]), u=rounded(res.statistic),
                             p=_p(res.p), note=res.note))
    return out


def paired(rows: Sequence[BugRow]) -> list[Paired]:
    """Every pair of fixers on the bugs both scored: wins, losses, ties and the Wilcoxon signed-rank test."""
    scores: dict[str, dict[tuple[str, str], float]] = defaultdict(dict)
    for row, p in _pass1(rows):
        scores[row.fixer][(row.case, row.bug)] = p
    out = []
    for a, b in itertools.combinations(sorted(scores), 2):
        common = sorted(set(scores[a]) & set(scores[b]))
        xa, xb = [scores[a][k] for k in common], [scores[b][k] for k in common]
        res: TestResult = wilcoxon(xa, xb) if common else TestResult(None, None, 0, "no bug scored by both")
        out.append(Paired(a=a, b=b, bugs=len(common), mean_a=_mean(xa), mean_b=_mean(xb),
                          wins_a=sum(x > y for x, y in zip(xa, xb)), wins_b=sum(x < y for x, y in zip(xa, xb)),
                          ties=sum(x == y for x, y in zip(xa, xb)), w=rounded(res.statistic), p=_p(res.p),
                          note=res.note))
    return out


def _setting(info: dict[str, Any], axis: str) -> str:
    if axis in FIXER_AXES:  # each fixer's own, from its recorded configuration
        configs = info.get("fixer_configs") or {}
        values = sorted(f"{label}={c[axis]}" for label, c in configs.items()
                        if isinstance(c, dict) and c.get(axis) is not None)
        return ", ".join(values) or "-"
    value = (info.get("settings") or {}).get(axis)
    return "-" if value is None else str(value)


def differing_axes(runs: Sequence[Run]) -> dict[str, dict[str, str]]:
    """Protocol axes whose run.json values differ between the runs: axis -> run -> value."""
    table = {axis: {run.name: _setting(run.info, axis) for run in runs} for axis in AXES}
    return {axis: values for axis, values in table.items() if len(set(values.values())) > 1}


def _pass1_by_fixer(run: Run) -> dict[str, dict[tuple[str, str], float]]:
    out: dict[str, dict[tuple[str, str], float]] = defaultdict(dict)
    for s in run.scan.tally.bug_stats():
        if s.n > 0:
            out[s.fixer][(s.case, s.bug)] = s.c / s.n
    return out


def compare(runs: Sequence[Run]) -> Comparison | None:
    """Each fixer's pass@1 per run over the bugs all its runs hold, its swing Δ, Kendall τ of rankings."""
    if len(runs) < 2:
        return None
    names = [run.name for run in runs]
    per_run = {run.name: _pass1_by_fixer(run) for run in runs}
    bug_sets = [set().union(*per_run[n].values()) if per_run[n] else set() for n in names]
    common_bugs = set.intersection(*bug_sets)
    scores = []
    for fixer in sorted({f for table in per_run.values() for f in table}):
        holding = [n for n in names if fixer in per_run[n]]
        bugs = set.intersection(*(set(per_run[n][fixer]) for n in holding)) if holding else set()
        values: dict[str, float | None] = {
            n: _mean([per_run[n][fixer][k] for k in sorted(bugs)]) if n in holding and bugs else None for n in names}
        scores.append(RunScore(fixer=fixer, scores=values, swing=rounded(swing(list(values.values())))))
    rankings = [_ranking(a, b, scores) for a, b in itertools.combinations(names, 2)]
    note = None if common_bugs else "the runs share no bug (shards of one run?): their scores are not comparable"
    return Comparison(runs=names, axes=differing_axes(runs), bugs=len(common_bugs), scores=scores,
                      rankings=rankings, note=note)


def _ranking(a: str, b: str, scores: Sequence[RunScore]) -> RankAgreement:
    pairs = [(s.scores[a], s.scores[b]) for s in scores if s.scores[a] is not None and s.scores[b] is not None]
    res = kendall([x for x, _ in pairs if x is not None], [y for _, y in pairs if y is not None],
                  (f"{a}'s scores", f"{b}'s scores"))
    return RankAgreement(a=a, b=b, fixers=len(pairs), tau=rounded(res.statistic), p=_p(res.p), note=res.note)


__all__ = ["AXES", "POOLED", "compare", "correlations", "differing_axes", "paired", "splits"]
