"""Controller-side aggregation of sample records into tables, gates and baseline comparisons."""

from __future__ import annotations

import contextlib
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .metrics import category_changes, mean, mean_pass_at_k, multiplicity, pass_at_k, underconstrained
from .results import RunDir, SampleRecord
from .trajectory import STOP_SIGNALS
from .verdict import Category, Outcome, RepairProtocol

COUNTED = (Outcome.PASSED, Outcome.FAILED)  # the outcomes pass@k counts; errors and skips stand apart

EXIT_GATE_FAILED = 6
EXIT_HARNESS_ERRORS = 7
LOC_BUCKETS = ((0, 100, "<100"), (100, 300, "100-299"), (300, 800, "300-799"), (800, 10**9, "800+"))
PERF_SWEEP = (0.0, 0.5, 0.7, 0.8, 1.0, 1.2, 1.5, 2.0)


@dataclass(frozen=True)
class BugStats:
    """Counted samples of one bug for one fixer (errors and skips kept apart)."""

    fixer: str
    label: str
    case: str
    bug: str
    domain: str
    suite: str
    bug_type: str
    bug_class: str | None
    loc: int
    n: int
    c: int
    strong_c: int
    strong_n: int
    errors: int
    skipped: int
    mult: float | None
    categories: dict[str, int]
    plausible: int = 0  # passed, failed the strong oracle
    undecided: int = 0  # passed, no strong verdict
    has_strong: bool = False  # the case declares a strong oracle

    @property
    def under(self) -> bool:
        return underconstrained(self.mult, self.c, self.n)


def finals(records: Iterable[SampleRecord]) -> list[SampleRecord]:
    return [r for r in records if r.final]


def bug_stats(records: Iterable[SampleRecord]) -> list[BugStats]:
    groups: dict[tuple[str, str, str], list[SampleRecord]] = defaultdict(list)
    for r in finals(records):
        groups[(r.fixer, r.case, r.bug)].append(r)
    out = []
    for (fixer, case, bug), rs in sorted(groups.items()):
        counted = [r for r in rs if r.outcome in COUNTED]
        strong = [r for r in counted if r.strong is not None]
        first = rs[0]
        out.append(BugStats(
            fixer=fixer, label=rs[0].label or fixer, case=case, bug=bug, domain=first.domain, suite=first.suite,
            bug_type=first.bug_type,
            bug_class=first.bug_class, loc=int(first.loc.get("target", 0)), n=len(counted),
            c=sum(r.outcome == Outcome.PASSED for r in counted),
            strong_c=sum(bool(r.strong) and r.outcome == Outcome.PASSED for r in strong), strong_n=len(strong),
            errors=sum(r.outcome == Outcome.ERROR for r in rs), skipped=sum(r.outcome == Outcome.SKIPPED for r in rs),
            mult=multiplicity([r.patch_sha for r in counted]) if counted else None,
            categories=dict(Counter(r.category.value for r in counted)),
            plausible=sum(r.strong is False and r.outcome == Outcome.PASSED for r in counted),
            undecided=sum(r.strong is None and r.outcome == Outcome.PASSED for r in counted),
            has_strong=any(r.strong is not None or bool(r.metrics.get("strong_oracle")) for r in rs),
        ))
    return out


def correct_at_k(stats: Sequence[BugStats], k: int) -> float | None:
    """pass@k over the same bugs counting only samples the strong oracle passed too (a failed or undecided one
    is not correct, so correct@k <= pass@k); n/a when no bug has a strong oracle or pass@k is n/a."""
    scored = [s for s in stats if s.n > 0]
    return mean_pass_at_k([(s.n, s.strong_c) for s in scored], k) if any(s.has_strong for s in scored) else None


def table_row(stats: Sequence[BugStats], ks: Sequence[int]) -> dict[str, Any]:
    """One table row: bugs, samples, pass@k (n/a when any bug has n < k), multiplicity, categories."""
    scored = [s for s in stats if s.n > 0]
    counts = [(s.n, s.c) for s in scored]
    samples = sum(s.n for s in stats)
    categories: Counter[str] = Counter()
    for s in stats:
        categories.update(s.categories)
    return {
        "bugs": len(stats),
        "samples": samples,
        "passed": sum(s.c for s in stats),
        "errors": sum(s.errors for s in stats),
        "skipped": sum(s.skipped for s in stats),
        "pass_at": {str(k): _round(mean_pass_at_k(counts, k)) for k in ks},
        "correct": sum(s.strong_c for s in stats),
        "plausible": sum(s.plausible for s in stats),
        "undecided": sum(s.undecided for s in stats),
        "correct_at": {str(k): _round(correct_at_k(stats, k)) for k in ks},
        "multiplicity": _round(mean(s.mult for s in scored)),
        "underconstrained": sum(s.under for s in scored),
        "categories": {c: _round(v / samples) for c, v in sorted(categories.items())} if samples else {},
    }


def grouped(stats: Sequence[BugStats], keys: Sequence[str], ks: Sequence[int],
            key_fn: Callable[[BugStats], tuple[Any, ...]] | None = None) -> list[dict[str, Any]]:
    groups: dict[tuple[Any, ...], list[BugStats]] = defaultdict(list)
    for s in stats:
        groups[key_fn(s) if key_fn else tuple(getattr(s, k) for k in keys)].append(s)
    return [{**dict(zip(keys, key)), **table_row(rows, ks)} for key, rows in sorted(groups.items(), key=_sort_key)]


def _sort_key(item: tuple[tuple[Any, ...], Any]) -> tuple[str, ...]:
    return tuple(str(part) for part in item[0])


def loc_bucket(loc: int) -> str:
    return next(label for lo, hi, label in LOC_BUCKETS if lo <= loc < hi)


def summarize(records: Sequence[SampleRecord], ks: Sequence[int]) -> dict[str, Any]:
    """The whole summary.json body; invariant under any permutation of the records."""
    stats = bug_stats(records)
    fin = finals(records)
    summary: dict[str, Any] = {
        "k": list(ks),
        "fixers": grouped(stats, ("fixer",), ks),
        "domains": grouped(stats, ("fixer", "domain"), ks),
        "groups": grouped(stats, ("fixer", "domain", "suite", "bug_type"), ks),
        "loc": grouped(stats, ("fixer", "domain", "loc_bucket"), ks,
                       key_fn=lambda s: (s.fixer, s.domain, loc_bucket(s.loc))),
        "bugs": [{"fixer": s.fixer, "case": s.case, "bug": s.bug, "n": s.n, "c": s.c, "errors": s.errors,
                  "skipped": s.skipped, "multiplicity": _round(s.mult), "underconstrained": s.under}
                 for s in stats],
        "costs": costs(fin),
    }
    rtl = [s for s in stats if s.domain == "rtl"]
    if rtl:
        summary["rtl"] = {"classes": grouped(rtl, ("fixer", "bug_class"), ks), "tiers": tier_agreement(fin)}
    if any(r.protocol is RepairProtocol.ITERATIVE for r in fin):
        summary["iterative"] = iterative_metrics(records, ks)
    if any(r.domain == "cuda" for r in fin):
        summary["cuda"] = cuda_metrics(fin)
    summary["retries"] = retry_counts(fin)
    return summary


def costs(records: Sequence[SampleRecord]) -> list[dict[str, Any]]:
    per: dict[str, dict[str, Any]] = {}
    spent: dict[str, list[float]] = defaultdict(list)
    for r in records:
        row = per.setdefault(r.fixer, {"fixer": r.fixer, "cost_usd": 0.0, "cached": 0,
                                       "tokens": {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0}})
        spent[r.fixer].append(r.cost_usd)
        row["cost_usd"] = math.fsum(spent[r.fixer])  # order-independent: summaries must not depend on order
        row["cached"] += int(r.cached)
        for name in row["tokens"]:
            row["tokens"][name] += int(r.tokens.get(name, 0))
    return [{**row, "cost_usd": round(row["cost_usd"], 6)} for _, row in sorted(per.items())]


def retry_counts(records: Sequence[SampleRecord]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for r in records:
        for name, value in (r.metrics.get("retries") or {}).items():
            total[name] += int(value)
    return dict(sorted(total.items()))


def tier_agreement(records: Sequence[SampleRecord]) -> list[dict[str, Any]]:
    """Tier S (suite oracle) x Tier F (strong oracle) agreement per fixer."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        if r.domain != "rtl" or r.strong is None or r.outcome not in COUNTED:
            continue
        s, f = r.outcome == Outcome.PASSED, r.strong
        cell = {(True, True): "both_pass", (True, False): "s_pass_f_fail",
                (False, True): "s_fail_f_pass", (False, False): "both_fail"}[(s, f)]
        table[r.fixer][cell] += 1
    cells = ("both_pass", "s_pass_f_fail", "s_fail_f_pass", "both_fail")
    return [{"fixer": fixer, **{c: counts.get(c, 0) for c in cells}} for fixer, counts in sorted(table.items())]


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
    out = []
    for fixer, trajs in sorted(per_fixer.items()):
        out.append({"fixer": fixer, **_trajectory_row(trajs, ks)})
    return out


def _trajectory_row(trajs: list[list[SampleRecord]], ks: Sequence[int]) -> dict[str, Any]:
    n = len(trajs)
    first_pass = [t for t in trajs if t[0].outcome == Outcome.PASSED]
    first_fail = [t for t in trajs if t[0].outcome != Outcome.PASSED]

    def solved_within(t: list[SampleRecord], k: int) -> bool:
        return any(r.outcome == Outcome.PASSED for r in t[:k])

    fix_rate: dict[str, float | None] = {}
    by_first: dict[str, list[list[SampleRecord]]] = defaultdict(list)
    for t in first_fail:
        by_first[t[0].category].append(t)
    for cat, ts in sorted(by_first.items()):
        fix_rate[cat] = _round(sum(any(r.outcome == Outcome.PASSED for r in t) for t in ts) / len(ts))
    stops = Counter(t[-1].stop_reason or "budget" for t in trajs)
    transitions: dict[str, Counter[str]] = defaultdict(Counter)
    for t in trajs:
        for a, b in zip(t, t[1:]):
            transitions[a.category][b.category] += 1
    return {
        "trajectories": n,
        "pass@1": _round(len(first_pass) / n) if n else None,
        "pass_within": {str(k): _round(sum(solved_within(t, k) for t in trajs) / n) if n else None for k in ks},
        "debug_rate": {str(k): _round(sum(solved_within(t, k) for t in first_fail) / len(first_fail))
                       if first_fail else None for k in ks},
        "fix_rate": fix_rate,
        "stop_reasons": dict(sorted(stops.items())),
        "stagnation_rate": {s: _round(stops.get(s, 0) / n) if n else None for s in STOP_SIGNALS},
        "transitions": {a: dict(sorted(b.items())) for a, b in sorted(transitions.items())},
        "mean_category_changes": _round(mean(category_changes([r.category for r in t]) for t in trajs)),
    }


def cuda_metrics(records: Sequence[SampleRecord]) -> list[dict[str, Any]]:
    """Degeneration rate (passes slower than the reference) and pass rate versus perf gate p."""
    per: dict[str, list[SampleRecord]] = defaultdict(list)
    for r in records:
        if r.domain == "cuda" and r.outcome in COUNTED:
            per[r.fixer].append(r)
    out = []
    for fixer, rs in sorted(per.items()):
        correct = [r for r in rs if r.outcome == Outcome.PASSED or r.category is Category.PERF_FAIL]
        timed = [r for r in correct if r.speedup is not None]
        sweep = {f"{p:g}": _round(sum(1 for r in timed if (r.speedup or 0) >= p) / len(rs)) for p in PERF_SWEEP}
        out.append({
            "fixer": fixer, "samples": len(rs), "correct": len(correct), "timed": len(timed),
            "degeneration_rate": _round(sum(1 for r in timed if (r.speedup or 0) < 1.0) / len(timed))
            if timed else None,
            "pass_vs_p": sweep if timed else {},
            "cuda_categories": dict(sorted(Counter(str(r.metrics.get("cuda_category", "n/a")) for r in rs).items())),
        })
    return out


# ---------------------------------------------------------------- gates and baselines

_GATE = re.compile(r"^\s*(?:(?P<scope>[A-Za-z0-9_./=,-]+):)?(?P<metric>pass|correct)@(?P<k>\d+)\s*"
                   r"(?P<op>>=|<=|>|<|==)\s*(?P<value>[0-9.]+)\s*$")


@dataclass(frozen=True)
class Gate:
    text: str
    scope: str | None
    metric: str
    k: int
    op: str
    value: float


def parse_gate(text: str) -> Gate:
    """`[domain[/suite]:]pass@K OP VALUE`; raises ValueError with what is allowed."""
    m = _GATE.match(text)
    if not m:
        raise ValueError(f"--hwrepair-gate: {text!r} is not [SCOPE:]pass@K OP VALUE (SCOPE: comma-separated "
                         "DOMAIN, DOMAIN/SUITE or fixer=NAME; OP one of >= <= > < ==; metric pass or correct), "
                         "e.g. 'pass@1>=0.6', 'hls/chs:pass@5>=0.3' or 'fixer=noop:pass@1<=0'")
    k, value = int(m["k"]), float(m["value"])
    if k < 1:
        raise ValueError(f"--hwrepair-gate: {text!r}: k must be at least 1 (pass@1 is one sample per bug)")
    if not 0 <= value <= 1:
        raise ValueError(f"--hwrepair-gate: {text!r}: the value is a rate between 0 and 1, got {value}")
    return Gate(text, m["scope"], m["metric"], k, m["op"], value)


def gate_problem(gate: Gate, fixers: dict[str, tuple[str, bool]], samples: int | None) -> str | None:
    """Why a gate can never be checked with these fixers (label -> (name, deterministic)), or None."""
    names = [s.removeprefix("fixer=") for s in (gate.scope or "").split(",") if s.startswith("fixer=")]
    known = {n for label, (name, _) in fixers.items() for n in (label, name, name.split(":")[0])}
    for name in names:
        if name not in known:
            return (f"--hwrepair-gate: {gate.text!r}: no fixer {name!r} in this run "
                    f"(labels: {', '.join(sorted(fixers))})")
    scoped = [label for label, (name, _) in fixers.items()
              if not names or {label, name, name.split(":")[0]} & set(names)]
    for label in scoped:
        most = samples if samples is not None else (1 if fixers[label][1] else None)
        if most is not None and gate.k > most:
            return (f"--hwrepair-gate: {gate.text!r}: {gate.metric}@{gate.k} needs at least {gate.k} samples per bug; "
                    f"{label} has {most} (set --hwrepair-samples)")
    return None


def check_gates(gates: Sequence[Gate], records: Sequence[SampleRecord]) -> list[str]:
    """One line per gate that does not hold (n/a values fail: the gate cannot be verified)."""
    stats = bug_stats(records)
    failures = []
    ops: dict[str, Callable[[float, float], bool]] = {
        ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        "<": lambda a, b: a < b, "==": lambda a, b: abs(a - b) < 1e-12}
    for gate in gates:
        scoped = [s for s in stats if _in_scope(s, gate.scope)]
        for fixer in sorted({s.fixer for s in scoped}) or ["(no samples)"]:
            rows = [s for s in scoped if s.fixer == fixer]
            if gate.metric == "pass":
                value = mean_pass_at_k([(s.n, s.c) for s in rows if s.n > 0], gate.k)
            else:
                value = correct_at_k(rows, gate.k)
            if value is None or not ops[gate.op](value, gate.value):
                shown = "n/a" if value is None else f"{value:.3f}"
                failures.append(f"gate {gate.text!r} not met for {fixer}: {gate.metric}@{gate.k} = {shown}")
    return failures


def _in_scope(s: BugStats, scope: str | None) -> bool:
    """Every selector must hold: `fixer=NAME` (label or name), `DOMAIN` or `DOMAIN/SUITE`."""
    for selector in (scope or "").split(","):
        if not selector:
            continue
        if selector.startswith("fixer="):
            name = selector.removeprefix("fixer=")
            if name not in (s.label, s.fixer, s.fixer.split(":")[0]):
                return False
            continue
        parts = selector.split("/")
        if s.domain != parts[0] or (len(parts) > 1 and s.suite != parts[1]):
            return False
    return True


def regressions(current: Sequence[SampleRecord], baseline: Sequence[SampleRecord]) -> list[str]:
    """Bugs a fixer repaired in the baseline (some sample passed) and no longer repairs at all."""
    before = {(s.case, s.bug, s.fixer): s for s in bug_stats(baseline)}
    now = bug_stats(current)
    single = len({s.fixer for s in now}) == 1 and len({k[2] for k in before}) == 1
    lines = []
    for s in now:
        old = before.get((s.case, s.bug, s.fixer))
        if old is None and single:
            old = next((b for (c, bug, _), b in before.items() if c == s.case and bug == s.bug), None)
        if old is not None and old.n and old.c > 0 and s.n and s.c == 0:
            lines.append(f"regression: {s.case}::{s.bug} [{s.fixer}] passed {old.c}/{old.n} in the baseline, "
                         f"now 0/{s.n}")
    return lines


class Scoreboard:
    """The controller's records of this session (DESIGN §10): the summary, the gates, the exit status."""

    def __init__(self, ks: Sequence[int], gates: Sequence[Gate], baseline: str | None = None) -> None:
        self.ks, self.gates, self.baseline = list(ks), tuple(gates), baseline
        self.records: dict[str, list[dict[str, Any]]] = {}
        self.summary: dict[str, Any] | None = None
        self.gate_failures: list[str] = []

    def add(self, nodeid: str, records: list[dict[str, Any]]) -> None:
        self.records[nodeid] = records

    def all_records(self) -> list[SampleRecord]:
        return [SampleRecord.from_json(r) for _, rs in sorted(self.records.items()) for r in rs]

    def errors(self) -> int:
        """Items whose final record is a harness error."""
        return sum(1 for rs in self.records.values() if rs and rs[-1].get("outcome") == Outcome.ERROR.value)

    def finish(self, run_dir: RunDir, info: dict[str, Any], *, collected: bool, errors: int) -> int | None:
        """Write summary.json and run.json; return the exit status the gates decide, if any."""
        records = self.all_records()
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


__all__ = ["EXIT_GATE_FAILED", "EXIT_HARNESS_ERRORS", "Gate", "Scoreboard", "check_gates", "correct_at_k",
           "gate_problem",
           "parse_gate", "pass_at_k", "regressions", "summarize"]
