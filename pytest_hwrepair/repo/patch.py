"""Unified diffs over a file set: parse, apply, reverse, write and count hunks, without a `patch` binary.

A file set is a dict of repository-relative POSIX path -> text. Hunks apply exactly (no fuzz); a hunk may
move by any offset when its old lines occur once more cleanly elsewhere, nearest first, as GNU patch does.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

MAX_DIFF_CHARS = 4 << 20
MAX_DIFF_FILES = 512
NO_NEWLINE = "\\ No newline at end of file"
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_BAD_CHARS = re.compile(r"[\x00-\x1f\x7f\\]")


class PatchError(ValueError):
    """A diff that cannot be read or does not apply; the message is one line."""


@dataclass(frozen=True, slots=True)
class Hunk:
    """One `@@` block: lines tagged ' ', '-' or '+', each keeping its newline unless the file ends without one."""

    old_start: int
    new_start: int
    lines: tuple[tuple[str, str], ...]

    def old(self) -> list[str]:
        return [text for tag, text in self.lines if tag != "+"]

    def new(self) -> list[str]:
        return [text for tag, text in self.lines if tag != "-"]

    def reversed(self) -> Hunk:
        swap = {" ": " ", "-": "+", "+": "-"}
        return Hunk(self.new_start, self.old_start, tuple((swap[tag], text) for tag, text in self.lines))


@dataclass(frozen=True, slots=True)
class FilePatch:
    """The hunks of one file; `old_path` None creates the file, `new_path` None deletes it."""

    old_path: str | None
    new_path: str | None
    hunks: tuple[Hunk, ...]

    @property
    def path(self) -> str:
        path = self.new_path or self.old_path
        assert path is not None
        return path

    def reversed(self) -> FilePatch:
        return FilePatch(self.new_path, self.old_path, tuple(h.reversed() for h in self.hunks))


def check_path(path: str) -> str:
    """A repository-relative POSIX path, normalised; raises PatchError for anything that could leave the tree."""
    text = path.removeprefix("./")
    parts = PurePosixPath(text).parts
    if not text or text.startswith("/") or _BAD_CHARS.search(text) or any(p in ("..", ".") for p in parts):
        raise PatchError(f"path {path!r} is not a relative path inside the repository")
    return "/".join(parts)


def lines_of(text: str) -> list[str]:
    """Lines split on newline only (form feeds and other separators stay inside their line)."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def parse(text: str) -> list[FilePatch]:
    """Every file section of a unified diff (git, `diff -ruN` or difflib headers); PatchError when malformed."""
    if len(text) > MAX_DIFF_CHARS:
        raise PatchError(f"the diff has {len(text)} characters; at most {MAX_DIFF_CHARS} are read")
    lines = lines_of(text)
    patches: list[FilePatch] = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            old, new = _header_paths(lines[i], lines[i + 1])
            hunks, i = _hunks(lines, i + 2, old or new or "?")
            patches.append(FilePatch(old, new, tuple(hunks)))
            if len(patches) > MAX_DIFF_FILES:
                raise PatchError(f"the diff changes more than {MAX_DIFF_FILES} files")
        elif lines[i].startswith("@@"):
            raise PatchError(f"line {i + 1}: a hunk without its ---/+++ file header")
        else:
            i += 1
    if not patches:
        raise PatchError("no file header (--- a/PATH, +++ b/PATH) found: not a unified diff")
    return patches


def _header_paths(old_line: str, new_line: str) -> tuple[str | None, str | None]:
    old, new = _raw_path(old_line[4:]), _raw_path(new_line[4:])
    if old is None and new is None:
        raise PatchError("a file header names /dev/null on both sides")
    old, new = _strip_prefix(old, new)
    old = check_path(old) if old is not None else None
    new = check_path(new) if new is not None else None
    if old is not None and new is not None and old != new:
        raise PatchError(f"{old} -> {new}: renames are not supported; delete the old file and create the new one")
    return old, new


def _raw_path(text: str) -> str | None:
    path = text.rstrip("\n").split("\t", 1)[0].strip()
    if path.startswith('"') and path.endswith('"'):
        raise PatchError(f"quoted path {path}: use plain repository paths")
    return None if path == "/dev/null" else path


def _strip_prefix(old: str | None, new: str | None) -> tuple[str | None, str | None]:
    """Drop git's a/ b/ prefixes, or the differing first folder of `diff -ruN left right`."""
    if all(p is None or p.startswith(prefix) for p, prefix in ((old, "a/"), (new, "b/"))):
        return (old[2:] if old else None), (new[2:] if new else None)
    if old is not None and new is not None and "/" in old and "/" in new:
        (lhead, ltail), (rhead, rtail) = old.split("/", 1), new.split("/", 1)
        if ltail == rtail and lhead != rhead:
            return ltail, rtail
    return old, new


def _hunks(lines: list[str], i: int, path: str) -> tuple[list[Hunk], int]:
    hunks: list[Hunk] = []
    while i < len(lines) and lines[i].startswith("@@"):
        if (m := _HUNK.match(lines[i])) is None:
            raise PatchError(f"{path}: malformed hunk header {lines[i].rstrip()!r}")
        old_len, new_len = (int(m.group(k) or 1) for k in (2, 4))
        body, i = _hunk_body(lines, i + 1, old_len, new_len, path)
        hunks.append(Hunk(int(m.group(1)), int(m.group(3)), tuple(body)))
    return hunks, i


def _hunk_body(lines: list[str], i: int, old_len: int, new_len: int, path: str) -> tuple[list[tuple[str, str]], int]:
    body: list[tuple[str, str]] = []
    olds = news = 0
    while olds < old_len or news < new_len or (i < len(lines) and lines[i].startswith("\\") and body):
        if i >= len(lines):
            raise PatchError(f"{path}: a hunk ends early (expected {old_len} old and {new_len} new lines)")
        line = lines[i]
        tag, text = (line[0], line[1:]) if line not in ("\n", "") else (" ", "\n")
        if tag == "\\" and body:
            body[-1] = (body[-1][0], body[-1][1].removesuffix("\n"))
        elif tag in " -+":
            body.append((tag, text))
            olds += tag != "+"
            news += tag != "-"
        else:
            raise PatchError(f"{path}: unexpected line in a hunk: {line.rstrip()[:80]!r}")
        i += 1
    if olds != old_len or news != new_len:
        raise PatchError(f"{path}: a hunk's line counts do not match its header")
    return body, i


def apply(files: Mapping[str, str], patches: list[FilePatch]) -> dict[str, str]:
    """A new file set with every file patch applied in order; PatchError naming the file and hunk otherwise."""
    out = dict(files)
    for fp in patches:
        if fp.old_path is None or (fp.old_path not in out and not any(h.old() for h in fp.hunks)):
            # `diff -N` names an absent file with an epoch timestamp instead of /dev/null
            if fp.path in out:
                raise PatchError(f"{fp.path}: the diff creates a file that already exists")
            out[fp.path] = _apply_hunks("", fp)
        elif fp.old_path not in out:
            raise PatchError(f"{fp.old_path}: the diff changes a file that does not exist")
        elif fp.new_path is None:
            if _apply_hunks(out[fp.old_path], fp) != "":
                raise PatchError(f"{fp.old_path}: the diff deletes the file but its removed lines differ")
            del out[fp.old_path]
        else:
            out[fp.path] = _apply_hunks(out[fp.path], fp)
    return out


def reverse(patches: list[FilePatch]) -> list[FilePatch]:
    """The diff that undoes `patches` (applied to their result, gives their input)."""
    return [fp.reversed() for fp in reversed(patches)]


def _apply_hunks(text: str, fp: FilePatch) -> str:
    lines = lines_of(text)
    offset, floor = 0, 0
    for number, hunk in enumerate(fp.hunks, 1):
        old, new = hunk.old(), hunk.new()
        expected = (hunk.old_start if not old else hunk.old_start - 1) + offset
        if (at := _find(lines, old, expected, floor)) is None:
            raise PatchError(f"{fp.path}: hunk {number} (@@ -{hunk.old_start}) does not apply")
        lines[at:at + len(old)] = new
        offset += (at - expected) + len(new) - len(old)
        floor = at + len(new)
    return "".join(lines)


def _find(lines: list[str], old: list[str], expected: int, floor: int) -> int | None:
    """The match of `old` nearest to `expected`, at or after `floor`."""
    if not old:
        return min(max(expected, floor), len(lines))
    size = len(old)
    hits = [at for at in range(floor, len(lines) - size + 1) if lines[at:at + size] == old]
    return min(hits, key=lambda at: (abs(at - expected), at)) if hits else None


def write(before: Mapping[str, str], after: Mapping[str, str], context: int = 3) -> str:
    """The unified diff (a/ b/ headers, sorted by path) that turns `before` into `after`."""
    out: list[str] = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        out.append(f"--- {'a/' + path if old is not None else '/dev/null'}\n")
        out.append(f"+++ {'b/' + path if new is not None else '/dev/null'}\n")
        out.extend(_hunk_text(lines_of(old or ""), lines_of(new or ""), context))
    return "".join(out)


def _hunk_text(a: list[str], b: list[str], context: int) -> Iterator[str]:
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        yield f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n"
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                yield from (_line(" ", x) for x in a[a1:a2])
                continue
            yield from (_line("-", x) for x in a[a1:a2])
            yield from (_line("+", x) for x in b[b1:b2])


def _range(start: int, stop: int) -> str:
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if length == 0 else start + 1},{length}"


def _line(tag: str, text: str) -> str:
    return f"{tag}{text}" if text.endswith("\n") else f"{tag}{text}\n{NO_NEWLINE}\n"


def hunk_count(before: str, after: str, context: int = 3) -> int:
    """Hunks of the diff between two texts at the usual three lines of context."""
    matcher = difflib.SequenceMatcher(None, lines_of(before), lines_of(after), autojunk=False)
    return sum(1 for _ in matcher.get_grouped_opcodes(context)) if before != after else 0


def changed_paths(before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    """Paths added, removed or changed between two file sets, sorted."""
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
