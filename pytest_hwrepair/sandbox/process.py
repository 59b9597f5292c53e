"""Processes the harness starts: how one ended, and ending one with everything in its group.

Stdlib only: the container agent (`sandbox/docker/agent.py`) is sent into containers as one
source file and keeps its own copy of `kill_group`; everything on the host uses these.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time


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
        pass
    return True


def kill_group(pgid: int, sig: int = signal.SIGKILL) -> None:
    """Signal a whole process group; one that has already gone is no error."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def wait_exit(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait for a child to end, woken by its exit (a pidfd; `Popen.wait` polls with sleeps of up to 50 ms);
    False when `timeout` seconds pass first."""
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
