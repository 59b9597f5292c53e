/* glue_md_knn.c - connects md_knn() to the mach data harness. */
#include <math.h>

#include "harness.h"
#include "md_knn.h"

int h_kernel(void)
{
    const double *px = h_input("pos_x", HT_F64, N_ATOMS);
    const double *py = h_input("pos_y", HT_F64, N_ATOMS);
    const double *pz = h_input("pos_z", HT_F64, N_ATOMS);
    const int32_t *nl = h_input("neighbours", HT_I32, N_ATOMS * MAX_NEIGH);
    double *fx = h_buffer("force_x", HT_F64, N_ATOMS);
    double *fy = h_buffer("force_y", HT_F64, N_ATOMS);
    double *fz = h_buffer("force_z", HT_F64, N_ATOMS);

    md_knn(px, py, pz, nl, fx, fy, fz);
    h_output("force_x", HT_F64, fx, N_ATOMS);
    h_output("force_y", HT_F64, fy, N_ATOMS);
    h_output("force_z", HT_F64, fz, N_ATOMS);
    return 0;
}

/* Atom positions on a side^3 lattice of spacing <a>, each coordinate moved
 * by up to +-<jitter>, in random order unless <keep_order>. */
static void lattice(double *px, double *py, double *pz, double a, double jitter, int keep_order)
{
    int32_t order[N_ATOMS];
    int i, side = 4;

    h_permutation(order, N_ATOMS);
    for (i = 0; i < N_ATOMS; i++) {
        int slot = keep_order ? i : order[i];
        px[i] = a * (slot % side) + h_uniform(-jitter, jitter);
        py[i] = a * (slot / side % side) + h_uniform(-jitter, jitter);
        pz[i] = a * (slot / (side * side)) + h_uniform(-jitter, jitter);
    }
}

/* The MAX_NEIGH nearest other atoms of atom i, nearest first (ties: the
 * lower index first). */
static void nearest(const double *px, const double *py, const double *pz, int i, int32_t *list)
{
    double d2[N_ATOMS], dx, dy, dz;
    int j, k, best;

    for (j = 0; j < N_ATOMS; j++) {
        dx = px[i] - px[j]; dy = py[i] - py[j]; dz = pz[i] - pz[j];
        d2[j] = j == i ? HUGE_VAL : dx * dx + dy * dy + dz * dz;
    }
    for (k = 0; k < MAX_NEIGH; k++) {
        best = -1;
        for (j = 0; j < N_ATOMS; j++)
            if (d2[j] < HUGE_VAL && (best < 0 || d2[j] < d2[best]))
                best = j;
        list[k] = best;
        d2[best] = HUGE_VAL;
    }
}

/* --seed N: the configuration N % 8 picks: 0 a jittered lattice with
 * nearest-neighbour lists, 1 a perfect lattice (forces cancel, distances
 * tie), 2 a wider, more disordered lattice, 3 random lists of distinct
 * other atoms, 4 a compressed lattice (strong repulsion), 5 lists farthest
 * first, 6 atoms in lattice order, 7 lists holding atoms 0 and 63. */
int h_generate(uint64_t seed)
{
    unsigned pattern = (unsigned)(seed % 8);
    double *px = h_define("pos_x", HT_F64, N_ATOMS);
    double *py = h_define("pos_y", HT_F64, N_ATOMS);
    double *pz = h_define("pos_z", HT_F64, N_ATOMS);
    int32_t *nl = h_define("neighbours", HT_I32, N_ATOMS * MAX_NEIGH);
    int32_t order[N_ATOMS], *list, t;
    int i, k, m;

    lattice(px, py, pz, pattern == 2 ? 1.5 : pattern == 4 ? 0.9 : 1.0,
            pattern == 1 ? 0.0 : pattern == 2 ? 0.3 : pattern == 4 ? 0.1 : 0.2, pattern == 6);
    for (i = 0; i < N_ATOMS; i++) {
        list = nl + (i << LOG_NEIGH);
        nearest(px, py, pz, i, list);
        if (pattern == 3) {
            h_permutation(order, N_ATOMS);
            for (k = 0, m = 0; k < MAX_NEIGH; m++)
                if (order[m] != i)
                    list[k++] = order[m];
        } else if (pattern == 5) {
            for (k = 0; k < MAX_NEIGH / 2; k++) {
                t = list[k]; list[k] = list[MAX_NEIGH - 1 - k]; list[MAX_NEIGH - 1 - k] = t;
            }
        } else if (pattern == 7) {
            if (i != 0)
                list[MAX_NEIGH - 1] = 0;
            if (i != N_ATOMS - 1)
                list[MAX_NEIGH - 2] = N_ATOMS - 1;
        }
    }
    return 0;
}
