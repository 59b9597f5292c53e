#!/usr/bin/env python3
"""Cost of the hls-diff strong check per candidate: wall time of one `check()` with the golden outputs
already cached (what every candidate that passes the suite oracle pays), over each case's golden
target, repeated. Prints the golden (cold) cost per case, then median and p90 per candidate in wall
seconds; with --no-isolation (steps as plain subprocesses, whose CPU time the kernel accounts to this
process) also in CPU seconds, which a loaded machine does not inflate.

    python scripts/bench_hls_diff.py cases/hls/mach --repeat 3 [--no-isolation]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from machine_speed import speed_line

from pytest_hwrepair.cases.case import Case, find_case_files
from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.oracles import ORACLES, OracleContext
from pytest_hwrepair.oracles.base import populate
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def judge(case: Case, ctx: OracleContext, sandbox: LocalSandbox) -> tuple[float, float, str]:
    ws = Path(tempfile.mkdtemp(prefix="hwrepair-bench-"))
    try:
        populate(ws, case, {n: case.files[n] for n in case.model.sources})
        start, cpu = time.monotonic(), children_cpu()
        verdict = ORACLES["hls-diff"](case, ctx).check(ws, sandbox)
        return time.monotonic() - start, children_cpu() - cpu, verdict.outcome.value
    finally:
        shutil.rmtree(ws, ignore_errors=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=["cases/hls/mach"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-isolation", action="store_true", help="run steps without bubblewrap")
    args = parser.parse_args()
    print(speed_line(), flush=True)
    cases = [c for c in (load_case(p) for p in find_case_files([Path(p) for p in args.paths]))
             if c.model.strong_oracle is not None and c.model.strong_oracle.kind == "hls-diff"]
    sandbox = LocalSandbox(isolate=False if args.no_isolation else None)
    warm: list[float] = []
    cpu: list[float] = []
    status = 0
    with tempfile.TemporaryDirectory(prefix="hwrepair-bench-cache-") as cache:
        ctx = OracleContext(Path(cache))
        for case in cases:
            cold, _, outcome = judge(case, ctx, sandbox)
            runs = [judge(case, ctx, sandbox) for _ in range(args.repeat)]
            warm += [r[0] for r in runs]
            cpu += [r[1] for r in runs]
            status = status or int(outcome != "passed" or any(r[2] != "passed" for r in runs))
            print(f"{case.suite}/{case.id:14s} golden+candidate {cold:5.2f}s  candidate "
                  + " ".join(f"{r[0]:.2f}s" + (f" (cpu {r[1]:.2f}s)" if args.no_isolation else "") for r in runs)
                  + f"  ({outcome})")
    print(f"strong check per candidate over {len(warm)} checks of {len(cases)} cases, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs:")
    for label, values in (("wall", warm), *((("cpu", cpu),) if args.no_isolation else ())):
        print(f"  {label}: median {statistics.median(values):.2f}s, p90 {percentile(values, 0.9):.2f}s, "
              f"max {max(values):.2f}s")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
