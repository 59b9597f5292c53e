/*
 * ofdm_test.c -- test driver for the OFDM modem (fft.c, qam.c, bits.c,
 * channel.c, tx.c, rx.c).
 *
 * The driver belongs to the harness: it feeds the inputs and prints every
 * result the design computes (twiddles, transforms and saturation counts,
 * constellation points and decisions, scrambler and interleaver outputs,
 * CRCs, channel samples, transmitted frames, timing, channel estimates,
 * equalised values, header fields, recovered payloads, error counts), as
 * labelled decimal or hex tokens.  It judges nothing itself; the harness
 * compares the printed output with that of the known-good design.
 *
 *   ./prog            the fixed vectors: every FFT size on impulses, tones,
 *                     full-scale and pseudo-random inputs under several
 *                     scaling schedules, every constellation point, the
 *                     scrambler, pilot and interleaver sequences, the CRC
 *                     check value, and frames of every modulation through
 *                     ideal, delayed, multipath and noisy channels
 *   ./prog --seed N   inputs generated from N (N >= 1) by splitmix64: random
 *                     modulations, payload lengths from 0 to the maximum,
 *                     seeds, scaling schedules, channels (taps, delay,
 *                     noise), FFT sizes and inputs, with degenerate payloads
 *                     and signals chosen by N % 8; then, for every N, the
 *                     receiver's edges: captures of 0 and 1 samples,
 *                     search windows of 0 and 1, scaling masks 0 and 1 on
 *                     either side, payloads of 0 and 1 bytes
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ofdm.h"

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void put_bytes(const char *label, const uint8_t *p, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 32 == 0)
            printf("\n ");
        printf("%02x", p[i]);
    }
    printf("\n");
}

/* one bit per character */
static void put_bits(const char *label, const uint8_t *b, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 64 == 0)
            printf("\n ");
        printf("%d", b[i]);
    }
    printf("\n");
}

static void put_cplx(const char *label, const cplx16 *x, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 8 == 0)
            printf("\n");
        printf(" %d,%d", x[i].re, x[i].im);
    }
    printf("\n");
}

static void put_cplx32(const char *label, const cplx32 *x, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 8 == 0)
            printf("\n");
        printf(" %ld,%ld", (long)x[i].re, (long)x[i].im);
    }
    printf("\n");
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

/* the fixed vectors' pseudo-random values (linear congruential generator) */
static uint32_t lcg_state;

static uint32_t lcg_next(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return lcg_state >> 8;
}

static int lcg_range(int lo, int hi)
{
    return lo + (int)(lcg_next() % (uint32_t)(hi - lo + 1));
}

/* the real part is drawn first */
static cplx16 lcg_cplx(int lo, int hi)
{
    cplx16 x;
    x.re = (int16_t)lcg_range(lo, hi);
    x.im = (int16_t)lcg_range(lo, hi);
    return x;
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

static int rng_range(int lo, int hi)
{
    return lo + rng_below(hi - lo + 1);
}

/* ------------------------------------------------------------------ */
/* Checks shared by both input sets                                    */
/* ------------------------------------------------------------------ */

static cplx16 c16(int re, int im)
{
    cplx16 x;
    x.re = (int16_t)re;
    x.im = (int16_t)im;
    return x;
}

/* forward, inverse and forward-then-inverse of one input */
static void show_fft(const char *name, const cplx16 *in, int log2n, unsigned fwd_mask, unsigned inv_mask)
{
    static cplx16 x[FFT_MAX];
    char label[96];
    int n = 1 << log2n, rc;

    memcpy(x, in, sizeof(cplx16) * (size_t)n);
    rc = fft_run(x, log2n, 0, fwd_mask);
    sprintf(label, "%s.fft%d.mask%x sat %d", name, n, fwd_mask, rc);
    put_cplx(label, x, n);
    rc = fft_run(x, log2n, 1, inv_mask);
    sprintf(label, "%s.roundtrip.mask%x sat %d", name, inv_mask, rc);
    put_cplx(label, x, n);
    memcpy(x, in, sizeof(cplx16) * (size_t)n);
    rc = fft_run(x, log2n, 1, fwd_mask);
    sprintf(label, "%s.ifft%d.mask%x sat %d", name, n, fwd_mask, rc);
    put_cplx(label, x, n);
}

/* every decision of one received value */
static void show_demap(const char *name, int mod, cplx16 x)
{
    uint8_t bits[8];
    int i, nb = qam_bits(mod);
    memset(bits, 9, sizeof bits);
    qam_demap(mod, x, bits);
    printf("%s.demap %d,%d ->", name, x.re, x.im);
    for (i = 0; i < (nb ? nb : 2); i++)
        printf(" %d", bits[i]);
    printf(" err %lld\n", (long long)qam_error(mod, x));
}

static void show_constellation(const char *name, int mod)
{
    uint8_t bits[8];
    cplx16 p;
    char label[64];
    int nb = qam_bits(mod), v, i;

    printf("%s.mod %d bits %d levels %d unit %d\n", name, mod, nb, qam_levels(mod), qam_unit(mod));
    for (v = 0; v < (1 << nb); v++) {
        for (i = 0; i < nb; i++)
            bits[i] = (uint8_t)((v >> (nb - 1 - i)) & 1);
        p = qam_map(mod, bits);
        printf("%s.point %d %d,%d\n", name, v, p.re, p.im);
        sprintf(label, "%s.pt%d", name, v);
        show_demap(label, mod, p);
        sprintf(label, "%s.pt%d+", name, v);
        show_demap(label, mod, c16(p.re + qam_unit(mod) - 1, p.im - qam_unit(mod) + 1));
        sprintf(label, "%s.pt%d++", name, v);
        show_demap(label, mod, c16(p.re + qam_unit(mod), p.im - qam_unit(mod)));
    }
}

static void show_interleaver(const char *name, int mod, const uint8_t *in)
{
    int perm[NDATA * 6];
    uint8_t out[NDATA * 6], back[NDATA * 6];
    char label[64];
    int n = NDATA * qam_bits(mod), k;

    interleave_table(mod, perm);
    printf("%s.perm %d", name, n);
    for (k = 0; k < n; k++)
        printf("%s%d", k % 24 ? " " : "\n ", perm[k]);
    printf("\n");
    interleave(mod, in, out);
    sprintf(label, "%s.interleaved", name);
    put_bits(label, out, n);
    deinterleave(mod, in, back);
    sprintf(label, "%s.deinterleaved", name);
    put_bits(label, back, n);
}

static void show_channel(const char *name, const channel_cfg *cfg, const cplx16 *in, int n)
{
    static cplx16 out[MAX_RX];
    char label[96];
    int total = channel_apply(cfg, in, n, out);
    sprintf(label, "%s.channel rc %d", name, total);
    if (total < 0) {
        printf("%s\n", label);
        return;
    }
    put_cplx(label, out, total);
}

static void show_rx_info(const char *name, int rc, const rx_info *info, const uint8_t *payload,
                         const uint8_t *sent, int length)
{
    char label[96];

    printf("%s.rx rc %d start %d peak %lld\n", name, rc, info->start, (long long)info->peak);
    printf("%s.fields seed %d service_ok %d crc_rx %04x crc_calc %04x evm %lld sat %d nsym %d\n", name,
           info->seed, info->service_ok, info->crc_rx, info->crc_calc, (long long)info->evm, info->saturations,
           info->nsym);
    if (info->start < 0)
        return;
    sprintf(label, "%s.h", name);
    put_cplx32(label, info->h, NFFT);
    printf("%s.header mod %d length %d nsym %d\n", name, info->header_mod, info->header_length, info->nsym);
    sprintf(label, "%s.phase", name);
    put_cplx32(label, info->phase, rc == OFDM_ERR_HEADER ? 1 : info->nsym + 1);
    if (rc >= 0 || rc == OFDM_ERR_CRC) {
        printf("%s.seed %d service_ok %d crc_rx %04x crc_calc %04x evm %lld sat %d\n", name, info->seed,
               info->service_ok, info->crc_rx, info->crc_calc, (long long)info->evm, info->saturations);
        sprintf(label, "%s.payload", name);
        put_bytes(label, payload, info->header_length);
        if (sent != NULL && info->header_length == length)
            printf("%s.bit_errors %d\n", name, count_bit_errors(sent, payload, length));
    }
}

/* one frame: transmit, pass the channel, receive */
static void show_link(const char *name, const uint8_t *payload, int length, int mod, int seed,
                      unsigned tx_scale, unsigned rx_scale, const channel_cfg *cfg, int search, int show_samples)
{
    static cplx16 frame[MAX_FRAME], rxs[MAX_RX];
    static uint8_t got[MAX_PAYLOAD + 8];
    tx_info ti;
    rx_info ri;
    char label[96];
    int n, total, rc;

    n = ofdm_tx(payload, length, mod, (uint8_t)seed, tx_scale, frame, &ti);
    printf("%s.tx rc %d\n", name, n);
    if (n < 0)
        return;
    printf("%s.tx mod %d length %d nsym %d nbits %d crc %04x sat %d samples %d\n", name, ti.mod, ti.length,
           ti.nsym, ti.nbits, ti.crc, ti.saturations, ti.nsamples);
    if (show_samples) {
        sprintf(label, "%s.frame", name);
        put_cplx(label, frame, n);
    }
    total = channel_apply(cfg, frame, n, rxs);
    printf("%s.channel rc %d\n", name, total);
    if (total < 0)
        return;
    if (show_samples == 2) {
        sprintf(label, "%s.received", name);
        put_cplx(label, rxs, total);
    }
    memset(got, 0xee, sizeof got);
    memset(&ri, 0x5a, sizeof ri);
    rc = ofdm_rx(rxs, total, search, tx_scale, rx_scale, got, &ri);
    show_rx_info(name, rc, &ri, got, payload, length);
}

static void ideal_channel(channel_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->ntaps = 1;
    cfg->taps[0] = c16(16384, 0);
}

/* ------------------------------------------------------------------ */
/* The fixed vectors                                                   */
/* ------------------------------------------------------------------ */

static void fixed_fft(void)
{
    static cplx16 in[FFT_MAX];
    char name[64];
    int k, log2n, n;

    fft_init();
    printf("twiddle");
    for (k = -3; k < FFT_MAX + 3; k++)
        printf("%s%d,%d", (k + 3) % 8 ? " " : "\n ", fft_cos(k), fft_sin(k));
    printf("\n");
    for (log2n = 1; log2n <= FFT_MAX_LOG2; log2n++) {
        printf("reverse%d", log2n);
        for (k = 0; k < (1 << log2n); k += 1 + (k >> 4))
            printf(" %u", fft_reverse_bits((unsigned)k, log2n));
        printf("\n");
    }
    printf("sat16 %d %d %d %d %d\n", fft_sat16(32768), fft_sat16(-32769), fft_sat16(32767), fft_sat16(-32768),
           fft_sat16(-5));
    {
        cplx32 t = fft_cmul_q15(c16(-32768, -32768), -32767, 32767);
        printf("cmul %ld,%ld", (long)t.re, (long)t.im);
        t = fft_cmul_q15(c16(12345, -23456), 23170, -23170);
        printf(" %ld,%ld", (long)t.re, (long)t.im);
        t = fft_cmul_q15(c16(1, -1), 16384, 16384);
        printf(" %ld,%ld\n", (long)t.re, (long)t.im);
    }
    memset(in, 0, sizeof in);
    printf("fft_bad_size %d %d %d\n", fft_run(in, 0, 0, 0), fft_run(in, FFT_MAX_LOG2 + 1, 0, 0),
           fft_run(in, -1, 1, 0));

    lcg_state = 0xf00du;
    for (log2n = 1; log2n <= FFT_MAX_LOG2; log2n++) {
        n = 1 << log2n;
        /* impulse at 0 and at 1 */
        memset(in, 0, sizeof in);
        in[0] = c16(20000, -7000);
        sprintf(name, "impulse0");
        show_fft(name, in, log2n, 0u, (1u << log2n) - 1);
        memset(in, 0, sizeof in);
        in[1] = c16(-16384, 9999);
        sprintf(name, "impulse1");
        show_fft(name, in, log2n, 0xffu, 0u);
        /* constant: everything lands in bin 0, saturating without scaling */
        for (k = 0; k < n; k++)
            in[k] = c16(3000, -1500);
        sprintf(name, "dc");
        show_fft(name, in, log2n, 0u, 0xffu);
        show_fft(name, in, log2n, 0x55u, 0xaau);
        /* full scale alternating */
        for (k = 0; k < n; k++)
            in[k] = c16(k & 1 ? -32768 : 32767, k & 2 ? 32767 : -32768);
        sprintf(name, "fullscale");
        show_fft(name, in, log2n, 0xffu, 0xffu);
        show_fft(name, in, log2n, 0x0u, 0x3u);
        /* pseudo-random */
        for (k = 0; k < n; k++)
            in[k] = lcg_cplx(-12000, 12000);
        sprintf(name, "random");
        show_fft(name, in, log2n, 0xffu, 0u);
        show_fft(name, in, log2n, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT);
    }
}

static void fixed_qam(void)
{
    char name[64];
    int mod, v;

    for (v = 0; v < 256; v += 1)
        printf("%s%u/%u", v % 16 ? " " : (v ? "\ngray " : "gray "), qam_gray((unsigned)v),
               qam_ungray((unsigned)v));
    printf("\n");
    printf("ungray_wide %u %u\n", qam_ungray(0x1ffu), qam_ungray(0xabcdu));
    for (mod = -1; mod <= 4; mod++) {
        sprintf(name, "qam%d", mod);
        show_constellation(name, mod);
        for (v = 0; v < 8; v++)
            printf("%s.level %d %d\n", name, v, mod >= 0 && mod <= 3 ? qam_axis_level(mod, (unsigned)v) : 0);
        sprintf(name, "qam%d.far", mod);
        show_demap(name, mod, c16(32767, -32768));
        show_demap(name, mod, c16(-32768, 32767));
        show_demap(name, mod, c16(0, 0));
        show_demap(name, mod, c16(-1, 1));
        show_demap(name, mod, c16(5000, -4000));
    }
}

static void fixed_bits(void)
{
    static uint8_t in[MAX_BITS], out[MAX_BITS], back[MAX_BITS];
    uint8_t state, bytes[64], bytes2[64];
    char name[64];
    int i, mod, seed;

    for (seed = 0; seed < 128; seed += 31) {
        state = (uint8_t)seed;
        printf("scrambler%d", seed);
        for (i = 0; i < 140; i++)
            printf("%s%d", i % 70 ? "" : "\n ", scrambler_step(&state));
        printf("\n state %d\n", state);
    }
    state = 0xff;
    printf("scrambler_wide %d", scrambler_step(&state));
    printf(" state %d\n", state);
    printf("polarity");
    for (i = -130; i <= 260; i++)
        printf("%s%d", (i + 130) % 40 ? " " : "\n", pilot_polarity(i));
    printf("\n");
    printf("polarity_extremes %d %d\n", pilot_polarity(2147483647), pilot_polarity(-2147483647 - 1));

    lcg_state = 0xb175u;
    for (i = 0; i < MAX_BITS; i++)
        in[i] = (uint8_t)(lcg_next() & 1u);
    for (i = 0; i < 16; i++)
        in[i] = 0;
    for (seed = 1; seed <= 127; seed += 42) {
        sprintf(name, "scramble%d", seed);
        scramble((uint8_t)seed, in, out, 300);
        put_bits(name, out, 300);
        memset(back, 7, 300);
        printf("%s.recovered %d\n", name, descramble_recover(out, back, 300));
        strcat(name, ".descrambled");
        put_bits(name, back, 300);
    }
    scramble(0x45, in, out, MAX_BITS);
    printf("scramble_long.recovered %d errors %d\n", descramble_recover(out, back, MAX_BITS),
           count_bit_errors_bits(in, back, MAX_BITS));
    /* only bit 0 of each input byte counts */
    for (i = 0; i < 40; i++)
        out[i] = (uint8_t)(lcg_next() | 0x80u);
    memset(back, 7, 40);
    printf("descramble_bytes %d", descramble_recover(out, back, 40));
    put_bits("", back, 40);
    scramble(0xd3, out, back, 40);
    put_bits("scramble_bytes", back, 40);
    memset(back, 7, 8);
    printf("descramble_short %d", descramble_recover(out, back, 5));
    printf(" %d %d %d %d %d %d\n", back[0], back[1], back[2], back[3], back[4], back[5]);

    for (mod = 0; mod < 4; mod++) {
        sprintf(name, "interleaver%d", mod);
        show_interleaver(name, mod, in + 100 * mod);
    }

    printf("crc_check %04x\n", crc16_ccitt((const uint8_t *)"123456789", 9));
    printf("crc_empty %04x\n", crc16_ccitt(bytes, 0));
    for (i = 0; i < 64; i++)
        bytes[i] = (uint8_t)lcg_next();
    printf("crc_random %04x %04x %04x\n", crc16_ccitt(bytes, 1), crc16_ccitt(bytes, 33), crc16_ccitt(bytes, 64));
    bytes_to_bits(bytes, 8, out);
    put_bits("bytes_to_bits", out, 64);
    memset(bytes2, 0, sizeof bytes2);
    bits_to_bytes(in, 40, bytes2);
    put_bytes("bits_to_bytes", bytes2, 40);
    printf("bit_errors %d %d %d %d\n", count_bit_errors(bytes, bytes2, 40), count_bit_errors(bytes, bytes, 64),
           count_bit_errors(bytes, bytes2, 0), count_bit_errors_bits(in, out, 64));
    memset(bytes2, 0xff, 8);
    memset(bytes, 0x00, 8);
    printf("bit_errors_all %d\n", count_bit_errors(bytes, bytes2, 8));
}

static void fixed_channel(void)
{
    static cplx16 sig[300];
    channel_cfg cfg;
    uint32_t st;
    int i, std;

    st = 0;
    printf("rand0");
    for (i = 0; i < 8; i++)
        printf(" %08lx", (unsigned long)chan_rand(&st));
    printf("\n");
    st = 1;
    printf("rand1");
    for (i = 0; i < 8; i++)
        printf(" %08lx", (unsigned long)chan_rand(&st));
    printf("\n");
    for (std = 0; std <= 32767; std = std * 9 + 1) {
        st = 12345u;
        printf("gauss%d", std);
        for (i = 0; i < 12; i++)
            printf(" %ld", (long)chan_gauss(&st, std));
        printf("\n");
    }
    st = 777u;
    printf("gauss_max %ld\n", (long)chan_gauss(&st, 32767));

    lcg_state = 0xc4a1u;
    for (i = 0; i < 300; i++)
        sig[i] = lcg_cplx(-20000, 20000);
    ideal_channel(&cfg);
    show_channel("ch.ideal", &cfg, sig, 40);
    cfg.ntaps = 3;
    cfg.taps[0] = c16(12000, -3000);
    cfg.taps[1] = c16(-5000, 4000);
    cfg.taps[2] = c16(1000, 2000);
    cfg.delay = 5;
    cfg.tail = 3;
    show_channel("ch.multipath", &cfg, sig, 30);
    cfg.noise_std = 300;
    cfg.noise_seed = 99;
    show_channel("ch.noisy", &cfg, sig, 30);
    cfg.ntaps = CH_MAX_TAPS;
    for (i = 0; i < CH_MAX_TAPS; i++)
        cfg.taps[i] = c16(32767 - i, -32768 + i);
    cfg.delay = CH_MAX_DELAY;
    cfg.tail = CH_MAX_TAIL;
    show_channel("ch.extreme", &cfg, sig, 300);
    show_channel("ch.empty", &cfg, sig, 0);
    /* outputs one past each end of the 16-bit range before saturation */
    sig[0] = c16(-32768, 32767);
    sig[1] = c16(32767, -32768);
    sig[2] = c16(-32767, 32766);
    cfg.ntaps = 1;
    cfg.taps[0] = c16(16385, 0);
    cfg.delay = 0;
    cfg.tail = 0;
    cfg.noise_std = 0;
    show_channel("ch.edges", &cfg, sig, 3);
    cfg.taps[0] = c16(16386, 0);
    show_channel("ch.edges2", &cfg, sig, 3);
    cfg.taps[0] = c16(0, 16385);
    show_channel("ch.edges_turned", &cfg, sig, 3);
    cfg.ntaps = CH_MAX_TAPS;
    cfg.ntaps = 0;
    show_channel("ch.bad_taps0", &cfg, sig, 10);
    cfg.ntaps = CH_MAX_TAPS + 1;
    show_channel("ch.bad_taps9", &cfg, sig, 10);
    cfg.ntaps = 2;
    cfg.delay = CH_MAX_DELAY + 1;
    show_channel("ch.bad_delay", &cfg, sig, 10);
    cfg.delay = -1;
    show_channel("ch.bad_delay_neg", &cfg, sig, 10);
    cfg.delay = 0;
    cfg.tail = CH_MAX_TAIL + 1;
    show_channel("ch.bad_tail", &cfg, sig, 10);
    cfg.tail = 0;
    cfg.noise_std = -1;
    show_channel("ch.bad_noise", &cfg, sig, 10);
    cfg.noise_std = 32768;
    show_channel("ch.bad_noise_big", &cfg, sig, 10);
    cfg.noise_std = 0;
    show_channel("ch.bad_length", &cfg, sig, MAX_FRAME + 1);
    show_channel("ch.bad_length_neg", &cfg, sig, -1);
}

static void fixed_tx(void)
{
    static uint8_t payload[MAX_PAYLOAD], bits[MAX_BITS];
    static cplx16 frame[MAX_FRAME];
    cplx16 pts[NDATA], bins[NFFT];
    uint8_t hdr[HEADER_BITS];
    uint16_t crc = 0;
    tx_info ti;
    char name[64];
    int k, mod, len, rc;

    printf("data_bins");
    for (k = -1; k <= NDATA; k++)
        printf(" %d", ofdm_data_bin(k));
    printf(" %d %d", ofdm_data_bin(1000), ofdm_data_bin(-2147483647 - 1));
    printf("\npilot_bins");
    for (k = -1; k <= NPILOT + 1; k++)
        printf(" %d", ofdm_pilot_bin(k));
    printf(" %d %d", ofdm_pilot_bin(1000), ofdm_pilot_bin(-2147483647 - 1));
    printf("\nlts");
    for (k = -1; k <= NFFT + 1; k++)
        printf(" %d", ofdm_lts_value(k));
    printf(" %d %d", ofdm_lts_value(1000), ofdm_lts_value(-1000));
    printf("\n");
    for (mod = -1; mod <= 4; mod++) {
        static const int lens[10] = { -1, 0, 1, 2, 3, 17, 100, 139, 140, 860 };
        printf("nsym%d", mod);
        for (k = 0; k < 10; k++)
            printf(" %d", ofdm_nsym(mod, lens[k]));
        for (len = 0; len <= MAX_PAYLOAD + 1; len++)
            if (ofdm_nsym(mod, len) != ofdm_nsym(mod, len - 1))
                printf(" %d:%d", len, ofdm_nsym(mod, len));
        printf("\n");
    }
    for (k = 0; k < 6; k++) {
        static const int hm[6] = { 0, 1, 2, 3, 3, 2 };
        static const int hl[6] = { 0, 4095, 1, 2730, 860, 1365 };
        ofdm_header_bits(hm[k], hl[k], hdr);
        sprintf(name, "header%d", k);
        put_bits(name, hdr, HEADER_BITS);
    }
    for (k = 0; k < MAX_PAYLOAD; k++)
        payload[k] = (uint8_t)(k * 37 + 11);
    rc = ofdm_data_bits(payload, 5, MOD_QPSK, 0x5b, bits, &crc);
    printf("data_bits rc %d crc %04x\n", rc, crc);
    put_bits("data_bits", bits, rc > 0 ? rc : 0);
    printf("data_bits_bad %d %d %d\n", ofdm_data_bits(payload, 5, 4, 1, bits, &crc),
           ofdm_data_bits(payload, 141, MOD_BPSK, 1, bits, &crc), ofdm_data_bits(payload, -1, MOD_QPSK, 1, bits, &crc));

    for (k = 0; k < NDATA; k++)
        pts[k] = c16(100 * k - 2400, 50 * k);
    ofdm_map_symbol(pts, 3, bins);
    put_cplx("map_symbol3", bins, NFFT);
    ofdm_map_symbol(pts, 4, bins);
    put_cplx("map_symbol4", bins, NFFT);
    rc = ofdm_modulate(bins, TX_SCALE_DEFAULT, frame);
    sprintf(name, "modulate sat %d", rc);
    put_cplx(name, frame, NSYM);
    rc = ofdm_preamble(TX_SCALE_DEFAULT, frame);
    sprintf(name, "preamble sat %d", rc);
    put_cplx(name, frame, PREAMBLE_LEN);
    rc = ofdm_preamble(0, frame);
    sprintf(name, "preamble_unscaled sat %d", rc);
    put_cplx(name, frame, PREAMBLE_LEN);

    printf("tx_errors %d %d %d %d %d %d\n", ofdm_tx(payload, 10, 4, 1, 0x15, frame, &ti),
           ofdm_tx(payload, 10, -1, 1, 0x15, frame, &ti), ofdm_tx(payload, 10, 0, 0, 0x15, frame, &ti),
           ofdm_tx(payload, 10, 0, 128, 0x15, frame, &ti), ofdm_tx(payload, 141, 0, 1, 0x15, frame, &ti),
           ofdm_tx(payload, 861, 3, 1, 0x15, frame, &ti));
}

static void fixed_rx_parts(void)
{
    static const uint64_t sq[12] = { 0, 1, 2, 3, 4, 15, 16, 17, 99980001ull, 4294967295ull,
                                     18446744073709551615ull, 4611686018427387904ull };
    cplx16 eq[NFFT], x;
    cplx32 h, p;
    int k, mod, len, rc;

    printf("isqrt");
    for (k = 0; k < 12; k++)
        printf(" %lu", (unsigned long)isqrt64(sq[k]));
    printf(" %lu %lu\n", (unsigned long)isqrt64(4611686014132420609ull), (unsigned long)isqrt64(4611686014132420608ull));

    h.re = 1024;
    h.im = 0;
    x = rx_equalize(c16(512, -256), h);
    printf("equalize %d,%d", x.re, x.im);
    h.re = 300;
    h.im = -400;
    x = rx_equalize(c16(-700, 100), h);
    printf(" %d,%d", x.re, x.im);
    h.re = 1;
    h.im = 1;
    x = rx_equalize(c16(32767, -32768), h);
    printf(" %d,%d", x.re, x.im);
    h.re = 0;
    h.im = 0;
    x = rx_equalize(c16(5, 5), h);
    printf(" %d,%d", x.re, x.im);
    h.re = 3;
    h.im = 0;
    x = rx_equalize(c16(-1, 1), h);
    printf(" %d,%d", x.re, x.im);
    x = rx_equalize(c16(1, -2), h);
    printf(" %d,%d", x.re, x.im);
    /* results one past each end of the 16-bit range before saturation */
    h.re = 2048;
    h.im = 0;
    x = rx_equalize(c16(16384, -16384), h);
    printf(" %d,%d", x.re, x.im);
    x = rx_equalize(c16(-16385, 16383), h);
    printf(" %d,%d\n", x.re, x.im);

    p.re = 16384;
    p.im = 0;
    x = rx_derotate(c16(1234, -4321), p);
    printf("derotate %d,%d", x.re, x.im);
    p.re = 3000;
    p.im = 4000;
    x = rx_derotate(c16(1234, -4321), p);
    printf(" %d,%d", x.re, x.im);
    p.re = 0;
    p.im = 0;
    x = rx_derotate(c16(1234, -4321), p);
    printf(" %d,%d", x.re, x.im);
    p.re = -131068;
    p.im = 131068;
    x = rx_derotate(c16(32767, -32768), p);
    printf(" %d,%d", x.re, x.im);
    p.re = 0;
    p.im = -7;
    x = rx_derotate(c16(3, 4), p);
    printf(" %d,%d", x.re, x.im);
    p.re = -1;
    p.im = 0;
    x = rx_derotate(c16(-32768, 32767), p);
    printf(" %d,%d", x.re, x.im);
    p.re = 0;
    p.im = 1;
    x = rx_derotate(c16(-32768, -32768), p);
    printf(" %d,%d\n", x.re, x.im);

    /* timing on silence (every metric ties), on a bare preamble and one
     * with a quarter turn; FFT windows at and past both ends of a buffer */
    {
        static cplx16 buf[400];
        cplx16 bins[NFFT];
        int64_t peak;
        int i;
        memset(buf, 0, sizeof buf);
        rc = rx_timing(buf, 400, 50, TX_SCALE_DEFAULT, &peak);
        printf("timing_silence %d peak %lld\n", rc, (long long)peak);
        ofdm_preamble(TX_SCALE_DEFAULT, buf + 7);
        rc = rx_timing(buf, 400, 50, TX_SCALE_DEFAULT, &peak);
        printf("timing_preamble %d peak %lld\n", rc, (long long)peak);
        for (i = 0; i < 200; i++)
            buf[i] = c16(-buf[i].im, buf[i].re);
        rc = rx_timing(buf, 400, 3, TX_SCALE_DEFAULT, &peak);
        printf("timing_turned %d peak %lld\n", rc, (long long)peak);
        rc = rx_timing(buf, 2 * NFFT + LTS_CP, 3, TX_SCALE_DEFAULT, &peak);
        printf("timing_exact_fit %d peak %lld\n", rc, (long long)peak);
        for (i = 0; i < 400; i++)
            buf[i] = c16(i * 37 % 2001 - 1000, i * 91 % 1999 - 999);
        for (k = -1; k <= 2; k++) {
            rc = rx_fft_window(buf, 300, k, RX_SCALE_DEFAULT, bins);
            printf("fft_window_at%d rc %d", k, rc);
            put_cplx("", bins, rc < 0 ? 0 : 4);
        }
        for (k = 300 - NFFT - 1; k <= 300 - NFFT + 1; k++) {
            rc = rx_fft_window(buf, 300, k, RX_SCALE_DEFAULT, bins);
            printf("fft_window_at%d rc %d", k, rc);
            put_cplx("", bins, rc < 0 ? 0 : 4);
        }
    }

    lcg_state = 0x7e57u;
    for (k = 0; k < NFFT; k++)
        eq[k] = lcg_cplx(-5000, 5000);
    for (k = 0; k < 3; k++) {
        p = rx_pilot_phase(eq, k * 5);
        printf("pilot_phase%d %ld,%ld\n", k * 5, (long)p.re, (long)p.im);
    }
    /* headers built bit by bit into equalised bins */
    for (k = 0; k < 8; k++) {
        static const int hm[8] = { 0, 1, 2, 3, 0, 3, 1, 2 };
        static const int hl[8] = { 0, 1, 2, 860, 140, 861, 284, 4095 };
        uint8_t hdr[HEADER_BITS];
        int b;
        ofdm_header_bits(hm[k], hl[k], hdr);
        if (k == 6)
            hdr[14] ^= 1;                  /* parity broken */
        if (k == 2)
            hdr[20] = 1;                   /* a reserved bit set */
        for (b = 0; b < NFFT; b++)
            eq[b] = c16(0, 0);
        for (b = 0; b < NDATA; b++) {
            int v = hdr[b % HEADER_BITS] ? 900 : -900;
            if (b == 5)
                v = hdr[5] ? -300 : 300;   /* one copy wrong, the other wins */
            if (b == 30 && k == 4)
                v = 0;                      /* a tie-free zero */
            eq[ofdm_data_bin(b)] = c16(v, 77);
        }
        rc = rx_header(eq, &mod, &len);
        printf("rx_header%d rc %d mod %d length %d\n", k, rc, mod, len);
    }
    {
        uint8_t desc[SERVICE_BITS + 2];
        printf("service_check");
        for (k = -1; k <= SERVICE_BITS; k++) {
            memset(desc, 0, sizeof desc);
            if (k >= 0)
                desc[k] = 1;
            printf(" %d", rx_service_check(desc, SERVICE_BITS + 2));
        }
        memset(desc, 0, sizeof desc);
        printf(" short %d %d %d\n", rx_service_check(desc, SERVICE_BITS), rx_service_check(desc, SERVICE_BITS - 1),
               rx_service_check(desc, 0));
    }
    /* soft sums near the decision threshold: -2 .. 4 */
    for (k = 0; k < 3; k++) {
        int b;
        for (b = 0; b < NFFT; b++)
            eq[b] = c16(0, 0);
        for (b = 0; b < HEADER_BITS; b++) {
            eq[ofdm_data_bin(b)] = c16((b + k) % 5 - 2, 1);
            eq[ofdm_data_bin(b + HEADER_BITS)] = c16((b * 7 + k) % 3, -1);
        }
        rc = rx_header(eq, &mod, &len);
        printf("rx_header_soft%d rc %d mod %d length %d\n", k, rc, mod, len);
    }
}

static void fixed_links(void)
{
    static uint8_t payload[MAX_PAYLOAD];
    channel_cfg cfg;
    char name[64];
    int k, mod;

    lcg_state = 0x11aau;
    for (k = 0; k < MAX_PAYLOAD; k++)
        payload[k] = (uint8_t)lcg_next();

    /* every modulation through the ideal channel, the samples shown */
    for (mod = 0; mod < 4; mod++) {
        ideal_channel(&cfg);
        sprintf(name, "ideal%d", mod);
        show_link(name, payload, 9 + 13 * mod, mod, 0x5d, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, &cfg, 40,
                  mod == 1 ? 2 : 1);
    }
    /* delay, multipath, noise */
    for (mod = 0; mod < 4; mod++) {
        static const int lens[4] = { 60, 100, 250, 500 };
        ideal_channel(&cfg);
        cfg.ntaps = 4;
        cfg.taps[0] = c16(14000, 3000);
        cfg.taps[1] = c16(-3000, 2500);
        cfg.taps[2] = c16(1500, -1200);
        cfg.taps[3] = c16(-600, -700);
        cfg.delay = 37 + 20 * mod;
        cfg.tail = 20;
        cfg.noise_std = 20 + 10 * mod;
        cfg.noise_seed = 1000u + (uint32_t)mod;
        sprintf(name, "multipath%d", mod);
        show_link(name, payload, lens[mod], mod, 1 + 40 * mod, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, &cfg,
                  CH_MAX_DELAY, 0);
    }
    /* rising noise at 16-QAM until the CRC fails */
    for (k = 0; k < 6; k++) {
        ideal_channel(&cfg);
        cfg.delay = 3;
        cfg.tail = 8;
        cfg.noise_std = 50 + 150 * k;
        cfg.noise_seed = 4242u;
        sprintf(name, "noise%d", cfg.noise_std);
        show_link(name, payload, 120, MOD_16QAM, 77, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, &cfg, 20, 0);
    }
    /* the largest frames, other scaling schedules, an attenuating channel */
    ideal_channel(&cfg);
    cfg.delay = CH_MAX_DELAY;
    cfg.tail = CH_MAX_TAIL;
    show_link("max64", payload, MAX_PAYLOAD, MOD_64QAM, 127, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, &cfg,
              CH_MAX_DELAY, 0);
    show_link("maxbpsk", payload, 140, MOD_BPSK, 1, 0x3f, 0x3f, &cfg, CH_MAX_DELAY, 0);
    cfg.delay = 0;
    cfg.taps[0] = c16(3000, -2000);
    show_link("weak", payload, 0, MOD_QPSK, 64, 0x07, 0x3c, &cfg, 10, 0);
    cfg.taps[0] = c16(16384, 0);
    show_link("loud", payload, 33, MOD_16QAM, 64, 0x00, 0x3f, &cfg, 10, 0);
    /* a window too short to hold the frame, and no search at all */
    show_link("short_search", payload, 10, MOD_QPSK, 9, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, &cfg, -1, 0);
    {
        static cplx16 frame[MAX_FRAME];
        static uint8_t got[MAX_PAYLOAD];
        tx_info ti;
        rx_info ri;
        int n = ofdm_tx(payload, 50, MOD_QPSK, 3, TX_SCALE_DEFAULT, frame, &ti), rc;
        memset(&ri, 0x5a, sizeof ri);
        rc = ofdm_rx(frame, n - 40, 10, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, got, &ri);
        show_rx_info("truncated", rc, &ri, got, payload, 50);
        memset(&ri, 0x5a, sizeof ri);
        rc = ofdm_rx(frame, n - BACKOFF, 10, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, got, &ri);
        show_rx_info("cut_at_last_window", rc, &ri, got, payload, 50);
        memset(&ri, 0x5a, sizeof ri);
        rc = ofdm_rx(frame, n - BACKOFF - 1, 10, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, got, &ri);
        show_rx_info("cut_inside_last_window", rc, &ri, got, payload, 50);
        rc = ofdm_rx(frame, 2 * NFFT + LTS_CP - 1, 10, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, got, &ri);
        show_rx_info("tooshort", rc, &ri, got, payload, 50);
        rc = ofdm_rx(frame, PREAMBLE_LEN + 50, 0, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, got, &ri);
        show_rx_info("noheader", rc, &ri, got, payload, 50);
        for (k = 0; k < 60; k++)
            frame[PREAMBLE_LEN + NCP + k] = c16(0, 0);
        rc = ofdm_rx(frame, n, 0, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, got, &ri);
        show_rx_info("blank_header", rc, &ri, got, payload, 50);
    }
}

static void run_fixed(void)
{
    fixed_fft();
    fixed_qam();
    fixed_bits();
    fixed_channel();
    fixed_tx();
    fixed_rx_parts();
    fixed_links();
}

/* ------------------------------------------------------------------ */
/* Seeded inputs                                                       */
/* ------------------------------------------------------------------ */

/* payload bytes for the seed's pattern: 0, 6, 7 random, 1 zeros, 2 all
 * ones, 3 one repeated byte, 4 alternating bytes, 5 a single set bit */
static void pattern_fill(int pattern, uint8_t *p, int n)
{
    uint8_t a = (uint8_t)rng_next(), b = (uint8_t)~a;
    int i;
    switch (pattern) {
    case 1: memset(p, 0x00, (size_t)n); break;
    case 2: memset(p, 0xff, (size_t)n); break;
    case 3: memset(p, a, (size_t)n); break;
    case 4:
        for (i = 0; i < n; i++)
            p[i] = (i & 1) ? b : a;
        break;
    case 5:
        memset(p, 0, (size_t)n);
        if (n > 0) {
            i = rng_below(n);
            p[i] = (uint8_t)(1u << rng_below(8));
        }
        break;
    default:
        for (i = 0; i < n; i++)
            p[i] = (uint8_t)rng_next();
        break;
    }
}

/* a sample value: random, extreme, zero or small, by the pattern */
static int16_t pick_sample(int pattern)
{
    switch (pattern) {
    case 1: return 0;
    case 2: return (int16_t)(rng_below(2) ? 32767 : -32768);
    case 3: return (int16_t)rng_range(-3, 3);
    default: return (int16_t)rng_range(-32768, 32767);
    }
}

/* the two parts drawn in order (a function's arguments are not) */
static cplx16 pick_cplx(int pattern_re, int pattern_im)
{
    cplx16 x;
    x.re = pick_sample(pattern_re);
    x.im = pick_sample(pattern_im);
    return x;
}

static cplx16 rand_cplx(int lo, int hi)
{
    cplx16 x;
    x.re = (int16_t)rng_range(lo, hi);
    x.im = (int16_t)rng_range(lo, hi);
    return x;
}

static int pick_length(int mod)
{
    int max = 0, len;
    for (len = MAX_PAYLOAD; len > 0 && max == 0; len--)
        if (ofdm_nsym(mod, len) != 0)
            max = len;
    switch (rng_below(6)) {
    case 0: return rng_below(3);
    case 1: return max - rng_below(2);
    case 2: return max + 1;
    default: return rng_below(max + 1);
    }
}

static void seeded_fft(int pattern)
{
    static cplx16 in[FFT_MAX];
    char name[64];
    unsigned fwd, inv;
    int t, k, log2n;

    for (t = 0; t < 6; t++) {
        log2n = t == 0 ? FFT_MAX_LOG2 : rng_range(1, FFT_MAX_LOG2);
        for (k = 0; k < (1 << log2n); k++) {
            int pat = t < 3 ? pattern : 0;
            in[k].re = pick_sample(pat);
            in[k].im = pick_sample(pat);
            if (t == 5)
                in[k].re = in[k].im = (int16_t)rng_range(-2000, 2000);
        }
        sprintf(name, "fft%d", t);
        fwd = (unsigned)rng_below(512);
        inv = (unsigned)rng_below(512);
        show_fft(name, in, log2n, fwd, inv);
    }
    log2n = rng_range(-5, 0);
    printf("fft_bad %d\n", fft_run(in, log2n, rng_below(2), 0));
    {
        cplx16 a = pick_cplx(pattern, 0);
        int16_t wr = (int16_t)rng_range(-32767, 32767);
        cplx32 r = fft_cmul_q15(a, wr, (int16_t)rng_range(-32767, 32767));
        printf("cmul %ld,%ld\n", (long)r.re, (long)r.im);
        k = rng_below(2 * FFT_MAX) - FFT_MAX / 2;
        printf("twiddle %d %d,%d\n", k, fft_cos(k), fft_sin(k));
    }
}

static void seeded_parts(int pattern)
{
    static uint8_t bits[MAX_BITS], out[MAX_BITS], back[MAX_BITS];
    uint8_t bytes[200];
    cplx16 x;
    cplx32 h;
    char name[64];
    int i, mod, n;

    for (i = 0; i < 8; i++) {
        mod = rng_range(-1, 4);
        x = pick_cplx(i < 4 ? pattern : 0, 0);
        if (i & 1)
            x = rand_cplx(-6000, 6000);
        sprintf(name, "demap%d", i);
        show_demap(name, mod, x);
    }
    mod = rng_below(4);
    n = NDATA * qam_bits(mod);
    pattern_fill(pattern, bytes, n / 8 + 1);
    bytes_to_bits(bytes, n / 8 + 1, bits);
    sprintf(name, "interleaver%d", mod);
    show_interleaver(name, mod, bits);

    n = rng_below(MAX_BITS + 1);
    pattern_fill(pattern, bytes, 200);
    for (i = 0; i < n; i++)
        bits[i] = (uint8_t)(i < 16 ? 0 : (bytes[i % 200] >> (i % 8)) & 1);
    i = rng_below(256);
    scramble((uint8_t)i, bits, out, n);
    printf("scramble seed %d n %d recovered %d", i, n, descramble_recover(out, back, n));
    printf(" errors %d\n", count_bit_errors_bits(bits, back, n));
    for (i = 0; i < 64; i++)
        out[i] = (uint8_t)rng_next();
    printf("descramble_bytes %d", descramble_recover(out, back, 64));
    put_bits("", back, 64);
    n = rng_below(200);
    printf("crc n %d %04x\n", n, crc16_ccitt(bytes, n));
    i = rng_range(-1000000, 1000000);
    printf("polarity %d %d\n", i, pilot_polarity(i));
    {
        uint64_t v = rng_next();
        v >>= rng_below(64);
        if (rng_below(4) == 0)
            v = (uint64_t)rng_below(5);
        uint32_t r = isqrt64(v);
        printf("isqrt %llu %lu\n", (unsigned long long)v, (unsigned long)r);
        v = (uint64_t)r * r;
        printf("isqrt_square %lu %lu\n", (unsigned long)isqrt64(v), (unsigned long)isqrt64(v ? v - 1 : 0));
    }
    for (i = 0; i < 4; i++) {
        h.re = rng_range(-40000, 40000) >> (i * 4);
        h.im = rng_range(-40000, 40000) >> (i * 4);
        x = rx_equalize(pick_cplx(pattern, 0), h);
        printf("equalize %ld,%ld -> %d,%d\n", (long)h.re, (long)h.im, x.re, x.im);
        h.re = rng_range(-131072, 131072) >> (i * 5);
        h.im = rng_range(-131072, 131072) >> (i * 5);
        if (i == 3 && rng_below(3) == 0)
            h.re = h.im = 0;
        x = rx_derotate(pick_cplx(0, pattern), h);
        printf("derotate %ld,%ld -> %d,%d\n", (long)h.re, (long)h.im, x.re, x.im);
    }
    {
        uint32_t st = (uint32_t)rng_next();
        int std = rng_below(4) ? rng_below(2000) : rng_range(0, 32767);
        printf("gauss %lu %d", (unsigned long)st, std);
        for (i = 0; i < 6; i++)
            printf(" %ld", (long)chan_gauss(&st, std));
        printf("\n");
    }
}

static void random_channel(int pattern, channel_cfg *cfg, int harsh)
{
    int t;
    memset(cfg, 0, sizeof *cfg);
    cfg->ntaps = rng_range(1, CH_MAX_TAPS);
    cfg->taps[0].re = (int16_t)rng_range(6000, 20000);
    cfg->taps[0].im = (int16_t)rng_range(-8000, 8000);
    if (rng_below(2))
        cfg->taps[0] = c16(-cfg->taps[0].im, cfg->taps[0].re);   /* a quarter turn */
    for (t = 1; t < cfg->ntaps; t++) {
        int amp = harsh ? 16000 : 3000 >> (t / 2);
        cfg->taps[t] = rand_cplx(-amp, amp);
    }
    cfg->delay = rng_below(CH_MAX_DELAY + 1);
    cfg->tail = rng_below(CH_MAX_TAIL + 1);
    cfg->noise_std = pattern == 1 ? 0 : rng_below(4) ? rng_below(80) : rng_below(1500);
    cfg->noise_seed = (uint32_t)rng_next();
}

static void seeded_links(int pattern)
{
    static uint8_t payload[MAX_PAYLOAD + 8];
    channel_cfg cfg;
    char name[64];
    int f;

    for (f = 0; f < 6; f++) {
        int mod = rng_below(12) == 0 ? rng_range(-2, 5) : rng_below(4);
        int len = pick_length(mod >= 0 && mod <= 3 ? mod : 0);
        int seed = rng_below(10) == 0 ? rng_below(256) : rng_range(1, 127);
        unsigned tx_scale = TX_SCALE_DEFAULT, rx_scale = RX_SCALE_DEFAULT;
        int search = CH_MAX_DELAY;
        if (rng_below(3) == 0) {
            tx_scale = (unsigned)rng_below(64);
            rx_scale = (unsigned)rng_below(64);
        }
        if (rng_below(5) == 0)
            search = rng_below(CH_MAX_DELAY + 1);
        pattern_fill(pattern, payload, MAX_PAYLOAD);
        random_channel(pattern, &cfg, f == 5);
        if (f == 0) {
            cfg.ntaps = 1;
            cfg.taps[0] = c16(16384, 0);
            cfg.noise_std = 0;
        }
        printf("link%d mod %d len %d seed %d scales %x %x search %d taps %d delay %d tail %d noise %d\n", f, mod,
               len, seed, tx_scale, rx_scale, search, cfg.ntaps, cfg.delay, cfg.tail, cfg.noise_std);
        sprintf(name, "link%d", f);
        show_link(name, payload, len, mod, seed, tx_scale, rx_scale, &cfg, search, f == 0 ? 2 : (f == 1));
    }
}

/* the receiver's arguments at their edges: captures too short for any
 * timing offset, the smallest search windows and scaling masks, and the
 * shortest payloads */
static void seeded_edges(int pattern)
{
    static const unsigned scales[4][2] = {
        { 1u, RX_SCALE_DEFAULT }, { TX_SCALE_DEFAULT, 1u }, { 0u, 0u }, { 1u, 1u }
    };
    static uint8_t payload[8], got[MAX_PAYLOAD + 8];
    cplx16 rxs[4];
    channel_cfg cfg;
    rx_info ri;
    char name[64];
    int k, rc;

    for (k = 0; k < 4; k++)
        rxs[k] = pick_cplx(pattern, pattern);
    for (k = 0; k < 2; k++) {
        memset(got, 0xee, sizeof got);
        memset(&ri, 0x5a, sizeof ri);
        rc = ofdm_rx(rxs, k, CH_MAX_DELAY, TX_SCALE_DEFAULT, RX_SCALE_DEFAULT, got, &ri);
        sprintf(name, "edges.capture%d", k);
        show_rx_info(name, rc, &ri, got, NULL, 0);
    }
    pattern_fill(pattern, payload, (int)sizeof payload);
    for (k = 0; k < 8; k++) {
        int mod = rng_below(4), len = k & 1, search = k < 4 ? (k >> 1) : CH_MAX_DELAY;
        unsigned tx_scale = k < 4 ? TX_SCALE_DEFAULT : scales[k - 4][0];
        unsigned rx_scale = k < 4 ? RX_SCALE_DEFAULT : scales[k - 4][1];
        ideal_channel(&cfg);
        cfg.delay = k < 4 ? rng_below(3) : rng_below(CH_MAX_DELAY + 1);
        printf("edges.link%d mod %d len %d scales %x %x search %d delay %d\n", k, mod, len, tx_scale, rx_scale,
               search, cfg.delay);
        sprintf(name, "edges.link%d", k);
        show_link(name, payload, len, mod, rng_range(1, 127), tx_scale, rx_scale, &cfg, search, 0);
    }
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8);
    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    fft_init();
    seeded_fft(pattern);
    seeded_parts(pattern);
    seeded_links(pattern);
    seeded_edges(pattern);
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
