#!/usr/bin/env python3
"""Docker sandbox overhead: per-step and per-sample costs, and the docker ÷ local time on a corpus.

    python scripts/bench_docker.py                          # cases/hls, reference fixer, -n 2
    python scripts/bench_docker.py --modes worker,sample -k poly
    python scripts/bench_docker.py --fixer noop cases/rtl

Runs the corpus once per sandbox configuration, each with a fresh run and cache directory, and checks
that every sample gets the same outcome, category and strong-oracle result as with the local sandbox. Needs a Docker
engine and the images (`hwrepair images build`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pytest_hwrepair.sandbox.base import Limits
from pytest_hwrepair.sandbox.docker.sandbox import DockerSandbox
from pytest_hwrepair.sandbox.local.sandbox import LocalSandbox

Verdicts = dict[tuple[str, str, str, int], tuple[str, str, bool | None]]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=["cases/hls"])
    parser.add_argument("-n", "--workers", type=int, default=2)
    parser.add_argument("--fixer", action="append", default=None, help="fixer, repeatable (default: reference)")
    parser.add_argument("-k", dest="keyword", default=None, help="pytest -k expression selecting a subset")
    parser.add_argument("--modes", default="worker", help="docker modes to time, comma separated: worker,sample")
    parser.add_argument("--isolation", default="auto", help="local sandbox isolation: auto (bwrap), none")
    parser.add_argument("--steps", type=int, default=30, help="steps timed for the per-step figures")
    args = parser.parse_args(argv)
    args.fixer = args.fixer or ["reference"]

    per_step(args.steps)
    with tempfile.TemporaryDirectory(prefix="hwrepair-bench-") as tmp:
        local_s, local = corpus(args, Path(tmp) / "local", ["--hwrepair-isolation", args.isolation])
        print(f"\ncorpus {' '.join(args.paths)} fixer={','.join(args.fixer)} -n {args.workers}"
              + (f" -k {args.keyword!r}" if args.keyword else "") + f": {len(local)} samples")
        print(f"  local ({args.isolation:<6})  {local_s:8.1f}s  {local_s * args.workers / max(len(local), 1):.3f}s "
              f"per sample per worker")
        for mode in args.modes.split(","):
            seconds, verdicts = corpus(args, Path(tmp) / mode, ["--hwrepair-sandbox", "docker",
                                                                "--hwrepair-docker-mode", mode])
            overhead = (seconds - local_s) * args.workers / max(len(verdicts), 1)
            mismatched = [k for k in local if local[k] != verdicts.get(k)]
            ratio = seconds / local_s
            print(f"  docker {mode:<7}  {seconds:8.1f}s  overhead {overhead:+.3f}s per sample per worker  "
                  f"docker/local = {ratio:.2f}  verdicts differing from local: {len(mismatched)}")
            for key in mismatched[:10]:
                print(f"    {key}: local {local[key]} docker {verdicts.get(key)}")
    return 0


def per_step(count: int) -> None:
    """A trivial step (`true`) in a warm container vs locally, and the cost of a new container."""
    with tempfile.TemporaryDirectory(prefix="hwrepair-bench-ws-") as tmp:
        ws = Path(tmp)
        (ws / "main.c").write_text("int main(void) { return 0; }\n")
        limits = Limits()
        local = LocalSandbox()
        warm = DockerSandbox(run="bench", mode="worker")
        fresh = DockerSandbox(run="bench", mode="sample")
        try:
            warm.run(ws, "true", timeout=10, limits=limits)
            t_local = timed(lambda: local.run(ws, "true", timeout=10, limits=limits), count)
            t_warm = timed(lambda: warm.run(ws, "true", timeout=10, limits=limits), count)
            t_build_local = timed(lambda: local.run(ws, "gcc -O0 main.c -o prog", timeout=30, limits=limits), 5)
            t_build_warm = timed(lambda: warm.run(ws, "gcc -O0 main.c -o prog", timeout=30, limits=limits), 5)
            samples: list[float] = []
            for i in range(max(3, count // 10)):
                sample = ws / f"s{i}"
                sample.mkdir()
                start = time.monotonic()
                fresh.run(sample, "true", timeout=10, limits=limits)
                samples.append(time.monotonic() - start)
        finally:
            warm.close()
            fresh.close()
    print("per step (median):")
    print(f"  local sandbox, `true`                  {t_local * 1000:8.1f} ms")
    print(f"  docker, warm container, `true`         {t_warm * 1000:8.1f} ms")
    print(f"  local sandbox, gcc hello               {t_build_local * 1000:8.1f} ms")
    print(f"  docker, warm container, gcc hello      {t_build_warm * 1000:8.1f} ms")
    print(f"  docker, new container per sample       {statistics.median(samples) * 1000:8.1f} ms "
          "(create, start, agent, first step)")


def timed(call: Callable[[], object], count: int) -> float:
    times = []
    for _ in range(count):
        start = time.monotonic()
        call()
        times.append(time.monotonic() - start)
    return statistics.median(times)


def corpus(args: argparse.Namespace, where: Path, extra: list[str]) -> tuple[float, Verdicts]:
    run_dir, cache = where / "run", where / "cache"
    cmd = [sys.executable, "-m", "pytest", *args.paths, *(f"--fixer={f}" for f in args.fixer), "-n", str(args.workers),
           "-q",
           "-p", "no:cacheprovider", "-p", "no:randomly", "--hwrepair-run", str(run_dir),
           "--hwrepair-cache-dir", str(cache), *extra]
    if args.keyword:
        cmd += ["-k", args.keyword]
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode not in (0, 1):
        sys.exit(f"pytest failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return seconds, verdicts(run_dir / "samples.jsonl")


def verdicts(path: Path) -> Verdicts:
    found: Verdicts = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        key = (record["case"], record["bug"], record["fixer"], int(record["sample"] or 0))
        found[key] = (record["outcome"], record["category"], record.get("strong"))
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
