/* glue_bfs.c - connects bfs() to the mach data harness.  The number of
 * edges is given by the "n_edges" parameter. */
#include <string.h>

#include "harness.h"
#include "bfs.h"

int h_kernel(void)
{
    size_t n_edges = (size_t)h_param("n_edges");
    const int32_t *edge_begin, *edge_dst;
    int32_t start = (int32_t)h_param("start");
    int32_t *level, *level_count, *queue;
    uint32_t *visited;

    if (n_edges > MAX_EDGES)
        return 2;
    edge_begin = h_input("edge_begin", HT_I32, N_NODES + 1);
    edge_dst = h_input("edge_dst", HT_I32, n_edges);
    level = h_buffer("level", HT_I32, N_NODES);
    level_count = h_buffer("level_count", HT_I32, MAX_LEVELS);
    queue = h_buffer("queue", HT_I32, N_NODES);
    visited = h_buffer("visited", HT_U32, N_NODES >> 5);

    bfs(edge_begin, edge_dst, start, level, level_count, queue, visited);
    h_output("level", HT_I32, level, N_NODES);
    h_output("level_count", HT_I32, level_count, MAX_LEVELS);
    return 0;
}

/* Out-degree and edge targets of the generated graph kinds. */
enum graph { G_RANDOM, G_EMPTY, G_DENSE, G_PATH, G_LOOPS, G_STAR, G_HALVES };

static int32_t graph_dst(enum graph g, int v, int e, const int32_t *order, int32_t start, int32_t prev)
{
    int pos;

    switch (g) {
    case G_DENSE:
        return (int32_t)h_below(N_NODES);
    case G_PATH:          /* order[k] -> order[k + 1]; other edges point back along the path */
        for (pos = 0; order[pos] != v; pos++)
            ;
        if (pos < MAX_LEVELS - 1 && e == 0)
            return order[pos + 1];
        return order[h_below(pos < MAX_LEVELS ? (uint64_t)pos + 1 : MAX_LEVELS)];
    case G_LOOPS:         /* self loops and repeated edges */
        return e % 3 == 1 ? v : e % 3 == 2 ? prev : (int32_t)h_below(N_NODES);
    case G_STAR:
        return v == start ? order[e] : start;
    case G_HALVES:        /* edges never leave the half a node is in */
        return (int32_t)((v & (N_NODES / 2)) | h_below(N_NODES / 2));
    default:
        return (int32_t)h_below(N_NODES);
    }
}

static int graph_degree(enum graph g, int v, int32_t start)
{
    switch (g) {
    case G_EMPTY:
        return 0;
    case G_DENSE:
        return MAX_EDGES / N_NODES;
    case G_PATH:
        return 1 + (int)h_below(2);
    case G_STAR:
        return v == start ? N_NODES : 0;
    default:
        return (int)h_below(7);
    }
}

/* Deepest BFS level of the graph (independent of the kernel); N_NODES when
 * some level would not fit the kernel's per-level histogram. */
static int graph_depth(const int32_t *begin, const int32_t *dst, int32_t start)
{
    int32_t level[N_NODES], queue[N_NODES];
    int head = 0, tail = 0, v, e, deepest = 0;

    for (v = 0; v < N_NODES; v++)
        level[v] = -1;
    level[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
        v = queue[head++];
        if (level[v] > deepest)
            deepest = level[v];
        for (e = begin[v]; e < begin[v + 1]; e++)
            if (level[dst[e]] < 0) {
                level[dst[e]] = level[v] + 1;
                queue[tail++] = dst[e];
            }
    }
    return deepest;
}

/* --seed N: the graph N % 8 picks: 0 random, 1 random from a non-zero
 * start, 2 no edges, 3 every node with the maximum degree, 4 a path through
 * 32 levels, 5 self loops and repeated edges, 6 a star, 7 two halves with
 * no edge between them.  Graphs deeper than the level histogram are drawn
 * again. */
int h_generate(uint64_t seed)
{
    static const enum graph kinds[8] = { G_RANDOM, G_RANDOM, G_EMPTY, G_DENSE, G_PATH, G_LOOPS, G_STAR, G_HALVES };
    enum graph g = kinds[seed % 8];
    int32_t begin[N_NODES + 1], dst[MAX_EDGES], order[N_NODES];
    int32_t start, *out;
    int v, e, deg, n, tries;

    for (tries = 0; tries < 100; tries++) {
        h_permutation(order, N_NODES);
        start = seed % 8 == 0 ? 0 : order[0];
        if (seed % 8 == 1 && start == 0)
            start = order[1];
        n = 0;
        for (v = 0; v < N_NODES; v++) {
            begin[v] = n;
            deg = graph_degree(g, v, start);
            for (e = 0; e < deg && n < MAX_EDGES; e++, n++)
                dst[n] = graph_dst(g, v, e, order, start, e ? dst[n - 1] : v);
        }
        begin[N_NODES] = n;
        if (graph_depth(begin, dst, start) < MAX_LEVELS)
            break;
    }
    if (tries == 100)
        return 1;
    h_define_param("n_edges", n);
    h_define_param("start", start);
    memcpy(h_define("edge_begin", HT_I32, N_NODES + 1), begin, sizeof begin);
    out = h_define("edge_dst", HT_I32, (size_t)n);
    memcpy(out, dst, (size_t)n * sizeof *dst);
    return 0;
}
