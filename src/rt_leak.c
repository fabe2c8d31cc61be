/* rt_leak — nearest training queries of each test query.
 *
 * Exact search (the default) is a matrix product through the BLAS, in blocks of test rows ×
 * training rows, of unit float32 rows (the caller's, when they are unit vectors already, else
 * normalised copies); each block's scores are scanned for the ones that may reach the threshold
 * or beat a test row's current k-th best, which are few, so the search costs little more than
 * the product. Approximate indexes go through the Faiss C API. Either way, candidates are
 * rescored in double from the caller's vectors, so that reported scores do not depend on BLAS
 * rounding and identical vectors tie exactly, and ordered by (score descending, training row
 * ascending). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_faiss.h"
#include "rt_leak.h"
#include "rt_mem.h"
#include "rt_ngram.h"

/* Candidates beyond k fetched from Faiss, so that a tie at the k-th place is usually seen whole
 * without searching again; in the exact search, a row is pruned when it holds 2k + this. */
#define TIE_MARGIN 16
/* Float32 inner products of unit vectors (rows rounded to float, or unit to 1e-5 in their sum
 * of squares) are off by less than this up to d = 838; beyond, by less than d × 2^-23 (twice
 * the worst case of d × 2^-24), which then is the search's slack. */
#define SLACK 1e-4
/* Bytes of training rows normalised and added to the index per call, when they are not unit
 * vectors already (those are added in one call, without a copy). */
#define ADD_BYTES (32u << 20)

typedef struct cand {
    double score;
    uint32_t train;
} cand;

typedef struct search {
    const rt_embed *test, *train;
    double *inv_test, *inv_train;   /* 1 / L2 norm of each row; 0 for a zero row */
    const rt_faiss_api *fx;         /* the BLAS and Faiss (rt_faiss.h) */
    void *ix;                       /* a Faiss index */
    size_t k;
    double threshold;
    double slack;                   /* how far a float32 score may be below the true cosine */
    rt_leak_pair *out;
    size_t n, cap;
    cand *c;                        /* one test row's candidates */
    size_t ccap;
} search;

/* One test row's candidates in the exact search: training rows whose cosine reaches the
 * threshold, in increasing training row order until the first prune. */
typedef struct row {
    cand *c;
    size_t n, cap;
    int full;       /* pruned to its best k: a later training row must beat the k-th */
    float kth;      /* then: the k-th best score as reported */
    float floor;    /* scores of the product below this cannot be reported */
} row;

void rt_leak_opts_default(rt_leak_opts *o)
{
    *o = (rt_leak_opts){.threshold = NAN, .k = RT_LEAK_K, .dim = RT_NGRAM_DIM, .batch = RT_LEAK_BATCH,
                        .train_batch = RT_LEAK_TRAIN_BATCH};
}

double rt_leak_threshold(const rt_leak_opts *o, int builtin)
{
    if (o && !isnan(o->threshold))
        return o->threshold;
    return builtin ? RT_NGRAM_THRESHOLD : RT_LEAK_THRESHOLD_EMB;
}

/* Faiss's last error as an rt_err: its message without the C++ location prefix ("Error in
 * FUNCTION at FILE:LINE: "), on one line. */
static rt_status faiss_fail(const rt_faiss_api *fx, rt_err *err, rt_status st, const char *what)
{
    const char *m = fx->last_error();
    if (!m || !*m)
        m = "unknown error";
    const char *at = strstr(m, " at ");
    const char *colon = at ? strstr(at, ": ") : NULL;
    if (strncmp(m, "Error in ", 9) == 0 && colon)
        m = colon + 2;
    char buf[600];
    size_t n = 0;
    for (; *m && n + 1 < sizeof buf; m++)
        buf[n++] = (*m == '\n' || *m == '\r' || *m == '\t') ? ' ' : *m;
    while (n && buf[n - 1] == ' ')
        n--;
    buf[n] = '\0';
    return rt_err_set(err, st, "Faiss: %s: %s", what, buf);
}

/* 1 / the L2 norm of v, summed in double in order; 0 for a zero vector. */
static double inverse_norm(const float *v, size_t d)
{
    double ss = 0;
    for (size_t j = 0; j < d; j++)
        ss += (double)v[j] * v[j];
    return ss > 0 ? 1.0 / sqrt(ss) : 0.0;
}

static double *inverse_norms(const rt_embed *e)
{
    double *inv = rt_reallocarray(NULL, e->n ? e->n : 1, sizeof *inv);
    for (size_t i = 0; i < e->n; i++)
        inv[i] = inverse_norm(e->x + i * e->d, e->d);
    return inv;
}

/* Rows [first, first + n) of e scaled to unit norm, into buf (n × d floats). */
static void unit_rows(const rt_embed *e, const double *inv, size_t first, size_t n, float *buf)
{
    for (size_t i = 0; i < n; i++) {
        const float *v = e->x + (first + i) * e->d;
        float *w = buf + i * e->d;
        for (size_t j = 0; j < e->d; j++)
            w[j] = (float)(v[j] * inv[first + i]);
    }
}

static int is_flat(const char *spec)
{
    return !spec || !*spec || strcmp(spec, "Flat") == 0;
}

static rt_status make_index(const rt_faiss_api *fx, size_t d, const rt_leak_opts *o, void **ix,
                            rt_err *err)
{
    *ix = NULL;
    if (is_flat(o->index_spec)) {
        if (fx->flat_ip(ix, (int64_t)d) != 0)
            return faiss_fail(fx, err, RT_EINPUT, "creating the exact index");
    } else if (fx->factory_ip(ix, (int)d, o->index_spec) != 0) {
        char what[300];
        snprintf(what, sizeof what, "index '%s'", o->index_spec);
        return faiss_fail(fx, err, RT_EUSAGE, what);
    }
    if (o->index_params && *o->index_params && fx->set_params(*ix, o->index_params) != 0) {
        char what[300];
        snprintf(what, sizeof what, "index parameters '%s'", o->index_params);
        return faiss_fail(fx, err, RT_EUSAGE, what);
    }
    return RT_OK;
}

static int all_unit(const rt_embed *e, const double *inv)
{
    for (size_t i = 0; i < e->n; i++)
        if (fabs(inv[i] - 1.0) > 1e-6)
            return 0;
    return 1;
}

/* Trains the index when it needs it (IVF, PQ: on all training rows) and adds the rows. Unit rows
 * (from rt_embed_normalize or the built-in embedder) go in as they are, in one call: the index
 * then grows once, to its final size, and holds the only copy. Others are normalised in slices;
 * the index's storage then grows step by step. */
static rt_status train_index(const rt_faiss_api *fx, void *ix, const rt_embed *train, const double *inv,
                             int unit, rt_err *err)
{
    float *all = unit ? train->x : rt_reallocarray(NULL, train->n * train->d, sizeof *all);
    if (!unit)
        unit_rows(train, inv, 0, train->n, all);
    int rc = fx->train(ix, (int64_t)train->n, all);
    if (!unit)
        free(all);
    return rc == 0 ? RT_OK : faiss_fail(fx, err, RT_EINPUT, "training the index");
}

static rt_status fill_index(const rt_faiss_api *fx, void *ix, const rt_embed *train, const double *inv,
                            rt_err *err)
{
    int unit = all_unit(train, inv);
    if (!fx->is_trained(ix)) {
        rt_status st = train_index(fx, ix, train, inv, unit, err);
        if (st != RT_OK)
            return st;
    }
    if (unit)
        return fx->add(ix, (int64_t)train->n, train->x) == 0
                   ? RT_OK : faiss_fail(fx, err, RT_EINPUT, "adding the training vectors");
    size_t step = ADD_BYTES / (train->d * sizeof *train->x) + 1;
    if (step > train->n)
        step = train->n;
    float *buf = rt_reallocarray(NULL, step * train->d, sizeof *buf);
    rt_status st = RT_OK;
    for (size_t first = 0; first < train->n && st == RT_OK; first += step) {
        size_t n = train->n - first < step ? train->n - first : step;
        unit_rows(train, inv, first, n, buf);
        if (fx->add(ix, (int64_t)n, buf) != 0)
            st = faiss_fail(fx, err, RT_EINPUT, "adding the training vectors");
    }
    free(buf);
    return st;
}

/* ---- searching -------------------------------------------------------------------------------- */

static double cosine(const search *s, size_t t, uint32_t r)
{
    size_t d = s->test->d;
    const float *a = s->test->x + t * d, *b = s->train->x + (size_t)r * d;
    double dot = 0;
    for (size_t j = 0; j < d; j++)
        dot += (double)a[j] * b[j];
    return dot * s->inv_test[t] * s->inv_train[r];
}

/* Best first by the score as reported (float32), then by training row: cosines that differ only
 * in double-precision rounding (a vector and a scaled copy of it) tie as they print. */
static int cmp_cand(const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb;
    float x = (float)a->score, y = (float)b->score;
    if (x != y)
        return x > y ? -1 : 1;
    return a->train < b->train ? -1 : a->train > b->train;
}

/* Rescores test row t's kq Faiss candidates that may reach the threshold (zero training rows
 * never match) into s->c, sorted best first; returns how many there are. */
static size_t gather(search *s, size_t t, const int64_t *lab, const float *dis, size_t kq)
{
    RT_GROW(s->c, s->ccap, kq);
    size_t nc = 0;
    for (size_t j = 0; j < kq; j++) {
        if (lab[j] < 0 || dis[j] + s->slack < s->threshold || s->inv_train[lab[j]] == 0)
            continue;
        s->c[nc].train = (uint32_t)lab[j];
        s->c[nc++].score = cosine(s, t, (uint32_t)lab[j]);
    }
    qsort(s->c, nc, sizeof *s->c, cmp_cand);
    return nc;
}

/* Whether training rows beyond the kq fetched could still be reported: the last one Faiss
 * returned (the lowest score, an upper bound on the rest) reaches the threshold and ties with
 * or beats the k-th candidate, or there are fewer than k candidates. The slack covers float32
 * rounding in Faiss's scores, so near-ties count as ties here. */
static int needs_more(const search *s, size_t nc, const int64_t *lab, const float *dis, size_t kq)
{
    if (kq >= s->train->n || lab[kq - 1] < 0)
        return 0;
    double last = (double)dis[kq - 1] + s->slack;
    if (last < s->threshold)
        return 0;
    return nc < s->k || last >= s->c[s->k - 1].score;
}

static void emit(search *s, size_t t, size_t nc)
{
    for (size_t i = 0; i < nc && i < s->k && s->c[i].score >= s->threshold; i++) {
        RT_GROW(s->out, s->cap, s->n + 1);
        s->out[s->n++] = (rt_leak_pair){(uint32_t)t, s->c[i].train, (float)s->c[i].score};
    }
}

/* Searches test rows [first, first + n) with kq candidates each and appends their pairs; a row
 * whose tie at the k-th place may go on past kq is searched again alone with four times more. */
static rt_status search_rows(search *s, size_t first, size_t n, size_t kq, rt_err *err)
{
    size_t d = s->test->d;
    float *x = rt_reallocarray(NULL, n * d, sizeof *x);
    float *dis = rt_reallocarray(NULL, n * kq, sizeof *dis);
    int64_t *lab = rt_reallocarray(NULL, n * kq, sizeof *lab);
    unit_rows(s->test, s->inv_test, first, n, x);
    rt_status st = RT_OK;
    if (s->fx->search(s->ix, (int64_t)n, x, (int64_t)kq, dis, lab) != 0)
        st = faiss_fail(s->fx, err, RT_EINPUT, "searching");
    for (size_t i = 0; i < n && st == RT_OK; i++) {
        size_t t = first + i;
        if (s->inv_test[t] == 0)
            continue;   /* a zero vector has no neighbours */
        size_t nc = gather(s, t, lab + i * kq, dis + i * kq, kq);
        if (needs_more(s, nc, lab + i * kq, dis + i * kq, kq))
            st = search_rows(s, t, 1, 4 * kq < s->train->n ? 4 * kq : s->train->n, err);
        else
            emit(s, t, nc);
    }
    free(x);
    free(dis);
    free(lab);
    return st;
}

/* ---- exact search: blocks of the matrix product ------------------------------------------------ */

static int all_zero(const float *v, size_t d)
{
    for (size_t j = 0; j < d; j++)
        if (v[j] != 0)
            return 0;
    return 1;
}

/* Whether every row of e is a unit vector to float precision, or zero (a zero row's products are
 * 0, and it is never reported). Summed in float with independent partial sums, so the check is
 * a quick pass over memory; a row that fails it only costs a normalised copy. A tiny row whose
 * sum of squares underflows to 0 in float is not zero: its products would be. */
static int unit_or_zero(const float *x, size_t n, size_t d)
{
    for (size_t i = 0; i < n; i++) {
        const float *v = x + i * d;
        float acc[8] = {0};
        size_t j = 0;
        for (; j + 8 <= d; j += 8)
            for (size_t u = 0; u < 8; u++)
                acc[u] += v[j + u] * v[j + u];
        float ss = 0;
        for (size_t u = 0; u < 8; u++)
            ss += acc[u];
        for (; j < d; j++)
            ss += v[j] * v[j];
        if (ss == 0 ? !all_zero(v, d) : !(fabsf(ss - 1) <= 1e-5f))
            return 0;
    }
    return 1;
}

/* The training rows' inverse norms are computed when a row first becomes a candidate: on most
 * data few do, and a pass over all of them would cost a tenth of the product. */
#define NOT_YET (-1.0)

static double train_inv(search *s, uint32_t r)
{
    if (s->inv_train[r] == NOT_YET)
        s->inv_train[r] = inverse_norm(s->train->x + (size_t)r * s->train->d, s->train->d);
    return s->inv_train[r];
}

/* Keeps row w's best k candidates; from then on the product's score of a later training row
 * must come within the slack of the k-th to be looked at, and its cosine must beat the k-th as
 * reported (a tie loses: its training row is higher). */
static void prune(search *s, row *w)
{
    qsort(w->c, w->n, sizeof *w->c, cmp_cand);
    w->n = s->k;
    w->full = 1;
    w->kth = (float)w->c[s->k - 1].score;
    double bound = (double)w->kth > s->threshold ? (double)w->kth : s->threshold;
    w->floor = (float)(bound - s->slack);
}

/* Training row r's product with test row t reached w->floor: rescored, it joins the candidates
 * when it can still be reported. */
static void consider(search *s, row *w, size_t t, uint32_t r)
{
    if (train_inv(s, r) == 0)
        return;   /* a zero vector has no neighbours */
    double score = cosine(s, t, r);
    if (score < s->threshold || (w->full && !((float)score > w->kth)))
        return;
    RT_GROW(w->c, w->cap, w->n + 1);
    w->c[w->n++] = (cand){score, r};
    if (w->n >= 2 * s->k + TIE_MARGIN)
        prune(s, w);
}

/* Looks at test row t's products with training rows [first, first + n) (sc), SCAN_GROUP at a
 * time: on most data no product in a group reaches the floor. */
#define SCAN_GROUP 64
static void scan_row(search *s, row *w, size_t t, const float *sc, size_t first, size_t n)
{
    size_t j = 0;
    for (; j + SCAN_GROUP <= n; j += SCAN_GROUP) {
        int hit = 0;
        for (size_t u = 0; u < SCAN_GROUP; u++)
            hit |= sc[j + u] >= w->floor;
        if (!hit)
            continue;
        for (size_t u = 0; u < SCAN_GROUP; u++)
            if (sc[j + u] >= w->floor)
                consider(s, w, t, (uint32_t)(first + j + u));
    }
    for (; j < n; j++)
        if (sc[j] >= w->floor)
            consider(s, w, t, (uint32_t)(first + j));
}

/* Appends test row t's pairs: its best k candidates (all reach the threshold). */
static void emit_row(search *s, size_t t, row *w)
{
    if (w->n == 0)
        return;   /* w->c may be NULL, which qsort must not be given */
    qsort(w->c, w->n, sizeof *w->c, cmp_cand);
    size_t n = w->n < s->k ? w->n : s->k;
    RT_GROW(s->out, s->cap, s->n + n);
    for (size_t i = 0; i < n; i++)
        s->out[s->n++] = (rt_leak_pair){(uint32_t)t, w->c[i].train, (float)w->c[i].score};
}

/* The training rows as unit vectors: the caller's when they are unit already, else a normalised
 * copy (*copy, which the caller frees; the inverse norms are then all computed). */
static const float *unit_train(search *s, float **copy)
{
    const rt_embed *e = s->train;
    *copy = NULL;
    if (unit_or_zero(e->x, e->n, e->d))
        return e->x;
    for (size_t i = 0; i < e->n; i++)
        train_inv(s, (uint32_t)i);
    *copy = rt_reallocarray(NULL, e->n * e->d, sizeof **copy);
    unit_rows(e, s->inv_train, 0, e->n, *copy);
    return *copy;
}

/* Test rows [first, first + n) against every training row (tx: unit rows), block by block:
 * sc holds one block's products, test row by test row (n × block floats). */
static void exact_rows(search *s, const float *qx, size_t first, size_t n, const float *tx,
                       size_t block, float *sc, row *rows)
{
    size_t d = s->test->d;
    float floor = (float)(s->threshold - s->slack);
    for (size_t i = 0; i < n; i++)
        rows[i] = (row){.c = rows[i].c, .cap = rows[i].cap, .floor = floor};
    for (size_t j0 = 0; j0 < s->train->n; j0 += block) {
        size_t nj = s->train->n - j0 < block ? s->train->n - j0 : block;
        /* sc[i][j] = qx[i] · tx[j0 + j]: the call Faiss makes, in the same blocks */
        s->fx->sgemm_abt((int)n, (int)nj, (int)d, qx, tx + j0 * d, sc);
        for (size_t i = 0; i < n; i++)
            if (s->inv_test[first + i] != 0)   /* a zero vector has no neighbours */
                scan_row(s, &rows[i], first + i, sc + i * nj, j0, nj);
    }
    for (size_t i = 0; i < n; i++)
        emit_row(s, first + i, &rows[i]);
}

/* The BLAS takes int sizes: blocks stay well below that. */
#define MAX_BLOCK ((size_t)1 << 24)

static void exact_search(search *s, size_t batch, size_t block)
{
    const rt_embed *te = s->test;
    if (block > s->train->n)
        block = s->train->n;
    if (block > MAX_BLOCK)
        block = MAX_BLOCK;
    if (batch > te->n)
        batch = te->n;
    if (batch > MAX_BLOCK)
        batch = MAX_BLOCK;
    for (size_t r = 0; r < s->train->n; r++)
        s->inv_train[r] = NOT_YET;
    float *tcopy;
    const float *tx = unit_train(s, &tcopy);
    int unit_test = unit_or_zero(te->x, te->n, te->d);
    float *qbuf = unit_test ? NULL : rt_reallocarray(NULL, batch * te->d, sizeof *qbuf);
    float *sc = rt_reallocarray(NULL, batch * block, sizeof *sc);
    row *rows = rt_calloc(batch, sizeof *rows);
    for (size_t first = 0; first < te->n; first += batch) {
        size_t n = te->n - first < batch ? te->n - first : batch;
        if (!unit_test)
            unit_rows(te, s->inv_test, first, n, qbuf);
        exact_rows(s, unit_test ? te->x + first * te->d : qbuf, first, n, tx, block, sc, rows);
    }
    for (size_t i = 0; i < batch; i++)
        free(rows[i].c);
    free(rows);
    free(sc);
    free(qbuf);
    free(tcopy);
}

static rt_status check_shapes(const rt_embed *test, const rt_embed *train, const rt_leak_opts *o,
                              rt_err *err)
{
    if (test->d != train->d)
        return rt_err_set(err, RT_EINPUT,
                          "the test vectors have dimension %zu, the training vectors %zu", test->d,
                          train->d);
    if (test->d == 0 || test->d > (1u << 20))
        return rt_err_set(err, RT_EINPUT, "vector dimension %zu is not usable", test->d);
    if (test->n >= UINT32_MAX || train->n >= UINT32_MAX)
        return rt_err_set(err, RT_EINPUT, "more than 2^32 - 1 vectors");
    if (o->k == 0)
        return rt_err_set(err, RT_EUSAGE, "k must be at least 1");
    return RT_OK;
}

rt_status rt_leak_search(const rt_embed *test, const rt_embed *train, const rt_leak_opts *o,
                         double threshold, rt_leak_pair **out, size_t *npairs, rt_err *err)
{
    *out = NULL;
    *npairs = 0;
    rt_leak_opts def;
    if (!o) {
        rt_leak_opts_default(&def);
        o = &def;
    }
    rt_status st = check_shapes(test, train, o, err);
    if (st != RT_OK || test->n == 0 || train->n == 0)
        return st;
    const rt_faiss_api *fx = rt_faiss_load(err);
    if (!fx)
        return RT_EINPUT;
    double worst = (double)test->d * 0x1p-23;
    search s = {.test = test, .train = train, .fx = fx, .k = o->k, .threshold = threshold,
                .slack = worst > SLACK ? worst : SLACK};
    s.inv_test = inverse_norms(test);
    size_t batch = o->batch ? o->batch : RT_LEAK_BATCH;
    if (is_flat(o->index_spec) && !(o->index_params && *o->index_params)) {
        s.inv_train = rt_reallocarray(NULL, train->n, sizeof *s.inv_train);
        exact_search(&s, batch, o->train_batch ? o->train_batch : RT_LEAK_TRAIN_BATCH);
    } else {
        s.inv_train = inverse_norms(train);
        st = make_index(fx, test->d, o, &s.ix, err);
        if (st == RT_OK)
            st = fill_index(fx, s.ix, train, s.inv_train, err);
        size_t kq = o->k + TIE_MARGIN < train->n ? o->k + TIE_MARGIN : train->n;
        for (size_t first = 0; first < test->n && st == RT_OK; first += batch)
            st = search_rows(&s, first, test->n - first < batch ? test->n - first : batch, kq, err);
    }
    if (s.ix)
        fx->free_index(s.ix);
    free(s.inv_test);
    free(s.inv_train);
    free(s.c);
    if (st != RT_OK) {
        free(s.out);
        return st;
    }
    *out = s.out;
    *npairs = s.n;
    return RT_OK;
}

/* The built-in embedder's vectors for both sides, idf counted over both. */
static void embed_builtin(const char *const *test_texts, size_t ntest, const char *const *train_texts,
                          size_t ntrain, size_t dim, rt_embed **test, rt_embed **train)
{
    rt_ngram *m = rt_ngram_new(dim);
    rt_ngram_count(m, test_texts, ntest);
    rt_ngram_count(m, train_texts, ntrain);
    *test = rt_ngram_embed(m, test_texts, ntest, NULL);
    *train = rt_ngram_embed(m, train_texts, ntrain, NULL);
    rt_ngram_free(&m);
}

rt_status rt_leak_find(const char *const *test_texts, size_t ntest,
                       const char *const *train_texts, size_t ntrain,
                       const rt_embed *test_emb, const rt_embed *train_emb,
                       const rt_leak_opts *o, rt_leak_pair **out, size_t *npairs, rt_err *err)
{
    *out = NULL;
    *npairs = 0;
    rt_leak_opts def;
    if (!o) {
        rt_leak_opts_default(&def);
        o = &def;
    }
    if (!test_emb != !train_emb)
        return rt_err_set(err, RT_EUSAGE,
                          "give embeddings for both the test and the training queries, or for neither");
    if (test_emb) {
        if (test_emb->n != ntest || train_emb->n != ntrain)
            return rt_err_set(err, RT_EINPUT,
                              "%zu test vectors for %zu test queries, %zu training vectors for %zu "
                              "training queries: they must be equal",
                              test_emb->n, ntest, train_emb->n, ntrain);
        return rt_leak_search(test_emb, train_emb, o, rt_leak_threshold(o, 0), out, npairs, err);
    }
    rt_embed *te, *tr;
    embed_builtin(test_texts, ntest, train_texts, ntrain, o->dim, &te, &tr);
    rt_status st = rt_leak_search(te, tr, o, rt_leak_threshold(o, 1), out, npairs, err);
    rt_embed_free(&te);
    rt_embed_free(&tr);
    return st;
}

const char *const rt_leak_types[] = {"identical", "generalization", "specialization",
                                     "reformulation", "different-topic", "not-leak", NULL};
