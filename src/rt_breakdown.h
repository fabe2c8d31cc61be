/* rt_breakdown — the category breakdown of the paper's error analysis (DuReader-retrieval
 * Table 10): per category and per group, how many tagged items there are and their share,
 * overall and per run. A run counts the tagged pairs among its top k for each query, plus the
 * query-level tags (a property of the query, not of a system). Shares are of the tagged items
 * of the same column, so with several categories per item they can add up to more than 100%. */
#ifndef RT_BREAKDOWN_H
#define RT_BREAKDOWN_H

#include <stddef.h>
#include <stdint.h>

#include "rt_session.h"
#include "rt_table.h"

typedef struct rt_breakdown {
    size_t ncats, ngroups, nruns, k;
    size_t nqueries;        /* queries in scope */
    size_t *total;          /* [1 + nruns]: tagged items, overall then per run */
    size_t *cat;            /* [(1 + nruns) * ncats] */
    size_t *group;          /* [(1 + nruns) * ngroups] */
} rt_breakdown;

/* Counts over the queries qids[0..n) (NULL: every query of the workspace), with the top k of
 * each run. Owned: the caller frees it with rt_breakdown_free. */
rt_breakdown *rt_breakdown_compute(const rt_session *s, size_t k, const uint32_t *qids, size_t n);
void rt_breakdown_free(rt_breakdown **b);

/* Column c (0: overall, 1 + r: run r): count and share (0–1) of category i / group g. */
size_t rt_breakdown_cat(const rt_breakdown *b, size_t c, size_t i, double *share);
size_t rt_breakdown_group(const rt_breakdown *b, size_t c, size_t g, double *share);

/* The breakdown as a table: group, category, then count and share for overall and each run;
 * a group's own row has category "(all)"; the last row, "(total)", counts the tagged items.
 * Shares are in percent, to 1 decimal when rounded (Markdown, LaTeX; the table notes it), else
 * to 17 significant digits. Owned: the caller frees it with rt_table_free. */
rt_table *rt_breakdown_table(const rt_breakdown *b, const rt_session *s, int rounded);

#endif
