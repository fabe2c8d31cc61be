/* rt_breakdown — counting tags by category and group, overall and per run's top k. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_breakdown.h"
#include "rt_mem.h"

static size_t in_top(const rt_workspace *ws, size_t r, uint32_t qid, uint32_t pid, size_t k)
{
    size_t n;
    const uint32_t *p = rt_run_ranking(ws->runs[r].run, qid, &n);
    for (size_t i = 0; i < n && i < k; i++)
        if (p[i] == pid)
            return 1;
    return 0;
}

/* Adds one tagged item to column c. */
static void count(rt_breakdown *b, const rt_taxonomy *t, size_t c, unsigned long long cats)
{
    b->total[c]++;
    for (size_t i = 0; i < b->ncats; i++)
        if (cats >> i & 1)
            b->cat[c * b->ncats + i]++;
    for (size_t g = 0; g < b->ngroups; g++)
        if (cats & rt_taxonomy_group_mask(t, g))
            b->group[c * b->ngroups + g]++;
}

static void count_query(rt_breakdown *b, const rt_session *s, uint32_t qid)
{
    const rt_taxonomy *t = s->ws->taxonomy;
    size_t n;
    const rt_tag *tags = rt_annot_tags(s->annot, qid, &n);
    for (size_t i = 0; i < n; i++) {
        if (!tags[i].cats)
            continue;
        count(b, t, 0, tags[i].cats);
        for (size_t r = 0; r < b->nruns; r++)
            if (tags[i].pid == RT_NO_ID || in_top(s->ws, r, qid, tags[i].pid, b->k))
                count(b, t, 1 + r, tags[i].cats);
    }
}

rt_breakdown *rt_breakdown_compute(const rt_session *s, size_t k, const uint32_t *qids, size_t n)
{
    const rt_workspace *ws = s->ws;
    rt_breakdown *b = rt_calloc(1, sizeof *b);
    b->ncats = ws->taxonomy->ncats;
    b->ngroups = ws->taxonomy->ngroups;
    b->nruns = ws->nruns;
    b->k = k;
    size_t cols = 1 + b->nruns;
    b->total = rt_calloc(cols, sizeof *b->total);
    b->cat = rt_calloc(cols * b->ncats + 1, sizeof *b->cat);
    b->group = rt_calloc(cols * b->ngroups + 1, sizeof *b->group);
    if (!qids) {
        qids = ws->qlist;
        n = ws->nq;
    }
    b->nqueries = n;
    for (size_t i = 0; i < n; i++)
        count_query(b, s, qids[i]);
    return b;
}

void rt_breakdown_free(rt_breakdown **bp)
{
    if (!bp || !*bp)
        return;
    free((*bp)->total);
    free((*bp)->cat);
    free((*bp)->group);
    free(*bp);
    *bp = NULL;
}

static size_t share_of(size_t x, size_t total, double *share)
{
    if (share)
        *share = total ? (double)x / (double)total : 0.0;
    return x;
}

size_t rt_breakdown_cat(const rt_breakdown *b, size_t c, size_t i, double *share)
{
    return share_of(b->cat[c * b->ncats + i], b->total[c], share);
}

size_t rt_breakdown_group(const rt_breakdown *b, size_t c, size_t g, double *share)
{
    return share_of(b->group[c * b->ngroups + g], b->total[c], share);
}

static void add_row(rt_table *t, const rt_breakdown *b, const char *group, const char *cat,
                    size_t g, size_t i, int is_group, int rounded)
{
    size_t cols = 1 + b->nruns, nc = 2 + 2 * cols;
    char **cells = rt_calloc(nc, sizeof *cells);
    cells[0] = rt_strdup(group);
    cells[1] = rt_strdup(cat);
    for (size_t c = 0; c < cols; c++) {
        double sh;
        size_t x = is_group == 2 ? share_of(b->total[c], b->total[c], &sh)
                   : is_group ? rt_breakdown_group(b, c, g, &sh) : rt_breakdown_cat(b, c, i, &sh);
        cells[2 + 2 * c] = rt_malloc(32);
        snprintf(cells[2 + 2 * c], 32, "%zu", x);
        cells[3 + 2 * c] = rt_malloc(32);
        snprintf(cells[3 + 2 * c], 32, rounded ? "%.1f" : "%.17g", 100.0 * sh);
    }
    rt_table_add(t, (const char *const *)cells);
    for (size_t c = 0; c < nc; c++)
        free(cells[c]);
    free(cells);
}

rt_table *rt_breakdown_table(const rt_breakdown *b, const rt_session *s, int rounded)
{
    const rt_taxonomy *tax = s->ws->taxonomy;
    size_t cols = 1 + b->nruns, nc = 2 + 2 * cols;
    char **h = rt_calloc(nc, sizeof *h);
    h[0] = rt_strdup("group");
    h[1] = rt_strdup("category");
    for (size_t c = 0; c < cols; c++) {
        const char *name = c ? rt_run_name(s->ws->runs[c - 1].run) : "all";
        size_t len = strlen(name) + 32;
        h[2 + 2 * c] = rt_malloc(len);
        h[3 + 2 * c] = rt_malloc(len);
        if (c) {
            snprintf(h[2 + 2 * c], len, "%s@%zu", name, b->k);
            snprintf(h[3 + 2 * c], len, "%s@%zu %%", name, b->k);
        } else {
            snprintf(h[2], len, "all");
            snprintf(h[3], len, "all %%");
        }
    }
    rt_table *t = rt_table_new(nc, (const char *const *)h);
    for (size_t c = 2; c < nc; c++)   /* counts and shares; group and category are names */
        rt_table_number(t, c);
    for (size_t c = 0; c < nc; c++)
        free(h[c]);
    free(h);
    for (size_t g = 0; g < tax->ngroups; g++) {
        add_row(t, b, tax->groups[g], "(all)", g, 0, 1, rounded);
        for (size_t i = 0; i < tax->ncats; i++)
            if (tax->cats[i].group == g)
                add_row(t, b, tax->groups[g], tax->cats[i].name, g, i, 0, rounded);
    }
    add_row(t, b, "(total)", "tagged items", 0, 0, 2, rounded);
    if (rounded)
        rt_table_note(t, "shares in percent rounded to 1 decimal place; TSV, CSV and JSON carry full precision");
    return t;
}
