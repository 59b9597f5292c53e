/*
 * conv_enc.c -- rate-1/2 convolutional encoder and its trellis.
 *
 * The register convention is the one in codec.h: reg = (input << (K-1)) |
 * state, output j = parity(reg & poly[j]), next state = reg >> 1.  The
 * preset codes are the K=7 code with generators 171 and 133 (octal) used
 * by IEEE 802.11 and DVB, and the K=3 code with generators 7 and 5.
 */
#include "codec.h"

#define CC_INF 0x7fff

/* parity of a 32-bit word, folded down to a nibble and looked up */
int cc_parity(uint32_t x)
{
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x &= 0xfu;
    return (int)((0x6996u >> x) & 1u);
}

/* Hamming weight of a two-bit output pair */
static int cc_pair_weight(uint8_t o)
{
    return (o >> 1) + (o & 1);
}

static int cc_poly_ok(unsigned g, int k)
{
    return g != 0 && g < (1u << k);
}

/* builds the trellis of a code; 0 on success, a negative code otherwise */
int cc_init(cc_code *c, int k, unsigned g0, unsigned g1)
{
    unsigned both;
    int s, b;

    if (k < CC_MIN_K || k > CC_MAX_K)
        return -1;
    if (!cc_poly_ok(g0, k) || !cc_poly_ok(g1, k))
        return -2;
    both = g0 | g1;
    if ((both >> (k - 1)) == 0 || (both & 1u) == 0)
        return -3;                      /* the register would be shorter than K */
    c->k = k;
    c->nstates = 1 << (k - 1);
    c->poly[0] = (uint8_t)g0;
    c->poly[1] = (uint8_t)g1;
    for (s = 0; s < c->nstates; s++) {
        for (b = 0; b < 2; b++) {
            unsigned reg = ((unsigned)b << (k - 1)) | (unsigned)s;
            c->next[s][b] = (uint8_t)(reg >> 1);
            c->out[s][b] = (uint8_t)((cc_parity(reg & g0) << 1) | cc_parity(reg & g1));
        }
    }
    return 0;
}

void cc_k7(cc_code *c)
{
    cc_init(c, 7, 0171u, 0133u);
}

void cc_k3(cc_code *c)
{
    cc_init(c, 3, 07u, 05u);
}

/*
 * Tail-biting start state: the state the encoder is in after the frame
 * when the frame is repeated forever, so that it ends where it started.
 * State bit K-2-i holds input n-1-i of that periodic sequence; frames
 * shorter than K-1 bits wrap around more than once.
 */
int cc_tb_state(const cc_code *c, const uint8_t *bits, int n)
{
    int i, s = 0;

    if (n < 1)
        return -1;
    for (i = 0; i < c->k - 1; i++)
        s |= (bits[n - 1 - (i % n)] & 1) << (c->k - 2 - i);
    return s;
}

/* encodes n bits from *state onwards; returns the coded bits written */
int cc_encode_run(const cc_code *c, int *state, const uint8_t *bits, int n, uint8_t *coded)
{
    int s = *state, i;

    for (i = 0; i < n; i++) {
        int b = bits[i] & 1;
        uint8_t o = c->out[s][b];
        coded[2 * i] = (uint8_t)(o >> 1);
        coded[2 * i + 1] = (uint8_t)(o & 1u);
        s = c->next[s][b];
    }
    *state = s;
    return 2 * n;
}

/* coded length of an n-bit frame, or -1 when the frame cannot be coded */
int cc_coded_len(const cc_code *c, int term, int n)
{
    if (n < 0 || n > CC_MAX_BITS)
        return -1;
    switch (term) {
    case CC_TRUNC:
        return 2 * n;
    case CC_ZERO_TERM:
        return 2 * (n + c->k - 1);
    case CC_TAIL_BITE:
        return n > 0 ? 2 * n : -1;
    default:
        return -1;
    }
}

/*
 * Encodes one frame: truncated (starts in state 0, no tail), zero-terminated
 * (K-1 zero bits appended, ends in state 0) or tail-biting (starts and ends
 * in the state cc_tb_state gives).  Returns the coded length, -1 on error.
 */
int cc_encode(const cc_code *c, int term, const uint8_t *bits, int n, uint8_t *coded, int *end_state)
{
    static const uint8_t zeros[CC_MAX_K - 1];
    int len = cc_coded_len(c, term, n);
    int state = 0;

    if (len < 0)
        return -1;
    if (term == CC_TAIL_BITE)
        state = cc_tb_state(c, bits, n);
    cc_encode_run(c, &state, bits, n, coded);
    if (term == CC_ZERO_TERM)
        cc_encode_run(c, &state, zeros, c->k - 1, coded + 2 * n);
    if (end_state)
        *end_state = state;
    return len;
}

/*
 * Free distance: the least output weight of a path that leaves state 0
 * with a 1 and first comes back to state 0, searched over at most
 * `horizon` branches.  *length gets the branches of that path.  Returns -1
 * for a bad horizon and -2 when no path remerges within it.
 */
int cc_free_distance(const cc_code *c, int horizon, int *length)
{
    int16_t d[CC_MAX_STATES], nd[CC_MAX_STATES];
    int best = CC_INF, best_len = 0, t, s, b, lo;

    if (horizon < 1 || horizon > CC_MAX_FREE)
        return -1;
    for (s = 0; s < c->nstates; s++)
        d[s] = CC_INF;
    d[c->next[0][1]] = (int16_t)cc_pair_weight(c->out[0][1]);
    for (t = 1; t < horizon; t++) {
        for (s = 0; s < c->nstates; s++)
            nd[s] = CC_INF;
        for (s = 1; s < c->nstates; s++) {
            if (d[s] == CC_INF)
                continue;
            for (b = 0; b < 2; b++) {
                int ns = c->next[s][b];
                int w = d[s] + cc_pair_weight(c->out[s][b]);
                if (ns == 0) {
                    if (w < best) {
                        best = w;
                        best_len = t + 1;
                    }
                } else if (w < nd[ns]) {
                    nd[ns] = (int16_t)w;
                }
            }
        }
        lo = CC_INF;
        for (s = 0; s < c->nstates; s++) {
            d[s] = nd[s];
            if (d[s] < lo)
                lo = d[s];
        }
        if (lo >= best)
            break;
    }
    if (length)
        *length = best_len;
    return best == CC_INF ? -2 : best;
}

/* degree of a GF(2) polynomial held as a bit mask (-1 for the zero polynomial) */
int cc_degree(unsigned p)
{
    int d = -1;

    while (p != 0) {
        d++;
        p >>= 1;
    }
    return d;
}

/* a mod b over GF(2); b must not be zero */
unsigned cc_poly_mod(unsigned a, unsigned b)
{
    int db = cc_degree(b);
    int da = cc_degree(a);

    while (da >= db) {
        a ^= b << (da - db);
        da = cc_degree(a);
    }
    return a;
}

unsigned cc_poly_gcd(unsigned a, unsigned b)
{
    while (b != 0) {
        unsigned r = cc_poly_mod(a, b);
        a = b;
        b = r;
    }
    return a;
}

/*
 * A rate-1/2 code is catastrophic (finitely many channel errors can cause
 * infinitely many decoding errors) exactly when the greatest common divisor
 * of its generators is not a power of D (Massey and Sain).
 */
int cc_catastrophic(const cc_code *c)
{
    unsigned g = cc_poly_gcd(c->poly[0], c->poly[1]);

    return (g & (g - 1u)) != 0;
}
