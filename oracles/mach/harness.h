/*
 * harness.h - data-driven test harness shared by the mach kernel suite.
 *
 * The program is run as   ./prog input.data output.data [--seed N]
 *
 * Without --seed (or with --seed 0) the inputs are read from input.data: the
 * suite's fixed vectors.  With --seed N, N >= 1, input.data is not read: the
 * glue's h_generate() defines every input section from N with the harness's
 * own deterministic generator (splitmix64), choosing realistic random inputs
 * or a degenerate pattern by N, and the outputs are written as usual.
 *
 * Data file format (plain text, tokens separated by white space):
 *     # a comment runs to the end of the line
 *     @<name> <type> <count>
 *     <count values>
 * <type> is one of u8 i8 u16 i16 u32 i32 u64 i64 f32 f64.  Integers are
 * written exactly in decimal, floating values with %.17g; a non-finite
 * floating value is written as !nan, !inf or !-inf so that it can never
 * compare equal to a number.
 *
 * Every buffer handed to a kernel comes from h_input() or h_buffer().  It is
 * allocated on the heap with a 256-byte guard zone on each side.  The buffer
 * is poisoned (integer types: every byte 0xA5; floating types: every byte
 * 0xFE, a huge negative value, because 0xA5 bytes make a near-zero double
 * that a missing reset would hide).  The guards are filled with a byte of
 * their own per buffer (0xB0..0xBF integer, 0xE0..0xEF floating), so an
 * out-of-bounds read yields a large negative value.  After the kernel
 * returns the guards are checked: a write outside a buffer makes the
 * program exit with status 3.  With --seed N the i-th buffer's poison byte
 * is entry (N + i) % 8 of a table of small and extreme bytes instead (0x00,
 * 0x01, 0x02, 0x03, 0x7F, 0x80, 0xFF, ...), so a kernel that reads an element
 * before writing it sees other values from one seed to the next.
 */
#ifndef MACH_HARNESS_H
#define MACH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    HT_U8, HT_I8, HT_U16, HT_I16, HT_U32, HT_I32, HT_U64, HT_I64, HT_F32, HT_F64
} htype_t;

/* Buffer filled from input section <name>; the section must have this type
 * and exactly <count> values, otherwise the program exits with status 2. */
void *h_input(const char *name, htype_t type, size_t count);

/* Scalar convenience: the single value of an integer section. */
long long h_param(const char *name);

/* Poisoned buffer (no input data); <name> is used in diagnostics only. */
void *h_buffer(const char *name, htype_t type, size_t count);

/* Record <count> values at <p> as output section <name>.  The values are
 * read when the output file is written, i.e. after h_kernel() returns. */
void h_output(const char *name, htype_t type, const void *p, size_t count);

/* Provided by the per-kernel glue file: fetch inputs, run the kernel,
 * record outputs.  Returns 0 on success. */
int h_kernel(void);

/* Provided by the per-kernel glue file: define every input section that
 * h_kernel() fetches, from <seed> >= 1.  Returns 0 on success. */
int h_generate(uint64_t seed);

/* A new input section of <count> zeroed values; returns its storage, which
 * h_generate() fills.  h_input() later copies it into a guarded buffer. */
void *h_define(const char *name, htype_t type, size_t count);

/* A new one-value i32 section, read back with h_param(). */
void h_define_param(const char *name, long long value);

/* The generator, seeded with the --seed value: the next 64 random bits, a
 * uniform integer in [0, n) (n >= 1), a uniform double in [lo, hi). */
uint64_t h_rand(void);
uint64_t h_below(uint64_t n);
double h_uniform(double lo, double hi);

/* Keys for sorting-style kernels, values in [lo, hi] (lo < hi), by pattern:
 * 0 random, 1 few distinct values (many duplicates), 2 ties on the high
 * bits (one random high part, only the low four bits vary), 3 ascending,
 * 4 descending, 5 all equal, 6 extremes (lo, hi, lo + 1, hi - 1, the
 * midpoint, among random values), 7 small values (lo .. lo + 15); other
 * patterns are taken modulo 8. */
void h_keys(int64_t *keys, size_t n, unsigned pattern, int64_t lo, int64_t hi);

/* An n x n row-major matrix of doubles by pattern: 0 random in [-1, 1),
 * 1 identity when <second> is set (else random), 2 identity when <second> is
 * clear (else random), 3 zeros when <second> is clear (else random), 4 small
 * integers -8 .. 8, 5 all ones, 6 random rows scaled by powers of two from
 * 2^-10 to 2^10, 7 upper triangular (<second> clear) or lower triangular
 * (<second> set); other patterns are taken modulo 8. */
void h_matrix(double *m, int n, unsigned pattern, int second);

/* p[0 .. n) becomes a random permutation of 0 .. n-1. */
void h_permutation(int32_t *p, int n);

#endif
