/* rt_report — a growing list of report lines. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_mem.h"
#include "rt_report.h"

struct rt_report {
    char **lines;
    rt_report_kind *kinds;
    size_t n, cap, warnings;
};

rt_report *rt_report_new(void) { return rt_calloc(1, sizeof(rt_report)); }

void rt_report_free(rt_report **rp)
{
    if (!rp || !*rp)
        return;
    for (size_t i = 0; i < (*rp)->n; i++)
        free((*rp)->lines[i]);
    free((*rp)->lines);
    free((*rp)->kinds);
    free(*rp);
    *rp = NULL;
}

void rt_report_add(rt_report *r, rt_report_kind kind, const char *fmt, ...)
{
    if (!r)
        return;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->lines = rt_reallocarray(r->lines, r->cap, sizeof *r->lines);
        r->kinds = rt_reallocarray(r->kinds, r->cap, sizeof *r->kinds);
    }
    r->lines[r->n] = rt_strdup(buf);
    r->kinds[r->n++] = kind;
    if (kind == RT_REPORT_WARNING)
        r->warnings++;
}

size_t rt_report_count(const rt_report *r) { return r ? r->n : 0; }
size_t rt_report_warnings(const rt_report *r) { return r ? r->warnings : 0; }

const char *rt_report_line(const rt_report *r, size_t i, rt_report_kind *kind)
{
    if (kind)
        *kind = r->kinds[i];
    return r->lines[i];
}

/* Reverses lines [a, b). */
static void reverse(rt_report *r, size_t a, size_t b)
{
    for (; a + 1 < b; a++, b--) {
        char *l = r->lines[a];
        rt_report_kind k = r->kinds[a];
        r->lines[a] = r->lines[b - 1];
        r->kinds[a] = r->kinds[b - 1];
        r->lines[b - 1] = l;
        r->kinds[b - 1] = k;
    }
}

void rt_report_move_tail(rt_report *r, size_t from, size_t at)
{
    if (!r || at >= from || from >= r->n)
        return;
    reverse(r, at, from);   /* a rotation of [at, n) by three reversals */
    reverse(r, from, r->n);
    reverse(r, at, r->n);
}
