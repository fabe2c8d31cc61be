/* rt_eval — per-query measure values and means. Each judged query's relevant count and ideal
 * gains are computed once; a ranking is turned into grades (reading only as deep as the
 * measures need) and every measure is computed from them. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "rt_eval.h"
#include "rt_mem.h"
#include "rt_reader.h"
#include "rt_id.h"
#include "rt_path.h"

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
    uint64_t *jhash;       /* per judgment, in qrels order: rt_run_pid_hash of its pid string */
    const rt_judgment *j0; /* the first judgment, to index jhash */
    uint64_t *jmask;       /* per judged query: bit (hash >> 58) set for each judged pid's hash */
};

/* Judged queries with at most this many judgments are looked up by scanning their pid hashes;
 * larger ones through the pid table and a binary search. */
#define SMALL_JUDGED 24

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
        rt_qinfo_set(&ev->qi[i], ev->qi[i].num_rel, ideal, ni);
        used += ni;
    }
    size_t nj_all = rt_qrels_njudgments(qrels), dummy;
    ev->jhash = rt_malloc((nj_all + 1) * sizeof *ev->jhash);
    ev->j0 = nq ? rt_qrels_judgments(qrels, 0, &dummy) : NULL;
    for (size_t k = 0; k < nj_all; k++)
        ev->jhash[k] = rt_run_pid_hash(rt_strtab_str(pids, ev->j0[k].pid), rt_strtab_len(pids, ev->j0[k].pid));
    ev->jmask = rt_calloc(nq ? nq : 1, sizeof *ev->jmask);
    for (uint32_t i = 0; i < nq; i++) {
        size_t nj;
        const rt_judgment *j = rt_qrels_judgments(qrels, i, &nj);
        for (size_t k = 0; k < nj; k++)
            ev->jmask[i] |= UINT64_C(1) << (ev->jhash[j - ev->j0 + k] >> 58);
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
    free(ev->jhash);
    free(ev->jmask);
    free(ev);
    *evp = NULL;
}

/* What a result keeps while it is filled: grades of the ranking at hand, and the qids of run
 * queries without judgments (counted once each, whichever part of the file names them). */
struct rt_eval_work {
    int32_t *grades;
    size_t cap;
    rt_strtab *unjudged;
};

void rt_eval_table_widen(double **value, unsigned char **defined, size_t rows, size_t cap, size_t old_w,
                         size_t new_w)
{
    double *v = rt_calloc(cap * new_w + 1, sizeof *v);
    unsigned char *d = rt_calloc(cap * new_w + 1, 1);
    for (size_t i = 0; i < rows; i++) {
        memcpy(v + i * new_w, *value + i * old_w, old_w * sizeof *v);
        memcpy(d + i * new_w, *defined + i * old_w, old_w);
    }
    free(*value);
    free(*defined);
    *value = v;
    *defined = d;
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
    free(r->work->grades);
    rt_strtab_free(&r->work->unjudged);
    free(r->work);
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

void rt_eval_ranking(const rt_eval *ev, rt_eval_result *r, uint32_t i, const uint32_t *pids, size_t n)
{
    size_t use = ev->depth && ev->depth < n ? ev->depth : n;
    RT_GROW(r->work->grades, r->work->cap, use ? use : 1);   /* the result's scratch: ev stays const */
    int32_t *g = r->work->grades;
    for (size_t k = 0; k < use; k++)
        if (!rt_qrels_lookup(ev->qrels, i, pids[k], &g[k]))
            g[k] = RT_UNJUDGED;
    /* Measures that need the full length but not the grades beyond depth never exist: depth is 0
     * whenever any measure reads the whole ranking. */
    rt_eval_grades(ev, i, g, use, r->value + (size_t)i * ev->nm, r->defined + (size_t)i * ev->nm);
    r->seen[i] = 1;
}

rt_eval_result *rt_eval_begin(const rt_eval *ev, const char *name)
{
    size_t nq = rt_qrels_nqueries(ev->qrels), nm = ev->nm;
    rt_eval_result *r = rt_calloc(1, sizeof *r);
    r->work = rt_calloc(1, sizeof *r->work);
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

/* The grade of a hit for judged query i, or RT_UNJUDGED. */
static int32_t grade_of(const rt_eval *ev, uint32_t i, const rt_judgment *j, size_t nj,
                        const rt_hit *h)
{
    if (!((ev->jmask[i] >> (h->hash >> 58)) & 1))
        return RT_UNJUDGED;   /* most hits: no judged pid of the query has this hash's top bits */
    if (nj <= SMALL_JUDGED) {
        const uint64_t *jh = ev->jhash + (j - ev->j0);
        for (size_t x = 0; x < nj; x++)
            if (jh[x] == h->hash && rt_strtab_len(ev->pids, j[x].pid) == h->pid_len &&
                memcmp(rt_strtab_str(ev->pids, j[x].pid), h->pid, h->pid_len) == 0)
                return j[x].grade;
        return RT_UNJUDGED;
    }
    int32_t g;
    uint32_t pid = rt_strtab_find(ev->pids, h->pid, h->pid_len);
    if (pid == RT_NO_ID || !rt_qrels_lookup(ev->qrels, i, pid, &g))
        return RT_UNJUDGED;
    return g;
}

void rt_eval_add(const rt_eval *ev, rt_eval_result *r, const char *qid, size_t ql,
                 const rt_hit *h, size_t n)
{
    uint32_t q = rt_strtab_find(ev->qids, qid, ql);
    uint32_t i = q == RT_NO_ID ? RT_NO_ID : rt_qrels_index(ev->qrels, q);
    if (i == RT_NO_ID) {
        if (!r->work->unjudged)
            r->work->unjudged = rt_strtab_new();
        rt_strtab_intern(r->work->unjudged, qid, ql);
        r->queries_not_in_qrels = rt_strtab_count(r->work->unjudged);
        return;
    }
    size_t use = ev->depth && ev->depth < n ? ev->depth : n;
    RT_GROW(r->work->grades, r->work->cap, use ? use : 1);
    int32_t *g = r->work->grades;
    size_t nj;
    const rt_judgment *j = rt_qrels_judgments(ev->qrels, i, &nj);
    for (size_t k = 0; k < use; k++)
        g[k] = grade_of(ev, i, j, nj, &h[k]);
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
    rt_strtab_free(&c->r->work->unjudged);
}

/* Merges part b (the later one) into a; returns 0 when a query, judged or not, was seen by both,
 * which means the file is not grouped by query and must be read as a whole. */
static int merge_parts(rt_eval_result *a, const rt_eval_result *b)
{
    for (uint32_t k = 0; a->work->unjudged && b->work->unjudged && k < rt_strtab_count(b->work->unjudged); k++)
        if (rt_strtab_find(a->work->unjudged, rt_strtab_str(b->work->unjudged, k),
                           rt_strtab_len(b->work->unjudged, k)) != RT_NO_ID)
            return 0;
    for (size_t i = 0; i < a->nq; i++) {
        if (!b->seen[i])
            continue;
        if (a->seen[i])
            return 0;
        memcpy(a->value + i * a->nm, b->value + i * a->nm, a->nm * sizeof *a->value);
        memcpy(a->defined + i * a->nm, b->defined + i * a->nm, a->nm);
        a->seen[i] = 1;
    }
    for (uint32_t k = 0; b->work->unjudged && k < rt_strtab_count(b->work->unjudged); k++) {
        if (!a->work->unjudged)
            a->work->unjudged = rt_strtab_new();
        rt_strtab_intern(a->work->unjudged, rt_strtab_str(b->work->unjudged, k), rt_strtab_len(b->work->unjudged, k));
    }
    a->queries_not_in_qrels = a->work->unjudged ? rt_strtab_count(a->work->unjudged) : 0;
    rt_run_info_join(&a->info, &b->info);
    return 1;
}

/* Tries the two-thread read of the file's halves (rt_run_scan_halves); returns 1 and sets *out
 * on success, 0 when the file must be read as a whole (not a large regular line-based file, a
 * query in both halves apart from the one straddling the split, or an error whose message needs
 * the whole file's line numbers). */
static int eval_parallel(rt_eval *ev, const char *path, const rt_run_opts *opts, rt_eval_result **out)
{
    /* Below rt_tuning.parallel_min bytes a second thread does not pay (tests/bench/PERF.md); the
     * tests lower it to check the parallel path on small files. */
    uint64_t min = rt_tuning_or_default(opts ? opts->tuning : NULL)->parallel_min;
    struct stat sb;
    if ((opts && opts->format == RT_RUN_DUREADER) || strcmp(path, "-") == 0 || stat(path, &sb) != 0 ||
        !S_ISREG(sb.st_mode) || (uint64_t)sb.st_size < min)
        return 0;
    uint64_t mid = rt_run_split_offset(path, (uint64_t)sb.st_size);
    if (mid == 0)
        return 0;
    /* Grouped (the usual file): streamed, one query at a time. Otherwise each half keeps its
     * lines and the queries are put together after both (the one-thread read holds it all too). */
    rt_eval_result *r[2] = {NULL, NULL};
    int ok = 0;
    for (int gather = 0; gather < 2 && !ok; gather++) {
        rt_eval_result_free(&r[0]);
        r[0] = rt_eval_begin(ev, NULL);
        r[1] = rt_eval_begin(ev, NULL);
        file_ctx c[2] = {{ev, r[0]}, {ev, r[1]}};
        void *ctx[2] = {&c[0], &c[1]};
        rt_run_info info[2];
        rt_err err;
        rt_status st = rt_run_scan_halves(path, opts, mid, gather, on_query, ctx, info, &err);
        r[0]->info = info[0];
        r[1]->info = info[1];
        ok = st == RT_OK && info[0].format == info[1].format &&
             (info[0].has_scores == info[1].has_scores || info[1].lines == 0) &&
             info[0].lines > 0 && merge_parts(r[0], r[1]);
        rt_eval_result_free(&r[1]);
        if (st != RT_OK && st != RT_RUN_NOT_GROUPED)
            break;   /* an input error: the one-thread read reports it with the file's line numbers */
    }
    if (!ok) {
        rt_eval_result_free(&r[0]);
        return 0;
    }
    rt_eval_result *x = r[0];
    if (opts && opts->name) {
        free(x->info.name);
        x->info.name = rt_strdup(opts->name);
    } else if (!x->info.name) {
        x->info.name = rt_path_stem(path);
    }
    free(x->name);
    x->name = rt_strdup(x->info.name);
    rt_eval_end(ev, x);
    *out = x;
    return 1;
}

rt_status rt_eval_file(rt_eval *ev, const char *path, const rt_run_opts *opts,
                       rt_eval_result **out, rt_err *err)
{
    *out = NULL;
    const char *why = opts && opts->name ? rt_name_problem(opts->name) : NULL;
    char shown[80];
    if (why)   /* a name given to the run (NAME=): the rule of names, as rt_run_load */
        return rt_err_set(err, RT_EUSAGE, "run name \"%s\": %s", rt_id_show(opts->name, strlen(opts->name), shown,
                          sizeof shown), why);
    if (eval_parallel(ev, path, opts, out))
        return RT_OK;
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

void rt_eval_report(const rt_eval_result *x, const char *path, rt_report *report)
{
    rt_run_report_duplicates(&x->info, path, report);
    if (x->queries_not_in_qrels)
        rt_report_add(report, RT_REPORT_WARNING, "%s: %zu queries have no judgments and are not averaged",
                      path, x->queries_not_in_qrels);
    if (x->qrels_queries_missing)
        rt_report_add(report, RT_REPORT_WARNING, "%s: %zu judged queries are not in the run and score 0",
                      path, x->qrels_queries_missing);
}

void rt_eval_aggregate(const rt_eval *ev, rt_eval_result *r)
{
    for (size_t m = 0; m < r->nm; m++)   /* over ev->sorted: trec_eval's summation order */
        r->mean[m] = rt_measure_aggregate(&ev->ms[m], r->value, r->defined, r->nm, m, ev->sorted,
                                          r->nq, &r->n_defined[m]);
}

const uint32_t *rt_eval_sorted_queries(const rt_eval *ev) { return ev->sorted; }
const rt_qrels *rt_eval_qrels(const rt_eval *ev) { return ev->qrels; }
const rt_strtab *rt_eval_qids(const rt_eval *ev) { return ev->qids; }

const rt_measure *rt_eval_measures(const rt_eval *ev, size_t *n)
{
    *n = ev->nm;
    return ev->ms;
}
