/* rt_live — current metrics under relabels, recomputed per touched query. */
#include "config.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "rt_live.h"
#include "rt_mem.h"

/* One judged query: what the measures need besides the ranking. */
typedef struct lq {
    uint32_t qid;
    uint32_t base_i;       /* index in the base qrels, or RT_NO_ID */
    int active;            /* has at least one current judgment */
    rt_qinfo info;
    int32_t *ideal;
    size_t icap;
} lq;

typedef struct lrun {
    double *value;         /* [live index * nm + m] */
    unsigned char *defined;
    double *mean;
    size_t *nd;
    uint32_t *first_rel;   /* [live index]: rank of the first current relevant passage, 0: none,
                              FIRST_UNKNOWN: not looked for yet (it is, at the first need) */
} lrun;

struct rt_live {
    const rt_workspace *ws;
    const rt_annot *an;
    size_t nm, depth;
    lq *q;
    size_t nq, qcap;
    uint32_t *slot;        /* qid → live index, RT_NO_ID when not judged */
    size_t nslot;
    uint32_t *sorted;      /* live indices of active queries in qid byte order */
    uint32_t *sorted_qids; /* the same as qids, for callers */
    size_t nsorted;
    lrun *runs;
    size_t nruns;          /* the workspace's runs it evaluates (rt_live_sync adds those come since) */
    int32_t *grades;
    size_t gcap;
};

int rt_live_grade(const rt_live *l, uint32_t qid, uint32_t pid, int32_t *grade)
{
    const rt_label *lb = rt_annot_label(l->an, qid, pid);
    if (lb) {
        *grade = lb->grade;
        return 1;
    }
    return rt_workspace_grade(l->ws, qid, pid, grade);
}

/* Recomputes the relevant count and ideal gains of live query x from base ⊕ relabels. */
static void query_info(rt_live *l, lq *x)
{
    size_t nj = 0, nl;
    const rt_judgment *j = x->base_i != RT_NO_ID ? rt_qrels_judgments(l->ws->qrels, x->base_i, &nj) : NULL;
    const rt_label *lb = rt_annot_labels(l->an, x->qid, &nl);
    RT_GROW(x->ideal, x->icap, nj + nl + 1);
    size_t ni = 0, nrel = 0;
    int32_t level = l->ws->level;
    for (size_t k = 0; k < nj; k++) {
        int32_t g = j[k].grade;
        const rt_label *o = rt_annot_label(l->an, x->qid, j[k].pid);
        if (o)
            continue;   /* counted with the relabels below */
        nrel += g >= level;
        if (g > 0)
            x->ideal[ni++] = g;
    }
    for (size_t k = 0; k < nl; k++) {
        nrel += lb[k].grade >= level;
        if (lb[k].grade > 0)
            x->ideal[ni++] = lb[k].grade;
    }
    rt_qinfo_set(&x->info, (uint32_t)nrel, x->ideal, ni);
    x->active = nj + nl > 0;
}

#define FIRST_UNKNOWN UINT32_MAX

/* The rank of the first currently relevant passage of run r for live query li (the whole ranking,
 * not only the measures' depth: the list shows it for any rank). A scan until the first relevant
 * passage, so it is done when first asked for, not for every query and run at an open (a query a
 * run gets wrong is a scan of its whole ranking). */
static uint32_t first_rel_of(const rt_live *l, size_t r, size_t li)
{
    const lq *x = &l->q[li];
    size_t nl;
    rt_annot_labels(l->an, x->qid, &nl);   /* without relabels only the base grades count */
    const rt_qrels *q = l->ws->qrels;
    size_t n, k;
    const uint32_t *p = rt_run_ranking(l->ws->runs[r].run, x->qid, &n);
    int32_t g;
    for (k = 0; k < n; k++)
        if ((nl ? rt_live_grade(l, x->qid, p[k], &g)
                : x->base_i != RT_NO_ID && rt_qrels_lookup(q, x->base_i, p[k], &g)) &&
            g >= l->ws->level)
            break;
    return k < n ? (uint32_t)(k + 1) : 0;
}

/* Forgets the first relevant ranks of live query li (its grades changed). */
static void query_first_rel(rt_live *l, size_t li, size_t r0, size_t r1)
{
    for (size_t r = r0; r < r1; r++)
        l->runs[r].first_rel[li] = FIRST_UNKNOWN;
}

/* The values of runs r0..r1 for live query li, from its current grades. */
static void query_values(rt_live *l, size_t li, size_t r0, size_t r1)
{
    lq *x = &l->q[li];
    for (size_t r = r0; r < r1; r++) {
        size_t n;
        const uint32_t *p = rt_run_ranking(l->ws->runs[r].run, x->qid, &n);
        size_t use = l->depth && l->depth < n ? l->depth : n;
        RT_GROW(l->grades, l->gcap, use + 1);
        for (size_t k = 0; k < use; k++)
            if (!rt_live_grade(l, x->qid, p[k], &l->grades[k]))
                l->grades[k] = RT_UNJUDGED;
        double *out = l->runs[r].value + li * l->nm;
        unsigned char *def = l->runs[r].defined + li * l->nm;
        for (size_t m = 0; m < l->nm; m++) {
            int d;
            out[m] = rt_measure_compute(&l->ws->ms[m], p ? l->grades : NULL, use, &x->info,
                                        l->ws->level, &d);
            def[m] = (unsigned char)d;
        }
    }
}

/* A base query without relabels has the values the workspace computed when it opened. */
static void copy_base(rt_live *l, size_t li, size_t r0, size_t r1)
{
    size_t from = (size_t)l->q[li].base_i * l->nm, to = li * l->nm;
    for (size_t r = r0; r < r1; r++) {
        const rt_eval_result *b = l->ws->runs[r].base;
        memcpy(l->runs[r].value + to, b->value + from, l->nm * sizeof *b->value);
        memcpy(l->runs[r].defined + to, b->defined + from, l->nm);
    }
}

static void aggregate(rt_live *l, size_t r)
{
    lrun *lr = &l->runs[r];
    for (size_t m = 0; m < l->nm; m++)
        lr->mean[m] = rt_measure_aggregate(&l->ws->ms[m], lr->value, lr->defined, l->nm, m,
                                           l->sorted, l->nsorted, &lr->nd[m]);
}

static void set_slot(rt_live *l, uint32_t qid, uint32_t li)
{
    l->slot = rt_grow_index(l->slot, &l->nslot, qid, sizeof *l->slot, 0xff);
    l->slot[qid] = li;
}

static uint32_t slot_of(const rt_live *l, uint32_t qid)
{
    return qid < l->nslot ? l->slot[qid] : RT_NO_ID;
}

/* Adds a live query for qid (judged only by relabels so far). */
static size_t add_query(rt_live *l, uint32_t qid, uint32_t base_i)
{
    size_t old = l->qcap;
    RT_GROW(l->q, l->qcap, l->nq + 1);
    if (l->qcap != old)
        for (size_t r = 0; r < l->nruns; r++) {
            l->runs[r].value = rt_reallocarray(l->runs[r].value, l->qcap * l->nm + 1, sizeof(double));
            l->runs[r].defined = rt_realloc(l->runs[r].defined, l->qcap * l->nm + 1);
            l->runs[r].first_rel = rt_reallocarray(l->runs[r].first_rel, l->qcap + 1, sizeof(uint32_t));
        }
    lq *x = &l->q[l->nq];
    memset(x, 0, sizeof *x);
    x->qid = qid;
    x->base_i = base_i;
    set_slot(l, qid, (uint32_t)l->nq);
    return l->nq++;
}

static int qid_cmp(const void *a, const void *b, void *arg)
{
    const rt_live *l = arg;
    const rt_strtab *t = l->ws->qids;
    return strcmp(rt_strtab_str(t, l->q[*(const uint32_t *)a].qid),
                  rt_strtab_str(t, l->q[*(const uint32_t *)b].qid));
}

static void sort_active(rt_live *l)
{
    l->sorted = rt_reallocarray(l->sorted, l->nq + 1, sizeof *l->sorted);
    l->sorted_qids = rt_reallocarray(l->sorted_qids, l->nq + 1, sizeof *l->sorted_qids);
    l->nsorted = 0;
    for (size_t i = 0; i < l->nq; i++)
        if (l->q[i].active)
            l->sorted[l->nsorted++] = (uint32_t)i;
    qsort_r(l->sorted, l->nsorted, sizeof *l->sorted, qid_cmp, l);
    for (size_t k = 0; k < l->nsorted; k++)
        l->sorted_qids[k] = l->q[l->sorted[k]].qid;
}

/* Adds runs l->nruns..ws->nruns: each query's values as the workspace evaluated them, or from the
 * current grades when relabels touch it (or only they judge it). */
static void add_runs(rt_live *l)
{
    size_t r0 = l->nruns, r1 = l->ws->nruns;
    if (r1 <= r0)
        return;
    l->runs = rt_reallocarray(l->runs, r1 + 1, sizeof *l->runs);
    memset(l->runs + r0, 0, (r1 + 1 - r0) * sizeof *l->runs);
    for (size_t r = r0; r < r1; r++) {
        l->runs[r].mean = rt_calloc(l->nm + 1, sizeof(double));
        l->runs[r].nd = rt_calloc(l->nm + 1, sizeof(size_t));
        l->runs[r].value = rt_reallocarray(NULL, l->qcap * l->nm + 1, sizeof(double));
        l->runs[r].defined = rt_calloc(l->qcap * l->nm + 1, 1);
        l->runs[r].first_rel = rt_reallocarray(NULL, l->qcap + 1, sizeof(uint32_t));
    }
    l->nruns = r1;
    for (size_t i = 0; i < l->nq; i++) {
        size_t n;
        rt_annot_labels(l->an, l->q[i].qid, &n);
        if (n || l->q[i].base_i == RT_NO_ID)
            query_values(l, i, r0, r1);
        else
            copy_base(l, i, r0, r1);
        query_first_rel(l, i, r0, r1);
    }
    for (size_t r = r0; r < r1; r++)
        aggregate(l, r);
}

/* The measures the workspace gained since (rt_workspace_add_measures, at the end of ws->ms): every
 * run's table widened to them, each query's values copied from the widened base evaluation or,
 * where relabels touch it, computed again from the current grades. */
static void add_measures(rt_live *l)
{
    size_t nm0 = l->nm, nm1 = l->ws->nm;
    if (nm1 <= nm0)
        return;
    for (size_t r = 0; r < l->nruns; r++) {
        lrun *lr = &l->runs[r];
        rt_eval_table_widen(&lr->value, &lr->defined, l->nq, l->qcap, nm0, nm1);
        lr->mean = rt_reallocarray(lr->mean, nm1 + 1, sizeof *lr->mean);
        lr->nd = rt_reallocarray(lr->nd, nm1 + 1, sizeof *lr->nd);
    }
    l->nm = nm1;
    l->depth = rt_measure_depth(l->ws->ms, nm1);
    for (size_t i = 0; i < l->nq; i++) {
        size_t n;
        rt_annot_labels(l->an, l->q[i].qid, &n);
        if (n || l->q[i].base_i == RT_NO_ID)
            query_values(l, i, 0, l->nruns);
        else
            copy_base(l, i, 0, l->nruns);
    }
    for (size_t r = 0; r < l->nruns; r++)
        aggregate(l, r);
}

rt_live *rt_live_new(const rt_workspace *ws, const rt_annot *an)
{
    rt_live *l = rt_calloc(1, sizeof *l);
    l->ws = ws;
    l->an = an;
    l->nm = ws->nm;
    l->depth = rt_measure_depth(ws->ms, ws->nm);
    l->runs = rt_calloc(1, sizeof *l->runs);
    for (uint32_t i = 0; i < rt_qrels_nqueries(ws->qrels); i++)
        add_query(l, rt_qrels_qid(ws->qrels, i), i);
    for (uint32_t qid = 0; qid < rt_strtab_count(ws->qids); qid++) {
        size_t n;
        rt_annot_labels(an, qid, &n);
        if (n && slot_of(l, qid) == RT_NO_ID)
            add_query(l, qid, RT_NO_ID);
    }
    for (size_t i = 0; i < l->nq; i++)
        query_info(l, &l->q[i]);
    sort_active(l);
    add_runs(l);
    return l;
}

void rt_live_sync(rt_live *l)
{
    if (!l)
        return;
    add_measures(l);   /* first: the runs in by then have every measure's values */
    add_runs(l);
}

void rt_live_free(rt_live **lp)
{
    if (!lp || !*lp)
        return;
    rt_live *l = *lp;
    for (size_t i = 0; i < l->nq; i++)
        free(l->q[i].ideal);
    free(l->q);
    for (size_t r = 0; r < l->nruns; r++) {
        free(l->runs[r].value);
        free(l->runs[r].defined);
        free(l->runs[r].mean);
        free(l->runs[r].nd);
        free(l->runs[r].first_rel);
    }
    free(l->runs);
    free(l->slot);
    free(l->sorted);
    free(l->sorted_qids);
    free(l->grades);
    free(l);
    *lp = NULL;
}

void rt_live_update(rt_live *l, uint32_t qid)
{
    uint32_t li = slot_of(l, qid);
    if (li == RT_NO_ID)
        li = (uint32_t)add_query(l, qid, RT_NO_ID);
    lq *x = &l->q[li];
    int was = x->active;
    query_info(l, x);
    query_values(l, li, 0, l->nruns);
    query_first_rel(l, li, 0, l->nruns);
    if (was != x->active)
        sort_active(l);
    for (size_t r = 0; r < l->nruns; r++)
        aggregate(l, r);
}

const double *rt_live_mean(const rt_live *l, size_t r) { return l->runs[r].mean; }
const size_t *rt_live_n_defined(const rt_live *l, size_t r) { return l->runs[r].nd; }
size_t rt_live_nqueries(const rt_live *l) { return l->nsorted; }

int rt_live_is_judged(const rt_live *l, uint32_t qid)
{
    uint32_t li = slot_of(l, qid);
    return li != RT_NO_ID && l->q[li].active;
}

const uint32_t *rt_live_sorted(const rt_live *l, size_t *n)
{
    *n = l->nsorted;
    return l->sorted_qids;
}

size_t rt_live_first_rel(const rt_live *l, size_t r, uint32_t qid)
{
    uint32_t li = slot_of(l, qid);
    if (li == RT_NO_ID || !l->q[li].active || r >= l->nruns)
        return 0;
    uint32_t *f = &l->runs[r].first_rel[li];   /* a memo: the array is the live state's own */
    if (*f == FIRST_UNKNOWN)
        *f = first_rel_of(l, r, li);
    return *f;
}

double rt_live_rr(const rt_live *l, size_t r, uint32_t qid, size_t k)
{
    size_t f = rt_live_first_rel(l, r, qid);
    return f && (k == 0 || f <= k) ? 1.0 / (double)f : 0.0;
}

int rt_live_value(const rt_live *l, size_t r, uint32_t qid, size_t m, double *v)
{
    assert(m < l->nm);
    uint32_t li = slot_of(l, qid);
    if (li == RT_NO_ID || !l->q[li].active || r >= l->nruns)
        return 0;
    size_t at = (size_t)li * l->nm + m;
    *v = l->runs[r].value[at];
    return l->runs[r].defined[at];
}

void rt_live_mean_over(const rt_live *l, size_t r, const uint32_t *qids, size_t n, int current,
                       double *mean, size_t *n_defined)
{
    /* The rows of the judged queries among qids, in the order given: live slots for current
     * values, qrels indices for the base evaluation's. */
    const rt_eval_result *b = l->ws->runs[r].base;
    uint32_t *rows = rt_calloc(n + 1, sizeof *rows);
    size_t nrows = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t row = current ? slot_of(l, qids[k]) : rt_qrels_index(l->ws->qrels, qids[k]);
        if (row != RT_NO_ID && (!current || l->q[row].active))
            rows[nrows++] = row;
    }
    for (size_t m = 0; m < l->nm; m++)
        mean[m] = rt_measure_aggregate(&l->ws->ms[m], current ? l->runs[r].value : b->value,
                                       current ? l->runs[r].defined : b->defined, l->nm, m, rows,
                                       nrows, &n_defined[m]);
    free(rows);
}

void rt_live_means(const rt_live *l, size_t r, const uint32_t *qids, size_t n, double *base,
                   size_t *n_base, double *current, size_t *n_current)
{
    if (qids) {
        rt_live_mean_over(l, r, qids, n, 0, base, n_base);
        rt_live_mean_over(l, r, qids, n, 1, current, n_current);
        return;
    }
    const rt_eval_result *b = l->ws->runs[r].base;
    memcpy(base, b->mean, l->nm * sizeof *base);
    memcpy(n_base, b->n_defined, l->nm * sizeof *n_base);
    memcpy(current, l->runs[r].mean, l->nm * sizeof *current);
    memcpy(n_current, l->runs[r].nd, l->nm * sizeof *n_current);
}

void rt_live_split(const rt_live *l, size_t r, const unsigned char *mask, double *in, double *out,
                   size_t *nq_in, size_t *nq_out)
{
    uint32_t *a = rt_calloc(l->nsorted + 1, sizeof *a), *b = rt_calloc(l->nsorted + 1, sizeof *b);
    size_t na = 0, nb = 0;
    for (size_t k = 0; k < l->nsorted; k++) {
        uint32_t q = l->sorted_qids[k];
        if (mask[q])
            a[na++] = q;
        else
            b[nb++] = q;
    }
    size_t *nd = rt_calloc(l->nm + 1, sizeof *nd);
    rt_live_mean_over(l, r, a, na, 1, in, nd);
    rt_live_mean_over(l, r, b, nb, 1, out, nd);
    *nq_in = na;
    *nq_out = nb;
    free(nd);
    free(a);
    free(b);
}
