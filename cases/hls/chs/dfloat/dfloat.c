/*
 * dfloat.c -- IEEE 754 binary64 ("double precision") arithmetic built from
 * 64-bit integer operations only.
 *
 * Specification implemented:
 *   IEEE Std 754-2008, "IEEE Standard for Floating-Point Arithmetic"
 *     - clause 3.4: binary64 interchange encoding (1 sign bit, 11 exponent
 *       bits with bias 1023, 52 trailing significand bits; subnormals,
 *       signed zeros, infinities, quiet and signaling NaNs)
 *     - clause 4.3.1: rounding attribute roundTiesToEven
 *     - clause 5.4.1: addition, subtraction, multiplication, division,
 *       squareRoot, convertFromInt
 *     - clause 5.8: convertToIntegerTowardZero
 *     - clause 5.11: quiet comparison predicates (equal, less, lessEqual)
 *     - clause 6.2: NaN propagation (a quiet NaN result)
 *     - clause 7: default exception handling (invalid, divideByZero,
 *       overflow, underflow, inexact status flags)
 *
 * Every operation unpacks its operands into sign, exponent and an integer
 * significand, computes the exact result with ten extra low-order bits
 * plus a "sticky" bit, and hands it to a single rounding routine that
 * rounds to nearest, ties to even, and packs the encoding again.
 *
 * This file is the design.  Its interface (the f64_* functions and the
 * exception flags, read with f64_flags) is exercised by the test driver
 * dfloat_test.c, which feeds the operands and prints every result and
 * flag set; the harness compares that output with the output of the
 * known-good design.
 */
#include <stdint.h>

typedef uint64_t f64_t;

/* ------------------------------------------------------------------ */
/* Encoding constants                                                  */
/* ------------------------------------------------------------------ */
#define F64_SIGN_BIT   0x8000000000000000ULL
#define F64_EXP_MASK   0x7FF0000000000000ULL
#define F64_FRAC_MASK  0x000FFFFFFFFFFFFFULL
#define F64_HIDDEN     0x0010000000000000ULL   /* implicit leading one */
#define F64_QUIET_BIT  0x0008000000000000ULL
#define F64_DEFAULT_NAN 0x7FF8000000000000ULL
#define F64_EXP_BIAS   1023
#define F64_EXP_MAX    0x7FF

/* Internal significands keep the leading one at bit 62, leaving ten
 * bits below the 53-bit result for rounding, and bit 63 free for the
 * carry out of an addition. */
#define SIG_LEAD       0x4000000000000000ULL   /* bit 62 */
#define SIG_CARRY      0x8000000000000000ULL   /* bit 63 */
#define ROUND_BITS     10
#define ROUND_MASK     0x3FFULL
#define ROUND_HALF     0x200ULL

/* Exception status flags (IEEE 754 clause 7). */
#define FX_INVALID     0x01u
#define FX_DIVBYZERO   0x02u
#define FX_OVERFLOW    0x04u
#define FX_UNDERFLOW   0x08u
#define FX_INEXACT     0x10u

static unsigned fx_flags;

static void fx_raise(unsigned f) { fx_flags |= f; }

/* the exception flags raised since the last f64_clear_flags (FX_* bits) */
unsigned f64_flags(void) { return fx_flags; }
void f64_clear_flags(void) { fx_flags = 0; }

/* Operand classes after unpacking. */
enum { CLS_ZERO, CLS_FINITE, CLS_INF, CLS_QNAN, CLS_SNAN };

typedef struct {
    int      sign;   /* 0 positive, 1 negative                         */
    int32_t  exp;    /* biased exponent of the bit at SIG_LEAD         */
    uint64_t sig;    /* significand, leading one at bit 62 if finite   */
    int      cls;    /* one of CLS_*                                   */
} unpacked_t;

/* ------------------------------------------------------------------ */
/* Small integer helpers                                               */
/* ------------------------------------------------------------------ */

/* Count leading zero bits of a non-zero 64-bit value. */
static const uint8_t clz_nibble[16] = {
    4, 3, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0
};

static int clz64(uint64_t x)
{
    int n = 0;
    if ((x >> 32) == 0) { n += 32; x <<= 32; }
    if ((x >> 48) == 0) { n += 16; x <<= 16; }
    if ((x >> 56) == 0) { n += 8;  x <<= 8;  }
    if ((x >> 60) == 0) { n += 4;  x <<= 4;  }
    n += clz_nibble[x >> 60];
    return n;
}

/* Shift right, OR-ing every bit shifted out into bit 0 ("jamming"), so
 * that the result still records whether the exact value was inexact. */
static uint64_t shift_right_jam64(uint64_t a, uint32_t count)
{
    if (count == 0)
        return a;
    if (count < 64)
        return (a >> count) | (uint64_t)((a << (64 - count)) != 0);
    return (uint64_t)(a != 0);
}

/* Full 64 x 64 -> 128 bit unsigned product from 32-bit halves. */
static void mul64_to_128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a_lo = a & 0xFFFFFFFFULL, a_hi = a >> 32;
    uint64_t b_lo = b & 0xFFFFFFFFULL, b_hi = b >> 32;
    uint64_t p_ll = a_lo * b_lo;
    uint64_t p_lh = a_lo * b_hi;
    uint64_t p_hl = a_hi * b_lo;
    uint64_t p_hh = a_hi * b_hi;
    uint64_t mid  = (p_ll >> 32) + (p_lh & 0xFFFFFFFFULL) + (p_hl & 0xFFFFFFFFULL);
    *lo = (mid << 32) | (p_ll & 0xFFFFFFFFULL);
    *hi = p_hh + (p_lh >> 32) + (p_hl >> 32) + (mid >> 32);
}

/* ------------------------------------------------------------------ */
/* Packing, unpacking and classification                               */
/* ------------------------------------------------------------------ */

static f64_t pack(int sign, int32_t exp, uint64_t frac)
{
    return ((uint64_t)(sign & 1) << 63) + ((uint64_t)exp << 52) + frac;
}

static int f64_is_nan(f64_t a)
{
    return (a & F64_EXP_MASK) == F64_EXP_MASK && (a & F64_FRAC_MASK) != 0;
}

static int f64_is_snan(f64_t a)
{
    return f64_is_nan(a) && (a & F64_QUIET_BIT) == 0;
}

static unpacked_t unpack(f64_t a)
{
    unpacked_t u;
    int32_t e = (int32_t)((a >> 52) & F64_EXP_MAX);
    uint64_t f = a & F64_FRAC_MASK;

    u.sign = (int)(a >> 63);
    u.exp = 0;
    u.sig = 0;
    if (e == F64_EXP_MAX) {
        if (f == 0)
            u.cls = CLS_INF;
        else
            u.cls = (f & F64_QUIET_BIT) ? CLS_QNAN : CLS_SNAN;
        u.sig = f;
        return u;
    }
    if (e == 0) {
        if (f == 0) {
            u.cls = CLS_ZERO;
            return u;
        }
        /* Subnormal: value = f * 2^(1-1023-52).  Normalise so that the
         * leading one lands at bit 62. */
        {
            int n = clz64(f) - 1;          /* shift that puts it at 62 */
            u.cls = CLS_FINITE;
            u.sig = f << n;
            u.exp = 1 - (n - ROUND_BITS);
        }
        return u;
    }
    u.cls = CLS_FINITE;
    u.exp = e;
    u.sig = (f | F64_HIDDEN) << ROUND_BITS;
    return u;
}

/* Return the quiet NaN that an operation with a NaN operand produces:
 * the first NaN operand, made quiet.  A signaling NaN operand raises
 * the invalid exception. */
static f64_t propagate_nan(f64_t a, f64_t b)
{
    if (f64_is_snan(a) || f64_is_snan(b))
        fx_raise(FX_INVALID);
    if (f64_is_nan(a))
        return a | F64_QUIET_BIT;
    return b | F64_QUIET_BIT;
}

/* ------------------------------------------------------------------ */
/* Rounding                                                            */
/* ------------------------------------------------------------------ */

/*
 * Round and pack a finite non-zero result.
 *   sign : sign of the result
 *   exp  : biased exponent of the bit at position 62 of sig
 *   sig  : significand with its leading one at bit 62 (or lower, when
 *          the caller has already denormalised), sticky bit in bit 0
 * Rounding is to nearest, ties to even.  Tininess is detected before
 * rounding; underflow is signalled only for a tiny inexact result.
 */
static f64_t round_pack(int sign, int32_t exp, uint64_t sig)
{
    uint32_t rbits;
    int tiny = 0;

    if (exp < 1) {
        /* Below the normal range: the result is subnormal; shift the
         * significand to the minimum exponent, keeping a sticky bit. */
        tiny = 1;
        sig = shift_right_jam64(sig, (uint32_t)(1 - exp));
        exp = 1;
    }
    rbits = (uint32_t)(sig & ROUND_MASK);
    sig = (sig + ROUND_HALF) >> ROUND_BITS;
    if (rbits == ROUND_HALF)
        sig &= ~(uint64_t)1;             /* tie: round to even */
    if (sig & (F64_HIDDEN << 1)) {       /* rounding carried out */
        sig >>= 1;
        exp++;
    }
    if (rbits != 0) {
        fx_raise(FX_INEXACT);
        if (tiny)
            fx_raise(FX_UNDERFLOW);
    }
    if (exp >= F64_EXP_MAX) {
        fx_raise(FX_OVERFLOW | FX_INEXACT);
        return pack(sign, F64_EXP_MAX, 0);
    }
    if ((sig & F64_HIDDEN) == 0)
        exp = 0;                         /* subnormal or zero */
    return pack(sign, exp, sig & F64_FRAC_MASK);
}

/* ------------------------------------------------------------------ */
/* Addition and subtraction                                            */
/* ------------------------------------------------------------------ */

/* |a| + |b|, both finite non-zero, result sign given. */
static f64_t add_mags(int sign, int32_t ea, uint64_t sa, int32_t eb, uint64_t sb)
{
    uint64_t sum;
    int32_t exp;

    if (ea < eb) {
        int32_t te = ea; uint64_t ts = sa;
        ea = eb; sa = sb;
        eb = te; sb = ts;
    }
    sb = shift_right_jam64(sb, (uint32_t)(ea - eb));
    sum = sa + sb;
    exp = ea;
    if (sum & SIG_CARRY) {
        sum = shift_right_jam64(sum, 1);
        exp++;
    }
    return round_pack(sign, exp, sum);
}

/* |a| - |b| with the sign of a, both finite non-zero. */
static f64_t sub_mags(int sign, int32_t ea, uint64_t sa, int32_t eb, uint64_t sb)
{
    uint64_t diff;
    int32_t exp;

    if (ea == eb && sa == sb)
        return pack(0, 0, 0);            /* exact zero is +0 */
    if (ea < eb || (ea == eb && sa < sb)) {
        int32_t te = ea; uint64_t ts = sa;
        ea = eb; sa = sb;
        eb = te; sb = ts;
        sign ^= 1;
    }
    sb = shift_right_jam64(sb, (uint32_t)(ea - eb));
    diff = sa - sb;
    exp = ea;
    while ((diff & SIG_LEAD) == 0) {     /* renormalise after cancellation */
        diff <<= 1;
        exp--;
    }
    return round_pack(sign, exp, diff);
}

static f64_t add_or_sub(f64_t a, f64_t b, int negate_b)
{
    unpacked_t ua = unpack(a);
    unpacked_t ub = unpack(b);

    ub.sign ^= negate_b;
    if (ua.cls >= CLS_QNAN || ub.cls >= CLS_QNAN)
        return propagate_nan(a, b);
    if (ua.cls == CLS_INF) {
        if (ub.cls == CLS_INF && ua.sign != ub.sign) {
            fx_raise(FX_INVALID);
            return F64_DEFAULT_NAN;
        }
        return pack(ua.sign, F64_EXP_MAX, 0);
    }
    if (ub.cls == CLS_INF)
        return pack(ub.sign, F64_EXP_MAX, 0);
    if (ua.cls == CLS_ZERO) {
        if (ub.cls == CLS_ZERO)
            return pack(ua.sign & ub.sign, 0, 0);
        return b ^ ((uint64_t)negate_b << 63);
    }
    if (ub.cls == CLS_ZERO)
        return a;
    if (ua.sign == ub.sign)
        return add_mags(ua.sign, ua.exp, ua.sig, ub.exp, ub.sig);
    return sub_mags(ua.sign, ua.exp, ua.sig, ub.exp, ub.sig);
}

f64_t f64_add(f64_t a, f64_t b) { return add_or_sub(a, b, 0); }
f64_t f64_sub(f64_t a, f64_t b) { return add_or_sub(a, b, 1); }

/* ------------------------------------------------------------------ */
/* Multiplication                                                      */
/* ------------------------------------------------------------------ */

f64_t f64_mul(f64_t a, f64_t b)
{
    unpacked_t ua = unpack(a);
    unpacked_t ub = unpack(b);
    int sign = ua.sign ^ ub.sign;
    uint64_t hi, lo;
    int32_t exp;

    if (ua.cls >= CLS_QNAN || ub.cls >= CLS_QNAN)
        return propagate_nan(a, b);
    if (ua.cls == CLS_INF || ub.cls == CLS_INF) {
        if (ua.cls == CLS_ZERO || ub.cls == CLS_ZERO) {
            fx_raise(FX_INVALID);        /* 0 x inf */
            return F64_DEFAULT_NAN;
        }
        return pack(sign, F64_EXP_MAX, 0);
    }
    if (ua.cls == CLS_ZERO || ub.cls == CLS_ZERO)
        return pack(sign, 0, 0);

    /* (sa * 2) * sb lies in [2^125, 2^127): the high word has its
     * leading one at bit 62 or 61. */
    exp = ua.exp + ub.exp - 1022;
    mul64_to_128(ua.sig << 1, ub.sig, &hi, &lo);
    hi |= (uint64_t)(lo != 0);
    if ((hi & SIG_LEAD) == 0) {
        hi <<= 1;
        exp--;
    }
    return round_pack(sign, exp, hi);
}

/* ------------------------------------------------------------------ */
/* Division (restoring, one quotient bit per step)                     */
/* ------------------------------------------------------------------ */

#define DIV_QUOTIENT_BITS 63

f64_t f64_div(f64_t a, f64_t b)
{
    unpacked_t ua = unpack(a);
    unpacked_t ub = unpack(b);
    int sign = ua.sign ^ ub.sign;
    uint64_t rem, q;
    int32_t exp;
    int i;

    if (ua.cls >= CLS_QNAN || ub.cls >= CLS_QNAN)
        return propagate_nan(a, b);
    if (ua.cls == CLS_INF) {
        if (ub.cls == CLS_INF) {
            fx_raise(FX_INVALID);        /* inf / inf */
            return F64_DEFAULT_NAN;
        }
        return pack(sign, F64_EXP_MAX, 0);
    }
    if (ub.cls == CLS_INF)
        return pack(sign, 0, 0);
    if (ub.cls == CLS_ZERO) {
        if (ua.cls == CLS_ZERO) {
            fx_raise(FX_INVALID);        /* 0 / 0 */
            return F64_DEFAULT_NAN;
        }
        fx_raise(FX_DIVBYZERO);
        return pack(sign, F64_EXP_MAX, 0);
    }
    if (ua.cls == CLS_ZERO)
        return pack(sign, 0, 0);

    exp = ua.exp - ub.exp + F64_EXP_BIAS;
    rem = ua.sig;
    if (rem < ub.sig) {                  /* quotient below one */
        rem <<= 1;
        exp--;
    }
    q = 0;
    for (i = 0; i < DIV_QUOTIENT_BITS; i++) {
        q <<= 1;
        if (rem >= ub.sig) {
            rem -= ub.sig;
            q |= 1;
        }
        rem <<= 1;
    }
    q |= (uint64_t)(rem != 0);           /* sticky remainder */
    return round_pack(sign, exp, q);
}

/* ------------------------------------------------------------------ */
/* Square root (digit-by-digit, two radicand bits per step)            */
/* ------------------------------------------------------------------ */

#define SQRT_ROOT_BITS 55

/* Bit number b of the radicand N = m * 2^shift (m is 64 bits wide). */
static unsigned radicand_bit(uint64_t m, int shift, int b)
{
    if (b < shift || b - shift > 63)
        return 0;
    return (unsigned)((m >> (b - shift)) & 1);
}

f64_t f64_sqrt(f64_t a)
{
    unpacked_t ua = unpack(a);
    int32_t e, re;
    int shift, j;
    uint64_t rem, root;

    if (ua.cls >= CLS_QNAN)
        return propagate_nan(a, a);
    if (ua.cls == CLS_ZERO)
        return a;                        /* sqrt(+-0) = +-0 */
    if (ua.sign) {
        fx_raise(FX_INVALID);            /* negative operand */
        return F64_DEFAULT_NAN;
    }
    if (ua.cls == CLS_INF)
        return a;

    /* a = (sig / 2^62) * 2^e.  With an even exponent the radicand
     * N = sig * 2^46 lies in [2^108, 2^109); with an odd one the extra
     * factor two goes into N = sig * 2^47.  Either way the integer root
     * has exactly SQRT_ROOT_BITS bits. */
    e = ua.exp - F64_EXP_BIAS;
    if (e & 1) {
        shift = 47;
        e -= 1;
    } else {
        shift = 46;
    }
    re = e / 2 + F64_EXP_BIAS;

    rem = 0;
    root = 0;
    for (j = SQRT_ROOT_BITS - 1; j >= 0; j--) {
        uint64_t trial;
        rem = (rem << 2)
            | ((uint64_t)radicand_bit(ua.sig, shift, 2 * j + 1) << 1)
            | (uint64_t)radicand_bit(ua.sig, shift, 2 * j);
        trial = (root << 2) | 1;
        root <<= 1;
        if (rem >= trial) {
            rem -= trial;
            root |= 1;
        }
    }
    /* Root has its leading one at bit 54; move it to bit 62. */
    root = (root << (62 - (SQRT_ROOT_BITS - 1))) | (uint64_t)(rem != 0);
    return round_pack(0, re, root);
}

/* ------------------------------------------------------------------ */
/* Conversions                                                         */
/* ------------------------------------------------------------------ */

/* Normalise a non-zero magnitude and round it: value = mag * 2^0. */
static f64_t from_magnitude(int sign, uint64_t mag)
{
    int32_t exp;
    int n;

    if (mag == 0)
        return pack(sign, 0, 0);
    if (mag & SIG_CARRY) {
        /* 2^63 <= mag: one position too high for the internal format */
        return round_pack(sign, F64_EXP_BIAS + 63, shift_right_jam64(mag, 1));
    }
    n = clz64(mag) - 1;
    exp = F64_EXP_BIAS + 62 - n;
    return round_pack(sign, exp, mag << n);
}

f64_t f64_from_i32(int32_t v)
{
    uint64_t mag = (v < 0) ? (uint64_t)(-(int64_t)v) : (uint64_t)v;
    return from_magnitude(v < 0, mag);
}

f64_t f64_from_i64(int64_t v)
{
    uint64_t mag = (v < 0) ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return from_magnitude(v < 0, mag);
}

f64_t f64_from_u64(uint64_t v)
{
    return from_magnitude(0, v);
}

/* Truncate toward zero.  Out-of-range values and NaNs raise invalid and
 * return the most negative integer, as the x86 "integer indefinite". */
int64_t f64_to_i64_rtz(f64_t a)
{
    unpacked_t ua = unpack(a);
    int32_t e;
    uint64_t mag;
    int32_t sh;

    if (ua.cls == CLS_ZERO)
        return 0;
    if (ua.cls != CLS_FINITE) {
        fx_raise(FX_INVALID);
        return INT64_MIN;
    }
    e = ua.exp - F64_EXP_BIAS;           /* value = sig * 2^(e-62) */
    if (e < 0) {
        fx_raise(FX_INEXACT);
        return 0;
    }
    if (e > 62) {
        if (ua.sign && e == 63 && ua.sig == SIG_LEAD)
            return INT64_MIN;            /* exactly -2^63 */
        fx_raise(FX_INVALID);
        return INT64_MIN;
    }
    sh = 62 - e;
    mag = ua.sig >> sh;
    if (sh > 0 && (ua.sig << (64 - sh)) != 0)
        fx_raise(FX_INEXACT);
    return ua.sign ? -(int64_t)mag : (int64_t)mag;
}

int32_t f64_to_i32_rtz(f64_t a)
{
    int64_t v;
    unsigned saved = fx_flags;

    v = f64_to_i64_rtz(a);
    if (v > INT32_MAX || v < INT32_MIN || (fx_flags & ~saved & FX_INVALID)) {
        fx_flags = saved | FX_INVALID;
        return INT32_MIN;
    }
    return (int32_t)v;
}

/* ------------------------------------------------------------------ */
/* Comparisons (quiet predicates; a NaN compares unordered)            */
/* ------------------------------------------------------------------ */

int f64_eq(f64_t a, f64_t b)
{
    if (f64_is_nan(a) || f64_is_nan(b)) {
        if (f64_is_snan(a) || f64_is_snan(b))
            fx_raise(FX_INVALID);
        return 0;
    }
    return a == b || ((a | b) << 1) == 0;   /* +0 == -0 */
}

int f64_lt(f64_t a, f64_t b)
{
    int sa = (int)(a >> 63), sb = (int)(b >> 63);

    if (f64_is_nan(a) || f64_is_nan(b)) {
        fx_raise(FX_INVALID);
        return 0;
    }
    if (sa != sb)
        return sa && ((a | b) << 1) != 0;
    return a != b && (sa ^ (a < b));
}

int f64_le(f64_t a, f64_t b)
{
    int sa = (int)(a >> 63), sb = (int)(b >> 63);

    if (f64_is_nan(a) || f64_is_nan(b)) {
        fx_raise(FX_INVALID);
        return 0;
    }
    if (sa != sb)
        return sa || ((a | b) << 1) == 0;
    return a == b || (sa ^ (a < b));
}
