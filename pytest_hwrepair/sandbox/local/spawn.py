"""Starting a step's first process under its limits.

Through a shell gate where setpriv is installed: the first process waits on its stdin, a pipe, while the
harness sets its rlimits (prlimit) and, on cgroup v2, moves it into the step's cgroup; on v1 it moves
itself (no global lock for a thread moving itself), then drops to the step's uid and becomes the step. No
Python runs between fork and exec, so Popen can use vfork: a worker's fork (its page tables copied, Python
touching its heap in the child) costs milliseconds a step. Without setpriv, the uid drop runs between fork
and exec as before. Either way nothing of the step runs before it is in its group, under its limits, with
address-space randomisation off (DESIGN §7).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import resource
import shutil
import signal
import subprocess
from collections.abc import Iterator

from ..base import Limits
from .cgroup import StepGroup

ADDR_NO_RANDOMIZE = 0x0040000
# A step's first process: it waits for the harness to put it under its rlimits (and, on cgroup v2, in its
# cgroup) with a line on stdin; on cgroup v1 it moves itself into the N groups whose `tasks` files follow N
# (nothing runs if one refuses), then becomes the step with stdin closed to /dev/null.
GATE_SHELL = "/bin/sh"
GATE = ('read -r go && [ "$go" = go ] || exit 125; n=$1; shift; '
        'while [ "$n" -gt 0 ]; do echo 0 > "$1" || exit 125; shift; n=$((n - 1)); done; exec "$@" </dev/null')
SETPRIV = shutil.which("setpriv", path="/usr/bin:/bin:/usr/sbin:/sbin")


class SandboxError(RuntimeError):
    """The sandbox itself failed (bubblewrap refused to start, the workspace could not go in)."""


def start(cmd: list[str], env: dict[str, str], cwd: str, limits: Limits, timeout: float, uid: int | None,
          group: StepGroup | None, passed: list[int]) -> subprocess.Popen[bytes]:
    """The step's first process, confined; stdout and stderr are pipes, `passed` fds are inherited."""
    if uid is not None and SETPRIV is None:  # no setpriv: the uid drop runs between fork and exec
        return subprocess.Popen(
            cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, pass_fds=passed, preexec_fn=lambda: _child_setup(limits, timeout, uid, group),
        )
    return _gated(cmd, env, cwd, limits, timeout, uid, group, passed)


def _rlimits(limits: Limits, timeout: float, uid: int | None) -> list[tuple[int, tuple[int, int]]]:
    """The per-process limits of a step's processes."""
    cpu = limits.cpu_seconds or int(timeout) + 2
    out = [(resource.RLIMIT_CPU, (cpu, cpu + 1)), (resource.RLIMIT_FSIZE, (limits.file_size, limits.file_size)),
           (resource.RLIMIT_CORE, (0, 0))]
    if limits.memory and not limits.gpu:
        out.append((resource.RLIMIT_AS, (limits.memory, limits.memory)))
    if uid is not None:
        out.append((resource.RLIMIT_NPROC, (limits.processes, limits.processes)))
    return out


def _child_setup(limits: Limits, timeout: float, uid: int | None, group: StepGroup | None) -> None:
    """Runs in the child between fork and exec: cgroup, no randomisation, rlimits, unprivileged uid."""
    if group is not None:
        group.attach()
    libc = _libc()
    if libc is not None:
        libc.personality(ADDR_NO_RANDOMIZE)
    for which, values in _rlimits(limits, timeout, uid):
        resource.setrlimit(which, values)
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)


def _gated(cmd: list[str], env: dict[str, str], cwd: str, limits: Limits, timeout: float, uid: int | None,
           group: StepGroup | None, passed: list[int]) -> subprocess.Popen[bytes]:
    """Start a step through the shell gate; the address randomisation is turned off for this thread's
    children only (a personality is a thread's)."""
    gate_r, gate_w = os.pipe()
    moves = [str(f) for f in group.self_attach] if group is not None else []
    argv = [str(len(moves)), *moves, *(_setpriv(uid) if uid is not None else []), *cmd]
    try:
        with _no_randomisation():
            proc = subprocess.Popen(
                [GATE_SHELL, "-c", GATE, "hwrepair-gate", *argv], cwd=cwd, env=env, stdin=gate_r,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, pass_fds=passed,
            )
    except BaseException:
        os.close(gate_w)
        raise
    finally:
        os.close(gate_r)
    try:
        if group is not None and not group.self_attach:
            group.attach(proc.pid)
        for which, values in _rlimits(limits, timeout, uid):
            resource.prlimit(proc.pid, which, values)
        os.write(gate_w, b"go\n")
    except BaseException as exc:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        if isinstance(exc, OSError):
            raise SandboxError(f"the step could not be put under its limits (nothing of it ran): {exc}") from exc
        raise
    finally:
        os.close(gate_w)
    return proc


def _setpriv(uid: int) -> list[str]:
    assert SETPRIV is not None
    return [SETPRIV, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]


@contextlib.contextmanager
def _no_randomisation() -> Iterator[None]:
    libc = _libc()
    if libc is None:
        yield
        return
    old = libc.personality(0xFFFFFFFF)
    if old == -1:
        yield
        return
    libc.personality(old | ADDR_NO_RANDOMIZE)
    try:
        yield
    finally:
        libc.personality(old)


@functools.cache
def _libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.personality.argtypes = [ctypes.c_ulong]
        libc.personality.restype = ctypes.c_int
        return libc
    except (OSError, AttributeError):
        return None


__all__ = ["ADDR_NO_RANDOMIZE", "SETPRIV", "SandboxError", "start"]
