/*
 * md_knn.c - Lennard-Jones forces over a k-nearest-neighbour list.
 *
 * Specification: the 12-6 Lennard-Jones pair potential
 *     V(r) = 4 eps ((sigma/r)^12 - (sigma/r)^6)
 * whose force on atom i from atom j is F = -dV/dr along (r_i - r_j).  Written
 * with r2inv = 1/r^2 and r6inv = r2inv^3 (Allen & Tildesley, Computer
 * Simulation of Liquids, 2nd ed., Section 1.4.3 and Chapter 5):
 *     F_ij = (r_i - r_j) * r2inv * r6inv * (LJ1 * r6inv - LJ2),
 * with LJ1 = 48 eps sigma^12 and LJ2 = 24 eps sigma^6 (here eps = sigma = 1
 * scaled to LJ1 = 1.5, LJ2 = 2.0).  Each atom sums the forces of the
 * MAX_NEIGH atoms of its neighbour list; the list of atom i occupies
 * nl[(i << LOG_NEIGH) .. (i << LOG_NEIGH) + MAX_NEIGH - 1].
 */
#include "md_knn.h"

#define LJ1 1.5
#define LJ2 2.0

void md_knn(const double *px, const double *py, const double *pz, const int32_t *nl,
            double *fx, double *fy, double *fz)
{
    int i, j, n;
    double xi, yi, zi, dx, dy, dz;
    double r2, r2inv, r6inv, pot, f;
    double ax, ay, az;

    for (i = 0; i < N_ATOMS; i++) {
        xi = px[i];
        yi = py[i];
        zi = pz[i];
        ax = 0.0; ay = 0.0; az = 0.0;
        for (j = 0; j < MAX_NEIGH; j++) {
            n = nl[(i << LOG_NEIGH) + j];
            dx = xi - px[n];
            dy = yi - py[n];
            dz = zi - pz[n];
            r2 = dx * dx + dy * dy + dz * dz;
            r2inv = 1.0 / r2;
            r6inv = r2inv * r2inv * r2inv;
            pot = r6inv * (LJ1 * r6inv - LJ2);
            f = r2inv * pot;
            ax += dx * f;
            ay += dy * f;
            az += dz * f;
        }
        fx[i] = ax;
        fy[i] = ay;
        fz[i] = az;
    }
}
