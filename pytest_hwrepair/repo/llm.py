"""A language model's side of a repository task: what it sees, and the files or diff its answer holds.

The view shows whole files, README first, then the HDL sources, then the rest, until CONTEXT_CHARS
characters are used; the files left out are listed by name and size, so the tree stays complete.

An answer is a unified diff, or whole files each named by its repository path. A block names a file when its
info string, the line before it, a `<file name=...>` tag or a comment on its first line holds the file's
repository path (or a basename only one file of the repository has); a block naming an HDL path the
repository does not have is a new file. Blocks that are diffs are joined into one diff. Nothing else is
guessed: an answer without either is `parse_fail`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from .load import is_hdl
from .patch import PatchError, check_path

CONTEXT_CHARS = 120_000
_HDL_PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.(?:v|sv|vh|svh))(?![\w-])")
_DIFF_START = re.compile(r"^(diff --git |--- \S)", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class RepoExtraction:
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


def repository_values(files: Mapping[str, str], issue: str, language_of: Callable[[str], str]) -> dict[str, str]:
    """The `issue`, `tree` and `context` placeholders of the repository prompt."""
    tree = "\n".join(f"- {path} ({len(text.splitlines())} lines)" for path, text in sorted(files.items()))
    return {"issue": issue.strip(), "tree": tree, "context": _context(files, language_of)}


def _order(path: str) -> tuple[int, str]:
    if PurePosixPath(path).name.lower().startswith("readme"):
        return 0, path
    return (1 if is_hdl(path) else 2), path


def _context(files: Mapping[str, str], language_of: Callable[[str], str]) -> str:
    shown, left, used = [], [], 0
    for path in sorted(files, key=_order):
        text = files[path].rstrip("\n")
        block = f"{path}:\n```{language_of(path)}\n{text}\n```"
        if used + len(block) > CONTEXT_CHARS:
            left.append(f"{path} ({len(text.splitlines())} lines)")
            continue
        shown.append(block)
        used += len(block)
    if left:
        shown.append("Not shown (over the context budget): " + ", ".join(left))
    return "\n\n".join(shown)
