"""A killed run leaves no scratch directory behind for good, stays listed in run.json, and runs under any
TMPDIR share one uid pool."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_hwrepair.sandbox import scratch
from pytest_hwrepair.sandbox.slots import Slots

HOLD = "from pytest_hwrepair.sandbox import scratch; print(scratch.make('x-'), flush=True); import time; time.sleep(60)"


def _env(tmpdir: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmpdir)}


def _pytest(cwd: Path, tmpdir: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider", "cases",
                             "--hwrepair-run", "r", *args], cwd=cwd, env=_env(tmpdir), start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _wait_for(predicate: Callable[[], bool], what: str, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"never saw {what}")
        time.sleep(0.2)


def _sessions(run: Path) -> list[dict[str, object]]:
    sessions: list[dict[str, object]] = json.loads((run / "run.json").read_text())["sessions"]
    return sessions


def test_a_killed_run_is_swept_at_the_next_start_and_stays_listed(demo_pytester: pytest.Pytester) -> None:
    tmpdir = demo_pytester.path / "tmp"
    tmpdir.mkdir()
    proc = _pytest(demo_pytester.path, tmpdir, "--fixer", "cmd:sleep 600", "--hwrepair-samples", "1")
    _wait_for(lambda: any(tmpdir.glob("hwrepair-owner-*/hwrepair-agent-*")), "the agent's workspace")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    left = list(tmpdir.glob("hwrepair-owner-*"))
    assert left, "the killed run left nothing: this test would not notice a leak"
    (killed,) = _sessions(demo_pytester.path / "r")
    assert killed["end"] is None and killed["start"]

    again = _pytest(demo_pytester.path, tmpdir, "--fixer", "reference")
    out = again.communicate(timeout=300)[0].decode()
    assert again.returncode == 0, out
    assert not any(path.exists() for path in left), os.listdir(tmpdir)
    first, second = _sessions(demo_pytester.path / "r")
    assert first["session"] == killed["session"] and first["end"] is None
    assert second["end"] and second["session"] != killed["session"]


def test_a_live_owner_keeps_its_directories(tmp_path: Path) -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLD], env=_env(tmp_path), stdout=subprocess.PIPE)
    assert holder.stdout is not None
    made = Path(holder.stdout.readline().decode().strip())
    try:
        assert scratch.sweep(tmp_path) == 0 and made.is_dir()
    finally:
        holder.kill()
        holder.wait()
    assert scratch.sweep(tmp_path) == 1 and not made.parent.exists()


def test_the_sweep_never_follows_a_planted_link_or_takes_anothers_directory(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / ".owner.lock").write_text("")
    (victim / "precious").write_text("keep")
    (tmp_path / "hwrepair-owner-1-link").symlink_to(victim)
    foreign = tmp_path / "hwrepair-owner-2-foreign"
    foreign.mkdir()
    (foreign / ".owner.lock").write_text("")
    if os.geteuid() == 0:
        os.chown(foreign, 61999, 61999)
    else:
        pytest.skip("needs root to plant a directory of another uid")
    assert scratch.sweep(tmp_path) == 0
    assert (victim / "precious").read_text() == "keep" and foreign.is_dir()


def test_a_normal_exit_removes_the_owner_directory(tmp_path: Path) -> None:
    code = "from pytest_hwrepair.sandbox import scratch; print(scratch.make('x-'))"
    made = Path(subprocess.run([sys.executable, "-c", code], env=_env(tmp_path), capture_output=True, text=True,
                               check=True).stdout.strip())
    assert made.is_relative_to(tmp_path) and not made.parent.exists()


def test_the_uid_pool_does_not_follow_tmpdir(tmp_path: Path) -> None:
    code = "from pytest_hwrepair.sandbox.local.sandbox import UID_POOL; print(UID_POOL.directory)"
    seen = set()
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        out = subprocess.run([sys.executable, "-c", code], env=_env(tmp_path / name), capture_output=True,
                             text=True, check=True).stdout.strip()
        assert not Path(out).is_relative_to(tmp_path)
        seen.add(out)
    assert len(seen) == 1


@pytest.mark.parametrize("plant", ["link", "world-writable"])
def test_a_planted_uid_lock_directory_is_refused(tmp_path: Path, plant: str) -> None:
    locks = tmp_path / "locks"
    if plant == "link":
        (tmp_path / "elsewhere").mkdir()
        locks.symlink_to(tmp_path / "elsewhere")
    else:
        locks.mkdir()
        locks.chmod(0o777)
    with pytest.raises(RuntimeError, match="only it may write"), Slots(locks, 2, private=True).acquire():
        pass
    if plant == "link":
        assert not list((tmp_path / "elsewhere").iterdir())  # no lock file was created through the link


def test_a_slot_held_in_the_older_pool_is_not_handed_out(tmp_path: Path) -> None:
    older = Slots(tmp_path / "old", 2)
    pool = Slots(tmp_path / "new", 2, also=Slots(tmp_path / "old", 2))
    for _ in range(12):  # each slot picked at random: a pool ignoring the older one would collide by chance
        with older.acquire() as taken, pool.acquire() as index:
            assert index != taken
