#!/usr/bin/env python3
"""Deterministic data generator for the mach kernel suite.

For every kernel directory next to this folder it writes
  input.data  - the kernel inputs (random, from a fixed per-kernel seed)
  check.data  - the expected live-out values, computed by an independent
                Python model of the kernel's specification (not by the C code)

Both files use the harness text format (see oracles/mach/harness.h):
  @<name> <type> <count>   followed by <count> values.

Usage:  python3 gen.py [kernel ...]      (no argument: every kernel)
"""
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)

KERNELS = {}


def kernel(name, seed):
    def register(fn):
        KERNELS[name] = (seed, fn)
        return fn
    return register


def fmt_value(typ, v, exact_input):
    if typ in ("f32", "f64"):
        if exact_input:
            return repr(float(v))          # shortest text that reads back exactly
        return "%.17g" % v
    return str(int(v))


def write_data(path, sections, exact_input):
    with open(path, "w") as f:
        for name, typ, values in sections:
            f.write("@%s %s %d\n" % (name, typ, len(values)))
            for v in values:
                f.write(fmt_value(typ, v, exact_input) + "\n")


def uniform_list(rng, n, lo, hi):
    return [rng.uniform(lo, hi) for _ in range(n)]


# --------------------------------------------------------------------------
# gemm: c[i][j] = sum_k a[i][k] * b[k][j]

def matmul(a, b, n):
    c = []
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(n):
                s += a[i * n + k] * b[k * n + j]
            c.append(s)
    return c


@kernel("gemm_ncubed", seed=1001)
def gen_gemm_ncubed(rng):
    n = 32
    a = uniform_list(rng, n * n, -1.0, 1.0)
    b = uniform_list(rng, n * n, -1.0, 1.0)
    return [("a", "f64", a), ("b", "f64", b)], [("c", "f64", matmul(a, b, n))]


@kernel("gemm_blocked", seed=1002)
def gen_gemm_blocked(rng):
    n = 32
    a = uniform_list(rng, n * n, -1.0, 1.0)
    b = uniform_list(rng, n * n, -1.0, 1.0)
    return [("a", "f64", a), ("b", "f64", b)], [("c", "f64", matmul(a, b, n))]


# --------------------------------------------------------------------------

def main(argv):
    names = argv[1:] or sorted(KERNELS)
    for name in names:
        seed, fn = KERNELS[name]
        rng = random.Random(seed)
        inputs, outputs = fn(rng)
        d = os.path.join(SUITE, name)
        write_data(os.path.join(d, "input.data"), inputs, True)
        write_data(os.path.join(d, "check.data"), outputs, False)
        print("%-14s input: %s  check: %s" % (
            name, ", ".join("%s[%d]" % (s[0], len(s[2])) for s in inputs),
            ", ".join("%s[%d]" % (s[0], len(s[2])) for s in outputs)))


if __name__ == "__main__":
    main(sys.argv)
