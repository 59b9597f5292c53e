#!/usr/bin/env python3
"""Scale: `hwrepair report` over 1 000 000 records.

    python scripts/bench_scale.py report [--records 1000000]

`report` plants run directories of synthetic records and times `hwrepair report` on each, twice (the first
read of a file just planted is slower), with its own peak RSS (os.wait4): RECORDS records at 10 samples per
bug, then RECORDS / 10 and RECORDS records over the same BUGS bugs (the ratio of their peak RSS says whether
memory follows the records or the bugs). Each figure is printed with the load average it was measured under.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine_speed import speed_line


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(cmd: list[str], cwd: Path | None = None) -> tuple[float, int, subprocess.CompletedProcess[str]]:
    """Wall seconds, this child's own peak RSS in MiB (os.wait4), and the finished process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        child = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=cwd)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        proc = subprocess.CompletedProcess(cmd, child.returncode, out.read().decode(), err.read().decode())
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd[:4])} ... exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return wall, usage.ru_maxrss // 1024, proc


def report(args: argparse.Namespace) -> int:
    """`hwrepair report` over RECORDS records (10 samples per bug), then the memory it needs as the records
    grow over a fixed set of bugs: a streaming report's memory follows the bugs, not the records."""
    with tempfile.TemporaryDirectory(prefix="hwrepair-scale-") as tmp:
        runs = []
        for records, per_bug in ((args.records, 10), (args.records // 10, args.records // 10 // args.bugs),
                                 (args.records, args.records // args.bugs)):
            run = Path(tmp) / f"run-{records}-{per_bug}"
            run.mkdir()
            start = time.monotonic()
            plant(run / "samples.jsonl", records, per_bug)
            size = (run / "samples.jsonl").stat().st_size >> 20
            print(f"planted {records} records, {per_bug} samples per bug ({size} MiB) in "
                  f"{time.monotonic() - start:.1f}s")
            runs.append((run, records, per_bug))
        os.sync()  # the planted files on disk first: the kernel writing them back would be timed with the reports
        results = []
        for run, records, per_bug in runs:
            cmd = [sys.executable, "-m", "pytest_hwrepair.cli", "report", str(run)]
            cold, _, _ = timed(cmd)  # the file as a run leaves it (this machine keeps little of it in memory)
            wall, rss, proc = timed(cmd)
            first = next((line for line in proc.stdout.splitlines() if line.startswith("a ")), "")
            print(f"hwrepair report over {records} records ({records // per_bug} bugs): {wall:.2f}s, peak RSS {rss} "
                  f"MiB; {cold:.2f}s the first time the file was read ({load()})")
            print(f"  {first.strip()}")
            results.append((records, wall, rss))
        (_, _, small), (_, _, large) = results[1], results[2]
        print(f"records x10 over the same {args.bugs} bugs: peak RSS x{large / max(small, 1):.2f}")
    return 0


def plant(path: Path, count: int, per_bug: int = 10) -> None:
    """COUNT final records: PER_BUG samples per bug, 8 bugs per case, two fixers, pass/fail by a fixed pattern."""
    with path.open("w", encoding="utf-8") as fh:
        for n in range(count):
            sample, bug_n = n % per_bug, n // per_bug
            fixer, case_n = ("a", "b")[(bug_n // 8) % 2], bug_n // 16
            passed = (n * 7919) % 3 == 0
            rec = {"schema": 1, "run": "run", "key": f"{n:020x}", "case": f"hls/scale/k{case_n}",
                   "bug": f"SHFT-{bug_n % 8:02d}", "domain": "hls", "suite": "scale", "bug_type": "SHFT",
                   "fixer": fixer, "label": fixer, "protocol": "repeated", "sample": sample, "iteration": None,
                   "outcome": "passed" if passed else "failed", "category": "pass" if passed else "test_fail",
                   "patch_sha": f"{(n * 31) % 5:x}", "loc": {"target": 100 + case_n % 50},
                   "tokens": {"input": 1000, "output": 200, "cache_read": 0, "cache_write": 0}, "cost_usd": 0.001,
                   "durations": {"fix": 0.1, "build": 0.2, "run": 0.01}, "speedup": None, "strong": passed,
                   "cached": False, "final": True, "exec_id": f"{n:012x}", "nodeid": "", "bug_class": None,
                   "summary": "", "artifact": None, "metrics": {}, "stop_reason": None, "time": ""}
            fh.write(json.dumps(rec, sort_keys=True) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report")
    r.add_argument("--records", type=int, default=1_000_000)
    r.add_argument("--bugs", type=int, default=5_000, help="the fixed bug count of the memory comparison")
    args = parser.parse_args()
    if not 0 < args.bugs <= args.records // 10:
        parser.error(f"--bugs must be between 1 and --records / 10 ({args.records // 10}): the memory comparison "
                     f"plants --records / 10 records over --bugs bugs, at least one sample each")
    print(speed_line(), flush=True)
    return report(args)


if __name__ == "__main__":
    raise SystemExit(main())
