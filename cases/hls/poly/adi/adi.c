/*
 * adi.c - alternating direction implicit solver for the 2-D heat equation
 *
 * Specification: the Peaceman-Rachford ADI scheme (D. W. Peaceman and
 * H. H. Rachford, J. SIAM 3(1), 1955; LeVeque, "Finite Difference Methods
 * for Ordinary and Partial Differential Equations", 2007, section 9.8) for
 * u_t = u_xx + u_yy on the unit square with fixed boundary values.  Each
 * time step is two half steps, each implicit along one axis and explicit
 * along the other:
 *     (1 + r) v[i][j] - r/2 (v[i-1][j] + v[i+1][j])
 *         = (1 - r) u[i][j] + r/2 (u[i][j-1] + u[i][j+1])
 * and the same with the axes exchanged, r = dt / dx^2.  The tridiagonal
 * systems are solved with the Thomas algorithm (Golub and Van Loan,
 * "Matrix Computations", 4th ed., algorithm 4.3.6).  Double precision.
 *
 * Interface: kernel_adi() is the design's top function; U holds the grid,
 * V the half-step grid (its boundary equal to U's on entry).  The dataset
 * size is fixed at compile time (-DN=.. -DTSTEPS=..).
 */
#ifndef N
#define N 20
#endif
#ifndef TSTEPS
#define TSTEPS 6
#endif

/*
 * Solve lo*x[i-1] + di*x[i] + up*x[i+1] = rhs[i] for i = 1 .. n-2, with the
 * boundary values x[0] and x[n-1] given on entry.
 */
static void thomas(int n, double lo, double di, double up,
                   const double *rhs, double *x)
{
    double cp[N], dp[N];

    cp[0] = 0.0;
    dp[0] = x[0];
    for (int i = 1; i < n - 1; i++) {
        double m = di - lo * cp[i - 1];
        cp[i] = up / m;
        dp[i] = (rhs[i] - lo * dp[i - 1]) / m;
    }
    for (int i = n - 2; i >= 1; i--)
        x[i] = dp[i] - cp[i] * x[i + 1];
}

void kernel_adi(double U[N][N], double V[N][N])
{
    const double dx = 1.0 / (N - 1);
    const double dt = 0.05 / TSTEPS;
    const double r = dt / (dx * dx);
    double rhs[N], line[N];

    for (int t = 0; t < TSTEPS; t++) {
        /* implicit along i, explicit along j: U -> V */
        for (int j = 1; j < N - 1; j++) {
            for (int i = 0; i < N; i++) {
                rhs[i] = (1.0 - r) * U[i][j] + 0.5 * r * (U[i][j - 1] + U[i][j + 1]);
                line[i] = U[i][j];
            }
            thomas(N, -0.5 * r, 1.0 + r, -0.5 * r, rhs, line);
            for (int i = 1; i < N - 1; i++)
                V[i][j] = line[i];
        }
        /* implicit along j, explicit along i: V -> U */
        for (int i = 1; i < N - 1; i++) {
            for (int j = 0; j < N; j++) {
                rhs[j] = (1.0 - r) * V[i][j] + 0.5 * r * (V[i - 1][j] + V[i + 1][j]);
                line[j] = V[i][j];
            }
            thomas(N, -0.5 * r, 1.0 + r, -0.5 * r, rhs, line);
            for (int j = 1; j < N - 1; j++)
                U[i][j] = line[j];
        }
    }
}
