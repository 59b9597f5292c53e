"""Reads the CUDA test's result file from the workspace after each run, without trusting it."""

from __future__ import annotations

from pathlib import Path

from ...sandbox.untrusted import UntrustedFileError, read_untrusted
from .checks import Reading
from .classify import Classification, CudaCategory, Stage
from .result import RESULT_CAP, RESULT_FILE, ResultError, TestResult, judge_result, parse_result


class ResultReader:
    """One workspace's result file: cleared before each run, read and re-checked after it."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.last: TestResult | None = None

    def clear(self) -> None:
        """A run must write its own result: one left by an earlier run never counts."""
        (self.workspace / RESULT_FILE).unlink(missing_ok=True)

    def read(self) -> Reading:
        try:
            got = read_untrusted(self.workspace, RESULT_FILE, RESULT_CAP)
        except FileNotFoundError:
            return _unverified("no_result", f"the test exited 0 without writing {RESULT_FILE}: what it printed "
                                "is not a verdict")
        except (OSError, UntrustedFileError) as exc:
            return _unverified("bad_result", f"{RESULT_FILE}: {exc}")
        if got.truncated:
            return _unverified("bad_result", f"{RESULT_FILE} is over {RESULT_CAP} bytes")
        try:
            result = parse_result(got.text)
        except ResultError as exc:
            return _unverified("bad_result", f"{RESULT_FILE}: {exc}")
        reason = judge_result(result)
        if reason is not None:
            return Reading(Classification(Stage.RUN, CudaCategory.FUNCTIONAL_CORRECTNESS, "result_check", reason))
        self.last = result
        return Reading(None, result.ms)


def _unverified(rule: str, evidence: str) -> Reading:
    """No verified result from a run that exited 0: a wrong answer, whatever the test printed."""
    return Reading(Classification(Stage.RUN, CudaCategory.FUNCTIONAL_CORRECTNESS, rule, evidence))


__all__ = ["ResultReader"]
