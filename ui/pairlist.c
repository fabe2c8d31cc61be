/* pairlist — the cursor, focus, Enter, x and header of the views that list pairs (pairlist.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "pairlist.h"

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
