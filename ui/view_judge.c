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
#include "pairlist.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_pool.h"
#include "list.h"
#include "view.h"

/* The judging view's own state: the pool of one query, the cursor in it, and per listed query
 * the judged / pooled counts (cached until the query's judgments or the depth change). */
struct judge_state {
    size_t depth;
    rt_pool_entry *pool;
    size_t n, cap;
    pairlist list;            /* the cursor in the pool */
    uint32_t qid;          /* whose pool is in pool (RT_NO_ID: none yet) */
    uint32_t *count;       /* per query index: judged, pool size (UINT32_MAX: stale) */
    size_t count_depth;
    int hint_order;        /* :hint order — the unjudged first, closest to an answer first */
    double hint_min;       /* :hint T — only passages with hint >= T that are not relevant (0: all) */
    int stale;             /* the shown query's judgments changed under :hint T */
};

static struct judge_state *judge_state(app *a) { return view_state(a, VIEW_JUDGE); }

static void init(void *state)
{
    struct judge_state *j = state;
    j->depth = 10;
    j->qid = RT_NO_ID;
}

static void release(void *state)
{
    struct judge_state *j = state;
    free(j->pool);
    free(j->count);
}

static size_t build(app *a, uint32_t qid, rt_pool_entry **out, size_t *cap)
{
    const rt_run **runs = rt_calloc(a->s->ws->nruns + 1, sizeof *runs);
    for (size_t r = 0; r < a->s->ws->nruns; r++)
        runs[r] = a->s->ws->runs[r].run;
    size_t n = rt_pool_query(runs, a->s->ws->nruns, qid, judge_state(a)->depth, a->s->ws->pids, out, cap);
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
    struct judge_state *j = judge_state(a);
    if (!a->s->ws->answers || (!j->hint_order && j->hint_min <= 0))
        return;
    hint_key *k = rt_calloc(j->n + 1, sizeof *k);
    size_t n = 0;
    for (size_t i = 0; i < j->n; i++) {
        int32_t g;
        int judged = app_grade(a, j->qid, j->pool[i].pid, &g);
        pair_hint h = hint_of(a, j->qid, j->pool[i].pid);
        double f1 = h.state == HINT_OK ? h.f1 : -1;
        if (j->hint_min > 0 && (f1 < j->hint_min || (judged && g >= a->s->ws->level)))
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
    struct judge_state *js = judge_state(a);
    if (!a->s->ws->nq || (js->qid == app_qid(a) && !js->stale))
        return;
    /* stale: the same query, its judgments (or the runs) changed: the cursor stays on its passage */
    int same = js->qid == app_qid(a);
    uint32_t keep = same && js->list.sel < js->n ? js->pool[js->list.sel].pid : RT_NO_ID;
    js->qid = app_qid(a);
    js->stale = 0;
    js->n = build(a, js->qid, &js->pool, &js->cap);
    apply_hint(a);
    if (!same) {
        js->list.sel = js->list.top = 0;
        return;
    }
    for (size_t i = 0; keep != RT_NO_ID && i < js->n; i++)
        if (js->pool[i].pid == keep) {
            js->list.sel = i;
            return;
        }
    if (js->list.sel >= js->n)   /* it left the pool (:hint T): the row below, or the last */
        js->list.sel = js->n ? js->n - 1 : 0;
}

/* :hint order | T | off — in judging: the unjudged passages closest to an answer first, or only
 * those with hint >= T that are not relevant (the likely false negatives), or the fusion order. */
int act_hint(app *a, const char *arg)
{
    struct judge_state *js = judge_state(a);
    if (!app_wait(a, APP_WAIT_COLLECTION))   /* the hint reads the passages */
        return -1;
    if (!a->s->ws->answers) {
        app_message(a, 1, "the workspace has no answers (\"answers\" in it, or --answers F)");
        return -1;
    }
    char *end = NULL;
    double t = arg ? strtod(arg, &end) : 0;
    if (arg && !strcmp(arg, "order")) {
        js->hint_order = 1;
    } else if (arg && !strcmp(arg, "off")) {
        js->hint_order = 0;
        js->hint_min = 0;
    } else if (arg && end && !*end && t > 0 && t <= 1) {
        js->hint_min = t;
        js->hint_order = 1;
    } else {
        app_message(a, 1, "usage: :hint order | T | off (T in (0, 1]: only passages with hint >= T not judged relevant)");
        return -1;
    }
    js->qid = RT_NO_ID;   /* rebuilt with the hint */
    if (a->view != VIEW_JUDGE)
        return act_judge(a, NULL);
    judge_refresh(a);
    if (js->hint_min > 0)
        app_message(a, 0, "%zu pooled passages with hint >= %.2f not judged relevant (likely false negatives)", js->n,
                    js->hint_min);
    else if (js->hint_order)
        app_message(a, 0, "unjudged passages first, closest to an answer first");
    else
        app_message(a, 0, "fusion order");
    return 0;
}

int judge_focus(app *a, uint32_t *pid)
{
    struct judge_state *js = judge_state(a);
    judge_refresh(a);
    if (js->list.sel >= js->n)
        return 0;
    *pid = js->pool[js->list.sel].pid;
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
    struct judge_state *js = judge_state(a);
    struct list_state *l = list_state(a);
    judge_refresh(a);
    for (size_t i = js->list.sel + 1; i < js->n; i++)
        if (unjudged(a, js->qid, js->pool[i].pid)) {
            js->list.sel = i;
            return 0;
        }
    size_t pos = 0;
    for (size_t i = 0; i < l->nrows; i++)
        if (l->rows_idx[i] == a->cur)
            pos = i;
    for (size_t step = 1; step <= l->nrows; step++) {
        size_t k = (pos + step) % l->nrows;
        app_set_query(a, l->rows_idx[k]);
        l->sel = k;
        judge_refresh(a);
        for (size_t i = 0; i < js->n; i++)
            if (unjudged(a, js->qid, js->pool[i].pid)) {
                js->list.sel = i;
                app_message(a, 0, "%s: next unjudged passage", rt_strtab_str(a->s->ws->qids, js->qid));
                return 0;
            }
    }
    app_message(a, 0, "every pooled passage of the listed queries is judged (depth %zu)", js->depth);
    return 0;
}

int act_judge(app *a, const char *arg)
{
    struct judge_state *js = judge_state(a);
    if (arg) {
        int64_t d;
        if (!rt_num_parse_int_in(arg, 1, 100000, &d)) {
            app_message(a, 1, "usage: :judge [DEPTH] (the pool depth, default 10)");
            return -1;
        }
        js->depth = (size_t)d;
        js->qid = RT_NO_ID;
    }
    /* From a view that focuses a query of its own (the list), judge that one. */
    uint32_t q, p;
    const view_ops *v = view_current(a);
    if ((v->focus || v->pairs) && !(v->flags & VIEW_IN_QUERY) && view_focus(a, &q, &p))
        app_set_query(a, app_query_index(a, q));
    if (!a->s->ws->nq) {
        app_message(a, 1, "no query to judge");
        return -1;
    }
    app_push(a, VIEW_JUDGE);
    judge_refresh(a);
    return 0;
}

static void runs_changed(app *a, void *state)
{
    struct judge_state *j = state;
    (void)a;
    free(j->count);   /* the pools, and so every count */
    j->count = NULL;
    j->stale = 1;     /* the query shown: its pool made again, the cursor kept */
}

void judge_forget(app *a, size_t qi)
{
    struct judge_state *js = judge_state(a);
    if (js->count)
        js->count[2 * qi] = UINT32_MAX;
    if (js->hint_min > 0 && a->s->ws->qlist[qi] == js->qid)
        js->stale = 1;   /* :hint T keeps the passages not judged relevant: rebuild */
}

/* Judged / pooled over the listed queries; per-query counts are cached until a query changes or
 * the depth does. */
static void overall(app *a, size_t *judged, size_t *size)
{
    struct judge_state *js = judge_state(a);
    struct list_state *l = list_state(a);
    if (!js->count || js->count_depth != js->depth) {
        free(js->count);
        js->count = rt_malloc((2 * a->s->ws->nq + 1) * sizeof *js->count);
        for (size_t i = 0; i < a->s->ws->nq; i++)
            js->count[2 * i] = UINT32_MAX;
        js->count_depth = js->depth;
    }
    *judged = *size = 0;
    for (size_t k = 0; k < l->nrows; k++) {
        size_t qi = l->rows_idx[k];
        if (js->count[2 * qi] == UINT32_MAX) {
            size_t j, n;
            judge_counts(a, a->s->ws->qlist[qi], &j, &n);
            js->count[2 * qi] = (uint32_t)j;
            js->count[2 * qi + 1] = (uint32_t)n;
        }
        *judged += js->count[2 * qi];
        *size += js->count[2 * qi + 1];
    }
}

/* Pool passage i: its place in the pool, its badge (judgment, hint, tags), its rank in every run
 * and its start. */
static void draw_row(app *a, int y, size_t i, int focused)
{
    rt_workspace *ws = a->s->ws;
    uint32_t q = app_qid(a), pid = judge_state(a)->pool[i].pid;
    term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
    int x = draw_fmt(y, 0, 5, role, "%4zu ", i + 1);
    x += app_draw_badge(a, y, x, a->cols - x, q, pid, focused);
    char ranks[96];
    size_t o = 0;
    for (size_t r = 0; r < ws->nruns && o + 12 < sizeof ranks; r++) {
        size_t rk = rt_workspace_rank_of(ws, r, q, pid);
        o += (size_t)(rk ? snprintf(ranks + o, sizeof ranks - o, "%s%zu", r ? "/" : " ", rk)
                         : snprintf(ranks + o, sizeof ranks - o, "%s-", r ? "/" : " "));
    }
    const char *ps = rt_strtab_str(ws->pids, pid);
    x += draw_fmt(y, x, a->cols - x, focused ? ROLE_SELECTED : ROLE_DIM, "%.*s %s ", (int)o, ranks, ps);
    app_draw_passage_start(a, y, x, a->cols - x, pid, role);
}

static pairlist *list(app *a) { return &judge_state(a)->list; }

/* The current query's pool (built first when it is not the one held). */
static size_t count(app *a)
{
    judge_refresh(a);
    return judge_state(a)->n;
}

static int pair(app *a, size_t i, uint32_t *qid, uint32_t *pid)
{
    *qid = app_qid(a);
    *pid = judge_state(a)->pool[i].pid;
    return 1;
}

/* (x is judge_next_unjudged: it goes on to the next queries) */
static const pairlist_ops pairs = {.list = list, .count = count, .pair = pair, .draw_row = draw_row};

static void draw(app *a, int top, int height)
{
    struct judge_state *js = judge_state(a);
    judge_refresh(a);
    uint32_t q = app_qid(a);
    app_draw_query_line(a, top);
    size_t jq = 0, oj, on;
    for (size_t i = 0; i < js->n; i++)
        jq += !unjudged(a, q, js->pool[i].pid);
    overall(a, &oj, &on);
    if (height > 6)
        height -= app_draw_tax_legend(a, top + height - 1);
    char prog[320], order[96];
    if (js->hint_min > 0)
        snprintf(order, sizeof order, "hint >= %.2f and not relevant, by hint", js->hint_min);
    else
        snprintf(order, sizeof order, "%s", js->hint_order ? "unjudged by hint first" : "fusion order");
    snprintf(prog, sizeof prog,
             "pool depth %zu of %zu runs, %s | this query %zu/%zu judged | listed queries %zu/%zu (%.0f%%)",
             js->depth, a->s->ws->nruns, order, jq, js->n, oj, on, on ? 100.0 * (double)oj / (double)on : 100.0);
    int pr = draw_wrapped(top + 1, 0, a->cols, height > 8 ? 2 : 1, prog, strlen(prog), ROLE_HEADER);
    top += pr - 1;
    height -= pr - 1;
    int rows = height - 2;
    if (rows < 1)
        return;
    if (!js->n) {
        static const char none[] = "No run ranks a passage for this query.";
        draw_text(top + 2, 0, a->cols, none, strlen(none), ROLE_DIM, NULL);
        return;
    }
    pairlist_draw(a, &pairs, top + 2, (size_t)rows);
}

static int open_passage(app *a)
{
    uint32_t pid;
    if (!judge_focus(a, &pid))
        return 0;
    passage_show(a, pid, NULL);
    return 0;
}

const view_ops view_judge_ops = {
    .name = "judging", .flags = VIEW_IN_QUERY, .draw = draw, .pairs = &pairs, .open = open_passage,
    .next_todo = judge_next_unjudged,
    .state_size = sizeof(struct judge_state), .init = init, .release = release, .runs_changed = runs_changed,
};
