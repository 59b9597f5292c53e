/* glue_bfs.c - connects bfs() to the mach data harness.  The number of
 * edges is given by the "n_edges" parameter. */
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
