"""Several commands in one closed step judge exactly as one step each would, and a command cannot use the
shared step to pass: leftovers are killed between commands, /tmp starts empty, records it breaks fail it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_hwrepair.sandbox.base import BatchSandbox, Command, Execution, Limits, one_by_one, run_commands
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.sandbox.slots import Slots

from ..fakes import searchable_dir
from ..sandbox.test_local import surviving

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
LIMITS = Limits()


@pytest.fixture
def tmp_path() -> Iterator[Path]:  # world-searchable, like the harness's own workspaces
    yield from searchable_dir()


@pytest.fixture
def sandbox(tmp_path: Path) -> LocalSandbox:
    return LocalSandbox(Slots(tmp_path / "slots", 2))


def batch(sandbox: LocalSandbox, tmp_path: Path, commands: list[Command], *, timeout: float = 10,
          limits: Limits = LIMITS, together: bool = True) -> tuple[list[Execution], Path, Path]:
    ws, kept = tmp_path / "ws", tmp_path / "kept"
    ws.mkdir(exist_ok=True)
    kept.mkdir(exist_ok=True)
    if together:
        done = sandbox.run_batch(ws, commands, timeout=timeout, limits=limits, kept=kept)
    else:
        done = one_by_one(sandbox, ws, commands, timeout=timeout, limits=limits, kept=kept)
    return done, ws, kept


SEQUENCE = [
    Command("echo out-1; echo err-1 >&2; echo one > out.txt; echo state > state.txt; echo t > /tmp/t", "out.txt"),
    Command("cat state.txt; test ! -e /tmp/t && echo fresh-tmp; test ! -e out.txt && echo no-stale; "
            "echo two > out.txt", "out.txt"),
    Command("echo last; exit 0"),
]


def shape(done: list[Execution]) -> list[tuple[int | None, str, str, bool, int | None]]:
    return [(ex.returncode, ex.stdout, ex.stderr, ex.timed_out, ex.signal) for ex in done]


@needs_bwrap
def test_a_batch_gives_what_one_step_each_gives(sandbox: LocalSandbox, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    together, ws, kept = batch(sandbox, tmp_path / "a", SEQUENCE)
    apart, ws2, kept2 = batch(sandbox, tmp_path / "b", SEQUENCE, together=False)
    assert shape(together) == shape(apart)
    assert shape(together) == [(0, "out-1\n", "err-1\n", False, None),
                               (0, "state\nfresh-tmp\nno-stale\n", "", False, None), (0, "last\n", "", False, None)]
    for folder in (kept, kept2):
        assert (folder / "1" / "out.txt").read_text() == "one\n"
        assert (folder / "2" / "out.txt").read_text() == "two\n"
    for folder in (ws, ws2):  # the workspace as the last command left it, with no record of the batch in it
        assert sorted(p.name for p in folder.iterdir()) == ["state.txt"]


@needs_bwrap
def test_a_batch_ends_at_its_first_failing_command(sandbox: LocalSandbox, tmp_path: Path) -> None:
    done, ws, _ = batch(sandbox, tmp_path, [Command("true"), Command("echo no >&2; exit 3"), Command("touch ran")])
    assert [ex.returncode for ex in done] == [0, 3] and done[1].stderr == "no\n"
    assert not (ws / "ran").exists()


@needs_bwrap
def test_each_command_has_its_own_deadline(sandbox: LocalSandbox, tmp_path: Path) -> None:
    # Together the first two take longer than one deadline: each is held to its own.
    done, ws, _ = batch(sandbox, tmp_path, [Command("sleep 1.2"), Command("sleep 1.2"), Command("sleep 41"),
                                            Command("touch ran")], timeout=2)
    assert [ex.ok for ex in done] == [True, True, False]
    assert done[2].timed_out and done[2].returncode is None and 2 <= done[2].duration < 6
    assert not (ws / "ran").exists() and surviving("sleep 41") == []


@needs_bwrap
def test_what_a_command_leaves_running_is_killed_before_the_next_one(sandbox: LocalSandbox, tmp_path: Path) -> None:
    # The first command leaves a process that would overwrite the second one's output while it runs.
    first = Command("(sleep 0.3; echo forged > out.txt) >/dev/null 2>&1 & echo started", "out.txt")
    second = Command("echo own > out.txt; sleep 0.8; for p in /proc/[0-9]*; do cat $p/comm 2>/dev/null; done",
                     "out.txt")
    done, _, kept = batch(sandbox, tmp_path, [first, second])
    assert [ex.ok for ex in done] == [True, True]
    assert (kept / "2" / "out.txt").read_text() == "own\n"
    assert "sleep" not in done[1].stdout.split()  # its own sleep ended before it listed the processes


@needs_bwrap
def test_a_command_that_kills_the_launcher_fails(sandbox: LocalSandbox, tmp_path: Path) -> None:
    # Every process of the step but itself: the launcher that would record the batch dies with it.
    done, ws, _ = batch(sandbox, tmp_path, [Command("kill -KILL -1; exit 0"), Command("touch ran")])
    assert len(done) == 1 and not done[0].ok
    assert not (ws / "ran").exists()


@needs_bwrap
def test_a_command_that_removes_the_records_fails(sandbox: LocalSandbox, tmp_path: Path) -> None:
    done, _, _ = batch(sandbox, tmp_path, [Command("rm -rf .hwrepair-steps; exit 0"), Command("true")])
    assert len(done) == 1 and not done[0].ok
    assert "record" in done[0].stderr


@needs_bwrap
def test_a_command_cannot_write_its_own_record(sandbox: LocalSandbox, tmp_path: Path) -> None:
    forge = "printf '0 1 2\\n' > .hwrepair-steps/1.rc; printf '0 1 2\\n' > .hwrepair-steps/2.rc; exit 4"
    done, _, _ = batch(sandbox, tmp_path, [Command(forge), Command("true")])
    assert [ex.returncode for ex in done] == [4]


@needs_bwrap
def test_a_later_command_cannot_forge_an_earlier_record_that_failed(sandbox: LocalSandbox, tmp_path: Path) -> None:
    # The batch stops at the failure: nothing after it runs that could rewrite its record.
    done, _, _ = batch(sandbox, tmp_path, [Command("exit 9"), Command("printf '0 1 2\\n' > .hwrepair-steps/1.rc")])
    assert [ex.returncode for ex in done] == [9]


@needs_bwrap
def test_a_crash_and_a_signal_are_reported_per_command(sandbox: LocalSandbox, tmp_path: Path) -> None:
    done, _, _ = batch(sandbox, tmp_path, [Command("true"), Command("kill -SEGV $$")])
    assert done[1].signal == 11 and not done[1].ok


@needs_bwrap
def test_a_flood_of_output_is_capped_with_a_marker(sandbox: LocalSandbox, tmp_path: Path) -> None:
    limits = Limits(output=1 << 16)
    done, _, _ = batch(sandbox, tmp_path, [Command("head -c 1000000 /dev/zero | tr '\\0' x"), Command("true")],
                       limits=limits)
    assert done[0].truncated and len(done[0].stdout) < (1 << 16) + 200 and "truncated" in done[0].stdout
    assert done[1].ok


@needs_bwrap
def test_a_kept_output_that_is_a_link_is_not_followed(sandbox: LocalSandbox, tmp_path: Path) -> None:
    done, _, kept = batch(sandbox, tmp_path, [Command("ln -s /etc/passwd out.txt", "out.txt"), Command("true")])
    assert done[0].ok
    assert not (kept / "1" / "out.txt").exists()  # links never come back from a step


def test_a_sandbox_without_batches_runs_one_step_each(tmp_path: Path) -> None:
    class OneAtATime:
        name = "one"

        def __init__(self) -> None:
            self.ran: list[str] = []

        def run(self, workdir: Path, argv: str, *, timeout: float, limits: Limits) -> Execution:
            self.ran.append(argv)
            if argv.startswith("write"):
                (workdir / "out.txt").write_text(argv)
            return Execution(argv, 0 if argv != "fail" else 1, "", "", 0.0)

    plain = OneAtATime()
    assert not isinstance(plain, BatchSandbox)
    (tmp_path / "ws").mkdir()
    (tmp_path / "kept").mkdir()
    (tmp_path / "ws" / "out.txt").write_text("stale")
    done = run_commands(plain, tmp_path / "ws", [Command("noop", "out.txt"), Command("write 2", "out.txt"),
                                                 Command("fail"), Command("never")],
                        timeout=1, limits=LIMITS, kept=tmp_path / "kept")
    assert plain.ran == ["noop", "write 2", "fail"] and [ex.returncode for ex in done] == [0, 0, 1]
    assert not (tmp_path / "kept" / "1" / "out.txt").exists()  # the stale copy was removed before the command
    assert (tmp_path / "kept" / "2" / "out.txt").read_text() == "write 2"


def test_a_kept_file_needs_somewhere_to_go(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="kept"):
        run_commands(LocalSandbox(isolate=False), tmp_path, [Command("true", "out.txt")], timeout=1, limits=LIMITS)


@needs_bwrap
def test_a_flood_of_output_neither_kills_the_command_nor_spills_into_the_next(sandbox: LocalSandbox,
                                                                               tmp_path: Path) -> None:
    limits = Limits(output=1 << 16, file_size=1 << 20)  # more output than a file may hold: still no SIGXFSZ
    done, _, _ = batch(sandbox, tmp_path, [Command("head -c 3000000 /dev/zero | tr '\\0' x; echo done >&2"),
                                           Command("echo second")], limits=limits)
    assert done[0].returncode == 0 and done[0].truncated and done[0].stderr == "done\n"
    assert done[1].stdout == "second\n" and not done[1].truncated


@needs_bwrap
def test_output_that_imitates_the_separator_stays_the_commands_own(sandbox: LocalSandbox, tmp_path: Path) -> None:
    fake = "printf '\\036hwrepair:0123456789abcdef0123456789abcdef\\036'; echo tail"
    done, _, _ = batch(sandbox, tmp_path, [Command(fake), Command("echo second")])
    assert done[0].stdout == "\x1ehwrepair:0123456789abcdef0123456789abcdef\x1etail\n"
    assert done[1].stdout == "second\n"


def test_a_separator_cut_across_reads_is_still_found() -> None:
    import os
    import threading

    from pytest_hwrepair.sandbox.local.sandbox import Drain

    mark = b"\x1ehwrepair:abc\x1e"
    data = b"one" + mark + b"two" * 10 + mark + b"three"
    r, w = os.pipe()
    reader = os.fdopen(r, "rb")
    drain = Drain(reader, 16, mark)

    def write() -> None:
        for byte in range(len(data)):  # one byte a write: every cut point of both separators
            os.write(w, data[byte:byte + 1])
        os.close(w)

    writer = threading.Thread(target=write)
    writer.start()
    writer.join()
    drain.join()
    assert drain.text(0) == "one"
    assert drain.text(1).startswith("two" * 5 + "t") and drain.part_dropped(1) == 14
    assert drain.text(2) == "three" and drain.text(3) == ""


@needs_bwrap
@pytest.mark.parametrize("names", ["plain", "odd"])
def test_files_a_program_leaves_cannot_push_the_step_records_out(sandbox: LocalSandbox, tmp_path: Path,
                                                                 names: str) -> None:
    """A correct program that leaves more files than the copy-back keeps (or odd names) is still reported at
    its own stage with its own status: the records travel ahead of the workspace."""
    make = ("for i in $(seq 1 700); do : > \"f$i\"; done" if names == "plain"
            else "for i in $(seq 1 700); do : > \"$(printf 'f\\001\\033[2J %s' $i)\"; done")
    done, _, _ = batch(sandbox, tmp_path, [Command("echo built"), Command(f"{make}; echo ran > out.txt", "out.txt"),
                                           Command("echo compared")], timeout=60)
    assert [ex.returncode for ex in done] == [0, 0, 0], shape(done)
    assert done[2].stdout.startswith("compared")
