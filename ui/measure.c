/* measure — :measure and M: which measure the query list shows, and the measures computed on
 * demand for it (rt_measjob). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "measure.h"
#include "rt_measjob.h"
#include "rt_mem.h"
#include "team.h"
#include "term.h"
#include "view.h"

/* How long :measure waits for a job before it lets keys in and the job ends behind them (a
 * measure at DuReader scale is in well before: the list switches at once). */
#define MEASURE_WAIT_MS 30

/* The job of the moment and the measure the list switches to when it is done. */
struct measure_job {
    rt_measjob *job;
    rt_measure show;
    int switch_to;             /* 0: the user chose another measure since */
};

static void show(app *a, size_t m)
{
    struct list_state *l = list_state(a);
    l->measure = m;
    if (l->filtering)
        l->cond.measure = m;
    app_refresh_rows(a);
    app_message(a, 0, "the list shows %s: run columns, delta, sorting and :filter worse/better", a->s->ws->ms[m].name);
}

/* The job's measures joined to the workspace and the live metrics (the team's decisions, a
 * session of their own, are evaluated again when next shown). */
static void finish(app *a)
{
    struct measure_job *mj = a->mjob;
    a->mjob = NULL;
    rt_err e;
    if (rt_measjob_finish(&mj->job, a->s->ws, &e) != RT_OK) {
        app_message(a, 1, "the measures could not be added: %s", e.msg);
        free(mj);
        return;
    }
    rt_live_sync(a->s->live);
    team_runs_changed(a);
    size_t m = rt_workspace_find_measure(a->s->ws, &mj->show);
    if (mj->switch_to && m != (size_t)-1)
        show(a, m);
    free(mj);
}

int measure_poll(app *a)
{
    if (!a->mjob || !rt_measjob_progress(a->mjob->job, NULL, NULL))
        return 0;
    finish(a);
    return 1;
}

int measure_busy(const app *a, char *buf, size_t n)
{
    if (!a->mjob)
        return 0;
    size_t done, total, nm;
    rt_measjob_progress(a->mjob->job, &done, &total);
    const rt_measure *ms = rt_measjob_measures(a->mjob->job, &nm);
    snprintf(buf, n, "  computing %s%s: %zu of %zu runs", ms[0].name, nm > 1 ? "…" : "", done, total);
    return 1;
}

void measure_release(app *a)
{
    if (!a->mjob)
        return;
    rt_measjob_cancel(&a->mjob->job);
    free(a->mjob);
    a->mjob = NULL;
}

/* An error of the parser said on one line: for a name it does not know, where the list of those
 * it knows is (the help view, eval --help), then the list itself as far as it fits. */
static void say_parse_error(app *a, const char *arg, const rt_err *e)
{
    if (e->what == RT_ERR_UNKNOWN_MEASURE)
        app_message(a, 1, "%s: no such measure; ? (help) and retriage eval --help list them: %s", arg,
                    rt_measure_known);
    else
        app_message(a, 1, "%s", e->msg);
}

/* Starts the job for the measures of ms the workspace lacks, with those of a job still running
 * (it is stopped: one job at a time), to show want when done. */
static int start(app *a, const rt_measure *ms, size_t n, const rt_measure *want)
{
    size_t k = 0;
    const rt_measure *old = a->mjob ? rt_measjob_measures(a->mjob->job, &k) : NULL;
    rt_measure *all = rt_calloc(n + k + 1, sizeof *all);
    if (k)
        memcpy(all, old, k * sizeof *all);
    measure_release(a);
    for (size_t i = 0; i < n; i++) {
        int have = rt_workspace_find_measure(a->s->ws, &ms[i]) != (size_t)-1;
        for (size_t x = 0; x < k && !have; x++)
            have = strcmp(all[x].name, ms[i].name) == 0;
        if (!have)
            all[k++] = ms[i];
    }
    rt_err e;
    rt_measjob *job;
    rt_status st = rt_measjob_start(&job, a->s->ws, all, k, &e);
    free(all);
    if (st != RT_OK) {
        app_message(a, 1, "%s", e.msg);
        return -1;
    }
    a->mjob = rt_calloc(1, sizeof *a->mjob);
    a->mjob->job = job;
    a->mjob->show = *want;
    a->mjob->switch_to = 1;
    /* a script has no keys to take meanwhile: it waits, and its screens are those of the end */
    if (rt_measjob_wait(job, term_is_headless() ? -1 : MEASURE_WAIT_MS)) {
        finish(a);
        return 0;
    }
    size_t done, total;
    rt_measjob_progress(job, &done, &total);
    app_message(a, 0, "computing %s for %zu runs behind the screen: the list shows it when done", want->name, total);
    return 0;
}

int act_measure(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    rt_workspace *ws = a->s->ws;
    if (!arg) {   /* M: the next of the workspace's */
        if (a->mjob)
            a->mjob->switch_to = 0;
        show(a, (l->measure + 1) % ws->nm);
        return 0;
    }
    rt_measure *ms;
    size_t n, missing;
    rt_err e;
    if (rt_measjob_parse(ws, arg, &ms, &n, &missing, &e) != RT_OK) {
        say_parse_error(a, arg, &e);
        return -1;
    }
    int rc = 0;
    if (!missing) {
        if (a->mjob)
            a->mjob->switch_to = 0;
        show(a, rt_workspace_find_measure(ws, &ms[0]));
    } else if (rt_loader_runs_loading(ws, NULL, NULL) && !app_wait(a, APP_WAIT_RUNS)) {
        rc = -1;   /* given up (Esc): the message says the command was not run */
    } else {
        rc = start(a, ms, n, &ms[0]);
    }
    free(ms);
    return rc;
}
