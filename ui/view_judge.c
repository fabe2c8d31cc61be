/* view_judge — judging mode: one query's pool (the union of every run's top k) in
 * reciprocal-rank-fusion order, with each passage's judgment, its rank in every run and its
 * beginning; progress for the query and overall. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "hint.h"
#include "judge.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_pool.h"
#include "view.h"

/* The judging view's own state: the pool of one query, the cursor in it, and per listed query
 * the judged / pooled counts (cached until the query's judgments or the depth change). */
struct judge_state {
    size_t depth;
    rt_pool_entry *pool;
    size_t n, cap, sel, top;
    uint32_t qid;          /* whose pool is in pool (RT_NO_ID: none yet) */
    uint32_t *count;       /* per query index: judged, pool size (UINT32_MAX: stale) */
    size_t count_depth;
    int hint_order;        /* :hint order — the unjudged first, closest to an answer first */
    double hint_min;       /* :hint T — only passages with hint >= T that are not relevant (0: all) */
    int stale;             /* the shown query's judgments changed under :hint T */
};

static struct judge_state *J(app *a)
{
    if (!a->judge) {
        a->judge = rt_calloc(1, sizeof *a->judge);
        a->judge->depth = 10;
        a->judge->qid = RT_NO_ID;
    }
    return a->judge;
}

static void release(app *a)
{
    if (!a->judge)
        return;
    free(a->judge->pool);
    free(a->judge->count);
    free(a->judge);
    a->judge = NULL;
}

static size_t build(app *a, uint32_t qid, rt_pool_entry **out, size_t *cap)
{
    const rt_run **runs = rt_calloc(a->ws->nruns + 1, sizeof *runs);
    for (size_t r = 0; r < a->ws->nruns; r++)
        runs[r] = a->ws->runs[r].run;
    size_t n = rt_pool_query(runs, a->ws->nruns, qid, J(a)->depth, a->ws->pids, out, cap);
    free(runs);
    return n;
}

typedef struct hint_key {
    int judged;
    double f1;
    size_t i;
} hint_key;

static int hint_cmp(const void *x, const void *y)
{
    const hint_key *p = x, *q = y;
    if (p->judged != q->judged)
        return p->judged - q->judged;   /* the unjudged first */
    if (!p->judged && p->f1 != q->f1)
        return p->f1 > q->f1 ? -1 : 1;  /* closest to an answer first */
    return p->i < q->i ? -1 : p->i > q->i;   /* then fusion order */
}

/* :hint: keeps the passages with hint >= hint_min that are not relevant (the likely false
 * negatives), and with hint_order puts the unjudged first, by hint. */
static void apply_hint(app *a)
{
    struct judge_state *j = J(a);
    if (!a->ws->answers || (!j->hint_order && j->hint_min <= 0))
        return;
    hint_key *k = rt_calloc(j->n + 1, sizeof *k);
    size_t n = 0;
    for (size_t i = 0; i < j->n; i++) {
        int32_t g;
        int judged = app_grade(a, j->qid, j->pool[i].pid, &g);
        pair_hint h = hint_of(a, j->qid, j->pool[i].pid);
        double f1 = h.state == HINT_OK ? h.f1 : -1;
        if (j->hint_min > 0 && (f1 < j->hint_min || (judged && g >= a->ws->level)))
            continue;
        k[n++] = (hint_key){judged, f1, i};
    }
    if (j->hint_order)
        qsort(k, n, sizeof *k, hint_cmp);
    rt_pool_entry *kept = rt_calloc(n + 1, sizeof *kept);
    for (size_t i = 0; i < n; i++)
        kept[i] = j->pool[k[i].i];
    memcpy(j->pool, kept, n * sizeof *kept);
    j->n = n;
    free(kept);
    free(k);
}

void judge_refresh(app *a)
{
    if (!a->ws->nq || (J(a)->qid == app_qid(a) && !J(a)->stale))
        return;
    /* stale: the same query, its judgments (or the runs) changed: the cursor stays on its passage */
    int same = J(a)->qid == app_qid(a);
    uint32_t keep = same && J(a)->sel < J(a)->n ? J(a)->pool[J(a)->sel].pid : RT_NO_ID;
    J(a)->qid = app_qid(a);
    J(a)->stale = 0;
    J(a)->n = build(a, J(a)->qid, &J(a)->pool, &J(a)->cap);
    apply_hint(a);
    if (!same) {
        J(a)->sel = J(a)->top = 0;
        return;
    }
    for (size_t i = 0; keep != RT_NO_ID && i < J(a)->n; i++)
        if (J(a)->pool[i].pid == keep) {
            J(a)->sel = i;
            return;
        }
    if (J(a)->sel >= J(a)->n)   /* it left the pool (:hint T): the row below, or the last */
        J(a)->sel = J(a)->n ? J(a)->n - 1 : 0;
}

/* :hint order | T | off — in judging: the unjudged passages closest to an answer first, or only
 * those with hint >= T that are not relevant (the likely false negatives), or the fusion order. */
int act_hint(app *a, const char *arg)
{
    if (!app_wait(a, APP_WAIT_COLLECTION))   /* the hint reads the passages */
        return -1;
    if (!a->ws->answers) {
        app_message(a, 1, "the workspace has no answers (\"answers\" in it, or --answers F)");
        return -1;
    }
    char *end = NULL;
    double t = arg ? strtod(arg, &end) : 0;
    if (arg && !strcmp(arg, "order")) {
        J(a)->hint_order = 1;
    } else if (arg && !strcmp(arg, "off")) {
        J(a)->hint_order = 0;
        J(a)->hint_min = 0;
    } else if (arg && end && !*end && t > 0 && t <= 1) {
        J(a)->hint_min = t;
        J(a)->hint_order = 1;
    } else {
        app_message(a, 1, "usage: :hint order | T | off (T in (0, 1]: only passages with hint >= T not judged relevant)");
        return -1;
    }
    J(a)->qid = RT_NO_ID;   /* rebuilt with the hint */
    if (a->view != VIEW_JUDGE)
        return act_judge(a, NULL);
    judge_refresh(a);
    if (J(a)->hint_min > 0)
        app_message(a, 0, "%zu pooled passages with hint >= %.2f not judged relevant (likely false negatives)", J(a)->n,
                    J(a)->hint_min);
    else if (J(a)->hint_order)
        app_message(a, 0, "unjudged passages first, closest to an answer first");
    else
        app_message(a, 0, "fusion order");
    return 0;
}

int judge_focus(app *a, uint32_t *pid)
{
    judge_refresh(a);
    if (J(a)->sel >= J(a)->n)
        return 0;
    *pid = J(a)->pool[J(a)->sel].pid;
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
    for (size_t i = J(a)->sel + 1; i < J(a)->n; i++)
        if (unjudged(a, J(a)->qid, J(a)->pool[i].pid)) {
            J(a)->sel = i;
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
        for (size_t i = 0; i < J(a)->n; i++)
            if (unjudged(a, J(a)->qid, J(a)->pool[i].pid)) {
                J(a)->sel = i;
                app_message(a, 0, "%s: next unjudged passage", rt_strtab_str(a->ws->qids, J(a)->qid));
                return 0;
            }
    }
    app_message(a, 0, "every pooled passage of the listed queries is judged (depth %zu)", J(a)->depth);
    return 0;
}

int act_judge(app *a, const char *arg)
{
    if (arg) {
        int64_t d;
        if (!rt_num_parse_int_in(arg, 1, 100000, &d)) {
            app_message(a, 1, "usage: :judge [DEPTH] (the pool depth, default 10)");
            return -1;
        }
        J(a)->depth = (size_t)d;
        J(a)->qid = RT_NO_ID;
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

void judge_runs_changed(app *a)
{
    if (!a->judge)
        return;
    free(a->judge->count);   /* the pools, and so every count */
    a->judge->count = NULL;
    a->judge->stale = 1;     /* the query shown: its pool made again, the cursor kept */
}

void judge_forget(app *a, size_t qi)
{
    if (J(a)->count)
        J(a)->count[2 * qi] = UINT32_MAX;
    if (J(a)->hint_min > 0 && a->ws->qlist[qi] == J(a)->qid)
        J(a)->stale = 1;   /* :hint T keeps the passages not judged relevant: rebuild */
}

/* Judged / pooled over the listed queries; per-query counts are cached until a query changes or
 * the depth does. */
static void overall(app *a, size_t *judged, size_t *size)
{
    if (!J(a)->count || J(a)->count_depth != J(a)->depth) {
        free(J(a)->count);
        J(a)->count = rt_malloc((2 * a->ws->nq + 1) * sizeof *J(a)->count);
        for (size_t i = 0; i < a->ws->nq; i++)
            J(a)->count[2 * i] = UINT32_MAX;
        J(a)->count_depth = J(a)->depth;
    }
    *judged = *size = 0;
    for (size_t k = 0; k < a->nrows; k++) {
        size_t qi = a->rows_idx[k];
        if (J(a)->count[2 * qi] == UINT32_MAX) {
            size_t j, n;
            judge_counts(a, a->ws->qlist[qi], &j, &n);
            J(a)->count[2 * qi] = (uint32_t)j;
            J(a)->count[2 * qi + 1] = (uint32_t)n;
        }
        *judged += J(a)->count[2 * qi];
        *size += J(a)->count[2 * qi + 1];
    }
}

static void draw(app *a, int top, int height)
{
    judge_refresh(a);
    uint32_t q = app_qid(a);
    app_draw_query_line(a, top);
    size_t jq = 0, oj, on;
    for (size_t i = 0; i < J(a)->n; i++)
        jq += !unjudged(a, q, J(a)->pool[i].pid);
    overall(a, &oj, &on);
    if (height > 6)
        height -= app_draw_tax_legend(a, top + height - 1);
    char prog[320], order[96];
    if (J(a)->hint_min > 0)
        snprintf(order, sizeof order, "hint >= %.2f and not relevant, by hint", J(a)->hint_min);
    else
        snprintf(order, sizeof order, "%s", J(a)->hint_order ? "unjudged by hint first" : "fusion order");
    snprintf(prog, sizeof prog,
             "pool depth %zu of %zu runs, %s | this query %zu/%zu judged | listed queries %zu/%zu (%.0f%%)",
             J(a)->depth, a->ws->nruns, order, jq, J(a)->n, oj, on, on ? 100.0 * (double)oj / (double)on : 100.0);
    int pr = draw_wrapped(top + 1, 0, a->cols, height > 8 ? 2 : 1, prog, strlen(prog), ROLE_HEADER);
    top += pr - 1;
    height -= pr - 1;
    int rows = height - 2;
    if (rows < 1)
        return;
    if (!J(a)->n) {
        static const char none[] = "No run ranks a passage for this query.";
        draw_text(top + 2, 0, a->cols, none, strlen(none), ROLE_DIM, NULL);
        return;
    }
    if (J(a)->sel >= J(a)->n)
        J(a)->sel = J(a)->n - 1;
    if (J(a)->sel < J(a)->top)
        J(a)->top = J(a)->sel;
    if (J(a)->sel >= J(a)->top + (size_t)rows)
        J(a)->top = J(a)->sel - (size_t)rows + 1;
    for (int row = 0; row < rows && J(a)->top + (size_t)row < J(a)->n; row++) {
        size_t i = J(a)->top + (size_t)row;
        int focused = i == J(a)->sel, y = top + 2 + row;
        term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
        uint32_t pid = J(a)->pool[i].pid;
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
    *n = J(a)->n;
    return &J(a)->sel;
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
    .open = open_passage, .next_todo = judge_next_unjudged, .release = release,
};
