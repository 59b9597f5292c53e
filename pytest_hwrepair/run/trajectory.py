"""The attempts of one sample: one under `repeated`, up to K under `iterative` with stagnation stops, each
later attempt shown harness-written feedback on the one before (DESIGN §6, levels L0-L4)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..fixers.base import Attempt
from ..results.rundir import patch_sha
from ..verdict import Category, Outcome, Verdict

FEEDBACK_CAP = 2000  # characters of details; feedback carries what candidate code printed: it stays capped


def feedback_message(verdict: Verdict, level: str) -> str:
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
        extra = {k: v for k, v in verdict.metrics.items() if k != "strong"}
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


STOP_SIGNALS = ("duplicate_code", "code_cycle", "category_oscillation", "no_progress")


def stagnation(hashes: list[str | None], categories: list[str], signatures: list[str]) -> str | None:
    """The first stagnation signal that holds after the latest attempt (DESIGN §6), else None."""
    current = hashes[-1]
    if len(hashes) >= 2 and current is not None and current == hashes[-2]:
        return "duplicate_code"
    if current is not None and current in hashes[:-2]:
        return "code_cycle"
    if len(signatures) >= 3 and len(set(signatures[-3:])) == 1:
        return "no_progress"
    last5 = categories[-5:]
    if sum(1 for a, b in zip(last5, last5[1:]) if a != b) >= 3:
        return "category_oscillation"
    return None


@dataclass
class Progress:
    """What a trajectory has seen so far: decides whether and why it stops."""

    iterative: bool
    limit: int
    hashes: list[str | None] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    signatures: list[str] = field(default_factory=list)
    history: list[Attempt] = field(default_factory=list)

    def observe(self, verdict: Verdict, text: str | None, signature: str) -> str | None:
        self.hashes.append(patch_sha(text) if text is not None else None)
        self.categories.append(verdict.category.value)
        self.signatures.append(signature)
        return self.hashes[-1]

    def stop(self, attempt: int, verdict: Verdict) -> tuple[bool, str | None]:
        """(is this the last attempt, the stop reason recorded with it)."""
        last = attempt == self.limit - 1 or verdict.outcome is not Outcome.FAILED
        if not self.iterative:
            return last, None
        reason = None if last else stagnation(self.hashes, self.categories, self.signatures)
        if reason is None and last:
            reason = "passed" if verdict.passed else ("budget" if verdict.outcome is Outcome.FAILED
                                                      else verdict.outcome.value)
        return last or reason is not None, reason


__all__ = ["STOP_SIGNALS", "Progress", "feedback_message", "plain", "signature", "stagnation"]
