/*
 * adpcm_test.c -- test driver for adpcm.c.
 *
 * The driver belongs to the harness: it makes the test signals, runs the
 * coders and prints every code, sample, state value and SNR they produce.
 * It judges nothing itself; the harness compares the printed output with
 * that of the known-good design.
 *
 *   ./prog            the fixed signals: a synthetic 8 kHz signal (tones,
 *                     chirp, noise, a silent gap, a clipped burst) through
 *                     the IMA stream coder, the nibble packer, WAVE blocks
 *                     (mono and stereo); a 16 kHz signal through the
 *                     sub-band coder in all three decoder modes; decoder
 *                     stress with every code pattern and random codes
 *   ./prog --seed N   signals, states and code streams generated from N
 *                     (N >= 1), with N % 8 choosing the pattern: realistic
 *                     signals, silence, full-scale squares, constant
 *                     levels at the extremes, white noise, ramps and
 *                     impulses, short odd lengths, random code bytes;
 *                     then, for every N, the edges: streams of 0 to 3
 *                     samples ((N - 1) % 4) from extreme coder states,
 *                     WAVE blocks of the header only and of the largest
 *                     size in one channel or two, and the SNR measure
 *                     over empty, one-sample, whole and delayed ranges
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the design's interface (adpcm.c) */
void adpcm_ima_encode(int *predictor, int *index, const int16_t *pcm, uint8_t *codes,
                      int16_t *track, int n);
void adpcm_ima_decode(int *predictor, int *index, const uint8_t *codes, int16_t *pcm, int n);
void adpcm_pack(const uint8_t *codes, uint8_t *bytes, int n);
void adpcm_unpack(const uint8_t *bytes, uint8_t *codes, int n);
int adpcm_wav_samples_per_block(int block_align, int channels);
void adpcm_wav_encode(int *index, const int16_t *pcm, int channels, int block_align,
                      uint8_t *block);
void adpcm_wav_decode(const uint8_t *block, int channels, int block_align, int16_t *pcm);
void adpcm_g722_reset(void);
void adpcm_g722_encode(const int16_t *in, uint8_t *out, int n);
void adpcm_g722_decode(const uint8_t *in, int16_t *out, int n, int mode);
void adpcm_g722_state(int which, int *vals);
double adpcm_snr_db(const int16_t *ref, const int16_t *test, int from, int to, int delay);

#define IMA_SAMPLES      4096       /* 8 kHz test signal for IMA ADPCM */
#define G722_SAMPLES     2048       /* 16 kHz test signal for the sub-band codec */
#define WAV_BLOCK_MONO   256        /* nBlockAlign for one channel */
#define WAV_BLOCK_STEREO 512        /* nBlockAlign for two channels */
#define G722_DELAY       22         /* QMF analysis + synthesis delay in samples */
#define G722_STATE       50         /* values reported by adpcm_g722_state */
#define MAX_SAMPLES      8192       /* interleaved stereo samples */

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* codes (one hex digit each) or bytes (two hex digits each) */
static void put_hex(const char *label, const uint8_t *p, int n, int digits)
{
    int i, per_row = digits == 1 ? 64 : 32;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % per_row == 0)
            printf("\n ");
        printf(digits == 1 ? "%x" : "%02x", p[i] & (digits == 1 ? 0x0f : 0xff));
    }
    printf("\n");
}

static void put_samples(const char *label, const int16_t *s, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 16 == 0)
            printf("\n");
        printf(" %d", s[i]);
    }
    printf("\n");
}

static void put_g722_state(const char *label, int which)
{
    int vals[G722_STATE], i;
    adpcm_g722_state(which, vals);
    printf("%s", label);
    for (i = 0; i < G722_STATE; i++)
        printf(" %d", vals[i]);
    printf("\n");
}

static void put_snr(const char *label, const int16_t *ref, const int16_t *test, int from,
                    int to, int delay)
{
    printf("%s %.6f\n", label, adpcm_snr_db(ref, test, from, to, delay));
}

/* ------------------------------------------------------------------ */
/* Signals                                                             */
/* ------------------------------------------------------------------ */

static int clamp16(int v)
{
    return v < -32768 ? -32768 : (v > 32767 ? 32767 : v);
}

/* sine of a 16-bit phase (65536 = one period), scaled by 32767, from the
 * rational approximation 16x(pi-x) / (5pi^2 - 4x(pi-x)) */
static int isin(uint32_t phase)
{
    int64_t x = phase & 0x7fff;
    int64_t u = x * (32768 - x);
    int64_t num = 16 * u * 32767;
    int64_t den = 5LL * 32768 * 32768 - 4 * u;
    int v = (int)(num / den);
    return (phase & 0x8000) ? -v : v;
}

static uint32_t lcg_state;

static int lcg_noise(int amplitude)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (int)((lcg_state >> 16) % (uint32_t)(2 * amplitude + 1)) - amplitude;
}

/* tones + chirp + noise; a silent gap and a clipped square burst */
static void make_signal(int16_t *out, int n, uint32_t f1, uint32_t f2, uint32_t seed)
{
    uint32_t ph1 = 0, ph2 = 0, ph3 = 0, f3 = 300;
    int i, v, env;

    lcg_state = seed;
    for (i = 0; i < n; i++) {
        env = (i < 256) ? i * 32 : 8192;
        v = (isin(ph1 >> 16) * env) >> 14;
        v += (isin(ph2 >> 16) * 5000) >> 15;
        v += (isin(ph3) * 3000) >> 15;
        v += lcg_noise(200);
        if (i >= n / 2 && i < n / 2 + n / 16)
            v = 0;
        if (i >= (3 * n) / 4 && i < (3 * n) / 4 + n / 32)
            v = ((i >> 3) & 1) ? 32767 : -32768;
        out[i] = (int16_t)clamp16(v);
        ph1 += f1;
        ph2 += f2;
        ph3 += f3;
        f3 += 3;
    }
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

static int rng_below(int n)
{
    return (int)(rng_next() % (uint64_t)n);
}

static int16_t rng_sample(void)
{
    return (int16_t)(rng_below(65536) - 32768);
}

/* ------------------------------------------------------------------ */
/* Coding runs shared by both input sets                               */
/* ------------------------------------------------------------------ */

static int16_t sig[MAX_SAMPLES], sig_right[MAX_SAMPLES], stereo[MAX_SAMPLES];
static int16_t track[MAX_SAMPLES], decoded[MAX_SAMPLES];
static uint8_t codes[MAX_SAMPLES], unpacked[MAX_SAMPLES], packed[MAX_SAMPLES / 2 + 1];
static uint8_t blocks[2 * MAX_SAMPLES];

/* encoder from (pred, index), packer round trip, decoder from the same state */
static void ima_stream(const char *name, const int16_t *pcm, int n, int pred, int index)
{
    int ep = pred, ei = index, dp = pred, di = index;
    char label[64];

    adpcm_ima_encode(&ep, &ei, pcm, codes, track, n);
    sprintf(label, "%s.codes", name);
    put_hex(label, codes, n, 1);
    sprintf(label, "%s.track", name);
    put_samples(label, track, n);
    printf("%s.encoder_state %d %d\n", name, ep, ei);

    adpcm_pack(codes, packed, n);
    sprintf(label, "%s.packed", name);
    put_hex(label, packed, (n + 1) / 2, 2);
    adpcm_unpack(packed, unpacked, n);
    sprintf(label, "%s.unpacked", name);
    put_hex(label, unpacked, n, 1);

    adpcm_ima_decode(&dp, &di, unpacked, decoded, n);
    sprintf(label, "%s.decoded", name);
    put_samples(label, decoded, n);
    printf("%s.decoder_state %d %d\n", name, dp, di);
    if (n > 256) {
        sprintf(label, "%s.snr", name);
        put_snr(label, pcm, decoded, 256, n, 0);
    }
}

/* raw codes (any byte value) straight into the decoder */
static void ima_decoder_only(const char *name, const uint8_t *in, int n, int pred, int index)
{
    char label[64];
    adpcm_ima_decode(&pred, &index, in, decoded, n);
    sprintf(label, "%s.decoded", name);
    put_samples(label, decoded, n);
    printf("%s.decoder_state %d %d\n", name, pred, index);
}

/* nblocks WAVE blocks of interleaved pcm, encoded then decoded */
static void wav_blocks(const char *name, const int16_t *pcm, int channels, int block_align,
                       int nblocks, int first_index)
{
    int spb = adpcm_wav_samples_per_block(block_align, channels);
    int index[2] = { first_index, first_index };
    int b;
    char label[64];

    printf("%s.samples_per_block %d\n", name, spb);
    for (b = 0; b < nblocks; b++)
        adpcm_wav_encode(index, pcm + b * spb * channels, channels, block_align,
                         blocks + b * block_align);
    printf("%s.final_index %d %d\n", name, index[0], channels > 1 ? index[1] : -1);
    sprintf(label, "%s.blocks", name);
    put_hex(label, blocks, nblocks * block_align, 2);
    for (b = 0; b < nblocks; b++)
        adpcm_wav_decode(blocks + b * block_align, channels, block_align,
                         decoded + b * spb * channels);
    sprintf(label, "%s.decoded", name);
    put_samples(label, decoded, nblocks * spb * channels);
}

/* sub-band coding of n samples in chunks of `chunk`, decoded in all modes */
static void g722_run(const char *name, const int16_t *pcm, int n, int chunk)
{
    int mode, done;
    char label[64];

    adpcm_g722_reset();
    for (done = 0; done < n; done += chunk)
        adpcm_g722_encode(pcm + done, codes + done / 2, n - done < chunk ? n - done : chunk);
    sprintf(label, "%s.codes", name);
    put_hex(label, codes, n / 2, 2);
    sprintf(label, "%s.encoder_state", name);
    put_g722_state(label, 0);
    for (mode = 1; mode <= 3; mode++) {
        memset(decoded, 0, sizeof decoded);
        adpcm_g722_reset();
        for (done = 0; done < n; done += chunk)
            adpcm_g722_decode(codes + done / 2, decoded + done, n - done < chunk ? n - done : chunk,
                              mode);
        sprintf(label, "%s.mode%d.decoded", name, mode);
        put_samples(label, decoded, n);
        sprintf(label, "%s.mode%d.decoder_state", name, mode);
        put_g722_state(label, 1);
        if (n > 256 + G722_DELAY) {
            sprintf(label, "%s.mode%d.snr", name, mode);
            put_snr(label, pcm, decoded, 256, n, G722_DELAY);
        }
    }
}

static void g722_decoder_only(const char *name, const uint8_t *in, int n, int mode)
{
    char label[64];
    memset(decoded, 0, sizeof decoded);
    adpcm_g722_reset();
    adpcm_g722_decode(in, decoded, n, mode);
    sprintf(label, "%s.decoded", name);
    put_samples(label, decoded, n);
    sprintf(label, "%s.decoder_state", name);
    put_g722_state(label, 1);
}

/* ------------------------------------------------------------------ */
/* The fixed signals                                                   */
/* ------------------------------------------------------------------ */

/* impulse levels at which the >> 14 of the QMF band split decides a code
 * (for 21844 the first sum is 3 * (21844 >> 2) = 2^14 - 1), found by
 * sweeping every level, and the two extremes */
static const int16_t g722_impulse_levels[] = { 21844, 11916, -18548, 32767, -32768 };
#define G722_IMPULSES ((int)(sizeof g722_impulse_levels / sizeof g722_impulse_levels[0]))
#define G722_IMPULSE_LEN 64

static void run_fixed(void)
{
    int spb = adpcm_wav_samples_per_block(WAV_BLOCK_MONO, 1);
    int nblocks = IMA_SAMPLES / spb, i;

    make_signal(sig, IMA_SAMPLES, 0x03000000u, 0x0b500000u, 12345u);
    ima_stream("ima", sig, IMA_SAMPLES, 0, 0);

    /* every code value, and long runs that drive the index to its limits */
    for (i = 0; i < IMA_SAMPLES; i++) {
        if (i < 512)
            unpacked[i] = (uint8_t)(i & 15);
        else if (i < 1024)
            unpacked[i] = 7;
        else if (i < 1536)
            unpacked[i] = 15;
        else if (i < 2048)
            unpacked[i] = (uint8_t)((i & 1) ? 0 : 8);
        else
            unpacked[i] = (uint8_t)((i * 7 + (i >> 5)) & 15);
    }
    ima_decoder_only("ima_stress", unpacked, IMA_SAMPLES, 0, 0);

    wav_blocks("wav_mono", sig, 1, WAV_BLOCK_MONO, nblocks, 0);
    put_snr("wav_mono.snr", sig, decoded, 256, IMA_SAMPLES / 2, 0);
    make_signal(sig_right, IMA_SAMPLES, 0x05100000u, 0x01900000u, 777u);
    for (i = 0; i < IMA_SAMPLES; i++) {
        stereo[2 * i] = sig[i];
        stereo[2 * i + 1] = sig_right[i];
    }
    wav_blocks("wav_stereo", stereo, 2, WAV_BLOCK_STEREO, nblocks, 0);

    make_signal(sig, G722_SAMPLES, 0x01c00000u, 0x09000000u, 4242u);
    g722_run("g722", sig, G722_SAMPLES, G722_SAMPLES);

    lcg_state = 99u;
    for (i = 0; i < G722_SAMPLES / 2; i++)
        codes[i] = (uint8_t)(lcg_noise(128) & 0xff);
    g722_decoder_only("g722_stress", codes, G722_SAMPLES, 1);

    /* single impulses after reset, on an even and an odd sample */
    for (i = 0; i < G722_IMPULSES; i++) {
        char label[32];
        memset(sig, 0, G722_IMPULSE_LEN * sizeof sig[0]);
        sig[i & 1] = g722_impulse_levels[i];
        sprintf(label, "g722_impulse%d", i);
        g722_run(label, sig, G722_IMPULSE_LEN, G722_IMPULSE_LEN);
    }
}

/* ------------------------------------------------------------------ */
/* Seeded signals                                                      */
/* ------------------------------------------------------------------ */

/* pattern: 0 realistic, 1 silence, 2 full-scale square, 3 constant
 * extreme or random level, 4 white noise, 5 ramps and impulses,
 * 6 realistic but short and odd, 7 realistic (the decoders also get
 * random code bytes in every pattern) */
static void make_pattern(int pattern, int16_t *out, int n)
{
    int i, level = rng_below(3) == 0 ? 32767 : (rng_below(2) ? -32768 : rng_sample());
    int period = 1 + rng_below(64);
    uint32_t f1, f2;
    switch (pattern) {
    case 1:
        memset(out, 0, (size_t)n * sizeof out[0]);
        break;
    case 2:
        for (i = 0; i < n; i++)
            out[i] = (int16_t)(((i / period) & 1) ? 32767 : -32768);
        break;
    case 3:
        for (i = 0; i < n; i++)
            out[i] = (int16_t)level;
        break;
    case 4:
        for (i = 0; i < n; i++)
            out[i] = rng_sample();
        break;
    case 5:
        for (i = 0; i < n; i++)
            out[i] = (int16_t)clamp16((i % (period * 16)) * 64 - 16384);
        for (i = 0; i < n; i += period * 8)
            out[i] = (int16_t)(rng_below(2) ? 32767 : -32768);
        break;
    default:
        f1 = (uint32_t)rng_next() & 0x0fffffffu;
        f2 = (uint32_t)rng_next() & 0x0fffffffu;
        make_signal(out, n, f1, f2, (uint32_t)rng_next());
        break;
    }
}

static void seeded_ima(int pattern)
{
    int n = pattern == 6 ? 1 + 2 * rng_below(40) : 256 + rng_below(IMA_SAMPLES - 256);
    int pred = pattern == 1 ? 0 : rng_sample(), index = rng_below(89), i;

    printf("ima.length %d\n", n);
    make_pattern(pattern, sig, n);
    ima_stream("ima", sig, n, pred, index);
    put_snr("ima.snr_whole", sig, decoded, 0, n, 0);
    put_snr("ima.snr_delayed", sig, decoded, 1, n, 1);
    for (i = 0; i < n; i++)
        unpacked[i] = (uint8_t)rng_next();
    ima_decoder_only("ima_random_codes", unpacked, n, pred, index);
}

static void seeded_wav(int pattern)
{
    int channels = 1 + rng_below(2);
    int groups = 1 + rng_below(pattern == 6 ? 2 : 64);
    int block_align = 4 * channels * (groups + 1);
    int spb = adpcm_wav_samples_per_block(block_align, channels);
    int nblocks = 1 + rng_below(MAX_SAMPLES / (spb * channels) < 8 ? MAX_SAMPLES / (spb * channels) : 8);
    int i;

    printf("wav.layout %d %d %d\n", channels, block_align, nblocks);
    make_pattern(pattern, stereo, nblocks * spb * channels);
    wav_blocks("wav", stereo, channels, block_align, nblocks, rng_below(89));
    for (i = 0; i < nblocks * block_align; i++)
        blocks[i] = (uint8_t)rng_next();
    for (i = 0; i < nblocks; i++)
        adpcm_wav_decode(blocks + i * block_align, channels, block_align,
                         decoded + i * spb * channels);
    put_samples("wav_random_blocks.decoded", decoded, nblocks * spb * channels);
}

static void seeded_g722(int pattern)
{
    int n = pattern == 6 ? 1 + 2 * rng_below(40) : 2 * (128 + rng_below(G722_SAMPLES));
    int chunk = rng_below(2) ? n : 2 * (1 + rng_below(200));
    int i;

    printf("g722.length %d chunk %d\n", n, chunk);
    make_pattern(pattern, sig, n);
    g722_run("g722", sig, n, chunk);
    for (i = 0; i < n / 2; i++)
        codes[i] = (uint8_t)rng_next();
    g722_decoder_only("g722_random_codes", codes, n, 1 + rng_below(3));
}

/* the smallest and largest inputs of the interface, after the pattern's
 * own: seeds 1, 2, 3, 4 (and every fourth after) give streams of 0, 1, 2
 * and 3 samples; the WAVE part alternates one and two channels every four
 * seeds */
static void seeded_edges(uint64_t seed, int pattern)
{
    static const int preds[4] = { 0, 32767, -32768, -1 };
    static const int indexes[4] = { 0, 88, 44, -1 };
    int n = (int)((seed - 1) % 4);
    int channels = 1 + (int)((seed - 1) / 4 % 2);
    int pred = preds[rng_below(4)], index = indexes[rng_below(4)];
    int largest = 4 * channels * (1 + (MAX_SAMPLES / channels - 1) / 8);
    int i;

    if (pred < 0)
        pred = rng_sample();
    if (index < 0)
        index = rng_below(89);
    printf("edges.length %d\n", n);
    make_pattern(pattern, sig, n);
    ima_stream("edges.ima", sig, n, pred, index);
    put_snr("edges.snr_empty", sig, decoded, 0, 0, 0);
    put_snr("edges.snr_whole", sig, decoded, 0, n, 0);
    put_snr("edges.snr_delayed", sig, decoded, 1, n, 1);
    for (i = 0; i < n; i++)
        unpacked[i] = (uint8_t)rng_next();
    ima_decoder_only("edges.ima_random_codes", unpacked, n, pred, index);

    g722_run("edges.g722", sig, n, 2);
    for (i = 0; i < (n + 1) / 2; i++)
        codes[i] = (uint8_t)rng_next();
    g722_decoder_only("edges.g722_random_codes", codes, n, 1 + rng_below(3));

    /* blocks of the header only (one sample per channel), then one block
     * as large as the sample buffer allows */
    printf("edges.wav.layout %d %d 3\n", channels, 4 * channels);
    make_pattern(pattern, stereo, 3 * channels);
    wav_blocks("edges.wav_header_only", stereo, channels, 4 * channels, 3, rng_below(89));
    printf("edges.wav.layout %d %d 1\n", channels, largest);
    make_pattern(pattern, stereo, adpcm_wav_samples_per_block(largest, channels) * channels);
    wav_blocks("edges.wav_largest", stereo, channels, largest, 1, index);
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8);
    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    seeded_ima(pattern);
    seeded_wav(pattern);
    seeded_g722(pattern);
    seeded_edges(seed, pattern);
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
