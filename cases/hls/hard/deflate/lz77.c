/*
 * lz77.c -- LZ77 parsing with hash chains for the Deflate compressor.
 *
 * Every position with at least DF_MIN_MATCH bytes left is entered into a
 * hash table of 3-byte prefixes: head[h] holds the most recent position
 * with hash h, prev[pos & DF_WMASK] the position entered before it with
 * the same hash.  A search follows that chain from the newest candidate to
 * the oldest one still inside the 32 KiB window, for at most 'chain' links
 * (a quarter of that when the match in hand is already 'good'), and stops
 * early at a 'nice' length.  A 3-byte match further back than TOO_FAR is
 * not worth its distance code and is dropped.
 *
 * Levels 1..3 parse greedily: the longest match at the current position
 * is taken.  Levels 4..9 evaluate lazily: a match is only taken when the
 * next position does not offer a longer one; otherwise one literal is
 * written and the longer match becomes the candidate.  Level 0 writes
 * literals only.
 */
#include "deflate.h"

#define NIL       (-1)
#define TOO_FAR   4096

/* good, lazy, nice, chain, is_lazy for levels 0..9 */
static const df_level levels[10] = {
    { 0, 0, 0, 0, 0 },
    { 4, 4, 8, 4, 0 },
    { 4, 5, 16, 8, 0 },
    { 4, 6, 32, 32, 0 },
    { 4, 4, 16, 16, 1 },
    { 8, 16, 32, 32, 1 },
    { 8, 16, 128, 128, 1 },
    { 8, 32, 128, 256, 1 },
    { 32, 128, 258, 512, 1 },
    { 32, 258, 258, 1024, 1 }
};

static int32_t head[DF_HASH_SIZE];
static int32_t prev[DF_WSIZE];

typedef struct {
    const uint8_t *in;
    int n;
    df_level cfg;
    df_token *tok;
    int count;
    int max;
} parser;

void df_level_config(int level, df_level *cfg)
{
    *cfg = levels[level];
}

/* hash of the three bytes at p */
static int hash3(const uint8_t *p)
{
    uint32_t h = ((uint32_t)p[0] << 10) ^ ((uint32_t)p[1] << 5) ^ p[2];
    return (int)((h ^ (h >> DF_HASH_BITS)) & (DF_HASH_SIZE - 1));
}

static void insert(parser *ps, int pos)
{
    int h;

    if (ps->n - pos < DF_MIN_MATCH)
        return;
    h = hash3(ps->in + pos);
    prev[pos & DF_WMASK] = head[h];
    head[h] = pos;
}

/* length of the common prefix of in[a..] and in[b..], at most max */
int df_match_length(const uint8_t *in, int a, int b, int max)
{
    int len = 0;

    while (len < max && in[a + len] == in[b + len])
        len++;
    return len;
}

/* The longest match for pos among the chain of earlier positions; returns
 * its length (0 when none of at least DF_MIN_MATCH) and sets *dist.
 * 'have' is the length of the match already in hand. */
static int longest_match(const parser *ps, int pos, int have, int *dist)
{
    int max = ps->n - pos;
    int chain = ps->cfg.chain;
    int best = have < DF_MIN_MATCH - 1 ? DF_MIN_MATCH - 1 : have;
    int found = 0;
    int32_t cand;

    if (max < DF_MIN_MATCH)
        return 0;
    if (max > DF_MAX_MATCH)
        max = DF_MAX_MATCH;
    if (best >= max)
        return 0;       /* nothing longer can fit before the end */
    if (have >= ps->cfg.good)
        chain >>= 2;
    cand = head[hash3(ps->in + pos)];
    while (cand != NIL && pos - cand <= DF_WSIZE && chain-- > 0) {
        /* a cheap test on the byte that would make the match longer */
        if (ps->in[cand + best] == ps->in[pos + best]) {
            int len = df_match_length(ps->in, cand, pos, max);
            if (len > best) {
                best = len;
                *dist = pos - cand;
                found = 1;
                if (len >= ps->cfg.nice)
                    break;
            }
        }
        cand = prev[cand & DF_WMASK];
    }
    if (!found)
        return 0;
    if (best == DF_MIN_MATCH && *dist > TOO_FAR)
        return 0;
    return best;
}

static void emit(parser *ps, int len, int dist)
{
    if (ps->count < ps->max) {
        ps->tok[ps->count].len = (uint16_t)len;
        ps->tok[ps->count].dist = (uint16_t)dist;
    }
    ps->count++;
}

static void parse_greedy(parser *ps)
{
    int pos = 0;

    while (pos < ps->n) {
        int dist = 0;
        int len = longest_match(ps, pos, 0, &dist);
        if (len >= DF_MIN_MATCH) {
            int end = pos + len;
            emit(ps, len, dist);
            for (; pos < end; pos++)
                insert(ps, pos);
        } else {
            emit(ps, ps->in[pos], 0);
            insert(ps, pos);
            pos++;
        }
    }
}

static void parse_lazy(parser *ps)
{
    int pos = 0, pending = 0, prev_len = 0, prev_dist = 0;

    while (pos < ps->n) {
        int cur_len = 0, cur_dist = 0;
        if (!(pending && prev_len >= ps->cfg.lazy))
            cur_len = longest_match(ps, pos, pending ? prev_len : 0, &cur_dist);
        insert(ps, pos);
        if (pending && prev_len >= DF_MIN_MATCH && cur_len <= prev_len) {
            /* the match found at pos - 1 wins; pos - 1 and pos are entered */
            int end = pos - 1 + prev_len;
            emit(ps, prev_len, prev_dist);
            for (pos = pos + 1; pos < end; pos++)
                insert(ps, pos);
            pending = 0;
            prev_len = 0;
        } else {
            if (pending)
                emit(ps, ps->in[pos - 1], 0);
            pending = 1;
            prev_len = cur_len;
            prev_dist = cur_dist;
            pos++;
        }
    }
    if (pending)
        emit(ps, ps->in[ps->n - 1], 0);
}

/* Parses in[0..n-1] with the given level (0..9) into tokens; returns the
 * number of tokens (which may exceed max_tokens: only the first
 * max_tokens are stored). */
int df_lz77(const uint8_t *in, int n, int level, df_token *tok, int max_tokens)
{
    parser ps;
    int i;

    ps.in = in;
    ps.n = n;
    ps.tok = tok;
    ps.count = 0;
    ps.max = max_tokens;
    df_level_config(level, &ps.cfg);
    for (i = 0; i < DF_HASH_SIZE; i++)
        head[i] = NIL;
    if (level == 0) {
        for (i = 0; i < n; i++)
            emit(&ps, in[i], 0);
        return ps.count;
    }
    if (ps.cfg.is_lazy)
        parse_lazy(&ps);
    else
        parse_greedy(&ps);
    return ps.count;
}
