#!/usr/bin/env python3
"""Harness overhead: wall time of `pytest --fixer=reference -n J` over a case set divided by the wall
time of the same commands executed bare (a thread pool of J, plain subprocesses in fresh temporary
directories). Prints both times and the ratio, measured in one run.

The bare side runs what the harness runs for a reference sample: per case once, the golden build and
run of the suite oracle and every step of its hls-diff strong oracle (the harness caches those golden
outputs per case); per bug, the suite oracle's build and run and, since the reference passes, every
strong-oracle step (seeds, variants, the sanitizer build and run) on the candidate, but for the strong
oracle's own build where it is the suite oracle's build of the same files (the harness reuses that one).
The harness runs three times: with `--hwrepair-no-object-reuse` (every C file compiled in every build, as
the bare side does: the harness's own overhead), judging every sample afresh but linking objects of each
case's unchanged C files (compiled once per case), and with its defaults.

    python scripts/bench_overhead.py cases/hls -j 2
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from machine_speed import speed_line

from pytest_hwrepair.cases.case import Case, find_case_files
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles.base import populate
from pytest_hwrepair.oracles.hls.oracle import HlsDiffTable, parse_spec
from pytest_hwrepair.sandbox.base import Limits
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox


def commands(case: Case, golden: bool = False) -> list[tuple[str, float]]:
    """(command, timeout) of one judged reference sample (or the golden outputs): the suite oracle's, then the
    strong oracle's."""
    out = [(case.oracle.build or "", case.oracle.timeout), (case.oracle.run or "", case.oracle.timeout)]
    if isinstance(case.model.strong_oracle, HlsDiffTable):
        spec = parse_spec(case)
        steps = spec.steps()
        if not golden and steps[0].argv == case.oracle.build:  # it runs on the suite oracle's build of the files
            steps = steps[1:]
        out += [(step.command, spec.timeout) for step in steps]
    return out


def bare(job: tuple[Case, bool]) -> None:
    """What the oracles do for one reference sample (or for the case's golden outputs), without the harness."""
    case, golden = job
    ws = Path(tempfile.mkdtemp(prefix="bare-"))
    try:
        populate(ws, case, {n: case.files[n] for n in case.model.sources})
        for argv, timeout in commands(case, golden):
            try:
                subprocess.run(argv, shell=True, cwd=ws, capture_output=True, timeout=timeout, check=False)
            except subprocess.TimeoutExpired:
                pass
    finally:
        shutil.rmtree(ws, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=["cases/hls"])
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    print(speed_line(), flush=True)
    cases = [load_case(p) for p in find_case_files([Path(p) for p in args.paths])]
    # The golden outputs once per case, then one reference sample per bug.
    work = [(case, n == 0) for case in cases for n in range(len(case.bugs) + 1)]
    start = time.monotonic()
    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(bare, work))
    bare_s = time.monotonic() - start
    strong = sum(1 for c in cases if isinstance(c.model.strong_oracle, HlsDiffTable))
    steps = sum(len(commands(case, golden)) for case, golden in work)
    print(f"samples: {len(work) - len(cases)} (+{len(cases)} golden)  jobs: {args.jobs}  cases with an hls-diff "
          f"strong oracle: {strong}/{len(cases)}  bare suite+strong steps: {bare_s:.1f}s ({steps} steps)")
    closed, plain = step_cost()
    jails = sum(closed_steps(case, golden) for case, golden in work)
    floor = (bare_s + jails * closed / args.jobs) / bare_s
    print(f"one step running `true`: closed sandbox {closed * 1000:.1f} ms, bare {plain * 1000:.1f} ms; the "
          f"harness runs those {steps} commands in {jails} closed steps, which at that cost put the ratio at "
          f"{floor:.2f} or more")
    status = 0
    for label, extra in (("every sample judged afresh, every C file compiled in each build (the bare side's work)",
                          ["--hwrepair-no-verdict-cache", "--hwrepair-no-object-reuse"]),
                         ("every sample judged afresh, objects of unchanged C files compiled once per case",
                          ["--hwrepair-no-verdict-cache"]),
                         ("default (identical candidates also reuse their verdict)", [])):
        harness_s, proc = harness(args.paths, args.jobs, extra)
        status = status or proc.returncode
        tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-500:]
        print(f"harness, {label}: {harness_s:.1f}s  ({tail.strip('= ')})")
        print(f"  overhead ratio harness/bare: {harness_s / bare_s:.2f}")
    return status


def closed_steps(case: Case, golden: bool) -> int:
    """How many closed steps the harness runs those commands in: consecutive steps under the same limits run as
    one batch, and each build after the first starts a batch of its own (from the workspace as it was before
    the first step); the objects of a case's unchanged C files compiled once are not counted."""
    strong = case.model.strong_oracle
    if not isinstance(strong, HlsDiffTable):
        return 1  # the suite oracle's build and run
    spec = parse_spec(case)
    later = len(spec.variants) + (1 if spec.sanitize else 0)  # each variant; the sanitizer's build and run
    # The suite's build and run (a candidate's build copied back apart for the strong oracle, which reuses it);
    # the strong oracle's seeds (after its own build for the golden outputs); then the later batches. A strong
    # oracle that builds otherwise builds a candidate in a step of its own.
    own = 0 if golden or strong.build in (None, getattr(case.oracle, "build", None)) else 1
    return 1 + own + 1 + later


def step_cost(repeat: int = 40) -> tuple[float, float]:
    """Seconds of one step that runs `true`: in the closed local sandbox, and as a bare subprocess."""
    box = LocalSandbox()
    with tempfile.TemporaryDirectory(prefix="bare-step-") as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        for _ in range(3):
            box.run(ws, "true", timeout=10, limits=Limits())
        start = time.monotonic()
        for _ in range(repeat):
            box.run(ws, "true", timeout=10, limits=Limits())
        closed = (time.monotonic() - start) / repeat
        start = time.monotonic()
        for _ in range(repeat):
            subprocess.run("true", shell=True, cwd=ws, check=False)
        plain = (time.monotonic() - start) / repeat
    return closed, plain


def harness(paths: list[str], jobs: int, extra: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pytest", *paths, "--fixer=reference", "-n", str(jobs), "-q",
               "-p", "no:cacheprovider", "--hwrepair-run", f"{tmp}/run", "--hwrepair-cache-dir", f"{tmp}/cache",
               *extra]
        start = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        return time.monotonic() - start, proc


if __name__ == "__main__":
    raise SystemExit(main())
