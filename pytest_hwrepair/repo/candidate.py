"""A repository candidate as a file set (an agent's workspace, a model's files or diff, over the snapshot), and
what the sample runner asks of it: its verdict with its localisation, and the feedback arm's message.

Rules every candidate kind shares:
* paths stay inside the repository; a diff applies exactly or the candidate is `parse_fail`;
* edits to harness-owned testbench paths are discarded (the harness writes its own copy anyway);
* a new file is kept only when it is an HDL source: anything else an agent leaves behind (simulator
  outputs, logs, object folders) is a build output, not part of the repair;
* bounded: at most MAX_FILES files and MAX_BYTES of text, each file at most FILE_CAP bytes.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cases.case import Case
from ..fixers.base import Candidate
from ..oracles.base import Judge, TreeAttempt
from ..sandbox.untrusted import UntrustedFileError, read_untrusted
from ..verdict import Category, Verdict
from .load import RepoParts, is_hdl
from .localise import Gold, Localisation
from .patch import PatchError, apply, changed_paths, check_path, parse, write

MAX_FILES = 4000
MAX_BYTES = 32 << 20
FILE_CAP = 1 << 20
MAX_WALK = 20000
FEEDBACK_LOG_LINES = 60
FEEDBACK = """\
The repository still does not resolve the issue after your change: {summary}.

Failure log of test {test}:
{log}

Fix the design so that this test passes and every other test still passes, and answer as before."""


class CandidateError(ValueError):
    """The candidate cannot be turned into a repository: one line saying why."""


@dataclass(frozen=True)
class Shaped:
    """The candidate repository (None when there is none), its diff from the snapshot and what was dropped."""

    files: dict[str, str] | None
    diff: str = ""
    discarded: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    error: str = ""


def read_workspace(root: Path, known: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """The repository an agent left in `root`, bounded: regular files only (links never followed), and the
    ignored paths (links, special files, new files that are not HDL sources)."""
    known = set(known)
    files: dict[str, str] = {}
    ignored: list[str] = []
    size = seen = 0
    for folder, dirs, names in os.walk(root):  # os.walk never descends into linked folders
        dirs.sort()
        for name in sorted(names) + sorted(d for d in dirs if os.path.islink(os.path.join(folder, d))):
            rel = Path(folder, name).relative_to(root).as_posix()
            seen += 1
            if seen > MAX_WALK:
                raise CandidateError(f"the workspace holds more than {MAX_WALK} entries")
            info = os.lstat(root / rel)
            if not stat.S_ISREG(info.st_mode) or not (rel in known or is_hdl(rel)):
                ignored.append(rel)
                continue
            if info.st_size > FILE_CAP:
                raise CandidateError(f"{rel} has {info.st_size} bytes; a repository file may have at most {FILE_CAP}")
            try:
                text = read_untrusted(root, rel, FILE_CAP).text
            except (UntrustedFileError, OSError):
                ignored.append(rel)  # replaced by a link or a special file after the walk saw it
                continue
            size += len(text)
            if size > MAX_BYTES or len(files) >= MAX_FILES:
                raise CandidateError(f"the repository grew beyond {MAX_FILES} files or {MAX_BYTES} bytes")
            files[rel] = text
    return files, ignored


def workspace_diff(root: Path, snapshot: Mapping[str, str]) -> tuple[str, list[str]]:
    """An agent's repository candidate: the diff from the snapshot to what it left in `root`, and what was ignored."""
    files, ignored = read_workspace(root, snapshot)
    return write(snapshot, files), ignored


def shape(parts: RepoParts, snapshot: Mapping[str, str], files: Mapping[str, str], diff: str | None) -> Shaped:
    """The snapshot with the candidate's files laid over it, then its diff applied; testbench edits undone."""
    try:
        result = dict(snapshot)
        for name, text in files.items():
            result[check_path(name)] = text
        if diff and diff.strip():
            result = apply(result, parse(diff))
    except PatchError as exc:
        return Shaped(None, error=f"the candidate diff does not apply to the repository: {exc}")
    discarded, ignored = [], []
    for path in changed_paths(snapshot, result):
        if parts.is_testbench(path):
            discarded.append(path)
            if path in snapshot:
                result[path] = snapshot[path]
            else:
                del result[path]
        elif path not in snapshot and not is_hdl(path):
            ignored.append(path)
            del result[path]
    if len(result) > MAX_FILES or sum(len(t) for t in result.values()) > MAX_BYTES:
        return Shaped(None, error=f"the candidate repository exceeds {MAX_FILES} files or {MAX_BYTES} bytes")
    return Shaped(result, write(snapshot, result), tuple(discarded), tuple(ignored))


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
    return ("repo", Gold.between(parts.snapshots[bug_id], parts.tree).tier.value)


def feedback_text(verdict: Verdict) -> str:
    """The feedback arm's message: the verdict line and the failing test's log (compile or runtime)."""
    log = "\n".join(verdict.log_tail.splitlines()[-FEEDBACK_LOG_LINES:]) or "(no log)"
    return FEEDBACK.format(summary=verdict.summary, test=str(verdict.metrics.get("failed_test") or "?"), log=log)
