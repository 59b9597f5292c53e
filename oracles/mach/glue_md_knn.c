/* glue_md_knn.c - connects md_knn() to the mach data harness. */
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
