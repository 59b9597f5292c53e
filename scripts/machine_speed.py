#!/usr/bin/env python3
"""How fast this machine is, for reading benchmark figures measured on different machines.

The goals of the benchmarks (`bench_*.py`) are absolute seconds or ratios whose parts move with the speed of
the machine: a report or a collection is CPython's work, a judged candidate is mostly gcc's. Each benchmark
prints this line first, so two figures can be compared with the machine they came from:

    machine: CPython loop 1.52 s, gcc -O2 of a fixed C file 0.21 s (best of 3; load average 0.31 0.40 0.52)

The loop is a fixed mix of integer arithmetic, dict and list work (5 000 000 rounds); the C file is a fixed,
generated 400-line program compiled with `gcc -O2 -c`. Each is timed three times and the fastest kept.

    python scripts/machine_speed.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROUNDS = 5_000_000


def python_seconds(rounds: int = ROUNDS) -> float:
    """The fastest of three runs of a fixed pure-Python loop."""

    def once() -> float:
        start = time.perf_counter()
        table: dict[int, int] = {}
        items: list[int] = []
        acc = 0
        for i in range(rounds):
            acc = (acc * 31 + i) & 0xFFFFFFFF
            if i & 7 == 0:
                table[acc & 1023] = i
                items.append(acc)
        acc += len(table) + len(items)
        return time.perf_counter() - start

    return min(once() for _ in range(3))


def c_source(functions: int = 40) -> str:
    """A fixed C file: loops, arrays and branches the optimiser works on."""
    parts = ["#include <stdint.h>", "#include <string.h>"]
    for n in range(functions):
        parts.append(f"""
uint32_t f{n}(const uint32_t *in, uint32_t *out, int len) {{
  uint32_t acc = {n + 1}u;
  for (int i = 0; i < len; i++) {{
    uint32_t v = in[i] ^ (acc << {n % 7 + 1});
    if (v & {1 << (n % 5)}u) acc += v * {2 * n + 3}u; else acc ^= v >> {n % 3 + 1};
    out[i] = acc;
  }}
  return acc;
}}""")
    return "\n".join(parts) + "\n"


def gcc_seconds() -> float | None:
    """The fastest of three `gcc -O2 -c` runs of the fixed C file, or None without gcc."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    with tempfile.TemporaryDirectory(prefix="hwrepair-speed-") as tmp:
        source = Path(tmp) / "fixed.c"
        source.write_text(c_source(), encoding="utf-8")
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([gcc, "-O2", "-c", str(source), "-o", str(Path(tmp) / "fixed.o")], check=True)
            best = min(best, time.perf_counter() - start)
        return best


def speed_line() -> str:
    gcc = gcc_seconds()
    compiled = f"{gcc:.2f} s" if gcc is not None else "not measured (no gcc)"
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"machine: CPython loop {python_seconds():.2f} s, gcc -O2 of a fixed C file {compiled} "
            f"(best of 3; load average {load})")


if __name__ == "__main__":
    print(speed_line())
