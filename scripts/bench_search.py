#!/usr/bin/env python3
"""Search-fixer throughput: candidates per second and CPU seconds per candidate, per suite, and what the
speed features buy (the syntax-only pass, prebuilt harness objects, parallel candidates), as ratios of
candidates per second measured in one run.

    python scripts/bench_search.py -n 24 -j 2
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from machine_speed import speed_line

from pytest_hwrepair.cases.case import Bug, Case, find_case_files
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.fixers.search import Budget, SearchRun
from pytest_hwrepair.oracles import OracleContext
from pytest_hwrepair.run.probe import HarnessProbe
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox
from pytest_hwrepair.verdict import Verdict

SUITES = ("cases/hls/chs", "cases/hls/mach", "cases/hls/poly", "cases/rtl", "cases/cuda")


class NoSyntaxPass:
    """The probe without its syntax-only pass: every candidate goes straight to the oracle."""

    def __init__(self, inner: HarnessProbe) -> None:
        self.inner = inner
        self.jobs, self.language = inner.jobs, inner.language

    @property
    def cpu_seconds(self) -> float:
        return self.inner.cpu_seconds

    def check(self, files: dict[str, str]) -> Verdict:
        return self.inner.check(files)

    def syntax(self, files: dict[str, str]) -> Verdict | None:
        return None

    def coverage(self, files: dict[str, str]) -> dict[int, int] | None:
        return self.inner.coverage(files)


def pick(suite: str, count: int) -> list[tuple[Case, Bug]]:
    """The first `count` bugs of a suite, one per design where it can; cuda: compile_error starts."""
    picked: list[tuple[Case, Bug]] = []
    for path in find_case_files([Path(suite)]):
        case = load_case(path)
        bugs = [b for b in case.bugs if case.domain != "cuda" or b.bucket == "compile_error"]
        if bugs and len(picked) < count:
            picked.append((case, bugs[0]))
    return picked


def measure(work: list[tuple[Case, Bug]], n: int, jobs: int, variant: str, cache: Path) -> tuple[int, float, float]:
    """Candidates, wall seconds and CPU seconds of searches of at most n candidates each."""
    total, wall, cpu = 0, 0.0, 0.0
    for case, bug in work:
        probe: Callable[[], object]
        made = HarnessProbe(case, bug, LocalSandbox(None), OracleContext(cache), 1 if variant == "serial" else jobs,
                            reuse_objects=variant != "no-prebuilt")
        probe = NoSyntaxPass(made) if variant == "no-syntax" else made  # type: ignore[assignment]
        run = SearchRun(case.buggy_files(bug)[case.target], case.target, probe, Budget(n, 3600.0), 0, None,  # type: ignore[arg-type]
                        climb=True)
        start = time.monotonic()
        result = run.run()
        wall += time.monotonic() - start
        total += result.evaluated
        cpu += result.cpu_seconds
    return total, wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--candidates", type=int, default=24, help="candidates per bug at most")
    parser.add_argument("-b", "--bugs", type=int, default=2, help="bugs per suite")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="candidates judged at once")
    parser.add_argument("--variants", default="default,no-syntax,no-prebuilt,serial")
    args = parser.parse_args()
    print(speed_line(), flush=True)
    cache = Path(tempfile.mkdtemp(prefix="bench-search-"))
    variants = args.variants.split(",")
    print(f"{'suite':16} {'variant':12} {'cands':>6} {'wall s':>8} {'cand/s':>7} {'CPU s/cand':>10}  vs default")
    for suite in SUITES:
        work = pick(suite, args.bugs)
        if not work:
            continue
        base_rate = None
        for variant in variants:
            total, wall, cpu = measure(work, args.candidates, args.jobs, variant, cache)
            rate = total / wall if wall else 0.0
            base_rate = rate if variant == "default" else base_rate
            ratio = f"{rate / base_rate:.2f}x" if base_rate else "-"
            print(f"{suite.removeprefix('cases/'):16} {variant:12} {total:6d} {wall:8.1f} {rate:7.2f} "
                  f"{cpu / max(total, 1):10.3f}  {ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
