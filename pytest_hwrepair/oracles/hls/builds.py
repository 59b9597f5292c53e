"""Builds reused within a process: the strong oracle's build of a candidate is the suite oracle's.

The hls-diff strong oracle builds a candidate with the suite oracle's build command, in a fresh workspace laid
out from the same files, moments after the suite oracle built it. The suite oracle's build and run share one
closed step, the workspace as the build left it copied back apart (a batch's snapshot, sandbox/batch.py). A
build that succeeded is kept: what its workspace held after it (the accepted copy-back of the closed step) and
its Execution, keyed by the content hash of everything the workspace held before it (every path, mode and
byte), the command, the limits and the sandbox. A later build with the same key, whose deadline the kept build
met, gets that workspace back instead of compiling again. The kept copies live in a 0700 scratch directory of
this process that no step ever sees, and only a few are kept (the oldest goes first); a workspace holding
anything but directories and regular files is never keyed.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from ...sandbox import scratch
from ...sandbox.base import SNAPSHOT, Command, Execution, Limits, Sandbox, run_commands
from ...sandbox.local import transfer
from ...sandbox.local.transfer import remove, walk
from ..base import content_hash

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
        hit = self._restored(key, sandbox, timeout, workspace)
        if hit is not None:
            return Built(hit, reused=True)
        ex = sandbox.run(workspace, argv, timeout=timeout, limits=limits)
        if keep and key is not None and ex.ok:
            self._keep(key, sandbox, ex, workspace)
        return Built(ex)

    def build_and_run(self, sandbox: Sandbox, workspace: Path, argv: str, run: str, *, timeout: float,
                      limits: Limits) -> list[Execution]:
        """`build`, then `run` in the workspace it built (one Execution each, up to the first that failed): one
        closed step where the sandbox runs batches, the built workspace copied back apart to be kept."""
        key = workspace_key(workspace, sandbox.name, argv, repr(limits))
        hit = self._restored(key, sandbox, timeout, workspace)
        if hit is not None:
            return [hit, sandbox.run(workspace, run, timeout=timeout, limits=limits)]
        kept = Path(tempfile.mkdtemp(prefix=".hwrepair-kept-", dir=workspace.parent))
        try:
            done = run_commands(sandbox, workspace, [Command(argv, snapshot=True), Command(run)], timeout=timeout,
                                limits=limits, kept=kept)
            shot = kept / SNAPSHOT.format(1)
            if key is not None and done and done[0].ok and shot.is_dir():
                self._keep(key, sandbox, done[0], shot)
            return done
        finally:
            remove(kept)

    def _restored(self, key: str | None, sandbox: Sandbox, timeout: float, workspace: Path) -> Execution | None:
        """The kept build of this key made through this sandbox within `timeout`, its workspace restored."""
        hit = self.entries.get(key) if key is not None else None
        if hit is None or hit[0] is not sandbox or hit[1].duration > timeout:
            return None
        self.entries.move_to_end(key)  # type: ignore[arg-type]
        restore_tree(hit[2], workspace)
        return hit[1]

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
    return transfer.copy_tree(source, dest, MAX_BYTES)


def restore_tree(kept: Path, workspace: Path) -> None:
    for entry in os.scandir(workspace):
        remove(Path(entry.path))
    copy_tree(kept, workspace)


BUILDS = BuildCache()

__all__ = ["BUILDS", "BuildCache", "Built", "copy_tree", "restore_tree", "workspace_key"]
