"""Processes the harness starts: how one ended, and ending one with everything in its group.

Stdlib only: the container agent (`sandbox/docker_agent.py`) is sent into containers as one
source file and keeps its own copy of `kill_group`; everything on the host uses these.
"""

from __future__ import annotations

import contextlib
import os
import signal


def signal_of(returncode: int | None) -> int | None:
    """The signal that ended a process, from a negative status or a shell's 128+N."""
    if returncode is None:
        return None
    if returncode < 0:
        return -returncode
    return returncode - 128 if 128 < returncode < 160 else None


def kill_group(pgid: int, sig: int = signal.SIGKILL) -> None:
    """Signal a whole process group; one that has already gone is no error."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


__all__ = ["kill_group", "signal_of"]
