"""A cross-process counting semaphore made of lock files: oracle steps take a slot each."""

from __future__ import annotations

import fcntl
import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class Slots:
    """N numbered slots shared by every process that uses the same directory."""

    def __init__(self, directory: Path, count: int) -> None:
        if count < 1:
            raise ValueError("slot count must be at least 1")
        self.directory = directory
        self.count = count

    @contextmanager
    def acquire(self) -> Iterator[int]:
        """Hold one slot for the block; yields its index (stable per slot: used for sandbox uids)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        taken = self._try()
        if taken is None:
            taken = self._wait()
        index, fd = taken
        try:
            yield index
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def _try(self) -> tuple[int, int] | None:
        """One pass over the slots in random order: a free slot's index and its locked descriptor."""
        for index in random.sample(range(self.count), self.count):
            fd = os.open(self.directory / f"slot-{index}.lock", os.O_CREAT | os.O_RDWR, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return index, fd
        return None

    def _wait(self) -> tuple[int, int]:
        """Poll for a slot; only the first waiter polls, the others sleep in the kernel on the queue lock.

        With sixteen workers waiting on two slots, sixteen pollers would wake the CPU the slot holders need.
        """
        queue = os.open(self.directory / "queue.lock", os.O_CREAT | os.O_RDWR, 0o666)
        try:
            fcntl.flock(queue, fcntl.LOCK_EX)
            delay = 0.005
            while True:
                taken = self._try()
                if taken is not None:
                    return taken
                time.sleep(delay)
                delay = min(delay * 1.5, 0.05)
        finally:
            fcntl.flock(queue, fcntl.LOCK_UN)
            os.close(queue)
