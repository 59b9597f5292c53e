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


class Slots:
    """N numbered slots shared by every process that uses the same directory."""

    def __init__(self, directory: Path, count: int, *, private: bool = False) -> None:
        if count < 1:
            raise ValueError("slot count must be at least 1")
        self.directory = directory
        self.count = count
        self.private = private  # the directory must be this user's alone: no one else may plant or hold a slot

    def _prepare(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o755 if self.private else 0o777)
        if not self.private:
            return
        info = os.lstat(self.directory)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            raise RuntimeError(f"{self.directory}: not a directory of uid {os.geteuid()} that only it may write; "
                               "remove it (it holds only lock files)")

    @contextmanager
    def acquire(self) -> Iterator[int]:
        """Hold one slot for the block; yields its index (stable per slot: used for sandbox uids)."""
        self._prepare()
        delay = 0.01
        while True:
            for index in random.sample(range(self.count), self.count):
                fd = os.open(self.directory / f"slot-{index}.lock", os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW,
                             0o600 if self.private else 0o666)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                try:
                    yield index
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    os.close(fd)
                return
            time.sleep(delay)
            delay = min(delay * 1.5, 0.2)
