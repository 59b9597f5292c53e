/*
 * bfs.c - breadth-first search over a directed graph in CSR form.
 *
 * Specification: queue-based breadth-first search (Cormen, Leiserson, Rivest
 * & Stein, Introduction to Algorithms, 3rd ed., Section 22.2): level[v] is
 * the number of edges on a shortest path from the start node, UNREACHED for
 * nodes that cannot be reached, and level_count[l] counts the nodes at level
 * l.  The out-edges of node v are edge_dst[edge_begin[v] .. edge_begin[v+1]-1]
 * (compressed sparse row storage).  Discovered nodes are marked in a bitset:
 * node v is bit (v & 31) of word visited[v >> 5].
 */
#include "bfs.h"

void bfs(const int32_t *edge_begin, const int32_t *edge_dst, int32_t start,
         int32_t *level, int32_t *level_count, int32_t *queue, uint32_t *visited)
{
    int n, v, w, head, tail;
    int32_t e;

    for (n = 0; n < (N_NODES >> 5); n++) {
        visited[n] = 0;
    }
    for (n = 0; n < N_NODES; n++) {
        level[n] = UNREACHED;
    }
    for (n = 0; n < MAX_LEVELS; n++) {
        level_count[n] = 0;
    }

    head = 0;
    tail = 0;
    queue[tail++] = start;
    visited[start >> 5] |= 1u << (start & 31);
    level[start] = 0;

    while (head != tail) {
        v = queue[head++];
        level_count[level[v]]++;
        for (e = edge_begin[v]; e < edge_begin[v + 1]; e++) {
            w = edge_dst[e];
            if (!(visited[w >> 5] & (1u << (w & 31)))) {
                visited[w >> 5] |= 1u << (w & 31);
                level[w] = level[v] + 1;
                queue[tail++] = w;
            }
        }
    }
}
