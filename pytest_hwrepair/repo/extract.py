"""A model's repository answer: a unified diff, or whole files each named by its repository path.

A block names a file when its info string, the line before it, a `<file name=...>` tag or a comment on
its first line holds the file's repository path (or a basename only one file of the repository has);
a block naming an HDL path the repository does not have is a new file. Blocks that are diffs are
joined into one diff. Nothing else is guessed: an answer without either is `parse_fail`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from .load import is_hdl
from .patch import PatchError, check_path

_HDL_PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.(?:v|sv|vh|svh))(?![\w-])")
_DIFF_START = re.compile(r"^(diff --git |--- \S)", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class RepoExtraction:
    """The files and/or diff found, else why nothing usable was."""

    files: dict[str, str] = field(default_factory=dict)
    diff: str | None = None
    error: str = ""
    how: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.files) or self.diff is not None


def extract_repository(raw: str, known: Collection[str], blocks: Sequence[tuple[str, str, bool]],
                       truncated: bool = False) -> RepoExtraction:
    """Files and diff from an answer; `blocks` are its (body, label, is a diff) code blocks."""
    if not raw.strip():
        return RepoExtraction(error="the response is empty")
    if truncated:
        return RepoExtraction(error="the response was cut off at the output limit")
    diffs = [body for body, _, is_diff in blocks if is_diff]
    files: dict[str, str] = {}
    for body, label, is_diff in blocks:
        path = None if is_diff else named_path(label, known)
        if path is not None:
            files[path] = body if body.endswith("\n") else body + "\n"
    start = _DIFF_START.search(raw) if not blocks else None
    if start is not None:  # a bare diff, no fence around it
        diffs = [raw[start.start():]]
    diff = "\n".join(d.rstrip("\n") for d in diffs) + "\n" if diffs else None
    if not files and diff is None:
        return RepoExtraction(error="no unified diff and no file named by its repository path found in the response")
    how = " and ".join(part for part in (f"{len(files)} named files" if files else "",
                                         "a unified diff" if diff else "") if part)
    return RepoExtraction(files, diff, how=how)


def named_path(label: str, known: Collection[str]) -> str | None:
    """The repository path a block label names: a known path, a unique basename, or a new HDL path."""
    for path in sorted(known, key=len, reverse=True):
        if re.search(r"(?<![\w./-])" + re.escape(path) + r"(?![\w-])", label):
            return path
    by_name: dict[str, list[str]] = {}
    for path in known:
        by_name.setdefault(PurePosixPath(path).name, []).append(path)
    for match in _HDL_PATH.finditer(label):
        token = match.group(1)
        if len(by_name.get(token, [])) == 1:
            return by_name[token][0]
        try:
            path = check_path(token)
        except PatchError:
            continue
        if "/" in path and is_hdl(path) and path not in by_name:
            return path
    return None


__all__ = ["RepoExtraction", "extract_repository", "named_path"]
