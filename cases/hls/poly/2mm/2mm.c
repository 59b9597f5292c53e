/*
 * 2mm.c - two chained matrix products, D := alpha*A*B*C + beta*D
 *
 * Specification: composition of two Level 3 BLAS xGEMM operations
 * (Dongarra et al., ACM TOMS 16(1), 1990): first T := alpha*(A*B), then
 * D := T*C + beta*D.  Double precision.
 */
#include <stdio.h>

#define NI 16
#define NJ 18
#define NK 22
#define NL 20

static double A[NI][NK];
static double B[NK][NJ];
static double C[NJ][NL];
static double D[NI][NL];

static void init_data(double *alpha, double *beta)
{
    *alpha = 1.5;
    *beta = 1.2;
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (double)((i * k + 1) % NI) / NI;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (double)(k * (j + 1) % NJ) / NJ;
    for (int j = 0; j < NJ; j++)
        for (int l = 0; l < NL; l++)
            C[j][l] = (double)((j * (l + 3) + 1) % NL) / NL;
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            D[i][l] = (double)(i * (l + 2) % NK) / NK;
}

static void kernel_2mm(double alpha, double beta)
{
    double T[NI][NJ];

    /* T := alpha * A * B */
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++) {
            T[i][j] = 0.0;
            for (int k = 0; k < NK; k++)
                T[i][j] += alpha * A[i][k] * B[k][j];
        }
    }
    /* D := T * C + beta * D */
    for (int i = 0; i < NI; i++) {
        for (int l = 0; l < NL; l++) {
            D[i][l] *= beta;
            for (int j = 0; j < NJ; j++)
                D[i][l] += T[i][j] * C[j][l];
        }
    }
}

int main(void)
{
    double alpha, beta;
    init_data(&alpha, &beta);
    kernel_2mm(alpha, beta);
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            printf("%.17g%c", D[i][l], l == NL - 1 ? '\n' : ' ');
    return 0;
}
