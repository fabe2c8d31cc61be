/* rt_measjob — measures computed on demand for every run: worker threads evaluate, the
 * workspace's thread joins the values in. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_loader.h"
#include "rt_mem.h"
#include "rt_measjob.h"
#include "rt_thread.h"

#define MAX_THREADS 2   /* the machines this is for have two cores (DESIGN.md §10) */

struct rt_measjob {
    rt_measure *ms;
    size_t nm;
    rt_eval *ev;                /* over the base qrels with ms: the job's own */
    const rt_qrels *qrels;
    const rt_run **runs;        /* the runs in when it started (a copy of the pointers) */
    size_t nruns;
    rt_eval_result **res;       /* [r]: run r's values, written by the thread that took r */
    const char *hold;           /* rt_tuning.measure_wait: a test's hold before the work */
    atomic_size_t next, done;   /* the next run to take; the runs evaluated */
    atomic_int stop;
    pthread_t th[MAX_THREADS];
    size_t nth;
};

rt_status rt_measjob_parse(const rt_workspace *ws, const char *list, rt_measure **ms, size_t *n,
                           size_t *missing, rt_err *err)
{
    rt_measure *all = NULL;
    size_t na = 0;
    *ms = NULL;
    *n = *missing = 0;
    rt_status st = rt_measure_list_parse(list, &all, &na, err);
    if (st != RT_OK) {
        free(all);
        return st;
    }
    for (size_t i = 0; i < na; i++)
        *missing += rt_workspace_find_measure(ws, &all[i]) == (size_t)-1;
    *ms = all;
    *n = na;
    return RT_OK;
}

/* rt_tuning.measure_wait: a test's hold before the work, until the file exists (at most 120 s) or
 * the job is cancelled. */
static void hold(rt_measjob *j)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; j->hold && *j->hold && i < 12000 && access(j->hold, F_OK) != 0 &&
                    !atomic_load(&j->stop); i++)
        nanosleep(&tick, NULL);
}

/* A worker. Touches: the results of the runs it takes (one at a time, by the shared counter), the
 * counters. Reads: those runs' rankings, the base qrels, the job's evaluator. Never touches: the
 * workspace itself (its runs array, lists, evaluator, cache), the live metrics, the session. */
static void *worker(void *arg)
{
    rt_measjob *j = arg;
    rt_thread_behind_ui_priority();   /* the user waits for it, but not at the cost of a key */
    hold(j);
    uint32_t nq = rt_qrels_nqueries(j->qrels);
    for (;;) {
        size_t r = atomic_fetch_add(&j->next, 1);
        if (r >= j->nruns)
            break;
        rt_eval_result *x = rt_eval_begin(j->ev, rt_run_name(j->runs[r]));
        for (uint32_t i = 0; i < nq && !atomic_load_explicit(&j->stop, memory_order_relaxed); i++) {
            size_t n;
            const uint32_t *pids = rt_run_ranking(j->runs[r], rt_qrels_qid(j->qrels, i), &n);
            if (pids)
                rt_eval_ranking(j->ev, x, i, pids, n);
        }
        rt_eval_end(j->ev, x);
        j->res[r] = x;
        atomic_fetch_add_explicit(&j->done, 1, memory_order_release);
    }
    return NULL;
}

static void job_free(rt_measjob *j)
{
    for (size_t r = 0; r < j->nruns; r++)
        rt_eval_result_free(&j->res[r]);
    free(j->res);
    free(j->runs);
    rt_eval_free(&j->ev);
    free(j->ms);
    free(j);
}

rt_status rt_measjob_start(rt_measjob **out, const rt_workspace *ws, const rt_measure *ms, size_t n,
                           rt_err *err)
{
    *out = NULL;
    if (n == 0)
        return rt_err_set(err, RT_EUSAGE, "no measure to compute");
    if (rt_loader_runs_loading(ws, NULL, NULL))
        return rt_err_set(err, RT_EUSAGE, "runs are still being read: measures are added once they are in");
    rt_measjob *j = rt_calloc(1, sizeof *j);
    j->ms = rt_reallocarray(NULL, n, sizeof *j->ms);
    memcpy(j->ms, ms, n * sizeof *ms);
    j->nm = n;
    j->qrels = ws->qrels;
    j->ev = rt_eval_new(ws->qrels, ws->qids, ws->pids, j->ms, n, ws->level);
    j->nruns = ws->nruns;
    j->runs = rt_calloc(j->nruns + 1, sizeof *j->runs);
    for (size_t r = 0; r < j->nruns; r++)
        j->runs[r] = ws->runs[r].run;
    j->res = rt_calloc(j->nruns + 1, sizeof *j->res);
    j->hold = ws->tuning.measure_wait;
    size_t want = j->nruns < MAX_THREADS ? j->nruns : MAX_THREADS;
    for (j->nth = 0; j->nth < want && pthread_create(&j->th[j->nth], NULL, worker, j) == 0; j->nth++)
        ;
    if (j->nth == 0)   /* no thread to be had: the work is done here */
        worker(j);
    *out = j;
    return RT_OK;
}

int rt_measjob_progress(const rt_measjob *j, size_t *done, size_t *total)
{
    size_t d = atomic_load_explicit(&j->done, memory_order_acquire);
    if (done)
        *done = d;
    if (total)
        *total = j->nruns;
    return d == j->nruns;
}

int rt_measjob_wait(const rt_measjob *j, int ms)
{
    const struct timespec tick = {0, 1000 * 1000};
    for (long i = 0; !rt_measjob_progress(j, NULL, NULL); i++) {
        if (ms >= 0 && i >= ms)
            return 0;
        nanosleep(&tick, NULL);
    }
    return 1;
}

const rt_measure *rt_measjob_measures(const rt_measjob *j, size_t *n)
{
    *n = j->nm;
    return j->ms;
}

static void join_all(rt_measjob *j)
{
    for (size_t t = 0; t < j->nth; t++)
        pthread_join(j->th[t], NULL);
    j->nth = 0;
}

rt_status rt_measjob_finish(rt_measjob **jp, rt_workspace *ws, rt_err *err)
{
    rt_measjob *j = *jp;
    *jp = NULL;
    join_all(j);
    rt_status st = rt_workspace_add_measures(ws, j->ms, j->nm, j->res, j->nruns, err);
    job_free(j);
    return st;
}

void rt_measjob_cancel(rt_measjob **jp)
{
    rt_measjob *j = jp ? *jp : NULL;
    if (!j)
        return;
    *jp = NULL;
    atomic_store(&j->stop, 1);
    atomic_store(&j->next, j->nruns);   /* no further run is taken */
    join_all(j);
    job_free(j);
}
