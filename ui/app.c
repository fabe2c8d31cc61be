/* app — shared state: the current query, the visible query rows (filtered and sorted), the view
 * stack, messages, and the frame every view is drawn in (title, body, status or command line). */
#include "config.h"

#include <limits.h>
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "rt_mem.h"

#define MIN_COLS 40
#define MIN_ROWS 8

uint32_t app_qid(const app *a) { return a->ws->qlist[a->cur]; }

void app_set_query(app *a, size_t index)
{
    a->cur = index;
    a->rank = a->top_rank = 0;
    rt_overlap_free(&a->ov);
    const char *t = rt_workspace_query_text(a->ws, app_qid(a));
    a->ov = rt_overlap_new(t ? t : "", t ? strlen(t) : 0);
}

size_t app_find_run(const app *a, const char *name)
{
    for (size_t r = 0; r < a->ws->nruns; r++)
        if (strcmp(rt_run_name(a->ws->runs[r].run), name) == 0)
            return r;
    char *end;
    unsigned long k = strtoul(name, &end, 10);
    if (!*end && k >= 1 && k <= a->ws->nruns)
        return k - 1;
    return (size_t)-1;
}

void app_push(app *a, view_id v)
{
    if (a->view == v)
        return;
    if (a->depth < (int)(sizeof a->stack / sizeof a->stack[0]))
        a->stack[a->depth++] = a->view;
    a->view = v;
}

void app_pop(app *a)
{
    if (a->depth > 0)
        a->view = a->stack[--a->depth];
}

void app_message(app *a, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->msg_error = error;
}

/* ---- the query rows ---------------------------------------------------------------------- */

static const qstat *stat_of(const app *a, size_t qi, size_t r) { return &a->stats[qi * a->ws->nruns + r]; }

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return 1;
    return n == 0;
}

static int visible(const app *a, size_t qi)
{
    uint32_t q = a->ws->qlist[qi];
    if (a->text_filter[0]) {
        const char *t = rt_workspace_query_text(a->ws, q);
        if (!contains_ci(rt_strtab_str(a->ws->qids, q), a->text_filter) && !(t && contains_ci(t, a->text_filter)))
            return 0;
    }
    if (a->filter == FILTER_NOTOP) {
        const qstat *s = stat_of(a, qi, a->filter_a);
        if (s->first_rel && s->first_rel <= a->filter_k)
            return 0;
        if (rt_qrels_index(a->ws->qrels, q) == RT_NO_ID)
            return 0;   /* unjudged queries cannot fail */
    } else if (a->filter == FILTER_WORSE) {
        if (!(stat_of(a, qi, a->filter_a)->rr10 < stat_of(a, qi, a->filter_b)->rr10))
            return 0;
    }
    return 1;
}

static double delta_of(const app *a, size_t qi)
{
    return stat_of(a, qi, a->delta_a)->rr10 - stat_of(a, qi, a->delta_b)->rr10;
}

static int row_cmp(const void *x, const void *y, void *ctx)
{
    const app *a = ctx;
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    int c = 0;
    switch (a->sort) {
    case SORT_ORDER:
        break;
    case SORT_QID:
        c = strcmp(rt_strtab_str(a->ws->qids, a->ws->qlist[i]), rt_strtab_str(a->ws->qids, a->ws->qlist[j]));
        break;
    case SORT_TEXT: {
        const char *s = rt_workspace_query_text(a->ws, a->ws->qlist[i]);
        const char *t = rt_workspace_query_text(a->ws, a->ws->qlist[j]);
        c = strcmp(s ? s : "", t ? t : "");
        break;
    }
    case SORT_RUN: {
        const qstat *s = stat_of(a, i, a->sort_run), *t = stat_of(a, j, a->sort_run);
        c = s->rr10 < t->rr10 ? -1 : s->rr10 > t->rr10;
        if (!c) {
            size_t fs = s->first_rel ? s->first_rel : (size_t)-1, ft = t->first_rel ? t->first_rel : (size_t)-1;
            c = fs > ft ? -1 : fs < ft;   /* worse (later or no) first relevant first */
        }
        break;
    }
    case SORT_DELTA: {
        double d = delta_of(a, i), e = delta_of(a, j);
        c = d < e ? -1 : d > e;
        break;
    }
    case SORT_JUDGED:
        c = a->judged[i] < a->judged[j] ? -1 : a->judged[i] > a->judged[j];
        break;
    }
    if (a->sort_desc)
        c = -c;
    return c ? c : (i < j ? -1 : i > j);
}

void app_refresh_rows(app *a)
{
    size_t keep = a->nrows ? a->rows_idx[a->sel < a->nrows ? a->sel : 0] : 0;
    a->nrows = 0;
    for (size_t i = 0; i < a->ws->nq; i++)
        if (visible(a, i))
            a->rows_idx[a->nrows++] = i;
    qsort_r(a->rows_idx, a->nrows, sizeof *a->rows_idx, row_cmp, a);
    a->sel = 0;
    for (size_t k = 0; k < a->nrows; k++)
        if (a->rows_idx[k] == keep)
            a->sel = k;
    a->top = 0;
}

/* ---- the frame --------------------------------------------------------------------------- */

void app_draw_query_line(app *a, int y)
{
    uint32_t q = app_qid(a);
    const char *qt = rt_workspace_query_text(a->ws, q);
    char head[160];
    int hl = snprintf(head, sizeof head, "%s  ", rt_strtab_str(a->ws->qids, q));
    int used = draw_text(y, 0, a->cols, head, (size_t)hl, ROLE_HEADER, NULL);
    draw_text(y, used, a->cols - used, qt ? qt : "(no text)", qt ? strlen(qt) : 9, ROLE_NORMAL, a->ov);
}

int app_body_height(const app *a)
{
    int h = a->rows - 2;
    return h > 1 ? h : 1;
}

static void draw_title(app *a)
{
    char buf[512];
    const char *where = "";
    switch (a->view) {
    case VIEW_LIST: where = "queries"; break;
    case VIEW_COMPARE: where = "side by side"; break;
    case VIEW_PASSAGE: where = "passage"; break;
    case VIEW_METRICS: where = "metrics"; break;
    case VIEW_HELP: where = "help"; break;
    case VIEW_REPORT: where = "load report"; break;
    default: break;
    }
    snprintf(buf, sizeof buf, " retriage — %s — %s", a->ws->name, where);
    draw_text(0, 0, a->cols, buf, strlen(buf), ROLE_TITLE, NULL);
}

static void draw_status(app *a)
{
    int y = a->rows - 1;
    if (a->prompt) {
        char buf[600];
        snprintf(buf, sizeof buf, "%c%s", a->prompt, a->line);
        int used = draw_text(y, 0, a->cols, buf, strlen(buf), ROLE_NORMAL, NULL);
        if (used < a->cols)
            mvaddch(y, used, ' ' | A_REVERSE);   /* the cursor */
        return;
    }
    if (a->msg[0]) {
        draw_text(y, 0, a->cols, a->msg, strlen(a->msg), a->msg_error ? ROLE_ERROR : ROLE_STATUS, NULL);
        return;
    }
    char buf[512];
    if (a->view == VIEW_COMPARE) {
        /* the legend of the focused column's cells */
        size_t o = (size_t)snprintf(buf, sizeof buf, " + relevant  - judged non-relevant  ? unjudged  ranks in ");
        for (size_t r = 0, k = 0; r < a->ws->nruns && o < sizeof buf - 64; r++)
            if (r != a->col)
                o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", k++ ? "/" : "", rt_run_name(a->ws->runs[r].run));
        snprintf(buf + o, sizeof buf - o, "  Enter passage");
        draw_text(y, 0, a->cols, buf, strlen(buf), ROLE_STATUS, NULL);
        return;
    }
    size_t warn = rt_report_warnings(a->ws->report);
    snprintf(buf, sizeof buf, " %zu/%zu queries  %zu runs%s  ? help  : command  q back",
             a->nrows, a->ws->nq, a->ws->nruns, warn ? "  L load warnings" : "");
    draw_text(y, 0, a->cols, buf, strlen(buf), ROLE_STATUS, NULL);
}

void app_draw(app *a)
{
    getmaxyx(stdscr, a->rows, a->cols);
    erase();
    if (a->cols < MIN_COLS || a->rows < MIN_ROWS) {
        char size[64], need[64];
        snprintf(size, sizeof size, "%dx%d is too small.", a->cols, a->rows);
        snprintf(need, sizeof need, "Need %dx%d.", MIN_COLS, MIN_ROWS);
        const char *lines[] = {"Terminal", size, need, "Enlarge it,", "or q quits."};
        for (int y = 0; y < a->rows; y++) {
            const char *l = y < 5 ? lines[y] : "";
            draw_text(y, 0, a->cols, l, strlen(l), y < 3 ? ROLE_ERROR : ROLE_NORMAL, NULL);
        }
        return;
    }
    draw_title(a);
    int h = app_body_height(a);
    switch (a->view) {
    case VIEW_LIST: view_list_draw(a, 1, h); break;
    case VIEW_COMPARE: view_compare_draw(a, 1, h); break;
    case VIEW_PASSAGE: view_passage_draw(a, 1, h); break;
    case VIEW_METRICS: view_metrics_draw(a, 1, h); break;
    case VIEW_HELP: view_help_draw(a, 1, h); break;
    case VIEW_REPORT: view_report_draw(a, 1, h); break;
    default: break;
    }
    draw_status(a);
}
