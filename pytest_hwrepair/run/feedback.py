"""Harness-written feedback for the next attempt of a trajectory (DESIGN §6, levels L0-L4)."""

from __future__ import annotations

import json
import re
from typing import Any

from ..verdict import Category, Verdict

FEEDBACK_CAP = 2000  # characters of details; feedback carries what candidate code printed: it stays capped


def feedback_message(verdict: Verdict, level: str, candidate: str | None) -> str:
    """L0 none; L1 "did not pass"; L2 + build errors; L3 + the category's test feedback; L4 + metrics."""
    if level == "L0":
        return ""
    parts = ["The previous candidate did not pass."]
    if level >= "L2" and verdict.category in (Category.COMPILE_FAIL, Category.LINT_FAIL):
        parts.append(f"Build errors ({verdict.summary}):\n{_error_lines(verdict.log_tail)}")
    if level >= "L3" and verdict.category not in (Category.COMPILE_FAIL, Category.LINT_FAIL):
        parts.append(f"Test feedback [{verdict.category.value}]: {verdict.summary}")
        tail = "\n".join(verdict.log_tail.splitlines()[-12:])
        if tail:
            parts.append(tail)
    if level >= "L4":
        extra = {k: v for k, v in verdict.metrics.items() if k not in ("strong",)}
        if extra:
            parts.append("Details: " + json.dumps(plain(extra), sort_keys=True)[:FEEDBACK_CAP])
    return "\n\n".join(parts)


def signature(verdict: Verdict) -> str:
    """Category and error text with numbers blanked: the same failure again means no progress."""
    first = next((line for line in verdict.log_tail.splitlines() if line.strip()), "")
    return verdict.category.value + "|" + re.sub(r"\d+(\.\d+)?", "N", verdict.summary + "|" + first)


def _error_lines(log: str, limit: int = 25) -> str:
    lines = [line for line in log.splitlines() if re.search(r"error|Error|ERROR|%Error|warning", line)]
    return "\n".join((lines or log.splitlines())[:limit])


def plain(value: Any) -> Any:
    """Only plain JSON data crosses the xdist wire."""
    return json.loads(json.dumps(value, default=str))


__all__ = ["feedback_message", "plain", "signature"]
