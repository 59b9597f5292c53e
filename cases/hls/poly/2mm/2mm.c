/*
 * 2mm.c - two chained matrix products, D := alpha*A*B*C + beta*D
 *
 * Specification: composition of two Level 3 BLAS xGEMM operations
 * (Dongarra et al., ACM TOMS 16(1), 1990): first T := alpha*(A*B), then
 * D := T*C + beta*D.  Double precision.
 *
 * Interface: kernel_2mm() is the design's top function; the dataset size is
 * fixed at compile time (-DNI=.. -DNJ=.. -DNK=.. -DNL=..).
 */
#ifndef NI
#define NI 16
#endif
#ifndef NJ
#define NJ 18
#endif
#ifndef NK
#define NK 22
#endif
#ifndef NL
#define NL 20
#endif

void kernel_2mm(double alpha, double beta, double D[NI][NL],
                double A[NI][NK], double B[NK][NJ], double C[NJ][NL])
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
