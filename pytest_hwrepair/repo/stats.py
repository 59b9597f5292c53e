"""The repository corpus tables of `hwrepair stats`, and the two-sided check of one instance's snapshot."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from statistics import median
from typing import Any

from ..cases.case import Case
from ..verdict import Verdict
from .candidate import parts_of
from .load import RepoParts, is_hdl
from .localise import Gold, Tier, module_spans

TIERS = tuple(t.value for t in Tier)


def snapshot_problem(case: Case, bug_id: str, verdict: Verdict) -> str:
    """Why the snapshot of an instance is not two-sided (every F2P test fails, every P2P test passes), or ''."""
    tests = verdict.metrics.get("tests")
    if not isinstance(tests, dict):
        return f"snapshot fails before its tests run: [{verdict.category.value}] {verdict.summary}"
    bug = parts_of(case).bug(bug_id)
    passing = [t for t in bug.f2p if tests.get(t) == "pass"]
    if passing:
        return f"F2P test passes on the snapshot: {passing[0]}"
    failing = [t for t in bug.p2p if tests.get(t) != "pass"]
    if failing:
        return f"P2P test fails on the snapshot: {failing[0]} ({tests.get(failing[0])})"
    return ""


def instance_rows(case: Case) -> list[dict[str, Any]]:
    parts = parts_of(case)
    rows = []
    for bug in parts.model.bug:
        gold = Gold.between(parts.snapshots[bug.id], parts.tree)
        rows.append({"repository": case.id, "instance": bug.id, "type": bug.bug_type, "files": len(gold.files),
                     "hunks": gold.hunks, "modules": len(gold.modules), "tier": gold.tier.value,
                     "f2p": len(bug.f2p), "p2p": len(bug.p2p)})
    return rows


def design_size(parts: RepoParts) -> tuple[int, int, int]:
    """HDL design files, modules and non-blank HDL lines of the fixed tree, testbenches left out."""
    design = {p: t for p, t in parts.tree.items() if is_hdl(p) and not parts.is_testbench(p)}
    lines = sum(1 for t in design.values() for line in t.splitlines() if line.strip())
    return len(design), sum(len(module_spans(t)) for t in design.values()), lines


NOTE = ("Files, hunks and modules: what the gold patch changes in HDL files (hunks at three lines of context); "
        "tiers from those (T1: one file, at most 2 hunks; T3: 4+ files or 7+ hunks; T2 between).")
Table = tuple[list[str], list[list[object]]]


def repo_tables(cases: Sequence[Case]) -> list[Table]:
    """(headers, rows): one row per repository and the total, then one row per instance."""
    cases = sorted((c for c in cases if c.repo is not None), key=lambda c: c.id)
    per_case = {c.id: instance_rows(c) for c in cases}
    rows: list[list[object]] = []
    for case in cases:
        files, modules, loc = design_size(parts_of(case))
        rows.append([case.id, files, modules, loc, *_summary(per_case[case.id])])
    if everything := [r for rs in per_case.values() for r in rs]:
        rows.append(["**all**", *[sum(int(str(r[i])) for r in rows) for i in (1, 2, 3)], *_summary(everything)])
    head = ["repository", "design files", "modules", "HDL lines", "instances", "files min/median/max",
            "hunks min/median/max", *TIERS, "types"]
    detail: list[list[object]] = [[r["repository"], r["instance"], r["type"], r["files"], r["hunks"], r["modules"],
                                   r["tier"], r["f2p"], r["p2p"]] for r in everything]
    return [(head, rows),
            (["repository", "instance", "type", "files", "hunks", "modules", "tier", "F2P", "P2P"], detail)]


def _summary(rows: list[dict[str, Any]]) -> list[object]:
    tiers = Counter(r["tier"] for r in rows)
    types = Counter(r["type"] for r in rows)
    return [len(rows), _spread([r["files"] for r in rows]), _spread([r["hunks"] for r in rows]),
            *[tiers.get(t, 0) for t in TIERS], " ".join(f"{t} {n}" for t, n in sorted(types.items()))]


def _spread(values: list[int]) -> str:
    return f"{min(values)}/{median(values):g}/{max(values)}"
