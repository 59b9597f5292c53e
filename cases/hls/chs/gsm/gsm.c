/*
 * gsm.c -- LPC analysis section of a GSM full-rate (RPE-LTP) speech
 * encoder in 16/32-bit fixed point.
 *
 * Specification implemented:
 *   ETSI EN 300 961 / GSM 06.10, "Full rate speech; Transcoding",
 *   clause 4.2.0 - 4.2.10 (encoder, short term analysis):
 *     4.2.1  downscaling of the 13-bit input
 *     4.2.2  offset compensation (alpha = 32735 / 32768)
 *     4.2.3  pre-emphasis (beta = 28180 / 32768)
 *     4.2.4  autocorrelation with dynamic scaling (lags 0..8)
 *     4.2.5  Schur recursion giving reflection coefficients r[1..8]
 *     4.2.6  transformation of r[] into log-area ratios LAR[1..8]
 *     4.2.7  quantisation and coding of the LARs (LARc, tables A, B,
 *            MIC, MAC)
 *     4.2.8  decoding of the coded LARs (table INVA)
 *     4.2.9  interpolation of the decoded LARs over four sample ranges
 *            and conversion back to reflection coefficients rp[]
 *     4.2.10 short term analysis (lattice) filtering giving d[0..159]
 *   using the saturating arithmetic operators of clause 5.1 (add, sub,
 *   mult, mult_r, abs, L_add, L_mult, norm, div).
 *
 * Self-check: a deterministic synthetic input (voiced frames made by
 * driving two integer formant resonators with a pulse train, noise,
 * silence, a full-scale frame, an offset frame) is analysed frame by
 * frame.  The coded LARc[] of every frame and a hash of the reflection
 * coefficients and of the residual d[] are compared with embedded
 * expected values obtained once from this implementation; in addition
 * the fixed-point Schur result is compared with a double-precision
 * Levinson-Durbin recursion on the same autocorrelation, and the
 * residual with a double-precision lattice filter using the same
 * coefficients.  main() prints the number of mismatches and returns it
 * (capped at 255).
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

typedef int16_t word;       /* 16-bit signed  */
typedef int32_t longword;   /* 32-bit signed  */

#define FRAME    160
#define NFRAMES  12
#define ORDER    8

#define MIN_WORD  (-32768)
#define MAX_WORD  32767
#define MIN_LONG  (-2147483647L - 1)
#define MAX_LONG  2147483647L

/* Arithmetic right shift of a signed value (explicit, so the intent is
 * clear and independent of how a compiler shifts negative numbers). */
static longword sasr(longword x, int by)
{
    return (x >= 0) ? (x >> by) : ~((~x) >> by);
}

/* ------------------------------------------------------------------ */
/* Basic operators (GSM 06.10 clause 5.1)                              */
/* ------------------------------------------------------------------ */

static word saturate(longword x)
{
    if (x > MAX_WORD)
        return MAX_WORD;
    if (x < MIN_WORD)
        return MIN_WORD;
    return (word)x;
}

static word gsm_add(word a, word b)
{
    return saturate((longword)a + b);
}

static word gsm_sub(word a, word b)
{
    return saturate((longword)a - b);
}

static word gsm_mult(word a, word b)
{
    if (a == MIN_WORD && b == MIN_WORD)
        return MAX_WORD;
    return (word)sasr((longword)a * b, 15);
}

static word gsm_mult_r(word a, word b)
{
    if (a == MIN_WORD && b == MIN_WORD)
        return MAX_WORD;
    return (word)sasr((longword)a * b + 16384, 15);
}

static word gsm_abs(word a)
{
    if (a == MIN_WORD)
        return MAX_WORD;
    return (word)(a < 0 ? -a : a);
}

static longword gsm_L_add(longword a, longword b)
{
    int64_t s = (int64_t)a + b;
    if (s > MAX_LONG)
        return MAX_LONG;
    if (s < MIN_LONG)
        return MIN_LONG;
    return (longword)s;
}

static longword gsm_L_mult(word a, word b)
{
    if (a == MIN_WORD && b == MIN_WORD)
        return MAX_LONG;
    return ((longword)a * b) * 2;
}

/* Number of left shifts that normalise a non-zero 32-bit value into
 * [2^30, 2^31) (or [-2^31, -2^30) for negative values).  The operand
 * must not be zero. */
static word gsm_norm(longword a)
{
    word n = 0;
    if (a < 0) {
        if (a <= -1073741824L)
            return 0;
        a = ~a;
        if (a == 0)
            return 31;                   /* a was -1 */
    }
    while (a < 0x40000000L) {
        a <<= 1;
        n++;
    }
    return n;
}

/* Fractional division num/denum in Q15, 0 <= num <= denum. */
static word gsm_div(word num, word denum)
{
    longword L_num = num;
    longword L_denum = denum;
    word div = 0;
    int k;

    if (num == 0)
        return 0;
    for (k = 0; k < 15; k++) {
        div <<= 1;
        L_num <<= 1;
        if (L_num >= L_denum) {
            L_num -= L_denum;
            div++;
        }
    }
    return div;
}

/* ------------------------------------------------------------------ */
/* Encoder state                                                       */
/* ------------------------------------------------------------------ */
typedef struct {
    word     z1;              /* offset compensation: previous input  */
    longword L_z2;            /* offset compensation: filter memory   */
    word     mp;              /* pre-emphasis memory                  */
    word     u[ORDER];        /* short term analysis filter state     */
    word     LARpp[2][ORDER]; /* decoded LARs of previous and current */
    int      j;               /* index of the current LARpp set       */
} gsm_state;

static void gsm_init(gsm_state *st)
{
    st->z1 = 0;
    st->L_z2 = 0;
    st->mp = 0;
    memset(st->u, 0, sizeof st->u);
    memset(st->LARpp, 0, sizeof st->LARpp);
    st->j = 0;
}

/* ------------------------------------------------------------------ */
/* 4.2.1 - 4.2.3: preprocessing                                        */
/* ------------------------------------------------------------------ */
static void preprocess(gsm_state *st, const word *in, word *so)
{
    word z1 = st->z1;
    longword L_z2 = st->L_z2;
    word mp = st->mp;
    int k;

    for (k = 0; k < FRAME; k++) {
        word s0, s1, msp, lsp;
        longword L_s2, L_temp;

        /* 4.2.1 downscaling: keep the 13 significant bits */
        s0 = (word)(sasr(in[k], 3) << 2);

        /* 4.2.2 offset compensation: high-pass with a pole at alpha,
         * the recursive part held in 32 bits */
        s1 = (word)(s0 - z1);
        z1 = s0;
        L_s2 = (longword)s1 << 15;
        msp = (word)sasr(L_z2, 15);
        lsp = (word)(L_z2 - ((longword)msp << 15));
        L_s2 += gsm_mult_r(lsp, 32735);
        L_temp = (longword)msp * 32735;
        L_z2 = gsm_L_add(L_temp, L_s2);
        L_temp = gsm_L_add(L_z2, 16384);

        /* 4.2.3 pre-emphasis */
        msp = gsm_mult_r(mp, -28180);
        mp = (word)sasr(L_temp, 15);
        so[k] = gsm_add(mp, msp);
    }
    st->z1 = z1;
    st->L_z2 = L_z2;
    st->mp = mp;
}

/* ------------------------------------------------------------------ */
/* 4.2.4: autocorrelation                                              */
/* ------------------------------------------------------------------ */
static void autocorrelation(word *s, longword *L_ACF, int *scale_out)
{
    word smax = 0, temp;
    int scalauto, k, i;

    /* dynamic scaling of the input */
    for (k = 0; k < FRAME; k++) {
        temp = gsm_abs(s[k]);
        if (temp > smax)
            smax = temp;
    }
    if (smax == 0)
        scalauto = 0;
    else
        scalauto = 4 - gsm_norm((longword)smax << 16);
    if (scalauto > 0) {
        temp = (word)(16384 >> (scalauto - 1));
        for (k = 0; k < FRAME; k++)
            s[k] = gsm_mult_r(s[k], temp);
    }

    /* L_ACF[k] = 2 * sum s[i] * s[i-k] */
    for (k = 0; k <= ORDER; k++) {
        longword L_sum = 0;
        for (i = k; i < FRAME; i++)
            L_sum += (longword)s[i] * s[i - k];
        L_ACF[k] = L_sum << 1;
    }

    /* undo the scaling of s[] for the filtering that follows */
    if (scalauto > 0)
        for (k = 0; k < FRAME; k++)
            s[k] = (word)(s[k] << scalauto);
    *scale_out = scalauto;
}

/* ------------------------------------------------------------------ */
/* 4.2.5: Schur recursion                                              */
/* ------------------------------------------------------------------ */
static void reflection_coefficients(const longword *L_ACF, word *r)
{
    word ACF[ORDER + 1], P[ORDER + 1], K[ORDER + 1];
    word temp;
    int i, m, n;

    if (L_ACF[0] == 0) {
        for (i = 0; i < ORDER; i++)
            r[i] = 0;
        return;
    }
    temp = gsm_norm(L_ACF[0]);
    for (i = 0; i <= ORDER; i++)
        ACF[i] = (word)sasr(L_ACF[i] << temp, 16);

    for (i = 1; i <= 7; i++)
        K[ORDER + 1 - i] = ACF[i];
    for (i = 0; i <= ORDER; i++)
        P[i] = ACF[i];

    for (n = 1; n <= ORDER; n++) {
        temp = gsm_abs(P[1]);
        if (P[0] < temp) {
            for (i = n; i <= ORDER; i++)
                r[i - 1] = 0;
            return;
        }
        r[n - 1] = gsm_div(temp, P[0]);
        if (P[1] > 0)
            r[n - 1] = (word)-r[n - 1];
        if (n == ORDER)
            return;

        P[0] = gsm_add(P[0], gsm_mult_r(P[1], r[n - 1]));
        for (m = 1; m <= ORDER - n; m++) {
            P[m] = gsm_add(P[m + 1], gsm_mult_r(K[ORDER + 1 - m], r[n - 1]));
            K[ORDER + 1 - m] = gsm_add(K[ORDER + 1 - m], gsm_mult_r(P[m + 1], r[n - 1]));
        }
    }
}

/* ------------------------------------------------------------------ */
/* 4.2.6 - 4.2.8: log-area ratios, quantisation, decoding              */
/* ------------------------------------------------------------------ */
static const word lar_A[ORDER]    = { 20480, 20480, 20480, 20480, 13964, 15360, 8534, 9036 };
static const word lar_B[ORDER]    = { 0, 0, 2048, -2560, 94, -1792, -341, -1144 };
static const word lar_MIC[ORDER]  = { -32, -32, -16, -16, -8, -8, -4, -4 };
static const word lar_MAC[ORDER]  = { 31, 31, 15, 15, 7, 7, 3, 3 };
static const word lar_INVA[ORDER] = { 13107, 13107, 13107, 13107, 19223, 17476, 31454, 29708 };

/* Piecewise-linear approximation of log((1+r)/(1-r)). */
static void reflection_to_lar(const word *r, word *LAR)
{
    int i;
    for (i = 0; i < ORDER; i++) {
        word temp = gsm_abs(r[i]);
        if (temp < 22118)
            temp = (word)(temp >> 1);
        else if (temp < 31130)
            temp = (word)(temp - 11059);
        else
            temp = (word)((temp - 26112) << 2);
        LAR[i] = (r[i] < 0) ? (word)-temp : temp;
    }
}

/* LARc[i] = round(A[i] * LAR[i] + B[i]), limited to [MIC, MAC] and
 * offset by -MIC so that it is transmitted as a non-negative number. */
static void quantise_lar(const word *LAR, word *LARc)
{
    int i;
    for (i = 0; i < ORDER; i++) {
        word temp = gsm_mult(lar_A[i], LAR[i]);
        temp = gsm_add(temp, lar_B[i]);
        temp = gsm_add(temp, 256);           /* rounding */
        temp = (word)sasr(temp, 9);
        if (temp > lar_MAC[i])
            temp = lar_MAC[i];
        if (temp < lar_MIC[i])
            temp = lar_MIC[i];
        LARc[i] = (word)(temp - lar_MIC[i]);
    }
}

/* LARpp[i] = (LARc[i] + MIC[i] - B[i]/1024) / A[i], in Q10 scaled. */
static void decode_lar(const word *LARc, word *LARpp)
{
    int i;
    for (i = 0; i < ORDER; i++) {
        word temp1 = (word)(gsm_add(LARc[i], lar_MIC[i]) << 10);
        word temp2 = (word)(lar_B[i] << 1);
        temp1 = gsm_sub(temp1, temp2);
        temp1 = gsm_mult_r(lar_INVA[i], temp1);
        LARpp[i] = gsm_add(temp1, temp1);
    }
}

/* ------------------------------------------------------------------ */
/* 4.2.9: interpolation and conversion to reflection coefficients      */
/* ------------------------------------------------------------------ */
static void lar_to_rp(word *LARp)
{
    int i;
    for (i = 0; i < ORDER; i++) {
        word temp = gsm_abs(LARp[i]);
        if (temp < 11059)
            temp = (word)(temp << 1);
        else if (temp < 20070)
            temp = (word)(temp + 11059);
        else
            temp = gsm_add((word)(temp >> 2), 26112);
        LARp[i] = (LARp[i] < 0) ? (word)-temp : temp;
    }
}

/* Sample ranges of the four interpolation segments. */
enum { SEG1_END = 12, SEG2_END = 26, SEG3_END = 39 };

static void interpolate_0_12(const word *prev, const word *cur, word *LARp)
{
    int i;
    for (i = 0; i < ORDER; i++) {
        LARp[i] = gsm_add((word)sasr(prev[i], 2), (word)sasr(cur[i], 2));
        LARp[i] = gsm_add(LARp[i], (word)sasr(prev[i], 1));
    }
}

static void interpolate_13_26(const word *prev, const word *cur, word *LARp)
{
    int i;
    for (i = 0; i < ORDER; i++)
        LARp[i] = gsm_add((word)sasr(prev[i], 1), (word)sasr(cur[i], 1));
}

static void interpolate_27_39(const word *prev, const word *cur, word *LARp)
{
    int i;
    for (i = 0; i < ORDER; i++) {
        LARp[i] = gsm_add((word)sasr(prev[i], 2), (word)sasr(cur[i], 2));
        LARp[i] = gsm_add(LARp[i], (word)sasr(cur[i], 1));
    }
}

static void interpolate_40_159(const word *cur, word *LARp)
{
    int i;
    for (i = 0; i < ORDER; i++)
        LARp[i] = cur[i];
}

/* ------------------------------------------------------------------ */
/* 4.2.10: short term analysis filtering                               */
/* ------------------------------------------------------------------ */
static void short_term_filter(gsm_state *st, const word *rp, int k_start,
                              int k_end, word *s)
{
    word *u = st->u;
    int k, i;

    for (k = k_start; k <= k_end; k++) {
        word di, sav;
        di = sav = s[k];
        for (i = 0; i < ORDER; i++) {
            word ui = u[i];
            word rpi = rp[i];
            word zzz;
            u[i] = sav;
            zzz = gsm_mult_r(rpi, di);
            sav = gsm_add(ui, zzz);
            zzz = gsm_mult_r(rpi, ui);
            di = gsm_add(di, zzz);
        }
        s[k] = di;
    }
}

/* Per-frame results kept for checking. */
typedef struct {
    word     LARc[ORDER];
    word     r[ORDER];
    word     rp_last[ORDER];
    word     s_in[FRAME];        /* filter input (after rescaling) */
    word     d[FRAME];           /* residual                        */
    word     rp_seg[4][ORDER];   /* coefficients used per segment   */
    longword L_ACF[ORDER + 1];
    int      scalauto;
} frame_result;

/* LPC analysis of one frame of 160 input samples. */
static void lpc_analysis(gsm_state *st, const word *in, frame_result *fr)
{
    word s[FRAME];
    word LAR[ORDER], LARp[ORDER];
    word *prev, *cur;
    int i;

    preprocess(st, in, s);
    autocorrelation(s, fr->L_ACF, &fr->scalauto);
    reflection_coefficients(fr->L_ACF, fr->r);
    reflection_to_lar(fr->r, LAR);
    quantise_lar(LAR, fr->LARc);

    /* decode into the current LARpp set; the other holds the previous */
    prev = st->LARpp[st->j];
    st->j ^= 1;
    cur = st->LARpp[st->j];
    decode_lar(fr->LARc, cur);

    memcpy(fr->s_in, s, sizeof s);

    interpolate_0_12(prev, cur, LARp);
    lar_to_rp(LARp);
    memcpy(fr->rp_seg[0], LARp, sizeof LARp);
    short_term_filter(st, LARp, 0, SEG1_END, s);

    interpolate_13_26(prev, cur, LARp);
    lar_to_rp(LARp);
    memcpy(fr->rp_seg[1], LARp, sizeof LARp);
    short_term_filter(st, LARp, SEG1_END + 1, SEG2_END, s);

    interpolate_27_39(prev, cur, LARp);
    lar_to_rp(LARp);
    memcpy(fr->rp_seg[2], LARp, sizeof LARp);
    short_term_filter(st, LARp, SEG2_END + 1, SEG3_END, s);

    interpolate_40_159(cur, LARp);
    lar_to_rp(LARp);
    memcpy(fr->rp_seg[3], LARp, sizeof LARp);
    short_term_filter(st, LARp, SEG3_END + 1, FRAME - 1, s);

    for (i = 0; i < ORDER; i++)
        fr->rp_last[i] = LARp[i];
    memcpy(fr->d, s, sizeof s);
}

/* ------------------------------------------------------------------ */
/* Synthetic input                                                     */
/* ------------------------------------------------------------------ */
static uint32_t lcg_state = 0xACE1u;
static int32_t rnd_signed(int32_t amp)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (int32_t)((lcg_state >> 16) % (uint32_t)(2 * amp + 1)) - amp;
}

typedef struct {
    int32_t y1, y2;           /* resonator memories */
    int32_t c, r2;            /* 2*rho*cos(w) in Q14, rho^2 in Q15 */
} resonator;

static int32_t resonate(resonator *rs, int32_t x)
{
    int32_t y = ((rs->c * rs->y1) >> 14) - ((rs->r2 * rs->y2) >> 15) + x;
    rs->y2 = rs->y1;
    rs->y1 = y;
    return y;
}

/* Frame kinds of the test signal. */
enum { K_VOICED_A, K_VOICED_B, K_NOISE, K_SILENCE, K_FULLSCALE, K_OFFSET, K_GLIDE };
static const int frame_kind[NFRAMES] = {
    K_VOICED_A, K_VOICED_A, K_VOICED_B, K_NOISE, K_SILENCE, K_SILENCE,
    K_FULLSCALE, K_OFFSET, K_GLIDE, K_VOICED_B, K_NOISE, K_VOICED_A
};

static void make_input(word in[NFRAMES][FRAME])
{
    resonator f1 = { 0, 0, 27262, 30832 };   /* ~700 Hz  */
    resonator f2 = { 0, 0, 18298, 29573 };   /* ~1200 Hz */
    int f, k, phase = 0;

    for (f = 0; f < NFRAMES; f++) {
        for (k = 0; k < FRAME; k++) {
            int32_t x = 0, v;
            switch (frame_kind[f]) {
            case K_VOICED_A:
            case K_VOICED_B:
                x = (phase == 0) ? 2400 : 0;
                phase = (phase + 1) % ((frame_kind[f] == K_VOICED_A) ? 57 : 41);
                if (frame_kind[f] == K_VOICED_B)
                    f1.c = 24500;
                else
                    f1.c = 27262;
                v = resonate(&f2, resonate(&f1, x)) >> 2;
                break;
            case K_NOISE:
                v = rnd_signed(900);
                break;
            case K_SILENCE:
                v = 0;
                f1.y1 = f1.y2 = f2.y1 = f2.y2 = 0;
                break;
            case K_FULLSCALE:
                v = (k & 4) ? 32767 : -32768;
                break;
            case K_OFFSET:
                v = 3000 + rnd_signed(200);
                break;
            default:                               /* glide: moving formant */
                x = (k % 33 == 0) ? 3000 : 0;
                f1.c = 20000 + 40 * k;
                v = resonate(&f1, x) >> 1;
                break;
            }
            if (v > 32767) v = 32767;
            if (v < -32768) v = -32768;
            in[f][k] = (word)(v & ~7);            /* 13-bit input, left justified */
        }
    }
}

/* ------------------------------------------------------------------ */
/* Reference computations in double precision                          */
/* ------------------------------------------------------------------ */

/* Levinson-Durbin on the normalised autocorrelation; returns the
 * number of valid reflection coefficients (stops when unstable). */
static int levinson(const longword *L_ACF, double *k_out)
{
    double R[ORDER + 1], a[ORDER + 1], tmp[ORDER + 1], err;
    int i, j, n;
    word t = gsm_norm(L_ACF[0]);

    for (i = 0; i <= ORDER; i++)
        R[i] = (double)sasr(L_ACF[i] << t, 16);
    for (i = 0; i <= ORDER; i++)
        a[i] = 0.0;
    a[0] = 1.0;
    err = R[0];
    for (n = 1; n <= ORDER; n++) {
        double acc = R[n], k;
        for (j = 1; j < n; j++)
            acc += a[j] * R[n - j];
        k = -acc / err;
        if (fabs(k) >= 0.999)
            return n - 1;
        k_out[n - 1] = k;
        for (j = 0; j <= n; j++)
            tmp[j] = a[j];
        for (j = 1; j < n; j++)
            a[j] = tmp[j] + k * tmp[n - j];
        a[n] = k;
        err *= 1.0 - k * k;
    }
    return ORDER;
}

/* ------------------------------------------------------------------ */
/* Expected results (from a verified run of this implementation)       */
/* ------------------------------------------------------------------ */
static const word expected_LARc[NFRAMES][ORDER] = {
    { 15, 55,  8, 22, 14,  9,  5,  3 },
    { 15, 55, 11, 17, 15,  9,  5,  3 },
    { 19, 59, 13, 15, 14,  9,  6,  3 },
    { 41, 39, 24, 14, 10,  6,  4,  3 },
    { 32, 32, 20, 11,  8,  4,  3,  2 },
    {  2, 27, 19, 11,  8,  5,  3,  2 },
    { 32, 32, 20, 31,  7,  4,  3,  3 },
    { 32, 32, 20, 10,  8,  4,  3,  2 },
    { 19, 46, 29, 15, 10,  6,  4,  2 },
    { 19, 59, 13, 15, 14,  9,  4,  2 },
    { 42, 38, 25, 14,  9,  4,  4,  3 },
    { 15, 54, 15, 12, 13, 10,  5,  2 }
};
static const uint32_t expected_r_hash[NFRAMES] = {
    0xd7915844u, 0xa1dfcd37u, 0xcd2f16cdu, 0x567a5519u,
    0xb0ec0477u, 0x189574c5u, 0x86faef90u, 0x1ef4a466u,
    0x36aa8713u, 0x528e8706u, 0x8b434904u, 0x754a4f33u
};
static const uint32_t expected_d_hash[NFRAMES] = {
    0x18e36758u, 0xb2ccc76bu, 0x7f66613au, 0x5efefd0du,
    0x50c0cde4u, 0x9bf1efd6u, 0x26765a08u, 0x6243eab2u,
    0xf1e8b927u, 0x1a9f69edu, 0x8f618334u, 0xf51722cbu
};

static unsigned mismatches;
static unsigned checks;

static void expect(const char *what, int idx, long got, long want)
{
    checks++;
    if (got != want) {
        if (mismatches < 10)
            printf("MISMATCH %s[%d]: got %ld want %ld\n", what, idx, got, want);
        mismatches++;
    }
}

static uint32_t hash_words(const word *w, int n)
{
    uint32_t h = 2166136261u;
    int i;
    for (i = 0; i < n; i++) {
        h ^= (uint16_t)w[i];
        h *= 16777619u;
    }
    return h;
}

/* Unit checks of the basic operators at their corners. */
static void check_operators(void)
{
    expect("add_sat", 0, gsm_add(30000, 10000), 32767);
    expect("sub_sat", 0, gsm_sub(-30000, 10000), -32768);
    expect("mult_min", 0, gsm_mult(-32768, -32768), 32767);
    expect("mult_r", 0, gsm_mult_r(16384, 3), 2);
    expect("mult_r_neg", 0, gsm_mult_r(-16384, 3), -1);
    expect("abs_min", 0, gsm_abs(-32768), 32767);
    expect("L_add_sat", 0, gsm_L_add(MAX_LONG, 1), MAX_LONG);
    expect("L_mult", 0, gsm_L_mult(-32768, -32768), MAX_LONG);
    expect("norm_1", 0, gsm_norm(1), 30);
    expect("norm_neg", 0, gsm_norm(-1), 31);
    expect("norm_big", 0, gsm_norm(0x40000000L), 0);
    expect("div_half", 0, gsm_div(1, 2), 16384);
    expect("div_eq", 0, gsm_div(1000, 1000), 32767);
    expect("div_third", 0, gsm_div(10000, 30000), 10922);
}

int main(void)
{
    static word in[NFRAMES][FRAME];
    static frame_result fr;
    gsm_state st;
    int f, i, k;

    check_operators();
    make_input(in);
    gsm_init(&st);

    for (f = 0; f < NFRAMES; f++) {
        double kf[ORDER], dmax = 0.0, rmax = 0.0;
        double u[ORDER];
        int nvalid;
        uint32_t hr, hd;

        lpc_analysis(&st, in[f], &fr);
        hr = hash_words(fr.r, ORDER);
        hd = hash_words(fr.d, FRAME);
        printf("frame %2d: scale %d LARc", f, fr.scalauto);
        for (i = 0; i < ORDER; i++)
            printf(" %2d", fr.LARc[i]);
        printf("  r-hash %08x d-hash %08x\n", (unsigned)hr, (unsigned)hd);
        for (i = 0; i < ORDER; i++)
            expect("LARc", f * ORDER + i, fr.LARc[i], expected_LARc[f][i]);
        expect("r_hash", f, (long)hr, (long)expected_r_hash[f]);
        expect("d_hash", f, (long)hd, (long)expected_d_hash[f]);

        /* Schur against Levinson-Durbin */
        if (fr.L_ACF[0] != 0) {
            nvalid = levinson(fr.L_ACF, kf);
            for (i = 0; i < nvalid; i++) {
                double e = fabs(fr.r[i] / 32768.0 - kf[i]);
                if (e > rmax)
                    rmax = e;
            }
            expect("schur_vs_levinson", f, rmax < 0.02, 1);
        }

        /* residual against a double-precision lattice with the same
         * per-segment coefficients (the filter state is not carried
         * over in the reference, so compare from sample 16 on) */
        for (i = 0; i < ORDER; i++)
            u[i] = 0.0;
        for (k = 0; k < FRAME; k++) {
            const word *rp = fr.rp_seg[k <= SEG1_END ? 0 : k <= SEG2_END ? 1 : k <= SEG3_END ? 2 : 3];
            double di = fr.s_in[k], sav = di;
            for (i = 0; i < ORDER; i++) {
                double ui = u[i], rpi = rp[i] / 32768.0;
                u[i] = sav;
                sav = ui + rpi * di;
                di = di + rpi * ui;
            }
            if (k >= 16 && fabs(di - fr.d[k]) > dmax)
                dmax = fabs(di - fr.d[k]);
        }
        expect("residual_vs_float", f, dmax <= 16.0, 1);
        printf("          Schur-Levinson max diff %.4f, residual max diff %.1f\n", rmax, dmax);
    }

    /* A freshly reset encoder fed with digital silence: every stage
     * must take its zero path (no scaling, r = 0, LARs at their
     * quantised zero points, zero residual). */
    {
        static const word zero_LARc[ORDER] = { 32, 32, 20, 11, 8, 5, 3, 2 };
        static word silence[FRAME];
        gsm_init(&st);
        lpc_analysis(&st, silence, &fr);
        expect("silence_scale", 0, fr.scalauto, 0);
        expect("silence_acf", 0, fr.L_ACF[0], 0);
        for (i = 0; i < ORDER; i++) {
            expect("silence_r", i, fr.r[i], 0);
            expect("silence_LARc", i, fr.LARc[i], zero_LARc[i]);
        }
        for (k = 0; k < FRAME; k++)
            expect("silence_d", k, fr.d[k], 0);
    }
    printf("checks = %u\n", checks);
    printf("mismatches = %u\n", mismatches);
    return mismatches > 255 ? 255 : (int)mismatches;
}
