/*
 * poly_harness.h - what every poly driver shares: the command line, the
 * seeded input generator and the output dump.  Harness-owned: it is never
 * part of a design, and a candidate never supplies it.
 *
 * Every driver is run as
 *     ./prog              the suite's fixed inputs (what the suite oracle runs)
 *     ./prog --seed 0     the same
 *     ./prog --seed N     inputs generated from N (1 <= N <= PH_MAX_SEED)
 * and prints every array the kernel writes.  A malformed command line exits
 * with status 2 and one line on stderr.
 *
 * Seeded inputs come from splitmix64 started at N; seed N uses pattern
 * (N - 1) % PH_PATTERNS for every array and scalar of the run, so seeds 1..8
 * cover each pattern once:
 *     random       uniform over the array's range
 *     zeros        every value 0 (clamped into the range)
 *     ones         every value the kernel's "one" (1.0, or 1 in its fixed-point format)
 *     extremes     every value the low or the high end of the range, at random
 *     ties         three values drawn per array, repeated at random
 *     alternating  high, low, high, low, ... by element index, the low value a
 *                  quarter of the way up the range (so that sums over a
 *                  symmetric range do not cancel to 0)
 *     ramp         rising evenly from low to high (sorted)
 *     sparse       mostly 0, one value in eight uniform
 * Each driver chooses the ranges so that the golden kernel stays defined
 * (no signed overflow, no division by zero) and then applies the fix-ups its
 * kernel needs (a dominant diagonal, a positive definite matrix, ...).
 */
#ifndef POLY_HARNESS_H
#define POLY_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PH_MAX_SEED 1000000000ull

enum {
    PH_RANDOM, PH_ZEROS, PH_ONES, PH_EXTREMES, PH_TIES, PH_ALTERNATING, PH_RAMP, PH_SPARSE,
    PH_PATTERNS
};

static uint64_t ph_seed;      /* 0: the fixed inputs */
static uint64_t ph_state;     /* splitmix64 state */
static int ph_pattern;

static inline uint64_t ph_next(void)
{
    uint64_t z = (ph_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void ph_usage(const char *prog, const char *problem)
{
    fprintf(stderr, "%s: %s; usage: %s [--seed N] with 0 <= N <= %llu\n",
            prog, problem, prog, (unsigned long long)PH_MAX_SEED);
    exit(2);
}

/* Reads the command line; returns the seed (0: use the fixed inputs). */
static inline uint64_t ph_start(int argc, char **argv)
{
    const char *prog = argc > 0 ? argv[0] : "prog";
    if (argc == 1)
        return 0;
    if (argc != 3 || strcmp(argv[1], "--seed") != 0)
        ph_usage(prog, "unexpected arguments");
    const char *text = argv[2];
    if (*text == '\0')
        ph_usage(prog, "the seed must be a decimal number");
    if (strlen(text) > 10)
        ph_usage(prog, "the seed is too large");
    uint64_t seed = 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9')
            ph_usage(prog, "the seed must be a decimal number");
        seed = seed * 10 + (uint64_t)(*c - '0');
    }
    if (seed > PH_MAX_SEED)
        ph_usage(prog, "the seed is too large");
    ph_seed = seed;
    ph_state = seed;
    ph_pattern = seed == 0 ? PH_RANDOM : (int)((seed - 1) % PH_PATTERNS);
    return seed;
}

/* A uniform integer in [0, n), n >= 1. */
static inline uint64_t ph_below(uint64_t n)
{
    return ph_next() % n;
}

/* A uniform double in [0, 1). */
static inline double ph_unit(void)
{
    return (double)(ph_next() >> 11) * 0x1p-53;
}

static inline double ph_clamp_f64(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline int64_t ph_clamp_i64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Fills p[0..n) with doubles in [lo, hi] by the run's pattern. */
static inline void ph_fill_f64(double *p, size_t n, double lo, double hi, double one)
{
    double tie[3];
    for (int t = 0; t < 3; t++)
        tie[t] = lo + (hi - lo) * ph_unit();
    for (size_t k = 0; k < n; k++) {
        double v;
        switch (ph_pattern) {
        case PH_ZEROS: v = ph_clamp_f64(0.0, lo, hi); break;
        case PH_ONES: v = ph_clamp_f64(one, lo, hi); break;
        case PH_EXTREMES: v = (ph_next() & 1) ? hi : lo; break;
        case PH_TIES: v = tie[ph_below(3)]; break;
        case PH_ALTERNATING: v = (k & 1) ? lo + (hi - lo) / 4 : hi; break;
        case PH_RAMP: v = n > 1 ? lo + (hi - lo) * (double)k / (double)(n - 1) : lo; break;
        case PH_SPARSE:
            v = ph_below(8) == 0 ? lo + (hi - lo) * ph_unit() : ph_clamp_f64(0.0, lo, hi);
            break;
        default: v = lo + (hi - lo) * ph_unit(); break;
        }
        p[k] = v;
    }
}

/* One integer in [lo, hi] for element k of n, by the run's pattern. */
static inline int64_t ph_int(size_t k, size_t n, int64_t lo, int64_t hi, int64_t one, const int64_t tie[3])
{
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    switch (ph_pattern) {
    case PH_ZEROS: return ph_clamp_i64(0, lo, hi);
    case PH_ONES: return ph_clamp_i64(one, lo, hi);
    case PH_EXTREMES: return (ph_next() & 1) ? hi : lo;
    case PH_TIES: return tie[ph_below(3)];
    case PH_ALTERNATING: return (k & 1) ? lo + (hi - lo) / 4 : hi;
    case PH_RAMP: return n > 1 ? lo + (int64_t)((double)(hi - lo) * (double)k / (double)(n - 1)) : lo;
    case PH_SPARSE: return ph_below(8) == 0 ? lo + (int64_t)ph_below(span) : ph_clamp_i64(0, lo, hi);
    default: return lo + (int64_t)ph_below(span);
    }
}

static inline void ph_ties(int64_t tie[3], int64_t lo, int64_t hi)
{
    for (int t = 0; t < 3; t++)
        tie[t] = lo + (int64_t)ph_below((uint64_t)(hi - lo) + 1u);
}

/* Fills p[0..n) with integers in [lo, hi] by the run's pattern. */
static inline void ph_fill_i32(int32_t *p, size_t n, int32_t lo, int32_t hi, int32_t one)
{
    int64_t tie[3];
    ph_ties(tie, lo, hi);
    for (size_t k = 0; k < n; k++)
        p[k] = (int32_t)ph_int(k, n, lo, hi, one, tie);
}

static inline void ph_fill_i16(int16_t *p, size_t n, int16_t lo, int16_t hi, int16_t one)
{
    int64_t tie[3];
    ph_ties(tie, lo, hi);
    for (size_t k = 0; k < n; k++)
        p[k] = (int16_t)ph_int(k, n, lo, hi, one, tie);
}

/* One scalar by the run's pattern; a sparse run draws its scalars at random,
 * or alpha and beta would almost always be 0 and hide the whole kernel. */
static inline double ph_f64(double lo, double hi, double one)
{
    double v;
    int pattern = ph_pattern;
    if (ph_pattern == PH_SPARSE)
        ph_pattern = PH_RANDOM;
    ph_fill_f64(&v, 1, lo, hi, one);
    ph_pattern = pattern;
    return v;
}

static inline int32_t ph_i32(int32_t lo, int32_t hi, int32_t one)
{
    int32_t v;
    int pattern = ph_pattern;
    if (ph_pattern == PH_SPARSE)
        ph_pattern = PH_RANDOM;
    ph_fill_i32(&v, 1, lo, hi, one);
    ph_pattern = pattern;
    return v;
}

/* Output arrays start poisoned (the byte 0xFE, as -ftrivial-auto-var-init=pattern
 * fills locals), so an element the kernel should write but does not shows. */
static inline void ph_poison(void *p, size_t bytes)
{
    memset(p, 0xFE, bytes);
}

/* Prints a rows x cols array under a header line "name rows cols". */
static inline void ph_dump_f64(const char *name, const double *p, size_t rows, size_t cols)
{
    printf("%s %zu %zu\n", name, rows, cols);
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            printf("%.17g%c", p[r * cols + c], c + 1 == cols ? '\n' : ' ');
}

static inline void ph_dump_i32(const char *name, const int32_t *p, size_t rows, size_t cols)
{
    printf("%s %zu %zu\n", name, rows, cols);
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            printf("%ld%c", (long)p[r * cols + c], c + 1 == cols ? '\n' : ' ');
}

#endif
