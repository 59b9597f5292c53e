#!/usr/bin/env python3
"""Many workers on few cores: `-n 16` against `-n 2` on the same items, with an offline model server.

    python scripts/bench_workers.py [cases/hls -k SHFT] [--delay 2] [--wide 16 --narrow 2]

Starts the loopback OpenAI-style server of the test suite (answers with each case's reference fix),
once answering after DELAY seconds (latency-bound, like a model API) and once at once (CPU-bound),
and times `pytest --fixer=openai -n WIDE` and `-n NARROW` over the same items, one sample per bug,
no response cache, a fresh run directory each. One untimed run first fills the cache directory the
timed runs share (golden outputs and the objects of each case's unchanged C files, as in any run after the
first), so the timed runs hold the fixer's and the oracle's work on each candidate. The concurrency limit is
left at its default (the worker count). Prints the machine's speed (machine_speed.py), each time, the ratios,
and the load average.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from machine_speed import speed_line

from tests.fake_llm_server import FakeLLM, reference_answer


def timed_run(url: str, paths: list[str], select: str, workers: int, cache: Path) -> tuple[float, str]:
    with tempfile.TemporaryDirectory(prefix="hwrepair-workers-") as tmp:
        cmd = [sys.executable, "-m", "pytest", *paths, "-k", select, "--fixer=openai", "--hwrepair-base-url", url,
               "--hwrepair-samples", "1", "--hwrepair-no-cache", "-n", str(workers), "-q", "-p", "no:randomly",
               "-p", "no:cacheprovider", "--hwrepair-run", f"{tmp}/run", "--hwrepair-cache-dir", str(cache)]
        env = {**os.environ, "OPENAI_API_KEY": "offline"}
        start = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        wall = time.monotonic() - start
    lines = [line for line in proc.stdout.splitlines() if " in " in line and ("passed" in line or "failed" in line)]
    return wall, (lines[-1].strip("= ") if lines else proc.stdout[-300:] + proc.stderr[-300:])


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=["cases/hls"])
    parser.add_argument("-k", dest="select", default="SHFT")
    parser.add_argument("--delay", type=float, default=2.0)
    parser.add_argument("--wide", type=int, default=16)
    parser.add_argument("--narrow", type=int, default=2)
    args = parser.parse_args()
    print(speed_line(), flush=True)
    with tempfile.TemporaryDirectory(prefix="hwrepair-workers-cache-") as cache:
        return compare(args, Path(cache))


def compare(args: argparse.Namespace, cache: Path) -> int:
    fake = FakeLLM(reference_answer(Path("cases"))).start()
    try:
        wall, tail = timed_run(f"{fake.url}/v1", args.paths, args.select, args.narrow, cache)
        print(f"warm-up (fills the golden-output cache), -n {args.narrow}: {wall:.1f}s ({tail})", flush=True)
    finally:
        fake.stop()
    for delay, goal in ((args.delay, "latency-bound: narrow / wide, goal >= 4"),
                        (0.0, "CPU-bound: wide / narrow, goal <= 1.15")):
        fake = FakeLLM(reference_answer(Path("cases")), delay=delay).start()
        try:
            times = {}
            for n in (args.narrow, args.wide):
                times[n], tail = timed_run(f"{fake.url}/v1", args.paths, args.select, n, cache)
                print(f"server delay {delay:g}s, -n {n}: {times[n]:.1f}s  ({tail}; {load()})", flush=True)
        finally:
            fake.stop()
        ratio = times[args.narrow] / times[args.wide] if delay else times[args.wide] / times[args.narrow]
        print(f"  {goal}: {ratio:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
