/*
 * gsm_test.c -- test driver for gsm.c.
 *
 * The driver belongs to the harness: it makes the speech frames, runs the
 * LPC analysis and the basic operators, and prints every value they
 * produce (scaling, autocorrelation, reflection coefficients, coded LARs,
 * interpolated coefficients, filter input and residual, final state).  It
 * judges nothing itself; the harness compares the printed output with
 * that of the known-good design.
 *
 *   ./prog            the fixed input: the operators at their corners, 12
 *                     synthetic frames (voiced frames from two integer
 *                     formant resonators driven by a pulse train, noise,
 *                     silence, a full-scale frame, an offset frame, a
 *                     formant glide), then one frame of digital silence
 *                     into a fresh encoder
 *   ./prog --seed N   frames generated from N (N >= 1), with N % 8 choosing
 *                     the pattern: voiced speech with random pitch and
 *                     formants, silence, full-scale squares, constant
 *                     levels, white noise, impulses, frames of mixed kinds,
 *                     very quiet signals; and random operator operands,
 *                     then no frame at all (the fresh encoder's state);
 *                     a multiple of 16 also replays the boundary seeds below
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FRAME   160
#define ORDER   8
#define NFRAMES 12
#define MAX_FRAMES 16
#define GSM_FRAME_VALUES (1 + (ORDER + 1) + 3 * ORDER + 4 * ORDER + 2 * FRAME)
#define GSM_STATE_VALUES (3 + ORDER + 2 * ORDER + 1)

/* the design's interface (gsm.c) */
void gsm_analyse(const int16_t *in, int nframes, int32_t *out, int32_t *state);
int32_t gsm_operator(int op, int32_t a, int32_t b);

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void put_values(const char *label, const int32_t *v, int n)
{
    int i;
    printf("%s", label);
    for (i = 0; i < n; i++) {
        if (i % 16 == 0)
            printf("\n");
        printf(" %ld", (long)v[i]);
    }
    printf("\n");
}

/* analyses nframes frames with a fresh encoder and prints every value */
static void show_analysis(const char *name, const int16_t *in, int nframes)
{
    static const struct { const char *what; int count; } parts[] = {
        { "scalauto", 1 }, { "L_ACF", ORDER + 1 }, { "LARc", ORDER }, { "r", ORDER },
        { "rp_last", ORDER }, { "rp_seg", 4 * ORDER }, { "s_in", FRAME }, { "d", FRAME }
    };
    static int32_t out[MAX_FRAMES * GSM_FRAME_VALUES];
    int32_t state[GSM_STATE_VALUES];
    char label[64];
    int f, p;

    for (p = 0; p < GSM_STATE_VALUES; p++)
        state[p] = -1;                      /* a state the design fails to write shows */
    gsm_analyse(in, nframes, out, state);
    for (f = 0; f < nframes; f++) {
        const int32_t *v = out + f * GSM_FRAME_VALUES;
        for (p = 0; p < (int)(sizeof parts / sizeof parts[0]); p++) {
            sprintf(label, "%s.frame%d.%s", name, f, parts[p].what);
            put_values(label, v, parts[p].count);
            v += parts[p].count;
        }
    }
    sprintf(label, "%s.state", name);
    put_values(label, state, GSM_STATE_VALUES);
}

static const char *const op_name[9] = {
    "add", "sub", "mult", "mult_r", "abs", "L_add", "L_mult", "norm", "div"
};

static void show_operator(int op, int32_t a, int32_t b)
{
    printf("%s %ld %ld %ld\n", op_name[op], (long)a, (long)b, (long)gsm_operator(op, a, b));
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
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
    if (y > 1 << 16)          /* keeps a random resonator from overflowing */
        y = 1 << 16;
    if (y < -(1 << 16))
        y = -(1 << 16);
    rs->y2 = rs->y1;
    rs->y1 = y;
    return y;
}

static int16_t to_input(int32_t v)
{
    if (v > 32767)
        v = 32767;
    if (v < -32768)
        v = -32768;
    return (int16_t)(v & ~7);  /* 13-bit input, left justified */
}

/* Frame kinds of the test signal. */
enum { K_VOICED_A, K_VOICED_B, K_NOISE, K_SILENCE, K_FULLSCALE, K_OFFSET, K_GLIDE, K_KINDS };
static const int frame_kind[NFRAMES] = {
    K_VOICED_A, K_VOICED_A, K_VOICED_B, K_NOISE, K_SILENCE, K_SILENCE,
    K_FULLSCALE, K_OFFSET, K_GLIDE, K_VOICED_B, K_NOISE, K_VOICED_A
};

static resonator f1, f2;
static int phase;

static void make_frame(int kind, int16_t *in)
{
    int k;
    for (k = 0; k < FRAME; k++) {
        int32_t x = 0, v;
        switch (kind) {
        case K_VOICED_A:
        case K_VOICED_B:
            x = (phase == 0) ? 2400 : 0;
            phase = (phase + 1) % ((kind == K_VOICED_A) ? 57 : 41);
            f1.c = (kind == K_VOICED_B) ? 24500 : 27262;
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
        in[k] = to_input(v);
    }
}

static void reset_resonators(void)
{
    resonator a = { 0, 0, 27262, 30832 };   /* ~700 Hz  */
    resonator b = { 0, 0, 18298, 29573 };   /* ~1200 Hz */
    f1 = a;
    f2 = b;
    phase = 0;
}

/* the seeded inputs' generator (splitmix64) */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int32_t rng_range(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(rng_next() % (uint64_t)((int64_t)hi - lo + 1));
}

/* ------------------------------------------------------------------ */
/* The fixed input                                                     */
/* ------------------------------------------------------------------ */

static int16_t frames[MAX_FRAMES * FRAME];

static void fixed_operators(void)
{
    show_operator(0, 30000, 10000);
    show_operator(1, -30000, 10000);
    show_operator(2, -32768, -32768);
    show_operator(3, 16384, 3);
    show_operator(3, -16384, 3);
    show_operator(4, -32768, 0);
    show_operator(5, 2147483647, 1);
    show_operator(6, -32768, -32768);
    show_operator(7, 1, 0);
    show_operator(7, -1, 0);
    show_operator(7, 0x40000000, 0);
    show_operator(8, 1, 2);
    show_operator(8, 1000, 1000);
    show_operator(8, 10000, 30000);
}

static void run_fixed(void)
{
    int f;
    fixed_operators();
    reset_resonators();
    for (f = 0; f < NFRAMES; f++)
        make_frame(frame_kind[f], frames + f * FRAME);
    show_analysis("speech", frames, NFRAMES);
    memset(frames, 0, sizeof frames);
    show_analysis("silence", frames, 1);
}

/* ------------------------------------------------------------------ */
/* Seeded input                                                        */
/* ------------------------------------------------------------------ */

static void seeded_operators(void)
{
    int op, n;
    for (op = 0; op < 9; op++) {
        for (n = 0; n < 24; n++) {
            int32_t a, b;
            if (op == 5) {
                a = (int32_t)(uint32_t)rng_next();
                b = n < 4 ? (n & 1 ? INT32_MIN : INT32_MAX) : (int32_t)(uint32_t)rng_next();
            } else if (op == 7) {
                a = (int32_t)(uint32_t)rng_next();
                a >>= rng_range(0, 31);
                if (a == 0)
                    a = n & 1 ? -1 : 1;
                b = 0;
            } else if (op == 8) {
                b = rng_range(1, 32767);
                a = n < 2 ? (n ? b : 0) : rng_range(0, b);
            } else {
                a = n < 3 ? (n == 0 ? -32768 : (n == 1 ? 32767 : 0)) : rng_range(-32768, 32767);
                b = n < 6 && n >= 3 ? (n == 3 ? -32768 : (n == 4 ? 32767 : -1)) : rng_range(-32768, 32767);
            }
            show_operator(op, a, b);
        }
    }
    /* op codes outside the table of clause 5.1 */
    for (n = 0; n < 3; n++) {
        op = n == 0 ? 9 : (n == 1 ? -1 : 1000 + rng_range(0, 1000));
        printf("unknown_op %d %ld\n", op, (long)gsm_operator(op, rng_range(-32768, 32767), 1));
    }
}

/* pattern: 0 voiced with random pitch and formants, 1 silence, 2 full-scale
 * square, 3 constant level, 4 white noise, 5 impulses, 6 frames of mixed
 * kinds, 7 very quiet noise and tones */
static void seeded_frame(int pattern, int16_t *in)
{
    int k, period = rng_range(2, 120), level = rng_range(-32768, 32767);
    switch (pattern) {
    case 0:
        f1.c = rng_range(12000, 31000);
        f2.c = rng_range(8000, 30000);
        f1.r2 = rng_range(20000, 31500);
        f2.r2 = rng_range(20000, 31500);
        for (k = 0; k < FRAME; k++) {
            int32_t x = (phase == 0) ? rng_range(500, 4000) : 0;
            phase = (phase + 1) % period;
            in[k] = to_input(resonate(&f2, resonate(&f1, x)) >> 2);
        }
        break;
    case 1:
        memset(in, 0, FRAME * sizeof in[0]);
        break;
    case 2:
        for (k = 0; k < FRAME; k++)
            in[k] = to_input((k / (period % 16 + 1)) & 1 ? 32767 : -32768);
        break;
    case 3:
        for (k = 0; k < FRAME; k++)
            in[k] = to_input(level);
        break;
    case 4:
        for (k = 0; k < FRAME; k++)
            in[k] = to_input(rng_range(-32768, 32767));
        break;
    case 5:
        for (k = 0; k < FRAME; k++)
            in[k] = to_input(k % period == 0 ? level : 0);
        break;
    case 6:
        make_frame((int)rng_range(0, K_KINDS - 1), in);
        break;
    default:
        for (k = 0; k < FRAME; k++)
            in[k] = to_input(rng_range(-64, 64) + ((k % period) < period / 2 ? 16 : -16));
        break;
    }
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8), nframes, f;
    rng_state = seed;
    lcg_state = (uint32_t)rng_next();
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    seeded_operators();
    reset_resonators();
    nframes = (int)rng_range(1, MAX_FRAMES);
    printf("frames %d\n", nframes);
    for (f = 0; f < nframes; f++)
        seeded_frame(pattern, frames + f * FRAME);
    show_analysis("speech", frames, nframes);
    show_analysis("no_frames", frames, 0);
}

/* Seeds whose inputs reach rare arithmetic boundaries, found by search; every sixteenth seed
 * replays them too.  598: frame 6's LAR[4] sits where 13964 * LAR and 13965 * LAR quantise apart. */
static const uint64_t boundary_seeds[] = { 598 };

int main(int argc, char **argv)
{
    unsigned long long seed = 0;
    char *end = NULL;
    int f;

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
    if (seed == 0) {
        run_fixed();
    } else {
        run_seeded((uint64_t)seed);
        if (seed % 16 == 0)
            for (f = 0; f < (int)(sizeof boundary_seeds / sizeof boundary_seeds[0]); f++)
                run_seeded(boundary_seeds[f]);
    }
    return 0;
}
