"""Report parts computed by a forked child: the same value, and nothing lost when the child fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from .test_report_stream import rec, write

# Each check runs in a fresh interpreter: a test process may hold threads (an xdist worker's), and a process
# with threads never forks a part.
PRELUDE = """
import os, signal, sys, time
from pytest_hwrepair.report import aside
from pytest_hwrepair.report.aside import Primed, Aside, FORK_BUGS
parent = os.getpid()
"""


def run_script(body: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(body)], capture_output=True, text=True,
                          timeout=60, check=False)


def test_a_part_is_computed_by_a_forked_child_and_its_value_comes_back() -> None:
    done = run_script("""
        with Aside(lambda: (os.getpid(), list(range(100_000))), bugs=FORK_BUGS) as part:
            assert part.forked
            pid, values = part.result()
        assert pid != parent and values == list(range(100_000)), pid  # more than a pipe holds
        small = Aside(lambda: os.getpid(), bugs=FORK_BUGS - 1)
        assert not small.forked and small.result() == parent  # a small report computes it in place
        print("ok")
    """)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_child_that_dies_or_fails_costs_nothing_but_its_time() -> None:
    done = run_script("""
        def dies():
            if os.getpid() != parent:
                os.kill(os.getpid(), signal.SIGKILL)
            return "computed here"
        with Aside(dies, bugs=FORK_BUGS) as part:
            assert part.forked and part.result() == "computed here"

        def unpicklable():
            return (lambda: 1) if os.getpid() != parent else "computed here"
        with Aside(unpicklable, bugs=FORK_BUGS) as part:
            assert part.result() == "computed here"

        def fails():
            raise LookupError(f"in {'the child' if os.getpid() != parent else 'this process'}")
        with Aside(fails, bugs=FORK_BUGS) as part:
            try:
                part.result()
            except LookupError as exc:  # raised where the caller can see it, with its traceback
                print(exc)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "in this process"


def test_a_part_not_waited_for_or_interrupted_is_killed_and_reaped() -> None:
    done = run_script("""
        start = time.monotonic()
        with Aside(lambda: time.sleep(60), bugs=FORK_BUGS) as part:
            pid = part.pid
        assert time.monotonic() - start < 10
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            print("reaped")

        def interrupt(*_):
            raise KeyboardInterrupt
        signal.signal(signal.SIGALRM, interrupt)
        with Aside(lambda: time.sleep(60), bugs=FORK_BUGS) as part:
            pid = part.pid
            signal.setitimer(signal.ITIMER_REAL, 0.5)
            try:
                part.result()  # interrupted while it reads the child's answer
            except KeyboardInterrupt:
                pass
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            print("reaped after an interrupt")
    """)
    assert done.stdout.split("\n")[:2] == ["reaped", "reaped after an interrupt"], done.stderr


def test_a_process_with_another_thread_never_forks() -> None:
    from pytest_hwrepair.report.aside import FORK_BUGS, Aside

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        part = Aside(os.getpid, bugs=FORK_BUGS)
        assert not part.forked
        assert part.result() == os.getpid()
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_a_report_built_with_forked_parts_is_the_report_built_in_place(tmp_path: Path, fmt: str) -> None:
    lines = [rec(f"k{i}", ("passed", "failed", "error")[i % 3], bug=f"SHFT-{i % 9:02d}", case=f"hls/s/k{i % 13}",
                 sample=i // 117, fixer=("a", "b")[i % 2], label=("a", "b")[i % 2]) for i in range(1500)]
    run = write(tmp_path / "run", lines)
    outputs = {}
    for bugs in (0, 10**9):
        # In place: nothing forked, the rank statistics' part included (it is forked ahead only while scipy.stats
        # is still to be imported).
        code = (f"import sys; from pytest_hwrepair.report import aside; aside.FORK_BUGS = {bugs}; "
                + ("import scipy.stats; " if bugs else "")
                + "from pytest_hwrepair.cli import main; sys.exit(main(sys.argv[1:]))")
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-c", code, "report", str(run), "--format", fmt], capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert time.monotonic() - start < 120
        outputs[bugs] = done.stdout
    assert outputs[0] == outputs[10**9]
    if fmt == "json":
        assert json.loads(outputs[0])["bugs"]  # the per-bug rows, the summary and the statistics are all there


def test_a_primed_part_prepares_in_its_child_and_computes_the_input_given_later() -> None:
    done = run_script("""
        def prepare():
            import wave  # an import this process never makes

        def compute(values):
            return os.getpid(), "wave" in sys.modules, values

        with Primed(prepare, compute) as part:
            assert part.forked
            time.sleep(0.2)
            part.give(list(range(200_000)))  # more than a pipe holds
            pid, prepared, values = part.result()
        assert pid != parent and prepared and values == list(range(200_000)), pid
        assert "wave" not in sys.modules
        print("ok")
    """)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_primed_part_whose_child_dies_or_fails_is_computed_here() -> None:
    done = run_script("""
        def here(values):
            return "computed here" if os.getpid() == parent else os.kill(os.getpid(), signal.SIGKILL)

        with Primed(lambda: None, here) as part:  # dies computing
            part.give([1])
            assert part.result() == "computed here"
        with Primed(lambda: 1 / 0, lambda v: ("child", os.getpid()) if os.getpid() != parent else "computed here") as p:
            p.give([1])  # its preparation failed
            assert p.result() == "computed here"
        with Primed(lambda: os.kill(os.getpid(), signal.SIGKILL), lambda v: v * 2) as part:
            time.sleep(0.3)
            part.give(21)  # given after the child died
            assert part.result() == 42
        with Primed(lambda: None, lambda v: (lambda: 1) if os.getpid() != parent else "computed here") as part:
            part.give(0)  # a result that cannot be sent back
            assert part.result() == "computed here"

        def fails(values):
            raise LookupError(f"in {'the child' if os.getpid() != parent else 'this process'}")
        with Primed(lambda: None, fails) as part:
            part.give(0)
            try:
                part.result()
            except LookupError as exc:  # raised where the caller can see it, with its traceback
                print(exc)
        try:
            Primed(lambda: None, fails).result()
        except RuntimeError as exc:
            print(exc)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["in this process", "Primed.result() before give()"], done.stderr


def test_a_primed_part_not_given_or_not_waited_for_is_killed_and_reaped() -> None:
    done = run_script("""
        start = time.monotonic()
        with Primed(lambda: time.sleep(60), lambda v: v) as part:
            pid = part.pid
        with Primed(lambda: None, lambda v: time.sleep(60)) as given:
            given.give(1)
            other = given.pid
        assert time.monotonic() - start < 10
        for child in (pid, other):
            try:
                os.waitpid(child, os.WNOHANG)
            except ChildProcessError:
                print("reaped")
    """)
    assert done.stdout.split() == ["reaped", "reaped"], done.stderr
