/*
 * 3mm.c - three matrix products, G := (A*B) * (C*D)
 *
 * Specification: three Level 3 BLAS xGEMM operations with alpha = 1,
 * beta = 0 (Dongarra et al., ACM TOMS 16(1), 1990): E := A*B, F := C*D,
 * G := E*F.  Double precision.
 */
#include <stdio.h>

#define NI 16
#define NJ 18
#define NK 20
#define NL 22
#define NM 24

static double A[NI][NK];
static double B[NK][NJ];
static double C[NJ][NM];
static double D[NM][NL];
static double E[NI][NJ];
static double F[NJ][NL];
static double G[NI][NL];

static void init_data(void)
{
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (double)((i * k + 1) % NI) / (5 * NI);
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (double)((k * (j + 1) + 2) % NJ) / (5 * NJ);
    for (int j = 0; j < NJ; j++)
        for (int m = 0; m < NM; m++)
            C[j][m] = (double)(j * (m + 3) % NL) / (5 * NL);
    for (int m = 0; m < NM; m++)
        for (int l = 0; l < NL; l++)
            D[m][l] = (double)((m * (l + 2) + 2) % NK) / (5 * NK);
}

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

static void kernel_3mm(void)
{
    matmul(NI, NK, NJ, &A[0][0], &B[0][0], &E[0][0]);
    matmul(NJ, NM, NL, &C[0][0], &D[0][0], &F[0][0]);
    matmul(NI, NJ, NL, &E[0][0], &F[0][0], &G[0][0]);
}

int main(void)
{
    init_data();
    kernel_3mm();
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            printf("%.17g%c", G[i][l], l == NL - 1 ? '\n' : ' ');
    return 0;
}
