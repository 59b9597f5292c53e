"""A cross-process counting semaphore made of lock files: oracle steps take a slot each."""

from __future__ import annotations

import fcntl
import os
import random
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

POLL_MAX = 0.005  # the longest a waiting process sleeps between looks at the slots


class Slots:
    """N numbered slots shared by every process that uses the same directory."""

    def __init__(self, directory: Path, count: int, *, private: bool = False, also: Slots | None = None) -> None:
        if count < 1:
            raise ValueError("slot count must be at least 1")
        self.directory = directory
        self.count = count
        self.private = private  # the directory must be this user's alone: no one else may plant or hold a slot
        self.also = also  # another pool whose slot of the same index is held too (see sandbox.local.UID_POOL)

    def _prepare(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o755 if self.private else 0o777)
        if self.also is not None:
            self.also._prepare()
        if not self.private:
            return
        info = os.lstat(self.directory)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            raise RuntimeError(f"{self.directory}: not a directory of uid {os.geteuid()} that only it may write; "
                               "remove it (it holds only lock files)")

    def _take(self, index: int) -> list[int] | None:
        """The locked descriptors of slot `index` (here and in `also`), or None when one is held elsewhere."""
        fd = lock(self.directory / f"slot-{index}.lock", 0o600 if self.private else 0o666)
        if fd is None:
            return None
        more = self.also._take(index) if self.also is not None else []
        if more is None:
            _release([fd])
            return None
        return [fd, *more]

    @contextmanager
    def acquire(self) -> Iterator[int]:
        """Hold one slot for the block; yields its index (stable per slot: used for sandbox uids)."""
        self._prepare()
        index, fds = self._try() or self._wait()
        try:
            yield index
        finally:
            _release(fds)

    def _try(self) -> tuple[int, list[int]] | None:
        """One pass over the slots in random order: a free slot's index and its locked descriptors."""
        for index in random.sample(range(self.count), self.count):
            fds = self._take(index)
            if fds is not None:
                return index, fds
        return None

    def _wait(self) -> tuple[int, list[int]]:
        """Poll for a slot; only the first waiter polls, the others sleep in the kernel on the queue lock: many
        pollers would take the CPU the slot holders need, and a step takes tens of milliseconds, so one poller
        every few milliseconds keeps a freed slot idle only that long."""
        queue = lock(self.directory / "queue.lock", 0o600 if self.private else 0o666, wait=True)
        assert queue is not None
        try:
            delay = 0.001
            while True:
                taken = self._try()
                if taken is not None:
                    return taken
                time.sleep(delay)
                delay = min(delay * 1.5, POLL_MAX)
        finally:
            _release([queue])


def lock(path: Path, mode: int | None, *, wait: bool = False) -> int | None:
    """A descriptor of `path` holding its exclusive lock, never through a link; None when another process holds
    it and not `wait`. With `mode`, a missing file is made with that mode; without, it is an OSError."""
    fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | (os.O_CREAT if mode is not None else 0), mode or 0)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _release(fds: list[int]) -> None:
    for fd in fds:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
