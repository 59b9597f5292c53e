"""The local sandbox: bubblewrap where available, else a plain subprocess with rlimits."""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import IO

from .base import Execution, Limits
from .slots import Slots

ADDR_NO_RANDOMIZE = 0x0040000
SANDBOX_UID_BASE = 61000
# Only these variables reach candidate code: no API keys, tokens or home-directory secrets.
PASSED_ENV = ("PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES",
              "NVIDIA_VISIBLE_DEVICES")
FIXED_ENV = {"LC_ALL": "C", "LANG": "C", "TZ": "UTC"}
_warned = False
UID_POOL = Slots(Path(tempfile.gettempdir()) / "hwrepair-uids", 128)


class NoIsolationWarning(UserWarning):
    """bubblewrap is missing: steps run as plain subprocesses with rlimits only."""


def scrubbed_env(workdir: str, tmpdir: str) -> dict[str, str]:
    env = {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.update(FIXED_ENV)
    env.update(HOME=workdir, TMPDIR=tmpdir)
    return env


class LocalSandbox:
    """Runs each step in its own session/process group on this machine (DESIGN §7)."""

    name = "local"

    def __init__(self, slots: Slots | None = None, *, isolate: bool | None = None) -> None:
        self.slots = slots
        self.bwrap = shutil.which("bwrap") if isolate is not False else None
        if isolate and self.bwrap is None:
            raise RuntimeError("bubblewrap isolation requested but `bwrap` is not installed")
        if self.bwrap is None and isolate is None:
            _warn_once()
        self.drop_privileges = os.geteuid() == 0

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        if self.slots is None:
            return self._with_uid(workdir, argv, timeout, limits)
        with self.slots.acquire():
            return self._with_uid(workdir, argv, timeout, limits)

    def _with_uid(self, workdir: Path, argv: str, timeout: float, limits: Limits) -> Execution:
        # Each concurrent step on this machine gets its own uid, so per-uid process limits and
        # the kill-everything-of-this-uid cleanup never touch another step.
        if not self.drop_privileges:
            return self._run(workdir, argv, timeout, limits, None)
        with UID_POOL.acquire() as index:
            return self._run(workdir, argv, timeout, limits, SANDBOX_UID_BASE + index)

    def _run(self, workdir: Path, argv: str, timeout: float, limits: Limits, uid: int | None) -> Execution:
        workdir = workdir.resolve()
        tmpdir = workdir / ".tmp"
        tmpdir.mkdir(exist_ok=True)
        if uid is not None:
            _check_traversable(workdir)
            _chown_tree(workdir, uid)
        cmd = self._command(workdir, argv, limits)
        env = scrubbed_env(str(workdir), "/tmp" if self.bwrap else str(tmpdir))
        start = time.monotonic()
        proc = subprocess.Popen(
            cmd, cwd=workdir, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True,
            preexec_fn=lambda: _child_setup(limits, timeout, uid),
        )
        out, err = _Drain(proc.stdout, limits.output), _Drain(proc.stderr, limits.output)
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill_group(proc.pid)
            if uid is not None:
                # In a bwrap pid namespace every process dies with the namespace: one sweep is a
                # safety net. Without it, children that left the process group are hunted down.
                _kill_uid(uid, rounds=1 if self.bwrap else 3)
            proc.wait()
        duration = time.monotonic() - start
        out.join()
        err.join()
        shutil.rmtree(tmpdir, ignore_errors=True)
        rc = proc.returncode
        sig = -rc if rc is not None and rc < 0 else (rc - 128 if rc is not None and 128 < rc < 160 else None)
        return Execution(argv, None if timed_out else rc, out.text(), err.text(), duration,
                         timed_out=timed_out, signal=None if timed_out else sig,
                         truncated=out.dropped > 0 or err.dropped > 0)

    def _command(self, workdir: Path, argv: str, limits: Limits) -> list[str]:
        if self.bwrap is None:
            return ["/bin/sh", "-c", argv]
        cmd = [self.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
               "--tmpfs", "/tmp", "--bind", str(workdir), str(workdir), "--chdir", str(workdir),
               "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session"]
        if not limits.network:
            cmd.append("--unshare-net")
        if limits.gpu:
            for dev in sorted(Path("/dev").glob("nvidia*")):
                cmd += ["--dev-bind", str(dev), str(dev)]
        return [*cmd, "/bin/sh", "-c", argv]


def _warn_once() -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn("bubblewrap (bwrap) not found: candidate steps run as plain subprocesses "
                      "with rlimits only; install bubblewrap for filesystem and network isolation",
                      NoIsolationWarning, stacklevel=3)


def _child_setup(limits: Limits, timeout: float, uid: int | None) -> None:
    """Runs in the child between fork and exec: no randomisation, rlimits, unprivileged uid."""
    try:
        ctypes.CDLL(None, use_errno=True).personality(ADDR_NO_RANDOMIZE)
    except (OSError, AttributeError):
        pass
    cpu = limits.cpu_seconds or int(timeout) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size, limits.file_size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limits.memory and not limits.gpu:
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
    if uid is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)


def _check_traversable(workdir: Path) -> None:
    """The unprivileged step uid must be able to reach the workspace."""
    for parent in workdir.parents:
        if not os.stat(parent).st_mode & 0o001:
            raise RuntimeError(f"workspace {workdir} is not reachable for the sandbox uid: {parent} is not "
                               "searchable by other users (create workspaces under a world-searchable directory)")


def _chown_tree(root: Path, uid: int) -> None:
    os.chown(root, uid, uid)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            os.lchown(os.path.join(dirpath, name), uid, uid)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


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
            text += f"\n[... output truncated: {self.dropped} more bytes not kept ...]\n"
        return text
