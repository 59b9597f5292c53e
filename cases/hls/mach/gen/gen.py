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
# stencil2d: 3x3 correlation on the interior, border copied

@kernel("stencil2d", seed=1003)
def gen_stencil2d(rng):
    rows, cols = 24, 32
    orig = [rng.randrange(0, 4096) for _ in range(rows * cols)]
    filt = [rng.randrange(-16, 17) for _ in range(9)]
    sol = list(orig)
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            acc = 0
            for fr in range(3):
                for fc in range(3):
                    acc += filt[fr * 3 + fc] * orig[(r + fr - 1) * cols + (c + fc - 1)]
            sol[r * cols + c] = acc
    return [("orig", "i32", orig), ("filter", "i32", filt)], [("sol", "i32", sol)]


# --------------------------------------------------------------------------
# stencil3d: 7-point stencil on the interior, boundary copied

@kernel("stencil3d", seed=1004)
def gen_stencil3d(rng):
    nz, ny, nx = 6, 8, 16
    coef = [rng.randrange(2, 10), rng.randrange(-3, 0)]
    orig = [rng.randrange(0, 20000) for _ in range(nz * ny * nx)]

    def at(z, y, x):
        return orig[(z * ny + y) * nx + x]

    sol = list(orig)
    for z in range(1, nz - 1):
        for y in range(1, ny - 1):
            for x in range(1, nx - 1):
                ring = (at(z, y, x - 1) + at(z, y, x + 1) + at(z, y - 1, x)
                        + at(z, y + 1, x) + at(z - 1, y, x) + at(z + 1, y, x))
                sol[(z * ny + y) * nx + x] = coef[0] * at(z, y, x) + coef[1] * ring
    return [("coef", "i32", coef), ("orig", "i32", orig)], [("sol", "i32", sol)]


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
