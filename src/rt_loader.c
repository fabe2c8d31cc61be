/* rt_loader — what a deferred open (rt_wsopen.c) left, taken in step by step on the workspace's
 * thread (rt_loader_poll, rt_loader_wait), its report lines keyed where a waiting open puts them
 * and its events queued; the run-taking steps the open shares; the workspace cache's writer
 * process (forked here, its writing rt_wscache's); the warm-up; the loader's end. */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_file.h"
#include "rt_loader.h"
#include "rt_loadjobs.h"
#include "rt_loadpriv.h"
#include "rt_mem.h"
#include "rt_reader.h"
#include "rt_runstage.h"
#include "rt_thread.h"
#include "rt_warm.h"
#include "rt_workspace.h"
#include "rt_wscache.h"

rt_status rt_loader_runs_take(rt_workspace *ws, const rt_ws_spec *s, rt_runsjob *j, size_t r, uint64_t before,
                              uint64_t total, const rt_progress *progress, rt_err *err)
{
    rt_run *run;
    uint32_t key = rt_report_set_key(ws->report, KEY(PH_RUNS, r));
    rt_status st = rt_runsjob_fetch(s, j, r, before, total, progress, &run, err);
    if (st == RT_OK) {
        rt_runs_tick rt = {progress, j ? &j->read : NULL, total};
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
rt_status rt_loader_load_runs(rt_workspace *ws, const rt_ws_spec *s, const rt_progress *progress, rt_err *err)
{
    uint64_t total = 0, done = 0;   /* the runs' bytes, and of those before the one read */
    for (size_t r = 0; r < s->nruns; r++)
        total += rt_load_file_size(s->run_paths[r]);
    rt_runsjob *j = rt_runsjob_start(s, progress != NULL, 0);
    rt_status st = RT_OK;
    for (size_t r = 0; r < s->nruns && st == RT_OK; r++) {
        st = rt_loader_runs_take(ws, s, j, r, done, total, progress, err);
        done += rt_load_file_size(s->run_paths[r]);
    }
    if (st == RT_OK)
        rt_progress_report(progress, "runs", done, total);
    rt_runsjob_finish(&j);
    return st;
}


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
 * rt_loader_runs_take, after the queries and the qrels, and the open then returns without waiting for the
 * others). Does nothing (ws->loader->runs NULL) when the runs would not be read on threads. */
void rt_loader_runs_defer(rt_workspace *ws, const rt_ws_spec *s, int count)
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
    if (!(p->j = rt_runsjob_start(&p->s, count, 1)))
        runs_pending_free(&p);
    ws->loader->runs = p;
}

/* Appends the lines of from to to, kinds kept. */
void rt_loader_append_report(rt_report *to, const rt_report *from)
{
    for (size_t i = 0; i < rt_report_count(from); i++) {
        rt_report_kind kind;
        const char *line = rt_report_line(from, i, &kind);
        rt_report_add(to, kind, "%s", line);
    }
}

/* ---- the cache's writer process ------------------------------------------------------------------
 *
 * A large workspace cache (rt_tuning.cache_background_min) is written by a child process, so that
 * the open does not wait for a gigabyte to be written: fork gives it a copy-on-write snapshot of
 * what was parsed, which the parent goes on to change. rt_wscache lays the cache out and writes it
 * (rt_wscache_job_write); the loader alone forks, sets the child up and keeps its process id.
 *
 * Fork safety. Only the forking thread goes on in the child, so the child must take no lock that
 * another thread held at the fork: that lock stays held in the child for ever. The threads that
 * may exist at the fork, and the locks they may hold:
 *   - this loader's own: the run workers (rt_loadjobs: their job's mutex), the collection's thread
 *     (atomics only) and the warm-up (rt_warm: atomics only). None runs at a save: the workers are
 *     joined before (runs_done, rt_loader_load_runs), the collection's thread too (take_collection,
 *     the open's coll_wait), and the warm-up starts only after (rt_loader_warm). writer_may_fork
 *     checks it before every fork; should one still run, the cache is written in-process instead.
 *   - other workspaces' loaders (the same threads, their own jobs' mutexes), detached run workers
 *     of an abandoned open, the workbench's contrast-ahead thread (ui/view_list.c: it reads
 *     runs and allocates, no lock of its own) and the threads of a measure asked for later
 *     (rt_measjob: they read runs and the qrels and allocate; atomics only, no lock);
 *   - any of them may be inside malloc (an arena lock) or opening or closing a stream (the list of
 *     streams' lock). glibc's fork takes both locks before it forks and resets them in the child
 *     (as do musl's and the sanitizers' allocators), so the child's malloc and fopencookie work.
 * What the child touches: the job (the workspace's ids, qrels, runs, report and evals, owned by
 * the forking thread, which is inside the save: consistent), the rt_wscache it was made from, the
 * collection (built, its thread joined: its index is written here first), ws->tuning, files it
 * opens itself and streams it makes (their locks are new), malloc, rt_mapguard (lock-free), getenv
 * (the cache folder). It never touches: a job of rt_loadjobs or its mutex, the loader, a report
 * other than the job's (read), the standard streams (flushed before the fork, then /dev/null), the
 * Faiss module (its once-lock), ncurses. tests/unit/test_wswriter checks that the child finishes
 * while other threads allocate, open streams and hold a run job's mutex at the fork. */

/* Whether no thread of ld may be running: the fork's precondition (above). */
static int writer_may_fork(const rt_loader *ld)
{
    return !(ld->runs && ld->runs->j) && !ld->coll && (!ld->warm || rt_warm_done(ld->warm));
}

/* The child: leaves the terminal's session and closes every descriptor it inherited (a pipe the
 * parent writes to, retriage eval | head, must reach its end when the parent exits, and the
 * journal's lock must go with the parent), waits for rt_tuning.cache_writer_wait (a path, for
 * tests: a test acts while the writer waits, then lets it go, instead of guessing a delay), writes
 * the collection index built by this open, then the cache. Its temporary files carry its own
 * process id, so a later open sweeps them only if it died. Exits without the parent's exit
 * handlers (the terminal, buffered output). */
static _Noreturn void writer_child(const rt_workspace *ws, const rt_wscache_job *job)
{
    (void)setsid();
    int fd = open("/dev/null", O_RDWR);
    if (fd >= 0) {
        dup2(fd, 0);
        dup2(fd, 1);
        dup2(fd, 2);
    }
#ifdef HAVE_CLOSE_RANGE
    close_range(3, ~0u, 0);
#else
    for (int i = 3; i < 1024; i++)
        close(i);
#endif
    rt_file_test_hold(ws->tuning.cache_writer_wait);
    rt_collection_save(ws->collection, NULL);   /* before the cache: it need not hold up the open */
    _exit(rt_wscache_job_write(job) ? 0 : 1);
}

/* rt_wscache_runner of the workspace ctx: the writer forked, its process id kept (reaped by
 * rt_loader_free). 0 when it cannot be forked now. */
static long fork_writer(const rt_wscache_job *job, void *ctx)
{
    rt_workspace *ws = ctx;
    rt_loader *ld = ws->loader;
    if (!writer_may_fork(ld))
        return 0;   /* a thread of its own still runs: written in-process */
    fflush(NULL);   /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid == 0)
        writer_child(ws, job);
    if (pid < 0)
        return 0;
    if (ld->writer > 0)   /* one open saves once; a second writer would only be reaped late */
        (void)waitpid(ld->writer, NULL, WNOHANG);
    ld->writer = pid;
    return (long)pid;
}

/* Writes the workspace cache of a parse: its first nqids and npids ids, qrels, runs, the evals of
 * key ekey and the report lines first..last; a built collection index goes to the cache's writer
 * process. */
/* A copy of b with only its first nm columns: the spec's measures, which ekey names (measures
 * added since, rt_workspace_add_measures, are not the cache's). Owned: rt_eval_result_free. */
static rt_eval_result *spec_columns(const rt_workspace *ws, const rt_eval_result *b, size_t nm)
{
    rt_eval_result *x = rt_eval_begin(ws->eval, b->name);   /* ws->eval's width: cut below */
    x->nm = nm;
    for (size_t i = 0; i < b->nq; i++) {
        memcpy(x->value + i * nm, b->value + i * b->nm, nm * sizeof *x->value);
        memcpy(x->defined + i * nm, b->defined + i * b->nm, nm);
    }
    memcpy(x->seen, b->seen, b->nq);
    memcpy(x->mean, b->mean, nm * sizeof *x->mean);
    memcpy(x->n_defined, b->n_defined, nm * sizeof *x->n_defined);
    return x;
}

void rt_loader_save_cache(rt_workspace *ws, uint32_t nqids, uint32_t npids, uint64_t ekey)
{
    rt_eval_result **base = rt_calloc(ws->nruns + 1, sizeof *base);
    rt_run **runs = rt_calloc(ws->nruns + 1, sizeof *runs);
    int cut = ws->nm != ws->nm_open;
    for (size_t r = 0; r < ws->nruns; r++) {
        base[r] = cut ? spec_columns(ws, ws->runs[r].base, ws->nm_open) : ws->runs[r].base;
        runs[r] = ws->runs[r].run;
    }
    rt_ws_evals ev = {ekey, rt_qrels_nqueries(ws->qrels), ws->nm_open, base};
    size_t first = rt_report_key_start(ws->report, KEY(PH_INPUTS, 0));   /* the lines it keeps */
    size_t last = rt_report_key_start(ws->report, KEY(PH_COLLECTION, 0));
    long writer = rt_wscache_save(ws->cache, ws->qids, nqids, ws->pids, npids, ws->qrels, runs, &ev,
                                  ws->report, first, last, fork_writer, ws);
    if (writer > 0)
        rt_collection_saved_by(ws->collection, writer, ws->report);
    for (size_t r = 0; cut && r < ws->nruns; r++)
        rt_eval_result_free(&base[r]);
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
            rt_loader_save_cache(ws, rt_strtab_count(ws->qids), rt_strtab_count(ws->pids), p->ekey);
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
        st = rt_runsjob_fetch(&p->s, p->j, r, 0, 0, NULL, &run, err);
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
        rt_loader_append_report(ws->report, j->report);
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s (passages are not shown)", j->err.msg);
        push(ws->loader, &(rt_load_event){.kind = RT_LOAD_FAILED, .collection = 1, .err = j->err});
        rc = -1;
    } else {
        /* indexed before the last run is in (rp): its passages show now; the judged-pid check and
         * the cache follow the runs (runs_done). Else as the open does when it waits for it. */
        uint32_t key = rt_report_set_key(ws->report, KEY(PH_COLLECTION, 0));
        rt_loader_append_report(ws->report, j->report);
        rt_workspace_set_collection(ws, j->c);
        j->c = NULL;
        rt_report_set_key(ws->report, KEY(PH_JUDGED, 0));
        if (!rp)
            rt_workspace_check_judged(ws);
        if (!rp && ws->cache && !ws->loader->runs_failed)   /* the ids as the open left them: the
                                                              journals may have added some since */
            rt_loader_save_cache(ws, p->nqids, p->npids, p->ekey);
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
    if (wait == RT_LOAD_ALL)
        rt_loader_hurry(ws);
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

void rt_loader_hurry(rt_workspace *ws)
{
    rt_loader *ld = ws->loader;
    if (ld && ld->coll && !atomic_load(&ld->coll->job->finished))
        rt_colljob_hurry(ld->coll->job);
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
    if (ld->writer > 0)   /* reaped when done; one still writing is the init process's to reap */
        (void)waitpid(ld->writer, NULL, WNOHANG);
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
