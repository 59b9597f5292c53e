/* gemm_blocked.h - sizes and entry point of the tiled matrix product. */
#ifndef GEMM_BLOCKED_H
#define GEMM_BLOCKED_H

#define LOG_N 5                        /* matrices are N x N, N = 2^LOG_N */
#define GEMM_N (1 << LOG_N)
#define LOG_T 3                        /* tiles are T x T, T = 2^LOG_T */
#define TILE (1 << LOG_T)

void gemm_blocked(const double *a, const double *b, double *c);

#endif
