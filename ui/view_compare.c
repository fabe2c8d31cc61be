/* view_compare — the rankings of 2–N runs side by side: one column per run, one row per rank.
 * A cell shows the rank, the current relevance badge (+ relevant, - judged non-relevant,
 * ? unjudged; "->+" when a relabel changed the base), the keys of its tags, the passage's rank
 * in each other run (- when absent) and the start of the passage with query overlap
 * highlighted; the first relevant passage of each run stands out. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "actions.h"
#include "draw.h"
#include "list.h"
#include "rt_mem.h"
#include "rt_text.h"
#include "view.h"

#define MIN_COL_W 28

/* What only this view keeps: the first run column and the first rank on screen. (The focused
 * run and rank, a->col and a->rank, are shared: the passage view and x use them.) */
struct compare_view {
    size_t col_off, top_rank;
    uint64_t fetched;   /* what the last prefetch_cells read (query, first rank, columns, rows) */
    /* The ranks of the query's passages in every run, for the cells' "ranks in the other runs":
     * built once per query (a screen asks for a rank about 1,300 times, each a scan of up to
     * 1,000 pids). Open addressing on the pid; rank[slot * nruns + run], 0 when absent. */
    uint32_t rq;        /* the query it is for (RT_NO_ID: none yet) */
    uint32_t *slot;     /* pid + 1, 0 empty */
    uint32_t *rank;
    size_t mask;
};

static struct compare_view *compare_state(app *a) { return view_state(a, VIEW_COMPARE); }

static void init(void *state) { ((struct compare_view *)state)->rq = RT_NO_ID; }

static void release(void *state)
{
    struct compare_view *v = state;
    free(v->slot);
    free(v->rank);
}

static void runs_changed(app *a, void *state)
{
    (void)a;
    ((struct compare_view *)state)->rq = RT_NO_ID;   /* the rank table has a column per run */
}

static size_t rank_slot(const struct compare_view *v, uint32_t pid)
{
    size_t h = (size_t)(pid * 2654435761u) & v->mask;
    while (v->slot[h] && v->slot[h] != pid + 1)
        h = (h + 1) & v->mask;
    return h;
}

/* 1-based rank of pid in run r's ranking of query q, or 0 when absent (rt_workspace_rank_of's
 * answer, from the table of the query's ranks). */
static size_t rank_in(app *a, size_t r, uint32_t q, uint32_t pid)
{
    struct compare_view *v = compare_state(a);
    size_t nr = a->s->ws->nruns;
    if (v->rq != q) {
        size_t total = 0, n;
        for (size_t k = 0; k < nr; k++)
            total += rt_run_ranking(a->s->ws->runs[k].run, q, &n) ? n : 0;
        size_t cap = 64;
        while (cap < 2 * total + 2)
            cap <<= 1;
        free(v->slot);
        free(v->rank);
        v->slot = rt_calloc(cap, sizeof *v->slot);
        v->rank = rt_calloc(cap * nr, sizeof *v->rank);
        v->mask = cap - 1;
        for (size_t k = 0; k < nr; k++) {
            const uint32_t *p = rt_run_ranking(a->s->ws->runs[k].run, q, &n);
            for (size_t i = 0; p && i < n; i++) {
                size_t s = rank_slot(v, p[i]);
                v->slot[s] = p[i] + 1;
                if (!v->rank[s * nr + k])   /* a repeated pid: its first rank, as a scan finds */
                    v->rank[s * nr + k] = (uint32_t)(i + 1);
            }
        }
        v->rq = q;
    }
    size_t s = rank_slot(v, pid);
    return v->slot[s] ? v->rank[s * nr + r] : 0;
}

static size_t columns_fit(const app *a)
{
    size_t n = (size_t)(a->cols / MIN_COL_W);
    if (n < 1)
        n = 1;
    return n < a->s->ws->nruns ? n : a->s->ws->nruns;
}

static void draw_cell(app *a, int y, int x, int w, size_t r, size_t rank, int focused)
{
    rt_workspace *ws = a->s->ws;
    uint32_t q = app_qid(a);
    size_t n;
    const uint32_t *p = rt_run_ranking(ws->runs[r].run, q, &n);
    if (rank >= n) {
        draw_fill(y, x, w, focused ? ROLE_SELECTED : ROLE_NORMAL);
        return;
    }
    uint32_t pid = p[rank];
    int32_t g;
    int rel = app_grade(a, q, pid, &g) && g >= ws->level;
    int first = rel && rt_session_first_rel(a->s, r, q) == rank + 1;
    term_role base = focused ? ROLE_SELECTED : first ? ROLE_FIRST_REL : ROLE_NORMAL;
    char head[96];
    int hl = snprintf(head, sizeof head, "%3zu ", rank + 1);
    int used = draw_text(y, x, w, head, (size_t)hl, base, NULL);
    used += app_draw_badge(a, y, x + used, w - used, q, pid, focused);
    /* ranks in the other runs */
    char others[64];
    size_t o = 0;
    for (size_t k = 0; k < ws->nruns && o + 8 < sizeof others; k++) {
        if (k == r)
            continue;
        size_t rk = rank_in(a, k, q, pid);
        o += (size_t)(rk ? snprintf(others + o, sizeof others - o, "%s%zu", o ? "/" : "", rk)
                         : snprintf(others + o, sizeof others - o, "%s-", o ? "/" : ""));
        if (o > sizeof others - 1)   /* cut short (a rank of many digits): what was written */
            o = sizeof others - 1;
    }
    if (o < sizeof others - 1)
        others[o++] = ' ';
    used += draw_text(y, x + used, w - used, others, o, focused ? ROLE_SELECTED : ROLE_DIM, NULL);
    app_draw_passage_start(a, y, x + used, w - used, pid, base);
}

/* The rankings and passages of the cells about to be drawn, read together (from a cold disk a
 * screen would otherwise wait for one read per run and per cell, one after the other). */
static void prefetch_cells(app *a, uint32_t q, size_t ncol, size_t rows, size_t colw)
{
    struct compare_view *cv = compare_state(a);
    /* once per screen of cells: a key that moves within it reads nothing new */
    uint64_t now = ((uint64_t)q << 32) ^ ((uint64_t)cv->top_rank << 16) ^ ((uint64_t)cv->col_off << 8) ^
                   ((uint64_t)ncol << 4) ^ (uint64_t)rows ^ ((uint64_t)colw << 40);
    if (now == cv->fetched)
        return;
    cv->fetched = now;
    for (size_t r = 0; r < a->s->ws->nruns; r++)   /* every run's ranking: the cells show ranks in all */
        rt_run_prefetch(a->s->ws->runs[r].run, q);
    size_t cap = ncol * rows, n = 0;
    uint32_t *pids = rt_reallocarray(NULL, cap ? cap : 1, sizeof *pids);
    for (size_t c = 0; c < ncol; c++) {
        size_t len;
        const uint32_t *p = rt_run_ranking(a->s->ws->runs[cv->col_off + c].run, q, &len);
        for (size_t row = 0; row < rows && cv->top_rank + row < len; row++)
            pids[n++] = p[cv->top_rank + row];
    }
    rt_workspace_prefetch(a->s->ws, pids, n, colw * 4 + 8);   /* as app_draw_passage_start reads */
    free(pids);
}

/* Run r's value on query q of the list's measure, with its name ("RR 0.50"): the figure the list
 * beside it shows (a fixed RR@10 here disagreed with a DBQA list's RR). */
static void measure_text(app *a, size_t r, uint32_t q, char *buf, size_t n)
{
    size_t m = list_state(a)->measure;
    const rt_measure *ms = &a->s->ws->ms[m];
    double v;
    if (!rt_live_value(a->s->live, r, q, m, &v))
        snprintf(buf, n, "%s -", ms->name);
    else
        snprintf(buf, n, rt_measure_is_sum(ms) ? "%s %.0f" : "%s %.2f", ms->name, v);
}

static void draw(app *a, int top, int height)
{
    struct compare_view *cv = compare_state(a);
    rt_workspace *ws = a->s->ws;
    uint32_t q = app_qid(a);
    app_draw_query_line(a, top);
    if (height > 6)
        height -= app_draw_tax_legend(a, top + height - 1);

    size_t ncol = columns_fit(a);
    if (a->col < cv->col_off)
        cv->col_off = a->col;
    if (a->col >= cv->col_off + ncol)
        cv->col_off = a->col - ncol + 1;
    if (cv->col_off + ncol > ws->nruns)
        cv->col_off = ws->nruns - ncol;
    int colw = a->cols / (int)ncol;
    for (size_t c = 0; c < ncol; c++) {
        size_t r = cv->col_off + c;
        int x = (int)c * colw, w = c + 1 == ncol ? a->cols - x : colw - 1;
        size_t fr = rt_session_first_rel(a->s, r, q);
        char h[160], val[64];
        measure_text(a, r, q, val, sizeof val);
        int n = fr ? snprintf(h, sizeof h, "%s%s first@%zu %s", r == a->col ? ">" : " ", rt_run_name(ws->runs[r].run),
                              fr, val)
                   : snprintf(h, sizeof h, "%s%s no relevant", r == a->col ? ">" : " ",
                              rt_run_name(ws->runs[r].run));
        if (n < 0 || (size_t)n >= sizeof h)   /* a long run name: what was written */
            n = n < 0 ? 0 : (int)sizeof h - 1;
        draw_text(top + 1, x, w, h, (size_t)n, ROLE_HEADER, NULL);
        if (c + 1 < ncol)
            draw_text(top + 1, x + w, 1, "|", 1, ROLE_DIM, NULL);
    }
    int rows = height - 2;
    if (rows < 1)
        return;
    if (a->rank < cv->top_rank)
        cv->top_rank = a->rank;
    if (a->rank >= cv->top_rank + (size_t)rows)
        cv->top_rank = a->rank - (size_t)rows + 1;
    prefetch_cells(a, q, ncol, (size_t)rows, (size_t)colw);
    for (int row = 0; row < rows; row++) {
        size_t rank = cv->top_rank + (size_t)row;
        for (size_t c = 0; c < ncol; c++) {
            size_t r = cv->col_off + c;
            int x = (int)c * colw, w = c + 1 == ncol ? a->cols - x : colw - 1;
            draw_cell(a, top + 2 + row, x, w, r, rank, r == a->col && rank == a->rank);
            app_region(a, top + 2 + row, x, x + w, REGION_CELL, r, rank);
            if (c + 1 < ncol)
                draw_text(top + 2 + row, x + w, 1, "|", 1, ROLE_DIM, NULL);
        }
    }
    if (ncol < ws->nruns) {
        char more[64];
        int n = snprintf(more, sizeof more, " runs %zu-%zu of %zu (h/l scroll) ", cv->col_off + 1,
                         cv->col_off + ncol, ws->nruns);
        draw_text(top, a->cols - n, n, more, (size_t)n, ROLE_DIM, NULL);
    }
}

static int focus(app *a, uint32_t *qid, uint32_t *pid)
{
    *pid = RT_NO_ID;
    if (!a->s->ws->nq)
        return 0;
    *qid = app_qid(a);
    size_t n;
    const uint32_t *p = rt_run_ranking(a->s->ws->runs[a->col].run, *qid, &n);
    if (a->rank >= n)
        return 0;
    *pid = p[a->rank];
    return 1;
}

/* The longest ranking of the current query: how far the rank cursor goes. */
static size_t *cursor(app *a, size_t *n)
{
    *n = 0;
    for (size_t r = 0; r < a->s->ws->nruns; r++) {
        size_t len;
        rt_run_ranking(a->s->ws->runs[r].run, app_qid(a), &len);
        if (len > *n)
            *n = len;
    }
    return &a->rank;
}

static int open_passage(app *a)
{
    size_t n;
    const uint32_t *p = rt_run_ranking(a->s->ws->runs[a->col].run, app_qid(a), &n);
    if (a->rank >= n) {
        app_message(a, 1, "run %s has no passage at rank %zu", rt_run_name(a->s->ws->runs[a->col].run), a->rank + 1);
        return -1;
    }
    passage_show(a, p[a->rank], NULL);
    return 0;
}

static void side(app *a, int d)
{
    if (d < 0 && a->col > 0)
        a->col--;
    else if (d > 0 && a->col + 1 < a->s->ws->nruns)
        a->col++;
}

/* Appends seg to the legend in buf (o bytes, *w columns used) when it fits in cols; 0 when not. */
static int legend_add(char *buf, size_t len, size_t *o, size_t *w, int cols, const char *seg)
{
    size_t sl = strlen(seg), sw = rt_text_width(seg, sl);
    if (*w + sw > (size_t)cols || *o + sl + 1 > len)
        return 0;
    memcpy(buf + *o, seg, sl + 1);
    *o += sl;
    *w += sw;
    return 1;
}

/* "  ranks in dense/rerank": what the a/b numbers of a cell are, the other runs by name; shortest
 * distinguishing forms (…jieba) when the full names would not leave room in room columns. */
static void ranks_segment(app *a, int room, char *seg, size_t n)
{
    const rt_workspace *ws = a->s->ws;
    size_t k = ws->nruns > 1 ? ws->nruns - 1 : 1;
    const char **names = rt_reallocarray(NULL, k, sizeof *names);
    size_t m = 0, full = 0;
    for (size_t r = 0; r < ws->nruns; r++)
        if (r != a->col) {
            names[m] = rt_run_name(ws->runs[r].run);
            full += rt_text_width(names[m], strlen(names[m])) + 1;
            m++;
        }
    char **shown = NULL;
    int each = (room - 11 - (int)m) / (int)(m ? m : 1);
    if (m && (int)full - 1 + 11 > room) {   /* (full counts a slash after the last name too) */
        shown = rt_reallocarray(NULL, m, sizeof *shown);
        rt_text_short_names(names, m, (size_t)(each > 4 ? each : 4), shown);
    }
    size_t o = (size_t)snprintf(seg, n, "  ranks in ");
    for (size_t i = 0; i < m && o < n; i++)
        o += (size_t)snprintf(seg + o, n - o, "%s%s", i ? "/" : "", shown ? shown[i] : names[i]);
    for (size_t i = 0; shown && i < m; i++)
        free(shown[i]);
    free(shown);
    free(names);
}

/* The legend of the focused column's cells, in what fits the status line: the run and what a
 * cell's marks and numbers mean first, then as many of the keys as fit (? lists them all). At
 * 80 columns the keys came first and "ranks in …", what explains a cell's 4/1, was cut. */
static void legend(app *a, char *buf, size_t len)
{
    char seg[512], tag[16], rel[16], nrel[16], undo[16], open[16];
    size_t o = 0, w = 0;
    buf[0] = 0;
    snprintf(seg, sizeof seg, " run %s", rt_run_name(a->s->ws->runs[view_focused_run(a)].run));
    if (!legend_add(buf, len, &o, &w, a->cols, seg)) {   /* a name longer than the line: cut */
        snprintf(buf, len, "%s", seg);
        return;
    }
    if (a->s->ws->nruns > 1) {
        ranks_segment(a, a->cols - (int)w, seg, sizeof seg);
        if (!legend_add(buf, len, &o, &w, a->cols, seg))
            return;
    }
    snprintf(seg, sizeof seg, "  +/-/? judged  [keys] tags");
    if (!legend_add(buf, len, &o, &w, a->cols, seg))
        return;
    snprintf(seg, sizeof seg, "  %s tag", app_tag_keys(a, tag, sizeof tag));
    if (!legend_add(buf, len, &o, &w, a->cols, seg))
        return;
    snprintf(seg, sizeof seg, "  %s/%s relabel", actions_keys_of("relevant", rel, sizeof rel),
             actions_keys_of("not-relevant", nrel, sizeof nrel));
    if (!legend_add(buf, len, &o, &w, a->cols, seg))
        return;
    snprintf(seg, sizeof seg, "  %s undo", actions_keys_of("undo", undo, sizeof undo));
    if (!legend_add(buf, len, &o, &w, a->cols, seg))
        return;
    snprintf(seg, sizeof seg, "  %s passage", actions_keys_of("open", open, sizeof open));
    legend_add(buf, len, &o, &w, a->cols, seg);
}

const view_ops view_compare_ops = {
    .name = "side by side", .flags = VIEW_IN_QUERY | VIEW_RUN_FOCUS, .draw = draw, .focus = focus,
    .cursor = cursor, .open = open_passage, .side = side, .legend = legend,
    .state_size = sizeof(struct compare_view), .init = init, .release = release, .runs_changed = runs_changed,
};
