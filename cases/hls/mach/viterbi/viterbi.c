/*
 * viterbi.c - most likely hidden-state sequence of a hidden Markov model.
 *
 * Specification: the Viterbi algorithm (Viterbi, IEEE Trans. Inf. Theory 13
 * (1967) 260-269; Rabiner, Proc. IEEE 77 (1989) 257-286, Section III-B) in
 * the negative-log domain, where probabilities become additive costs:
 *     cost[0][s] = init[s] + emit[s][obs[0]]
 *     cost[t][s] = min over p of (cost[t-1][p] + trans[p][s]) + emit[s][obs[t]]
 * back[t][s] records the minimising p (lowest p on ties); the path is read
 * back from the cheapest final state.  All tables use shift indexing:
 * trans[p][s] = trans[(p << LOG_STATES) | s], emit[s][o] = emit[(s << LOG_TOKENS) | o],
 * cost[t][s] = cost[(t << LOG_STATES) | s].
 */
#include <math.h>
#include "viterbi.h"

void viterbi(const uint8_t *obs, const double *init, const double *trans,
             const double *emit, double *cost, uint8_t *back, uint8_t *path,
             double *best)
{
    int t, s, p, arg;
    double c, m;

    for (s = 0; s < N_STATES; s++)
        cost[s] = init[s] + emit[(s << LOG_TOKENS) | obs[0]];

    for (t = 1; t < N_OBS; t++) {
        for (s = 0; s < N_STATES; s++) {
            m = HUGE_VAL;
            arg = 0;
            for (p = 0; p < N_STATES; p++) {
                c = cost[((t - 1) << LOG_STATES) | p] + trans[(p << LOG_STATES) | s];
                if (c < m) {
                    m = c;
                    arg = p;
                }
            }
            cost[(t << LOG_STATES) | s] = m + emit[(s << LOG_TOKENS) | obs[t]];
            back[(t << LOG_STATES) | s] = (uint8_t)arg;
        }
    }

    /* cheapest final state */
    m = HUGE_VAL;
    arg = 0;
    for (s = 0; s < N_STATES; s++) {
        c = cost[((N_OBS - 1) << LOG_STATES) | s];
        if (c < m) {
            m = c;
            arg = s;
        }
    }
    *best = m;

    /* follow the back pointers */
    path[N_OBS - 1] = (uint8_t)arg;
    for (t = N_OBS - 1; t > 0; t--)
        path[t - 1] = back[(t << LOG_STATES) | path[t]];
}
