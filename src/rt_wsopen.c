/* rt_wsopen — opening a workspace (rt_workspace_open, _open_config, _open_json): each input loaded
 * with progress (the collection and the runs on threads when they are large, rt_loadjobs), each run
 * evaluated once against the base qrels, the checks, the cache; with the spec's defer_runs or
 * defer_collection, it returns before they are in and the loader (rt_loader.c) takes them in. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_answers.h"
#include "rt_dbqa.h"
#include "rt_facets.h"
#include "rt_field.h"
#include "rt_file.h"
#include "rt_hash.h"
#include "rt_loadpriv.h"
#include "rt_mem.h"
#include "rt_path.h"
#include "rt_reader.h"
#include "rt_workspace.h"
#include "rt_wscache.h"
#include "rt_wsconfig.h"

/* A phase begun: nothing counted yet (the queries and the qrels count nothing more). */
static void phase(const rt_progress *p, const char *what)
{
    rt_progress_report(p, what, 0, 0);
}

/* One open, passed between its steps. */
typedef struct open_state {
    const rt_ws_spec *s;
    const rt_progress *progress;   /* the caller's, for the open only */
    rt_run **runs;         /* restored from the cache (cached) */
    int cached;
    rt_colljob *job;       /* the collection's thread (threaded) */
    pthread_t coll_th;
    int threaded, coll_later;
} open_state;

/* The parsed ids, qrels and runs from the workspace cache when it is there and fresh. */
static void open_cache(rt_workspace *ws, open_state *o)
{
    const rt_ws_spec *s = o->s;
    rt_wscache_key key = {.anchor = s->collection, .queries = s->queries, .qrels = s->qrels,
                          .runs = s->run_paths, .names = s->run_names, .nruns = s->nruns,
                          .order = (int)s->order, .strict = s->strict, .tuning = &ws->tuning};
    if (s->no_cache || (ws->cache = rt_wscache_begin(&key)) == NULL)
        return;
    phase(o->progress, "cache");
    rt_strtab *qids, *pids;
    if ((o->cached = rt_wscache_restore(ws->cache, &qids, &pids, &ws->qrels, o->runs, ws->report))) {
        rt_strtab_free(&ws->qids);
        rt_strtab_free(&ws->pids);
        ws->qids = qids;
        ws->pids = pids;
    }
}

/* The first deferred run, taken in before the open returns. */
static rt_status take_first_run(rt_workspace *ws, open_state *o, rt_err *err)
{
    uint64_t total = 0;
    for (size_t r = 0; r < o->s->nruns; r++)
        total += rt_load_file_size(o->s->run_paths[r]);
    rt_ws_runs *p = ws->loader->runs;
    rt_status st = rt_loader_runs_take(ws, &p->s, p->j, 0, 0, total, o->progress, err);
    p->next = 1;
    return st;
}

/* The queries, the qrels and the runs (or the first run, deferred), with the collection's thread
 * started beside them when it is large. */
static rt_status open_inputs(rt_workspace *ws, open_state *o, rt_err *err)
{
    const rt_ws_spec *s = o->s;
    rt_load_opts lo = {.strict = s->strict};
    o->threaded = s->collection && !o->cached && rt_colljob_threaded(s->collection, ws->tuning.parallel_min);
    /* With the runs deferred too, the first screen waits for the first run only, and reading the
     * collection meanwhile would slow its reading (a disk scheduler seldom honours the idle I/O
     * class): the collection is started once that run is in. */
    o->coll_later = o->threaded && s->defer_runs && s->defer_collection && rt_runsjob_threads(s);
    if (o->threaded && !o->coll_later)
        o->threaded = rt_colljob_start(&o->job, &o->coll_th, s, !ws->cache);
    if (!o->cached && s->defer_runs)   /* the first run is read while the qrels are */
        rt_loader_runs_defer(ws, s, o->progress != NULL);
    rt_status st = RT_OK;
    if (s->queries) {
        phase(o->progress, "queries");
        st = rt_queries_load(&ws->queries, s->queries, RT_QUERIES_AUTO, ws->qids, &lo, ws->report, err);
    }
    rt_report_set_key(ws->report, KEY(PH_INPUTS, 0));   /* the lines a cache keeps start here */
    if (st == RT_OK && o->cached) {
        for (size_t r = 0; r < s->nruns; r++)
            rt_workspace_add_run(ws, o->runs[r], NULL);
        rt_wscache_replay(ws->cache, ws->report);
    } else if (st == RT_OK) {
        phase(o->progress, "qrels");
        st = rt_qrels_load(&ws->qrels, s->qrels, RT_QRELS_AUTO, ws->qids, ws->pids, &lo, ws->report, err);
    }
    if (st == RT_OK && ws->loader->runs)
        st = take_first_run(ws, o, err);
    if (st == RT_OK && !o->cached && !ws->loader->runs)
        st = rt_loader_load_runs(ws, s, o->progress, err);
    if (o->coll_later)
        o->threaded = st == RT_OK && rt_colljob_start(&o->job, &o->coll_th, s, !ws->cache);
    return st;
}

/* Waits for the collection's thread (showing what it has counted, from this thread) and takes
 * what it made. */
static rt_status coll_wait(rt_workspace *ws, open_state *o, rt_status st, rt_err *err)
{
    rt_colljob *job = o->job;
    phase(o->progress, "collection");
    while (!atomic_load(&job->finished)) {
        if (o->progress)
            rt_progress_report(o->progress, "collection", atomic_load(&job->done), atomic_load(&job->total));
        nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    }
    pthread_join(o->coll_th, NULL);
    rt_workspace_set_collection(ws, job->c);
    job->c = NULL;
    if (st != RT_OK)   /* a failed open writes no cache: the index is written now */
        rt_collection_save(ws->collection, job->report);
    rt_loader_append_report(ws->report, job->report);
    if (st == RT_OK && job->st != RT_OK) {   /* a run's error first, as in a sequential open */
        st = job->st;
        *err = job->err;
    }
    rt_colljob_free(&o->job);
    return st;
}

/* The collection: left to its thread (deferred), waited for, or opened here. Called whatever st
 * (a thread started is always waited for or kept); returns the open's status. */
static rt_status open_collection(rt_workspace *ws, open_state *o, rt_status st, rt_err *err)
{
    const rt_ws_spec *s = o->s;
    rt_report_set_key(ws->report, KEY(PH_COLLECTION, 0));
    if (o->threaded && st == RT_OK && s->defer_collection) {   /* the loader takes it in */
        ws->loader->coll = rt_calloc(1, sizeof *ws->loader->coll);
        *ws->loader->coll = (rt_ws_pending){o->job, o->coll_th, 0, 0, 0};
    } else if (o->threaded) {
        st = coll_wait(ws, o, st, err);
    } else if (st == RT_OK && s->collection) {
        rt_collection *c = NULL;   /* its progress is the phase "collection" */
        st = rt_collection_open(&c, s->collection, o->progress, ws->report, err);
        rt_workspace_set_collection(ws, c);
    }
    return st;
}

/* Every run in evaluated against the base qrels (from the cache when it holds them); returns the
 * key of those evaluations. */
static uint64_t open_evaluate(rt_workspace *ws, const open_state *o)
{
    ws->eval = rt_eval_new(ws->qrels, ws->qids, ws->pids, ws->ms, ws->nm, ws->level);
    uint64_t ekey = rt_workspace_evals_key(ws);
    for (size_t r = 0; r < ws->nruns; r++) {
        rt_eval_result *b = rt_eval_begin(ws->eval, rt_run_name(ws->runs[r].run));
        if (o->cached && rt_wscache_base(ws->cache, ekey, r, b)) {
            rt_eval_end(ws->eval, b);   /* the values as evaluated when the cache was written */
            ws->runs[r].base = b;
        } else {
            rt_eval_result_free(&b);
            ws->runs[r].base = rt_workspace_eval_base(ws, ws->runs[r].run);
        }
    }
    rt_workspace_list_queries(ws);
    return ekey;
}

/* Every run is in: the checks, and the cache (or, the collection still being indexed, what it
 * needs to follow it). */
static void open_checks(rt_workspace *ws, const open_state *o, uint64_t ekey)
{
    rt_report_set_key(ws->report, KEY(PH_CROSS, 0));
    rt_workspace_cross_check(ws);
    rt_report_set_key(ws->report, KEY(PH_JUDGED, 0));
    rt_workspace_check_judged(ws);
    if (ws->loader->coll) {
        ws->loader->coll->ekey = ekey;
        ws->loader->coll->nqids = rt_strtab_count(ws->qids);
        ws->loader->coll->npids = rt_strtab_count(ws->pids);
    } else if (ws->cache && !o->cached) {   /* last: it keeps the evals and the count check_judged made */
        rt_loader_save_cache(ws, rt_strtab_count(ws->qids), rt_strtab_count(ws->pids), ekey);
    }
    rt_collection_save(ws->collection, ws->report);   /* built, and no writer took it: here */
}

/* Whether an answers file is DuReader's JSON lines (its first non-blank character is '{'). */
static int answers_are_json(const char *path)
{
    rt_reader *r;
    rt_err e;
    if (rt_reader_open(&r, path, &e) != RT_OK)
        return 0;
    char *line;
    size_t len;
    int json = 0;
    while (rt_reader_next(r, &line, &len, &e) == 1)
        if (!rt_field_line_skippable(line, len)) {
            json = line[strspn(line, " \t")] == '{';
            break;
        }
    rt_reader_close(&r);
    return json;
}

/* The query facets and the answers, when the spec names them. */
static rt_status open_extras(rt_workspace *ws, const rt_ws_spec *s, rt_err *err)
{
    rt_status st = RT_OK;
    rt_report_set_key(ws->report, KEY(PH_EXTRAS, 0));
    if (s->facets && (st = rt_facets_load(&ws->facets, s->facets, ws->qids, ws->report, err)) != RT_OK)
        return st;
    if (s->answers) {
        st = rt_answers_load(&ws->answers, s->answers, ws->qids, 0, ws->report, err);
        /* DuReader's answers carry question_type and fact_or_opinion: query facets, unless the
         * workspace names its own */
        if (st == RT_OK && !s->facets && answers_are_json(s->answers))
            st = rt_facets_load(&ws->facets, s->answers, ws->qids, NULL, err);
    }
    return st;
}

static rt_status open_spec(rt_workspace **out, const rt_ws_spec *s, const rt_progress *progress,
                           rt_err *err)
{
    *out = NULL;
    if (!s->qrels)
        return rt_err_set(err, RT_EUSAGE, "a workspace needs qrels");
    if (s->nruns == 0)
        return rt_err_set(err, RT_EUSAGE, "a workspace needs at least one run");
    rt_workspace *ws = rt_workspace_new(s);
    rt_loader_attach(ws);
    rt_ws_spec sp = *s;   /* with the workspace's copy of the tuning, which outlives the open */
    sp.tuning = &ws->tuning;
    s = &sp;
    open_state o = {.s = s, .progress = progress};
    o.runs = rt_calloc(s->nruns, sizeof *o.runs);
    rt_status st = rt_measure_list_parse(s->measures ? s->measures : "dureader", &ws->ms, &ws->nm, err);
    ws->nm_open = ws->nm;
    if (st == RT_OK) {
        open_cache(ws, &o);
        st = open_inputs(ws, &o, err);
    }
    st = open_collection(ws, &o, st, err);
    free(o.runs);
    if (st == RT_OK) {
        uint64_t ekey = open_evaluate(ws, &o);
        if (ws->loader->runs)   /* the rest once every run is in (runs_done) */
            ws->loader->runs->ekey = ekey;
        else
            open_checks(ws, &o, ekey);
        st = open_extras(ws, s, err);
    }
    if (st != RT_OK)
        rt_workspace_free(&ws);
    else   /* what comes after the open (the session's lines, a failure taken in later) goes last */
        rt_report_set_key(ws->report, KEY(PH_AFTER, 0));
    *out = ws;
    return st;
}

/* An NLPCC DBQA file with score files, as TSV/TREC inputs written into dir: the spec that opens
 * them with order "file". */
static rt_status open_dbqa_files(rt_workspace **out, const rt_ws_spec *s, const rt_dbqa_files *files,
                                 const rt_progress *progress, rt_err *err)
{
    rt_ws_spec w = *s;
    const char **names = rt_calloc(s->nruns + 1, sizeof *names);
    char **stems = rt_calloc(s->nruns + 1, sizeof *stems);
    for (size_t r = 0; r < s->nruns; r++)   /* a score file's run is named after it */
        names[r] = s->run_names && s->run_names[r] ? s->run_names[r] : (stems[r] = rt_path_stem(s->run_paths[r]));
    const char *slash = strrchr(s->dbqa, '/');
    w.dbqa = NULL;
    w.name = s->name ? s->name : slash ? slash + 1 : s->dbqa;
    w.queries = files->queries;
    w.collection = files->collection;
    w.qrels = files->qrels;
    w.run_paths = (const char **)files->runs;
    w.run_names = names;
    w.order = RT_ORDER_FILE;
    w.measures = s->measures ? s->measures : "dbqa";
    rt_status st = open_spec(out, &w, progress, err);
    for (size_t r = 0; r < s->nruns; r++)
        free(stems[r]);
    free(stems);
    free(names);
    return st;
}

/* An NLPCC DBQA file with score files: written once more (each open) as TSV/TREC inputs into
 * the cache folder (rt_dbqa_write_workspace), then opened like any workspace with order "file". */
static rt_status open_dbqa(rt_workspace **out, const rt_ws_spec *s, const rt_progress *progress,
                           rt_err *err)
{
    if (s->nruns == 0)
        return rt_err_set(err, RT_EUSAGE, "--dbqa needs at least one score file (--run)");
    if (s->qrels || s->queries || s->collection)
        return rt_err_set(err, RT_EUSAGE, "--dbqa holds the queries, passages and labels: no --queries, "
                          "--collection or --qrels with it");
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_load_opts lo = {.strict = s->strict};
    rt_dbqa *d = NULL;
    rt_dbqa_files files = {0};
    char *dir = NULL;
    rt_status st = rt_dbqa_load(&d, s->dbqa, qids, pids, &lo, rep, err);
    if (st == RT_OK) {
        char *abs = realpath(s->dbqa, NULL), sub[64];
        const char *key = abs ? abs : s->dbqa;
        snprintf(sub, sizeof sub, "dbqa/%016llx", (unsigned long long)rt_hash_bytes(key, strlen(key)));
        free(abs);
        if (!(dir = rt_file_cache_dir(sub)))
            st = rt_err_set(err, RT_EIO, "%s: no cache folder to write its workspace in (neither XDG_CACHE_HOME "
                            "nor HOME is an absolute path)", s->dbqa);
    }
    if (st == RT_OK)
        st = rt_dbqa_write_workspace(d, dir, s->run_paths, s->nruns, &files, err);
    if (st == RT_OK)
        st = open_dbqa_files(out, s, &files, progress, err);
    rt_dbqa_files_free(&files);
    free(dir);
    rt_dbqa_free(&d);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return st;
}

rt_status rt_workspace_open(rt_workspace **out, const rt_ws_spec *s, const rt_progress *progress, rt_err *err)
{
    *out = NULL;
    return s->dbqa ? open_dbqa(out, s, progress, err) : open_spec(out, s, progress, err);
}

rt_status rt_workspace_open_config(rt_workspace **out, rt_ws_config *c, const rt_progress *progress,
                                   rt_err *err)
{
    rt_status st = rt_workspace_open(out, &c->spec, progress, err);
    if (st != RT_OK)
        return st;
    (*out)->path = rt_strdup(c->path);
    if (!c->named) {   /* unnamed: called after its file */
        free((*out)->name);
        (*out)->name = rt_path_stem(c->path);
    }
    if (c->taxonomy) {
        rt_taxonomy_free(&(*out)->taxonomy);
        (*out)->taxonomy = c->taxonomy;
        c->taxonomy = NULL;
    }
    return RT_OK;
}

rt_status rt_workspace_open_json(rt_workspace **out, const char *path, unsigned flags,
                                 const rt_progress *progress, rt_err *err)
{
    *out = NULL;
    rt_ws_config *c;
    rt_status st = rt_wsconfig_read(&c, path, err);
    if (st != RT_OK)
        return st;
    c->spec.no_cache = (flags & RT_WS_NO_CACHE) != 0;
    c->spec.defer_collection = (flags & RT_WS_DEFER_COLLECTION) != 0;
    c->spec.defer_runs = (flags & RT_WS_DEFER_RUNS) != 0;
    st = rt_workspace_open_config(out, c, progress, err);
    rt_wsconfig_free(&c);
    return st;
}

