"""The local sandbox: a closed bubblewrap step where available, else a plain subprocess with rlimits.

With setpriv installed, a step's first process is a shell gate that waits on its stdin while the harness sets
its rlimits (prlimit) and cgroup, then drops to the step's uid and execs the step: no Python runs between fork
and exec, so Popen can use vfork (a worker's fork costs milliseconds a step). Without setpriv, the uid drop runs
between fork and exec. Either way nothing of the step runs before it is in its group, under its limits, with
address-space randomisation off (DESIGN §7).

Memory and process limits hold for a step as a whole in one control group per step (v2, else v1 memory and
pids), under this process's own cgroup so a step never escapes a limit its owner is under. Without a writable
hierarchy (no root) a step keeps its per-process rlimits only, and one warning says so.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import itertools
import os
import queue
import resource
import secrets
import shutil
import signal
import subprocess
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TypeVar

from ..base import SNAPSHOT, Command, Execution, Limits, one_by_one
from ..process import alive, kill_group, signal_of, wait_exit
from ..scratch import make as make_scratch
from ..slots import Slots
from ..untrusted import UntrustedFileError, read_untrusted, with_marker
from . import jail
from .transfer import Accepted, CopyLimits, Receiver, memfd_of, move_inside, pack, remove

SANDBOX_UID_BASE = 61000
# Only these variables reach candidate code: no API keys, tokens or home-directory secrets.
PASSED_ENV = ("PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES",
              "NVIDIA_VISIBLE_DEVICES")
FIXED_ENV = {"LC_ALL": "C", "LANG": "C", "TZ": "UTC"}
TMP_SIZE = 512 << 20
PACK_GRACE = 15.0
_T = TypeVar("_T")
# One machine-wide place, never under TMPDIR: two runs with different TMPDIR must not hand out the same uid
# (each kills every process of its uid when a step ends). The same slot of the /tmp pool of older releases is
# held too, so a run of an older release on this machine never shares one.
UID_LOCKS = Path("/run/lock/hwrepair-uids")
UID_POOL = Slots(UID_LOCKS, 128, private=True, also=Slots(Path("/tmp/hwrepair-uids"), 128))
ADDR_NO_RANDOMIZE = 0x0040000
# A step's first process: waits for "go" on stdin (the harness has set its rlimits and, on cgroup v2, its
# cgroup), moves itself into the N v1 groups whose `tasks` files follow N (nothing runs if one refuses), then
# becomes the step with stdin closed to /dev/null.
GATE_SHELL = "/bin/sh"
GATE = ('read -r go && [ "$go" = go ] || exit 125; n=$1; shift; '
        'while [ "$n" -gt 0 ]; do echo 0 > "$1" || exit 125; shift; n=$((n - 1)); done; exec "$@" </dev/null')
SETPRIV = shutil.which("setpriv", path="/usr/bin:/bin:/usr/sbin:/sbin")
CGROUP_ROOT = Path("/sys/fs/cgroup")
CGROUP_PREFIX = "hwrepair-"
_counter = itertools.count()


class NoCgroupWarning(UserWarning):
    """No writable cgroup hierarchy: memory and process limits are per process (rlimits) only."""


@dataclass(frozen=True, slots=True)
class StepGroup:
    """The control group(s) one step runs in: v2 has one directory, v1 one per controller."""

    dirs: tuple[Path, ...]
    kill_file: Path | None = None
    # v1: the `tasks` files a process writes "0" to, to move itself in: no global lock for a thread moving
    # itself, where writing another's pid waits for an RCU grace period (3 to 5 ms a step against 0.5 ms).
    self_attach: tuple[Path, ...] = ()

    def attach(self, pid: int | None = None) -> None:
        """Move a process in: the calling one (between fork and exec, before the uid drop) by default."""
        for folder in self.dirs:
            with open(folder / "cgroup.procs", "w") as fh:
                fh.write(str(os.getpid() if pid is None else pid))

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.dirs:
            with contextlib.suppress(OSError):
                found.update(map(int, (folder / "cgroup.procs").read_text().split()))
        return found

    def kill(self) -> None:
        """SIGKILL every process of the step, children that left its session included."""
        if self.kill_file is not None:
            with contextlib.suppress(OSError):
                self.kill_file.write_text("1")
        pause = 0.0005  # killed processes leave within a millisecond or two: poll fast, then back off
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline and (left := self.pids()):
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(pause)
            pause = min(pause * 2, 0.01)

    def remove(self) -> None:
        for folder in self.dirs:
            for _ in range(100):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # EBUSY while the last killed processes are reaped
                    self.kill()
                    time.sleep(0.01)


def own_path(controller: str, text: str) -> str | None:
    """This process's cgroup in a hierarchy ("" for v2's unified one), from the text of /proc/self/cgroup."""
    for line in text.splitlines():
        _, names, path = line.split(":", 2)
        if (controller == "" and names == "") or controller in names.split(","):
            return path
    return None


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK)


def _v2_parent(root: Path, proc_cgroup: str) -> Path | None:
    """A v2 cgroup of ours whose children may get memory and pids limits, or None."""
    mine = own_path("", proc_cgroup)
    if mine is None or not (root / "cgroup.controllers").exists():
        return None
    parent = root / mine.lstrip("/")
    control = parent / "cgroup.subtree_control"
    if not _writable(parent):
        return None
    try:
        enabled = control.read_text().split()
        if not {"memory", "pids"} <= set(enabled):
            # Allowed at the root, or in a cgroup without processes of its own (systemd delegation).
            control.write_text("+memory +pids")
    except OSError:
        return None
    return parent


def _v1_parents(root: Path, proc_cgroup: str) -> tuple[Path, Path] | None:
    found = []
    for controller in ("memory", "pids"):
        mine = own_path(controller, proc_cgroup)
        folder = root / controller / (mine or "/").lstrip("/")
        if mine is None or not _writable(folder):
            return None
        found.append(folder)
    return found[0], found[1]


class Cgroups:
    """Makes one control group per step under this process's own cgroup."""

    def __init__(self, root: Path = CGROUP_ROOT, proc_cgroup: str | None = None) -> None:
        try:
            text = proc_cgroup if proc_cgroup is not None else Path("/proc/self/cgroup").read_text()
        except OSError:
            text = ""
        self.v2 = _v2_parent(root, text) if os.geteuid() == 0 or proc_cgroup is not None else None
        self.v1 = None if self.v2 is not None else (_v1_parents(root, text) if text else None)
        self.kind = "v2" if self.v2 is not None else "v1" if self.v1 is not None else "none"

    @contextlib.contextmanager
    def step(self, memory: int, processes: int) -> Iterator[StepGroup | None]:
        """A fresh group for one step, killed and removed afterwards; None without cgroups."""
        group = self._create(memory, processes)
        if group is None:
            _warn_no_cgroup()
        try:
            yield group
        finally:
            if group is not None:
                group.kill()  # the step's processes are gone when this returns; the empty directory can wait
                _REAPER.put(group)

    def _create(self, memory: int, processes: int) -> StepGroup | None:
        name = f"{CGROUP_PREFIX}{os.getpid()}-{next(_counter)}"
        try:
            if self.v2 is not None:
                folder = self.v2 / name
                folder.mkdir()
                _limit(folder / "memory.max", memory or "max")  # 0: no limit (sanitizer runs)
                _limit(folder / "memory.swap.max", 0, optional=True)
                _limit(folder / "pids.max", processes)
                kill = folder / "cgroup.kill"
                return StepGroup((folder,), kill if kill.exists() else None)
            if self.v1 is not None:
                mem, pids = self.v1[0] / name, self.v1[1] / name
                mem.mkdir()
                pids.mkdir()
                _limit(mem / "memory.limit_in_bytes", memory or -1)
                _limit(mem / "memory.memsw.limit_in_bytes", memory or -1, optional=True)
                _limit(pids / "pids.max", processes)
                return StepGroup((mem, pids), self_attach=(mem / "tasks", pids / "tasks"))
        except OSError:
            return None
        return None


class _Reaper:
    """Removes emptied step groups on a thread, so the next step need not wait for the kernel (a third of a
    millisecond a group on v1); groups still queued at exit go with the next run's `remove_stale`."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[StepGroup] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def put(self, group: StepGroup) -> None:
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="hwrepair-cgroup-reaper", daemon=True)
                self.thread.start()
        self.queue.put(group)

    def _run(self) -> None:
        while True:
            group = self.queue.get()
            with contextlib.suppress(OSError):
                group.remove()


_REAPER = _Reaper()


def _limit(path: Path, value: int | str, *, optional: bool = False) -> None:
    try:
        path.write_text(str(value))
    except OSError:
        if not optional:
            raise


def remove_stale(cgroups: Cgroups) -> None:
    """Remove empty step groups left by processes that were killed before they could clean up."""
    parents = [cgroups.v2] if cgroups.v2 is not None else list(cgroups.v1 or ())
    for parent in parents:
        for folder in parent.glob(f"{CGROUP_PREFIX}*-*"):
            owner = folder.name[len(CGROUP_PREFIX):].split("-")[0]
            if owner.isdigit() and not alive(int(owner)):
                with contextlib.suppress(OSError):
                    folder.rmdir()


@functools.cache
def _warn_no_cgroup() -> None:
    warnings.warn("no writable cgroup hierarchy (cgroup v2 with memory and pids, or v1 memory and pids): "
                  "memory and process limits apply per process (rlimits), not to a step as a whole; run "
                  "as root where /sys/fs/cgroup is writable for whole-step limits",
                  NoCgroupWarning, stacklevel=4)


class SandboxError(RuntimeError):
    """The sandbox itself failed (bubblewrap refused to start, the workspace could not go in)."""


def spawn_step(cmd: list[str], env: dict[str, str], cwd: str, limits: Limits, timeout: float, uid: int | None,
               group: StepGroup | None, passed: list[int]) -> subprocess.Popen[bytes]:
    """The step's first process, confined; stdout and stderr are pipes, `passed` fds are inherited."""
    if uid is not None and SETPRIV is None:  # no setpriv: the uid drop runs between fork and exec
        return subprocess.Popen(
            cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, pass_fds=passed, preexec_fn=lambda: _child_setup(limits, timeout, uid, group),
        )
    gate_r, gate_w = os.pipe()
    moves = [str(f) for f in group.self_attach] if group is not None else []
    setpriv = [str(SETPRIV), f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"] if uid is not None else []
    try:
        with _no_randomisation():
            proc = subprocess.Popen(
                [GATE_SHELL, "-c", GATE, "hwrepair-gate", str(len(moves)), *moves, *setpriv, *cmd], cwd=cwd,
                env=env, stdin=gate_r, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                pass_fds=passed,
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


@contextlib.contextmanager
def _no_randomisation() -> Iterator[None]:
    """Address randomisation off for this thread's children only (a personality is a thread's)."""
    libc = _libc()
    old = -1 if libc is None else libc.personality(0xFFFFFFFF)
    if libc is None or old == -1:
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


class Drain:
    """Reads a pipe to the end on a thread, keeping the first `cap` bytes; `mark` cuts it into one part per
    command of a batch, each capped by itself."""

    def __init__(self, stream: IO[bytes] | None, cap: int, mark: bytes | None = None) -> None:
        assert stream is not None
        self.stream, self.cap, self.mark = stream, cap, mark
        self.parts: list[tuple[list[bytes], list[int]]] = [([], [0, 0])]  # chunks, [kept, dropped]
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        mark = self.mark
        pending = b""
        while chunk := self.stream.read1(1 << 16):  # type: ignore[attr-defined]
            if mark is None:
                self._keep(chunk)
                continue
            data = pending + chunk
            while (at := data.find(mark)) >= 0:
                self._keep(data[:at])
                self.parts.append(([], [0, 0]))
                data = data[at + len(mark):]
            cut = max(0, len(data) - (len(mark) - 1))  # a tail that could be the start of a separator waits
            self._keep(data[:cut])
            pending = data[cut:]
        self._keep(pending)
        self.stream.close()

    def _keep(self, data: bytes) -> None:
        chunks, counts = self.parts[-1]
        room = self.cap - counts[0]
        if room > 0 and data:
            chunks.append(data[:room])
            counts[0] += min(room, len(data))
        counts[1] += max(0, len(data) - max(room, 0))

    def join(self) -> None:
        self.thread.join()

    def text(self, part: int = 0) -> str:
        """The kept text of one part, with a marker when capped."""
        if part >= len(self.parts):
            return ""
        chunks, (_, dropped) = self.parts[part]
        return with_marker(b"".join(chunks), dropped)

    def part_dropped(self, part: int) -> int:
        return self.parts[part][1][1] if part < len(self.parts) else 0


class NoIsolationWarning(UserWarning):
    """bubblewrap is missing: steps run as plain subprocesses with rlimits only."""


def scrubbed_env(workdir: str, tmpdir: str, limits: Limits, *, closed: bool = False) -> dict[str, str]:
    """The whole environment of a step: a fixed allow-list, never pytest's own variables."""
    env = {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    if closed:
        env["PATH"] = jail.sandbox_path(env["PATH"], limits.mounts)
    env.update(FIXED_ENV, HOME=workdir, TMPDIR=tmpdir, HWREPAIR_WORKSPACE=workdir)
    env.update(limits.env)
    return env


@dataclass
class _Step:
    """The host-side ends of one running step."""

    proc: subprocess.Popen[bytes]
    out: Drain
    err: Drain
    back: Receiver
    start: float
    shot: Receiver | None = None  # the workspace after a batch's snapshot command


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
            _warn_no_bwrap()
        self.drop_privileges = os.geteuid() == 0
        self.cgroups = cgroups if cgroups is not None else Cgroups()
        if self.cgroups.kind != "none":
            remove_stale(self.cgroups)

    def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
        return self._confined(lambda uid: self._run(workdir.resolve(), argv, timeout, limits, uid)[0])

    def run_batch(self, workdir: Path, commands: Sequence[Command], *, timeout: float, limits: Limits,
                  kept: Path | None = None) -> list[Execution]:
        """Every command in one closed step (`run_commands`); one step each without bubblewrap, whose
        launcher cannot kill what a command left running before the next one starts."""
        if self.bwrap is None or not commands:
            return one_by_one(self, workdir, commands, timeout=timeout, limits=limits, kept=kept)
        return self._confined(lambda uid: self._run(workdir.resolve(), commands[0].argv, timeout, limits, uid,
                                                    Batch(tuple(commands), kept)))

    def _confined(self, body: Callable[[int | None], _T]) -> _T:
        # Each concurrent step on this machine gets its own uid, so per-uid process limits and
        # the kill-everything-of-this-uid cleanup never touch another step.
        with self.slots.acquire() if self.slots is not None else contextlib.nullcontext():
            if not self.drop_privileges:
                return body(None)
            with UID_POOL.acquire() as index:
                return body(SANDBOX_UID_BASE + index)

    def _run(self, workdir: Path, argv: str, timeout: float, limits: Limits, uid: int | None,
             batch: Batch | None = None) -> list[Execution]:
        archive = pack(workdir)
        fds: list[int] = []
        scratch: list[Path] = []
        try:
            fd_in = memfd_of(archive, "hwrepair-ws")
            fds.append(fd_in)
            back_r, back_w = os.pipe()
            fds += [back_r, back_w]
            shot = None
            if batch is not None and batch.snapshot is not None:  # the workspace after one command, apart
                shot = os.pipe()
                fds += shot
            cmd, env, cwd = self._command(argv, timeout, limits, uid, len(archive), (fd_in, back_w), fds, scratch,
                                          batch, None if shot is None else shot[1])
            # memory = 0 lifts the per-process address-space rlimit (ASan reserves terabytes it never
            # touches); the step as a whole stays capped at the default.
            with self.cgroups.step(limits.memory or Limits().memory, limits.processes) as group:
                step = self._start(cmd, env, cwd, limits, timeout, uid, group, fds, back_r, workdir, batch,
                                   None if shot is None else shot[0])
                for fd in (back_w, *(shot[1:] if shot is not None else ())):
                    os.close(fd)
                    fds.remove(fd)
                if batch is not None:
                    return self._finish_batch(step, batch, timeout, uid, group)
                return [self._finish(step, argv, timeout, uid, group)]
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            for folder in scratch:
                remove(folder)

    def _command(self, argv: str, timeout: float, limits: Limits, uid: int | None, size: int,
                 channel: tuple[int, int], fds: list[int], scratch: list[Path],
                 batch: Batch | None, snapshot: int | None = None) -> tuple[list[str], dict[str, str], str]:
        fd_in, fd_out = channel
        if self.bwrap is not None:
            ident = uid if uid is not None else os.getuid()
            pw, gr = memfd_of(jail.passwd(ident), "passwd"), memfd_of(jail.group(ident), "group")
            fds += [pw, gr]
            launcher = (jail.launcher_argv(argv, jail.WORK, True, fd_in, fd_out, timeout) if batch is None
                        else jail.batch_argv(batch.commands, batch.mark, fd_in, fd_out, timeout, snapshot))
            cmd = jail.bwrap_argv(self.bwrap, launcher, network=limits.network, gpu=limits.gpu,
                                  work_size=size + 4 * limits.file_size, tmp_size=TMP_SIZE, mounts=limits.mounts,
                                  fds=(pw, gr), env=scrubbed_env(jail.WORK, "/tmp", limits, closed=True))
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
               uid: int | None, group: StepGroup | None, fds: list[int], back_r: int, workdir: Path,
               batch: Batch | None, shot_r: int | None = None) -> _Step:
        start = time.monotonic()
        passed = [fd for fd in fds if fd not in (back_r, shot_r)]
        proc = spawn_step(cmd, env, cwd, limits, timeout, uid, group, passed)
        fds.remove(back_r)
        copy = CopyLimits(total=limits.file_size)
        shot = None
        if shot_r is not None:  # what a step of its own would copy back
            fds.remove(shot_r)
            shot = Receiver(os.fdopen(shot_r, "rb", buffering=0), workdir, copy, marked=False)
        if batch is not None:  # room for the records: each command's status and kept output
            n = len(batch.commands)
            copy = replace(copy, total=copy.total + n * limits.output, files=copy.files + 2 * n + 1)
        back = Receiver(os.fdopen(back_r, "rb", buffering=0), workdir, copy)
        mark = None if batch is None else jail.SEPARATOR.format(batch.mark).encode()
        return _Step(proc, Drain(proc.stdout, limits.output, mark), Drain(proc.stderr, limits.output, mark), back,
                     start, shot)

    def _finish(self, step: _Step, argv: str, timeout: float, uid: int | None, group: StepGroup | None) -> Execution:
        proc = step.proc
        # The launcher stops the command at `timeout` and still copies the workspace back; this
        # deadline is the backstop for a launcher that does not finish.
        killed = self._end(step, timeout + PACK_GRACE, uid, group)
        duration = time.monotonic() - step.start
        timed_out = killed or (proc.returncode in (124, 137) and duration >= timeout)
        accepted = _joined(step, timed_out)  # a deadline shorter than the jail's start is a timeout
        notes = "" if killed else accepted.notes()
        if not killed and accepted.complete:
            step.back.apply()
        step.back.discard()
        return Execution(argv, None if timed_out else proc.returncode, step.out.text(), step.err.text() + notes,
                         duration, timed_out=timed_out, signal=None if timed_out else signal_of(proc.returncode),
                         truncated=step.out.part_dropped(0) > 0 or step.err.part_dropped(0) > 0)

    def _end(self, step: _Step, deadline: float, uid: int | None, group: StepGroup | None) -> bool:
        """Wait for the step's launcher up to `deadline` seconds, then kill all of the step; True if killed."""
        try:
            killed = not wait_exit(step.proc, deadline)
        finally:
            _kill_all(step.proc.pid, uid, group, bwrap=self.bwrap is not None)
            step.proc.wait()
        step.out.join()
        step.err.join()
        return killed

    def _finish_batch(self, step: _Step, batch: Batch, timeout: float, uid: int | None,
                      group: StepGroup | None) -> list[Execution]:
        # Each command is stopped at `timeout` inside the step; the backstop allows them all their time.
        killed = self._end(step, len(batch.commands) * timeout + PACK_GRACE, uid, group)
        accepted = _joined(step, killed)
        try:
            records = step.back.staging / jail.RECORDS
            done = _batch_results(batch, records, timeout, step, killed, "" if killed else accepted.notes())
            for index, command in enumerate(batch.commands[:len(done)], 1):
                if command.keep and batch.kept is not None:
                    move_inside(records, f"{index}.keep", batch.kept, f"{index}/{command.keep}")
            if step.shot is not None and not killed:
                _take_snapshot(step.shot, batch, done)
            if not killed and accepted.complete:
                # What came back holds only directories and regular files; `remove` takes what rmtree could not.
                shutil.rmtree(records, ignore_errors=True)
                remove(records)
                step.back.apply()
            return done
        finally:
            step.back.discard()
            if step.shot is not None:
                step.shot.join()
                step.shot.discard()


def _joined(step: _Step, stopped: bool) -> Accepted:
    """What came back of the step's workspace; raises when the sandbox never started a step that was not stopped."""
    accepted = step.back.join()
    if not step.back.started and not stopped:
        raise SandboxError(f"the sandbox did not start the step (exit {step.proc.returncode}): "
                           f"{step.err.text()[-500:].strip()}")
    return accepted


@dataclass(frozen=True, slots=True)
class Batch:
    """The commands of a batch step and where their kept outputs go (`run_commands`)."""

    commands: tuple[Command, ...]
    kept: Path | None
    # Separates one command's output from the next in the step's stdout and stderr; fresh per batch, so no
    # output can hold it by accident (a command able to read it could only shift its own output's bounds).
    mark: str = field(default_factory=lambda: secrets.token_hex(16))

    @property
    def snapshot(self) -> int | None:
        """The number (from 1) of the command whose workspace is copied back apart, if any."""
        return next((n for n, c in enumerate(self.commands, 1) if c.snapshot), None)


def _take_snapshot(shot: Receiver, batch: Batch, done: list[Execution]) -> None:
    """Move the snapshot command's workspace to `kept/N.workspace` when it succeeded and all of it came back."""
    index = batch.snapshot
    accepted = shot.join()
    if index is None or batch.kept is None or len(done) < index or not done[index - 1].ok or not accepted.complete:
        return
    remove(shot.staging / jail.RECORDS)  # never in the archive; a command could only have made it after
    os.rename(shot.staging, batch.kept / SNAPSHOT.format(index))


def _batch_results(batch: Batch, records: Path, timeout: float, step: _Step, killed: bool,
                   notes: str) -> list[Execution]:
    """One Execution per command from the step's records, up to the first that failed or has no record."""
    done: list[Execution] = []
    for index, command in enumerate(batch.commands, 1):
        record = _record(records, index)
        part = index - 1
        if record is None:  # the launcher ended (or was stopped) while this command ran
            rc = step.proc.returncode
            problem = "" if killed else "\n[hwrepair: the step ended before this command's record was written]"
            done.append(Execution(command.argv, None if killed else (rc or 125), step.out.text(part),
                                  step.err.text(part) + problem + notes, time.monotonic() - step.start,
                                  timed_out=killed, signal=None if killed else signal_of(rc)))
            break
        rc, duration = record
        timed_out = rc in (124, 137) and duration >= timeout
        last = rc != 0 or index == len(batch.commands)
        done.append(Execution(command.argv, None if timed_out else rc, step.out.text(part),
                              step.err.text(part) + (notes if last else ""), duration, timed_out=timed_out,
                              signal=None if timed_out else signal_of(rc),
                              truncated=step.out.part_dropped(part) > 0 or step.err.part_dropped(part) > 0))
        if rc != 0:
            break
    return done


def _record(records: Path, index: int) -> tuple[int, float] | None:
    """A command's exit status and duration, from `N.rc` ("STATUS START END"); None when absent or malformed."""
    try:
        words = read_untrusted(records, f"{index}.rc", 200).text.split()
        rc, start, end = int(words[0]), float(words[1]), float(words[2])
    except (OSError, UntrustedFileError, ValueError, IndexError):
        return None
    return (rc, max(0.0, end - start)) if 0 <= rc <= 255 and len(words) == 3 else None


@functools.cache
def _warn_no_bwrap() -> None:
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
        found = False
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with contextlib.suppress(ProcessLookupError, PermissionError, FileNotFoundError):
                    if entry.stat().st_uid == uid:
                        os.kill(int(entry.name), signal.SIGKILL)
                        found = True
        if not found:
            return
        time.sleep(0.01)
