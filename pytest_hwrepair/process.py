"""Processes the harness starts: how one ended, and ending one with everything in its group.

Stdlib only: the container agent (`sandbox/docker_agent.py`) is sent into containers as one
source file and keeps its own copy of `kill_group`; everything on the host uses these.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import io
import os
import select
import signal
import subprocess
import sys
import threading
import time
from typing import NoReturn

# What holds written data until it is flushed (an exit flushes a file left open).
BUFFERED = (io.BufferedWriter, io.BufferedRandom, io.BufferedRWPair, io.TextIOWrapper)
# The status an interpreter ends with when it cannot flush its standard output at exit.
FLUSH_FAILED = 120


def signal_of(returncode: int | None) -> int | None:
    """The signal that ended a process, from a negative status or a shell's 128+N."""
    if returncode is None:
        return None
    if returncode < 0:
        return -returncode
    return returncode - 128 if 128 < returncode < 160 else None


def alive(pid: int) -> bool:
    """Whether a process with this pid exists (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_group(pgid: int, sig: int = signal.SIGKILL) -> None:
    """Signal a whole process group; one that has already gone is no error."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def wait_exit(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait for a child to end, woken by its exit; False when `timeout` seconds pass first.

    `Popen.wait(timeout=...)` polls with sleeps of up to 50 ms, so every step would end up to 50 ms late;
    a pidfd becomes readable the moment the process exits.
    """
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # no pidfd on this kernel, or the child is already reaped
        try:
            proc.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        deadline = time.monotonic() + timeout
        while not poller.poll(max(0.0, deadline - time.monotonic()) * 1000):
            if time.monotonic() >= deadline:
                return proc.poll() is not None
        proc.wait()
        return True
    finally:
        os.close(fd)


def exit_now(code: int, *, open_files: bool = True) -> NoReturn:
    """End this process as the interpreter ends, without taking every object apart first.

    A process that built millions of objects (a fork-server worker, a report over 100 000 bugs) spends a
    noticeable time freeing them one by one at exit, for nothing. What an exit does for others still happens,
    in the same order: the threads that are not daemons are joined (and thread pools shut down), then the
    atexit handlers and weakref finalizers run, then files left open (`open_files`: found by a walk of every
    object, which a caller that left none open skips) and the standard streams are flushed. A standard
    output that cannot be flushed ends the process with the status the interpreter gives then (120); one whose
    reader has gone (`| head`) does not change the status."""
    threading._shutdown()  # type: ignore[attr-defined]  # what Py_FinalizeEx runs first
    atexit._run_exitfuncs()
    if open_files:
        for obj in gc.get_objects():  # not the objects gc.freeze() set aside: a fork server's, never written here
            if isinstance(obj, BUFFERED):
                with contextlib.suppress(Exception):
                    if not obj.closed:
                        obj.flush()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None and not stream.closed:
                stream.flush()
        except BrokenPipeError:
            pass
        except (OSError, ValueError):
            if stream is sys.stdout:
                code = code or FLUSH_FAILED
    os._exit(code)


__all__ = ["BUFFERED", "FLUSH_FAILED", "exit_now", "kill_group", "signal_of", "wait_exit"]
