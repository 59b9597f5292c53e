"""Reading files a candidate or an agent may have planted: no links, regular files only, capped.

Every file the harness reads from a workspace goes through `read_untrusted`: a workspace is written
by candidate code, which may replace an output with a symlink to a secret, a FIFO that never ends,
`/dev/zero`, or a file of gigabytes.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

READ_CAP = 8 << 20
TRUNCATED = "\n[... output truncated: {dropped} more bytes not kept ...]\n"


class UntrustedFileError(Exception):
    """The file is not a plain regular file inside the workspace (a link, a FIFO, a device, a directory)."""


@dataclass(frozen=True, slots=True)
class UntrustedText:
    """The first `cap` bytes of a file, decoded leniently, and how many bytes were left unread."""

    text: str
    dropped: int

    @property
    def truncated(self) -> bool:
        return self.dropped > 0


def truncation_marker(dropped: int) -> str:
    """The visible marker appended where bytes were dropped (one wording for every cap)."""
    return TRUNCATED.format(dropped=dropped)


def with_marker(data: bytes, dropped: int) -> str:
    """Kept bytes of a capped output, decoded leniently, with the marker when `dropped` bytes were not kept."""
    text = data.decode("utf-8", errors="replace")
    return text + truncation_marker(dropped) if dropped else text


def read_untrusted(root: Path, name: str, cap: int = READ_CAP, *, whole: bool = False) -> UntrustedText:
    """Read `root/name` without following any link on the way; raises UntrustedFileError or OSError. With
    `whole`, a file larger than `cap` is refused before any of it is read."""
    parts = Path(name).parts
    if Path(name).is_absolute() or ".." in parts or not parts:
        raise UntrustedFileError(f"{name!r}: not a relative path inside the workspace")
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[:-1]:
            nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = nxt
        return _read_leaf(fd, parts[-1], name, cap, whole)
    finally:
        os.close(fd)


def _read_leaf(dir_fd: int, leaf: str, name: str, cap: int, whole: bool) -> UntrustedText:
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOFOLLOW: a symlink fails (ELOOP).
        fd = os.open(leaf, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the leaf is a symbolic link
            raise UntrustedFileError(f"{name!r} is a symbolic link, not a regular file") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UntrustedFileError(f"{name!r} is not a regular file ({_kind(info.st_mode)})")
        if whole and info.st_size > cap:
            raise UntrustedFileError(f"{name!r} has {info.st_size} bytes, more than the {cap}-byte read cap")
        chunks: list[bytes] = []
        got = 0
        while got <= cap and (chunk := os.read(fd, min(1 << 20, cap + 1 - got))):
            chunks.append(chunk)
            got += len(chunk)
        data = b"".join(chunks)
        kept = data[:cap]
        dropped = max(info.st_size, len(data)) - len(kept) if len(data) > cap else 0
        return UntrustedText(kept.decode("utf-8", errors="replace"), dropped)
    finally:
        os.close(fd)


def read_optional(root: Path, name: str, cap: int = READ_CAP) -> str | None:
    """The text of `root/name`, or None when it is missing or not a plain regular file."""
    try:
        return read_untrusted(root, name, cap).text
    except (OSError, UntrustedFileError):
        return None


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a device"),
             (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))
    return next((kind for test, kind in kinds if test(mode)), "not a plain file")


def cap_text(text: str, cap: int) -> str:
    """At most `cap` characters of an untrusted text, with the marker when cut."""
    if len(text) <= cap:
        return text
    return text[:cap] + truncation_marker(len(text) - cap)
