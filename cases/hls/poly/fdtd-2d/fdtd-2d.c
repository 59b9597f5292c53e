/*
 * fdtd-2d.c - 2-D finite-difference time-domain kernel (TE mode)
 *
 * Specification: Yee's staggered-grid leapfrog scheme (K. S. Yee, IEEE
 * Trans. Antennas Propag. 14(3), 1966; Taflove and Hagness, "Computational
 * Electrodynamics", ch. 3) in normalised units: each time step drives the
 * first row of Ey with a source value, updates Ey and Ex from the curl of
 * Hz with coefficient 1/2, then updates Hz from the curl of E with
 * coefficient 0.7.  Double precision.
 *
 * Interface: kernel_fdtd_2d() is the design's top function; the dataset size
 * is fixed at compile time (-DTMAX=.. -DNX=.. -DNY=..).
 */
#ifndef TMAX
#define TMAX 12
#endif
#ifndef NX
#define NX 20
#endif
#ifndef NY
#define NY 24
#endif

void kernel_fdtd_2d(double ex[NX][NY], double ey[NX][NY], double hz[NX][NY], double fict[TMAX])
{
    for (int t = 0; t < TMAX; t++) {
        for (int j = 0; j < NY; j++)
            ey[0][j] = fict[t];
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] -= 0.5 * (hz[i][j] - hz[i - 1][j]);
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] -= 0.5 * (hz[i][j] - hz[i][j - 1]);
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++)
                hz[i][j] -= 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
}
