/* rt_workspace — the container of one analysis session's inputs: what it holds, how it is freed,
 * the checks that its inputs line up, and the lookups the views make. Opening one is rt_loader's
 * job (rt_loader.c), its JSON description rt_wsconfig's. */
#include "config.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rt_answers.h"
#include "rt_facets.h"
#include "rt_hash.h"
#include "rt_loader.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_warm.h"
#include "rt_workspace.h"
#include "rt_wscache.h"

static void add_query(rt_workspace *ws, unsigned char **seen, size_t *seen_len, uint32_t qid)
{
    *seen = rt_grow_index(*seen, seen_len, qid, 1, 0);
    if ((*seen)[qid])
        return;
    (*seen)[qid] = 1;
    ws->qlist = rt_reallocarray(ws->qlist, ws->nq + 1, sizeof *ws->qlist);
    ws->qlist[ws->nq++] = qid;
}

void rt_workspace_list_queries(rt_workspace *ws)
{
    unsigned char *seen = NULL;
    size_t seen_len = 0;
    if (ws->queries)
        for (uint32_t i = 0; i < rt_queries_count(ws->queries); i++)
            add_query(ws, &seen, &seen_len, rt_queries_qid(ws->queries, i));
    for (uint32_t i = 0; i < rt_qrels_nqueries(ws->qrels); i++)
        add_query(ws, &seen, &seen_len, rt_qrels_qid(ws->qrels, i));
    for (size_t r = 0; r < ws->nruns; r++)
        for (uint32_t i = 0; i < rt_run_nqueries(ws->runs[r].run); i++)
            add_query(ws, &seen, &seen_len, rt_run_qid(ws->runs[r].run, i));
    free(seen);
}

/* Warns about ids that do not line up between the inputs. */
void rt_workspace_cross_check(rt_workspace *ws)
{
    const char **names = rt_calloc(ws->nruns + 1, sizeof *names);   /* told apart on screen */
    for (size_t r = 0; r < ws->nruns; r++)
        names[r] = rt_run_name(ws->runs[r].run);
    rt_run_warn_same_names(names, ws->nruns, ": name them (--run NAME=PATH, or {\"name\", \"path\"} in the "
                           "workspace file)", ws->report);
    free(names);
    if (ws->queries) {
        size_t unknown = 0;
        for (uint32_t i = 0; i < rt_qrels_nqueries(ws->qrels); i++)
            unknown += !rt_queries_text(ws->queries, rt_qrels_qid(ws->qrels, i));
        if (unknown)
            rt_report_add(ws->report, RT_REPORT_WARNING,
                          "%zu judged queries are not in the queries file", unknown);
        for (size_t r = 0; r < ws->nruns; r++) {
            const rt_run *run = ws->runs[r].run;
            unknown = 0;
            for (uint32_t i = 0; i < rt_run_nqueries(run); i++)
                unknown += !rt_queries_text(ws->queries, rt_run_qid(run, i));
            if (unknown)
                rt_report_add(ws->report, RT_REPORT_WARNING,
                              "run %s: %zu queries are not in the queries file", rt_run_name(run), unknown);
        }
    }
    if (ws->queries) {
        size_t unjudged = 0;
        for (uint32_t i = 0; i < rt_queries_count(ws->queries); i++)
            unjudged += rt_qrels_index(ws->qrels, rt_queries_qid(ws->queries, i)) == RT_NO_ID;
        if (unjudged)
            rt_report_add(ws->report, RT_REPORT_WARNING,
                          "%zu queries have no judgments (browsable, not averaged)", unjudged);
    }
    for (size_t r = 0; r < ws->nruns; r++) {
        const rt_eval_result *b = ws->runs[r].base;
        if (b->qrels_queries_missing)
            rt_report_add(ws->report, RT_REPORT_WARNING,
                          "run %s: %zu judged queries are not ranked (they score 0)",
                          rt_run_name(ws->runs[r].run), b->qrels_queries_missing);
    }
}

/* Warns about judged passages the collection lacks (when there is one). */
void rt_workspace_check_judged(rt_workspace *ws)
{
    if (ws->collection) {
        /* Only judged passages are checked: looking up every run pid would touch pages all over
         * a multi-gigabyte collection at every open. A run pid that is missing shows as [pid]. */
        size_t nj = rt_qrels_njudgments(ws->qrels), dummy;
        const rt_judgment *j = nj ? rt_qrels_judgments(ws->qrels, 0, &dummy) : NULL;
        const char **pids = rt_reallocarray(NULL, nj ? nj : 1, sizeof *pids);
        size_t *lens = rt_reallocarray(NULL, nj ? nj : 1, sizeof *lens);
        for (size_t k = 0; k < nj; k++) {
            pids[k] = rt_strtab_str(ws->pids, j[k].pid);
            lens[k] = rt_strtab_len(ws->pids, j[k].pid);
        }
        /* from the index alone: no collection page read; counted once per cache */
        size_t missing;
        if (!rt_wscache_judged_missing(ws->cache, &missing)) {
            missing = rt_collection_count_missing(ws->collection, pids, lens, nj);
            if (ws->cache)
                rt_wscache_set_judged_missing(ws->cache, missing);
        }
        free(pids);
        free(lens);
        if (missing)
            rt_report_add(ws->report, RT_REPORT_WARNING,
                          "%zu judged passages are not in the collection", missing);
    }
}

/* Evaluates an in-memory run against the base qrels with evaluator ev. */
static rt_eval_result *eval_run_with(const rt_workspace *ws, const rt_eval *ev, const rt_run *run)
{
    rt_eval_result *r = rt_eval_begin(ev, rt_run_name(run));
    for (uint32_t i = 0; i < rt_qrels_nqueries(ws->qrels); i++) {
        size_t n;
        const uint32_t *pids = rt_run_ranking(run, rt_qrels_qid(ws->qrels, i), &n);
        if (!pids)
            continue;
        rt_eval_ranking(ev, r, i, pids, n);
    }
    rt_eval_end(ev, r);
    return r;
}

rt_eval_result *rt_workspace_eval_base(const rt_workspace *ws, const rt_run *run)
{
    return eval_run_with(ws, ws->eval, run);
}

/* What the base evaluation depends on besides the inputs: the measures and the relevance level. */
uint64_t rt_workspace_evals_key(const rt_workspace *ws)
{
    uint64_t h = rt_hash_mix((uint64_t)ws->level + 0x9e37);
    for (size_t m = 0; m < ws->nm; m++)
        h = rt_hash_mix(h ^ rt_hash_bytes(ws->ms[m].name, strlen(ws->ms[m].name))) + m;
    return h;
}

rt_eval_result *rt_workspace_eval_run(const rt_workspace *ws, const rt_eval *ev, size_t r)
{
    return eval_run_with(ws, ev, ws->runs[r].run);
}

void rt_workspace_add_run(rt_workspace *ws, rt_run *run, rt_eval_result *base)
{
    if (ws->nruns == ws->runs_cap)   /* a loader's bug: never past the spec's runs */
        abort();
    ws->runs[ws->nruns].run = run;
    ws->runs[ws->nruns++].base = base;
    ws->generation++;
}

void rt_workspace_set_collection(rt_workspace *ws, rt_collection *c)
{
    ws->collection = c;
    ws->generation++;
}

rt_workspace *rt_workspace_new(const rt_ws_spec *s)
{
    rt_workspace *ws = rt_calloc(1, sizeof *ws);
    /* unnamed: a workspace given by flags is called after its qrels file */
    const char *slash = strrchr(s->qrels, '/');
    ws->name = rt_strdup(s->name ? s->name : slash ? slash + 1 : s->qrels);
    ws->qids = rt_strtab_new();
    ws->pids = rt_strtab_new();
    ws->report = rt_report_new();
    ws->taxonomy = rt_taxonomy_default();
    ws->leak.train_queries = s->train_queries ? rt_strdup(s->train_queries) : NULL;
    ws->leak.train_emb = s->train_emb ? rt_strdup(s->train_emb) : NULL;
    ws->leak.test_emb = s->test_emb ? rt_strdup(s->test_emb) : NULL;
    ws->leak.queries_path = s->queries ? rt_strdup(s->queries) : NULL;
    ws->leak.index = s->leak_index ? rt_strdup(s->leak_index) : NULL;
    ws->leak.threshold = s->leak_threshold_set ? s->leak_threshold : NAN;
    ws->leak.k = s->leak_k;
    ws->leak.dim = s->leak_dim;
    ws->level = s->level;
    ws->graded = s->graded;
    ws->journal_dir = s->journal_dir ? rt_strdup(s->journal_dir) : NULL;
    ws->annotator = s->annotator ? rt_strdup(s->annotator) : NULL;
    ws->runs = rt_calloc(s->nruns, sizeof *ws->runs);
    ws->runs_cap = s->nruns;
    ws->tuning = *rt_tuning_or_default(s->tuning);
    return ws;
}

void rt_workspace_free(rt_workspace **wp)
{
    if (!wp || !*wp)
        return;
    rt_workspace *ws = *wp;
    rt_loader_free(ws);   /* first: its threads read the runs, the mappings and the files */
    for (size_t r = 0; r < ws->nruns; r++) {
        rt_run_free(&ws->runs[r].run);
        rt_eval_result_free(&ws->runs[r].base);
    }
    free(ws->runs);
    rt_eval_free(&ws->eval);
    rt_queries_free(&ws->queries);
    rt_collection_close(&ws->collection);
    rt_qrels_free(&ws->qrels);
    rt_strtab_free(&ws->qids);
    rt_strtab_free(&ws->pids);
    rt_report_free(&ws->report);
    rt_wscache_free(&ws->cache);   /* after everything restored from it */
    rt_taxonomy_free(&ws->taxonomy);
    rt_facets_free(&ws->facets);
    rt_answers_free(&ws->answers);
    free(ws->leak.train_queries);
    free(ws->leak.train_emb);
    free(ws->leak.test_emb);
    free(ws->leak.queries_path);
    free(ws->leak.index);
    free(ws->ms);
    free(ws->qlist);
    free(ws->path);
    free(ws->name);
    free(ws->journal_dir);
    free(ws->annotator);
    free(ws);
    *wp = NULL;
}

const char *rt_workspace_query_text(const rt_workspace *ws, uint32_t qid)
{
    return ws->queries ? rt_queries_text(ws->queries, qid) : NULL;
}

int rt_workspace_passage(const rt_workspace *ws, uint32_t pid, const char **text, size_t *len)
{
    if (!ws->collection)
        return 0;
    return rt_collection_find(ws->collection, rt_strtab_str(ws->pids, pid), rt_strtab_len(ws->pids, pid),
                              text, len);
}

void rt_workspace_prefetch(const rt_workspace *ws, const uint32_t *pids, size_t n, size_t bytes)
{
    if (!ws->collection || n == 0)
        return;
    const char **s = rt_reallocarray(NULL, n, sizeof *s);
    size_t *l = rt_reallocarray(NULL, n, sizeof *l);
    for (size_t k = 0; k < n; k++) {
        s[k] = rt_strtab_str(ws->pids, pids[k]);
        l[k] = rt_strtab_len(ws->pids, pids[k]);
    }
    rt_collection_prefetch(ws->collection, s, l, n, bytes);
    free(s);
    free(l);
}

int rt_workspace_grade(const rt_workspace *ws, uint32_t qid, uint32_t pid, int32_t *grade)
{
    uint32_t i = rt_qrels_index(ws->qrels, qid);
    return i != RT_NO_ID && rt_qrels_lookup(ws->qrels, i, pid, grade);
}

size_t rt_workspace_rank_of(const rt_workspace *ws, size_t r, uint32_t qid, uint32_t pid)
{
    size_t n;
    const uint32_t *p = rt_run_ranking(ws->runs[r].run, qid, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i] == pid)
            return i + 1;
    return 0;
}

size_t rt_workspace_find_run(const rt_workspace *ws, const char *name)
{
    for (size_t r = 0; r < ws->nruns; r++)
        if (strcmp(rt_run_name(ws->runs[r].run), name) == 0)
            return r;
    int64_t n;
    if (rt_num_parse_int_in(name, 1, (int64_t)ws->nruns, &n))
        return (size_t)n - 1;
    return (size_t)-1;
}

size_t rt_workspace_find_measure(const rt_workspace *ws, const rt_measure *m)
{
    for (size_t k = 0; k < ws->nm; k++)
        if (strcmp(ws->ms[k].name, m->name) == 0)
            return k;
    return (size_t)-1;
}

/* b's per-query table and means with the columns of x (same queries) after its own. */
static void widen_result(rt_eval_result *b, const rt_eval_result *x)
{
    size_t nq = b->nq, w = b->nm + x->nm;
    rt_eval_table_widen(&b->value, &b->defined, nq, nq, b->nm, w);
    for (size_t i = 0; i < nq; i++) {
        memcpy(b->value + i * w + b->nm, x->value + i * x->nm, x->nm * sizeof *b->value);
        memcpy(b->defined + i * w + b->nm, x->defined + i * x->nm, x->nm);
    }
    b->mean = rt_reallocarray(b->mean, w + 1, sizeof *b->mean);
    b->n_defined = rt_reallocarray(b->n_defined, w + 1, sizeof *b->n_defined);
    memcpy(b->mean + b->nm, x->mean, x->nm * sizeof *b->mean);
    memcpy(b->n_defined + b->nm, x->n_defined, x->nm * sizeof *b->n_defined);
    b->nm = w;
}

rt_status rt_workspace_add_measures(rt_workspace *ws, const rt_measure *ms, size_t n,
                                    rt_eval_result *const *extra, size_t nextra, rt_err *err)
{
    if (rt_loader_runs_loading(ws, NULL, NULL))
        return rt_err_set(err, RT_EUSAGE, "runs are still being read: measures are added once they are in");
    if (nextra != ws->nruns)
        return rt_err_set(err, RT_EUSAGE, "the measures were computed for %zu runs, the workspace has %zu",
                          nextra, ws->nruns);
    for (size_t r = 0; r < ws->nruns; r++)
        if (extra[r]->nm != n || extra[r]->nq != ws->runs[r].base->nq)
            return rt_err_set(err, RT_EUSAGE, "run %zu: values of other measures or queries", r + 1);
    for (size_t r = 0; r < ws->nruns; r++)
        widen_result(ws->runs[r].base, extra[r]);
    ws->ms = rt_reallocarray(ws->ms, ws->nm + n, sizeof *ws->ms);
    memcpy(ws->ms + ws->nm, ms, n * sizeof *ms);
    ws->nm += n;
    rt_eval_free(&ws->eval);   /* it borrowed the old array */
    ws->eval = rt_eval_new(ws->qrels, ws->qids, ws->pids, ws->ms, ws->nm, ws->level);
    return RT_OK;
}
