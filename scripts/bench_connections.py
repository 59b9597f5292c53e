#!/usr/bin/env python3
"""Model latency overlapped apart from worker processes: wall times of a model evaluation against an offline
OpenAI-style server that answers every request with the case's reference fix after a fixed latency, one
sample per bug. Prints each run's time and the ratios, all measured in one run of this script:

* `-n 2 --hwrepair-max-connections 16` against `-n 2 --hwrepair-max-connections 1` (latency 2 s);
* the same against `-n 16 --hwrepair-no-prefetch`, where each of 16 workers asks when its item runs (up to
  16 requests in flight, one per worker process: how a run kept 16 connections busy before requests were
  made ahead);
* with an instant server, max-connections 16 against 1 at `-n 2` (what asking ahead costs the CPU).

Each comparison is made twice: judging every candidate afresh (`--hwrepair-no-verdict-cache`) and with the
harness's defaults (a candidate already judged on this machine is not judged again; a warm-up run fills the
verdict and golden-output caches first). Every run has its own run directory and `--hwrepair-no-cache`, so
every answer is a live request.

    python scripts/bench_connections.py                      # cases/hls -k "SHFT and not hard": 53 bugs
    python scripts/bench_connections.py --latency 1 --select "SHFT and chs"
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fake_llm_server import FakeLLM, reference_answer  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default="cases/hls")
    parser.add_argument("--select", default="SHFT and not hard", help="pytest -k expression")
    parser.add_argument("--latency", type=float, default=2.0, help="seconds every answer takes")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-connections-"))
    runs = iter(range(1000))
    cases = ROOT / args.cases

    def timed(fake: FakeLLM, workers: int, *extra: str) -> float:
        run_dir = scratch / f"run{next(runs)}"
        cmd = [sys.executable, "-m", "pytest", str(cases), "-k", args.select, "--fixer=openai",
               "--hwrepair-base-url", fake.url + "/v1", "--hwrepair-samples", "1", "-n", str(workers),
               "--hwrepair-run", str(run_dir), "--hwrepair-cache-dir", str(scratch / "cache"),
               "--hwrepair-no-cache", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", *extra]
        start = time.monotonic()
        done = subprocess.run(cmd, cwd=ROOT, env={**os.environ, "OPENAI_API_KEY": "sk-bench"},
                              capture_output=True, text=True)
        wall = time.monotonic() - start
        last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-400:]
        print(f"  {wall:7.1f} s  -n {workers:<2} {' '.join(extra):60} {last}", flush=True)
        if done.returncode != 0:
            raise SystemExit(f"the run failed (exit {done.returncode}): every reference answer should pass")
        return wall

    answer = reference_answer(cases)
    with FakeLLM(answer) as instant, FakeLLM(answer, delay=args.latency) as slow:
        print(f"{args.cases} -k {args.select!r}, one sample per bug; warm-up (fills the golden and verdict caches):")
        timed(instant, 2)
        out: dict[str, float] = {}
        for label, extra in (("afresh", ("--hwrepair-no-verdict-cache",)), ("defaults", ())):
            print(f"judged {label}, latency {args.latency:g} s:")
            out[f"{label} c1"] = timed(slow, 2, "--hwrepair-max-connections", "1", *extra)
            out[f"{label} c16"] = timed(slow, 2, "--hwrepair-max-connections", "16", *extra)
            out[f"{label} n16"] = timed(slow, 16, "--hwrepair-max-connections", "16", "--hwrepair-no-prefetch", *extra)
            print(f"judged {label}, instant server:")
            out[f"{label} i1"] = timed(instant, 2, "--hwrepair-max-connections", "1", *extra)
            out[f"{label} i16"] = timed(instant, 2, "--hwrepair-max-connections", "16", *extra)
    print("\nratios (goal):")
    for label in ("afresh", "defaults"):
        print(f"  {label:8}  -n 2: max-connections 1 / 16 = {out[f'{label} c1'] / out[f'{label} c16']:.2f} (>= 5);"
              f"  -n 16 no-prefetch / -n 2 max-connections 16 = {out[f'{label} n16'] / out[f'{label} c16']:.2f}"
              f" (>= 1);  instant: 16 / 1 = {out[f'{label} i16'] / out[f'{label} i1']:.2f} (<= 1.1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
