/* rt_export — what a session can write out: the current qrels (whole, or only the relabels),
 * the tags, the category breakdown, the base / current metric table and per-query metrics. Files
 * are written atomically: to a temporary file beside the target, fsync'd, then renamed. */
#ifndef RT_EXPORT_H
#define RT_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_session.h"
#include "rt_table.h"

typedef enum rt_export_what {
    RT_EXPORT_QRELS = 0,   /* current qrels, TREC: qid 0 pid grade */
    RT_EXPORT_QRELS_DIFF,  /* relabels that differ from the base (TREC, or a table) */
    RT_EXPORT_TAGS,        /* one row per tagged item and category, with notes (TSV or JSON) */
    RT_EXPORT_BREAKDOWN,   /* rt_breakdown_table */
    RT_EXPORT_METRICS,     /* run, measure, base, current, delta */
    RT_EXPORT_PER_QUERY,   /* run, qid, then each measure (current) */
    RT_EXPORT_LEAKAGE,     /* run, measure, leaked ("Duplicated") and others, with query counts */
    RT_EXPORT_DISPUTES,    /* the team's disputed pairs: the table the caller gives (rt_team) */
    RT_EXPORT_FIG_DELTA,   /* SVG: per-query difference of runs fig_a and fig_b on fig_m */
    RT_EXPORT_FIG_HIST,    /* SVG: histogram of run fig_a's values of fig_m */
    RT_EXPORT_FIG_BEFORE_AFTER,   /* SVG: every run's fig_m before and after the relabels */
    RT_EXPORT_LEAK_PAIRS,  /* each reviewed leakage pair: test, train, cosine, type, author, time */
    RT_EXPORT_LEAK_TYPES,  /* reviewed pairs per type (Fröbe et al.'s table): count and share */
} rt_export_what;

/* "trec" and "svg" besides the table formats. */
#define RT_EXPORT_TREC ((rt_table_format)100)
#define RT_EXPORT_SVG ((rt_table_format)101)

typedef struct rt_export_opts {
    rt_export_what what;
    rt_table_format format;
    size_t k;                 /* breakdown: top k of each run (default 5) */
    const uint32_t *qids;     /* scope of breakdown / metrics / per-query (NULL: all) */
    size_t nqids;
    const unsigned char *leaked;  /* leakage: leaked[qid] marks the leaked test queries */
    const rt_table *table;        /* disputes: rt_team_disputes_table */
    size_t by;                    /* metrics: split by this facet of facets (or ws->facets) */
    const struct rt_facets *facets;   /* NULL: ws->facets */
    int split;                    /* by is set */
    size_t fig_a, fig_b, fig_m;   /* figures: the runs and the measure */
    const struct rt_leakage *leakage;   /* leak-pairs: the candidates, for their cosine (may be NULL) */
} rt_export_opts;

/* The names of the values (rt_names). */
extern const rt_name rt_export_whats[];

int rt_export_what_parse(const char *name, rt_export_what *w);

/* Parses a format name ("trec" or a table format) and checks that it suits what; returns
 * RT_EUSAGE with a message otherwise. A NULL name picks the default: trec for qrels, tsv
 * otherwise. */
rt_status rt_export_format(rt_export_what what, const char *name, rt_table_format *fmt, rt_err *err);

struct rt_outguard;

/* Writes the export to out. A write error is left on the stream for the caller to name
 * (rt_outfile_commit, or a flush of standard output). */
rt_status rt_export_write(const rt_session *s, const rt_export_opts *o, FILE *out, rt_err *err);

/* Writes it to path atomically with rt_outfile (NULL or "-": standard output), opened through
 * rt_outguard_open with the protected files g (borrowed); g NULL: those of s (its workspace's
 * inputs and its journal folder). Errors name the file (or "standard output") and the reason. */
rt_status rt_export_file(const rt_session *s, const rt_export_opts *o, const char *path,
                         const struct rt_outguard *g, rt_err *err);

#endif
