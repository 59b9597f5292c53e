/*
 * krylov.c -- preconditioned conjugate gradients and BiCGSTAB.
 *
 * Both start from the x they are given and stop when the residual norm of
 * the recurrence reaches tol * ||b||_2, after max_iter iterations, or on a
 * breakdown.  The residual norm before every iteration (and the one they
 * stop at) goes into st->hist; st->rnorm is the true residual
 * ||b - A x||_2 of the x returned, recomputed at the end.
 *
 *   CG:        Hestenes and Stiefel with a symmetric preconditioner M;
 *              breaks down when p'Ap <= 0 (A not positive definite).
 *   BiCGSTAB:  van der Vorst (1992), preconditioned on the right (the
 *              directions are p^ = M^-1 p and s^ = M^-1 s), with the
 *              shadow residual r^ = r0; it stops half way through an
 *              iteration when ||s|| already meets the tolerance, and breaks
 *              down when rho or r^'v is zero, or when t't or omega is zero.
 */
#include "sparse.h"

static double kr_r[SP_MAX_N], kr_z[SP_MAX_N], kr_p[SP_MAX_N], kr_q[SP_MAX_N];
static double kr_rhat[SP_MAX_N], kr_s[SP_MAX_N], kr_t[SP_MAX_N], kr_shat[SP_MAX_N];

/* checks the common inputs and starts the report; 0 when the solve can run, else SP_BAD_INPUT */
static int kr_start(const csr_t *a, const precond_t *m, const double *b, const sp_opts *o, sp_stats *st)
{
    st->iters = 0;
    st->nhist = 0;
    st->status = SP_BAD_INPUT;
    st->bnorm = 0.0;
    st->rnorm = 0.0;
    if (a->nrows != a->ncols || csr_check(a) != 0 || m->n != a->nrows)
        return SP_BAD_INPUT;
    if (o->max_iter < 0 || o->max_iter > SP_MAX_ITER || !(o->tol >= 0.0))
        return SP_BAD_INPUT;
    st->bnorm = vec_norm2(b, a->nrows);
    return 0;
}

/* records the residual norm at the top of an iteration; 1 when it meets the target */
static int kr_record(sp_stats *st, double rnorm, double target)
{
    st->hist[st->nhist++] = rnorm;
    return rnorm <= target;
}

/* ends a solve: the status and the true residual of x */
static int kr_finish(const csr_t *a, const double *b, const double *x, sp_stats *st, int status)
{
    st->status = status;
    st->rnorm = residual(a, x, b, kr_r);
    return status;
}

int cg_solve(const csr_t *a, const precond_t *m, const double *b, double *x, const sp_opts *o, sp_stats *st)
{
    double target, rnorm, rz, rz_new, pq, alpha, beta;
    int n = a->nrows, it, status = kr_start(a, m, b, o, st);

    if (status != 0)
        return status;
    target = o->tol * st->bnorm;
    rnorm = residual(a, x, b, kr_r);
    pc_apply(m, kr_r, kr_z);
    vec_copy(kr_z, kr_p, n);
    rz = vec_dot(kr_r, kr_z, n);
    for (it = 0;; it++) {
        if (kr_record(st, rnorm, target))
            return kr_finish(a, b, x, st, SP_CONVERGED);
        if (it == o->max_iter)
            return kr_finish(a, b, x, st, SP_MAX_ITERS);
        spmv(a, kr_p, kr_q);
        pq = vec_dot(kr_p, kr_q, n);
        if (pq <= 0.0)
            return kr_finish(a, b, x, st, SP_BREAKDOWN_PAP);
        alpha = rz / pq;
        vec_axpy(alpha, kr_p, x, n);
        vec_axpy(-alpha, kr_q, kr_r, n);
        rnorm = vec_norm2(kr_r, n);
        pc_apply(m, kr_r, kr_z);
        rz_new = vec_dot(kr_r, kr_z, n);
        beta = rz_new / rz;
        rz = rz_new;
        vec_xpby(kr_z, beta, kr_p, n);
        st->iters = it + 1;
    }
}

int bicgstab_solve(const csr_t *a, const precond_t *m, const double *b, double *x, const sp_opts *o, sp_stats *st)
{
    double target, rnorm, snorm, rho, rho_old, alpha, omega, beta, rv, tt;
    int n = a->nrows, it, i, status = kr_start(a, m, b, o, st);

    if (status != 0)
        return status;
    target = o->tol * st->bnorm;
    rnorm = residual(a, x, b, kr_r);
    vec_copy(kr_r, kr_rhat, n);
    for (it = 0;; it++) {
        if (kr_record(st, rnorm, target))
            return kr_finish(a, b, x, st, SP_CONVERGED);
        if (it == o->max_iter)
            return kr_finish(a, b, x, st, SP_MAX_ITERS);
        rho = vec_dot(kr_rhat, kr_r, n);
        if (rho == 0.0)
            return kr_finish(a, b, x, st, SP_BREAKDOWN_RHO);
        if (it == 0) {
            vec_copy(kr_r, kr_p, n);
        } else {
            beta = (rho / rho_old) * (alpha / omega);
            for (i = 0; i < n; i++)
                kr_p[i] = kr_r[i] + beta * (kr_p[i] - omega * kr_q[i]);
        }
        pc_apply(m, kr_p, kr_z);                 /* p^ */
        spmv(a, kr_z, kr_q);                     /* v = A p^ */
        rv = vec_dot(kr_rhat, kr_q, n);
        if (rv == 0.0)
            return kr_finish(a, b, x, st, SP_BREAKDOWN_RHO);
        alpha = rho / rv;
        for (i = 0; i < n; i++)
            kr_s[i] = kr_r[i] - alpha * kr_q[i];
        snorm = vec_norm2(kr_s, n);
        st->iters = it + 1;
        if (snorm <= target) {                   /* converged half way: x += alpha p^ */
            vec_axpy(alpha, kr_z, x, n);
            kr_record(st, snorm, target);
            return kr_finish(a, b, x, st, SP_CONVERGED);
        }
        pc_apply(m, kr_s, kr_shat);
        spmv(a, kr_shat, kr_t);
        tt = vec_dot(kr_t, kr_t, n);
        if (tt == 0.0)
            return kr_finish(a, b, x, st, SP_BREAKDOWN_OMEGA);
        omega = vec_dot(kr_t, kr_s, n) / tt;
        for (i = 0; i < n; i++) {
            x[i] += alpha * kr_z[i] + omega * kr_shat[i];
            kr_r[i] = kr_s[i] - omega * kr_t[i];
        }
        rnorm = vec_norm2(kr_r, n);
        if (omega == 0.0)
            return kr_finish(a, b, x, st, SP_BREAKDOWN_OMEGA);
        rho_old = rho;
    }
}

/*
 * The solver front end: sets up the preconditioner `pc_kind` (omega for
 * SSOR), runs CG (method 0) or BiCGSTAB (method 1) and, when the
 * recurrence converged but the true residual is still above
 * SP_REPLACE * tol * ||b|| and iterations remain, restarts once from the x
 * reached (residual replacement).  The report covers both runs: the
 * iterations add up and the second history follows the first.  Returns
 * the status, or SP_BAD_INPUT for an unknown method or a preconditioner
 * that cannot be set up.
 */
int sp_solve(const csr_t *a, int method, int pc_kind, double omega, const double *b, double *x, const sp_opts *o,
             sp_stats *st)
{
    static precond_t m;
    static sp_stats second;
    sp_opts rest;
    int status, i;

    st->iters = 0;
    st->nhist = 0;
    st->status = SP_BAD_INPUT;
    st->bnorm = 0.0;
    st->rnorm = 0.0;
    if ((method != 0 && method != 1) || pc_setup(&m, a, pc_kind, omega) != 0)
        return SP_BAD_INPUT;
    status = method == 0 ? cg_solve(a, &m, b, x, o, st) : bicgstab_solve(a, &m, b, x, o, st);
    if (status != SP_CONVERGED || st->rnorm <= SP_REPLACE * o->tol * st->bnorm || st->iters >= o->max_iter)
        return status;
    rest = *o;
    rest.max_iter = o->max_iter - st->iters;
    status = method == 0 ? cg_solve(a, &m, b, x, &rest, &second) : bicgstab_solve(a, &m, b, x, &rest, &second);
    for (i = 0; i < second.nhist; i++)
        st->hist[st->nhist++] = second.hist[i];
    st->iters += second.iters;
    st->status = status;
    st->rnorm = second.rnorm;
    return status;
}
