/*
 * precond.c -- preconditioners and the Gauss-Seidel iteration.
 *
 *   Jacobi:  M = D.
 *   ILU(0):  M = L U with L unit lower triangular and U upper triangular,
 *            both restricted to the pattern of A (Saad, Iterative Methods
 *            for Sparse Linear Systems, Algorithm 10.4), stored together
 *            in a copy of A: entries left of the diagonal hold L, the rest
 *            U.
 *   SGS:     symmetric successive over-relaxation: one forward and one
 *            backward SOR sweep for A z = r from z = 0, which applies
 *            M^-1 with M = w/(2-w) (D/w + L) (D/w)^-1 (D/w + U).
 */
#include "sparse.h"

/* diagonal positions of a square matrix; returns the first row without a non-zero diagonal, or -1 */
static int pc_find_diag(const csr_t *a, int *diag)
{
    int i;

    for (i = 0; i < a->nrows; i++) {
        diag[i] = csr_find(a, i, i);
        if (diag[i] < 0 || a->val[diag[i]] == 0.0)
            return i;
    }
    return -1;
}

static void pc_copy(const csr_t *a, csr_t *f)
{
    int i;

    f->nrows = a->nrows;
    f->ncols = a->ncols;
    f->nnz = a->nnz;
    for (i = 0; i <= a->nrows; i++)
        f->rowptr[i] = a->rowptr[i];
    for (i = 0; i < a->nnz; i++) {
        f->col[i] = a->col[i];
        f->val[i] = a->val[i];
    }
}

/*
 * In-place ILU(0) of a matrix whose diagonal positions are known.
 * Returns 0, or -1 - i when the pivot of row i is zero.
 */
int ilu0_factor(csr_t *lu, int *diag)
{
    static int pos[SP_MAX_N];
    int n = lu->nrows, i, kk, jj;

    for (i = 0; i < n; i++)
        pos[i] = -1;
    for (i = 0; i < n; i++) {
        for (kk = lu->rowptr[i]; kk < lu->rowptr[i + 1]; kk++)
            pos[lu->col[kk]] = kk;
        for (kk = lu->rowptr[i]; kk < diag[i]; kk++) {
            int k = lu->col[kk];
            double lik = lu->val[kk] / lu->val[diag[k]];   /* pivot k was checked with row k */
            lu->val[kk] = lik;
            for (jj = diag[k] + 1; jj < lu->rowptr[k + 1]; jj++) {
                int p = pos[lu->col[jj]];
                if (p >= 0)
                    lu->val[p] -= lik * lu->val[jj];
            }
        }
        for (kk = lu->rowptr[i]; kk < lu->rowptr[i + 1]; kk++)
            pos[lu->col[kk]] = -1;
        if (lu->val[diag[i]] == 0.0)
            return -1 - i;
    }
    return 0;
}

/* z = (L U)^-1 r: forward substitution with unit L, back substitution with U */
void ilu0_solve(const csr_t *lu, const int *diag, const double *r, double *z)
{
    int n = lu->nrows, i, k;

    for (i = 0; i < n; i++) {
        double s = r[i];
        for (k = lu->rowptr[i]; k < diag[i]; k++)
            s -= lu->val[k] * z[lu->col[k]];
        z[i] = s;
    }
    for (i = n - 1; i >= 0; i--) {
        double s = z[i];
        for (k = diag[i] + 1; k < lu->rowptr[i + 1]; k++)
            s -= lu->val[k] * z[lu->col[k]];
        z[i] = s / lu->val[diag[i]];
    }
}

/*
 * One SOR sweep for A x = b, in place: forward (rows 0..n-1) or backward
 * (rows n-1..0), x_i = (1 - w) x_i + w (b_i - sum_{j != i} a_ij x_j) / a_ii.
 */
void gs_sweep(const csr_t *a, const int *diag, const double *b, double *x, double omega, int forward)
{
    int n = a->nrows, step = forward ? 1 : -1, i = forward ? 0 : n - 1, c, k;

    for (c = 0; c < n; c++, i += step) {
        double s = b[i];
        for (k = a->rowptr[i]; k < a->rowptr[i + 1]; k++) {
            if (k != diag[i])
                s -= a->val[k] * x[a->col[k]];
        }
        x[i] = (1.0 - omega) * x[i] + omega * s / a->val[diag[i]];
    }
}

/*
 * Sets up a preconditioner for a square matrix.  Returns 0, -1 for a
 * matrix that is not square or not valid CSR, -2 for a zero or missing
 * diagonal entry (or a zero ILU pivot), -3 for omega outside (0, 2),
 * -4 for an unknown kind.
 */
int pc_setup(precond_t *p, const csr_t *a, int kind, double omega)
{
    int i;

    if (a->nrows != a->ncols || csr_check(a) != 0)
        return -1;
    if (kind < SP_PC_NONE || kind > SP_PC_SGS)
        return -4;
    p->kind = kind;
    p->n = a->nrows;
    p->omega = omega;
    if (kind == SP_PC_NONE)
        return 0;
    if (kind == SP_PC_SGS && !(omega > 0.0 && omega < 2.0))
        return -3;
    pc_copy(a, &p->f);
    if (pc_find_diag(&p->f, p->diag) >= 0)
        return -2;
    for (i = 0; i < p->n; i++)
        p->inv_diag[i] = 1.0 / p->f.val[p->diag[i]];
    if (kind == SP_PC_ILU0 && ilu0_factor(&p->f, p->diag) != 0)
        return -2;
    return 0;
}

/* z = M^-1 r */
void pc_apply(const precond_t *p, const double *r, double *z)
{
    int i;

    switch (p->kind) {
    case SP_PC_JACOBI:
        for (i = 0; i < p->n; i++)
            z[i] = r[i] * p->inv_diag[i];
        break;
    case SP_PC_ILU0:
        ilu0_solve(&p->f, p->diag, r, z);
        break;
    case SP_PC_SGS:
        vec_fill(0.0, z, p->n);
        gs_sweep(&p->f, p->diag, r, z, p->omega, 1);
        gs_sweep(&p->f, p->diag, r, z, p->omega, 0);
        break;
    default:
        vec_copy(r, z, p->n);
        break;
    }
}

/*
 * Gauss-Seidel iteration (forward sweeps, w = 1) from the x given, until
 * ||b - A x|| <= tol ||b|| or max_iter sweeps.  Returns the status.
 */
int gs_solve(const csr_t *a, const double *b, double *x, const sp_opts *o, sp_stats *st)
{
    static int diag[SP_MAX_N];
    static double r[SP_MAX_N];
    double target;
    int it;

    st->iters = 0;
    st->nhist = 0;
    st->bnorm = 0.0;
    st->rnorm = 0.0;
    if (a->nrows != a->ncols || csr_check(a) != 0 || o->max_iter < 0 || o->max_iter > SP_MAX_ITER ||
        !(o->tol >= 0.0) || pc_find_diag(a, diag) >= 0) {
        st->status = SP_BAD_INPUT;
        return SP_BAD_INPUT;
    }
    st->bnorm = vec_norm2(b, a->nrows);
    target = o->tol * st->bnorm;
    st->rnorm = residual(a, x, b, r);
    st->status = SP_MAX_ITERS;
    for (it = 0;; it++) {
        st->hist[st->nhist++] = st->rnorm;
        if (st->rnorm <= target) {
            st->status = SP_CONVERGED;
            break;
        }
        if (it == o->max_iter)
            break;
        gs_sweep(a, diag, b, x, 1.0, 1);
        st->rnorm = residual(a, x, b, r);
        st->iters = it + 1;
    }
    return st->status;
}
