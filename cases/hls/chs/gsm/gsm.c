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
 * This file is the design.  Its interface (gsm_analyse and gsm_operator
 * at the end) is exercised by the test driver gsm_test.c, which feeds the
 * speech frames and prints every coefficient, coded LAR, residual sample
 * and state value; the harness compares that output with the output of
 * the known-good design.
 *
 * Negative values are scaled by multiplication or shifted as unsigned
 * values where the specification writes a left shift: a left shift of a
 * negative signed value is undefined in C.
 */
#include <stdint.h>
#include <string.h>


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
        s0 = (word)(sasr(in[k], 3) * 4);

        /* 4.2.2 offset compensation: high-pass with a pole at alpha,
         * the recursive part held in 32 bits */
        s1 = (word)(s0 - z1);
        z1 = s0;
        L_s2 = (longword)s1 * 32768;
        msp = (word)sasr(L_z2, 15);
        lsp = (word)(L_z2 - (longword)msp * 32768);
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
        L_ACF[k] = L_sum * 2;
    }

    /* undo the scaling of s[] for the filtering that follows */
    if (scalauto > 0)
        for (k = 0; k < FRAME; k++)
            s[k] = (word)(s[k] * (1 << scalauto));
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
        ACF[i] = (word)sasr(L_ACF[i] * ((longword)1 << temp), 16);

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
        word temp1 = (word)((uint32_t)gsm_add(LARc[i], lar_MIC[i]) << 10);
        word temp2 = (word)(lar_B[i] * 2);
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
/* Interface of the design (used by the test driver)                   */
/* ------------------------------------------------------------------ */

/* Values written per frame by gsm_analyse, in this order: scalauto,
 * L_ACF[0..8], LARc[8], r[8], rp_last[8], rp_seg[4][8], s_in[160], d[160]. */
#define GSM_FRAME_VALUES (1 + (ORDER + 1) + 3 * ORDER + 4 * ORDER + 2 * FRAME)
/* Values of the final encoder state: z1, L_z2, mp, u[8], LARpp[2][8], j. */
#define GSM_STATE_VALUES (3 + ORDER + 2 * ORDER + 1)

static int32_t *put_words(int32_t *out, const word *w, int n)
{
    int i;
    for (i = 0; i < n; i++)
        *out++ = w[i];
    return out;
}

/* LPC analysis of nframes frames of 160 samples by a freshly initialised
 * encoder; GSM_FRAME_VALUES per frame go to out, the final state to state */
void gsm_analyse(const int16_t *in, int nframes, int32_t *out, int32_t *state)
{
    static frame_result fr;
    gsm_state st;
    int f, i;

    gsm_init(&st);
    for (f = 0; f < nframes; f++) {
        lpc_analysis(&st, in + f * FRAME, &fr);
        *out++ = fr.scalauto;
        for (i = 0; i <= ORDER; i++)
            *out++ = fr.L_ACF[i];
        out = put_words(out, fr.LARc, ORDER);
        out = put_words(out, fr.r, ORDER);
        out = put_words(out, fr.rp_last, ORDER);
        for (i = 0; i < 4; i++)
            out = put_words(out, fr.rp_seg[i], ORDER);
        out = put_words(out, fr.s_in, FRAME);
        out = put_words(out, fr.d, FRAME);
    }
    *state++ = st.z1;
    *state++ = st.L_z2;
    *state++ = st.mp;
    state = put_words(state, st.u, ORDER);
    state = put_words(state, st.LARpp[0], ORDER);
    state = put_words(state, st.LARpp[1], ORDER);
    *state = st.j;
}

/* The basic operators of clause 5.1: 0 add, 1 sub, 2 mult, 3 mult_r,
 * 4 abs, 5 L_add, 6 L_mult, 7 norm, 8 div.  Word operands are given as
 * their values; norm needs a non-zero operand, div 0 <= a <= b. */
int32_t gsm_operator(int op, int32_t a, int32_t b)
{
    switch (op) {
    case 0: return gsm_add((word)a, (word)b);
    case 1: return gsm_sub((word)a, (word)b);
    case 2: return gsm_mult((word)a, (word)b);
    case 3: return gsm_mult_r((word)a, (word)b);
    case 4: return gsm_abs((word)a);
    case 5: return gsm_L_add(a, b);
    case 6: return gsm_L_mult((word)a, (word)b);
    case 7: return gsm_norm(a);
    case 8: return gsm_div((word)a, (word)b);
    default: return 0;
    }
}
