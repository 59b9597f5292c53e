/* bfs.h - sizes and entry point of the queue-based breadth-first search. */
#ifndef BFS_H
#define BFS_H

#include <stdint.h>

#define LOG_NODES 8
#define N_NODES (1 << LOG_NODES)
#define MAX_EDGES 2048                 /* capacity of the edge array */
#define MAX_LEVELS 32                  /* size of the per-level histogram */
#define UNREACHED (-1)

void bfs(const int32_t *edge_begin, const int32_t *edge_dst, int32_t start,
         int32_t *level, int32_t *level_count, int32_t *queue, uint32_t *visited);

#endif
