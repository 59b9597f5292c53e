/*
 * dfloat_test.c -- test driver for dfloat.c.
 *
 * The driver belongs to the harness: it feeds operands to every operation
 * and prints each result with the five exception flags it raised
 * (invalid, divideByZero, overflow, underflow, inexact as a hex mask).  It
 * judges nothing itself; the harness compares the printed output with
 * that of the known-good design.
 *
 *   ./prog            the fixed operands: known answers, every pair of 32
 *                     special values, six families of pseudo-random pairs
 *                     (LCG), integer conversions around every power of two,
 *                     and double-to-integer conversions of values whose
 *                     truncation is representable
 *   ./prog --seed N   operands generated from N (N >= 1): N % 8 picks the
 *                     family (arbitrary bit patterns, cancellation,
 *                     subnormals, overflow, halfway cases, moderate values,
 *                     specials against random values, integers and
 *                     conversion boundaries); every seed also converts
 *                     integers and doubles of all ranges, including NaNs,
 *                     infinities and values outside the integer range
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t f64_t;

/* the design's interface (dfloat.c) */
unsigned f64_flags(void);
void f64_clear_flags(void);
f64_t f64_add(f64_t a, f64_t b);
f64_t f64_sub(f64_t a, f64_t b);
f64_t f64_mul(f64_t a, f64_t b);
f64_t f64_div(f64_t a, f64_t b);
f64_t f64_sqrt(f64_t a);
f64_t f64_from_i32(int32_t v);
f64_t f64_from_i64(int64_t v);
f64_t f64_from_u64(uint64_t v);
int64_t f64_to_i64_rtz(f64_t a);
int32_t f64_to_i32_rtz(f64_t a);
int f64_eq(f64_t a, f64_t b);
int f64_lt(f64_t a, f64_t b);
int f64_le(f64_t a, f64_t b);

#define F64_SIGN_BIT  0x8000000000000000ULL
#define F64_EXP_MAX   0x7FF
#define F64_FRAC_MASK 0x000FFFFFFFFFFFFFULL

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT };

/* ------------------------------------------------------------------ */
/* Running one operation and printing its result and flags             */
/* ------------------------------------------------------------------ */

static const char *const op_name[5] = { "add", "sub", "mul", "div", "sqrt" };

static void show_op(int op, f64_t a, f64_t b)
{
    f64_t r;
    f64_clear_flags();
    switch (op) {
    case OP_ADD:  r = f64_add(a, b); break;
    case OP_SUB:  r = f64_sub(a, b); break;
    case OP_MUL:  r = f64_mul(a, b); break;
    case OP_DIV:  r = f64_div(a, b); break;
    default:      r = f64_sqrt(a); break;
    }
    printf("%s %016llx %016llx %016llx %02x\n", op_name[op], (unsigned long long)a,
           (unsigned long long)b, (unsigned long long)r, f64_flags());
}

static void show_compare(f64_t a, f64_t b)
{
    int eq, lt, le;
    unsigned feq, flt, fle;
    f64_clear_flags();
    eq = f64_eq(a, b);
    feq = f64_flags();
    f64_clear_flags();
    lt = f64_lt(a, b);
    flt = f64_flags();
    f64_clear_flags();
    le = f64_le(a, b);
    fle = f64_flags();
    printf("cmp %016llx %016llx %d %02x %d %02x %d %02x\n", (unsigned long long)a,
           (unsigned long long)b, eq, feq, lt, flt, le, fle);
}

static void show_from_i64(int64_t v)
{
    f64_t r;
    unsigned f;
    f64_clear_flags();
    r = f64_from_i64(v);
    f = f64_flags();
    f64_clear_flags();
    printf("i2f %016llx %016llx %02x", (unsigned long long)(uint64_t)v, (unsigned long long)r, f);
    r = f64_from_u64((uint64_t)v);
    printf(" %016llx %02x\n", (unsigned long long)r, f64_flags());
}

static void show_from_i32(int32_t v)
{
    f64_t r;
    f64_clear_flags();
    r = f64_from_i32(v);
    printf("w2f %08lx %016llx %02x\n", (unsigned long)(uint32_t)v, (unsigned long long)r,
           f64_flags());
}

static void show_to_i64(f64_t a)
{
    int64_t r;
    f64_clear_flags();
    r = f64_to_i64_rtz(a);
    printf("f2i %016llx %016llx %02x\n", (unsigned long long)a, (unsigned long long)(uint64_t)r,
           f64_flags());
}

static void show_to_i32(f64_t a)
{
    int32_t r;
    f64_clear_flags();
    r = f64_to_i32_rtz(a);
    printf("f2w %016llx %08lx %02x\n", (unsigned long long)a, (unsigned long)(uint32_t)r,
           f64_flags());
}

static int is_nan(f64_t a)
{
    return ((a >> 52) & F64_EXP_MAX) == F64_EXP_MAX && (a & F64_FRAC_MASK) != 0;
}

static double as_double(f64_t a)
{
    double d;
    memcpy(&d, &a, 8);
    return d;
}

/* the fixed operands convert only values whose truncation is representable */
static void show_to_i64_in_range(f64_t a)
{
    double x = as_double(a);
    if (!is_nan(a) && x > -9223372036854775808.0 - 1.0 && x < 9223372036854775808.0)
        show_to_i64(a);
}

static void show_to_i32_in_range(f64_t a)
{
    double x = as_double(a);
    if (!is_nan(a) && x > -2147483649.0 && x < 2147483648.0)
        show_to_i32(a);
}

/* ------------------------------------------------------------------ */
/* Operands                                                            */
/* ------------------------------------------------------------------ */

static const f64_t specials[] = {
    0x0000000000000000ULL,  /* +0                        */
    0x8000000000000000ULL,  /* -0                        */
    0x0000000000000001ULL,  /* smallest subnormal        */
    0x8000000000000001ULL,
    0x000FFFFFFFFFFFFFULL,  /* largest subnormal         */
    0x800FFFFFFFFFFFFFULL,
    0x0008000000000000ULL,  /* subnormal 2^-1023         */
    0x0010000000000000ULL,  /* smallest normal 2^-1022   */
    0x8010000000000000ULL,
    0x0010000000000001ULL,
    0x001FFFFFFFFFFFFFULL,
    0x3CA0000000000000ULL,  /* 2^-53                     */
    0x3FE0000000000000ULL,  /* 0.5                       */
    0x3FEFFFFFFFFFFFFFULL,  /* largest below 1           */
    0x3FF0000000000000ULL,  /* 1                         */
    0xBFF0000000000000ULL,  /* -1                        */
    0x3FF0000000000001ULL,  /* 1 + ulp                   */
    0x4000000000000000ULL,  /* 2                         */
    0x4008000000000000ULL,  /* 3                         */
    0xC014000000000000ULL,  /* -5                        */
    0x3FD5555555555555ULL,  /* ~1/3                      */
    0x400921FB54442D18ULL,  /* ~pi                       */
    0x4340000000000000ULL,  /* 2^53                      */
    0x43E0000000000000ULL,  /* 2^63                      */
    0x7FE0000000000000ULL,  /* 2^1023                    */
    0x7FEFFFFFFFFFFFFFULL,  /* largest finite            */
    0xFFEFFFFFFFFFFFFFULL,
    0x7FF0000000000000ULL,  /* +inf                      */
    0xFFF0000000000000ULL,  /* -inf                      */
    0x7FF8000000000000ULL,  /* quiet NaN                 */
    0xFFF8000000000123ULL,  /* negative quiet NaN        */
    0x7FF0000000000001ULL   /* signaling NaN             */
};
#define NSPECIALS ((int)(sizeof specials / sizeof specials[0]))

/* Known answers: 0.1 + 0.2, ties to even around 1, an exact subtraction,
 * 3 * (1/3), an exact subnormal product, overflow, 1/3, 1/0, 0/0, sqrt 2,
 * sqrt of the smallest subnormal, sqrt(-1). */
static const f64_t kat[][3] = {
    { OP_ADD, 0x3FB999999999999AULL, 0x3FC999999999999AULL },
    { OP_ADD, 0x3FF0000000000000ULL, 0x3CA0000000000000ULL },
    { OP_ADD, 0x3FF0000000000001ULL, 0x3CA0000000000000ULL },
    { OP_SUB, 0x3FF0000000000000ULL, 0x3FEFFFFFFFFFFFFFULL },
    { OP_MUL, 0x4008000000000000ULL, 0x3FD5555555555555ULL },
    { OP_MUL, 0x0010000000000000ULL, 0x3FE0000000000000ULL },
    { OP_MUL, 0x7FEFFFFFFFFFFFFFULL, 0x4000000000000000ULL },
    { OP_DIV, 0x3FF0000000000000ULL, 0x4008000000000000ULL },
    { OP_DIV, 0x3FF0000000000000ULL, 0x0000000000000000ULL },
    { OP_DIV, 0x0000000000000000ULL, 0x0000000000000000ULL },
    { OP_SQRT, 0x4000000000000000ULL, 0 },
    { OP_SQRT, 0x0000000000000001ULL, 0 },
    { OP_SQRT, 0xBFF0000000000000ULL, 0 }
};
#define NKAT ((int)(sizeof kat / sizeof kat[0]))

/* the generator: the fixed operands use the LCG from its fixed start;
 * --seed N replaces its state by splitmix64(N) */
static uint64_t lcg_state = 0x853C49E6748FEA9BULL;

static uint64_t lcg_next(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lcg_state;
}

/* A random value's upper 32 bits (the low bits of an LCG are weak). */
static uint32_t rnd32(void)
{
    return (uint32_t)(lcg_next() >> 32);
}

static uint64_t rnd64(void)
{
    uint64_t h = rnd32();
    return (h << 32) | rnd32();
}

/* Random finite value with the biased exponent in [lo, hi]. */
static f64_t rnd_with_exp(uint32_t lo, uint32_t hi)
{
    uint64_t sign = (uint64_t)(rnd32() & 1) << 63;
    uint64_t e = lo + rnd32() % (hi - lo + 1);
    return sign | (e << 52) | (rnd64() & F64_FRAC_MASK);
}

/* Fraction with only a few bits set, so that sums and products hit exact
 * halfway cases. */
static uint64_t sparse_frac(void)
{
    uint64_t f = 0;
    int k, n = 1 + (int)(rnd32() % 3);
    for (k = 0; k < n; k++)
        f |= (uint64_t)1 << (rnd32() % 52);
    return f;
}

/* an integer's nearest double, converted by the host (never by the design) */
static f64_t int_as_f64(int64_t v)
{
    double d = (double)v;
    f64_t a;
    memcpy(&a, &d, 8);
    return a;
}

/* One operand pair from family "kind". */
static void make_pair(int kind, f64_t *a, f64_t *b)
{
    uint32_t ea, w;
    uint64_t r;
    switch (kind) {
    case 0:                              /* arbitrary bit patterns */
        *a = rnd64();
        *b = rnd64();
        break;
    case 1:                              /* close exponents: cancellation */
        *a = rnd_with_exp(1000, 1046);
        ea = (uint32_t)((*a >> 52) & F64_EXP_MAX);
        r = rnd64();
        *b = (r & (F64_SIGN_BIT | F64_FRAC_MASK)) | ((uint64_t)(ea - 2 + rnd32() % 5) << 52);
        if (rnd32() & 1)
            *b = (*a ^ F64_SIGN_BIT) + (rnd32() % 7) - 3;
        break;
    case 2:                              /* subnormal and tiny normal */
        *a = rnd_with_exp(0, 40);
        *b = rnd_with_exp(0, 60);
        if (rnd32() & 1)
            *b = rnd_with_exp(1000, 1060);
        break;
    case 3:                              /* huge values: overflow */
        *a = rnd_with_exp(1900, 2046);
        *b = rnd_with_exp(900, 2046);
        break;
    case 4:                              /* halfway cases */
        ea = 900 + rnd32() % 200;
        r = (uint64_t)(rnd32() & 1) << 63;
        *a = r | ((uint64_t)ea << 52) | sparse_frac();
        r = (uint64_t)(rnd32() & 1) << 63;
        r |= (uint64_t)(ea - 51 - rnd32() % 4) << 52;
        *b = r | sparse_frac();
        break;
    case 6:                              /* a special value against a random one */
        *a = specials[rnd32() % NSPECIALS];
        *b = rnd32() & 1 ? rnd64() : rnd_with_exp(900, 1150);
        if (rnd32() & 1) {
            f64_t t = *a;
            *a = *b;
            *b = t;
        }
        break;
    case 7:                              /* integer values and their neighbours */
        r = rnd64();
        r = int_as_f64((int64_t)r >> (rnd32() % 64));
        *a = r + (rnd32() % 3) - 1;
        w = rnd32();
        *b = int_as_f64((int32_t)w >> (rnd32() % 32));
        break;
    default:                             /* ordinary moderate values */
        *a = rnd_with_exp(980, 1070);
        *b = rnd_with_exp(980, 1070);
        break;
    }
}

static void show_pair(f64_t a, f64_t b)
{
    int op;
    for (op = OP_ADD; op <= OP_DIV; op++)
        show_op(op, a, b);
    show_op(OP_SQRT, a, 0);
    show_op(OP_SQRT, a & ~F64_SIGN_BIT, 0);
    show_compare(a, b);
    show_compare(b, a);
    show_compare(a, a);
}

/* ------------------------------------------------------------------ */
/* The fixed operands                                                  */
/* ------------------------------------------------------------------ */

static void fixed_known_answers(void)
{
    int i;
    for (i = 0; i < NKAT; i++)
        show_op((int)kat[i][0], kat[i][1], kat[i][2]);
}

static void fixed_special_pairs(void)
{
    int i, j, op;
    for (op = OP_ADD; op <= OP_DIV; op++)
        for (i = 0; i < NSPECIALS; i++)
            for (j = 0; j < NSPECIALS; j++)
                show_op(op, specials[i], specials[j]);
    for (i = 0; i < NSPECIALS; i++) {
        show_op(OP_SQRT, specials[i], 0);
        for (j = 0; j < NSPECIALS; j++)
            show_compare(specials[i], specials[j]);
        show_to_i64_in_range(specials[i]);
        show_to_i32_in_range(specials[i]);
    }
}

static void fixed_random_pairs(void)
{
    int kind, n;
    f64_t a, b;
    for (kind = 0; kind < 6; kind++) {
        for (n = 0; n < 160; n++) {
            make_pair(kind, &a, &b);
            show_pair(a, b);
        }
    }
}

static void fixed_conversions(void)
{
    int n;
    int64_t v;

    for (n = 0; n < 64; n++) {
        uint64_t p = (uint64_t)1 << n;
        show_from_i64((int64_t)p);
        show_from_i64((int64_t)(p - 1));
        show_from_i64((int64_t)(p + 1));
        show_from_i64(-(int64_t)(p - 1));
        show_from_i64((int64_t)(p | (p >> 1) | 1));
    }
    show_from_i64(INT64_MIN);
    show_from_i64(INT64_MAX);
    show_from_i32(INT32_MIN);
    show_from_i32(INT32_MAX);
    show_from_i32(0);
    for (n = 0; n < 400; n++) {
        uint32_t w;
        v = (int64_t)rnd64();
        show_from_i64(v);
        show_from_i64(v >> (rnd32() % 64));
        show_from_i32((int32_t)rnd32());
        w = rnd32();
        show_from_i32((int32_t)w >> (rnd32() % 32));
    }
    /* doubles to integers: magnitudes from 2^-2 up to 2^64 */
    for (n = 0; n < 400; n++) {
        f64_t a = rnd_with_exp(1021, 1087);
        show_to_i64_in_range(a);
        show_to_i32_in_range(a);
        a = rnd_with_exp(1021, 1055);
        show_to_i32_in_range(a);
        show_to_i64_in_range(a);
    }
}

static void run_fixed(void)
{
    fixed_known_answers();
    fixed_special_pairs();
    fixed_random_pairs();
    fixed_conversions();
}

/* ------------------------------------------------------------------ */
/* Seeded operands                                                     */
/* ------------------------------------------------------------------ */

/* doubles at and next to the integer-range boundaries */
static const f64_t conversion_edges[] = {
    0x41DFFFFFFFC00000ULL,  /* 2^31 - 1                  */
    0x41E0000000000000ULL,  /* 2^31                      */
    0x41DFFFFFFFE00000ULL,  /* 2^31 - 0.5                */
    0xC1E0000000000000ULL,  /* -2^31                     */
    0xC1E0000000200000ULL,  /* -2^31 - 1                 */
    0xC1E00000001FFFFFULL,  /* just above -2^31 - 1      */
    0x43DFFFFFFFFFFFFFULL,  /* largest below 2^63        */
    0x43E0000000000000ULL,  /* 2^63                      */
    0xC3E0000000000000ULL,  /* -2^63                     */
    0xC3E0000000000001ULL,  /* just below -2^63          */
    0x43F0000000000000ULL,  /* 2^64                      */
    0x3FE0000000000000ULL,  /* 0.5                       */
    0xBFEFFFFFFFFFFFFFULL,  /* just above -1             */
    0x7FF0000000000000ULL,  /* +inf                      */
    0xFFF0000000000000ULL,  /* -inf                      */
    0x7FF8000000000000ULL,  /* quiet NaN                 */
    0x7FF0000000000001ULL,  /* signaling NaN             */
    0x0000000000000001ULL   /* smallest subnormal        */
};
#define NEDGES ((int)(sizeof conversion_edges / sizeof conversion_edges[0]))

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void seeded_conversions(int pattern)
{
    int n;
    for (n = 0; n < NEDGES; n++) {
        show_to_i64(conversion_edges[n]);
        show_to_i32(conversion_edges[n]);
    }
    for (n = 0; n < (pattern == 7 ? 400 : 120); n++) {
        f64_t a = n % 4 == 0 ? rnd64() : rnd_with_exp(n % 4 == 1 ? 1021 : 1050, n % 4 == 3 ? 2047 : 1090);
        int64_t v = (int64_t)rnd64();
        uint32_t w;
        v >>= rnd32() % 64;
        show_to_i64(a);
        show_to_i32(a);
        show_from_i64(v);
        w = rnd32();
        show_from_i32((int32_t)w >> (rnd32() % 32));
    }
}

static void run_seeded(uint64_t seed)
{
    uint64_t state = seed;
    int pattern = (int)(seed % 8), n;
    f64_t a, b;

    lcg_state = splitmix64(&state);
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    for (n = 0; n < 240; n++) {
        make_pair(pattern, &a, &b);
        show_pair(a, b);
    }
    for (n = 0; n < 40; n++) {
        make_pair(6, &a, &b);
        show_pair(a, b);
    }
    seeded_conversions(pattern);
}

int main(int argc, char **argv)
{
    unsigned long long seed = 0;
    char *end = NULL;

    if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
        seed = strtoull(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0') {
            fprintf(stderr, "usage: %s [--seed N]: N must be a decimal number\n", argv[0]);
            return 2;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
        return 2;
    }
    if (seed == 0)
        run_fixed();
    else
        run_seeded((uint64_t)seed);
    return 0;
}
