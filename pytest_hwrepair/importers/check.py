"""The two-sided check an importer keeps instances by: `hwrepair validate` over freshly written cases."""

from __future__ import annotations

from pathlib import Path

from ..sandbox import make_sandbox
from ..settings import Settings
from ..strength.selfcheck import BugCheck, validate
from .base import Reason

# validate's rejection reasons (their leading words) and what an import log calls them.
_REASONS = (
    ("reference fails", Reason.REFERENCE_FAILS),
    ("bug not observable", Reason.NOT_OBSERVABLE),
    ("INF bug does not fail by timeout", Reason.INF_NO_HANG),
    ("injected program does not compile", Reason.COMPILE_ERROR),
    ("not repeatable", Reason.NOT_REPEATABLE),
)


def two_sided(paths: list[Path], *, jobs: int, cache_dir: Path) -> dict[tuple[str, str], BugCheck]:
    """validate's verdict per (case.toml path, bug id), run as `hwrepair validate` runs it."""
    settings = Settings.from_sources({"oracle_jobs": str(jobs), "cache_dir": str(cache_dir)}, {})
    sandbox = make_sandbox(settings, cache_dir)
    checks = validate(paths, sandbox=sandbox, cache_dir=cache_dir, jobs=jobs)
    return {(check.path, check.bug): check for check in checks}


def rejection_reason(check: BugCheck) -> Reason:
    """The import log's reason for a bug `validate` rejected."""
    for prefix, reason in _REASONS:
        if check.reason.startswith(prefix):
            return reason
    # An output-diff oracle raises when the reference itself fails: that is the reference's fault.
    if check.reason.startswith("harness error") and "the reference" in check.reason:
        return Reason.REFERENCE_FAILS
    return Reason.HARNESS_ERROR
