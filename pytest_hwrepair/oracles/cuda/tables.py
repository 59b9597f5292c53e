"""The cuda build stage as its own table: what was judged where the runtime stage could not run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...verdict import Category, Outcome

COLUMNS = ("judged", "built", "compile_fail", "runtime_judged", "runtime_skipped", "not_judged")


def count_build(row: dict[str, int], v: Mapping[str, Any]) -> None:
    """Count one final cuda record (its view: `bugstats.view_of`) into its group's row by how far its candidate got."""
    metrics, outcome, category = v["metrics"], v["outcome"], v["category"]
    if metrics.get("not_judged"):
        row["not_judged"] += 1  # skipped before the fixer was called: no device for its runtime stage
    elif outcome == Outcome.SKIPPED and metrics.get("build") == "passed":
        row["built"] += 1
        row["runtime_skipped"] += 1
    elif category == Category.COMPILE_FAIL:
        row["compile_fail"] += 1
    elif outcome in (Outcome.PASSED, Outcome.FAILED) and category != Category.PARSE_FAIL \
            and metrics.get("cuda_stage") != "anti_cheat":
        row["built"] += 1
        row["runtime_judged"] += 1


def build_rows(rows: dict[tuple[str, str], dict[str, int]]) -> list[dict[str, Any]]:
    """The table from counted rows per (fixer, suite), with the build rate of the judged candidates."""
    out = []
    for (fixer, suite), counted in sorted(rows.items()):
        row = {**counted, "judged": counted["built"] + counted["compile_fail"]}
        rate = round(row["built"] / row["judged"], 4) if row["judged"] else None
        out.append({"fixer": fixer, "suite": suite, **row, "build_rate": rate})
    return out
