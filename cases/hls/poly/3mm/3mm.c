/*
 * 3mm.c - three matrix products, G := (A*B) * (C*D)
 *
 * Specification: three Level 3 BLAS xGEMM operations with alpha = 1,
 * beta = 0 (Dongarra et al., ACM TOMS 16(1), 1990): E := A*B, F := C*D,
 * G := E*F.  Double precision.
 *
 * Interface: kernel_3mm() is the design's top function; the dataset size is
 * fixed at compile time (-DNI=.. -DNJ=.. -DNK=.. -DNL=.. -DNM=..).
 */
#ifndef NI
#define NI 16
#endif
#ifndef NJ
#define NJ 18
#endif
#ifndef NK
#define NK 20
#endif
#ifndef NL
#define NL 22
#endif
#ifndef NM
#define NM 24
#endif

/* Out := X * Y for row-major X (rows x inner) and Y (inner x cols) */
static void matmul(int rows, int inner, int cols,
                   const double *X, const double *Y, double *Out)
{
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            double acc = 0.0;
            for (int t = 0; t < inner; t++)
                acc += X[r * inner + t] * Y[t * cols + c];
            Out[r * cols + c] = acc;
        }
    }
}

void kernel_3mm(double E[NI][NJ], double F[NJ][NL], double G[NI][NL],
                double A[NI][NK], double B[NK][NJ], double C[NJ][NM], double D[NM][NL])
{
    matmul(NI, NK, NJ, &A[0][0], &B[0][0], &E[0][0]);
    matmul(NJ, NM, NL, &C[0][0], &D[0][0], &F[0][0]);
    matmul(NI, NJ, NL, &E[0][0], &F[0][0], &G[0][0]);
}
