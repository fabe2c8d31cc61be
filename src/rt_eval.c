/* rt_eval — per-query measure values and means. Each judged query's relevant count and ideal
 * gains are computed once; a ranking is turned into grades (reading only as deep as the
 * measures need) and every measure is computed from them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rt_eval.h"
#include "rt_mem.h"

struct rt_eval {
    const rt_qrels *qrels;
    const rt_strtab *qids, *pids;
    const rt_measure *ms;
    size_t nm;
    int32_t level;
    size_t depth;          /* 0: whole ranking */
    rt_qinfo *qi;          /* per judged query */
    int32_t *ideal;        /* storage for all queries' ideal gains */
    uint32_t *sorted;
    int32_t *grades;       /* scratch */
    size_t gcap;
};

static int desc_int(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x > y ? -1 : x < y;
}

static int qid_cmp(const void *a, const void *b, void *arg)
{
    const rt_eval *ev = arg;
    const char *x = rt_strtab_str(ev->qids, rt_qrels_qid(ev->qrels, *(const uint32_t *)a));
    const char *y = rt_strtab_str(ev->qids, rt_qrels_qid(ev->qrels, *(const uint32_t *)b));
    return strcmp(x, y);
}

rt_eval *rt_eval_new(const rt_qrels *qrels, const rt_strtab *qids, const rt_strtab *pids,
                     const rt_measure *ms, size_t nm, int32_t level)
{
    rt_eval *ev = rt_calloc(1, sizeof *ev);
    ev->qrels = qrels;
    ev->qids = qids;
    ev->pids = pids;
    ev->ms = ms;
    ev->nm = nm;
    ev->level = level;
    ev->depth = rt_measure_depth(ms, nm);
    uint32_t nq = rt_qrels_nqueries(qrels);
    ev->qi = rt_calloc(nq ? nq : 1, sizeof *ev->qi);
    ev->ideal = rt_malloc((rt_qrels_njudgments(qrels) + 1) * sizeof *ev->ideal);
    size_t used = 0;
    for (uint32_t i = 0; i < nq; i++) {
        size_t nj;
        const rt_judgment *j = rt_qrels_judgments(qrels, i, &nj);
        int32_t *ideal = ev->ideal + used;
        size_t ni = 0;
        for (size_t k = 0; k < nj; k++) {
            if (j[k].grade >= level)
                ev->qi[i].num_rel++;
            if (j[k].grade > 0)
                ideal[ni++] = j[k].grade;
        }
        qsort(ideal, ni, sizeof *ideal, desc_int);
        ev->qi[i].ideal = ideal;
        ev->qi[i].n_ideal = ni;
        used += ni;
    }
    ev->sorted = rt_malloc((nq ? nq : 1) * sizeof *ev->sorted);
    for (uint32_t i = 0; i < nq; i++)
        ev->sorted[i] = i;
    qsort_r(ev->sorted, nq, sizeof *ev->sorted, qid_cmp, ev);
    return ev;
}

void rt_eval_free(rt_eval **evp)
{
    if (!evp || !*evp)
        return;
    rt_eval *ev = *evp;
    free(ev->qi);
    free(ev->ideal);
    free(ev->sorted);
    free(ev->grades);
    free(ev);
    *evp = NULL;
}

void rt_eval_result_free(rt_eval_result **rp)
{
    if (!rp || !*rp)
        return;
    rt_eval_result *r = *rp;
    free(r->name);
    free(r->value);
    free(r->defined);
    free(r->mean);
    free(r->n_defined);
    free(r->seen);
    rt_run_info_clear(&r->info);
    free(r);
    *rp = NULL;
}

void rt_eval_grades(const rt_eval *ev, uint32_t i, const int32_t *grades, size_t n, double *out,
                    unsigned char *defined)
{
    for (size_t m = 0; m < ev->nm; m++) {
        int def;
        out[m] = rt_measure_compute(&ev->ms[m], grades, n, &ev->qi[i], ev->level, &def);
        defined[m] = (unsigned char)def;
    }
}

static int32_t *scratch(const rt_eval *ev, size_t n)
{
    rt_eval *w = (rt_eval *)ev;   /* scratch space only; the evaluator is logically const */
    RT_GROW(w->grades, w->gcap, n ? n : 1);
    return w->grades;
}

void rt_eval_ranking(const rt_eval *ev, uint32_t i, const uint32_t *pids, size_t n, double *out,
                     unsigned char *defined)
{
    size_t use = ev->depth && ev->depth < n ? ev->depth : n;
    int32_t *g = scratch(ev, use);
    for (size_t k = 0; k < use; k++)
        if (!rt_qrels_lookup(ev->qrels, i, pids[k], &g[k]))
            g[k] = RT_UNJUDGED;
    /* Measures that need the full length but not the grades beyond depth never exist: depth is 0
     * whenever any measure reads the whole ranking. */
    rt_eval_grades(ev, i, g, use, out, defined);
}

rt_eval_result *rt_eval_begin(const rt_eval *ev, const char *name)
{
    size_t nq = rt_qrels_nqueries(ev->qrels), nm = ev->nm;
    rt_eval_result *r = rt_calloc(1, sizeof *r);
    r->name = rt_strdup(name ? name : "");
    r->nq = nq;
    r->nm = nm;
    r->value = rt_calloc(nq * nm + 1, sizeof *r->value);
    r->defined = rt_calloc(nq * nm + 1, 1);
    r->mean = rt_calloc(nm + 1, sizeof *r->mean);
    r->n_defined = rt_calloc(nm + 1, sizeof *r->n_defined);
    r->seen = rt_calloc(nq + 1, 1);
    return r;
}

void rt_eval_add(const rt_eval *ev, rt_eval_result *r, const char *qid, size_t ql,
                 const rt_hit *h, size_t n)
{
    uint32_t q = rt_strtab_find(ev->qids, qid, ql);
    uint32_t i = q == RT_NO_ID ? RT_NO_ID : rt_qrels_index(ev->qrels, q);
    if (i == RT_NO_ID) {
        r->queries_not_in_qrels++;
        return;
    }
    size_t use = ev->depth && ev->depth < n ? ev->depth : n;
    int32_t *g = scratch(ev, use);
    for (size_t k = 0; k < use; k++) {
        uint32_t pid = rt_strtab_find_hashed(ev->pids, h[k].pid, h[k].pid_len, h[k].hash);
        if (pid == RT_NO_ID || !rt_qrels_lookup(ev->qrels, i, pid, &g[k]))
            g[k] = RT_UNJUDGED;
    }
    rt_eval_grades(ev, i, g, use, r->value + (size_t)i * ev->nm, r->defined + (size_t)i * ev->nm);
    r->seen[i] = 1;
}

void rt_eval_end(const rt_eval *ev, rt_eval_result *r)
{
    for (size_t i = 0; i < r->nq; i++)
        if (!r->seen[i]) {
            r->qrels_queries_missing++;
            rt_eval_grades(ev, (uint32_t)i, NULL, 0, r->value + i * r->nm, r->defined + i * r->nm);
        }
    rt_eval_aggregate(ev, r);
}

typedef struct file_ctx {
    const rt_eval *ev;
    rt_eval_result *r;
} file_ctx;

static rt_status on_query(void *vctx, const char *qid, size_t ql, const rt_hit *h, size_t n,
                          rt_err *err)
{
    (void)err;
    file_ctx *c = vctx;
    rt_eval_add(c->ev, c->r, qid, ql, h, n);
    return RT_OK;
}

static void on_reset(void *vctx)
{
    file_ctx *c = vctx;
    memset(c->r->seen, 0, c->r->nq);
    c->r->queries_not_in_qrels = 0;
}

rt_status rt_eval_file(rt_eval *ev, const char *path, const rt_run_opts *opts,
                       rt_eval_result **out, rt_err *err)
{
    *out = NULL;
    rt_eval_result *r = rt_eval_begin(ev, NULL);
    file_ctx c = {ev, r};
    rt_status st = rt_run_scan(path, opts, on_query, on_reset, &c, &r->info, err);
    if (st != RT_OK) {
        rt_eval_result_free(&r);
        return st;
    }
    free(r->name);
    r->name = rt_strdup(r->info.name);
    rt_eval_end(ev, r);
    *out = r;
    return RT_OK;
}

void rt_eval_aggregate(const rt_eval *ev, rt_eval_result *r)
{
    for (size_t m = 0; m < r->nm; m++) {
        double sum = 0;
        size_t nd = 0;
        for (size_t k = 0; k < r->nq; k++) {
            size_t i = ev->sorted[k];   /* trec_eval's summation order */
            if (!r->defined[i * r->nm + m])
                continue;
            sum += r->value[i * r->nm + m];
            nd++;
        }
        r->n_defined[m] = nd;
        if (rt_measure_is_sum(&ev->ms[m]))
            r->mean[m] = sum;
        else
            r->mean[m] = nd ? sum / (double)nd : 0.0;
    }
}

const uint32_t *rt_eval_sorted_queries(const rt_eval *ev) { return ev->sorted; }
const rt_qrels *rt_eval_qrels(const rt_eval *ev) { return ev->qrels; }
const rt_strtab *rt_eval_qids(const rt_eval *ev) { return ev->qids; }

const rt_measure *rt_eval_measures(const rt_eval *ev, size_t *n)
{
    *n = ev->nm;
    return ev->ms;
}
