"""The local sandbox: a closed bubblewrap step where available, else a plain subprocess with rlimits."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..process import kill_group, signal_of, wait_exit
from ..untrusted import truncation_marker
from . import jail, spawn
from .base import Execution, Limits
from .cgroup import Cgroups, StepGroup, remove_stale
from .scratch import make as make_scratch
from .slots import Slots
from .spawn import SandboxError
from .transfer import Accepted, CopyLimits, memfd_of, pack, receive, remove, replace_contents

SANDBOX_UID_BASE = 61000
# Only these variables reach candidate code: no API keys, tokens or home-directory secrets.
PASSED_ENV = ("PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES",
              "NVIDIA_VISIBLE_DEVICES")
FIXED_ENV = {"LC_ALL": "C", "LANG": "C", "TZ": "UTC"}
TMP_SIZE = 512 << 20
PACK_GRACE = 15.0
_warned = False
# One machine-wide place, never under TMPDIR: two runs with different TMPDIR must not hand out the same uid
# (each kills every process of its uid when a step ends). The same slot of the pool earlier releases kept
# in /tmp is held too, so a run of an older release on this machine never shares one.
UID_LOCKS = Path("/run/lock/hwrepair-uids")
UID_POOL = Slots(UID_LOCKS, 128, private=True, also=Slots(Path("/tmp/hwrepair-uids"), 128))


class NoIsolationWarning(UserWarning):
    """bubblewrap is missing: steps run as plain subprocesses with rlimits only."""


NO_LIMITS = Limits()


def scrubbed_env(workdir: str, tmpdir: str, limits: Limits = NO_LIMITS, *, closed: bool = False) -> dict[str, str]:
    """The whole environment of a step: a fixed allow-list, never pytest's own variables."""
    env = {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    if closed:
        env["PATH"] = jail.sandbox_path(env["PATH"], limits.mounts)
    env.update(FIXED_ENV)
    env.update(HOME=workdir, TMPDIR=tmpdir, HWREPAIR_WORKSPACE=workdir)
    env.update(dict(limits.env))
    return env


@dataclass
class _Step:
    """The host-side ends of one running step."""

    proc: subprocess.Popen[bytes]
    out: _Drain
    err: _Drain
    back: _Receiver
    start: float


class LocalSandbox:
    """Runs each step in a closed sandbox of its own on this machine (DESIGN §7)."""

    name = "local"

    def __init__(self, slots: Slots | None = None, *, isolate: bool | None = None,
                 cgroups: Cgroups | None = None) -> None:
        self.slots = slots
        self.bwrap = shutil.which("bwrap") if isolate is not False else None
        if isolate and self.bwrap is None:
            raise RuntimeError("bubblewrap isolation requested but `bwrap` is not installed")
        if self.bwrap is None and isolate is None:
            _warn_once()
        self.drop_privileges = os.geteuid() == 0
        self.cgroups = cgroups if cgroups is not None else Cgroups()
        if self.cgroups.kind != "none":
            remove_stale(self.cgroups)

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        if self.slots is None:
            return self._with_uid(workdir, argv, timeout, limits)
        with self.slots.acquire():
            return self._with_uid(workdir, argv, timeout, limits)

    def _with_uid(self, workdir: Path, argv: str, timeout: float, limits: Limits) -> Execution:
        # Each concurrent step on this machine gets its own uid, so per-uid process limits and
        # the kill-everything-of-this-uid cleanup never touch another step.
        if not self.drop_privileges:
            return self._run(workdir.resolve(), argv, timeout, limits, None)
        with UID_POOL.acquire() as index:
            return self._run(workdir.resolve(), argv, timeout, limits, SANDBOX_UID_BASE + index)

    def _run(self, workdir: Path, argv: str, timeout: float, limits: Limits, uid: int | None) -> Execution:
        archive = pack(workdir)
        fds: list[int] = []
        scratch: list[Path] = []
        try:
            fd_in = memfd_of(archive, "hwrepair-ws")
            fds.append(fd_in)
            back_r, back_w = os.pipe()
            fds += [back_r, back_w]
            cmd, env, cwd = self._command(argv, timeout, limits, uid, len(archive), (fd_in, back_w), fds, scratch)
            # memory = 0 lifts the per-process address-space rlimit (ASan reserves terabytes it never
            # touches); the step as a whole stays capped at the default.
            with self.cgroups.step(limits.memory or Limits().memory, limits.processes) as group:
                step = self._start(cmd, env, cwd, limits, timeout, uid, group, fds, back_r, workdir)
                os.close(back_w)
                fds.remove(back_w)
                return self._finish(step, argv, timeout, limits, uid, group, workdir)
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            for folder in scratch:
                remove(folder)

    def _command(self, argv: str, timeout: float, limits: Limits, uid: int | None, size: int,
                 channel: tuple[int, int], fds: list[int],
                 scratch: list[Path]) -> tuple[list[str], dict[str, str], str]:
        fd_in, fd_out = channel
        if self.bwrap is not None:
            ident = uid if uid is not None else os.getuid()
            pw, gr = memfd_of(jail.passwd(ident), "passwd"), memfd_of(jail.group(ident), "group")
            fds += [pw, gr]
            cmd = jail.bwrap_argv(self.bwrap, argv=argv, timeout=timeout, network=limits.network, gpu=limits.gpu,
                                  work_size=size + 4 * limits.file_size, tmp_size=TMP_SIZE, mounts=limits.mounts,
                                  fds=(pw, gr, fd_in, fd_out), env=scrubbed_env(jail.WORK, "/tmp", limits,
                                                                                 closed=True))
            return cmd, {}, "/"
        work = make_scratch("hwrepair-step-")
        tmp = make_scratch("hwrepair-tmp-")
        scratch += [work, tmp]
        if uid is not None:
            for folder in (work, tmp):
                os.chown(folder, uid, uid)
        env = scrubbed_env(str(work), str(tmp), limits)
        return jail.launcher_argv(argv, str(work), uid is not None, fd_in, fd_out, timeout), env, str(work)

    def _start(self, cmd: list[str], env: dict[str, str], cwd: str, limits: Limits, timeout: float,
               uid: int | None, group: StepGroup | None, fds: list[int], back_r: int, workdir: Path) -> _Step:
        start = time.monotonic()
        passed = [fd for fd in fds if fd != back_r]
        proc = spawn.start(cmd, env, cwd, limits, timeout, uid, group, passed)
        fds.remove(back_r)
        back = _Receiver(os.fdopen(back_r, "rb", buffering=0), workdir, CopyLimits(total=limits.file_size))
        return _Step(proc, _Drain(proc.stdout, limits.output), _Drain(proc.stderr, limits.output), back, start)

    def _finish(self, step: _Step, argv: str, timeout: float, limits: Limits, uid: int | None,
                group: StepGroup | None, workdir: Path) -> Execution:
        proc = step.proc
        killed = False
        try:
            # The launcher stops the command at `timeout` and still copies the workspace back; this
            # deadline is the backstop for a launcher that does not finish.
            killed = not wait_exit(proc, timeout + PACK_GRACE)
        finally:
            _kill_all(proc.pid, uid, group, bwrap=self.bwrap is not None)
            proc.wait()
        duration = time.monotonic() - step.start
        timed_out = killed or (proc.returncode in (124, 137) and duration >= timeout)
        step.out.join()
        step.err.join()
        accepted = step.back.join()
        if not step.back.started and not timed_out:  # a deadline shorter than the jail's start is a timeout
            raise SandboxError(f"the sandbox did not start the step (exit {proc.returncode}): "
                               f"{step.err.text()[-500:].strip()}")
        notes = ""
        if not killed:
            notes = accepted.notes()
            if accepted.complete:
                step.back.apply()
        step.back.discard()
        rc = proc.returncode
        sig = signal_of(rc)
        return Execution(argv, None if timed_out else rc, step.out.text(), step.err.text() + notes, duration,
                         timed_out=timed_out, signal=None if timed_out else sig,
                         truncated=step.out.dropped > 0 or step.err.dropped > 0)


def _warn_once() -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn("bubblewrap (bwrap) not found: candidate steps run as plain subprocesses "
                      "with rlimits only; install bubblewrap for filesystem and network isolation",
                      NoIsolationWarning, stacklevel=3)


def _kill_all(pid: int, uid: int | None, group: StepGroup | None, *, bwrap: bool) -> None:
    kill_group(pid)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)  # bubblewrap: its pid-namespace init dies with it (--die-with-parent)
    if group is not None:
        group.kill()  # exactly the step's processes: no sweep by uid, which would hit a step that
        return        # another harness process (another uid pool) runs under the same uid
    if uid is not None:
        # In a bwrap pid namespace every process dies with the namespace: one sweep is a
        # safety net. Without it, children that left the process group are hunted down.
        _kill_uid(uid, rounds=1 if bwrap else 3)


def _kill_uid(uid: int, rounds: int) -> None:
    """Kill every process of a sandbox uid: catches children that left the process group."""
    for _ in range(rounds):
        alive = False
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                if entry.stat().st_uid == uid:
                    os.kill(int(entry.name), signal.SIGKILL)
                    alive = True
            except (ProcessLookupError, PermissionError, FileNotFoundError):
                continue
        if not alive:
            return
        time.sleep(0.01)


class _Receiver:
    """Reads the step's workspace archive on a thread into a staging directory beside the workspace."""

    def __init__(self, stream: IO[bytes], workdir: Path, limits: CopyLimits) -> None:
        self.stream, self.workdir, self.limits = stream, workdir, limits
        self.staging = Path(tempfile.mkdtemp(prefix=".hwrepair-back-", dir=workdir.parent))
        self.started = False
        self.accepted = Accepted(problem="the step ended before its workspace was copied back")
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            self.started = self.stream.read(1) == b"U"
            if self.started:
                self.accepted = receive(self.stream, self.staging, self.limits)
        finally:
            self.stream.close()

    def join(self) -> Accepted:
        self.thread.join()
        return self.accepted

    def apply(self) -> None:
        replace_contents(self.workdir, self.staging)

    def discard(self) -> None:
        if self.staging.exists():
            remove(self.staging)


class _Drain:
    """Reads a pipe to the end on a thread, keeping the first `cap` bytes."""

    def __init__(self, stream: IO[bytes] | None, cap: int) -> None:
        assert stream is not None
        self.stream, self.cap = stream, cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.dropped = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while chunk := self.stream.read1(1 << 16):  # type: ignore[attr-defined]
            room = self.cap - self.kept
            if room > 0:
                self.chunks.append(chunk[:room])
                self.kept += min(room, len(chunk))
            self.dropped += max(0, len(chunk) - max(room, 0))
        self.stream.close()

    def join(self) -> None:
        self.thread.join()

    def text(self) -> str:
        text = b"".join(self.chunks).decode("utf-8", errors="replace")
        if self.dropped:
            text += truncation_marker(self.dropped)
        return text
