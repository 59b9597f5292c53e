/*
 * floyd-warshall.c - all-pairs shortest paths on a weighted directed graph
 *
 * Specification: the Floyd-Warshall algorithm (R. W. Floyd, "Algorithm 97:
 * Shortest Path", CACM 5(6), 1962; Cormen, Leiserson, Rivest, Stein,
 * "Introduction to Algorithms", 3rd ed., section 25.2): for every
 * intermediate vertex k, d(i,j) := min(d(i,j), d(i,k) + d(k,j)).
 * Weights are non-negative; a missing edge carries a large weight (2^24),
 * large enough never to win but small enough that two of them sum without
 * overflow.  Integer arithmetic.
 *
 * Interface: kernel_floyd_warshall() is the design's top function; the
 * dataset size is fixed at compile time (-DN=..).
 */
#include <stdint.h>

#ifndef N
#define N 24
#endif

typedef int32_t dist_t;

void kernel_floyd_warshall(dist_t path[N][N])
{
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                dist_t via = path[i][k] + path[k][j];
                if (via < path[i][j])
                    path[i][j] = via;
            }
}
