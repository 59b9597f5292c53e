/*
 * floyd-warshall.c - all-pairs shortest paths on a weighted directed graph
 *
 * Specification: the Floyd-Warshall algorithm (R. W. Floyd, "Algorithm 97:
 * Shortest Path", CACM 5(6), 1962; Cormen, Leiserson, Rivest, Stein,
 * "Introduction to Algorithms", 3rd ed., section 25.2): for every
 * intermediate vertex k, d(i,j) := min(d(i,j), d(i,k) + d(k,j)).
 * Missing edges carry the weight NOEDGE, large enough never to win but
 * small enough that NOEDGE + NOEDGE does not overflow.  Integer arithmetic.
 */
#include <stdio.h>
#include <stdint.h>

#define N 24
#define NOEDGE (1 << 24)

typedef int32_t dist_t;

static dist_t path[N][N];

static void init_graph(void)
{
    /* flattened initialisation loop: one edge per iteration */
    for (int idx = 0; idx < N * N; idx++) {
        int i = idx / N;
        int j = idx % N;
        dist_t w = ((i * 3 + j * 5) % 7 + 1) * 977 + (i ^ j);
        if (i == j)
            w = 0;
        else if ((i * j + i + j) % 5 == 0)
            w = NOEDGE;
        path[i][j] = w;
    }
}

static void kernel_floyd_warshall(void)
{
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                dist_t via = path[i][k] + path[k][j];
                if (via < path[i][j])
                    path[i][j] = via;
            }
}

int main(void)
{
    init_graph();
    kernel_floyd_warshall();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            printf("%ld%c", (long)path[i][j], j == N - 1 ? '\n' : ' ');
    return 0;
}
