/* view — the table of views and what every view shares: focus, cursor movement, the run in
 * focus. */
#include "config.h"

#include <stdlib.h>

#include "pairlist.h"
#include "rt_mem.h"
#include "view.h"

static const view_ops *const views[VIEW_COUNT] = {
    [VIEW_LIST] = &view_list_ops,         [VIEW_COMPARE] = &view_compare_ops,
    [VIEW_PASSAGE] = &view_passage_ops,   [VIEW_METRICS] = &view_metrics_ops,
    [VIEW_HELP] = &view_help_ops,         [VIEW_REPORT] = &view_report_ops,
    [VIEW_BREAKDOWN] = &view_breakdown_ops, [VIEW_JUDGE] = &view_judge_ops,
    [VIEW_LEAK] = &view_leak_ops,         [VIEW_AGREE] = &view_agree_ops,
    [VIEW_DISPUTES] = &view_disputes_ops, [VIEW_PACKAGES] = &view_packages_ops,
    [VIEW_PACKAGE] = &view_package_ops,   [VIEW_REVIEW] = &view_review_ops,
    [VIEW_PLOT] = &view_plot_ops,         [VIEW_GREP] = &view_grep_ops,
    [VIEW_GREPALL] = &view_grepall_ops,
};

const view_ops *view_get(view_id v) { return views[v < VIEW_COUNT ? v : VIEW_LIST]; }

const view_ops *view_current(const app *a) { return view_get(a->view); }

void *view_state(app *a, view_id v)
{
    const view_ops *o = view_get(v);
    if (!o->state_size)
        return NULL;
    if (!a->state[v]) {
        a->state[v] = rt_calloc(1, o->state_size);
        if (o->init)
            o->init(a->state[v]);
    }
    return a->state[v];
}

void view_runs_changed(app *a)
{
    for (int v = 0; v < VIEW_COUNT; v++)
        if (a->state[v] && view_get((view_id)v)->runs_changed)
            view_get((view_id)v)->runs_changed(a, a->state[v]);
}

void view_release_all(app *a)
{
    for (int v = 0; v < VIEW_COUNT; v++) {
        if (a->state[v] && view_get((view_id)v)->release)
            view_get((view_id)v)->release(a->state[v]);
        free(a->state[v]);
        a->state[v] = NULL;
    }
}

int view_focus(app *a, uint32_t *qid, uint32_t *pid)
{
    const view_ops *v = view_current(a);
    *pid = RT_NO_ID;
    if (v->focus)
        return v->focus(a, qid, pid);
    if (v->pairs)
        return pairlist_focus(a, v->pairs, qid, pid);
    if (!a->s->ws->nq)
        return 0;
    *qid = app_qid(a);
    return 1;
}

size_t *view_cursor(app *a, size_t *n)
{
    const view_ops *v = view_current(a);
    if (v->cursor)
        return v->cursor(a, n);
    if (v->pairs)
        return pairlist_cursor(a, v->pairs, n);
    *n = (size_t)-1 / 2;   /* a->scroll: the view bounds it when it draws */
    return &a->scroll;
}

int view_open(app *a)
{
    const view_ops *v = view_current(a);
    return v->open ? v->open(a) : v->pairs ? pairlist_open(a, v->pairs) : 0;
}

int view_next_todo(app *a, int (*otherwise)(app *a))
{
    const view_ops *v = view_current(a);
    if (v->next_todo)
        return v->next_todo(a);
    if (v->pairs && v->pairs->todo)
        return pairlist_next_todo(a, v->pairs);
    return otherwise(a);
}

void view_move(app *a, long d)
{
    size_t n, *pos = view_cursor(a, &n);
    if (n == 0) {
        *pos = 0;
        return;
    }
    long p = (long)*pos + d;
    if (p < 0)
        p = 0;
    if ((size_t)p >= n)
        p = (long)n - 1;
    *pos = (size_t)p;
}

size_t view_focused_run(const app *a)
{
    return a->col < a->s->ws->nruns ? a->col : 0;
}
