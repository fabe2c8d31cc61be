/* rt_report — a growing list of report lines. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_report.h"

struct rt_report {
    char **lines;
    rt_report_kind *kinds;
    uint32_t *keys;         /* non-decreasing */
    uint32_t key;           /* the next lines' */
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
    free((*rp)->keys);
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
        r->keys = rt_reallocarray(r->keys, r->cap, sizeof *r->keys);
    }
    size_t at = r->n;   /* after every line of its key or a lower one: most often the end */
    while (at > 0 && r->keys[at - 1] > r->key)
        at--;
    memmove(r->lines + at + 1, r->lines + at, (r->n - at) * sizeof *r->lines);
    memmove(r->kinds + at + 1, r->kinds + at, (r->n - at) * sizeof *r->kinds);
    memmove(r->keys + at + 1, r->keys + at, (r->n - at) * sizeof *r->keys);
    r->lines[at] = rt_strdup(buf);
    r->kinds[at] = kind;
    r->keys[at] = r->key;
    r->n++;
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

uint32_t rt_report_set_key(rt_report *r, uint32_t key)
{
    if (!r)
        return 0;
    uint32_t old = r->key;
    r->key = key;
    return old;
}

size_t rt_report_key_start(const rt_report *r, uint32_t key)
{
    size_t lo = 0, hi = rt_report_count(r);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
