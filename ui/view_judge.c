/* view_judge — judging mode: one query's pool (the union of every run's top k) in
 * reciprocal-rank-fusion order, with each passage's judgment, its rank in every run and its
 * beginning; progress for the query and overall. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "judge.h"
#include "rt_mem.h"
#include "rt_parse.h"
#include "rt_pool.h"
#include "view.h"

static size_t build(app *a, uint32_t qid, rt_pool_entry **out, size_t *cap)
{
    const rt_run **runs = rt_calloc(a->ws->nruns + 1, sizeof *runs);
    for (size_t r = 0; r < a->ws->nruns; r++)
        runs[r] = a->ws->runs[r].run;
    size_t n = rt_pool_query(runs, a->ws->nruns, qid, a->pool_depth, a->ws->pids, out, cap);
    free(runs);
    return n;
}

void judge_refresh(app *a)
{
    if (!a->ws->nq || a->pool_qid == app_qid(a))
        return;
    a->pool_qid = app_qid(a);
    a->npool = build(a, a->pool_qid, &a->pool, &a->pool_cap);
    a->jsel = a->jtop = 0;
}

int judge_focus(app *a, uint32_t *pid)
{
    judge_refresh(a);
    if (a->jsel >= a->npool)
        return 0;
    *pid = a->pool[a->jsel].pid;
    return 1;
}

void judge_counts(app *a, uint32_t qid, size_t *judged, size_t *size)
{
    rt_pool_entry *p = NULL;
    size_t cap = 0, n = build(a, qid, &p, &cap), j = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t g;
        j += app_grade(a, qid, p[i].pid, &g);
    }
    free(p);
    *judged = j;
    *size = n;
}

static int unjudged(app *a, uint32_t qid, uint32_t pid)
{
    int32_t g;
    return !app_grade(a, qid, pid, &g);
}

int judge_next_unjudged(app *a)
{
    judge_refresh(a);
    for (size_t i = a->jsel + 1; i < a->npool; i++)
        if (unjudged(a, a->pool_qid, a->pool[i].pid)) {
            a->jsel = i;
            return 0;
        }
    size_t pos = 0;
    for (size_t i = 0; i < a->nrows; i++)
        if (a->rows_idx[i] == a->cur)
            pos = i;
    for (size_t step = 1; step <= a->nrows; step++) {
        size_t k = (pos + step) % a->nrows;
        app_set_query(a, a->rows_idx[k]);
        a->sel = k;
        judge_refresh(a);
        for (size_t i = 0; i < a->npool; i++)
            if (unjudged(a, a->pool_qid, a->pool[i].pid)) {
                a->jsel = i;
                app_message(a, 0, "%s: next unjudged passage", rt_strtab_str(a->ws->qids, a->pool_qid));
                return 0;
            }
    }
    app_message(a, 0, "every pooled passage of the listed queries is judged (depth %zu)", a->pool_depth);
    return 0;
}

int act_judge(app *a, const char *arg)
{
    if (arg) {
        int64_t d;
        if (!rt_parse_int_in(arg, 1, 100000, &d)) {
            app_message(a, 1, "usage: :judge [DEPTH] (the pool depth, default 10)");
            return -1;
        }
        a->pool_depth = (size_t)d;
        a->pool_qid = RT_NO_ID;
    }
    /* From a view that focuses a query of its own (the list), judge that one. */
    uint32_t q, p;
    const view_ops *v = view_current(a);
    if (v->focus && !(v->flags & VIEW_IN_QUERY) && view_focus(a, &q, &p))
        app_set_query(a, app_query_index(a, q));
    if (!a->ws->nq) {
        app_message(a, 1, "no query to judge");
        return -1;
    }
    app_push(a, VIEW_JUDGE);
    judge_refresh(a);
    return 0;
}

void judge_forget(app *a, size_t qi)
{
    if (a->jcount)
        a->jcount[2 * qi] = UINT32_MAX;
}

/* Judged / pooled over the listed queries; per-query counts are cached until a query changes or
 * the depth does. */
static void overall(app *a, size_t *judged, size_t *size)
{
    if (!a->jcount || a->jcount_depth != a->pool_depth) {
        free(a->jcount);
        a->jcount = rt_malloc((2 * a->ws->nq + 1) * sizeof *a->jcount);
        for (size_t i = 0; i < a->ws->nq; i++)
            a->jcount[2 * i] = UINT32_MAX;
        a->jcount_depth = a->pool_depth;
    }
    *judged = *size = 0;
    for (size_t k = 0; k < a->nrows; k++) {
        size_t qi = a->rows_idx[k];
        if (a->jcount[2 * qi] == UINT32_MAX) {
            size_t j, n;
            judge_counts(a, a->ws->qlist[qi], &j, &n);
            a->jcount[2 * qi] = (uint32_t)j;
            a->jcount[2 * qi + 1] = (uint32_t)n;
        }
        *judged += a->jcount[2 * qi];
        *size += a->jcount[2 * qi + 1];
    }
}

static void draw(app *a, int top, int height)
{
    judge_refresh(a);
    uint32_t q = app_qid(a);
    app_draw_query_line(a, top);
    size_t jq = 0, oj, on;
    for (size_t i = 0; i < a->npool; i++)
        jq += !unjudged(a, q, a->pool[i].pid);
    overall(a, &oj, &on);
    draw_fmt(top + 1, 0, a->cols, ROLE_HEADER,
             "pool depth %zu of %zu runs, fusion order | this query %zu/%zu judged | listed queries %zu/%zu (%.0f%%)",
             a->pool_depth, a->ws->nruns, jq, a->npool, oj, on, on ? 100.0 * (double)oj / (double)on : 100.0);
    int rows = height - 2;
    if (rows < 1)
        return;
    if (!a->npool) {
        static const char none[] = "No run ranks a passage for this query.";
        draw_text(top + 2, 0, a->cols, none, strlen(none), ROLE_DIM, NULL);
        return;
    }
    if (a->jsel >= a->npool)
        a->jsel = a->npool - 1;
    if (a->jsel < a->jtop)
        a->jtop = a->jsel;
    if (a->jsel >= a->jtop + (size_t)rows)
        a->jtop = a->jsel - (size_t)rows + 1;
    for (int row = 0; row < rows && a->jtop + (size_t)row < a->npool; row++) {
        size_t i = a->jtop + (size_t)row;
        int focused = i == a->jsel, y = top + 2 + row;
        term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
        uint32_t pid = a->pool[i].pid;
        int x = draw_fmt(y, 0, 5, role, "%4zu ", i + 1);
        x += app_draw_badge(a, y, x, a->cols - x, q, pid, focused);
        char ranks[96];
        size_t o = 0;
        for (size_t r = 0; r < a->ws->nruns && o + 12 < sizeof ranks; r++) {
            size_t rk = rt_workspace_rank_of(a->ws, r, q, pid);
            o += (size_t)(rk ? snprintf(ranks + o, sizeof ranks - o, "%s%zu", r ? "/" : " ", rk)
                             : snprintf(ranks + o, sizeof ranks - o, "%s-", r ? "/" : " "));
        }
        const char *ps = rt_strtab_str(a->ws->pids, pid);
        x += draw_fmt(y, x, a->cols - x, focused ? ROLE_SELECTED : ROLE_DIM, "%.*s %s ", (int)o, ranks, ps);
        app_draw_passage_start(a, y, x, a->cols - x, pid, role);
    }
}

static int focus(app *a, uint32_t *qid, uint32_t *pid)
{
    *pid = RT_NO_ID;
    if (!a->ws->nq)
        return 0;
    *qid = app_qid(a);
    return judge_focus(a, pid);
}

static size_t *cursor(app *a, size_t *n)
{
    judge_refresh(a);
    *n = a->npool;
    return &a->jsel;
}

static int open_passage(app *a)
{
    uint32_t pid;
    if (!judge_focus(a, &pid))
        return 0;
    a->pid = pid;
    a->pscroll = 0;
    app_push(a, VIEW_PASSAGE);
    return 0;
}

const view_ops view_judge_ops = {
    .name = "judging", .flags = VIEW_IN_QUERY, .draw = draw, .focus = focus, .cursor = cursor,
    .open = open_passage, .next_todo = judge_next_unjudged,
};
