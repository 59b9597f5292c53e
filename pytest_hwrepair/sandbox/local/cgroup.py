"""Memory and process limits for a step as a whole: one control group per step.

cgroup v2 where the unified hierarchy has the memory and pids controllers for us, else the v1
memory and pids hierarchies, each under the cgroup this process already lives in (so a step never
escapes a limit its owner is under). Neither is writable without root: then the step keeps its
per-process rlimits only, and one warning says so.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import signal
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..process import alive

ROOT = Path("/sys/fs/cgroup")
PREFIX = "hwrepair-"
_counter = itertools.count()
_warned = False


class NoCgroupWarning(UserWarning):
    """No writable cgroup hierarchy: memory and process limits are per process (rlimits) only."""


@dataclass(frozen=True, slots=True)
class StepGroup:
    """The control group(s) one step runs in: v2 has one directory, v1 one per controller."""

    dirs: tuple[Path, ...]
    kill_file: Path | None = None
    # v1: the `tasks` files a single-threaded process writes "0" to, to move itself in. The kernel takes no
    # global lock for a thread moving itself (writing another process's pid waits for an RCU grace period:
    # 3 to 5 ms a step on the development machine against about 0.5 ms).
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
                found.update(int(p) for p in (folder / "cgroup.procs").read_text().split())
        return found

    def kill(self) -> None:
        """SIGKILL every process of the step, children that left its session included."""
        if self.kill_file is not None:
            with contextlib.suppress(OSError):
                self.kill_file.write_text("1")
        pause = 0.0005  # killed processes leave within a millisecond or two: poll fast, then back off
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            alive = self.pids()
            if not alive:
                return
            for pid in alive:
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


def own_path(controller: str, text: str | None = None) -> str | None:
    """This process's cgroup in a hierarchy ("" for v2's unified one), from /proc/self/cgroup."""
    text = text if text is not None else Path("/proc/self/cgroup").read_text()
    for line in text.splitlines():
        _, names, path = line.split(":", 2)
        if (controller == "" and names == "") or controller in names.split(","):
            return path
    return None


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK)


def _v2_parent(root: Path, proc_cgroup: str) -> Path | None:
    """A v2 cgroup of ours whose children may get memory and pids limits, or None."""
    if not (root / "cgroup.controllers").exists():
        return None
    mine = own_path("", proc_cgroup)
    if mine is None:
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

    def __init__(self, root: Path = ROOT, proc_cgroup: str | None = None) -> None:
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
            _warn_once()
        try:
            yield group
        finally:
            if group is not None:
                group.kill()  # the step's processes are gone when this returns; the empty directory can wait
                _REAPER.put(group)

    def _create(self, memory: int, processes: int) -> StepGroup | None:
        name = f"{PREFIX}{os.getpid()}-{next(_counter)}"
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
    """Removes emptied step groups on a thread of its own: a directory of an empty cgroup takes the kernel a
    while to remove (a third of a millisecond each on cgroup v1), time the next step need not wait for.
    Groups still queued when the process ends are removed by the next run (`remove_stale`)."""

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
        assert parent is not None
        for folder in parent.glob(f"{PREFIX}*-*"):
            owner = folder.name[len(PREFIX):].split("-")[0]
            if owner.isdigit() and not alive(int(owner)):
                with contextlib.suppress(OSError):
                    folder.rmdir()


def _warn_once() -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn("no writable cgroup hierarchy (cgroup v2 with memory and pids, or v1 memory and pids): "
                      "memory and process limits apply per process (rlimits), not to a step as a whole; run "
                      "as root where /sys/fs/cgroup is writable for whole-step limits",
                      NoCgroupWarning, stacklevel=4)


__all__ = ["Cgroups", "NoCgroupWarning", "StepGroup", "remove_stale"]
