/*
 * harness.h - data-driven test harness shared by the mach kernel suite.
 *
 * The program is run as   ./prog input.data output.data
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
 * program exit with status 3.
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

#endif
