/*
 * sparse.h -- interface of the sparse linear solver library.
 *
 * Matrices are assembled as coordinate (COO) triplets, converted to
 * compressed sparse rows (CSR) with the entries of every row sorted by
 * column and duplicates summed, and solved with preconditioned conjugate
 * gradients (symmetric positive definite matrices) or BiCGSTAB (general
 * matrices).  All storage is static and bounded by the limits below.
 */
#ifndef SPARSE_H
#define SPARSE_H

#include <stdint.h>

#define SP_MAX_N    400                 /* rows and columns */
#define SP_MAX_NNZ  8192                /* stored entries (CSR, and COO triplets) */
#define SP_MAX_ITER 400                 /* Krylov iterations */
#define SP_REPLACE  10.0                /* sp_solve restarts when the true residual exceeds this many tolerances */

/* coordinate form: triplets in any order, duplicates allowed */
typedef struct {
    int nrows, ncols, nnz;
    int row[SP_MAX_NNZ];
    int col[SP_MAX_NNZ];
    double val[SP_MAX_NNZ];
} coo_t;

/* compressed sparse rows: row i holds entries rowptr[i] .. rowptr[i+1]-1 */
typedef struct {
    int nrows, ncols, nnz;
    int rowptr[SP_MAX_N + 1];
    int col[SP_MAX_NNZ];
    double val[SP_MAX_NNZ];
} csr_t;

enum sp_pc { SP_PC_NONE = 0, SP_PC_JACOBI = 1, SP_PC_ILU0 = 2, SP_PC_SGS = 3 };

/* a preconditioner M, applied as z = M^-1 r */
typedef struct {
    int kind;                           /* enum sp_pc */
    int n;
    double omega;                       /* SGS relaxation factor, 0 < omega < 2 */
    double inv_diag[SP_MAX_N];          /* Jacobi and SGS: 1 / a_ii */
    int diag[SP_MAX_N];                 /* ILU(0) and SGS: position of a_ii in the row */
    csr_t f;                            /* ILU(0): L (unit, strictly lower) and U in A's pattern; SGS: A */
} precond_t;

/* solver controls and report */
typedef struct {
    int max_iter;                       /* 0..SP_MAX_ITER */
    double tol;                         /* stop when ||r|| <= tol * ||b|| (tol >= 0) */
} sp_opts;

typedef struct {
    int iters;                          /* iterations done */
    int status;                         /* SP_CONVERGED, SP_MAX_ITERS or a breakdown */
    double bnorm;                       /* ||b||_2 */
    double rnorm;                       /* ||b - A x||_2 of the returned x, recomputed */
    double hist[SP_MAX_ITER + 2];       /* recurrence residual norm before each iteration and at the end (sp_solve: of both runs) */
    int nhist;
} sp_stats;

enum sp_status {
    SP_CONVERGED = 0,
    SP_MAX_ITERS = 1,
    SP_BREAKDOWN_PAP = -1,              /* CG: p'Ap <= 0 */
    SP_BREAKDOWN_RHO = -2,              /* BiCGSTAB: rho = 0 */
    SP_BREAKDOWN_OMEGA = -3,            /* BiCGSTAB: omega = 0 or t't = 0 */
    SP_BAD_INPUT = -4
};

/* csr.c */
int coo_init(coo_t *a, int nrows, int ncols);
int coo_add(coo_t *a, int i, int j, double v);
int csr_from_coo(const coo_t *a, csr_t *m, int drop_zeros);
int csr_check(const csr_t *m);
int csr_transpose(const csr_t *a, csr_t *t);
double csr_get(const csr_t *m, int i, int j);
int csr_find(const csr_t *m, int i, int j);
int csr_diag(const csr_t *m, double *d);
int csr_symmetric(const csr_t *m, double tol);
int csr_add(double alpha, const csr_t *a, double beta, const csr_t *b, csr_t *c);
void csr_scale(csr_t *m, const double *dl, const double *dr);

/* spmv.c */
void spmv(const csr_t *a, const double *x, double *y);
void spmv_t(const csr_t *a, const double *x, double *y);
void spmv_axpby(const csr_t *a, double alpha, const double *x, double beta, double *y);
double vec_dot(const double *x, const double *y, int n);
double vec_norm2(const double *x, int n);
double vec_norm_inf(const double *x, int n);
void vec_axpy(double alpha, const double *x, double *y, int n);
void vec_xpby(const double *x, double beta, double *y, int n);
void vec_copy(const double *x, double *y, int n);
void vec_fill(double v, double *x, int n);
double residual(const csr_t *a, const double *x, const double *b, double *r);

/* precond.c */
int pc_setup(precond_t *p, const csr_t *a, int kind, double omega);
void pc_apply(const precond_t *p, const double *r, double *z);
int ilu0_factor(csr_t *lu, int *diag);
void ilu0_solve(const csr_t *lu, const int *diag, const double *r, double *z);
void gs_sweep(const csr_t *a, const int *diag, const double *b, double *x, double omega, int forward);
int gs_solve(const csr_t *a, const double *b, double *x, const sp_opts *o, sp_stats *st);

/* krylov.c */
int cg_solve(const csr_t *a, const precond_t *m, const double *b, double *x, const sp_opts *o, sp_stats *st);
int bicgstab_solve(const csr_t *a, const precond_t *m, const double *b, double *x, const sp_opts *o, sp_stats *st);
int sp_solve(const csr_t *a, int method, int pc_kind, double omega, const double *b, double *x, const sp_opts *o,
             sp_stats *st);

/* gen.c */
uint32_t gen_next(uint32_t *state);
double gen_uniform(uint32_t *state);
int gen_poisson2d(coo_t *a, int nx, int ny);
int gen_random_spd(coo_t *a, int n, int per_row, double shift, uint32_t seed);
int gen_convdiff2d(coo_t *a, int nx, int ny, double cx, double cy);
int gen_rhs(const csr_t *a, int kind, double *x_true, double *b);

#endif
