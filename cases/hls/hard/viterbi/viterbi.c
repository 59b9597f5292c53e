/*
 * viterbi.c -- Viterbi decoder for the rate-1/2 codes of conv_enc.c.
 *
 * Branch metrics are Hamming distances (hard decisions) or distances of
 * the 3-bit level from the ideal level of the expected bit (soft
 * decisions: expected 0 costs the level, expected 1 costs 7 - level);
 * erased symbols cost nothing.  Each step adds, compares and selects for
 * every state: state s is entered from p0 = (2s) mod 2^(K-1) and p0 + 1
 * with input bit s >> (K-2), and on equal metrics the survivor from p0
 * wins.  When the best metric reaches the configured threshold it is
 * subtracted from every metric (the subtracted total is kept, so the final
 * metric can be reported unnormalised).
 *
 * Decisions go into the survivor memory of traceback.c.  Once `depth`
 * steps are stored, every step traces back `depth` steps from the best
 * state and releases the bit of the oldest of them; the end of the frame
 * traces back from the final state (state 0 for a zero-terminated frame,
 * the best state otherwise) and releases the rest.
 *
 * A tail-biting frame of n steps is decoded with the wrap-around method:
 * every start state costs the same, the trellis runs over the last `wrap`
 * steps of the frame, the whole frame and its first `wrap` steps again,
 * and only the bits of the middle copy are kept.
 */
#include "codec.h"

#define VIT_NORM_MAX 0xC000u

typedef struct {
    vit_cfg cfg;
    uint16_t pm[CC_MAX_STATES];          /* path metric of every state */
    uint16_t nm[CC_MAX_STATES];          /* metrics being computed by a step */
    tb_mem tb;
    uint64_t last;                       /* decisions of the latest step */
    uint32_t offset;                     /* metric removed by normalisation */
    int norm_count;
} vit_dec;

static vit_dec dec;
static uint8_t vit_tail[VIT_MAX_DEPTH];
static uint8_t vit_coded[CC_MAX_CODED];

/* cost of receiving `sym` when `bit` was sent */
int vit_branch_metric(int metric, uint8_t sym, int bit)
{
    int v;

    if (sym == SYM_ERASED)
        return 0;
    if (metric == VIT_HARD)
        return (sym != 0) != (bit != 0);
    v = sym > SOFT_MAX ? SOFT_MAX : sym;
    return bit ? SOFT_MAX - v : v;
}

/* the cost of each output pair (c0 << 1) | c1 against the received pair */
void vit_branch_table(int metric, const uint8_t *sym, uint16_t bm[4])
{
    int c0, c1;

    for (c0 = 0; c0 < 2; c0++) {
        for (c1 = 0; c1 < 2; c1++)
            bm[2 * c0 + c1] = (uint16_t)(vit_branch_metric(metric, sym[0], c0) + vit_branch_metric(metric, sym[1], c1));
    }
}

/* 0 when the configuration can decode an n-bit frame, a negative code otherwise */
int vit_check(const vit_cfg *cfg, int n)
{
    const cc_code *c = cfg->code;

    if (c == 0 || c->k < CC_MIN_K || c->k > CC_MAX_K)
        return -1;
    if (cfg->metric != VIT_HARD && cfg->metric != VIT_SOFT)
        return -2;
    if (cfg->term < CC_TRUNC || cfg->term > CC_TAIL_BITE)
        return -3;
    if (cfg->depth < 1 || cfg->depth > VIT_MAX_DEPTH)
        return -4;
    if (cfg->wrap < 0 || cfg->wrap > VIT_MAX_DEPTH)
        return -5;
    if (cfg->norm > VIT_NORM_MAX)
        return -6;
    if (n < 0 || n > CC_MAX_BITS || (n == 0 && cfg->term == CC_TAIL_BITE))
        return -7;
    return 0;
}

/*
 * Starts a frame: the start state costs 0 and every other state
 * VIT_START_COST; start_state -1 makes every state an equal start.
 * Returns 0, or -1 (nothing changed) for a start state outside -1..2^(K-1)-1.
 */
int vit_begin(const vit_cfg *cfg, int start_state)
{
    int s;

    if (start_state < -1 || start_state >= cfg->code->nstates)
        return -1;
    dec.cfg = *cfg;
    for (s = 0; s < cfg->code->nstates; s++)
        dec.pm[s] = (start_state < 0 || s == start_state) ? 0 : VIT_START_COST;
    tb_clear(&dec.tb);
    dec.last = 0;
    dec.offset = 0;
    dec.norm_count = 0;
    return 0;
}

/* subtracts the best metric from every metric once it reaches the threshold */
static void vit_normalise(void)
{
    int n = dec.cfg.code->nstates, s;
    uint16_t lo = dec.pm[tb_best(dec.pm, n)];

    if (lo == 0 || lo < dec.cfg.norm)
        return;
    for (s = 0; s < n; s++)
        dec.pm[s] = (uint16_t)(dec.pm[s] - lo);
    dec.offset += lo;
    dec.norm_count++;
}

/* one add-compare-select step over the received pair sym[0], sym[1] */
void vit_step(const uint8_t *sym)
{
    const cc_code *c = dec.cfg.code;
    int n = c->nstates, half = n >> 1, s;
    uint16_t bm[4];
    uint64_t d = 0;

    vit_branch_table(dec.cfg.metric, sym, bm);
    for (s = 0; s < n; s++) {
        int bit = s >= half;
        int p0 = (s & (half - 1)) << 1;
        int p1 = p0 + 1;
        uint32_t m0 = (uint32_t)dec.pm[p0] + bm[c->out[p0][bit]];
        uint32_t m1 = (uint32_t)dec.pm[p1] + bm[c->out[p1][bit]];
        if (m1 < m0) {
            dec.nm[s] = (uint16_t)m1;
            d |= (uint64_t)1 << s;
        } else {
            dec.nm[s] = (uint16_t)m0;
        }
    }
    for (s = 0; s < n; s++)
        dec.pm[s] = dec.nm[s];
    dec.last = d;
    tb_store(&dec.tb, d);
    vit_normalise();
}

void vit_metrics(uint16_t *pm)
{
    int s;

    for (s = 0; s < dec.cfg.code->nstates; s++)
        pm[s] = dec.pm[s];
}

uint32_t vit_offset(void)
{
    return dec.offset;
}

uint64_t vit_last_decisions(void)
{
    return dec.last;
}

/* releases the bit of trellis step t into the frame (steps of the wrap and the tail are dropped) */
static void vit_emit(uint8_t *bits, int t, int bit, int wrap, int n)
{
    int i = t - wrap;

    if (i >= 0 && i < n)
        bits[i] = (uint8_t)bit;
}

/* the frame step a trellis step reads its symbols from */
static int vit_frame_step(int term, int t, int wrap, int n)
{
    if (term == CC_TAIL_BITE)
        return (t + n - wrap) % n;
    return t;
}

/*
 * Re-encodes the decoded frame and compares it with what was received:
 * the symbols whose hard decision disagrees, and the branch metrics summed
 * along the re-encoded path.
 */
static void vit_recheck(const vit_cfg *cfg, const uint8_t *sym, const uint8_t *bits, int n, vit_result *res)
{
    int len = cc_encode(cfg->code, cfg->term, bits, n, vit_coded, 0), i;
    int hard_one = cfg->metric == VIT_HARD ? 1 : 4;

    res->corrected = 0;
    res->path_cost = 0;
    for (i = 0; i < len; i++) {
        if (sym[i] == SYM_ERASED)
            continue;
        res->corrected += (sym[i] >= hard_one) != vit_coded[i];
        res->path_cost += (uint32_t)vit_branch_metric(cfg->metric, sym[i], vit_coded[i]);
    }
}

/*
 * Decodes one frame of n information bits from its received symbols
 * (2 per trellis step, as cc_encode lays them out, SYM_ERASED where
 * punctured).  Returns 0, or the negative code of vit_check.
 */
int vit_decode(const vit_cfg *cfg, const uint8_t *sym, int n, uint8_t *bits, vit_result *res)
{
    const cc_code *c;
    int err = vit_check(cfg, n), k, steps, wrap = 0, t, count, final, i;

    if (err != 0)
        return err;
    c = cfg->code;
    k = c->k;
    if (cfg->term == CC_TAIL_BITE) {
        wrap = cfg->wrap < n ? cfg->wrap : n;
        steps = n + 2 * wrap;
        vit_begin(cfg, -1);
    } else {
        steps = cfg->term == CC_ZERO_TERM ? n + k - 1 : n;
        vit_begin(cfg, 0);
    }
    for (t = 0; t < steps; t++) {
        vit_step(sym + 2 * vit_frame_step(cfg->term, t, wrap, n));
        if (t >= cfg->depth) {
            int s = tb_walk(&dec.tb, k, tb_best(dec.pm, c->nstates), t, cfg->depth, 0);
            vit_emit(bits, t - cfg->depth, tb_bit(s, k), wrap, n);
        }
    }
    final = cfg->term == CC_ZERO_TERM ? 0 : tb_best(dec.pm, c->nstates);
    count = steps < cfg->depth ? steps : cfg->depth;
    res->flush_state = tb_walk(&dec.tb, k, final, steps - 1, count, vit_tail);
    for (i = 0; i < count; i++)
        vit_emit(bits, steps - count + i, vit_tail[i], wrap, n);
    res->nbits = n;
    res->steps = steps;
    res->final_state = final;
    res->metric = dec.offset + dec.pm[final];
    res->norm_count = dec.norm_count;
    vit_recheck(cfg, sym, bits, n, res);
    return 0;
}

/*
 * Decodes a punctured frame: rebuilds the full stream from the nrx
 * received symbols (pattern `rate`, starting at pattern position `phase`)
 * and decodes it.  Returns the received symbols used, or a negative code
 * (-8 when the received symbols do not cover the frame).
 */
int vit_decode_punctured(const vit_cfg *cfg, int rate, int phase, const uint8_t *rx, int nrx, int n,
                         uint8_t *bits, vit_result *res)
{
    static uint8_t full[CC_MAX_CODED];
    int err = vit_check(cfg, n), len, used;

    if (err != 0)
        return err;
    len = cc_coded_len(cfg->code, cfg->term, n);
    used = pc_depuncture(rate, phase, rx, nrx, full, len);
    if (used < 0)
        return -8;
    vit_decode(cfg, full, n, bits, res);         /* the configuration is checked above */
    return used;
}
