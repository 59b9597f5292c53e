/*
 * sparse_test.c -- test driver for the sparse linear solver library.
 *
 * The driver belongs to the harness: it feeds the inputs and prints every
 * result the library computes (CSR arrays, check codes, products, vector
 * kernels, preconditioner factors and applications, solver statuses,
 * iteration counts, residual histories and solutions, all doubles with
 * %.17g).  It judges nothing itself; the harness compares the printed
 * output with that of the known-good library.
 *
 *   ./prog            the fixed vectors: hand-written COO matrices with
 *                     duplicates, cancelling entries, empty rows and bad
 *                     triplets; Poisson grids from 1x1 to 20x20, random SPD
 *                     and convection-diffusion matrices; every
 *                     preconditioner with CG, BiCGSTAB and Gauss-Seidel,
 *                     tolerances 0 to 1, iteration limits 0 to 400,
 *                     breakdowns and invalid inputs
 *   ./prog --seed N   inputs generated from N (N >= 1): random matrices of
 *                     every kind and size, random triplets, solver
 *                     controls, starting vectors and right-hand sides, with
 *                     degenerate patterns chosen by N % 8
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sparse.h"

static coo_t coo;
static csr_t A, B;
static precond_t pc;
static sp_stats st;
static double xv[SP_MAX_N], yv[SP_MAX_N], bv[SP_MAX_N], xt[SP_MAX_N], x0[SP_MAX_N];

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void put_vec(const char *label, const double *v, int n)
{
    int i;

    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 6 == 0)
            printf("\n");
        printf(" %.17g", v[i]);
    }
    printf("\n");
}

static void put_ints(const char *label, const int *v, int n)
{
    int i;

    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 20 == 0)
            printf("\n");
        printf(" %d", v[i]);
    }
    printf("\n");
}

static void put_csr(const char *label, const csr_t *m)
{
    char name[96];

    printf("%s rows %d cols %d nnz %d\n", label, m->nrows, m->ncols, m->nnz);
    sprintf(name, "%s.rowptr", label);
    put_ints(name, m->rowptr, m->nrows + 1);
    sprintf(name, "%s.col", label);
    put_ints(name, m->col, m->nnz);
    sprintf(name, "%s.val", label);
    put_vec(name, m->val, m->nnz);
}

static void put_stats(const char *label, const sp_stats *s, const double *x, int n)
{
    char name[96];

    printf("%s status %d iters %d bnorm %.17g rnorm %.17g nhist %d\n", label, s->status, s->iters, s->bnorm,
           s->rnorm, s->nhist);
    sprintf(name, "%s.hist", label);
    put_vec(name, s->hist, s->nhist < 0 || s->nhist > SP_MAX_ITER + 2 ? 0 : s->nhist);
    sprintf(name, "%s.x", label);
    put_vec(name, x, n);
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

/* the seeded inputs' generator (splitmix64) */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int rng_below(int n)
{
    return (int)(rng_next() % (uint64_t)n);
}

/* a value in lo..hi, the ends themselves one time in eight */
static int rng_range(int lo, int hi)
{
    int pick = rng_below(16);

    if (pick == 0)
        return lo;
    if (pick == 1)
        return hi;
    return lo + rng_below(hi - lo + 1);
}

/* uniform in [-1, 1) */
static double rng_unit(void)
{
    return (double)(int64_t)(rng_next() >> 11) / 4503599627370496.0 - 1.0;
}

/* a vector in one of the patterns: 0 random, 1 zeros, 2 ones, 3 alternating,
 * 4 one non-zero, 5 huge and tiny magnitudes, 6 small integers, 7 random */
static void pattern_vec(int pattern, double *v, int n)
{
    int i, at = n > 0 ? rng_below(n) : 0;

    for (i = 0; i < n; i++) {
        switch (pattern) {
        case 1:
            v[i] = 0.0;
            break;
        case 2:
            v[i] = 1.0;
            break;
        case 3:
            v[i] = (i % 2) ? -1.0 : 1.0;
            break;
        case 4:
            v[i] = i == at ? rng_unit() * 10.0 : 0.0;
            break;
        case 5:
            v[i] = rng_unit();
            v[i] *= rng_below(2) ? 1e150 : 1e-150;
            break;
        case 6:
            v[i] = (double)(rng_below(9) - 4);
            break;
        default:
            v[i] = rng_unit();
            break;
        }
    }
}

static int build(const char *label, int drop)
{
    int rc = csr_from_coo(&coo, &A, drop);

    printf("%s convert drop %d rc %d check %d\n", label, drop, rc, rc >= 0 ? csr_check(&A) : -99);
    if (rc >= 0)
        put_csr(label, &A);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Storage                                                             */
/* ------------------------------------------------------------------ */

static void fixed_coo(void)
{
    static const int tr[][2] = { { 2, 3 }, { 0, 0 }, { 2, 1 }, { 0, 4 }, { 2, 3 }, { 4, 4 }, { 0, 0 },
                                 { 4, 0 }, { 2, 1 }, { 4, 2 }, { 0, 2 }, { 2, 0 }, { 4, 4 }, { 2, 3 } };
    static const double tv[] = { 1.5, 2.0, -1.0, 0.25, 0.1, 3.0, 1e-17, 0.0, 1.0, -2.5, 7.0, 0.5, -3.0, 0.2 };
    int i, j, rc;

    printf("coo init %d %d %d %d %d\n", coo_init(&coo, -1, 3), coo_init(&coo, 3, SP_MAX_N + 1),
           coo_init(&coo, SP_MAX_N, SP_MAX_N), coo_init(&coo, 0, 0), coo_init(&coo, 5, 6));
    for (i = 0; i < (int)(sizeof tv / sizeof tv[0]); i++)
        printf("coo add %d\n", coo_add(&coo, tr[i][0], tr[i][1], tv[i]));
    printf("coo add bad %d %d %d %d nnz %d\n", coo_add(&coo, -1, 0, 1.0), coo_add(&coo, 5, 0, 1.0),
           coo_add(&coo, 0, -1, 1.0), coo_add(&coo, 0, 6, 1.0), coo.nnz);
    build("small", 0);
    build("small", 1);
    for (i = -1; i <= 5; i++) {
        printf("find %d:", i);
        for (j = -1; j <= 6; j++)
            printf(" %d/%.17g", csr_find(&A, i, j), csr_get(&A, i, j));
        printf("\n");
    }
    rc = csr_diag(&A, xv);
    printf("diag missing %d\n", rc);
    put_vec("diag", xv, 5);
    rc = csr_transpose(&A, &B);
    printf("transpose rc %d check %d\n", rc, csr_check(&B));
    put_csr("small.t", &B);
    printf("symmetric %d %d\n", csr_symmetric(&A, 0.0), csr_symmetric(&B, 1e9));

    /* a cancelling pair, an explicit negative zero and a row with nothing left */
    coo_init(&coo, 4, 4);
    coo_add(&coo, 1, 1, 2.0);
    coo_add(&coo, 1, 1, -2.0);
    coo_add(&coo, 3, 0, -0.0);
    coo_add(&coo, 3, 3, 1.0);
    coo_add(&coo, 0, 3, 5.0);
    coo_add(&coo, 0, 2, 1e300);
    coo_add(&coo, 0, 2, 1e300);
    coo_add(&coo, 0, 2, -1e300);
    build("cancel", 0);
    build("cancel", 1);
    printf("symmetric %d\n", csr_symmetric(&A, 0.0));
    /* symmetric up to a tolerance */
    coo_init(&coo, 3, 3);
    coo_add(&coo, 0, 1, 1.0);
    coo_add(&coo, 1, 0, 1.25);
    coo_add(&coo, 2, 2, 3.0);
    coo_add(&coo, 1, 2, -0.5);
    coo_add(&coo, 2, 1, -0.5);
    build("nearsym", 1);
    printf("symmetric tol %d %d %d %d\n", csr_symmetric(&A, 0.0), csr_symmetric(&A, 0.2), csr_symmetric(&A, 0.25),
           csr_symmetric(&A, 0.3));
    coo_add(&coo, 0, 2, 1.0);
    build("nearsym2", 1);
    printf("symmetric missing %d %d\n", csr_symmetric(&A, 0.5), csr_symmetric(&A, 1.0));

    /* bad triplets smuggled past coo_add */
    coo_init(&coo, 3, 3);
    coo_add(&coo, 0, 0, 1.0);
    coo.row[coo.nnz] = 3;
    coo.col[coo.nnz] = 0;
    coo.val[coo.nnz++] = 1.0;
    build("badrow", 0);
    coo.row[1] = 2;
    coo.col[1] = 3;
    build("badcol", 0);
    coo.col[1] = -1;
    build("negcol", 0);
    coo.col[1] = 0;
    coo.row[1] = -1;
    build("negrow", 0);
    coo.nnz = -1;
    build("negnnz", 0);
    coo.nnz = SP_MAX_NNZ + 1;
    build("bignnz", 0);
    coo.nnz = 0;
    coo.nrows = SP_MAX_N + 1;
    build("bigrows", 0);
    coo.nrows = -1;
    build("negrows", 0);
    coo.nrows = 2;
    coo.ncols = -1;
    build("negcols", 0);
    coo.ncols = SP_MAX_N + 1;
    build("bigcols", 0);
    coo.ncols = 2;
    build("empty", 0);
    coo_init(&coo, 0, 0);
    build("zero", 0);

    /* a full triplet store */
    coo_init(&coo, SP_MAX_N, SP_MAX_N);
    for (i = 0; i < SP_MAX_NNZ; i++)
        coo_add(&coo, (i * 7919) % SP_MAX_N, (i * 104729 + i / 3) % SP_MAX_N, (double)(i % 13) - 6.0);
    printf("full add %d %d\n", coo_add(&coo, 0, 0, 1.0), coo.nnz);
    rc = csr_from_coo(&coo, &A, 1);
    printf("full convert %d check %d\n", rc, csr_check(&A));
    put_ints("full.rowptr", A.rowptr, A.nrows + 1);
    put_ints("full.col", A.col, A.nnz);
    put_vec("full.val", A.val, A.nnz);
    csr_transpose(&A, &B);
    printf("full transpose check %d\n", csr_check(&B));
    put_ints("full.t.rowptr", B.rowptr, B.nrows + 1);
    put_ints("full.t.col", B.col, B.nnz);
}

static void fixed_check(void)
{
    coo_init(&coo, 4, 5);
    coo_add(&coo, 0, 1, 1.0);
    coo_add(&coo, 0, 4, 2.0);
    coo_add(&coo, 2, 0, 3.0);
    coo_add(&coo, 2, 2, 4.0);
    coo_add(&coo, 3, 3, 5.0);
    csr_from_coo(&coo, &A, 0);
    printf("check ok %d\n", csr_check(&A));
    B = A;
    B.nrows = -1;
    printf("check rows %d", csr_check(&B));
    B = A;
    B.ncols = SP_MAX_N + 1;
    printf(" cols %d", csr_check(&B));
    B = A;
    B.nnz = -1;
    printf(" nnz %d", csr_check(&B));
    B = A;
    B.rowptr[0] = 1;
    printf(" start %d", csr_check(&B));
    B = A;
    B.rowptr[4] = 4;
    printf(" end %d", csr_check(&B));
    B = A;
    B.rowptr[2] = 1;
    printf(" dec %d", csr_check(&B));
    B = A;
    B.rowptr[1] = 3;
    printf(" dec2 %d", csr_check(&B));
    B = A;
    B.col[1] = 5;
    printf(" colhigh %d", csr_check(&B));
    B = A;
    B.col[2] = -1;
    printf(" collow %d", csr_check(&B));
    B = A;
    B.col[1] = 1;
    printf(" dup %d", csr_check(&B));
    B = A;
    B.col[3] = 0;
    printf(" order %d", csr_check(&B));
    B = A;
    B.col[0] = 4;
    B.col[1] = 1;
    printf(" swap %d", csr_check(&B));
    B = A;
    B.nrows = SP_MAX_N + 1;
    printf(" bigrows %d", csr_check(&B));
    B = A;
    B.nnz = SP_MAX_NNZ + 1;
    printf(" bignnz %d", csr_check(&B));
    B = A;
    B.ncols = -1;
    printf(" negcols %d\n", csr_check(&B));
}

static void fixed_add(void)
{
    static const double dl[] = { 2.0, -1.0, 0.5, 3.0 }, dr[] = { 1.0, 0.25, -2.0, 4.0, 8.0 };
    static csr_t C;
    int rc, i;

    coo_init(&coo, 4, 5);
    coo_add(&coo, 0, 1, 1.5);
    coo_add(&coo, 0, 4, 2.0);
    coo_add(&coo, 2, 2, -4.0);
    coo_add(&coo, 3, 0, 0.125);
    csr_from_coo(&coo, &A, 0);
    coo_init(&coo, 4, 5);
    coo_add(&coo, 0, 0, 1.0);
    coo_add(&coo, 0, 4, 3.0);
    coo_add(&coo, 1, 3, 6.0);
    coo_add(&coo, 2, 2, 2.0);
    coo_add(&coo, 3, 4, -1.0);
    csr_from_coo(&coo, &B, 0);
    rc = csr_add(1.0, &A, 2.0, &B, &C);
    printf("add rc %d check %d\n", rc, csr_check(&C));
    put_csr("add", &C);
    rc = csr_add(-0.5, &B, 0.0, &A, &C);
    printf("add rc %d check %d\n", rc, csr_check(&C));
    put_csr("add2", &C);
    rc = csr_add(1.0, &A, 1.0, &A, &C);
    put_csr("add.self", &C);
    csr_transpose(&A, &B);
    printf("add shape %d", csr_add(1.0, &A, 1.0, &B, &C));
    B.ncols = 4;
    B.nrows = 4;
    printf(" %d\n", csr_add(1.0, &A, 1.0, &B, &C));
    coo_init(&coo, 0, 0);
    csr_from_coo(&coo, &A, 0);
    csr_from_coo(&coo, &B, 0);
    printf("add empty %d\n", csr_add(1.0, &A, 1.0, &B, &C));
    /* two patterns whose union does not fit */
    coo_init(&coo, SP_MAX_N, SP_MAX_N);
    for (i = 0; i < 4200; i++)
        coo_add(&coo, i % SP_MAX_N, (i / SP_MAX_N) * 2, 1.0);
    csr_from_coo(&coo, &A, 0);
    coo_init(&coo, SP_MAX_N, SP_MAX_N);
    for (i = 0; i < 4200; i++)
        coo_add(&coo, i % SP_MAX_N, (i / SP_MAX_N) * 2 + 1, 1.0);
    csr_from_coo(&coo, &B, 0);
    printf("add full %d %d %d\n", A.nnz, B.nnz, csr_add(1.0, &A, 1.0, &B, &C));
    csr_transpose(&B, &A);
    coo_init(&coo, SP_MAX_N, SP_MAX_N);
    for (i = 0; i < 3992; i++)
        coo_add(&coo, i % SP_MAX_N, (i / SP_MAX_N) * 2 + 1, 1.0);
    csr_from_coo(&coo, &B, 0);
    coo_init(&coo, SP_MAX_N, SP_MAX_N);
    for (i = 0; i < 4200; i++)
        coo_add(&coo, i % SP_MAX_N, (i / SP_MAX_N) * 2, 1.0);
    csr_from_coo(&coo, &A, 0);
    rc = csr_add(1.0, &A, 1.0, &B, &C);
    printf("add exact %d %d %d check %d\n", A.nnz, B.nnz, rc, csr_check(&C));
    coo_add(&coo, SP_MAX_N - 1, SP_MAX_N - 1, 1.0);
    csr_from_coo(&coo, &A, 0);
    printf("add over %d\n", csr_add(1.0, &A, 1.0, &B, &C));

    coo_init(&coo, 4, 5);
    coo_add(&coo, 0, 1, 1.5);
    coo_add(&coo, 0, 4, 2.0);
    coo_add(&coo, 1, 3, 6.0);
    coo_add(&coo, 2, 2, -4.0);
    coo_add(&coo, 3, 0, 0.125);
    csr_from_coo(&coo, &A, 0);
    csr_scale(&A, dl, 0);
    put_vec("scale.rows", A.val, A.nnz);
    csr_scale(&A, 0, dr);
    put_vec("scale.cols", A.val, A.nnz);
    csr_scale(&A, dl, dr);
    put_vec("scale.both", A.val, A.nnz);
    csr_scale(&A, 0, 0);
    put_vec("scale.none", A.val, A.nnz);
}

static void fixed_spmv(void)
{
    static const double xs[] = { 1.0, -2.0, 0.5, 3.0, -0.25, 10.0 };
    double nan = 0.0 / 0.0 * 0.0;
    int i;

    coo_init(&coo, 4, 5);
    coo_add(&coo, 0, 1, 1.5);
    coo_add(&coo, 0, 4, 2.0);
    coo_add(&coo, 2, 0, 3.0);
    coo_add(&coo, 2, 2, -4.0);
    coo_add(&coo, 3, 3, 5.0);
    coo_add(&coo, 3, 0, 0.125);
    coo_add(&coo, 0, 0, -1.0);
    csr_from_coo(&coo, &A, 0);
    spmv(&A, xs, yv);
    put_vec("spmv", yv, 4);
    spmv_t(&A, xs, yv);
    put_vec("spmv_t", yv, 5);
    for (i = 0; i < 4; i++)
        yv[i] = nan;
    spmv_axpby(&A, 2.0, xs, 0.0, yv);
    put_vec("axpby.beta0", yv, 4);
    spmv_axpby(&A, -0.5, xs, 3.0, yv);
    put_vec("axpby", yv, 4);
    spmv_axpby(&A, 0.0, xs, -1.0, yv);
    put_vec("axpby.alpha0", yv, 4);
    printf("dot %.17g %.17g norm2 %.17g inf %.17g %.17g %.17g\n", vec_dot(xs, xs + 1, 5), vec_dot(xs, xs, 0),
           vec_norm2(xs, 6), vec_norm_inf(xs, 6), vec_norm_inf(xs, 5), vec_norm_inf(xs, 0));
    vec_copy(xs, xv, 6);
    vec_axpy(0.5, xs, xv, 5);
    put_vec("axpy", xv, 6);
    vec_xpby(xs, -2.0, xv, 4);
    put_vec("xpby", xv, 6);
    vec_fill(7.5, xv, 3);
    put_vec("fill", xv, 6);
    vec_copy(xs, xv, 6);
    printf("residual %.17g\n", residual(&A, xs, xv, yv));
    put_vec("residual.r", yv, 4);
    xv[0] = -20.0;
    printf("norm_inf neg %.17g\n", vec_norm_inf(xv, 6));
}

/* ------------------------------------------------------------------ */
/* Generators and preconditioners                                      */
/* ------------------------------------------------------------------ */

static void fixed_gen(void)
{
    static const int grids[][2] = { { 1, 1 }, { 1, 5 }, { 5, 1 }, { 4, 3 }, { 0, 5 }, { 5, 0 }, { 20, 20 },
                                    { 21, 20 }, { 400, 1 }, { 1, 401 }, { -3, -3 } };
    int i, rc;
    uint32_t s = 1;

    printf("lcg");
    for (i = 0; i < 6; i++)
        printf(" %lu", (unsigned long)gen_next(&s));
    printf(" %.17g", gen_uniform(&s));
    printf(" %.17g\n", gen_uniform(&s));
    s = 0xffffffffu;
    printf("lcg wrap %lu", (unsigned long)gen_next(&s));
    printf(" %.17g\n", gen_uniform(&s));
    for (i = 0; i < (int)(sizeof grids / sizeof grids[0]); i++) {
        char label[48];
        rc = gen_poisson2d(&coo, grids[i][0], grids[i][1]);
        printf("poisson %d x %d rc %d\n", grids[i][0], grids[i][1], rc);
        if (rc < 0 || coo.nrows > 30)
            continue;
        put_ints("poisson.coo.row", coo.row, coo.nnz);
        put_ints("poisson.coo.col", coo.col, coo.nnz);
        sprintf(label, "poisson%dx%d", grids[i][0], grids[i][1]);
        build(label, 0);
        printf("symmetric %d\n", csr_symmetric(&A, 0.0));
    }
    for (i = 0; i < 6; i++) {
        static const int ns[] = { 1, 2, 10, 30, 400, 0 };
        static const int per[] = { 3, 1, 0, 4, 9, 2 };
        static const double shifts[] = { 1.0, 0.5, 2.0, 1e-3, 0.0, 1.0 };
        rc = gen_random_spd(&coo, ns[i], per[i], shifts[i], 7u + (uint32_t)i);
        printf("spd n %d per %d rc %d\n", ns[i], per[i], rc);
        if (rc < 0)
            continue;
        if (ns[i] <= 30) {
            put_ints("spd.coo.row", coo.row, coo.nnz);
            build("spd", 0);
            printf("symmetric %d\n", csr_symmetric(&A, 0.0));
        }
    }
    printf("spd bad %d %d %d %d\n", gen_random_spd(&coo, 400, 10, 1.0, 1u), gen_random_spd(&coo, 10, -1, 1.0, 1u),
           gen_random_spd(&coo, SP_MAX_N + 1, 1, 1.0, 1u), gen_random_spd(&coo, 1, 4095, 1.0, 1u));
    for (i = 0; i < 4; i++) {
        static const double cxs[] = { 0.0, 1.5, -2.0, 0.75 };
        static const double cys[] = { 0.0, -0.5, 3.0, 0.75 };
        rc = gen_convdiff2d(&coo, 4, 3, cxs[i], cys[i]);
        printf("convdiff %.17g %.17g rc %d\n", cxs[i], cys[i], rc);
        build("convdiff", 0);
        printf("symmetric %d\n", csr_symmetric(&A, 0.0));
    }
    printf("convdiff bad %d %d\n", gen_convdiff2d(&coo, 0, 3, 1.0, 1.0), gen_convdiff2d(&coo, 30, 30, 1.0, 1.0));
    gen_poisson2d(&coo, 3, 3);
    csr_from_coo(&coo, &A, 0);
    for (i = -1; i <= 4; i++) {
        vec_fill(-9.0, xt, 9);
        vec_fill(-9.0, bv, 9);
        rc = gen_rhs(&A, i, xt, bv);
        printf("rhs kind %d rc %d\n", i, rc);
        put_vec("rhs.x", xt, 9);
        put_vec("rhs.b", bv, 9);
    }
}

/* sets up a preconditioner and shows its state and one application */
static int show_pc(const char *label, const csr_t *a, int kind, double omega)
{
    char name[64];
    int rc = pc_setup(&pc, a, kind, omega), i;

    printf("%s pc kind %d omega %.17g rc %d\n", label, kind, omega, rc);
    if (rc != 0)
        return rc;
    if (kind != SP_PC_NONE) {
        sprintf(name, "%s.inv_diag", label);
        put_vec(name, pc.inv_diag, pc.n);
        sprintf(name, "%s.diag", label);
        put_ints(name, pc.diag, pc.n);
        sprintf(name, "%s.f", label);
        put_csr(name, &pc.f);
    }
    for (i = 0; i < a->nrows; i++)
        xv[i] = (double)((i * 5) % 11) - 4.5;
    pc_apply(&pc, xv, yv);
    sprintf(name, "%s.apply", label);
    put_vec(name, yv, a->nrows);
    return 0;
}

static void fixed_precond(void)
{
    int kind;

    gen_poisson2d(&coo, 4, 3);
    csr_from_coo(&coo, &A, 0);
    for (kind = -1; kind <= 4; kind++)
        show_pc("poisson", &A, kind, 1.0);
    show_pc("poisson.sor", &A, SP_PC_SGS, 1.5);
    show_pc("poisson.sor", &A, SP_PC_SGS, 0.25);
    show_pc("poisson.sor", &A, SP_PC_SGS, 0.0);
    show_pc("poisson.sor", &A, SP_PC_SGS, 2.0);
    show_pc("poisson.sor", &A, SP_PC_SGS, -1.0);
    show_pc("poisson.sor", &A, SP_PC_SGS, 0.0 / 0.0);
    show_pc("poisson.jac", &A, SP_PC_JACOBI, 7.0);
    gen_random_spd(&coo, 12, 3, 0.5, 99u);
    csr_from_coo(&coo, &A, 0);
    for (kind = 0; kind <= 3; kind++)
        show_pc("spd", &A, kind, 1.2);
    gen_convdiff2d(&coo, 3, 4, 1.0, -2.5);
    csr_from_coo(&coo, &A, 0);
    for (kind = 0; kind <= 3; kind++)
        show_pc("convdiff", &A, kind, 0.8);

    /* a zero and a missing diagonal entry, a zero pivot, a matrix that is not square, broken CSR */
    coo_init(&coo, 3, 3);
    coo_add(&coo, 0, 0, 2.0);
    coo_add(&coo, 1, 1, 0.0);
    coo_add(&coo, 2, 2, 1.0);
    coo_add(&coo, 1, 0, 1.0);
    csr_from_coo(&coo, &A, 0);
    for (kind = 0; kind <= 3; kind++)
        show_pc("zerodiag", &A, kind, 1.0);
    csr_from_coo(&coo, &A, 1);
    for (kind = 0; kind <= 3; kind++)
        show_pc("nodiag", &A, kind, 1.0);
    coo_init(&coo, 3, 3);
    coo_add(&coo, 0, 0, 1.0);
    coo_add(&coo, 0, 1, 1.0);
    coo_add(&coo, 1, 0, 1.0);
    coo_add(&coo, 1, 1, 1.0);
    coo_add(&coo, 2, 2, 1.0);
    coo_add(&coo, 2, 1, 3.0);
    csr_from_coo(&coo, &A, 0);
    for (kind = 0; kind <= 3; kind++)
        show_pc("pivot", &A, kind, 1.0);
    coo_init(&coo, 3, 3);
    coo_add(&coo, 0, 0, 1.0);
    coo_add(&coo, 0, 2, 2.0);
    coo_add(&coo, 1, 1, 1.0);
    coo_add(&coo, 2, 0, 0.5);
    coo_add(&coo, 2, 2, 1.0);
    coo_add(&coo, 2, 1, -1.0);
    csr_from_coo(&coo, &A, 0);
    for (kind = 0; kind <= 3; kind++)
        show_pc("pivot2", &A, kind, 1.0);
    coo_add(&coo, 1, 2, 4.0);
    coo_add(&coo, 0, 1, -3.0);
    csr_from_coo(&coo, &A, 0);
    show_pc("dense3", &A, SP_PC_ILU0, 1.0);
    coo_init(&coo, 2, 3);
    coo_add(&coo, 0, 0, 1.0);
    coo_add(&coo, 1, 1, 1.0);
    csr_from_coo(&coo, &A, 0);
    show_pc("rect", &A, SP_PC_JACOBI, 1.0);
    gen_poisson2d(&coo, 2, 2);
    csr_from_coo(&coo, &A, 0);
    A.col[1] = 0;
    show_pc("broken", &A, SP_PC_JACOBI, 1.0);
}

/* ------------------------------------------------------------------ */
/* Solvers                                                             */
/* ------------------------------------------------------------------ */

/* solves A x = b from x0 with one method; 0 CG, 1 BiCGSTAB, 2 Gauss-Seidel */
static void solve(const char *label, int method, const double *b, const double *start, int max_iter, double tol)
{
    char name[128];
    sp_opts o;
    int rc, n = A.nrows;

    o.max_iter = max_iter;
    o.tol = tol;
    vec_copy(start, xv, n);
    memset(&st, 0xee, sizeof st);
    if (method == 0)
        rc = cg_solve(&A, &pc, b, xv, &o, &st);
    else if (method == 1)
        rc = bicgstab_solve(&A, &pc, b, xv, &o, &st);
    else
        rc = gs_solve(&A, b, xv, &o, &st);
    sprintf(name, "%s.%s.it%d.tol%g", label, method == 0 ? "cg" : method == 1 ? "bicgstab" : "gs", max_iter, tol);
    printf("%s rc %d\n", name, rc);
    put_stats(name, &st, xv, n);
}

/* the front end with one method and preconditioner */
static void front(const char *label, int method, int kind, double omega, const double *start, int max_iter, double tol)
{
    char name[128];
    sp_opts o;
    int rc;

    o.max_iter = max_iter;
    o.tol = tol;
    vec_copy(start, xv, A.nrows);
    memset(&st, 0xee, sizeof st);
    rc = sp_solve(&A, method, kind, omega, bv, xv, &o, &st);
    sprintf(name, "%s.front.m%d.pc%d.it%d.tol%g", label, method, kind, max_iter, tol);
    printf("%s rc %d\n", name, rc);
    put_stats(name, &st, xv, A.nrows);
}

/* every preconditioner with the given methods on the current matrix */
static void solve_all(const char *label, int methods, const double *start, int max_iter, double tol)
{
    int kind, m;
    char name[96];

    for (kind = 0; kind <= 3; kind++) {
        int rc = pc_setup(&pc, &A, kind, 1.0 + 0.125 * kind);
        sprintf(name, "%s.pc%d", label, kind);
        printf("%s setup %d\n", name, rc);
        if (rc != 0)
            continue;
        for (m = 0; m < 2; m++)
            if (methods & (1 << m))
                solve(name, m, bv, start, max_iter, tol);
    }
    if (methods & 4)
        solve(label, 2, bv, start, max_iter, tol);
}

static void fixed_solvers(void)
{
    static const int iters[] = { 0, 1, 2, 5, 400 };
    static const double tols[] = { 1e-10, 0.0, 1.0, 0.5, 1e-300 };
    int i;

    gen_poisson2d(&coo, 10, 10);
    csr_from_coo(&coo, &A, 0);
    gen_rhs(&A, 1, xt, bv);
    vec_fill(0.0, x0, A.nrows);
    for (i = 0; i < 5; i++)
        solve_all("poisson10", 7, x0, iters[i], tols[i]);
    solve_all("poisson10.exact", 7, xt, 50, 0.0);
    vec_fill(0.0, bv, A.nrows);
    solve_all("poisson10.zero_b", 7, x0, 10, 1e-8);
    for (i = 0; i < A.nrows; i++)
        x0[i] = (double)(i % 3) - 1.0;
    solve_all("poisson10.zero_b.start", 7, x0, 400, 1e-12);
    gen_rhs(&A, 3, xt, bv);
    solve_all("poisson10.point", 7, x0, 400, 1e-9);

    gen_rhs(&A, 1, xt, bv);
    vec_fill(0.0, x0, A.nrows);
    for (i = -1; i <= 2; i++) {
        front("poisson10", i, 0, 1.0, x0, 400, 1e-300);
        front("poisson10", i, 2, 1.0, x0, 400, 1e-300);
        front("poisson10", i, 3, 1.3, x0, 60, 1e-15);
        front("poisson10", i, 1, 1.0, x0, 30, 1e-6);
    }
    front("poisson10", 0, 4, 1.0, x0, 30, 1e-6);
    front("poisson10", 1, 3, 2.0, x0, 30, 1e-6);
    front("poisson10", 0, 2, 1.0, x0, 401, 1e-6);
    front("poisson10", 1, 2, 1.0, x0, 12, 1e-300);
    front("poisson10", 0, 0, 1.0, x0, 327, 1e-300);
    front("poisson10", 0, 0, 1.0, x0, 328, 1e-300);
    front("poisson10", 0, 0, 1.0, x0, 0, 1e-300);

    gen_poisson2d(&coo, 20, 20);
    csr_from_coo(&coo, &A, 0);
    gen_rhs(&A, 2, xt, bv);
    vec_fill(0.0, x0, A.nrows);
    solve_all("poisson20", 7, x0, 400, 1e-10);
    solve_all("poisson20.short", 3, x0, 7, 1e-10);

    gen_random_spd(&coo, 150, 4, 0.05, 1234u);
    csr_from_coo(&coo, &A, 0);
    gen_rhs(&A, 1, xt, bv);
    vec_fill(0.0, x0, A.nrows);
    solve_all("spd150", 7, x0, 400, 1e-12);

    gen_convdiff2d(&coo, 12, 9, 2.0, -1.25);
    csr_from_coo(&coo, &A, 0);
    gen_rhs(&A, 0, xt, bv);
    vec_fill(0.0, x0, A.nrows);
    solve_all("convdiff", 7, x0, 400, 1e-11);
    solve_all("convdiff.short", 3, x0, 3, 1e-11);

    /* identity: one step to an exact zero residual */
    coo_init(&coo, 6, 6);
    for (i = 0; i < 6; i++)
        coo_add(&coo, i, i, 1.0);
    csr_from_coo(&coo, &A, 0);
    for (i = 0; i < 6; i++)
        bv[i] = (double)(i + 1);
    vec_fill(0.0, x0, 6);
    solve_all("identity", 7, x0, 10, 0.0);
    /* diagonal: Jacobi is exact, the others are not */
    for (i = 0; i < 6; i++)
        A.val[i] = (double)(i + 2);
    solve_all("diagonal", 7, x0, 10, 0.0);

    front("diagonal", 0, 0, 1.0, x0, 10, 0.0);
    front("diagonal", 1, 1, 1.0, x0, 10, 0.0);
    front("diagonal", 0, 2, 1.0, x0, 0, 0.0);
    vec_fill(0.0, bv, 6);
    front("diagonal.zero_b", 0, 3, 1.0, x0, 10, 0.5);
    front("diagonal.zero_b", 1, 0, 1.0, x0, 10, 0.5);
    /* indefinite: CG breaks down */
    coo_init(&coo, 3, 3);
    coo_add(&coo, 0, 0, 1.0);
    coo_add(&coo, 1, 1, -2.0);
    coo_add(&coo, 2, 2, 1.0);
    coo_add(&coo, 0, 1, 0.5);
    coo_add(&coo, 1, 0, 0.5);
    csr_from_coo(&coo, &A, 0);
    bv[0] = 0.0;
    bv[1] = 1.0;
    bv[2] = 0.0;
    solve_all("indefinite", 7, x0, 20, 1e-12);
    bv[0] = 1.0;
    bv[1] = 0.0;
    bv[2] = 1.0;
    solve_all("indefinite2", 7, x0, 20, 1e-12);
    /* skew: r'Ar = 0, BiCGSTAB breaks down */
    coo_init(&coo, 2, 2);
    coo_add(&coo, 0, 1, 1.0);
    coo_add(&coo, 1, 0, -1.0);
    csr_from_coo(&coo, &A, 0);
    bv[0] = 1.0;
    bv[1] = 2.0;
    pc_setup(&pc, &A, SP_PC_NONE, 1.0);
    solve("skew", 1, bv, x0, 20, 1e-12);
    solve("skew", 0, bv, x0, 20, 1e-12);
    /* a rotation: BiCGSTAB in two steps */
    coo_init(&coo, 2, 2);
    coo_add(&coo, 0, 0, 1.0);
    coo_add(&coo, 0, 1, 1.0);
    coo_add(&coo, 1, 0, -1.0);
    coo_add(&coo, 1, 1, 1.0);
    csr_from_coo(&coo, &A, 0);
    bv[0] = 1.0;
    bv[1] = 0.0;
    solve_all("rotation", 3, x0, 20, 1e-12);
    /* omega = 0: t's = 0 with t != 0 */
    coo_init(&coo, 2, 2);
    coo_add(&coo, 0, 0, -2.0);
    coo_add(&coo, 0, 1, -2.0);
    coo_add(&coo, 1, 0, -2.0);
    csr_from_coo(&coo, &A, 0);
    bv[0] = 1.0;
    bv[1] = 2.0;
    pc_setup(&pc, &A, SP_PC_NONE, 1.0);
    solve("omega0", 1, bv, x0, 20, 1e-12);
    solve("omega0", 0, bv, x0, 20, 1e-12);
    /* t = 0: s lies in the null space of A */
    coo_init(&coo, 2, 2);
    coo_add(&coo, 0, 0, -2.0);
    coo_add(&coo, 0, 1, -2.0);
    csr_from_coo(&coo, &A, 0);
    bv[0] = 1.0;
    bv[1] = 1.0;
    pc_setup(&pc, &A, SP_PC_NONE, 1.0);
    solve("tt0", 1, bv, x0, 20, 1e-12);
    solve("tt0", 0, bv, x0, 20, 1e-12);
    /* rho = 0: the residual turns orthogonal to the shadow residual */
    coo_init(&coo, 2, 2);
    coo_add(&coo, 0, 0, -2.0);
    coo_add(&coo, 1, 0, 3.0);
    coo_add(&coo, 1, 1, -1.0);
    csr_from_coo(&coo, &A, 0);
    bv[0] = 1.0;
    bv[1] = -1.0;
    pc_setup(&pc, &A, SP_PC_NONE, 1.0);
    solve("rho0", 1, bv, x0, 20, 1e-12);
    coo_init(&coo, 2, 2);
    coo_add(&coo, 0, 1, -2.0);
    coo_add(&coo, 1, 0, -1.0);
    coo_add(&coo, 1, 1, 3.0);
    csr_from_coo(&coo, &A, 0);
    pc_setup(&pc, &A, SP_PC_NONE, 1.0);
    solve("rho0.late", 1, bv, x0, 20, 1e-12);
    /* invalid controls and mismatched preconditioner */
    gen_poisson2d(&coo, 3, 3);
    csr_from_coo(&coo, &A, 0);
    gen_rhs(&A, 0, xt, bv);
    pc_setup(&pc, &A, SP_PC_JACOBI, 1.0);
    for (i = 0; i < 3; i++) {
        solve("bad", i, bv, x0, -1, 1e-8);
        solve("bad", i, bv, x0, SP_MAX_ITER + 1, 1e-8);
        solve("bad", i, bv, x0, SP_MAX_ITER, -1e-8);
        solve("bad", i, bv, x0, 10, 0.0 / 0.0);
    }
    pc.n = 8;
    solve("mismatch", 0, bv, x0, 10, 1e-8);
    solve("mismatch", 1, bv, x0, 10, 1e-8);
    pc.n = 10;
    solve("mismatch.big", 0, bv, x0, 10, 1e-8);
    solve("mismatch.big", 1, bv, x0, 10, 1e-8);
    pc.n = 9;
    A.rowptr[9] = 5;
    solve("broken", 0, bv, x0, 10, 1e-8);
    solve("broken", 1, bv, x0, 10, 1e-8);
    solve("broken", 2, bv, x0, 10, 1e-8);
    for (i = 0; i < 2; i++) {
        coo_init(&coo, 3 + i, 4 - i);
        coo_add(&coo, 0, 0, 1.0);
        coo_add(&coo, 1, 1, 1.0);
        coo_add(&coo, 2, 2, 1.0);
        csr_from_coo(&coo, &A, 0);
        pc.kind = SP_PC_NONE;
        pc.n = A.nrows;
        solve("rect", 0, bv, x0, 10, 1e-8);
        solve("rect", 1, bv, x0, 10, 1e-8);
        solve("rect", 2, bv, x0, 10, 1e-8);
        pc.n = A.ncols;
        solve("rect.cols", 0, bv, x0, 10, 1e-8);
        solve("rect.cols", 1, bv, x0, 10, 1e-8);
    }
    coo_init(&coo, 3, 3);
    coo_add(&coo, 0, 0, 1.0);
    coo_add(&coo, 2, 2, 1.0);
    csr_from_coo(&coo, &A, 0);
    solve("gs.nodiag", 2, bv, x0, 10, 1e-8);
}

static void run_fixed(void)
{
    fixed_coo();
    fixed_check();
    fixed_add();
    fixed_spmv();
    fixed_gen();
    fixed_precond();
    fixed_solvers();
}

/* ------------------------------------------------------------------ */
/* Seeded inputs                                                       */
/* ------------------------------------------------------------------ */

/* random triplets, duplicates and zeros included, in a random shape */
static void seeded_triplets(int pattern)
{
    int nr = rng_range(0, pattern == 6 ? 3 : SP_MAX_N), nc = rng_range(0, pattern == 6 ? 3 : SP_MAX_N);
    int want = rng_range(0, pattern == 7 ? SP_MAX_NNZ : 600), k, rc;

    coo_init(&coo, nr, nc);
    for (k = 0; k < want && nr > 0 && nc > 0; k++) {
        int i = rng_below(nr), j = rng_below(nc);
        double v = rng_below(5) == 0 ? 0.0 : rng_unit() * 8.0;
        if (k > 0 && rng_below(4) == 0) {
            i = coo.row[rng_below(coo.nnz)];
            j = coo.col[rng_below(coo.nnz)];
        }
        if (pattern == 6)
            v = (double)(rng_below(5) - 2);
        coo_add(&coo, i, j, v);
    }
    if (rng_below(8) == 0 && coo.nnz > 0) {
        k = rng_below(coo.nnz);
        if (rng_below(2))
            coo.row[k] = rng_below(2) ? -1 : nr;
        else
            coo.col[k] = rng_below(2) ? -1 : nc;
    }
    printf("seed.coo rows %d cols %d nnz %d\n", nr, nc, coo.nnz);
    for (k = 0; k < 2; k++) {
        rc = csr_from_coo(&coo, &A, k);
        printf("seed.convert drop %d rc %d check %d\n", k, rc, rc >= 0 ? csr_check(&A) : -99);
        if (rc < 0)
            return;
        put_csr("seed.csr", &A);
    }
    csr_transpose(&A, &B);
    printf("seed.transpose check %d symmetric %d %d\n", csr_check(&B), csr_symmetric(&A, 0.0),
           csr_symmetric(&A, 4.0));
    put_csr("seed.t", &B);
    printf("seed.diag missing %d\n", csr_diag(&A, xv));
    put_vec("seed.diag", xv, nr < nc ? nr : nc);
    printf("seed.find");
    for (k = 0; k < 24; k++) {
        int i = rng_range(-1, nr), j = rng_range(-1, nc);
        if (A.nnz > 0 && rng_below(2)) {
            int at = rng_below(A.nnz);
            j = A.col[at];
            for (i = 0; A.rowptr[i + 1] <= at; i++)
                ;
        }
        printf(" %d", csr_find(&A, i, j));
    }
    printf("\n");
    pattern_vec(pattern, xv, nc);
    spmv(&A, xv, yv);
    put_vec("seed.spmv", yv, nr);
    pattern_vec(pattern, xv, nr);
    spmv_t(&A, xv, yv);
    put_vec("seed.spmv_t", yv, nc);
    pattern_vec(pattern, xv, nc);
    pattern_vec(0, yv, nr);
    {
        double alpha = rng_unit();
        double beta = rng_below(3) == 0 ? 0.0 : rng_unit();
        spmv_axpby(&A, alpha, xv, beta, yv);
    }
    put_vec("seed.axpby", yv, nr);
    pattern_vec(pattern, yv, nr);
    printf("seed.residual %.17g dot %.17g inf %.17g\n", residual(&A, xv, yv, bv), vec_dot(xv, xv, nc),
           vec_norm_inf(yv, nr));
    put_vec("seed.r", bv, nr);
}

/* a random square system of one of the generated kinds */
static int seeded_system(int pattern)
{
    int kind = rng_below(4), rc;

    if (kind == 0) {
        int nx = rng_range(1, 20), ny = rng_range(1, SP_MAX_N / nx < 20 ? SP_MAX_N / nx : 20);
        rc = gen_poisson2d(&coo, nx, ny);
        printf("seed.system poisson %d %d rc %d\n", nx, ny, rc);
    } else if (kind == 1) {
        int n = pattern == 6 ? rng_range(1, 4) : rng_range(1, SP_MAX_N);
        int per = rng_range(0, 8);
        double shift = rng_below(4) == 0 ? 0.0 : rng_unit() + 1.0;
        uint32_t s;
        if (rng_below(2))
            shift *= 1e-3;
        s = (uint32_t)rng_next();
        if ((long)n * (2 * per + 2) > SP_MAX_NNZ)
            per = SP_MAX_NNZ / (2 * n) - 1;
        rc = gen_random_spd(&coo, n, per, shift, s);
        printf("seed.system spd %d %d %.17g %lu rc %d\n", n, per, shift, (unsigned long)s, rc);
    } else if (kind == 2) {
        int nx = rng_range(1, 20), ny = rng_range(1, 20);
        double cx = rng_unit() * 4.0, cy = rng_below(4) == 0 ? 0.0 : rng_unit() * 4.0;
        rc = gen_convdiff2d(&coo, nx, ny, cx, cy);
        printf("seed.system convdiff %d %d %.17g %.17g rc %d\n", nx, ny, cx, cy, rc);
    } else {
        int n = rng_range(1, pattern == 6 ? 4 : 60), i, k, m = rng_range(0, 4 * n);
        coo_init(&coo, n, n);
        for (i = 0; i < n; i++) {
            if (rng_below(12) != 0) {
                double v = rng_unit() * 2.0;
                coo_add(&coo, i, i, v + (rng_below(2) ? 4.0 : 0.0));
            }
        }
        for (k = 0; k < m; k++) {
            int r = rng_below(n), c = rng_below(n);
            coo_add(&coo, r, c, rng_unit());
        }
        printf("seed.system random %d %d\n", n, m);
        rc = 0;
    }
    if (rc < 0)
        return rc;
    return csr_from_coo(&coo, &A, rng_below(2));
}

static void seeded_solve(int pattern)
{
    static const double tols[] = { 0.0, 1e-14, 1e-8, 1e-3, 0.5, 1.0, 2.0 };
    int n, kind, method, rc, max_iter;
    double omega, tol;

    if (seeded_system(pattern) < 0)
        return;
    n = A.nrows;
    put_csr("seed.A", &A);
    kind = rng_range(-1, 4);
    omega = rng_below(8) == 0 ? (double)rng_range(-1, 3) : 0.05 + 1.9 * (rng_unit() + 1.0) / 2.0;
    rc = pc_setup(&pc, &A, kind, omega);
    printf("seed.pc kind %d omega %.17g rc %d\n", kind, omega, rc);
    if (rc != 0) {
        kind = 0;
        pc_setup(&pc, &A, SP_PC_NONE, 1.0);
    }
    if (kind > 0) {
        put_vec("seed.pc.inv_diag", pc.inv_diag, n);
        put_vec("seed.pc.f", pc.f.val, pc.f.nnz);
    }
    rc = gen_rhs(&A, rng_range(-1, 4), xt, bv);
    if (rc != 0 || rng_below(4) == 0)
        pattern_vec(pattern, bv, n);
    switch (rng_below(4)) {
    case 0:
        vec_copy(xt, x0, n);
        break;
    case 1:
        pattern_vec(pattern, x0, n);
        break;
    default:
        vec_fill(0.0, x0, n);
        break;
    }
    max_iter = rng_below(3) == 0 ? rng_range(0, 6) : rng_range(0, SP_MAX_ITER);
    tol = tols[rng_below(7)];
    if (rng_below(8) == 0)
        tol = rng_below(2) ? -1.0 : 1e300;
    if (rng_below(10) == 0)
        max_iter = rng_below(2) ? -1 : SP_MAX_ITER + 1;
    for (method = 0; method < 3; method++)
        solve("seed.solve", method, bv, x0, max_iter, tol);
    method = rng_range(-1, 2);
    front("seed", method, rng_range(-1, 4), omega, x0, max_iter, tol);
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8), i;

    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    for (i = 0; i < 2; i++)
        seeded_triplets(pattern);
    for (i = 0; i < 4; i++)
        seeded_solve(pattern);
}

int main(int argc, char **argv)
{
    unsigned long long seed = 0;
    char *end = NULL;

    if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
        seed = strtoull(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0') {
            fprintf(stderr, "usage: %s [--seed N]: N must be a decimal number\n", argv[0]);
            return 2;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
        return 2;
    }
    if (seed == 0)
        run_fixed();
    else
        run_seeded((uint64_t)seed);
    return 0;
}
