"""Builds reused within a process: the strong oracle's build of a candidate is the suite oracle's.

The hls-diff strong oracle builds a candidate with the suite oracle's build command, in a fresh workspace laid
out from the same files, moments after the suite oracle built it. A build that succeeded is kept: what its
workspace held after it (the accepted copy-back of the closed step) and its Execution, keyed by the content
hash of everything the workspace held before it (every path, mode and byte), the command, the limits and the
sandbox. A later build with the same key, whose deadline the kept build met, gets that workspace back
instead of compiling again. The kept copies live in a 0700 scratch directory of this process that no step
ever sees, and only a few are kept (the oldest goes first); a workspace holding anything but directories and
regular files is never keyed.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from ..sandbox import scratch
from ..sandbox.base import Execution, Limits, Sandbox
from ..sandbox.transfer import remove, walk
from .base import content_hash

KEPT = 4
MAX_BYTES = 32 << 20  # a workspace larger than this before or after its build is not kept


@dataclass(frozen=True, slots=True)
class Built:
    """A build's outcome: its Execution, and whether it was reused rather than run."""

    ex: Execution
    reused: bool = False


class BuildCache:
    """The last few successful builds of this process (see the module's text)."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        # key -> (the sandbox that built it, its Execution, the kept workspace); a build is only ever reused
        # through the very sandbox that ran it.
        self.entries: OrderedDict[str, tuple[Sandbox, Execution, Path]] = OrderedDict()

    def build(self, sandbox: Sandbox, workspace: Path, argv: str, *, timeout: float, limits: Limits,
              keep: bool = True) -> Built:
        """Run `argv` as the build step in `workspace`, or restore the workspace a same build left; `keep`
        False for a build that only takes one (nothing later builds those files again)."""
        key = workspace_key(workspace, sandbox.name, argv, repr(limits))
        hit = self.entries.get(key) if key is not None else None
        if hit is not None and hit[0] is sandbox and hit[1].duration <= timeout:
            self.entries.move_to_end(key)  # type: ignore[arg-type]
            restore_tree(hit[2], workspace)
            return Built(hit[1], reused=True)
        ex = sandbox.run(workspace, argv, timeout=timeout, limits=limits)
        if keep and key is not None and ex.ok:
            self._keep(key, sandbox, ex, workspace)
        return Built(ex)

    def _keep(self, key: str, sandbox: Sandbox, ex: Execution, workspace: Path) -> None:
        copy = scratch.make("hwrepair-build-")
        if not copy_tree(workspace, copy):
            remove(copy)
            return
        old = self.entries.pop(key, None)
        if old is not None:
            remove(old[2])
        self.entries[key] = (sandbox, ex, copy)
        while len(self.entries) > self.size:
            remove(self.entries.popitem(last=False)[1][2])

    def clear(self) -> None:
        while self.entries:
            remove(self.entries.popitem()[1][2])


def workspace_key(workspace: Path, *parts: str, unread: frozenset[str] = frozenset()) -> str | None:
    """The content hash of a workspace (paths, modes, bytes) and `parts`; None if it holds anything else. The
    files named in `unread` count by path and mode only."""
    items: list[str | bytes] = list(parts)
    total = 0
    for name, info in walk(workspace):
        if stat.S_ISDIR(info.st_mode):
            items += ["d", name, oct(stat.S_IMODE(info.st_mode))]
            continue
        if not stat.S_ISREG(info.st_mode):
            return None
        if name in unread:
            items += ["f", name, oct(stat.S_IMODE(info.st_mode))]
            continue
        total += info.st_size
        if total > MAX_BYTES:
            return None
        items += ["f", name, oct(stat.S_IMODE(info.st_mode)), _read(workspace, name)]
    return content_hash(*items)


def _read(root: Path, name: str) -> bytes:
    fd = os.open(root / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def copy_tree(source: Path, dest: Path) -> bool:
    """Copy directories and regular files (modes and times kept); False if there is anything else or too much."""
    total = 0
    for name, info in walk(source):
        if stat.S_ISDIR(info.st_mode):
            (dest / name).mkdir()
            continue
        total += info.st_size
        if not stat.S_ISREG(info.st_mode) or total > MAX_BYTES:
            return False
        shutil.copy2(source / name, dest / name, follow_symlinks=False)
    for name, info in walk(source):  # modes of directories last: a read-only one would refuse its files
        if stat.S_ISDIR(info.st_mode):
            os.chmod(dest / name, stat.S_IMODE(info.st_mode) | 0o700)
    return True


def restore_tree(kept: Path, workspace: Path) -> None:
    for entry in os.scandir(workspace):
        remove(Path(entry.path))
    copy_tree(kept, workspace)


BUILDS = BuildCache()

__all__ = ["BUILDS", "BuildCache", "Built", "copy_tree", "restore_tree", "workspace_key"]
