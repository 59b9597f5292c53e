/*
 * codec.h -- interface of the convolutional codec pair.
 *
 * A binary convolutional code of rate 1/2 and constraint length K (3..7)
 * with two generator polynomials, punctured to rates 2/3, 3/4 and 5/6,
 * sent over an integer channel model (binary symmetric, two-state burst
 * and additive Gaussian-like noise with 3-bit quantisation) and decoded
 * by a Viterbi decoder with hard or 3-bit soft decisions, path-metric
 * normalisation and a sliding-window traceback of configurable depth.
 *
 * Conventions used everywhere:
 *   - a bit is one uint8_t holding 0 or 1;
 *   - the encoder register is reg = (input << (K-1)) | state, where state
 *     holds the previous K-1 inputs with the most recent one in bit K-2;
 *     output j is the parity of reg & poly[j], and the next state is
 *     reg >> 1;
 *   - the coded stream interleaves the two outputs: c[2t] from poly[0],
 *     c[2t+1] from poly[1];
 *   - a received symbol is a hard bit (0/1) or a 3-bit soft value 0..7
 *     (0 = confident 0, 7 = confident 1), or SYM_ERASED where puncturing
 *     removed it.
 */
#ifndef CODEC_H
#define CODEC_H

#include <stdint.h>

#define CC_MIN_K       3
#define CC_MAX_K       7
#define CC_MAX_STATES  64                        /* 2^(CC_MAX_K-1) */
#define CC_MAX_BITS    1024                      /* information bits per frame */
#define CC_MAX_STEPS   (CC_MAX_BITS + CC_MAX_K - 1)
#define CC_MAX_CODED   (2 * CC_MAX_STEPS)
#define CC_MAX_FREE    64                        /* free-distance search horizon */

#define SYM_ERASED     0xFF
#define SOFT_MAX       7

#define VIT_MAX_DEPTH  120                       /* traceback depth */
#define VIT_RING       128                       /* survivor columns, a power of two */
#define VIT_START_COST 256                       /* cost of a state the encoder cannot start in */

enum cc_term { CC_TRUNC = 0, CC_ZERO_TERM = 1, CC_TAIL_BITE = 2 };
enum pc_rate { PC_RATE_1_2 = 0, PC_RATE_2_3 = 1, PC_RATE_3_4 = 2, PC_RATE_5_6 = 3 };
enum vit_metric { VIT_HARD = 0, VIT_SOFT = 1 };

/* a code and its trellis */
typedef struct {
    int k;                                       /* constraint length */
    int nstates;                                 /* 2^(k-1) */
    uint8_t poly[2];                             /* generator polynomials */
    uint8_t next[CC_MAX_STATES][2];              /* next state by input bit */
    uint8_t out[CC_MAX_STATES][2];               /* output pair by input bit: (c0 << 1) | c1 */
} cc_code;

/* a decoder configuration */
typedef struct {
    const cc_code *code;
    int metric;                                  /* VIT_HARD or VIT_SOFT */
    int term;                                    /* enum cc_term */
    int depth;                                   /* traceback depth, 1..VIT_MAX_DEPTH */
    int wrap;                                    /* tail-biting: steps decoded again on each side */
    uint16_t norm;                               /* normalise when the best metric reaches this (0: every step) */
} vit_cfg;

/* what a decode reports */
typedef struct {
    int nbits;                                   /* decoded information bits */
    int steps;                                   /* trellis steps run */
    int final_state;                             /* state the final traceback started from */
    int flush_state;                             /* state the final traceback ended in */
    uint32_t metric;                             /* final path metric, normalisation undone */
    int norm_count;                              /* normalisations done */
    int corrected;                               /* received symbols the decoded path disagrees with */
    uint32_t path_cost;                          /* branch metrics summed along the re-encoded path */
} vit_result;

/* survivor memory: one decision bit per state and step, in a ring */
typedef struct {
    uint64_t dec[VIT_RING];
    int count;                                   /* columns stored so far */
} tb_mem;

/* the channel's generator and statistics */
typedef struct {
    uint32_t s;
} ch_rng;

typedef struct {
    int errors;
    int first;                                   /* index of the first error, -1 if none */
    int last;                                    /* index of the last error, -1 if none */
    int longest;                                 /* longest run of consecutive errors */
    int bursts;                                  /* runs of consecutive errors */
} ch_stats;

/* conv_enc.c */
int cc_parity(uint32_t x);
int cc_init(cc_code *c, int k, unsigned g0, unsigned g1);
void cc_k7(cc_code *c);
void cc_k3(cc_code *c);
int cc_tb_state(const cc_code *c, const uint8_t *bits, int n);
int cc_encode_run(const cc_code *c, int *state, const uint8_t *bits, int n, uint8_t *coded);
int cc_encode(const cc_code *c, int term, const uint8_t *bits, int n, uint8_t *coded, int *end_state);
int cc_coded_len(const cc_code *c, int term, int n);
int cc_free_distance(const cc_code *c, int horizon, int *length);
int cc_degree(unsigned p);
unsigned cc_poly_mod(unsigned a, unsigned b);
unsigned cc_poly_gcd(unsigned a, unsigned b);
int cc_catastrophic(const cc_code *c);

/* puncture.c */
int pc_period(int rate);
int pc_kept(int rate);
int pc_keep(int rate, int pos);
int pc_ratio(int rate, int *num, int *den);
int pc_punctured_len(int rate, int n, int phase);
int pc_puncture(int rate, int phase, const uint8_t *in, int n, uint8_t *out);
int pc_depuncture(int rate, int phase, const uint8_t *in, int nin, uint8_t *out, int nout);

/* channel.c */
void ch_seed(ch_rng *r, uint32_t seed);
uint32_t ch_next(ch_rng *r);
uint32_t ch_below(ch_rng *r, uint32_t n);
int32_t ch_floordiv(int32_t a, int32_t b);
int32_t ch_gauss(ch_rng *r);
uint8_t ch_quantize(int32_t y, int32_t step);
int ch_bsc(ch_rng *r, uint32_t p16, const uint8_t *in, int n, uint8_t *out);
int ch_burst(ch_rng *r, const uint32_t p16[4], const uint8_t *in, int n, uint8_t *out);
int ch_awgn(ch_rng *r, int32_t amp, int32_t sigma, int32_t step, const uint8_t *in, int n, uint8_t *soft);
void ch_hard(const uint8_t *soft, int n, uint8_t *hard);
int ch_count_errors(const uint8_t *a, const uint8_t *b, int n, ch_stats *st);

/* traceback.c */
void tb_clear(tb_mem *m);
void tb_store(tb_mem *m, uint64_t decisions);
int tb_decision(const tb_mem *m, int t, int state);
int tb_prev(int state, int decision, int k);
int tb_bit(int state, int k);
int tb_best(const uint16_t *pm, int nstates);
int tb_walk(const tb_mem *m, int k, int state, int t, int count, uint8_t *bits);

/* viterbi.c */
int vit_branch_metric(int metric, uint8_t sym, int bit);
void vit_branch_table(int metric, const uint8_t *sym, uint16_t bm[4]);
int vit_check(const vit_cfg *cfg, int n);
int vit_begin(const vit_cfg *cfg, int start_state);
void vit_step(const uint8_t *sym);
void vit_metrics(uint16_t *pm);
uint32_t vit_offset(void);
uint64_t vit_last_decisions(void);
int vit_decode(const vit_cfg *cfg, const uint8_t *sym, int n, uint8_t *bits, vit_result *res);
int vit_decode_punctured(const vit_cfg *cfg, int rate, int phase, const uint8_t *rx, int nrx, int n,
                         uint8_t *bits, vit_result *res);

#endif
