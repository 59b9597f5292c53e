"""Parts of a large report computed by a forked process while this one builds the rest.

A report over 100 000 bugs spends seconds on parts that need nothing of each other once the records are
folded: the scoreboard summary, the per-bug rows, the tables, the rank statistics (and scipy's import, 0.6 s).
A machine with a second core does some of them at once. A part runs in a child forked from this process
(it sees everything this one holds, nothing is sent to it) and sends back only its result; a child that
fails or ends without a result costs nothing but its time: the part is computed here instead, as it would
have been without the child (an error it raises is raised here, with its traceback). Only a process with no
other thread forks (a lock another thread held would stay locked in the child), and only for a report
large enough that a fork costs less than it saves.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Generic, TypeVar

T = TypeVar("T")
FORK_BUGS = 20_000  # below this many bugs a part is computed in place


class Aside(Generic[T]):
    """`compute()` started in a forked child (or kept to be run in place); `result()` is its value."""

    def __init__(self, compute: Callable[[], T], *, bugs: int) -> None:
        self.compute = compute
        self.pid: int | None = None
        self.fd: int | None = None
        if bugs >= FORK_BUGS and hasattr(os, "fork") and threading.active_count() == 1:
            self._start()

    @property
    def forked(self) -> bool:
        return self.pid is not None

    def _start(self) -> None:
        r, w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(r)
            os.close(w)
            return
        if pid == 0:  # the child: compute, send, end without anything of this process's exit
            code = 1
            try:
                os.close(r)
                data = pickle.dumps(self.compute(), protocol=pickle.HIGHEST_PROTOCOL)
                with open(w, "wb") as out:
                    out.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        self.pid, self.fd = pid, r

    def result(self) -> T:
        fd = self.fd
        if self.pid is None or fd is None:
            return self.compute()
        self.fd = None
        with open(fd, "rb") as back:  # interrupted here, close() still ends the child
            data = back.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if os.waitstatus_to_exitcode(status) == 0:
            with contextlib.suppress(Exception):
                value: T = pickle.loads(data)
                return value
        return self.compute()

    def close(self) -> None:
        """End a child whose result is not wanted (the report stopped)."""
        pid, fd = self.pid, self.fd
        self.pid = self.fd = None
        if fd is not None:
            os.close(fd)
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)

    def __enter__(self) -> Aside[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


__all__ = ["FORK_BUGS", "Aside"]
