"""The repository tables of a summary: resolved rate, localisation, stages by tier, and the feedback arm.

Resolved rate is pass@k over each instance's samples (resolved = every F2P test passes and every P2P test
still passes). Precision and recall are means over the scored samples' final candidates (precision
over the samples that edited something). The rescue table takes each sample of the feedback arm whose
first round did not resolve the issue, by that round's failure stage, and counts those the second
round (with the log of the first failing test, F2P tests first) resolved.
"""

from __future__ import annotations

import enum
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from ..results.metrics import mean, mean_pass_at_k
from ..results.rundir import SampleRecord


class Stage(enum.StrEnum):
    NO_EDIT = "no_edit"
    LOCALISATION = "localisation"
    REPAIR = "repair"


MEASURES = ("file_precision", "file_recall", "module_precision", "module_recall")
STAGES = tuple(s.value for s in Stage)


def repo_of(record: SampleRecord) -> dict[str, Any]:
    value = record.metrics.get("repo")
    return value if isinstance(value, dict) else {}


def repo_summary(records: Sequence[SampleRecord], ks: Sequence[int]) -> dict[str, Any]:
    """`summary["repo"]`: per fixer x tier (and all tiers), and the rescue table when the arm was on."""
    scored = [r for r in records if r.final and r.outcome in ("passed", "failed") and repo_of(r)]
    groups: dict[tuple[str, str], list[SampleRecord]] = defaultdict(list)
    for r in scored:
        groups[(r.fixer, str(repo_of(r).get("tier")))].append(r)
        groups[(r.fixer, "all")].append(r)
    out: dict[str, Any] = {"tiers": [{"fixer": f, "tier": t, **_row(rs, ks)} for (f, t), rs in sorted(groups.items())]}
    if any(repo_of(r).get("arm") == "feedback" for r in records):
        out["rescue"] = rescue_table(records)
    return out


def _row(records: list[SampleRecord], ks: Sequence[int]) -> dict[str, Any]:
    per_bug: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r in records:
        per_bug[(r.case, r.bug)].append(r.outcome == "passed")
    counts = [(len(v), sum(v)) for v in per_bug.values()]
    stages = Counter(repo_of(r).get("stage") for r in records if r.outcome != "passed")
    return {
        "instances": len(per_bug), "samples": len(records),
        "resolved_at": {str(k): _round(mean_pass_at_k(counts, k)) for k in ks},
        **{m: _round(mean(_number(repo_of(r).get(m)) for r in records)) for m in MEASURES},
        "stages": {s: stages.get(s, 0) for s in STAGES},
    }


def rescue_table(records: Iterable[SampleRecord]) -> list[dict[str, Any]]:
    """Per fixer and first-round stage: unresolved samples, rescued by the feedback round, rescue rate."""
    samples: dict[tuple[str, str], list[SampleRecord]] = defaultdict(list)
    for r in records:
        if repo_of(r).get("arm") == "feedback" and r.outcome in ("passed", "failed"):
            samples[(r.fixer, r.exec_id or r.key)].append(r)
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    firsts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for (fixer, _), rs in samples.items():
        rs.sort(key=lambda r: r.iteration or 0)
        first, last = rs[0], rs[-1]
        if not last.final:
            continue
        firsts[fixer][0] += 1
        firsts[fixer][1] += first.outcome == "passed"
        firsts[fixer][2] += last.outcome == "passed"
        if first.outcome == "passed":
            continue
        rescued = int(last is not first and last.outcome == "passed")
        for stage in (str(repo_of(first).get("stage")), "all"):
            table[(fixer, stage)][0] += 1
            table[(fixer, stage)][1] += rescued
    rows = []
    for fixer, (n, before, after) in sorted(firsts.items()):
        for stage in (*STAGES, "all"):
            unresolved, rescued = table.get((fixer, stage), [0, 0])
            rows.append({"fixer": fixer, "stage": stage, "unresolved": unresolved, "rescued": rescued,
                         "rescue_rate": _round(rescued / unresolved) if unresolved else None,
                         "samples": n, "resolved_first": _round(before / n), "resolved_final": _round(after / n)})
    return rows


def render_repo(summary: dict[str, Any], table: Any) -> list[str]:
    """The summary's repository lines; `table` is the terminal's table formatter."""
    if not (repo := summary.get("repo")):
        return []
    ks = summary["k"]
    out = ["", "repository issues (resolved: every F2P test passes and every P2P test still passes; "
           "P/R of the edited files and modules against the gold patch; stages of unresolved samples):"]
    out += table(["fixer", "tier", "instances", "samples", *[f"resolved@{k}" for k in ks], "file P", "file R",
                  "module P", "module R", *STAGES],
                 [[r["fixer"], r["tier"], r["instances"], r["samples"], *[r["resolved_at"][str(k)] for k in ks],
                   *[r[m] for m in MEASURES], *[r["stages"][s] for s in STAGES]] for r in repo["tiers"]])
    if rescue := repo.get("rescue"):
        out += ["", "repository feedback arm (one more round with the first failing test's log), rescue by "
                "first-round stage:"]
        out += table(["fixer", "stage", "", "", "unresolved", "rescued", "rescue rate"],
                     [[r["fixer"], r["stage"], "", "", r["unresolved"], r["rescued"], r["rescue_rate"]]
                      for r in rescue])
        for r in rescue:
            if r["stage"] == "all":
                out.append(f"  {r['fixer']}: resolved {r['resolved_first']:.3f} after the first round, "
                           f"{r['resolved_final']:.3f} after feedback ({r['samples']} samples)")
    return out


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
