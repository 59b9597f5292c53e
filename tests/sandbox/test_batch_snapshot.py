"""A batch's snapshot: the workspace as one command left it, copied back apart before the next command runs.

The suite oracle builds and runs an HLS candidate in one closed step and keeps the build for the strong
oracle this way, so a snapshot must hold exactly what a step of its own would have copied back after that
command: nothing a later command did, nothing a command wrote to a descriptor, nothing of what the command
left running, no link, nothing of a command that failed.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_hwrepair.oracles.hls.builds import BUILDS
from pytest_hwrepair.sandbox.base import SNAPSHOT, Command, Execution, Limits, run_commands
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox

from ..fakes import searchable_dir
from ..hls_diff_helpers import SpySandbox, make_case, strong, suite
from ..sandbox.test_batch import batch as batch_of

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
LIMITS = Limits()


@pytest.fixture
def tmp_path() -> Iterator[Path]:  # world-searchable, like the harness's own workspaces
    yield from searchable_dir()


def tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() if p.is_file() else "/" for p in sorted(folder.rglob("*"))}


def batch(tmp_path: Path, commands: list[Command], *, together: bool = True,
          timeout: float = 10) -> tuple[list[Execution], Path, Path]:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "src.c").write_text("source\n")
    return batch_of(LocalSandbox(), tmp_path, commands, timeout=timeout, together=together)


BUILD_THEN_RUN = [
    Command("echo built > prog; mkdir d; echo inner > d/f; echo t > /tmp/t", snapshot=True),
    Command("test ! -e /tmp/t && echo fresh-tmp; cat prog; echo ran > prog; rm d/f; echo new > new.txt"),
]


@needs_bwrap
@pytest.mark.parametrize("together", [True, False], ids=["one step", "one step each"])
def test_a_snapshot_is_the_workspace_its_command_left(tmp_path: Path, together: bool) -> None:
    done, ws, kept = batch(tmp_path, BUILD_THEN_RUN, together=together)
    assert [ex.returncode for ex in done] == [0, 0] and done[1].stdout == "fresh-tmp\nbuilt\n"
    assert tree(kept / SNAPSHOT.format(1)) == {"d": "/", "d/f": "inner\n", "prog": "built\n", "src.c": "source\n"}
    assert tree(ws) == {"d": "/", "new.txt": "new\n", "prog": "ran\n", "src.c": "source\n"}
    assert sorted(p.name for p in kept.iterdir()) == ["1.workspace"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept", "ws"]  # no staging left beside them


@needs_bwrap
@pytest.mark.parametrize("first", ["echo half > prog; exit 3", "echo half > prog; sleep 5"], ids=["fails", "too long"])
def test_a_command_that_did_not_succeed_leaves_no_snapshot(tmp_path: Path, first: str) -> None:
    done, _, kept = batch(tmp_path, [Command(first, snapshot=True), Command("echo never")], timeout=1)
    assert len(done) == 1 and not done[0].ok
    assert list(kept.iterdir()) == []


@needs_bwrap
def test_no_command_can_write_into_the_snapshot(tmp_path: Path) -> None:
    # A made-up archive written to every descriptor a command might hold: the snapshot's is never among them.
    fake = tmp_path / "fake.tar"
    staged = tmp_path / "staged"
    staged.mkdir()
    (staged / "prog").write_text("forged\n")
    shutil.make_archive(str(fake.with_suffix("")), "tar", staged)
    shutil.rmtree(staged)
    spray = "bash -c 'for fd in $(seq 3 90); do { cat forged.tar >&$fd; } 2>/dev/null; done; ls /proc/self/fd'"
    ws, kept = tmp_path / "ws", tmp_path / "kept"
    ws.mkdir()
    kept.mkdir()
    shutil.copy(fake, ws / "forged.tar")
    fake.unlink()
    done = LocalSandbox().run_batch(ws, [Command(f"{spray}; echo built > prog", snapshot=True), Command(spray)],
                                    timeout=10, limits=LIMITS, kept=kept)
    assert [ex.returncode for ex in done] == [0, 0], done
    assert done[0].stdout == done[1].stdout == "0\n1\n2\n3\n"  # stdin, stdout, stderr and the directory ls reads
    snapshot = kept / SNAPSHOT.format(1)
    assert (snapshot / "prog").read_text() == "built\n"
    assert sorted(p.name for p in snapshot.iterdir()) == ["forged.tar", "prog"]


@needs_bwrap
def test_what_a_command_left_running_is_stopped_before_its_snapshot(tmp_path: Path) -> None:
    first = Command("(sleep 0.3; echo late > late.txt) >/dev/null 2>&1 & echo built > prog", snapshot=True)
    done, ws, kept = batch(tmp_path, [first, Command("sleep 0.6")])
    assert [ex.returncode for ex in done] == [0, 0]
    assert not (kept / SNAPSHOT.format(1) / "late.txt").exists() and not (ws / "late.txt").exists()


@needs_bwrap
def test_a_link_in_a_snapshot_stays_behind(tmp_path: Path) -> None:
    done, _, kept = batch(tmp_path, [Command("ln -s /etc/passwd prog; mkfifo pipe", snapshot=True),
                                     Command("true")])
    assert done[0].ok
    assert sorted(p.name for p in (kept / SNAPSHOT.format(1)).iterdir()) == ["src.c"]


def test_a_batch_takes_one_snapshot_and_needs_somewhere_to_put_it(tmp_path: Path) -> None:
    box = LocalSandbox(isolate=False)
    with pytest.raises(ValueError, match="kept"):
        run_commands(box, tmp_path, [Command("true", snapshot=True)], timeout=1, limits=LIMITS)
    with pytest.raises(ValueError, match="at most one"):
        run_commands(box, tmp_path, [Command("true", snapshot=True)] * 2, timeout=1, limits=LIMITS, kept=tmp_path)


class Counting(LocalSandbox):
    """The local sandbox, counting its closed steps."""

    name = "counting"

    def __init__(self) -> None:
        super().__init__()
        self.steps = 0

    def _run(self, *args: Any, **kwargs: Any) -> list[Execution]:
        self.steps += 1
        return super()._run(*args, **kwargs)


# A candidate whose program counts its runs in a workspace file and is wrong on the second run it sees.
COUNTING = """#include <stdio.h>
static int seen = -1;
double mean(const double *x, int n)
{
    double s = 0.0;
    int i;

    if (seen < 0) {
        FILE *f = fopen("count.txt", "r");
        seen = 0;
        if (f) { if (fscanf(f, "%d", &seen) != 1) seen = 0; fclose(f); }
        f = fopen("count.txt", "w");
        if (f) { fprintf(f, "%d", seen + 1); fclose(f); }
    }
    for (i = 0; i < n; i++)
        s += x[i];
    return seen == 1 ? s / n + 1.0 : s / n;
}
"""


@pytest.mark.parametrize("batches", [True, False], ids=["one step", "one step each"])
def test_the_strong_oracle_starts_from_the_build_not_from_the_suite_run(tmp_path: Path, batches: bool) -> None:
    if batches and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")
    BUILDS.clear()
    case = make_case(tmp_path, "mean")
    box: Counting | SpySandbox = Counting() if batches else SpySandbox()
    passed = suite(tmp_path, case, COUNTING, box)  # type: ignore[arg-type]
    assert passed.passed, passed.summary
    if isinstance(box, Counting):
        assert box.steps == 2  # the golden build and run in one step, then the candidate's build and run in one
    # The suite run counted 1; started from its workspace the strong oracle would fail on seed 1.
    verdict = strong(tmp_path, case, COUNTING, box)  # type: ignore[arg-type]
    assert verdict.metrics["build_reused"] is True
    assert verdict.metrics["failed_step"] == "seed 2", verdict.summary
