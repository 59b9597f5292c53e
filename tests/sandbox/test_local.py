"""The local sandbox contains what a candidate can do: fork, hang, flood, reach out, read secrets."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.sandbox.base import Limits
from pytest_hwrepair.sandbox.local import sandbox as spawning
from pytest_hwrepair.sandbox.local.sandbox import Cgroups, LocalSandbox, StepGroup
from pytest_hwrepair.sandbox.slots import Slots

from ..fakes import searchable_dir

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


@pytest.fixture
def sandbox(tmp_path: Path) -> LocalSandbox:
    return LocalSandbox(Slots(tmp_path / "slots", 2))


@pytest.fixture
def tmp_path() -> Iterator[Path]:  # world-searchable, like the harness's own workspaces
    yield from searchable_dir()


def run(sandbox: LocalSandbox, ws: Path, cmd: str, timeout: float = 5, **limits: int) -> object:
    ws.mkdir(exist_ok=True)
    return sandbox.run(ws, cmd, timeout=timeout, limits=Limits(**limits))


def surviving(marker: str) -> list[str]:
    """Processes whose command line holds `marker` as a whole ("sleep 30", not another job's "sleep 300").

    Every test sleeps for a number of its own: tests on the other workers run at the same time.
    """
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    pattern = re.compile(re.escape(marker) + r"(?!\d)")
    return [line for line in out.splitlines() if pattern.search(line) and "ps -eo" not in line]


def test_sleeping_forever_times_out_and_leaves_nothing(sandbox: LocalSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path / "ws", "(sleep 1000 &) ; sleep 999", timeout=1)
    assert ex.timed_out and ex.returncode is None  # type: ignore[attr-defined]
    assert ex.duration < 4  # type: ignore[attr-defined]
    assert surviving("sleep 999") == [] and surviving("sleep 1000") == []


def test_memory_limit_zero_means_no_limit(sandbox: LocalSandbox, tmp_path: Path) -> None:
    # Sanitizer runs lift the limit (memory=0): their shadow memory needs a huge reservation.
    ex = run(sandbox, tmp_path / "ws", "echo alive", memory=0)
    assert ex.returncode == 0 and ex.stdout == "alive\n"  # type: ignore[attr-defined]


def test_fork_bomb_is_contained(sandbox: LocalSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path / "ws", "bash -c ':(){ :|:& };:; sleep 30'", timeout=3, processes=64)
    assert not ex.ok  # type: ignore[attr-defined]
    assert surviving(":|:") == []
    # the rest of the machine still forks
    assert subprocess.run(["true"], check=False).returncode == 0


def test_gigabytes_of_output_are_capped_with_a_marker(sandbox: LocalSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path / "ws", "head -c 300000000 /dev/zero | tr '\\0' y", timeout=20, output=4096)
    assert ex.truncated  # type: ignore[attr-defined]
    assert "[... output truncated:" in ex.stdout  # type: ignore[attr-defined]
    assert len(ex.stdout) < 5000  # type: ignore[attr-defined]


@needs_bwrap
def test_network_is_unreachable(sandbox: LocalSandbox, tmp_path: Path) -> None:
    code = "import socket; socket.create_connection(('1.1.1.1', 53), timeout=2)"
    ex = run(sandbox, tmp_path / "ws", f"python3 -c \"{code}\"")
    assert ex.returncode != 0  # type: ignore[attr-defined]
    assert "unreachable" in ex.stderr.lower() or "errno" in ex.stderr.lower()  # type: ignore[attr-defined]


@needs_bwrap
def test_only_the_workspace_is_writable(sandbox: LocalSandbox, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    ex = run(sandbox, tmp_path / "ws", f"echo x > inside.txt; echo y > {outside}; echo z > /usr/hwrepair-probe")
    assert (tmp_path / "ws" / "inside.txt").exists()
    assert not outside.exists()  # /tmp inside the sandbox is private
    assert not Path("/usr/hwrepair-probe").exists()
    assert ex.returncode != 0  # type: ignore[attr-defined]


def test_environment_is_scrubbed_and_fixed(sandbox: LocalSandbox, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret-value")
    monkeypatch.setenv("MY_TOKEN", "tok")
    ex = run(sandbox, tmp_path / "ws", "env")
    env = dict(line.split("=", 1) for line in ex.stdout.splitlines() if "=" in line)  # type: ignore[attr-defined]
    assert "ANTHROPIC_API_KEY" not in env and "MY_TOKEN" not in env
    assert "sk-secret-value" not in ex.stdout  # type: ignore[attr-defined]
    assert env["LC_ALL"] == "C" and env["TZ"] == "UTC"
    assert env["HOME"] == ("/sandbox/ws" if shutil.which("bwrap") else env["PWD"])  # the step's own workspace


def test_address_space_randomisation_is_off(sandbox: LocalSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path / "ws", "cat /proc/self/personality")
    assert int(ex.stdout.strip(), 16) & 0x0040000  # type: ignore[attr-defined]


def test_signals_and_exit_codes_are_reported(sandbox: LocalSandbox, tmp_path: Path) -> None:
    assert run(sandbox, tmp_path / "a", "exit 3").returncode == 3  # type: ignore[attr-defined]
    killed = run(sandbox, tmp_path / "b", "kill -SEGV $$")
    assert killed.signal == 11  # type: ignore[attr-defined]


@pytest.mark.skipif(os.geteuid() != 0, reason="per-step uids need root")
def test_steps_run_as_an_unprivileged_uid(sandbox: LocalSandbox, tmp_path: Path) -> None:
    ex = run(sandbox, tmp_path / "ws", "id -u")
    assert int(ex.stdout.strip()) >= 61000  # type: ignore[attr-defined]


def test_slots_bound_concurrency(tmp_path: Path) -> None:
    slots = Slots(tmp_path / "s", 1)
    with slots.acquire() as first:
        assert first == 0
        child = subprocess.run(
            ["python3", "-c", "import fcntl,os,sys; fd=os.open(sys.argv[1], os.O_RDWR);"
             "fcntl.flock(fd, fcntl.LOCK_EX|fcntl.LOCK_NB)", str(tmp_path / "s" / "slot-0.lock")],
            capture_output=True, text=True, check=False)
        assert child.returncode != 0 and "BlockingIOError" in child.stderr


@pytest.fixture(params=["gated", "preexec", "own-uid"])
def spawn(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> LocalSandbox:
    """Every way a step starts: through the shell gate (setpriv installed), with the uid drop between fork and
    exec (no setpriv), and, as without root, under the harness's own uid; a candidate meets the same limits."""
    if request.param == "preexec":
        monkeypatch.setattr(spawning, "SETPRIV", None)
    elif spawning.SETPRIV is None:
        pytest.skip("setpriv is not installed")
    box = LocalSandbox(Slots(tmp_path / "slots", 2))
    if request.param == "own-uid":
        box.drop_privileges = False
    return box


def _limits(text: str) -> dict[str, tuple[str, str]]:
    out = {}
    for line in text.splitlines()[1:]:
        parts = line.split()
        for name in ("Max cpu time", "Max file size", "Max core file size", "Max address space", "Max processes"):
            if line.startswith(name):
                out[name] = (parts[len(name.split())], parts[len(name.split()) + 1])
    return out


def test_the_steps_limits_hold_from_its_first_process(spawn: LocalSandbox, tmp_path: Path) -> None:
    # The candidate's command reads its own limits, uid and personality: a step that started before the
    # harness confined it would show the harness's own (unlimited, root, randomised).
    ex = run(spawn, tmp_path / "ws", "cat /proc/self/limits; echo uid=$(id -u); cat /proc/self/personality",
             timeout=7, memory=1 << 30, processes=77, file_size=5 << 20)
    got = _limits(ex.stdout)  # type: ignore[attr-defined]
    assert got["Max cpu time"] == ("9", "10")
    assert got["Max file size"] == (str(5 << 20), str(5 << 20))
    assert got["Max core file size"] == ("0", "0")
    assert got["Max address space"] == (str(1 << 30), str(1 << 30))
    uid = int(ex.stdout.split("uid=")[1].split()[0])  # type: ignore[attr-defined]
    if spawn.drop_privileges:
        assert got["Max processes"] == ("77", "77") and uid >= 61000
    else:
        assert uid == os.getuid()
    assert int(ex.stdout.strip().splitlines()[-1], 16) & 0x0040000  # type: ignore[attr-defined]


@pytest.mark.skipif(os.geteuid() != 0 or Cgroups().kind == "none", reason="needs a writable cgroup hierarchy")
def test_the_step_runs_in_its_own_cgroup(spawn: LocalSandbox, tmp_path: Path) -> None:
    # Seen from outside (inside the step its cgroup namespace shows "/"): while the step sleeps, its sleep is a
    # member of a step group in every hierarchy the harness limits it with.
    cgroups = Cgroups()
    parents = [cgroups.v2] if cgroups.v2 is not None else list(cgroups.v1 or ())
    worker = threading.Thread(target=run, args=(spawn, tmp_path / "ws", "sleep 2.5"))
    worker.start()
    try:
        members: dict[Path, set[str]] = {}
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and len(members) < len(parents):
            for parent in parents:
                for group in parent.glob("hwrepair-*"):  # type: ignore[union-attr]
                    with contextlib.suppress(OSError):  # another test's group may go while it is read
                        for pid in (group / "cgroup.procs").read_text().split():
                            if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"sleep\0"):
                                members.setdefault(parent, set()).add(pid)  # type: ignore[arg-type]
            time.sleep(0.05)
    finally:
        worker.join()
    assert set(members) == set(parents), members


def test_the_harness_keeps_its_own_randomisation(sandbox: LocalSandbox, tmp_path: Path) -> None:
    # Randomisation is turned off for the step's processes only, never for the harness or its other children.
    run(sandbox, tmp_path / "ws", "true")
    mine = subprocess.run(["cat", "/proc/self/personality"], capture_output=True, text=True, check=True).stdout
    assert not int(mine.strip(), 16) & 0x0040000


@pytest.mark.skipif(spawning.SETPRIV is None, reason="setpriv is not installed")
def test_a_step_that_cannot_be_confined_never_runs(sandbox: LocalSandbox, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "ran"
    def refuse(*_: object) -> None:
        raise PermissionError("prlimit refused")

    monkeypatch.setattr(spawning.resource, "prlimit", refuse)
    with pytest.raises(spawning.SandboxError, match="could not be put under its limits"):
        run(sandbox, tmp_path / "ws", f"echo escaped > {marker}; sleep 77")
    assert not marker.exists() and surviving("sleep 77") == []


@pytest.mark.skipif(os.geteuid() != 0 or Cgroups().kind != "v1" or spawning.SETPRIV is None,
                    reason="the gate moves itself into cgroup v1 groups")
def test_a_gate_that_cannot_move_itself_into_its_group_runs_nothing(sandbox: LocalSandbox, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "ran"
    create = Cgroups._create

    def unjoinable(self: Cgroups, memory: int, processes: int) -> StepGroup | None:
        group = create(self, memory, processes)
        assert group is not None and group.self_attach
        return dataclasses.replace(group, self_attach=(*group.self_attach, tmp_path / "gone" / "tasks"))

    monkeypatch.setattr(Cgroups, "_create", unjoinable)
    with pytest.raises(spawning.SandboxError, match="did not start the step"):
        run(sandbox, tmp_path / "ws", f"echo escaped > {marker}; sleep 78")
    assert not marker.exists() and surviving("sleep 78") == []


@pytest.mark.skipif(os.geteuid() != 0 or Cgroups().kind == "none", reason="needs a writable cgroup hierarchy")
def test_step_groups_are_removed_after_their_steps(sandbox: LocalSandbox, tmp_path: Path) -> None:
    # The emptied groups go on a thread of their own; none of this process's stays behind.
    for n in range(4):
        run(sandbox, tmp_path / f"ws{n}", "(sleep 31 &); echo left a child")
    cgroups = Cgroups()
    parents = [cgroups.v2] if cgroups.v2 is not None else list(cgroups.v1 or ())
    mine = f"hwrepair-{os.getpid()}-"
    deadline = time.monotonic() + 5
    left: list[Path] = []
    while time.monotonic() < deadline:
        left = [g for parent in parents for g in parent.glob(f"{mine}*")]  # type: ignore[union-attr]
        if not left:
            break
        time.sleep(0.05)
    assert left == [] and surviving("sleep 31") == []


def test_a_step_whose_first_process_cannot_start_leaks_no_descriptor(sandbox: LocalSandbox, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # A harness failure before the step exists (here: no shell to gate it) is an error, and every pipe and
    # memfd the step would have used is closed again: a long run must not run out of descriptors.
    run(sandbox, tmp_path / "warm", "true")
    before = len(os.listdir("/proc/self/fd"))
    monkeypatch.setattr(spawning, "GATE_SHELL", str(tmp_path / "no-such-shell"))
    for n in range(3):
        with pytest.raises(OSError):
            run(sandbox, tmp_path / f"ws{n}", "true")
    assert len(os.listdir("/proc/self/fd")) == before
