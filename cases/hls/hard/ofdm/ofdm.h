/*
 * ofdm.h -- a fixed-point OFDM baseband modem written for a high-level-
 * synthesis flow: fixed-size buffers, bounded loops, integer arithmetic on
 * the signal path, no dynamic memory and no recursion.
 *
 *   fft.c      twiddle table, bit reversal, radix-2 decimation-in-time FFT
 *              and IFFT on 16-bit complex samples with a per-stage scaling
 *              schedule and saturation
 *   qam.c      Gray-coded BPSK, QPSK, 16-QAM and 64-QAM mapping, hard
 *              demapping and the error to the nearest point
 *   bits.c     the x^7 + x^4 + 1 scrambler with seed recovery, the pilot
 *              polarity sequence, the two-step block interleaver, CRC-16,
 *              bit packing and bit-error counting
 *   channel.c  integer multipath, timing offset and Gaussian-like noise from
 *              a seeded generator
 *   tx.c       training sequence, preamble, header symbol, data bits,
 *              subcarrier map with pilots, IFFT and cyclic prefix
 *   rx.c       preamble timing search, channel estimation, zero-forcing
 *              equalisation, pilot phase correction, header decoding,
 *              demapping, deinterleaving, descrambling and the CRC check
 */
#ifndef OFDM_H
#define OFDM_H

#include <stdint.h>

typedef struct {
    int16_t re;
    int16_t im;
} cplx16;

typedef struct {
    int32_t re;
    int32_t im;
} cplx32;

/* ------------------------------------------------------------------ */
/* FFT                                                                 */
/* ------------------------------------------------------------------ */

#define FFT_MAX_LOG2  8
#define FFT_MAX       (1 << FFT_MAX_LOG2)      /* 256 points */
#define Q15_ONE       32767

void fft_init(void);
int16_t fft_cos(int k);                         /* cos(2 pi k / FFT_MAX) in Q15 */
int16_t fft_sin(int k);                         /* sin(2 pi k / FFT_MAX) in Q15 */
unsigned fft_reverse_bits(unsigned v, int bits);
void fft_bit_reverse(cplx16 *x, int log2n);
int16_t fft_sat16(int32_t v);
cplx32 fft_cmul_q15(cplx16 a, int16_t wr, int16_t wi);
int fft_run(cplx16 *x, int log2n, int inverse, unsigned scale_mask);

/* ------------------------------------------------------------------ */
/* Frame layout                                                        */
/* ------------------------------------------------------------------ */

#define NFFT          64
#define LOG2_NFFT     6
#define NCP           16                        /* cyclic prefix of a symbol */
#define NSYM          (NFFT + NCP)              /* 80 samples per symbol */
#define NDATA         48                        /* data subcarriers */
#define NPILOT        4                         /* pilot subcarriers at -21, -7, 7, 21 */
#define NUSED         (NDATA + NPILOT)          /* 52; DC and the band edges stay empty */
#define LTS_CP        32                        /* guard before the two training symbols */
#define PREAMBLE_LEN  (LTS_CP + 2 * NFFT)       /* 160 */
#define MAX_DATA_SYMBOLS 24
#define MAX_FRAME     (PREAMBLE_LEN + NSYM * (1 + MAX_DATA_SYMBOLS))   /* 2160 samples */
#define MAX_BITS      (MAX_DATA_SYMBOLS * NDATA * 6)                  /* 6912 */
#define MAX_PAYLOAD   ((MAX_BITS - 32) / 8)                           /* 860 bytes */
#define SERVICE_BITS  16                        /* zeros before the payload (seed recovery) */
#define CRC_BITS      16
#define HEADER_BITS   24                        /* sent twice on the header symbol */
#define BACKOFF       4                         /* FFT windows start this early into the CP */
#define A_REF         4096                      /* amplitude of a unit constellation point */

#define MOD_BPSK   0
#define MOD_QPSK   1
#define MOD_16QAM  2
#define MOD_64QAM  3

#define TX_SCALE_DEFAULT  0x15u                 /* IFFT stages 1, 3, 5 halve: gain 1/8 */
#define RX_SCALE_DEFAULT  0x1fu                 /* FFT stages 1-5 halve: gain 1/32 */

#define OFDM_OK           0
#define OFDM_ERR_MOD     (-1)                   /* modulation not 0..3 */
#define OFDM_ERR_LENGTH  (-2)                   /* payload does not fit in MAX_DATA_SYMBOLS */
#define OFDM_ERR_SEED    (-3)                   /* scrambler seed not 1..127 */
#define OFDM_ERR_SHORT   (-4)                   /* the received frame runs past the buffer */
#define OFDM_ERR_HEADER  (-5)                   /* header parity, reserved bits or length */
#define OFDM_ERR_CRC     (-6)                   /* payload received, CRC mismatch */
#define OFDM_ERR_FFT     (-7)                   /* FFT size outside 1..FFT_MAX_LOG2 */

/* ------------------------------------------------------------------ */
/* qam.c                                                               */
/* ------------------------------------------------------------------ */

int qam_bits(int mod);                          /* bits per subcarrier: 1, 2, 4, 6; 0 if invalid */
int qam_levels(int mod);                        /* levels per axis: 2, 2, 4, 8 */
int16_t qam_unit(int mod);                      /* distance from 0 to the nearest level */
unsigned qam_gray(unsigned v);
unsigned qam_ungray(unsigned g);
int qam_axis_level(int mod, unsigned g);        /* odd level -(M-1)..(M-1) of Gray code g */
cplx16 qam_map(int mod, const uint8_t *bits);
void qam_demap(int mod, cplx16 x, uint8_t *bits);
int64_t qam_error(int mod, cplx16 x);           /* squared distance to the nearest point */

/* ------------------------------------------------------------------ */
/* bits.c                                                              */
/* ------------------------------------------------------------------ */

uint8_t scrambler_step(uint8_t *state);
void scramble(uint8_t seed, const uint8_t *in, uint8_t *out, int n);
uint8_t descramble_recover(const uint8_t *in, uint8_t *out, int n);
int pilot_polarity(int symbol);                 /* +1 or -1, period 127 */
void interleave_table(int mod, int *perm);
void interleave(int mod, const uint8_t *in, uint8_t *out);
void deinterleave(int mod, const uint8_t *in, uint8_t *out);
uint16_t crc16_ccitt(const uint8_t *data, int len);
void bytes_to_bits(const uint8_t *bytes, int nbytes, uint8_t *bits);
void bits_to_bytes(const uint8_t *bits, int nbytes, uint8_t *bytes);
int count_bit_errors(const uint8_t *a, const uint8_t *b, int nbytes);
int count_bit_errors_bits(const uint8_t *a, const uint8_t *b, int nbits);

/* ------------------------------------------------------------------ */
/* channel.c                                                           */
/* ------------------------------------------------------------------ */

#define CH_MAX_TAPS   8
#define CH_MAX_DELAY  200
#define CH_MAX_TAIL   64
#define MAX_RX        (MAX_FRAME + CH_MAX_DELAY + CH_MAX_TAPS + CH_MAX_TAIL)

typedef struct {
    int ntaps;                  /* 1..CH_MAX_TAPS */
    cplx16 taps[CH_MAX_TAPS];   /* Q14: 16384 is a gain of one */
    int delay;                  /* noise-only samples before the frame, 0..CH_MAX_DELAY */
    int tail;                   /* noise-only samples after it, 0..CH_MAX_TAIL */
    int noise_std;              /* standard deviation per component, 0 = none */
    uint32_t noise_seed;
} channel_cfg;

uint32_t chan_rand(uint32_t *state);
int32_t chan_gauss(uint32_t *state, int std);
int channel_apply(const channel_cfg *cfg, const cplx16 *in, int n, cplx16 *out);

/* ------------------------------------------------------------------ */
/* tx.c                                                                */
/* ------------------------------------------------------------------ */

typedef struct {
    int mod;
    int length;                 /* payload bytes */
    int nsym;                   /* data symbols */
    int nbits;                  /* data bits: service, payload, CRC, padding */
    uint16_t crc;
    int saturations;            /* IFFT outputs clipped to 16 bits */
    int nsamples;
} tx_info;

int ofdm_data_bin(int k);                       /* FFT bin of data subcarrier k (0..47) */
int ofdm_pilot_bin(int p);                      /* FFT bin of pilot p (0..3) */
int ofdm_lts_value(int bin);                    /* +1, -1 or 0: the training sequence */
int ofdm_nsym(int mod, int length);             /* data symbols for a payload, 0 if it does not fit */
void ofdm_header_bits(int mod, int length, uint8_t *bits);
int ofdm_data_bits(const uint8_t *payload, int length, int mod, uint8_t seed, uint8_t *bits, uint16_t *crc);
void ofdm_map_symbol(const cplx16 *points, int symbol, cplx16 *bins);
int ofdm_modulate(cplx16 *bins, unsigned scale_mask, cplx16 *out);
int ofdm_preamble(unsigned scale_mask, cplx16 *out);
int ofdm_tx(const uint8_t *payload, int length, int mod, uint8_t seed, unsigned scale_mask,
            cplx16 *out, tx_info *info);

/* ------------------------------------------------------------------ */
/* rx.c                                                                */
/* ------------------------------------------------------------------ */

typedef struct {
    int start;                  /* detected first sample of the preamble */
    int64_t peak;               /* its timing metric */
    cplx32 h[NFFT];             /* channel estimate per bin */
    int header_mod;
    int header_length;
    int nsym;
    uint8_t seed;               /* scrambler state recovered from the service field */
    int service_ok;
    uint16_t crc_rx;            /* CRC received */
    uint16_t crc_calc;          /* CRC of the received payload */
    int64_t evm;                /* sum of squared errors to the nearest point, data subcarriers */
    cplx32 phase[MAX_DATA_SYMBOLS + 1];   /* pilot phase reference per symbol (header first) */
    int saturations;
} rx_info;

uint32_t isqrt64(uint64_t v);
int rx_timing(const cplx16 *rx, int n, int search, unsigned tx_scale, int64_t *peak);
int rx_fft_window(const cplx16 *rx, int n, int at, unsigned scale_mask, cplx16 *bins);
void rx_estimate(const cplx16 *y1, const cplx16 *y2, cplx32 *h);
cplx16 rx_equalize(cplx16 y, cplx32 h);
cplx32 rx_pilot_phase(const cplx16 *eq, int symbol);
cplx16 rx_derotate(cplx16 x, cplx32 p);
int rx_header(const cplx16 *eq, int *mod, int *length);
int rx_service_check(const uint8_t *desc, int nbits);
int ofdm_rx(const cplx16 *rx, int n, int search, unsigned tx_scale, unsigned rx_scale, uint8_t *payload,
            rx_info *info);

#endif
