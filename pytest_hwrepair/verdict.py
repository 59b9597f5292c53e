"""Outcomes, failure categories and the verdict an oracle returns."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any


class Outcome(enum.StrEnum):
    """The pytest outcome of one sample (DESIGN §4)."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"


class RepairProtocol(enum.StrEnum):
    """How samples of one bug are drawn (DESIGN §6)."""

    REPEATED = "repeated"
    ITERATIVE = "iterative"


class Category(enum.StrEnum):
    """Why a candidate passed or failed (contract: DESIGN §8)."""

    PASS = "pass"
    PARSE_FAIL = "parse_fail"
    COMPILE_FAIL = "compile_fail"
    TEST_FAIL = "test_fail"
    TIMEOUT = "timeout"
    RUNTIME_CRASH = "runtime_crash"
    PERF_FAIL = "perf_fail"
    LINT_FAIL = "lint_fail"
    EQUIV_FAIL = "equiv_fail"
    INFRA_ERROR = "infra_error"
    FIXER_TIMEOUT = "fixer_timeout"  # a `cmd:` agent ran out of time: a failed sample, counted against the fixer
    SKIPPED = "skipped"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What an oracle decided about one candidate, with its own explanation."""

    outcome: Outcome
    category: Category
    summary: str
    log_tail: str = ""
    metrics: dict[str, Any] = field(default_factory=dict)
    durations: dict[str, float] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.PASSED

    @classmethod
    def ok(cls, summary: str = "passed", **kw: Any) -> Verdict:
        return cls(Outcome.PASSED, Category.PASS, summary, **kw)

    @classmethod
    def fail(cls, category: Category, summary: str, **kw: Any) -> Verdict:
        return cls(Outcome.FAILED, category, summary, **kw)

    @classmethod
    def error(cls, summary: str, **kw: Any) -> Verdict:
        return cls(Outcome.ERROR, Category.INFRA_ERROR, summary, **kw)

    @classmethod
    def skip(cls, summary: str, **kw: Any) -> Verdict:
        return cls(Outcome.SKIPPED, Category.SKIPPED, summary, **kw)

    def with_durations(self, durations: dict[str, float]) -> Verdict:
        """The verdict with step durations added; the verdict's own durations win on a clash."""
        return replace(self, metrics=dict(self.metrics), durations={**durations, **self.durations})

    def with_metrics(self, **metrics: Any) -> Verdict:
        return replace(self, metrics={**self.metrics, **metrics}, durations=dict(self.durations))

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome.value, "category": self.category.value, "summary": self.summary,
                "log_tail": self.log_tail, "metrics": dict(self.metrics), "durations": dict(self.durations)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        return cls(Outcome(data["outcome"]), Category(data["category"]), data.get("summary", ""),
                   data.get("log_tail", ""), dict(data.get("metrics") or {}), dict(data.get("durations") or {}))


class RepairRejected(Exception):
    """A verdict, not a fault: the candidate did not pass the oracle."""

    def __init__(self, verdict: Verdict, diff: str = "", log_path: str = "") -> None:
        super().__init__(verdict.summary)
        self.verdict = verdict
        self.diff = diff
        self.log_path = log_path


class HarnessError(Exception):
    """The harness itself failed (sandbox, toolchain crash, API outage): excluded from pass@k."""

    def __init__(self, message: str, artifacts: Path | None = None) -> None:
        super().__init__(message)
        self.artifacts = artifacts

    def line(self) -> str:
        """The error in one line, as a rejection is shown: its summary and where its artifacts are."""
        first = printable(str(self).strip().splitlines()[0] if str(self).strip() else "harness error")
        first = first if len(first) <= 200 else first[:197] + "..."
        where = f" | artifacts: {self.artifacts}" if self.artifacts else ""
        return f"[harness error] {first}{where} (--hwrepair-debug: the traceback)"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """Untrusted text made safe for a terminal: every C0 and C1 control character but newline and tab escaped."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class CaseError(Exception):
    """A case file is malformed; the message is one line: `path: [bug] field: problem`."""
