/* md_knn.h - sizes and entry point of the neighbour-list Lennard-Jones force kernel. */
#ifndef MD_KNN_H
#define MD_KNN_H

#include <stdint.h>

#define N_ATOMS 64
#define LOG_NEIGH 3
#define MAX_NEIGH (1 << LOG_NEIGH)     /* neighbours listed per atom */

void md_knn(const double *px, const double *py, const double *pz, const int32_t *nl,
            double *fx, double *fy, double *fz);

#endif
