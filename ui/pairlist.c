/* pairlist — the cursor, focus, Enter, x and header of the views that list pairs (pairlist.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "pairlist.h"
#include "rt_text.h"

size_t *pairlist_cursor(app *a, const pairlist_ops *o, size_t *n)
{
    *n = o->count(a);
    return &o->list(a)->sel;
}

int pairlist_focus(app *a, const pairlist_ops *o, uint32_t *qid, uint32_t *pid)
{
    size_t n = o->count(a);   /* (first: making the rows again may move the cursor) */
    size_t sel = o->list(a)->sel;
    return sel < n && o->pair(a, sel, qid, pid);
}

int pairlist_open(app *a, const pairlist_ops *o)
{
    uint32_t q, p;
    if (pairlist_focus(a, o, &q, &p))
        app_open_passage(a, q, p);
    return 0;
}

int pairlist_next_todo(app *a, const pairlist_ops *o)
{
    size_t n = o->count(a);
    pairlist *l = o->list(a);
    for (size_t step = 1; step <= n; step++) {
        size_t i = (l->sel + step) % n;
        if (o->todo(a, i)) {
            l->sel = i;
            return 0;
        }
    }
    app_message(a, 0, "%s", o->all_done);
    return 0;
}

void pairlist_advance(app *a, const pairlist_ops *o)
{
    size_t n = o->count(a);
    pairlist *l = o->list(a);
    if (l->sel + 1 < n)
        l->sel++;
}

void pairlist_header(app *a, int y, const char *keys, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    n = n < 0 ? 0 : (size_t)n >= sizeof buf ? (int)sizeof buf - 1 : n;
    draw_text(y, 0, a->cols, buf, (size_t)n, ROLE_HEADER, NULL);
    draw_text(y + 1, 0, a->cols, keys, strlen(keys), ROLE_DIM, NULL);
}

void pairlist_draw(app *a, const pairlist_ops *o, int y, size_t rows)
{
    size_t n = o->count(a);
    pairlist *l = o->list(a);
    if (l->sel >= n)
        l->sel = n ? n - 1 : 0;
    if (l->sel < l->top)
        l->top = l->sel;
    if (rows && l->sel >= l->top + rows)
        l->top = l->sel - rows + 1;
    for (size_t r = 0; r < rows && l->top + r < n; r++)
        o->draw_row(a, y + (int)r, l->top + r, l->top + r == l->sel);
}

/* An id wider than this is cut: the query and the passage are what the row is for. */
enum { PAIRLIST_ID_MAX = 14, PAIRLIST_QUERY_MIN = 8 };

static int capped_width(const char *s, int cap)
{
    size_t n = strlen(s);
    /* no glyph is narrower than a column per 4 bytes: more than that many bytes is past the cap */
    size_t w = rt_text_width(s, n < (size_t)cap * 4 + 4 ? n : (size_t)cap * 4 + 4);
    return w > (size_t)cap ? cap : (int)w;
}

void pairlist_columns(app *a, const pairlist_ops *o, int w, pairlist_cols *c)
{
    const rt_workspace *ws = a->s->ws;
    size_t n = o->count(a);
    *c = (pairlist_cols){2, 0, 2};
    int qmax = w > PAIRLIST_QUERY_MIN ? w : PAIRLIST_QUERY_MIN;
    for (size_t i = 0; i < n; i++) {
        uint32_t q, p;
        if (!o->pair(a, i, &q, &p))
            continue;
        int wq = capped_width(rt_strtab_str(ws->qids, q), PAIRLIST_ID_MAX);
        int wp = capped_width(rt_strtab_str(ws->pids, p), PAIRLIST_ID_MAX);
        const char *qt = rt_workspace_query_text(ws, q);
        int wt = capped_width(qt ? qt : "", qmax);
        c->qid = wq > c->qid ? wq : c->qid;
        c->pid = wp > c->pid ? wp : c->pid;
        c->query = wt > c->query ? wt : c->query;
        if (c->qid == PAIRLIST_ID_MAX && c->pid == PAIRLIST_ID_MAX && c->query == qmax)
            break;   /* nothing wider can come */
    }
    int left = w - c->qid - c->pid - 3, most = left * 2 / 5;
    if (c->query > most)
        c->query = most > PAIRLIST_QUERY_MIN ? most : PAIRLIST_QUERY_MIN;
}

void pairlist_draw_pair(app *a, int y, int x, const pairlist_cols *c, uint32_t qid, uint32_t pid, term_role role)
{
    const rt_workspace *ws = a->s->ws;
    const char *qs = rt_strtab_str(ws->qids, qid), *ps = rt_strtab_str(ws->pids, pid);
    const char *qt = rt_workspace_query_text(ws, qid);
    int cells[3] = {c->qid, c->query, c->pid};
    const char *text[3] = {qs, qt ? qt : "", ps};
    for (int k = 0; k < 3 && x < a->cols; k++) {
        int w = cells[k] < a->cols - x ? cells[k] : a->cols - x;
        draw_text(y, x, w, text[k], strlen(text[k]), role, NULL);
        x += w;
        if (x < a->cols)
            draw_fill(y, x++, 1, role);   /* a blank between columns, whatever fills them */
    }
    if (x < a->cols)
        app_draw_passage_of(a, y, x, a->cols - x, qid, pid, role);
}
