/*
 * csr.c -- coordinate and compressed-sparse-row storage.
 *
 * csr_from_coo converts triplets given in any order: a counting sort
 * places every triplet in its row (keeping their relative order), an
 * insertion sort orders each row by column (stable, so duplicates keep
 * the order they were added in), and duplicates are summed in that order.
 * Entries whose sum is exactly zero can be dropped.
 */
#include "sparse.h"

int coo_init(coo_t *a, int nrows, int ncols)
{
    if (nrows < 0 || nrows > SP_MAX_N || ncols < 0 || ncols > SP_MAX_N)
        return -1;
    a->nrows = nrows;
    a->ncols = ncols;
    a->nnz = 0;
    return 0;
}

/* appends a triplet; returns its index, -1 outside the matrix, -2 when full */
int coo_add(coo_t *a, int i, int j, double v)
{
    if (i < 0 || i >= a->nrows || j < 0 || j >= a->ncols)
        return -1;
    if (a->nnz >= SP_MAX_NNZ)
        return -2;
    a->row[a->nnz] = i;
    a->col[a->nnz] = j;
    a->val[a->nnz] = v;
    return a->nnz++;
}

/* sorts entries lo..hi-1 by column; equal columns keep their order */
static void csr_sort_row(int *col, double *val, int lo, int hi)
{
    int i, j;

    for (i = lo + 1; i < hi; i++) {
        int c = col[i];
        double v = val[i];
        j = i - 1;
        while (j >= lo && col[j] > c) {
            col[j + 1] = col[j];
            val[j + 1] = val[j];
            j--;
        }
        col[j + 1] = c;
        val[j + 1] = v;
    }
}

/* sums runs of equal columns in entries lo..hi-1, writing from out; returns the new end */
static int csr_sum_row(int *col, double *val, int lo, int hi, int out, int drop_zeros)
{
    int start = out, k, w;

    for (k = lo; k < hi; k++) {
        if (out > start && col[out - 1] == col[k]) {
            val[out - 1] += val[k];
        } else {
            col[out] = col[k];
            val[out] = val[k];
            out++;
        }
    }
    if (!drop_zeros)
        return out;
    w = start;
    for (k = start; k < out; k++) {
        if (val[k] != 0.0) {
            col[w] = col[k];
            val[w] = val[k];
            w++;
        }
    }
    return w;
}

/*
 * COO to CSR.  Returns the stored entries, -1 for bad dimensions or
 * counts, -2 for a triplet outside the matrix.
 */
int csr_from_coo(const coo_t *a, csr_t *m, int drop_zeros)
{
    static int next[SP_MAX_N];
    int i, k, nnz, n = a->nrows;

    if (n < 0 || n > SP_MAX_N || a->ncols < 0 || a->ncols > SP_MAX_N || a->nnz < 0 || a->nnz > SP_MAX_NNZ)
        return -1;
    for (k = 0; k < a->nnz; k++) {
        if (a->row[k] < 0 || a->row[k] >= n || a->col[k] < 0 || a->col[k] >= a->ncols)
            return -2;
    }
    m->nrows = n;
    m->ncols = a->ncols;
    for (i = 0; i <= n; i++)
        m->rowptr[i] = 0;
    for (k = 0; k < a->nnz; k++)
        m->rowptr[a->row[k] + 1]++;
    for (i = 0; i < n; i++)
        m->rowptr[i + 1] += m->rowptr[i];
    for (i = 0; i < n; i++)
        next[i] = m->rowptr[i];
    for (k = 0; k < a->nnz; k++) {
        int dst = next[a->row[k]]++;
        m->col[dst] = a->col[k];
        m->val[dst] = a->val[k];
    }
    for (i = 0; i < n; i++)
        csr_sort_row(m->col, m->val, m->rowptr[i], m->rowptr[i + 1]);
    nnz = 0;
    for (i = 0; i < n; i++) {
        int lo = m->rowptr[i], hi = m->rowptr[i + 1];
        m->rowptr[i] = nnz;
        nnz = csr_sum_row(m->col, m->val, lo, hi, nnz, drop_zeros);
    }
    m->rowptr[n] = nnz;
    m->nnz = nnz;
    return nnz;
}

/*
 * Structural check: 0 when valid, -1 bad dimensions, -2 bad ends of
 * rowptr, -3 rowptr decreasing, -4 column outside the matrix, -5 columns
 * of a row not strictly increasing.
 */
int csr_check(const csr_t *m)
{
    int i, k;

    if (m->nrows < 0 || m->nrows > SP_MAX_N || m->ncols < 0 || m->ncols > SP_MAX_N || m->nnz < 0 ||
        m->nnz > SP_MAX_NNZ)
        return -1;
    if (m->rowptr[0] != 0 || m->rowptr[m->nrows] != m->nnz)
        return -2;
    for (i = 0; i < m->nrows; i++) {
        if (m->rowptr[i + 1] < m->rowptr[i])
            return -3;
    }
    for (i = 0; i < m->nrows; i++) {
        for (k = m->rowptr[i]; k < m->rowptr[i + 1]; k++) {
            if (m->col[k] < 0 || m->col[k] >= m->ncols)
                return -4;
            if (k > m->rowptr[i] && m->col[k] <= m->col[k - 1])
                return -5;
        }
    }
    return 0;
}

/* t = a^T; rows of t come out sorted because a's rows are visited in order */
int csr_transpose(const csr_t *a, csr_t *t)
{
    static int next[SP_MAX_N];
    int i, k;

    t->nrows = a->ncols;
    t->ncols = a->nrows;
    t->nnz = a->nnz;
    for (i = 0; i <= t->nrows; i++)
        t->rowptr[i] = 0;
    for (k = 0; k < a->nnz; k++)
        t->rowptr[a->col[k] + 1]++;
    for (i = 0; i < t->nrows; i++)
        t->rowptr[i + 1] += t->rowptr[i];
    for (i = 0; i < t->nrows; i++)
        next[i] = t->rowptr[i];
    for (i = 0; i < a->nrows; i++) {
        for (k = a->rowptr[i]; k < a->rowptr[i + 1]; k++) {
            int dst = next[a->col[k]]++;
            t->col[dst] = i;
            t->val[dst] = a->val[k];
        }
    }
    return t->nnz;
}

/* position of entry (i, j) by binary search over row i, -1 when not stored */
int csr_find(const csr_t *m, int i, int j)
{
    int lo, hi;

    if (i < 0 || i >= m->nrows)
        return -1;
    lo = m->rowptr[i];
    hi = m->rowptr[i + 1] - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (m->col[mid] == j)
            return mid;
        if (m->col[mid] < j)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

double csr_get(const csr_t *m, int i, int j)
{
    int k = csr_find(m, i, j);

    return k < 0 ? 0.0 : m->val[k];
}

/* the diagonal (0 where not stored); returns the number of missing diagonal entries */
int csr_diag(const csr_t *m, double *d)
{
    int i, n = m->nrows < m->ncols ? m->nrows : m->ncols, missing = 0;

    for (i = 0; i < n; i++) {
        int k = csr_find(m, i, i);
        if (k < 0) {
            d[i] = 0.0;
            missing++;
        } else {
            d[i] = m->val[k];
        }
    }
    return missing;
}

/* 1 when square and |a_ij - a_ji| <= tol for every stored entry, else 0 */
int csr_symmetric(const csr_t *m, double tol)
{
    int i, k;

    if (m->nrows != m->ncols)
        return 0;
    for (i = 0; i < m->nrows; i++) {
        for (k = m->rowptr[i]; k < m->rowptr[i + 1]; k++) {
            double d = m->val[k] - csr_get(m, m->col[k], i);
            if (d > tol || -d > tol)
                return 0;
        }
    }
    return 1;
}

/*
 * c = alpha a + beta b for matrices of the same shape, merging the sorted
 * rows; entries present in only one operand are scaled alone, and sums
 * that are exactly zero stay stored.  Returns the stored entries, -1 for
 * different shapes, -2 when the result does not fit.
 */
int csr_add(double alpha, const csr_t *a, double beta, const csr_t *b, csr_t *c)
{
    int i, ka, kb, nnz = 0;

    if (a->nrows != b->nrows || a->ncols != b->ncols)
        return -1;
    c->nrows = a->nrows;
    c->ncols = a->ncols;
    c->rowptr[0] = 0;
    for (i = 0; i < a->nrows; i++) {
        ka = a->rowptr[i];
        kb = b->rowptr[i];
        while (ka < a->rowptr[i + 1] || kb < b->rowptr[i + 1]) {
            int ca = ka < a->rowptr[i + 1] ? a->col[ka] : a->ncols;
            int cb = kb < b->rowptr[i + 1] ? b->col[kb] : b->ncols;
            if (nnz == SP_MAX_NNZ)
                return -2;
            if (ca < cb) {
                c->col[nnz] = ca;
                c->val[nnz] = alpha * a->val[ka++];
            } else if (cb < ca) {
                c->col[nnz] = cb;
                c->val[nnz] = beta * b->val[kb++];
            } else {
                c->col[nnz] = ca;
                c->val[nnz] = alpha * a->val[ka++] + beta * b->val[kb++];
            }
            nnz++;
        }
        c->rowptr[i + 1] = nnz;
    }
    c->nnz = nnz;
    return nnz;
}

/* a_ij = dl_i a_ij dr_j (either scaling may be null: no scaling on that side) */
void csr_scale(csr_t *m, const double *dl, const double *dr)
{
    int i, k;

    for (i = 0; i < m->nrows; i++) {
        for (k = m->rowptr[i]; k < m->rowptr[i + 1]; k++) {
            if (dl)
                m->val[k] *= dl[i];
            if (dr)
                m->val[k] *= dr[m->col[k]];
        }
    }
}
