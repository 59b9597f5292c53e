/* glue_viterbi.c - connects viterbi() to the mach data harness. */
#include <math.h>

#include "harness.h"
#include "viterbi.h"

int h_kernel(void)
{
    const uint8_t *obs = h_input("obs", HT_U8, N_OBS);
    const double *init = h_input("init", HT_F64, N_STATES);
    const double *trans = h_input("trans", HT_F64, N_STATES * N_STATES);
    const double *emit = h_input("emit", HT_F64, N_STATES * N_TOKENS);
    double *cost = h_buffer("cost", HT_F64, N_OBS * N_STATES);
    uint8_t *back = h_buffer("back", HT_U8, N_OBS * N_STATES);
    uint8_t *path = h_buffer("path", HT_U8, N_OBS);
    double *best = h_buffer("best", HT_F64, 1);

    viterbi(obs, init, trans, emit, cost, back, path, best);
    h_output("path", HT_U8, path, N_OBS);
    h_output("best", HT_F64, best, 1);
    return 0;
}

/* Costs -log p of a random distribution over n outcomes. */
static void neg_log_distribution(double *cost, int n)
{
    double total = 0.0;
    int i;

    for (i = 0; i < n; i++) {
        cost[i] = h_uniform(0.05, 1.0);
        total += cost[i];
    }
    for (i = 0; i < n; i++)
        cost[i] = -log(cost[i] / total);
}

/* One cost table by pattern: random distributions, all equal, small
 * integers (many ties), one cheap entry per row, or large values. */
static void cost_table(double *t, int rows, int cols, unsigned pattern)
{
    int r, c;

    for (r = 0; r < rows; r++) {
        neg_log_distribution(t + r * cols, cols);
        for (c = 0; c < cols; c++) {
            if (pattern == 1)
                t[r * cols + c] = 1.5;
            else if (pattern == 2)
                t[r * cols + c] = (double)h_below(4);
            else if (pattern == 3)  /* one allowed successor per row, the others forbidden */
                t[r * cols + c] = c == (r * 2 + 3) % cols ? 0.25 : HUGE_VAL;
            else if (pattern == 6)
                t[r * cols + c] = h_uniform(0.0, 100.0);
        }
    }
}

/* --seed N: the model and observations N % 8 picks: 0 random
 * distributions, 1 all costs equal (every minimum ties), 2 small integer
 * costs (many ties), 3 one allowed transition per state (the others cost
 * +infinity, some states cannot be reached) and a token no state emits near
 * the end (every path ends at +infinity, so all minima tie), 4 one repeated
 * observation, 5 only the first and last token, 6 large costs, 7 the last
 * state favoured throughout (cheap start, cheap entry from every state, cheap
 * emissions), so the cheapest final state is the last one. */
int h_generate(uint64_t seed)
{
    unsigned pattern = (unsigned)(seed % 8);
    uint8_t *obs = h_define("obs", HT_U8, N_OBS);
    double *init = h_define("init", HT_F64, N_STATES);
    double *trans = h_define("trans", HT_F64, N_STATES * N_STATES);
    double *emit = h_define("emit", HT_F64, N_STATES * N_TOKENS);
    uint8_t token = (uint8_t)h_below(N_TOKENS);
    int t;

    cost_table(init, 1, N_STATES, pattern);
    cost_table(trans, N_STATES, N_STATES, pattern);
    cost_table(emit, N_STATES, N_TOKENS, pattern == 3 ? 0 : pattern);
    if (pattern == 3)  /* the last token cannot be emitted: every path ends impossible */
        for (t = 0; t < N_STATES; t++)
            emit[(t << LOG_TOKENS) | (N_TOKENS - 1)] = HUGE_VAL;
    if (pattern == 7) {
        init[N_STATES - 1] = 0.01;
        for (t = 0; t < N_STATES; t++)
            trans[(t << LOG_STATES) | (N_STATES - 1)] = 0.01;
        for (t = 0; t < N_TOKENS; t++)
            emit[((N_STATES - 1) << LOG_TOKENS) | t] = 0.01;
    }
    for (t = 0; t < N_OBS; t++)
        obs[t] = pattern == 4 ? token : pattern == 5 ? (uint8_t)(h_below(2) ? N_TOKENS - 1 : 0)
               : (uint8_t)h_below(N_TOKENS);
    if (pattern == 3)
        obs[N_OBS - 1 - (int)h_below(4)] = N_TOKENS - 1;
    return 0;
}
