"""Ending a process without taking its objects apart (`process.exit_now`), and the `hwrepair` command that does.

What an interpreter's exit does for others must still happen: threads joined, atexit handlers run, open files and
the standard streams flushed, a standard output that cannot be written reported in the status."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_hwrepair.cli import main
from pytest_hwrepair.process import FLUSH_FAILED

from .report_helpers import bug_samples, five_bugs, plant

# A process that leaves work for its exit: a thread still writing, an atexit handler, a file with buffered data.
LEAVES_WORK = """
import atexit, sys, threading, time
from pytest_hwrepair.process import exit_now
path = sys.argv[1]
left_open = open(path, "w")
left_open.write("buffered, never flushed by the program")
def late():
    time.sleep(0.3)
    print("thread finished", flush=False)
threading.Thread(target=late).start()
atexit.register(lambda: print("atexit ran"))
sys.stdout.write("written, not flushed")
exit_now(int(sys.argv[2]), open_files=sys.argv[3] == "1")
"""


# The standard output block-buffered, as an interpreter has it when its output is a pipe or a file.
BUFFERED_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def run_python(code: str, *args: str, stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], stdout=stdout, stderr=subprocess.PIPE, text=True,
                          check=False, timeout=60, env=BUFFERED_ENV)


def test_an_exit_without_teardown_still_does_what_an_exit_does_for_others(tmp_path: Path) -> None:
    done = run_python(LEAVES_WORK, str(tmp_path / "open.txt"), "3", "1")
    assert done.returncode == 3
    assert done.stdout.startswith("written, not flushed")
    assert done.stdout.index("thread finished") < done.stdout.index("atexit ran")  # joined first, as an exit does
    assert (tmp_path / "open.txt").read_text() == "buffered, never flushed by the program"


def test_a_caller_that_left_no_file_open_skips_the_walk_but_not_the_standard_streams(tmp_path: Path) -> None:
    done = run_python(LEAVES_WORK, str(tmp_path / "open.txt"), "0", "0")
    assert done.returncode == 0
    assert "written, not flushed" in done.stdout and "atexit ran" in done.stdout


def test_a_standard_output_that_cannot_be_written_is_the_status_an_interpreter_gives(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        done = run_python(LEAVES_WORK, str(tmp_path / "open.txt"), "0", "1", stdout=full.fileno())
    assert done.returncode == FLUSH_FAILED
    with open("/dev/full", "w") as full:  # a status of its own is kept
        done = run_python(LEAVES_WORK, str(tmp_path / "open.txt"), "4", "1", stdout=full.fileno())
    assert done.returncode == 4


def test_a_reader_that_has_gone_does_not_change_the_status(tmp_path: Path) -> None:
    # The output waits in the buffer until the exit flushes it; by then the reader (`true`) has gone.
    code = ("import sys, time; from pytest_hwrepair.process import exit_now; sys.stdout.write('x' * 100); "
            "time.sleep(0.5); exit_now(0)")
    done = subprocess.run(f"{sys.executable} -c \"{code}\" | true; exit ${{PIPESTATUS[0]}}", shell=True,
                          executable="/bin/bash", capture_output=True, text=True, check=False, timeout=60,
                          env=BUFFERED_ENV)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@pytest.mark.parametrize("args", [[], ["--format", "json"], ["--json"], ["--format", "csv", "--out", "{out}"]])
def test_the_command_writes_the_same_report_as_the_function(tmp_path: Path, args: list[str],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`hwrepair report` as installed ends its process without taking the report apart: every byte is still
    written, to standard output or to --out, and the status is the function's."""
    run = plant(tmp_path / "run", [*five_bugs(), *bug_samples("b", "OOB-02", "Pg Fa Fb")])
    inside = [a.replace("{out}", str(tmp_path / "inside.csv")) for a in args]
    outside = [a.replace("{out}", str(tmp_path / "outside.csv")) for a in args]
    capsys.readouterr()
    assert main(["report", str(run), *inside]) == 0
    expected = capsys.readouterr().out
    done = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "report", str(run), *outside],
                          capture_output=True, text=True, check=False, timeout=120, env=BUFFERED_ENV)
    assert done.returncode == 0, done.stderr
    if "--out" in args:
        assert (tmp_path / "outside.csv").read_text() == (tmp_path / "inside.csv").read_text()
        assert "wrote" in done.stderr
    else:
        assert done.stdout == expected and len(expected) > 100


def test_a_report_the_command_cannot_write_is_a_failure(tmp_path: Path) -> None:
    run = plant(tmp_path / "run", five_bugs())
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "pytest_hwrepair.cli", "report", str(run)], stdout=full,
                              stderr=subprocess.PIPE, text=True, check=False, timeout=120, env=BUFFERED_ENV)
    assert done.returncode != 0


def test_the_installed_command_is_the_one_that_ends_its_process() -> None:
    from importlib.metadata import entry_points

    (script,) = [ep for ep in entry_points(group="console_scripts") if ep.name == "hwrepair"]
    assert script.value == "pytest_hwrepair.cli:console"
