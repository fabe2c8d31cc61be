/* rt_figure — the figures of a comparison, as numbers the terminal draws and as self-contained
 * SVG for a paper: the per-query difference of two runs (queries sorted by the difference, a bar
 * each: the classic per-topic plot), a histogram of one run's per-query values, and each run's
 * mean before and after the relabels (DuReader-retrieval's Figure 2). Values are the session's
 * current ones (base ⊕ relabels), so the figures follow every change. */
#ifndef RT_FIGURE_H
#define RT_FIGURE_H

#include <stddef.h>
#include <stdio.h>

#include "rt_session.h"

typedef enum rt_figure_kind {
    RT_FIG_DELTA = 0,        /* bars: value[i] = Δ of query label[i], sorted descending */
    RT_FIG_HIST,             /* bars: value[i] = queries in bin i, [lo + i·w, lo + (i+1)·w) */
    RT_FIG_BEFORE_AFTER,     /* pairs of bars: value[i] base mean, value2[i] current mean of run i;
                              * NAN when the measure is defined on none of its queries (MFR) */
} rt_figure_kind;

typedef struct rt_figure {
    rt_figure_kind kind;
    char *title;             /* whole, however long the run and measure names */
    char *ylabel;
    size_t n;
    double *value, *value2;  /* value2: RT_FIG_BEFORE_AFTER only */
    char **label;            /* a query id, a bin's range, or a run name */
    double lo, width;        /* RT_FIG_HIST: the bins' start and width */
} rt_figure;

extern const char *const rt_figure_kinds[];   /* "figure-delta", "figure-hist", "figure-before-after" */

/* Runs a − b on measure m, over the current judged queries. Owned: the caller frees it with
 * rt_figure_free. */
rt_figure *rt_figure_delta(const rt_session *s, size_t a, size_t b, size_t m);
/* Run r's values of measure m in bins equal-width bins over [0, 1] (or the values' range for
 * measures that are counts). Owned: the caller frees it with rt_figure_free. */
rt_figure *rt_figure_hist(const rt_session *s, size_t r, size_t m, size_t bins);
/* Every run's mean of measure m against the base qrels and the current ones. Owned: the
 * caller frees it with rt_figure_free. */
rt_figure *rt_figure_before_after(const rt_session *s, size_t m);
void rt_figure_free(rt_figure **f);

/* Writes f as a self-contained SVG (axes, labels, a zero line, run names; text escaped and set in a
 * CJK-capable font stack). Each bar is a <rect class="bar"> with data-value holding its number;
 * an undefined (NAN) one is a <text class="undefined"> saying so instead. */
void rt_figure_svg(const rt_figure *f, FILE *out);

#endif
