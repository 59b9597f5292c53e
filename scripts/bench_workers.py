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

With each time it prints the CPU time the whole machine was busy meanwhile (/proc/stat: every process,
the harness's, the compilers', the offline server's and anything else running). On C cores a run that kept
the machine busy B CPU-seconds cannot end in less than B / C seconds, however its work is spread, so after
the latency-bound ratio it prints the best ratio the wide run's work allows on this machine: the narrow
time over the wide run's B / C. After each ratio it prints how much more CPU time the wide run took than the
narrow one, per worker added (the same items, so mostly what starting a worker costs).
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


def busy_seconds() -> float | None:
    """CPU-seconds the machine has run something since boot: user, nice, system, irq and softirq time (not idle,
    iowait or time stolen by a hypervisor); None where /proc/stat is not."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            ticks = [int(x) for x in fh.readline().split()[1:]]
        return sum(ticks[i] for i in (0, 1, 2, 5, 6)) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def timed_run(url: str, paths: list[str], select: str, workers: int, cache: Path) -> tuple[float, float | None, str]:
    with tempfile.TemporaryDirectory(prefix="hwrepair-workers-") as tmp:
        cmd = [sys.executable, "-m", "pytest", *paths, "-k", select, "--fixer=openai", "--hwrepair-base-url", url,
               "--hwrepair-samples", "1", "--hwrepair-no-cache", "-n", str(workers), "-q", "-p", "no:randomly",
               "-p", "no:cacheprovider", "--hwrepair-run", f"{tmp}/run", "--hwrepair-cache-dir", str(cache)]
        env = {**os.environ, "OPENAI_API_KEY": "offline"}
        busy, start = busy_seconds(), time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        wall, after = time.monotonic() - start, busy_seconds()
    lines = [line for line in proc.stdout.splitlines() if " in " in line and ("passed" in line or "failed" in line)]
    tail = lines[-1].strip("= ") if lines else proc.stdout[-300:] + proc.stderr[-300:]
    return wall, after - busy if busy is not None and after is not None else None, tail


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
        wall, _, tail = timed_run(f"{fake.url}/v1", args.paths, args.select, args.narrow, cache)
        print(f"warm-up (fills the golden-output cache), -n {args.narrow}: {wall:.1f}s ({tail})", flush=True)
    finally:
        fake.stop()
    for delay, goal in ((args.delay, "latency-bound: narrow / wide, goal >= 4"),
                        (0.0, "CPU-bound: wide / narrow, goal <= 1.15")):
        fake = FakeLLM(reference_answer(Path("cases")), delay=delay).start()
        try:
            times, busy = {}, {}
            for n in (args.narrow, args.wide):
                times[n], busy[n], tail = timed_run(f"{fake.url}/v1", args.paths, args.select, n, cache)
                cpu = f", machine busy {busy[n]:.1f} CPU-s" if busy[n] is not None else ""
                print(f"server delay {delay:g}s, -n {n}: {times[n]:.1f}s{cpu}  ({tail}; {load()})", flush=True)
        finally:
            fake.stop()
        ratio = times[args.narrow] / times[args.wide] if delay else times[args.wide] / times[args.narrow]
        print(f"  {goal}: {ratio:.2f}", flush=True)
        print_work(args, times[args.narrow], busy[args.narrow], busy[args.wide], latency_bound=bool(delay))
    return 0


def print_work(args: argparse.Namespace, narrow_time: float, narrow_busy: float | None, wide_busy: float | None, *,
               latency_bound: bool) -> None:
    """The wide run's extra busy CPU time per worker added and, latency-bound, the best ratio its work allows."""
    if wide_busy is None:
        return
    if narrow_busy is not None and args.wide != args.narrow:
        more = wide_busy - narrow_busy
        print(f"  the -n {args.wide} run kept the machine busy {more:+.1f} CPU-s more than -n {args.narrow}: "
              f"{more / (args.wide - args.narrow):+.2f} CPU-s per worker added", flush=True)
    if latency_bound and wide_busy > 0:
        cores = os.cpu_count() or 1
        floor = wide_busy / cores
        print(f"  the -n {args.wide} run's work takes at least {floor:.1f}s on {cores} cores: "
              f"{narrow_time:.1f}s / {floor:.1f}s = {narrow_time / floor:.2f} is the best ratio it allows on this "
              f"machine", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
