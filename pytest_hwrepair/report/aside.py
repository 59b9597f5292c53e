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
import struct
import tempfile
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, Generic, TypeVar

T = TypeVar("T")
A = TypeVar("A")
_SIZE = struct.Struct("<Q")
FORK_BUGS = 20_000  # below this many bugs a part is computed in place


def _answer(pid: int, fd: int) -> tuple[Any] | None:
    """(the value) a child sent back pickled on `fd` (closed after) and ended well, once reaped; else None."""
    with open(fd, "rb") as back:
        data = back.read()
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        with contextlib.suppress(Exception):
            return (pickle.loads(data),)
    return None


def _end(pid: int | None, *fds: int | None) -> None:
    """Close these descriptors, then kill and reap the child."""
    for fd in fds:
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
    if pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


class Aside(Generic[T]):
    """`compute()` started in a forked child (or kept to be run in place); `result()` is its value."""

    def __init__(self, compute: Callable[[], T], *, bugs: int, imports: bool = False) -> None:
        """`imports`: the part starts with an import that costs more than a fork (scipy.stats: 1.5 CPU-s here),
        so it is forked whatever the report's size."""
        self.compute = compute
        self.pid: int | None = None
        self.fd: int | None = None
        if (bugs >= FORK_BUGS or imports) and hasattr(os, "fork") and threading.active_count() == 1:
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
        answer = _answer(self.pid, fd)  # interrupted here, close() still ends the child
        self.pid = None
        return answer[0] if answer else self.compute()

    def close(self) -> None:
        """End a child whose result is not wanted (the report stopped)."""
        pid, fd = self.pid, self.fd
        self.pid = self.fd = None
        _end(pid, fd)

    def __enter__(self) -> Aside[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class Primed(Generic[A, T]):
    """`compute(input)` in a child forked before its input exists, which meanwhile runs `prepare()` (an import that
    costs more than the fork: scipy.stats, 1.5 CPU-s here, while this process reads the records).

    `give(input)` writes the pickled input to a file both share (unlinked, made before the fork) and then sends its
    length on a pipe; the child, once prepared, waits on that pipe, reads the input, computes, and sends the pickled
    result back on another pipe. A child that cannot be forked, fails or ends without a result costs nothing but
    its time: `result()` then computes here (an error is raised here, with its traceback)."""

    def __init__(self, prepare: Callable[[], object], compute: Callable[[A], T]) -> None:
        self.prepare, self.compute = prepare, compute
        self.pid: int | None = None
        self.signal: int | None = None  # write end: the input's length, once written
        self.back: int | None = None  # read end: the pickled result
        self.file: int | None = None
        self.given: list[A] = []
        if hasattr(os, "fork") and threading.active_count() == 1:
            self._start()

    def _start(self) -> None:
        with tempfile.TemporaryFile() as fh:
            data_fd = os.dup(fh.fileno())
        go_r, go_w = os.pipe()
        back_r, back_w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for fd in (data_fd, go_r, go_w, back_r, back_w):
                os.close(fd)
            return
        if pid == 0:  # the child: prepare, wait for the input, compute, send, end without this process's exit
            code = 1
            try:
                os.close(go_w)
                os.close(back_r)
                self.prepare()
                with open(go_r, "rb") as go:
                    head = go.read(_SIZE.size)
                if len(head) == _SIZE.size:
                    (size,) = _SIZE.unpack(head)
                    value = self.compute(pickle.loads(os.pread(data_fd, size, 0)))
                    with open(back_w, "wb") as out:
                        out.write(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
                    code = 0
            finally:
                os._exit(code)
        os.close(go_r)
        os.close(back_w)
        self.pid, self.signal, self.back, self.file = pid, go_w, back_r, data_fd

    @property
    def forked(self) -> bool:
        return self.pid is not None

    def give(self, value: A) -> None:
        """The input: sent to the child (or kept for `result` to compute here)."""
        self.given = [value]
        go, data = self.signal, self.file
        self.signal = self.file = None
        if go is None or data is None:
            return
        try:
            payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            written = 0
            while written < len(payload):
                written += os.pwrite(data, memoryview(payload)[written:], written)
            os.write(go, _SIZE.pack(len(payload)))
        except (OSError, pickle.PicklingError):
            self.close()  # computed here
        finally:
            os.close(data)
            with contextlib.suppress(OSError):
                os.close(go)

    def result(self) -> T:
        if not self.given:
            raise RuntimeError("Primed.result() before give()")
        fd = self.back
        if self.pid is None or fd is None:
            return self.compute(self.given[0])
        self.back = None
        answer = _answer(self.pid, fd)  # interrupted here, close() still ends the child
        self.pid = None
        return answer[0] if answer else self.compute(self.given[0])

    def close(self) -> None:
        """End a child whose result is not wanted."""
        pid, fds = self.pid, (self.signal, self.back, self.file)
        self.pid = self.signal = self.back = self.file = None
        _end(pid, *fds)

    def __enter__(self) -> Primed[A, T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


__all__ = ["FORK_BUGS", "Aside", "Primed"]
