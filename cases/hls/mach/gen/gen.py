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
# md_knn: Lennard-Jones force over each atom's 8 nearest neighbours

@kernel("md_knn", seed=1005)
def gen_md_knn(rng):
    side, k = 4, 8
    pos = []
    for a in range(side):
        for b in range(side):
            for c in range(side):
                pos.append((a + rng.uniform(-0.2, 0.2), b + rng.uniform(-0.2, 0.2),
                            c + rng.uniform(-0.2, 0.2)))
    rng.shuffle(pos)
    n = len(pos)
    nl = []
    for i in range(n):
        d = []
        for j in range(n):
            if j != i:
                dx, dy, dz = (pos[i][t] - pos[j][t] for t in range(3))
                d.append((dx * dx + dy * dy + dz * dz, j))
        d.sort()
        nl.extend(j for _, j in d[:k])
    lj1, lj2 = 1.5, 2.0
    fx, fy, fz = [], [], []
    for i in range(n):
        ax = ay = az = 0.0
        for j in nl[i * k:(i + 1) * k]:
            dx = pos[i][0] - pos[j][0]
            dy = pos[i][1] - pos[j][1]
            dz = pos[i][2] - pos[j][2]
            r2inv = 1.0 / (dx * dx + dy * dy + dz * dz)
            r6inv = r2inv * r2inv * r2inv
            f = r2inv * (r6inv * (lj1 * r6inv - lj2))
            ax += dx * f
            ay += dy * f
            az += dz * f
        fx.append(ax)
        fy.append(ay)
        fz.append(az)
    return ([("pos_x", "f64", [p[0] for p in pos]), ("pos_y", "f64", [p[1] for p in pos]),
             ("pos_z", "f64", [p[2] for p in pos]), ("neighbours", "i32", nl)],
            [("force_x", "f64", fx), ("force_y", "f64", fy), ("force_z", "f64", fz)])


# --------------------------------------------------------------------------
# nw: Needleman-Wunsch, match +2, mismatch -1, gap -2

@kernel("nw", seed=1006)
def gen_nw(rng):
    la, lb = 80, 72
    match, mismatch, gap = 2, -1, -2
    a = [ord(rng.choice("ACGT")) for _ in range(la)]
    b = [ord(rng.choice("ACGT")) for _ in range(lb)]
    F = [[0] * (lb + 1) for _ in range(la + 1)]
    D = [[0] * (lb + 1) for _ in range(la + 1)]      # 0 diag, 1 up, 2 left
    for j in range(lb + 1):
        F[0][j], D[0][j] = j * gap, 2
    for i in range(1, la + 1):
        F[i][0], D[i][0] = i * gap, 1
    for i in range(1, la + 1):
        for j in range(1, lb + 1):
            cands = [(F[i - 1][j - 1] + (match if a[i - 1] == b[j - 1] else mismatch), 0),
                     (F[i - 1][j] + gap, 1), (F[i][j - 1] + gap, 2)]
            best = cands[0]
            for c in cands[1:]:
                if c[0] > best[0]:
                    best = c
            F[i][j], D[i][j] = best
    outa, outb = [], []
    i, j = la, lb
    while i > 0 or j > 0:
        d = D[i][j]
        if d == 0:
            outa.append(a[i - 1]); outb.append(b[j - 1]); i -= 1; j -= 1
        elif d == 1:
            outa.append(a[i - 1]); outb.append(ord("-")); i -= 1
        else:
            outa.append(ord("-")); outb.append(b[j - 1]); j -= 1
    pad = la + lb - len(outa)
    outa += [ord("_")] * pad
    outb += [ord("_")] * pad
    return ([("seq_a", "u8", a), ("seq_b", "u8", b)],
            [("align_a", "u8", outa), ("align_b", "u8", outb),
             ("score", "i32", [v for row in F for v in row])])


# --------------------------------------------------------------------------
# sorting: the expected output is simply the sorted input

@kernel("sort_merge", seed=1007)
def gen_sort_merge(rng):
    keys = [rng.randrange(-1000, 1001) for _ in range(200)]
    return [("keys", "i32", keys)], [("keys", "i32", sorted(keys))]


@kernel("sort_radix", seed=1008)
def gen_sort_radix(rng):
    keys = [rng.getrandbits(32) for _ in range(256)]
    return [("keys", "u32", keys)], [("keys", "u32", sorted(keys))]


# --------------------------------------------------------------------------
# spmv: y = A x, A sparse (CRS and column-major ELLPACK storage)

@kernel("spmv_crs", seed=1009)
def gen_spmv_crs(rng):
    n = 64
    val, cols, row_ptr = [], [], [0]
    for r in range(n):
        cnt = rng.randrange(1, 13)
        for c in sorted(rng.sample(range(n), cnt)):
            cols.append(c)
            val.append(rng.uniform(-1.0, 1.0))
        row_ptr.append(len(val))
    vec = uniform_list(rng, n, -1.0, 1.0)
    out = []
    for r in range(n):
        s = 0.0
        for k in range(row_ptr[r], row_ptr[r + 1]):
            s += val[k] * vec[cols[k]]
        out.append(s)
    return ([("nnz", "i32", [len(val)]), ("val", "f64", val), ("cols", "i32", cols),
             ("row_ptr", "i32", row_ptr), ("vec", "f64", vec)], [("out", "f64", out)])


@kernel("spmv_ellpack", seed=1010)
def gen_spmv_ellpack(rng):
    n, width = 64, 8
    row_len = [rng.randrange(0, width + 1) for _ in range(n)]
    for r in (3, 17, 40, 63):
        row_len[r] = width                 # some rows use every slot
    nzval = [0.0] * (n * width)            # padding slots: value 0, column 0
    cols = [0] * (n * width)
    for r in range(n):
        for s, c in enumerate(sorted(rng.sample(range(n), row_len[r]))):
            nzval[s * n + r] = rng.uniform(-1.0, 1.0)
            cols[s * n + r] = c
    vec = uniform_list(rng, n, -1.0, 1.0)
    out = []
    for r in range(n):
        sums = [0.0, 0.0]                  # even and odd slots, as in the kernel
        for s in range(row_len[r]):
            sums[s % 2] += nzval[s * n + r] * vec[cols[s * n + r]]
        out.append(sums[0] + sums[1])
    return ([("nzval", "f64", nzval), ("cols", "i32", cols), ("row_len", "i32", row_len),
             ("vec", "f64", vec)], [("out", "f64", out)])


# --------------------------------------------------------------------------
# fft: forward DFT, evaluated directly from the definition

@kernel("fft", seed=1011)
def gen_fft(rng):
    n = 256
    re = uniform_list(rng, n, -1.0, 1.0)
    im = uniform_list(rng, n, -1.0, 1.0)
    out_re, out_im = [], []
    for k in range(n):
        sr = si = 0.0
        for t in range(n):
            a = -2.0 * math.pi * ((k * t) % n) / n
            c, s = math.cos(a), math.sin(a)
            sr += re[t] * c - im[t] * s
            si += re[t] * s + im[t] * c
        out_re.append(sr)
        out_im.append(si)
    return [("re", "f64", re), ("im", "f64", im)], [("re", "f64", out_re), ("im", "f64", out_im)]


# --------------------------------------------------------------------------
# viterbi: min-cost path of an HMM with -log probabilities

def neg_log_distribution(rng, n):
    w = [rng.uniform(0.05, 1.0) for _ in range(n)]
    total = sum(w)
    return [-math.log(x / total) for x in w]


@kernel("viterbi", seed=1012)
def gen_viterbi(rng):
    n_obs, n_states, n_tokens = 32, 16, 32
    init = neg_log_distribution(rng, n_states)
    trans = [c for _ in range(n_states) for c in neg_log_distribution(rng, n_states)]
    emit = [c for _ in range(n_states) for c in neg_log_distribution(rng, n_tokens)]
    obs = [rng.randrange(n_tokens) for _ in range(n_obs)]
    cost = [[init[s] + emit[s * n_tokens + obs[0]] for s in range(n_states)]]
    back = [[0] * n_states]
    for t in range(1, n_obs):
        row, brow = [], []
        for s in range(n_states):
            m, arg = math.inf, 0
            for p in range(n_states):
                c = cost[t - 1][p] + trans[p * n_states + s]
                if c < m:
                    m, arg = c, p
            row.append(m + emit[s * n_tokens + obs[t]])
            brow.append(arg)
        cost.append(row)
        back.append(brow)
    best = min(cost[-1])
    path = [cost[-1].index(best)]
    for t in range(n_obs - 1, 0, -1):
        path.append(back[t][path[-1]])
    path.reverse()
    return ([("obs", "u8", obs), ("init", "f64", init), ("trans", "f64", trans),
             ("emit", "f64", emit)], [("path", "u8", path), ("best", "f64", [best])])


# --------------------------------------------------------------------------
# kmp: all (overlapping) occurrences of a pattern, found by direct comparison

@kernel("kmp", seed=1013)
def gen_kmp(rng):
    pat = [ord(c) for c in "aaba"]
    n = 1 << 13
    text = [ord(rng.choice("ab")) for _ in range(n)]
    nxt = []
    for q in range(len(pat)):
        b = 0
        for l in range(1, q + 1):                  # proper borders of pat[0..q]
            if pat[:l] == pat[q + 1 - l:q + 1]:
                b = l
        nxt.append(b)
    hits = [0] * (n // 32)
    found = 0
    for st in range(n - len(pat) + 1):
        if text[st:st + len(pat)] == pat:
            hits[st // 32] |= 1 << (st % 32)
            found += 1
    return ([("pattern", "u8", pat), ("text", "u8", text)],
            [("found", "i32", [found]), ("next", "i32", nxt), ("hits", "u32", hits)])


# --------------------------------------------------------------------------
# bfs: shortest-path levels from node 0 of a random directed graph

@kernel("bfs", seed=1014)
def gen_bfs(rng):
    n, max_levels = 256, 32
    adj = []
    for v in range(n):
        deg = rng.randrange(3, 7) if v == 0 else rng.randrange(0, 7)
        adj.append([rng.randrange(n) for _ in range(deg)])
    edge_begin, edge_dst = [0], []
    for v in range(n):
        edge_dst.extend(adj[v])
        edge_begin.append(len(edge_dst))
    level = [-1] * n
    level[0] = 0
    frontier = [0]
    while frontier:
        nxt = []
        for v in frontier:
            for w in adj[v]:
                if level[w] < 0:
                    level[w] = level[v] + 1
                    nxt.append(w)
        frontier = nxt
    count = [0] * max_levels
    for lv in level:
        if lv >= 0:
            count[lv] += 1
    assert max(level) < max_levels and level.count(-1) > 0
    return ([("n_edges", "i32", [len(edge_dst)]), ("start", "i32", [0]),
             ("edge_begin", "i32", edge_begin), ("edge_dst", "i32", edge_dst)],
            [("level", "i32", level), ("level_count", "i32", count)])


# --------------------------------------------------------------------------
# backprop: one batch gradient step of an 8-16-4 sigmoid network

@kernel("backprop", seed=1015)
def gen_backprop(rng):
    n_in, n_hid, n_out, batch, lr = 8, 16, 4, 8, 0.5
    w1 = uniform_list(rng, n_hid * n_in, -1.0, 1.0)
    b1 = uniform_list(rng, n_hid, -0.5, 0.5)
    w2 = uniform_list(rng, n_out * n_hid, -1.0, 1.0)
    b2 = uniform_list(rng, n_out, -0.5, 0.5)
    x = uniform_list(rng, batch * n_in, -1.0, 1.0)
    y = uniform_list(rng, batch * n_out, 0.0, 1.0)
    inputs = [("w1", "f64", w1), ("b1", "f64", b1), ("w2", "f64", w2), ("b2", "f64", b2),
              ("x", "f64", x), ("y", "f64", y)]

    def sig(z):
        return 1.0 / (1.0 + math.exp(-z))

    gw1, gb1 = [0.0] * (n_hid * n_in), [0.0] * n_hid
    gw2, gb2 = [0.0] * (n_out * n_hid), [0.0] * n_out
    total = 0.0
    for s in range(batch):
        xs = x[s * n_in:(s + 1) * n_in]
        h = []
        for j in range(n_hid):
            z = b1[j]
            for i in range(n_in):
                z += w1[j * n_in + i] * xs[i]
            h.append(sig(z))
        o = []
        for k in range(n_out):
            z = b2[k]
            for j in range(n_hid):
                z += w2[k * n_hid + j] * h[j]
            o.append(sig(z))
        dout = []
        for k in range(n_out):
            err = o[k] - y[s * n_out + k]
            total += err * err
            dout.append(err * o[k] * (1.0 - o[k]))
            gb2[k] += dout[k]
            for j in range(n_hid):
                gw2[k * n_hid + j] += dout[k] * h[j]
        for j in range(n_hid):
            z = 0.0
            for k in range(n_out):
                z += w2[k * n_hid + j] * dout[k]
            dh = z * h[j] * (1.0 - h[j])
            gb1[j] += dh
            for i in range(n_in):
                gw1[j * n_in + i] += dh * xs[i]
    scale = lr * (1.0 / batch)
    w1 = [w - scale * g for w, g in zip(w1, gw1)]
    b1 = [w - scale * g for w, g in zip(b1, gb1)]
    w2 = [w - scale * g for w, g in zip(w2, gw2)]
    b2 = [w - scale * g for w, g in zip(b2, gb2)]
    loss = 0.5 * total / (batch * n_out)
    return inputs, [("loss", "f64", [loss]), ("w1", "f64", w1), ("b1", "f64", b1),
                    ("w2", "f64", w2), ("b2", "f64", b2)]


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
