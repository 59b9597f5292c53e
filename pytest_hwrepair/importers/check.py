"""The two-sided check an importer keeps instances by: `hwrepair validate` over freshly written cases."""

from __future__ import annotations

from dataclasses import replace
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
    ("syntactic bug does not fail lint", Reason.WRONG_FAILURE),
    ("behavioural bug does not lint clean", Reason.WRONG_FAILURE),
    ("behavioural bug is proved equivalent", Reason.EQUIVALENT),
)


def two_sided(paths: list[Path], *, jobs: int, cache_dir: Path) -> dict[tuple[str, str], BugCheck]:
    """validate's verdict per (case.toml path, bug id), run as `hwrepair validate` runs it."""
    settings = Settings.from_sources({"oracle_jobs": str(jobs), "cache_dir": str(cache_dir)}, {})
    sandbox = make_sandbox(settings, cache_dir)
    checks = validate(paths, sandbox=sandbox, cache_dir=cache_dir, jobs=jobs)
    return {(check.path, check.bug): check for check in checks}


# validate's rules that read a bug's type as the way it must fail. A label that names the shape of an
# edit (Chrysalis' INF: a changed loop bound or exit) makes no such promise: most of those edits end in
# a crash or a wrong result, which is as observable as a hang.
_LABEL_RULES = ("INF bug does not fail by timeout",)


def shape_labels(check: BugCheck) -> BugCheck:
    """The verdict with the type labels read as edit shapes: a bug rejected only for failing another way
    than its label suggests is accepted (the reference passed, the bug builds and fails, as for any bug)."""
    if check.status == "rejected" and check.reason.startswith(_LABEL_RULES):
        return replace(check, status="accepted", reason="")
    return check


def failure(check: BugCheck) -> str:
    """How the bug fails, from validate's `noop` field (`failed/runtime_crash` -> `runtime_crash`)."""
    return check.noop.rpartition("/")[2]


def rejection_reason(check: BugCheck) -> Reason:
    """The import log's reason for a bug `validate` rejected."""
    for prefix, reason in _REASONS:
        if check.reason.startswith(prefix):
            return reason
    # An output-diff oracle raises when the reference itself fails: that is the reference's fault.
    if check.reason.startswith("harness error") and "the reference" in check.reason:
        return Reason.REFERENCE_FAILS
    return Reason.HARNESS_ERROR
