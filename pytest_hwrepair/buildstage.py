"""The cuda build stage as its own table: what was judged where the runtime stage could not run."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .results import SampleRecord
from .verdict import Category, Outcome

COLUMNS = ("judged", "built", "compile_fail", "runtime_judged", "runtime_skipped", "not_judged")


def build_row(records: Sequence[SampleRecord]) -> dict[str, int]:
    """Counts of one group's final cuda records by how far their candidate got."""
    row = dict.fromkeys(COLUMNS, 0)
    for r in records:
        if r.metrics.get("not_judged"):
            row["not_judged"] += 1  # skipped before the fixer was called: no device for its runtime stage
        elif r.outcome is Outcome.SKIPPED and r.metrics.get("build") == "passed":
            row["built"] += 1
            row["runtime_skipped"] += 1
        elif r.category is Category.COMPILE_FAIL:
            row["compile_fail"] += 1
        elif r.outcome in (Outcome.PASSED, Outcome.FAILED) and r.category is not Category.PARSE_FAIL \
                and r.metrics.get("cuda_stage") != "anti_cheat":
            row["built"] += 1
            row["runtime_judged"] += 1
    row["judged"] = row["built"] + row["compile_fail"]
    return row


def build_stage(records: Sequence[SampleRecord]) -> list[dict[str, Any]]:
    """One row per fixer x suite of final cuda records, with the build rate of the judged candidates."""
    groups: dict[tuple[str, str], list[SampleRecord]] = defaultdict(list)
    for r in records:
        if r.domain == "cuda" and r.final:
            groups[(r.fixer, r.suite)].append(r)
    out = []
    for (fixer, suite), rs in sorted(groups.items()):
        row = build_row(rs)
        rate = round(row["built"] / row["judged"], 4) if row["judged"] else None
        out.append({"fixer": fixer, "suite": suite, **row, "build_rate": rate})
    return out


__all__ = ["build_row", "build_stage"]
