/* team — the team of annotators in the workbench: opened on first use, kept current by polling
 * the other journals (see team.h). */
#include "config.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_mem.h"
#include "team.h"

struct team_state {
    rt_team *t;
    rt_team_decisions *d;
    rt_session *view;     /* the team's decisions as a session (metrics), built for view_gen */
    rt_package_report *report;   /* the packages' review report, built for report_gen */
    unsigned report_gen;
    unsigned view_gen;
    unsigned gen;
    double last_poll;
    struct seen {         /* operations each member had at the last poll, for "who added what" */
        char *name;
        size_t ops;
    } *seen;
    size_t nseen;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void forget_counts(struct team_state *ts)
{
    for (size_t i = 0; i < ts->nseen; i++)
        free(ts->seen[i].name);
    free(ts->seen);
    ts->seen = NULL;
    ts->nseen = 0;
}

static void remember_counts(struct team_state *ts)
{
    forget_counts(ts);
    ts->seen = rt_calloc(ts->t->n + 1, sizeof *ts->seen);
    for (size_t m = 0; m < ts->t->n; m++)
        ts->seen[ts->nseen++] = (struct seen){rt_strdup(ts->t->m[m].name), rt_annot_nops(ts->t->m[m].s->annot)};
}

static size_t seen_ops(const struct team_state *ts, const char *name)
{
    for (size_t i = 0; i < ts->nseen; i++)
        if (strcmp(ts->seen[i].name, name) == 0)
            return ts->seen[i].ops;
    return 0;   /* a journal that appeared since */
}

static void decide(app *a)
{
    struct team_state *ts = a->team;
    rt_team_decisions_free(&ts->d);
    ts->d = rt_team_decide(ts->t, a->s->ws->report);
    ts->gen++;
}

int team_ensure(app *a)
{
    if (a->team)
        return 0;
    rt_team *t;
    rt_err err;
    if (rt_team_open(&t, a->s->ws, a->s, 1, a->s->journal_dir, a->annotators, a->nannotators, &err) != RT_OK) {
        app_message(a, 1, "team: %s", err.msg);
        return -1;
    }
    a->team = rt_calloc(1, sizeof *a->team);
    a->team->t = t;
    a->team->last_poll = now_s();
    remember_counts(a->team);
    decide(a);
    return 0;
}

rt_team *team_of(const app *a) { return a->team ? a->team->t : NULL; }
rt_team_decisions *team_decisions(const app *a)
{
    /* every change to a member's pairs decides again (team_after_change, team_poll) before a
     * view reads the decisions: stale ones would be wrong counts and rows */
    assert(!a->team || rt_team_decisions_current(a->team->t, a->team->d));
    return a->team ? a->team->d : NULL;
}
unsigned team_generation(const app *a) { return a->team ? a->team->gen : 0; }

void team_poll(app *a)
{
    struct team_state *ts = a->team;
    if (!ts)
        return;
    ts->last_poll = now_s();
    int changed = 0;
    rt_err err;
    int failed = rt_team_refresh(ts->t, &changed, &err) != RT_OK;
    if (failed)
        app_message(a, 1, "team: %s", err.msg);
    if (!changed)
        return;   /* else the decisions point into states just replaced: decide again */
    char what[400] = "";
    size_t o = 0;
    for (size_t m = 0; m < ts->t->n && o < sizeof what; m++) {
        if (ts->t->m[m].self)
            continue;
        size_t now = rt_annot_nops(ts->t->m[m].s->annot), before = seen_ops(ts, ts->t->m[m].name);
        if (now != before)
            o += (size_t)snprintf(what + o, sizeof what - o, "%s%s %+ld", o ? ", " : "", ts->t->m[m].name,
                                  (long)now - (long)before);
    }
    remember_counts(ts);
    decide(a);
    if (!failed)   /* else the error stays on the status line */
        app_message(a, 0, "team: new operations picked up (%s); %zu of %zu disagreements unresolved",
                    o ? what : "a journal was replaced", ts->d->unresolved, ts->d->disputed);
}

void team_after_change(app *a, uint32_t qid, uint32_t pid)
{
    struct team_state *ts = a->team;
    if (!ts)
        return;
    if (pid == RT_NO_ID || !rt_team_redecide(ts->t, ts->d, qid, pid))
        decide(a);
    else
        ts->gen++;
    remember_counts(ts);
}

void team_release(app *a)
{
    struct team_state *ts = a->team;
    if (!ts)
        return;
    rt_session_close(&ts->view);
    rt_package_report_free(&ts->report);
    rt_team_decisions_free(&ts->d);
    rt_team_free(&ts->t);
    forget_counts(ts);
    free(ts);
    a->team = NULL;
}

const char *team_decision_text(const app *a, size_t m, uint32_t qid, uint32_t pid, char *buf, size_t n)
{
    const rt_team *t = team_of(a);
    const rt_label *l = rt_annot_label(t->m[m].s->annot, qid, pid);
    const rt_tag *tg = rt_annot_tag(t->m[m].s->annot, qid, pid);
    size_t o = 0;
    buf[0] = 0;
    if (l)
        o += (size_t)snprintf(buf, n, "%d", (int)l->grade);
    for (size_t c = 0, k = 0; tg && c < a->s->ws->taxonomy->ncats && o < n; c++)
        if (tg->cats >> c & 1)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", k++ ? "," : l ? " " : "", a->s->ws->taxonomy->cats[c].id);
    if (!buf[0])
        snprintf(buf, n, "-");
    return buf;
}

void team_runs_changed(app *a)
{
    if (a->team)
        rt_session_close(&a->team->view);
}

rt_session *team_session(app *a)
{
    struct team_state *ts = a->team;
    if (!ts)
        return NULL;
    if (!ts->view || ts->view_gen != ts->gen) {
        rt_session_close(&ts->view);
        ts->view = rt_team_session(ts->t, ts->d);
        ts->view_gen = ts->gen;
    }
    return ts->view;
}

const rt_package_report *team_packages(app *a)
{
    struct team_state *ts = a->team;
    if (!ts)
        return NULL;
    /* the UI's generation misses package operations (an undo of one has no query); the report's
     * own check of the members' generations does not */
    if (!ts->report || ts->report_gen != ts->gen || !rt_package_report_current(ts->t, ts->report)) {
        rt_package_report_free(&ts->report);
        ts->report = rt_package_report_make(ts->t, RT_PACKAGE_THRESHOLD, RT_PACKAGE_REVIEWERS);
        ts->report_gen = ts->gen;
    }
    return ts->report;
}

void team_open_if_any(app *a)
{
    char **names;
    size_t n, others = 0;
    rt_err err;
    if (a->annotators)
        others = a->nannotators;
    else if (rt_team_list(a->s->journal_dir, &names, &n, &err) == RT_OK) {
        for (size_t i = 0; i < n; i++)
            others += strcmp(names[i], a->s->annotator) != 0;
        rt_team_names_free(names, n);
    }
    if (others)
        (void)team_ensure(a);
}
