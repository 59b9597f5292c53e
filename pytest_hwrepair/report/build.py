"""The report model from merged runs: per-bug rows, grouped rows with bootstrap intervals, the statistics
(correlations, class splits, paired fixer tests, run comparisons) and the evaluation cards.

correct@k counts a sample that passed the suite oracle and whose record's `strong` is true, over every counted
sample of the bug, so correct@k <= pass@k; it is n/a where no bug's case has a strong oracle. An undefined
statistic (too few points, constant input) is null with a `note` saying why, never NaN (DESIGN §9).
"""

from __future__ import annotations

import functools
import importlib
import itertools
import math
import operator
import warnings
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, cast
from urllib.parse import urlsplit

import numpy as np

from ..controller import summary_of
from ..results.metrics import mean_of, pass_at_k
from ..results.tally import BugStats, Columns, Tally, pick
from .load import Merged, Run
from .model import (
    BOOTSTRAP_RESAMPLES,
    TABLE_KEYS,
    BugRow,
    Card,
    Comparison,
    Correlation,
    Estimate,
    Merge,
    Paired,
    RankAgreement,
    Report,
    RunScore,
    Split,
    TableRow,
    Tables,
)

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

    Values of few distinct levels (pass@k of bugs with equal n) are drawn as multinomial counts of the levels:
    the same distribution at a cost that does not grow with the bugs. Otherwise indices are drawn, a few
    resamples at a time, so memory stays bounded."""
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
    for name, values in zip(names, (x, y)):
        if len(set(values)) < 2:
            return f"{name} is constant"
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
    present = [s for s in scores if s is not None]
    return max(present) - min(present) if len(present) == len(scores) >= 2 else None


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


# The HLS bug types split for the syntactic-vs-semantic comparison: a *syntactic* bug is repaired by restoring
# one operator, constant, bound or shift in place; a *semantic* one needs the program's dataflow (what is
# initialised, which value is used when, how wide, when a loop ends). rtl bugs carry their own class; cuda: bucket.
HLS_CLASSES: dict[str, str] = {
    "OOB": "syntactic", "SHFT": "syntactic", "MLU": "syntactic", "ZERO": "syntactic",
    "INIT": "semantic", "USE": "semantic", "BUF": "semantic", "INF": "semantic",
}


def bug_class(stats: BugStats, class_map: Mapping[str, str]) -> str:
    """The class a bug is split by: the record's own class, else the type's class, else the type."""
    return stats.bug_class or class_map.get(stats.bug_type) or stats.bug_type


def rounded(value: float | None) -> float | None:
    """The value to 4 decimals, as every report figure is given."""
    return None if value is None else round(value, 4)


_ROW_FIELDS = tuple(BugRow.model_fields)
_set = object.__setattr__


def _row(*values: object) -> BugRow:
    """`BugRow.model_construct` of every field in order, at a fifth of its cost (a report makes 100 000 rows);
    the values come from a checked tally with the fields' types (tests/report/test_tables.py validates them)."""
    row = BugRow.__new__(BugRow)
    _set(row, "__dict__", dict(zip(_ROW_FIELDS, values)))
    _set(row, "__pydantic_fields_set__", set(_ROW_FIELDS))
    _set(row, "__pydantic_extra__", None)
    _set(row, "__pydantic_private__", None)
    return row


def bug_rows(tally: Tally, ks: Sequence[int], class_map: Mapping[str, str]) -> list[BugRow]:
    """One row per bug x fixer, in the scoreboard's order, made without pydantic's validation (`_row`)."""
    none = dict.fromkeys(map(str, ks))

    @functools.cache  # bugs share a few (n, c)
    def at(n: int, c: int) -> dict[str, float | None]:
        return {str(k): rounded(pass_at_k(n, c, k)) for k in ks}

    rows = []
    for s in tally.bug_stats():
        t = tally.bugs[(s.fixer, s.case, s.bug)]
        passes = at(s.n, s.c) if s.n else none
        correct = at(s.n, s.strong_c) if s.n and s.has_strong else none
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
    """Table rows grouped by the named BugRow fields; `cols` hold the same bugs in the same order as `rows`."""
    groups: dict[tuple[str, ...], list[int]] = defaultdict(list)
    # Each row's group, a field at a time (C-level maps over the rows), then one pass to gather the indices.
    for i, key in enumerate(zip(*(map(str, map(operator.attrgetter(k), rows)) for k in keys))):
        groups[key].append(i)
    return [table_row(dict(zip(keys, key)), cols, members, ks, resamples=resamples)
            for key, members in sorted(groups.items())]


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
        return ", ".join(sorted(f"{label}={c[axis]}" for label, c in configs.items()
                                if isinstance(c, dict) and c.get(axis) is not None)) or "-"
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
    bug_sets = [set().union(*per_run[n].values()) for n in names]
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


UNKNOWN = "unknown (not in run.json)"


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "-"
    return str(value)


def _endpoint(url: Any) -> str:
    """The base URL without user info, query or fragment (a URL may carry credentials)."""
    if not url:
        return "-"
    parts = urlsplit(str(url))
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme else "-"


def _observed(run: Run) -> tuple[str, str]:
    """Protocols and samples per bug seen in the records (what `auto` and defaults became)."""
    per_bug = sorted({s.n + s.errors + s.skipped for s in run.scan.tally.bug_stats()})
    shown = "-" if not per_bug else str(per_bug[0]) if len(per_bug) == 1 else f"{per_bug[0]}-{per_bug[-1]}"
    return ", ".join(sorted(run.scan.tally.protocols)) or "-", shown


def card(run: Run) -> Card:
    """The card of one run; fields run.json lacks say so."""
    info = run.info
    s: dict[str, Any] = info.get("settings") or {}
    protocols, per_bug = _observed(run)
    notes = [] if info else ["run.json is missing: the protocol stack of these samples is unknown"]
    versions = info.get("versions") or {}
    return Card(
        run=run.name, path=str(run.path),
        fixers={str(k): str(v) for k, v in (info.get("fixers") or {}).items()} or {"-": UNKNOWN},
        protocol=f"{_text(s.get('protocol', UNKNOWN))} (samples show: {protocols})",
        samples=f"{_text(s.get('samples')) if s.get('samples') is not None else 'default'} "
                f"(samples per bug: {per_bug})" if s else UNKNOWN,
        sampling={**{name: _text(s.get(name)) for name in ("temperature", "top_p", "max_tokens", "seed",
                                                           "claude_model", "openai_model")},
                  "endpoint": _endpoint(s.get("base_url")), "prompt": _text(s.get("prompt")), "k": _text(s.get("k"))},
        iterative={"K (iterations)": _text(s.get("iterations")), "H (history)": _text(s.get("history")),
                   "feedback": _text(s.get("feedback"))},
        input_arm=_text(s.get("input", UNKNOWN)),
        perf_gate=_text(s.get("perf_gate")) if s else UNKNOWN,
        corpus={"case_set": _text(info.get("case_set", UNKNOWN)), "cases": _text(info.get("cases", UNKNOWN))},
        versions={str(k): str(v) for k, v in sorted(versions.items())},
        sandbox={"sandbox": _text(s.get("sandbox", UNKNOWN)), "isolation": _text(s.get("isolation")),
                 "simulator": _text(s.get("simulator")), "timing_runs": _text(s.get("timing_runs"))},
        started=_text(info.get("start")), ended=_text(info.get("end")), notes=notes,
    )


def parse_class_map(pairs: Sequence[str]) -> dict[str, str]:
    """`TYPE=CLASS` overrides on top of the built-in HLS split; raises ValueError naming what is allowed."""
    out = dict(HLS_CLASSES)
    for pair in pairs:
        bug_type, sep, cls = pair.partition("=")
        if not sep or not bug_type.strip() or not cls.strip():
            raise ValueError(f"--bug-class: {pair!r} is not TYPE=CLASS, e.g. 'INF=semantic'")
        out[bug_type.strip()] = cls.strip()
    return out


def _notes(merged: Merged, by_run: bool, class_map: Mapping[str, str]) -> list[str]:
    notes = list(merged.notes)
    axes = differing_axes(merged.runs)
    if axes and not by_run:
        notes.append(f"the runs differ in {', '.join(sorted(axes))}: the tables pool them; --by-run keeps them "
                     "apart, and the comparison section sets them side by side")
    split = sorted(f"{t}={c}" for t, c in class_map.items())
    notes.append("bug classes for the hls split: " + ", ".join(split) + " (rtl bugs carry their own class)")
    notes.append("intervals: 95 % percentile bootstrap over bugs; correlations: Spearman rho of per-bug pass@1; "
                 "class splits: Mann-Whitney U; fixer pairs: Wilcoxon signed-rank on per-bug pass@1")
    return notes


def build_report(merged: Merged, ks: Sequence[int], *, by_run: bool = False,
                 class_map: Mapping[str, str] | None = None, resamples: int = BOOTSTRAP_RESAMPLES) -> Report:
    classes = dict(class_map or HLS_CLASSES)
    cols = Columns(merged.tally.bug_stats(), ks)  # the rows' bugs, in their order; the summary's too
    rows = bug_rows(merged.tally, ks, classes)
    tables = Tables(**{name: grouped(rows, keys, ks, cols, resamples=resamples) for name, keys in TABLE_KEYS.items()})
    return Report(
        k=list(ks),
        merge=Merge(runs=[r.name for r in merged.runs], samples=merged.samples, duplicates=merged.duplicates),
        notes=_notes(merged, by_run, classes), cards=[card(run) for run in merged.runs], tables=tables,
        bugs=rows, correlations=correlations(rows), splits=splits(rows), paired=paired(rows),
        comparison=compare(merged.runs), summary=summary_of(merged.tally, ks, cols),
    )
