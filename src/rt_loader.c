/* rt_loader — opening a workspace: each input loaded with progress (the collection and the runs on
 * threads when they are large, rt_loadjobs), each run evaluated once against the base qrels, and,
 * for the workbench, what a deferred open left taken in step by step on the workspace's thread
 * (rt_loader_poll, rt_loader_wait), its report lines put where a waiting open puts them. */
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
#include "rt_loader.h"
#include "rt_loadjobs.h"
#include "rt_mem.h"
#include "rt_path.h"
#include "rt_reader.h"
#include "rt_runstage.h"
#include "rt_thread.h"
#include "rt_warm.h"
#include "rt_workspace.h"
#include "rt_wsconfig.h"
#include "rt_wscache.h"

/* The report's order (rt_report_set_key): a phase, and in the runs' phase the run's number, so
 * that the lines of what a deferred open takes in later land where a waiting open puts them. The
 * cache keeps the lines of the inputs' and the runs' phases (replayed by a reopen). */
enum { PH_OPEN, PH_INPUTS, PH_RUNS, PH_COLLECTION, PH_CROSS, PH_JUDGED, PH_EXTRAS, PH_AFTER };
#define KEY(phase, input) ((uint32_t)(phase) << 24 | (uint32_t)(input))

/* A collection still being indexed when the open returned (rt_ws_spec.defer_collection): its
 * thread, and what the open would have done with it, done by the loader instead: the judged-pid
 * check, and the workspace cache with the evals of key ekey (the cache waits for the check, whose
 * count it keeps). The cache holds the ids as the open left them, the first nqids and npids: the
 * journals, replayed meanwhile, may have added some. */
typedef struct rt_ws_pending {
    rt_colljob *job;
    pthread_t th;
    uint64_t ekey;
    uint32_t nqids, npids;
} rt_ws_pending;

/* In the cache's writer process: the collection index built by this open, before the cache. */
static void save_index(void *ctx) { rt_collection_save(ctx, NULL); }

/* Takes run r of s into ws (ws->nruns must be r): fetched, then interned on this thread, so that
 * every id is what a sequential open gives. */
static rt_status runs_take(rt_workspace *ws, const rt_ws_spec *s, rt_runsjob *j, size_t r, uint64_t before,
                           uint64_t total, rt_ws_progress_fn progress, void *ctx, rt_err *err)
{
    rt_run *run;
    uint32_t key = rt_report_set_key(ws->report, KEY(PH_RUNS, r));
    rt_status st = rt_runsjob_fetch(s, j, r, before, total, progress, ctx, &run, err);
    if (st == RT_OK) {
        rt_runs_tick rt = {progress, ctx, j ? &j->read : NULL, total};
        rt_run_intern(run, ws->qids, ws->pids, s->run_paths[r], ws->report,
                              j && progress ? rt_runs_tick_show : NULL, &rt);
        rt_workspace_add_run(ws, run, NULL);   /* evaluated with the others (after a deferred run that
                                                  failed, r is further on than ws->nruns) */
    }
    rt_runsjob_taken(j, r, st);
    rt_report_set_key(ws->report, key);
    return st;
}

/* Loads every run into ws (in order; ws->nruns counts those loaded): on threads when it pays,
 * else one by one. Stops at the first run (in order) that fails. */
static rt_status load_runs(rt_workspace *ws, const rt_ws_spec *s, rt_ws_progress_fn progress, void *ctx,
                           rt_err *err)
{
    uint64_t total = 0, done = 0;   /* the runs' bytes, and of those before the one read */
    for (size_t r = 0; r < s->nruns; r++)
        total += rt_load_file_size(s->run_paths[r]);
    rt_runsjob *j = rt_runsjob_start(s, progress != NULL, 0);
    rt_status st = RT_OK;
    for (size_t r = 0; r < s->nruns && st == RT_OK; r++) {
        st = runs_take(ws, s, j, r, done, total, progress, ctx, err);
        done += rt_load_file_size(s->run_paths[r]);
    }
    if (st == RT_OK && progress)
        progress(ctx, "runs", done, total);
    rt_runsjob_finish(&j);
    return st;
}

/* The runs still being parsed when the open returned (rt_ws_spec.defer_runs): the first is in,
 * the workers go on with the others, and rt_loader_poll takes each in, in order, on the thread
 * that uses the workspace (ids are interned there, as a sequential open does). What the open would
 * have done once every run was in is done then: the cross-check, and the judged-pid check and the
 * workspace cache (or, with a collection still being indexed, its pending record updated so that
 * they follow it). Report lines go where a waiting open puts them, by their keys. */
typedef struct rt_ws_runs {
    rt_runsjob *j;
    rt_ws_spec s;              /* the job's own: copies of the paths and names, order, strictness */
    uint64_t ekey;
    size_t next;               /* the next run of s to take in (ws->nruns fewer when one failed) */
    rt_run *taking;            /* run next, being interned a step per poll (not yet in ws) */
    rt_eval_result *base;      /* then its evaluation, begun (NULL: still interning) */
    uint32_t evaluated;        /* the judged queries evaluated so far */
} rt_ws_runs;

/* What the warm-up thread reads: the runs and the collection as they were when it started,
 * copied, so that nothing the workspace's thread changes afterwards (a collection taken in, the
 * report, the ids) is read by it. */
typedef struct warm_snapshot {
    const rt_run **runs;
    size_t nruns;
    const rt_collection *collection;
} warm_snapshot;

/* What is still loading into a workspace (ws->loader), and the events not yet polled. Only the
 * workspace's thread touches it; the threads it owns write only their jobs (rt_loadjobs). */
struct rt_loader {
    rt_ws_pending *coll;       /* the collection still being indexed, or NULL */
    rt_ws_runs *runs;          /* the runs still being parsed, or NULL: ws->nruns counts those in */
    size_t runs_failed;        /* deferred runs that could not be read (left out; the others came) */
    int collection_failed;     /* a deferred collection could not be opened (the report says why) */
    rt_load_event *q;          /* events q[said..nq) not yet returned by rt_loader_poll */
    size_t nq, said, cap;
    int done_said;             /* RT_LOAD_DONE was queued */
    struct rt_warm *warm;      /* rt_loader_warm's thread, or NULL */
    warm_snapshot *snap;       /* what that thread reads */
    int warm_asked;            /* rt_loader_warm was called: later calls do nothing */
};

static void push(rt_loader *ld, const rt_load_event *ev)
{
    if (ld->nq == ld->cap)
        ld->q = rt_grow_array(ld->q, ld->nq, ld->cap = ld->cap ? 2 * ld->cap : 8, sizeof *ld->q);
    ld->q[ld->nq++] = *ev;
}

static void runs_pending_free(rt_ws_runs **pp)
{
    rt_ws_runs *p = *pp;
    if (!p)
        return;
    rt_run_free(&p->taking);
    rt_eval_result_free(&p->base);
    rt_runsjob_finish(&p->j);
    for (size_t r = 0; r < p->s.nruns; r++) {
        free((char *)p->s.run_paths[r]);
        if (p->s.run_names)
            free((char *)p->s.run_names[r]);
    }
    free(p->s.run_paths);
    free(p->s.run_names);
    free(p);
    *pp = NULL;
}

/* Starts parsing the runs of s on workers (ws->loader->runs is set; the first run is taken in by
 * runs_take, after the queries and the qrels, and the open then returns without waiting for the
 * others). Does nothing (ws->loader->runs NULL) when the runs would not be read on threads. */
static void runs_defer(rt_workspace *ws, const rt_ws_spec *s, rt_ws_progress_fn progress)
{
    if (!rt_runsjob_threads(s))
        return;
    rt_ws_runs *p = rt_calloc(1, sizeof *p);
    const char **paths = rt_calloc(s->nruns + 1, sizeof *paths);
    const char **names = s->run_names ? rt_calloc(s->nruns + 1, sizeof *names) : NULL;
    for (size_t r = 0; r < s->nruns; r++) {
        paths[r] = rt_strdup(s->run_paths[r]);
        if (names)
            names[r] = s->run_names[r] ? rt_strdup(s->run_names[r]) : NULL;
    }
    p->s = (rt_ws_spec){.run_paths = paths, .run_names = names, .nruns = s->nruns, .order = s->order,
                        .strict = s->strict, .tuning = &ws->tuning};
    if (!(p->j = rt_runsjob_start(&p->s, progress != NULL, 1)))
        runs_pending_free(&p);
    ws->loader->runs = p;
}

/* Appends the lines of from to to, kinds kept. */
static void append_report(rt_report *to, const rt_report *from)
{
    for (size_t i = 0; i < rt_report_count(from); i++) {
        rt_report_kind kind;
        const char *line = rt_report_line(from, i, &kind);
        rt_report_add(to, kind, "%s", line);
    }
}

/* Writes the workspace cache of a parse: its first nqids and npids ids, qrels, runs, the evals of
 * key ekey and the report lines first..last; a built collection index goes to the cache's writer
 * process. */
static void save_cache(rt_workspace *ws, uint32_t nqids, uint32_t npids, uint64_t ekey)
{
    rt_eval_result **base = rt_calloc(ws->nruns + 1, sizeof *base);
    rt_run **runs = rt_calloc(ws->nruns + 1, sizeof *runs);
    for (size_t r = 0; r < ws->nruns; r++) {
        base[r] = ws->runs[r].base;
        runs[r] = ws->runs[r].run;
    }
    rt_ws_evals ev = {ekey, rt_qrels_nqueries(ws->qrels), ws->nm, base};
    size_t first = rt_report_key_start(ws->report, KEY(PH_INPUTS, 0));   /* the lines it keeps */
    size_t last = rt_report_key_start(ws->report, KEY(PH_COLLECTION, 0));
    long writer = rt_wscache_save(ws->cache, ws->qids, nqids, ws->pids, npids, ws->qrels, runs, &ev,
                                  ws->report, first, last, save_index, ws->collection);
    if (writer > 0)
        rt_collection_saved_by(ws->collection, writer, ws->report);
    free(runs);
    free(base);
}

/* Every deferred run is in (or one failed): what the open would have done next. */
static void runs_done(rt_workspace *ws)
{
    rt_ws_runs *p = ws->loader->runs;
    rt_runsjob_finish(&p->j);
    ws->loader->runs = NULL;
    uint32_t key = rt_report_set_key(ws->report, KEY(PH_CROSS, 0));
    rt_workspace_cross_check(ws);
    if (ws->loader->coll) {   /* the collection is taken in next, as after a waiting open's runs */
        ws->loader->coll->ekey = p->ekey;
        ws->loader->coll->nqids = rt_strtab_count(ws->qids);
        ws->loader->coll->npids = rt_strtab_count(ws->pids);
    } else {   /* the collection is in (or failed, or there is none): the rest of the open */
        rt_report_set_key(ws->report, KEY(PH_JUDGED, 0));
        rt_workspace_check_judged(ws);
        if (ws->cache && !ws->loader->runs_failed && !ws->loader->collection_failed)
            save_cache(ws, rt_strtab_count(ws->qids), rt_strtab_count(ws->pids), p->ekey);
        rt_collection_save(ws->collection, ws->report);
    }
    rt_report_set_key(ws->report, key);
    runs_pending_free(&p);
    push(ws->loader, &(rt_load_event){.kind = RT_LOAD_RUNS_DONE});
}

/* Pids interned per step (an rt_loader_poll): a few milliseconds, so that the workbench
 * handles a key between two steps (tests/bench/PERF.md); rt_tuning.settle_step, at least 1 (the
 * tests take runs in a few pids at a time). */
static size_t settle_step(const rt_workspace *ws)
{
    return ws->tuning.settle_step ? ws->tuning.settle_step : 1;
}

/* Takes the next deferred run in: when it is parsed, a step at a time (settle_step pids a call;
 * the whole run when waiting for it with wait). Returns 1 when one was taken, 0 when it is still
 * being parsed or only a step was taken, -1 when it could not be read (it is left out, the others
 * still come; err and the report say why). */
static int runs_step(rt_workspace *ws, int wait, rt_err *err)
{
    rt_ws_runs *p = ws->loader->runs;
    size_t r = p->next;
    rt_status st = RT_OK;
    if (!p->taking) {
        if (!wait && !rt_runsjob_ready(p->j, r))
            return 0;
        rt_run *run;
        st = rt_runsjob_fetch(&p->s, p->j, r, 0, 0, NULL, NULL, &run, err);
        if (st == RT_OK) {
            rt_run_intern_begin(run, ws->qids, ws->pids);
            p->taking = run;
        }
    }
    if (p->taking && !p->base) {   /* a step, or every step when waited for */
        if (!rt_run_intern_step(p->taking, wait ? SIZE_MAX : settle_step(ws)))
            return 0;
        rt_run_intern_finish(p->taking, p->s.run_paths[r], ws->report);
        p->base = rt_eval_begin(ws->eval, rt_run_name(p->taking));
        p->evaluated = 0;   /* and a step of it now: a run of few queries is in at once */
    }
    if (p->taking) {   /* evaluated a step of queries at a time (tests/bench/PERF.md) */
        uint32_t nq = rt_qrels_nqueries(ws->qrels);
        size_t step = settle_step(ws) / 64 ? settle_step(ws) / 64 : 1;   /* about as long as a pid step */
        uint32_t stop = wait || nq - p->evaluated <= step ? nq : p->evaluated + (uint32_t)step;
        for (; p->evaluated < stop; p->evaluated++) {
            size_t n;
            const uint32_t *pids = rt_run_ranking(p->taking, rt_qrels_qid(ws->qrels, p->evaluated), &n);
            if (pids)
                rt_eval_ranking(ws->eval, p->base, p->evaluated, pids, n);
        }
        if (p->evaluated < nq)
            return 0;
        rt_eval_end(ws->eval, p->base);
        rt_workspace_add_run(ws, p->taking, p->base);   /* after a deferred run that failed: r is further on */
        p->taking = NULL;
        p->base = NULL;
    }
    rt_runsjob_taken(p->j, r, st);
    p->next++;
    if (st != RT_OK) {
        ws->loader->runs_failed++;
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s (that run is not shown)", err->msg);
        push(ws->loader, &(rt_load_event){.kind = RT_LOAD_FAILED, .run = r, .err = *err});
    } else {
        ws->nq = 0;   /* the queries only this run ranks come last */
        rt_workspace_list_queries(ws);
        push(ws->loader, &(rt_load_event){.kind = RT_LOAD_RUN_READY, .run = ws->nruns - 1});
    }
    if (p->next == p->s.nruns)
        runs_done(ws);
    return st == RT_OK ? 1 : -1;
}

/* runs_step with the report's lines keyed as the run's. */
static int runs_settle(rt_workspace *ws, int wait, rt_err *err)
{
    uint32_t key = rt_report_set_key(ws->report, KEY(PH_RUNS, ws->loader->runs->next));
    int rc = runs_step(ws, wait, err);
    rt_report_set_key(ws->report, key);
    return rc;
}

/* The collection's thread is done (or waited for): what it made taken in, its events queued.
 * Returns 1, or -1 when it could not be opened (err says why). */
static int take_collection(rt_workspace *ws, rt_err *err)
{
    rt_ws_pending *p = ws->loader->coll;
    if (!atomic_load(&p->job->finished))   /* waited for now: no longer behind other work */
        rt_colljob_hurry(p->job);
    pthread_join(p->th, NULL);
    ws->loader->coll = NULL;
    rt_colljob *j = p->job;
    int rc = 1;
    rt_ws_runs *rp = ws->loader->runs;
    if (j->st != RT_OK) {   /* the open would have failed: the workbench goes on without passages */
        *err = j->err;
        ws->loader->collection_failed = 1;
        append_report(ws->report, j->report);
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s (passages are not shown)", j->err.msg);
        push(ws->loader, &(rt_load_event){.kind = RT_LOAD_FAILED, .collection = 1, .err = j->err});
        rc = -1;
    } else {
        /* indexed before the last run is in (rp): its passages show now; the judged-pid check and
         * the cache follow the runs (runs_done). Else as the open does when it waits for it. */
        uint32_t key = rt_report_set_key(ws->report, KEY(PH_COLLECTION, 0));
        append_report(ws->report, j->report);
        rt_workspace_set_collection(ws, j->c);
        j->c = NULL;
        rt_report_set_key(ws->report, KEY(PH_JUDGED, 0));
        if (!rp)
            rt_workspace_check_judged(ws);
        if (!rp && ws->cache && !ws->loader->runs_failed)   /* the ids as the open left them: the
                                                              journals may have added some since */
            save_cache(ws, p->nqids, p->npids, p->ekey);
        if (!rp)
            rt_collection_save(ws->collection, ws->report);   /* no writer took it: here */
        rt_report_set_key(ws->report, key);
    }
    if (rc > 0)
        push(ws->loader, &(rt_load_event){.kind = RT_LOAD_COLLECTION_READY});
    rt_colljob_free(&j);
    free(p);
    return rc;
}

/* What a deferred open left, taken in: the runs first (with wait, each whole; else a step of one),
 * then the collection once its thread is done (with wait RT_LOAD_ALL, waited for). Returns 1 when
 * something came in, 0 when nothing did, -1 when something could not be read (err: the first). */
static int settle(rt_workspace *ws, unsigned wait, rt_err *err)
{
    rt_loader *ld = ws->loader;
    int taken = 0, failed = 0;
    if (wait == RT_LOAD_ALL && ld->coll && !atomic_load(&ld->coll->job->finished))
        /* everything is waited for (a script, a command): the collection is no longer behind the
         * runs but beside them, so that both cores stay busy to the end rather than one finishing
         * the index alone once the runs are in */
        rt_colljob_hurry(ld->coll->job);
    while (ld->runs) {   /* the runs first: with wait, the collection's part follows them */
        rt_err e;
        int rc = runs_settle(ws, wait != 0, &e);
        if (rc < 0 && !failed++)
            *err = e;
        taken |= rc > 0;
        if (rc == 0 || !wait)   /* one run a call: the screen shows each */
            break;
    }
    if (ld->coll && (wait == RT_LOAD_ALL || atomic_load(&ld->coll->job->finished))) {
        rt_err e;
        int rc = take_collection(ws, &e);
        if (rc < 0 && !failed++)
            *err = e;
        taken |= rc > 0;
    }
    if (!ld->runs && !ld->coll && !ld->done_said) {   /* the end, once */
        ld->done_said = 1;
        push(ld, &(rt_load_event){.kind = RT_LOAD_DONE});
    }
    return failed ? -1 : taken;
}

int rt_loader_poll(rt_workspace *ws, int budget_ms, rt_load_event *ev)
{
    rt_loader *ld = ws->loader;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        if (ld && ld->said < ld->nq) {
            *ev = ld->q[ld->said++];
            if (ld->said == ld->nq)
                ld->said = ld->nq = 0;
            return 1;
        }
        if (!ld || (!ld->runs && !ld->coll))
            return 0;
        rt_err e;
        (void)settle(ws, 0, &e);   /* a failure is an event */
        if (ld->said < ld->nq)
            continue;
        clock_gettime(CLOCK_MONOTONIC, &t);
        long ms = (long)(t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
        if (ms >= budget_ms)
            return 0;
        if (!rt_loader_busy(ws))   /* nothing half taken in: the threads are given a moment */
            nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
    }
}

int rt_loader_wait(rt_workspace *ws, unsigned what, rt_err *err)
{
    rt_loader *ld = ws->loader;
    int taken = 0, failed = 0;
    while (ld && (ld->runs || (what == RT_LOAD_ALL && ld->coll))) {
        rt_err e;
        int rc = settle(ws, what, &e);
        if (rc < 0 && !failed++)
            *err = e;
        taken |= rc > 0;
        if (rc == 0 && !ld->runs)   /* RT_LOAD_RUNS: the collection comes later */
            break;
    }
    return failed ? -1 : taken;
}

size_t rt_loader_queued(const rt_workspace *ws)
{
    return ws->loader ? ws->loader->nq - ws->loader->said : 0;
}

int rt_loader_busy(const rt_workspace *ws)
{
    return ws->loader && ws->loader->runs && ws->loader->runs->taking;
}

size_t rt_loader_runs_failed(const rt_workspace *ws) { return ws->loader ? ws->loader->runs_failed : 0; }
int rt_loader_collection_failed(const rt_workspace *ws) { return ws->loader && ws->loader->collection_failed; }

void rt_loader_abandon(rt_workspace *ws)
{
    rt_loader *ld = ws->loader;
    if (!ld)
        return;
    if (ld->runs) {   /* its workers stop after the run they read, or never (a pipe) */
        rt_runsjob_abandon(&ld->runs->j);
        ld->runs = NULL;   /* the job and what it read go with the process */
    }
    if (ld->coll) {   /* its thread only builds an index in memory */
        atomic_store(&ld->coll->job->hurry, 1);
        pthread_detach(ld->coll->th);
        ld->coll = NULL;
    }
}

int rt_loader_runs_loading(const rt_workspace *ws, size_t *in, size_t *total)
{
    if (!ws->loader || !ws->loader->runs)
        return 0;
    if (in)
        *in = ws->loader->runs->next;
    if (total)
        *total = ws->loader->runs->s.nruns;
    return 1;
}

int rt_loader_collection_loading(const rt_workspace *ws, uint64_t *done, uint64_t *total)
{
    if (!ws->loader || !ws->loader->coll)
        return 0;
    if (done)
        *done = atomic_load(&ws->loader->coll->job->done);
    if (total)
        *total = atomic_load(&ws->loader->coll->job->total);
    return 1;
}

typedef struct progress_bridge {
    rt_ws_progress_fn fn;
    void *ctx;
} progress_bridge;

static void collection_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_bridge *b = ctx;
    b->fn(b->ctx, "collection", done, total);
}

/* A phase that reads one file: its size as the total (the bytes are known when it is read). */
static void phase(rt_ws_progress_fn fn, void *ctx, const char *what)
{
    if (fn)
        fn(ctx, what, 0, 0);
}

/* One open, passed between its steps. */
typedef struct open_state {
    const rt_ws_spec *s;
    rt_ws_progress_fn progress;
    void *ctx;
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
    phase(o->progress, o->ctx, "cache");
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
    rt_status st = runs_take(ws, &p->s, p->j, 0, 0, total, o->progress, o->ctx, err);
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
        runs_defer(ws, s, o->progress);
    rt_status st = RT_OK;
    if (s->queries) {
        phase(o->progress, o->ctx, "queries");
        st = rt_queries_load(&ws->queries, s->queries, RT_QUERIES_AUTO, ws->qids, &lo, ws->report, err);
    }
    rt_report_set_key(ws->report, KEY(PH_INPUTS, 0));   /* the lines a cache keeps start here */
    if (st == RT_OK && o->cached) {
        for (size_t r = 0; r < s->nruns; r++)
            rt_workspace_add_run(ws, o->runs[r], NULL);
        rt_wscache_replay(ws->cache, ws->report);
    } else if (st == RT_OK) {
        phase(o->progress, o->ctx, "qrels");
        st = rt_qrels_load(&ws->qrels, s->qrels, RT_QRELS_AUTO, ws->qids, ws->pids, &lo, ws->report, err);
    }
    if (st == RT_OK && ws->loader->runs)
        st = take_first_run(ws, o, err);
    if (st == RT_OK && !o->cached && !ws->loader->runs)
        st = load_runs(ws, s, o->progress, o->ctx, err);
    if (o->coll_later)
        o->threaded = st == RT_OK && rt_colljob_start(&o->job, &o->coll_th, s, !ws->cache);
    return st;
}

/* Waits for the collection's thread (showing its progress) and takes what it made. */
static rt_status coll_wait(rt_workspace *ws, open_state *o, rt_status st, rt_err *err)
{
    rt_colljob *job = o->job;
    phase(o->progress, o->ctx, "collection");
    while (!atomic_load(&job->finished)) {
        if (o->progress)
            o->progress(o->ctx, "collection", atomic_load(&job->done), atomic_load(&job->total));
        nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    }
    pthread_join(o->coll_th, NULL);
    rt_workspace_set_collection(ws, job->c);
    job->c = NULL;
    if (st != RT_OK)   /* a failed open writes no cache: the index is written now */
        rt_collection_save(ws->collection, job->report);
    append_report(ws->report, job->report);
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
        progress_bridge b = {o->progress, o->ctx};
        rt_collection *c = NULL;
        st = rt_collection_open(&c, s->collection, o->progress ? collection_progress : NULL, &b, ws->report, err);
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
        save_cache(ws, rt_strtab_count(ws->qids), rt_strtab_count(ws->pids), ekey);
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

static rt_status open_spec(rt_workspace **out, const rt_ws_spec *s, rt_ws_progress_fn progress,
                           void *ctx, rt_err *err)
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
    open_state o = {.s = s, .progress = progress, .ctx = ctx};
    o.runs = rt_calloc(s->nruns, sizeof *o.runs);
    rt_status st = rt_measure_list_parse(s->measures ? s->measures : "dureader", &ws->ms, &ws->nm, err);
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
                                 rt_ws_progress_fn progress, void *ctx, rt_err *err)
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
    rt_status st = open_spec(out, &w, progress, ctx, err);
    for (size_t r = 0; r < s->nruns; r++)
        free(stems[r]);
    free(stems);
    free(names);
    return st;
}

/* An NLPCC DBQA file with score files: written once more (each open) as TSV/TREC inputs into
 * the cache folder (rt_dbqa_write_workspace), then opened like any workspace with order "file". */
static rt_status open_dbqa(rt_workspace **out, const rt_ws_spec *s, rt_ws_progress_fn progress, void *ctx,
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
        st = open_dbqa_files(out, s, &files, progress, ctx, err);
    rt_dbqa_files_free(&files);
    free(dir);
    rt_dbqa_free(&d);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return st;
}

rt_status rt_workspace_open(rt_workspace **out, const rt_ws_spec *s, rt_ws_progress_fn progress,
                            void *ctx, rt_err *err)
{
    *out = NULL;
    return s->dbqa ? open_dbqa(out, s, progress, ctx, err) : open_spec(out, s, progress, ctx, err);
}

rt_status rt_workspace_open_config(rt_workspace **out, rt_ws_config *c, rt_ws_progress_fn progress,
                                   void *ctx, rt_err *err)
{
    rt_status st = rt_workspace_open(out, &c->spec, progress, ctx, err);
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
                                 rt_ws_progress_fn progress, void *ctx, rt_err *err)
{
    *out = NULL;
    rt_ws_config *c;
    rt_status st = rt_wsconfig_read(&c, path, err);
    if (st != RT_OK)
        return st;
    c->spec.no_cache = (flags & RT_WS_NO_CACHE) != 0;
    c->spec.defer_collection = (flags & RT_WS_DEFER_COLLECTION) != 0;
    c->spec.defer_runs = (flags & RT_WS_DEFER_RUNS) != 0;
    st = rt_workspace_open_config(out, c, progress, ctx, err);
    rt_wsconfig_free(&c);
    return st;
}

void rt_loader_attach(rt_workspace *ws)
{
    if (!ws->loader)
        ws->loader = rt_calloc(1, sizeof *ws->loader);
}

void rt_loader_free(rt_workspace *ws)
{
    rt_loader *ld = ws->loader;
    if (!ld)
        return;
    rt_warm_stop(&ld->warm);   /* first: it reads the runs and the mappings */
    if (ld->snap)
        free(ld->snap->runs);
    free(ld->snap);
    runs_pending_free(&ld->runs);   /* its workers read only the files */
    if (ld->coll) {   /* a collection still being indexed: its thread reads only the file */
        rt_colljob_hurry(ld->coll->job);
        pthread_join(ld->coll->th, NULL);
        rt_colljob_free(&ld->coll->job);
        free(ld->coll);
    }
    free(ld->q);
    free(ld);
    ws->loader = NULL;
}


/* The warm-up thread's work, after the index and the cache are mapped in: the runs checked, then
 * the collection read into the page cache (the passages a key shows then wait for no disk read).
 * Touches: the snapshot's runs (their rankings, read) and collection (its file, read). Never
 * touches: the workspace, its ids, report or cache, the loader. */
static void check_runs_then_collection(void *ctx, const atomic_int *stop)
{
    const warm_snapshot *w = ctx;
    for (size_t r = 0; r < w->nruns; r++)
        rt_run_check_all(w->runs[r], stop);
    rt_collection_warm(w->collection, stop);
}

void rt_loader_warm(rt_workspace *ws)
{
    rt_loader *ld = ws->loader;
    rt_warm_region reg[2];
    size_t n = 0;
    if (!ld || ld->warm_asked || ld->runs)   /* it reads every run: once they are all in */
        return;
    ld->warm_asked = 1;
    /* the index first: each passage the compare view shows costs a few of its pages */
    if (ws->collection && (reg[n].p = rt_collection_index_map(ws->collection, &reg[n].len)) != NULL)
        n++;
    if ((reg[n].p = rt_wscache_map(ws->cache, &reg[n].len)) != NULL)
        n++;
    if (!n)
        return;
    warm_snapshot *w = rt_calloc(1, sizeof *w);
    w->runs = rt_calloc(ws->nruns + 1, sizeof *w->runs);
    for (size_t r = 0; r < ws->nruns; r++)
        w->runs[w->nruns++] = ws->runs[r].run;
    w->collection = ws->collection;
    ld->snap = w;
    ld->warm = rt_warm_start(reg, n, check_runs_then_collection, w);
}
