/* rt_loadjobs — the loader's threads: the collection opened (and indexed) on a thread of its own,
 * and the runs parsed by a pool of workers a run ahead of the loader, which interns them in order. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_file.h"
#include "rt_loadjobs.h"
#include "rt_mem.h"
#include "rt_reader.h"
#include "rt_runstage.h"
#include "rt_thread.h"

/* Workers stay at most RUNS_AHEAD runs past the last interned: a parsed run's other-than-decimal
 * pids are held as text until then. */
enum { RUNS_AHEAD = 4 };

uint64_t rt_load_file_size(const char *path)
{
    struct stat sb;
    return path && strcmp(path, "-") != 0 && stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

void rt_colljob_free(rt_colljob **jp)
{
    rt_colljob *j = *jp;
    if (!j)
        return;
    rt_collection_close(&j->c);
    rt_report_free(&j->report);
    free(j->path);
    free(j->hold_path);
    free(j);
    *jp = NULL;
}

/* The collection's progress, on its thread: stored for the opener's thread to show (rt_progress:
 * only that thread reports to its caller). */
static void coll_progress(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    (void)phase;
    rt_colljob *j = ctx;
    atomic_store(&j->total, total);
    atomic_store(&j->done, done);
}

/* The collection's thread. Touches: its job (the collection it opens, its report, status and
 * error, until finished is set; the progress atomics) and, with save, the collection's index file.
 * Never touches: the workspace, its ids, report or cache, the loader. */
static void *coll_thread(void *arg)
{
    rt_colljob *j = arg;
    if (j->behind)   /* the first screen waits for the runs, not for it */
        atomic_store(&j->tid, rt_thread_idle_priority());
    if (j->behind && atomic_load(&j->hurry))   /* waited for before it had a thread id */
        rt_thread_normal_priority(atomic_load(&j->tid));
    rt_file_test_hold(j->hold_path);
    /* an index it builds is written by the cache's writer process when there is a cache; without
     * one, here, so that no step of the opening thread (a key, in the workbench) waits for it */
    rt_progress counted = {coll_progress, j};
    j->st = rt_collection_open_unsaved(&j->c, j->path, &counted, j->report, &j->err);
    if (j->st == RT_OK && j->save)
        rt_collection_save(j->c, j->report);
    atomic_store(&j->finished, 1);
    return NULL;
}

/* Starts the thread that opens the collection of s (job and th set), and writes its index when save;
 * 0 when it could not be made. */
int rt_colljob_start(rt_colljob **job, pthread_t *th, const rt_ws_spec *s, int save)
{
    *job = rt_calloc(1, sizeof **job);
    (*job)->path = rt_strdup(s->collection);
    (*job)->report = rt_report_new();
    (*job)->behind = s->defer_collection;
    (*job)->save = save;
    const char *wait = rt_tuning_or_default(s->tuning)->collection_wait;
    (*job)->hold_path = wait ? rt_strdup(wait) : NULL;
    if (pthread_create(th, NULL, coll_thread, *job) == 0)
        return 1;
    rt_colljob_free(job);
    return 0;
}

/* Whether a collection is large enough to be opened on its own thread: by the work it takes, for a
 * compressed one 4 bytes a byte (text compresses 2-3 times, DuReader's Chinese 2.5 with gzip, and
 * it is read twice: decompressed, then indexed). */
int rt_colljob_threaded(const char *path, uint64_t parallel_min)
{
    uint64_t size = rt_load_file_size(path);
    if (rt_file_codec(path) != RT_CODEC_NONE)
        size = size > UINT64_MAX / 4 ? UINT64_MAX : size * 4;
    return size >= parallel_min;
}

void rt_runs_tick_show(void *ctx)
{
    rt_runs_tick *t = ctx;
    uint64_t read = atomic_load(t->read);
    rt_progress_report(t->to, "runs", read < t->total ? read : t->total, t->total);
}

/* A run worker. Touches: the job's shared fields under mu (next, busy, done, stop), and the run r
 * it took (parsed[r], st[r], err[r], with its own id tables) until done[r] is set; read (atomic).
 * Never touches: the workspace, its ids or report (a run is interned by the loader, on the
 * workspace's thread), another worker's run. */
static void *runs_worker(void *arg)
{
    rt_runsjob *j = arg;
    int behind = 0;
    pthread_mutex_lock(&j->mu);
    for (;;) {
        size_t r = j->next;
        if (j->stop || r >= j->s->nruns)
            break;
        if (r >= j->interned + RUNS_AHEAD || (j->hold && j->busy)) {
            pthread_cond_wait(&j->cv, &j->mu);
            continue;
        }
        j->next++;
        j->busy++;
        /* the first run, alone, is read on two threads; so is the last, for the thread whose
         * runs are all read has nothing else to do (a whole run left to one thread kept a core
         * idle for up to half a second at the end of a ten-run open). The run read while the
         * first is interned is not: the opening thread has the other core. */
        int halves = (j->hold && r == j->interned) || r + 1 == j->s->nruns;
        pthread_mutex_unlock(&j->mu);
        if (j->go_on && !halves && !behind) {   /* deferred, after the first run: the keys first */
            rt_thread_behind_ui_priority();
            behind = 1;
        }
        const rt_ws_spec *s = j->s;
        rt_run_opts ro = {.order = s->order, .strict = s->strict,
                          .name = s->run_names ? s->run_names[r] : NULL};
        if (j->count)   /* only counted: the opening thread shows it while it waits, so that the
                           line moves within a run, not once a run */
            ro.progress_done = &j->read;
        rt_status st = halves ? rt_run_parse_halves(&j->parsed[r], s->run_paths[r], &ro, j->parallel_min, &j->err[r])
                              : rt_run_parse(&j->parsed[r], s->run_paths[r], &ro, &j->err[r]);
        pthread_mutex_lock(&j->mu);
        j->st[r] = st;
        j->done[r] = 1;
        j->busy--;
        pthread_cond_broadcast(&j->cv);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* How many threads parse runs: the cores, at most one per run; 0 for a workspace whose runs
 * are below rt_tuning.parallel_min bytes (or of one run), read on the opening thread. */
size_t rt_runsjob_threads(const rt_ws_spec *s)
{
    uint64_t total = 0;
    for (size_t r = 0; r < s->nruns; r++)
        total += rt_load_file_size(s->run_paths[r]);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (s->nruns < 2 || total < rt_tuning_or_default(s->tuning)->parallel_min || cpus < 2)
        return 0;
    size_t n = cpus > 8 ? 8 : (size_t)cpus;
    return n < s->nruns ? n : s->nruns;
}

/* Starts the workers that parse the runs of s (which must outlive them), or returns NULL when
 * the runs are read one by one on the opening thread (rt_runsjob_threads 0, or no thread could be made).
 * count: the workers count the bytes they read, for a progress line; hold: rt_runsjob.hold. */
rt_runsjob *rt_runsjob_start(const rt_ws_spec *s, int count, int hold)
{
    size_t nth = rt_runsjob_threads(s);
    if (!nth)
        return NULL;
    rt_runsjob *j = rt_calloc(1, sizeof *j);
    j->s = s;
    j->parallel_min = rt_tuning_or_default(s->tuning)->parallel_min;
    j->count = count;
    j->hold = hold;
    j->go_on = hold;   /* deferred: a later run that fails is left out, the others still come */
    pthread_mutex_init(&j->mu, NULL);
    /* its timed waits (the progress ticks while a run is waited for) count monotonic time: a clock
     * set back meanwhile would stop the ticks */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&j->cv, &ca);
    pthread_condattr_destroy(&ca);
    j->parsed = rt_calloc(s->nruns, sizeof *j->parsed);
    j->st = rt_calloc(s->nruns, sizeof *j->st);
    j->err = rt_calloc(s->nruns, sizeof *j->err);
    j->done = rt_calloc(s->nruns, 1);
    while (j->started < nth && pthread_create(&j->th[j->started], NULL, runs_worker, j) == 0)
        j->started++;
    if (!j->started) {
        rt_runsjob_finish(&j);
        return NULL;
    }
    return j;
}

/* Tells every worker to stop (one waiting for room ahead wakes to see it). */
static void stop_workers(rt_runsjob *j)
{
    pthread_mutex_lock(&j->mu);
    j->stop = 1;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

/* Stops the workers (those waiting to run ahead, after a failure or a free), joins them and frees
 * the job with every run parsed and not taken. */
void rt_runsjob_finish(rt_runsjob **jp)
{
    rt_runsjob *j = *jp;
    if (!j)
        return;
    stop_workers(j);
    for (size_t t = 0; t < j->started; t++)
        pthread_join(j->th[t], NULL);
    for (size_t r = 0; r < j->s->nruns; r++)
        rt_run_free(&j->parsed[r]);
    free(j->parsed);
    free(j->st);
    free(j->err);
    free(j->done);
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->mu);
    free(j);
    *jp = NULL;
}

/* Whether run r has been parsed by a worker (it can be taken without waiting). */
int rt_runsjob_ready(rt_runsjob *j, size_t r)
{
    pthread_mutex_lock(&j->mu);
    int done = j->done[r];
    pthread_mutex_unlock(&j->mu);
    return done;
}

/* Run r of s, parsed: from a worker of j, waiting for it (with progress, ticking), or parsed
 * here when j is NULL. before and total: the bytes of the runs before r and of all, for progress. */
rt_status rt_runsjob_fetch(const rt_ws_spec *s, rt_runsjob *j, size_t r, uint64_t before, uint64_t total,
                            const rt_progress *progress, rt_run **out, rt_err *err)
{
    rt_run *run = NULL;
    rt_status st;
    if (j) {
        pthread_mutex_lock(&j->mu);
        while (!j->done[r]) {
            if (!progress) {
                pthread_cond_wait(&j->cv, &j->mu);
                continue;
            }
            /* what the workers have read, ten times a second (tests/bench/PERF.md) */
            rt_runs_tick rt = {progress, &j->read, total};
            pthread_mutex_unlock(&j->mu);
            rt_runs_tick_show(&rt);
            pthread_mutex_lock(&j->mu);
            if (j->done[r])
                break;
            struct timespec until;
            clock_gettime(CLOCK_MONOTONIC, &until);
            until.tv_nsec += 100 * 1000 * 1000;
            if (until.tv_nsec >= 1000 * 1000 * 1000)
                until.tv_sec++, until.tv_nsec -= 1000 * 1000 * 1000;
            pthread_cond_timedwait(&j->cv, &j->mu, &until);
        }
        pthread_mutex_unlock(&j->mu);
        run = j->parsed[r];
        j->parsed[r] = NULL;
        if ((st = j->st[r]) != RT_OK)
            *err = j->err[r];
    } else {
        rt_progress_report(progress, "runs", before, total);
        rt_run_opts ro = {.order = s->order, .strict = s->strict,
                          .name = s->run_names ? s->run_names[r] : NULL,   /* the runs' bytes so far */
                          .progress = progress, .progress_phase = "runs", .progress_before = before,
                          .progress_total = total};
        st = rt_run_parse(&run, s->run_paths[r], &ro, err);
    }
    *out = st == RT_OK ? run : NULL;
    if (st != RT_OK)
        rt_run_free(&run);
    return st;
}

/* Run r is in ws (st RT_OK) or failed: the job's workers are told (the next may go on). */
void rt_runsjob_taken(rt_runsjob *j, size_t r, rt_status st)
{
    if (!j)
        return;
    pthread_mutex_lock(&j->mu);
    j->interned = r + 1;
    j->hold = 0;
    j->stop |= st != RT_OK && !j->go_on;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
}


void rt_colljob_hurry(rt_colljob *j)
{
    atomic_store(&j->hurry, 1);
    rt_thread_normal_priority(atomic_load(&j->tid));
}

void rt_runsjob_abandon(rt_runsjob **jp)
{
    rt_runsjob *j = *jp;
    if (!j)
        return;
    stop_workers(j);
    for (size_t t = 0; t < j->started; t++)   /* never joined now: nothing is left waiting for */
        pthread_detach(j->th[t]);             /* them (ThreadSanitizer: no thread leak) */
    *jp = NULL;   /* the job and what it read go with the process */
}
