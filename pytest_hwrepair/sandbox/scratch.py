"""Scratch directories (workspaces, agent copies, step folders) that a killed run does not leave behind.

Each lives in an owner directory of its process under the temporary directory, holding a lock file the
process keeps locked while it lives. The lock goes with the process however it dies (SIGKILL included), so
the first scratch directory of a later process sweeps every owner directory whose lock it can take.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .local.transfer import remove
from .slots import lock

OWNER_PREFIX = "hwrepair-owner-"
LOCK = ".owner.lock"
_owner: tuple[int, Path, int] | None = None  # (pid, directory, locked descriptor)


def make(prefix: str) -> Path:
    """A fresh directory of this process (mode 0700), removed by the caller or swept after its death."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=owner_dir()))


@contextlib.contextmanager
def directory(prefix: str) -> Iterator[Path]:
    path = make(prefix)
    try:
        yield path
    finally:
        remove(path)


def owner_dir() -> Path:
    """This process's owner directory, made (after a sweep of dead owners' ones) on first use."""
    global _owner
    if _owner is not None and _owner[0] == os.getpid():
        return _owner[1]
    base = Path(tempfile.gettempdir())
    sweep(base)
    fresh = Path(tempfile.mkdtemp(prefix=f".{OWNER_PREFIX}new-", dir=base))
    fd = lock(fresh / LOCK, 0o600, wait=True)
    assert fd is not None
    # Searchable by the sandbox uids: a step folder inside is chowned to the step's uid.
    fresh.chmod(0o711)
    path = base / f"{OWNER_PREFIX}{os.getpid()}-{fresh.name.rsplit('-', 1)[-1]}"
    fresh.rename(path)  # a sweeper sees the owner only once it is locked
    _owner = (os.getpid(), path, fd)
    atexit.register(_release, os.getpid(), path)
    return path


def sweep(base: Path) -> int:
    """Remove the owner directories under `base` whose owner is gone; returns how many went."""
    try:
        dead = [Path(e.path) for e in os.scandir(base) if e.name.startswith(OWNER_PREFIX) and _dead_owner(Path(e.path))]
    except OSError:
        return 0
    for path in dead:
        remove(path)
    return len(dead)


def _dead_owner(path: Path) -> bool:
    """True when `path` is a real owner directory of this user whose lock no process holds."""
    try:
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            return False  # a link or someone else's: never followed, never removed
        fd = lock(path / LOCK, None)
    except OSError:
        return False
    if fd is None:
        return False
    os.close(fd)
    return True


def _release(pid: int, path: Path) -> None:
    """At a normal exit: the owner directory goes with whatever is still in it."""
    if os.getpid() == pid:
        remove(path)
