/* rt_wsconfig — what a workspace is made of: the spec an open loads (rt_ws_spec), and the reading of
 * a workspace JSON file into one. Reading validates every key (errors name the file) and does no
 * I/O beyond reading the JSON: nothing is opened, loaded or cached here. */
#ifndef RT_WSCONFIG_H
#define RT_WSCONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_run.h"
#include "rt_taxonomy.h"
#include "rt_tuning.h"

/* What to load. Paths are used as given (the JSON reader resolves them against the file). */
typedef struct rt_ws_spec {
    const char *name;
    const char *queries;       /* optional */
    const char *collection;    /* optional */
    const char *qrels;         /* required */
    const char **run_paths;    /* nruns paths; run_names[i] may be NULL (tag or stem) */
    const char **run_names;
    size_t nruns;
    const char *measures;      /* list or preset; NULL: "dureader" */
    int32_t level;             /* relevance level, default 1 */
    int graded;                /* relabels use grades 0–3 instead of 0/1 */
    rt_order order;
    int strict;
    const char *journal_dir;   /* NULL: the caller decides (see DESIGN.md §6) */
    const char *annotator;
    const char *train_queries; /* leakage: training queries, and optional embeddings */
    const char *train_emb, *test_emb;
    const char *leak_index;
    double leak_threshold;     /* NAN or 0 with leak_threshold_set 0: default */
    int leak_threshold_set;
    size_t leak_k, leak_dim;
    const char *facets;        /* optional: query facets (rt_facets) */
    const char *dbqa;          /* an NLPCC DBQA file instead of queries, collection and qrels: the
                                  runs are then its score files (rt_dbqa_write_workspace) */
    const char *answers;       /* optional: the queries' human answers (rt_answers) */
    int no_cache;              /* parse the inputs even when a workspace cache is fresh */
    int defer_collection;      /* the workbench: a collection whose index must be built (one large
                                  enough for a thread of its own) is still being indexed when the
                                  open returns; the loader takes it in (rt_loader) */
    int defer_runs;            /* the workbench: runs read on threads (rt_ws_spec.nruns of at least
                                  two, together at least rt_tuning.parallel_min bytes) are taken
                                  in one by one: the open returns once the first is in, and the
                                  loader takes each of the others in */
    const rt_tuning *tuning;   /* NULL: the defaults. Read during the open: the workspace keeps a
                                  copy (its test-hold paths borrowed, see rt_tuning) */
} rt_ws_spec;

/* A workspace JSON file, read: the spec (every string in it owned by the config), and what the
 * spec does not carry. */
typedef struct rt_ws_config {
    rt_ws_spec spec;
    char *path;                /* the JSON file, as given */
    int named;                 /* it has a "name" (else the workspace is called after the file) */
    rt_taxonomy *taxonomy;     /* its "taxonomy", or NULL for the default; owned until taken */
    char **owned;              /* the strings spec points into */
    size_t nowned;
} rt_ws_config;

/* Reads the workspace JSON file at path. Keys: name, queries, collection, qrels, runs (array of
 * paths or of {"name", "path"}), measures, level, graded, order ("score"|"file"), strict,
 * journal_dir, annotator, taxonomy (see rt_taxonomy_from_json), leakage ({"train_queries",
 * "train_embeddings", "test_embeddings", "threshold", "k", "index", "dim"}), facets (a TSV of
 * query facets, rt_facets), dbqa (an NLPCC DBQA file instead of queries, collection and qrels;
 * the runs are then its score files), answers (the queries' human answers, rt_answers; DuReader's
 * JSON lines also give the facets question_type and fact_or_opinion when "facets" is absent).
 * Paths are made relative to the file's folder. A key of the wrong type or out of range is an
 * error naming the file (RT_EINPUT). Owned: the caller frees *out with rt_wsconfig_free. */
rt_status rt_wsconfig_read(rt_ws_config **out, const char *path, rt_err *err);

void rt_wsconfig_free(rt_ws_config **c);

#endif
