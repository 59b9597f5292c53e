/*
 * traceback.c -- survivor memory and traceback of the Viterbi decoder.
 *
 * Every trellis step stores one word of decision bits, bit s being the
 * decision of state s: 0 when its survivor came from the predecessor with
 * low bit 0, 1 when it came from the one with low bit 1.  The words live
 * in a ring of VIT_RING columns, column t holding step t (t counted from
 * the start of the frame), so a traceback may reach back at most VIT_RING
 * steps.  The state after step t carries the input bit of step t in its
 * top bit (bit K-2).
 */
#include "codec.h"

void tb_clear(tb_mem *m)
{
    int i;

    for (i = 0; i < VIT_RING; i++)
        m->dec[i] = 0;
    m->count = 0;
}

void tb_store(tb_mem *m, uint64_t decisions)
{
    m->dec[m->count & (VIT_RING - 1)] = decisions;
    m->count++;
}

/* decision of state `state` at step t */
int tb_decision(const tb_mem *m, int t, int state)
{
    return (int)((m->dec[t & (VIT_RING - 1)] >> state) & 1u);
}

/* the state before a step, from the state after it and its decision */
int tb_prev(int state, int decision, int k)
{
    return ((state << 1) | decision) & ((1 << (k - 1)) - 1);
}

/* the input bit that led into a state */
int tb_bit(int state, int k)
{
    return (state >> (k - 2)) & 1;
}

/* the state of least metric, the lowest such state on ties */
int tb_best(const uint16_t *pm, int nstates)
{
    int s, best = 0;

    for (s = 1; s < nstates; s++) {
        if (pm[s] < pm[best])
            best = s;
    }
    return best;
}

/*
 * Follows the survivor of `state` back from step t over `count` steps.
 * When bits is not null, bits[count-1] gets the input of step t, ...,
 * bits[0] the input of step t-count+1.  Returns the state before step
 * t-count+1, or -1 when those steps are not (or no longer) in the memory.
 */
int tb_walk(const tb_mem *m, int k, int state, int t, int count, uint8_t *bits)
{
    int i;

    if (count < 0 || count > VIT_RING || t >= m->count || t - count < -1 || m->count - (t - count + 1) > VIT_RING)
        return -1;
    for (i = count - 1; i >= 0; i--) {
        if (bits)
            bits[i] = (uint8_t)tb_bit(state, k);
        state = tb_prev(state, tb_decision(m, t, state), k);
        t--;
    }
    return state;
}
