"""What the sample runner asks of a repository case: the candidate's file set, its localisation, feedback."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cases.case import Case
from ..fixers.base import Candidate
from ..oracles.base import Judge, TreeAttempt
from ..verdict import Category, Verdict
from .candidate import Shaped, shape
from .load import RepoParts
from .localise import Gold, Localisation

FEEDBACK_LOG_LINES = 60
FEEDBACK = """\
The repository still does not resolve the issue after your change: {summary}.

Failure log of test {test}:
{log}

Fix the design so that this test passes and every other test still passes, and answer as before."""


def repo_attempt(case: Case, snapshot: Mapping[str, str], candidate: Candidate, judge: Judge, *, attempt: int,
                 arm: bool) -> TreeAttempt:
    """Shape the candidate into a repository, judge it, and add its localisation against the gold patch."""
    shaped = shape(parts_of(case), snapshot, candidate.files, candidate.diff)
    strong: bool | None = None
    if not candidate.parsed or shaped.files is None:
        reason = candidate.parse_error or shaped.error or "no code could be extracted from the response"
        verdict = Verdict.fail(Category.PARSE_FAIL, reason)
    else:
        verdict, strong = judge(shaped.files)
    verdict = verdict.with_metrics(repo=localisation(case, snapshot, shaped, verdict, attempt=attempt, arm=arm))
    text = shaped.diff if shaped.files is not None and candidate.parsed else None
    return TreeAttempt(verdict, strong, text or "", text)


def parts_of(case: Case) -> RepoParts:
    if not isinstance(case.repo, RepoParts):
        raise ValueError(f"{case.path}: not a repository case")
    return case.repo


def localisation(case: Case, snapshot: Mapping[str, str], shaped: Shaped, verdict: Verdict, *, attempt: int,
                 arm: bool) -> dict[str, Any]:
    """The sample's `repo` metrics: edits against the gold patch, tier, failure stage, round and arm."""
    gold = Gold.between(snapshot, parts_of(case).tree)
    files = shaped.files if shaped.files is not None else snapshot
    found = Localisation.of(snapshot, files, gold).to_json(verdict.passed)
    return {**found, "round": attempt, "arm": "feedback" if arm else "none",
            "discarded": list(shaped.discarded), "ignored": list(shaped.ignored)}


def repo_keywords(case: Case, bug_id: str) -> tuple[str, ...]:
    """Item keywords of a repository instance: `repo` and its tier, so `-k T3` selects by difficulty."""
    if case.repo is None:
        return ()
    parts = parts_of(case)
    tier = Gold.between(parts.snapshots[bug_id], parts.tree).tier
    return ("repo", tier.value)


def feedback_text(verdict: Verdict) -> str:
    """The feedback arm's message: the verdict line and the failing test's log (compile or runtime)."""
    lines = verdict.log_tail.splitlines()
    test = str(verdict.metrics.get("failed_test") or "?")
    log = "\n".join(lines[-FEEDBACK_LOG_LINES:]) or "(no log)"
    return FEEDBACK.format(summary=verdict.summary, test=test, log=log)


__all__ = ["feedback_text", "localisation", "parts_of", "repo_attempt", "repo_keywords"]
