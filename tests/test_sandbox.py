"""The local sandbox contains what a candidate can do: fork, hang, flood, reach out, read secrets."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.sandbox.base import Limits
from pytest_hwrepair.sandbox.local import LocalSandbox
from pytest_hwrepair.sandbox.slots import Slots

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


@pytest.fixture
def sandbox(tmp_path: Path) -> LocalSandbox:
    return LocalSandbox(Slots(tmp_path / "slots", 2))


@pytest.fixture
def tmp_path() -> Iterator[Path]:  # world-searchable, like the harness's own workspaces
    path = Path(tempfile.mkdtemp(prefix="hwrepair-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run(sandbox: LocalSandbox, ws: Path, cmd: str, timeout: float = 5, **limits: int) -> object:
    ws.mkdir(exist_ok=True)
    return sandbox.run(ws, cmd, timeout=timeout, limits=Limits(**limits))


def surviving(marker: str) -> list[str]:
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if marker in line and "ps -eo" not in line]


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
