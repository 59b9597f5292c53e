"""Controller-side aggregation of sample records into tables, gates and baseline comparisons."""

from __future__ import annotations

import contextlib
import operator
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .cases.domains import has
from .oracles.cuda.tables import build_rows
from .repo.summary import repo_summary
from .results.gates import Gate, check_gates, regressions
from .results.metrics import category_changes, mean, mean_of
from .results.rundir import RunDir, SampleRecord
from .results.tally import COUNTED, PERF_SWEEP, TIER_CELLS, BugStats, Columns, Tally, pick
from .run.sample import STOP_SIGNALS
from .verdict import Outcome, RepairProtocol

EXIT_GATE_FAILED = 6
EXIT_HARNESS_ERRORS = 7
LOC_BUCKETS = ((0, 100, "<100"), (100, 300, "100-299"), (300, 800, "300-799"), (800, 10**9, "800+"))


def table_row(stats: Sequence[BugStats], ks: Sequence[int], cols: Columns | None = None,
              idx: Sequence[int] | None = None) -> dict[str, Any]:
    """One table row (pass@k n/a when any bug has n < k) of the bugs at `idx` of `cols` (the columns of `stats`),
    else of every bug in `stats`."""
    if cols is None or idx is None:
        cols, idx = Columns(stats, ks), range(len(stats))
    scored = cols.scored(idx)
    sums = cols.sums(idx)
    samples = sums["n"]
    strong = cols.strong(scored) > 0
    return {
        "bugs": len(idx),
        "samples": samples,
        "passed": sums["c"],
        "errors": sums["errors"],
        "skipped": sums["skipped"],
        "pass_at": {str(k): _round(mean_of(pick(cols.pass_at[k], scored))) for k in ks},
        "correct": sums["strong_c"],
        "plausible": sums["plausible"],
        "undecided": sums["undecided"],
        "correct_at": {str(k): _round(mean_of(pick(cols.correct_at[k], scored))) if strong else None for k in ks},
        "multiplicity": _round(cols.mean_mult(scored)),
        "underconstrained": cols.underconstrained(scored),
        "categories": {c: _round(v / samples) for c, v in sorted(cols.counts(idx).items())} if samples else {},
    }


def grouped(stats: Sequence[BugStats], keys: Sequence[str], ks: Sequence[int],
            key_fn: Callable[[BugStats], tuple[Any, ...]] | None = None,
            cols: Columns | None = None) -> list[dict[str, Any]]:
    """Rows grouped by the named BugStats fields (or `key_fn`), sorted by group; `cols`: the columns of `stats`."""
    cols = cols if cols is not None else Columns(stats, ks)
    groups: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    found = map(key_fn, stats) if key_fn else zip(*(map(operator.attrgetter(k), stats) for k in keys))
    for i, key in enumerate(found):
        groups[key].append(i)
    return [{**dict(zip(keys, key)), **table_row(stats, ks, cols, idx)}
            for key, idx in sorted(groups.items(), key=lambda item: tuple(map(str, item[0])))]


def loc_bucket(loc: int) -> str:
    return next(label for lo, hi, label in LOC_BUCKETS if lo <= loc < hi)


def summarize(records: Sequence[SampleRecord], ks: Sequence[int]) -> dict[str, Any]:
    """The whole summary.json body; invariant under any permutation of the records."""
    return summary_of(Tally.of(records), ks)


def summary_of(tally: Tally, ks: Sequence[int], cols: Columns | None = None) -> dict[str, Any]:
    """The summary of the records a tally was built from; `cols`: the columns of its bug stats for these ks."""
    stats = tally.bug_stats()
    cols = cols if cols is not None else Columns(stats, ks)
    summary: dict[str, Any] = {
        "k": list(ks),
        "fixers": grouped(stats, ("fixer",), ks, cols=cols),
        "domains": grouped(stats, ("fixer", "domain"), ks, cols=cols),
        "groups": grouped(stats, ("fixer", "domain", "suite", "bug_type"), ks, cols=cols),
        "loc": grouped(stats, ("fixer", "domain", "loc_bucket"), ks,
                       key_fn=lambda s: (s.fixer, s.domain, loc_bucket(s.loc)), cols=cols),
        "bugs": [{"fixer": s.fixer, "case": s.case, "bug": s.bug, "n": s.n, "c": s.c, "errors": s.errors,
                  "skipped": s.skipped, "multiplicity": _round(s.mult), "underconstrained": s.under}
                 for s in stats],
        # Dollars are exact running sums (order-independent: summaries must not depend on record order).
        "costs": [{"fixer": fixer, "cost_usd": round(c.total(), 6), "cached": c.cached, "tokens": dict(c.tokens)}
                  for fixer, c in sorted(tally.costs.items())],
    }
    for domain in sorted({s.domain for s in stats if has(s.domain, "tier_tables")}):
        mine = [s for s in stats if s.domain == domain]
        summary[domain] = {"classes": grouped(mine, ("fixer", "bug_class"), ks), "tiers": tier_rows(tally)}
    if tally.iterative:  # and the iterative pass@k of the totals and breakdown rows (pass@1: the first attempt)
        summary["iterative"] = iterative_metrics(tally.kept, ks)
        summary["iterative_domains"] = iterative_by(tally.kept, ks, lambda r: r.domain, {s.domain for s in stats})
        summary["iterative_groups"] = iterative_by(tally.kept, ks, lambda r: f"{r.domain}/{r.suite}/{r.bug_type}",
                                                   {f"{s.domain}/{s.suite}/{s.bug_type}" for s in stats})
    if tally.builds:
        summary["cuda"] = cuda_rows(tally)
        summary["cuda_build"] = build_rows(tally.builds)  # the build stage, judged even where the runtime is not
    if tally.has_repo:  # repository cases: resolved rate, localisation, feedback arm
        summary["repo"] = repo_summary(tally.kept, ks)
    summary["retries"] = dict(sorted(tally.retries.items()))  # every attempt of a trajectory made its own requests
    return summary


def tier_rows(tally: Tally) -> list[dict[str, Any]]:
    """Tier S (suite oracle) x Tier F (strong oracle) agreement per fixer."""
    return [{"fixer": fixer, **{c: counts[c] for c in TIER_CELLS.values()}}
            for fixer, counts in sorted(tally.tiers.items()) if counts]


def iterative_metrics(records: Sequence[SampleRecord], ks: Sequence[int]) -> list[dict[str, Any]]:
    """pass@1, pass@k within k attempts, debug_rate@k, fix_rate per first category, stops, transitions."""
    trajectories: dict[tuple[str, str], list[SampleRecord]] = defaultdict(list)
    for r in records:
        if r.protocol is RepairProtocol.ITERATIVE and r.iteration is not None:
            trajectories[(r.fixer, r.exec_id or r.key)].append(r)
    per_fixer: dict[str, list[list[SampleRecord]]] = defaultdict(list)
    for (fixer, _), rs in trajectories.items():
        rs.sort(key=lambda r: r.iteration or 0)
        if rs[-1].final and all(r.outcome in COUNTED for r in rs):
            per_fixer[fixer].append(rs)
    return [{"fixer": fixer, **_trajectory_row(trajs, ks)} for fixer, trajs in sorted(per_fixer.items())]


def _trajectory_row(trajs: list[list[SampleRecord]], ks: Sequence[int]) -> dict[str, Any]:
    n = len(trajs)
    first_fail = [t for t in trajs if t[0].outcome != Outcome.PASSED]

    def solved_within(t: list[SampleRecord], k: int) -> bool:
        return any(r.outcome == Outcome.PASSED for r in t[:k])

    by_first: dict[str, list[list[SampleRecord]]] = defaultdict(list)
    for t in first_fail:
        by_first[t[0].category].append(t)
    fix_rate = {cat: _round(sum(any(r.outcome == Outcome.PASSED for r in t) for t in ts) / len(ts))
                for cat, ts in sorted(by_first.items())}
    stops = Counter(t[-1].stop_reason or "budget" for t in trajs)
    transitions: dict[str, Counter[str]] = defaultdict(Counter)
    for t in trajs:
        for a, b in zip(t, t[1:]):
            transitions[a.category][b.category] += 1
    return {
        "trajectories": n,
        "pass@1": _round((n - len(first_fail)) / n) if n else None,
        "pass_within": {str(k): _round(sum(solved_within(t, k) for t in trajs) / n) if n else None for k in ks},
        "debug_rate": {str(k): _round(sum(solved_within(t, k) for t in first_fail) / len(first_fail))
                       if first_fail else None for k in ks},
        "fix_rate": fix_rate,
        "stop_reasons": dict(sorted(stops.items())),
        "stagnation_rate": {s: _round(stops.get(s, 0) / n) if n else None for s in STOP_SIGNALS},
        "transitions": {a: dict(sorted(b.items())) for a, b in sorted(transitions.items())},
        "mean_category_changes": _round(mean(category_changes([r.category for r in t]) for t in trajs)),
    }


def iterative_by(records: Sequence[SampleRecord], ks: Sequence[int], key: Callable[[SampleRecord], str],
                 names: Iterable[str] = ()) -> dict[str, list[dict[str, Any]]]:
    """Iterative metrics per group; `names` are groups of the run's other samples (shown empty)."""
    groups: dict[str, list[SampleRecord]] = {name: [] for name in names}
    for r in records:
        groups.setdefault(key(r), []).append(r)
    return {name: iterative_metrics(rs, ks) for name, rs in sorted(groups.items())}


def cuda_rows(tally: Tally) -> list[dict[str, Any]]:
    """Degeneration rate (passes slower than the reference) and pass rate versus perf gate p."""
    return [{
        "fixer": fixer, "samples": c.samples, "correct": c.correct, "timed": c.timed,
        "degeneration_rate": _round(c.slower / c.timed) if c.timed else None,
        "pass_vs_p": {f"{p:g}": _round(c.sweep[p] / c.samples) for p in PERF_SWEEP} if c.timed else {},
        "cuda_categories": dict(sorted(c.categories.items())),
    } for fixer, c in sorted(tally.cuda.items())]


class Scoreboard:
    """The controller's records of this session (DESIGN §10): the summary, the gates, the exit status."""

    def __init__(self, ks: Sequence[int], gates: Sequence[Gate], baseline: str | None = None) -> None:
        self.ks, self.gates, self.baseline = list(ks), tuple(gates), baseline
        self.records: dict[str, list[dict[str, Any]]] = {}
        self.summary: dict[str, Any] | None = None
        self.gate_failures: list[str] = []

    def add(self, nodeid: str, records: list[dict[str, Any]]) -> None:
        self.records[nodeid] = records

    def errors(self) -> int:
        """Items whose final record is a harness error."""
        return sum(1 for rs in self.records.values() if rs and rs[-1].get("outcome") == Outcome.ERROR.value)

    def finish(self, run_dir: RunDir, info: dict[str, Any], *, collected: bool, errors: int) -> int | None:
        """Write summary.json and run.json; return the exit status the gates decide, if any."""
        records = [SampleRecord.from_json(r) for _, rs in sorted(self.records.items()) for r in rs]
        self.summary = summarize(records, self.ks)
        self.summary["run"] = str(run_dir.path)
        if records or collected:
            run_dir.create()
            run_dir.write_json("summary.json", self.summary)
            run_dir.write_run_json(info)
        else:  # a pytest run without hwrepair items leaves no run directory behind
            with contextlib.suppress(OSError):
                run_dir.path.rmdir()
        if not self.gates and not self.baseline:
            return None
        self.gate_failures = check_gates(self.gates, records)
        if self.baseline:
            self.gate_failures += regressions(records, RunDir(Path(self.baseline)).records())
        if errors:
            return EXIT_HARNESS_ERRORS
        return EXIT_GATE_FAILED if self.gate_failures else 0


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
