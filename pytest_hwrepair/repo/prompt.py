"""What a model sees of a repository task: the issue, the file tree and a bounded view of the files.

The view shows whole files, README first, then the HDL sources, then the rest, until CONTEXT_CHARS
characters are used; the files left out are listed by name and size, so the tree stays complete.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import PurePosixPath

from .load import is_hdl

CONTEXT_CHARS = 120_000


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


__all__ = ["CONTEXT_CHARS", "repository_values"]
