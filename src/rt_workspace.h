/* rt_workspace — everything one analysis session works on: queries, collection, qrels, runs,
 * the measure set, and where annotations go. Described by a JSON file (paths relative to it) or
 * built from command-line flags (an implicit workspace). Owns every structure it loads. */
#ifndef RT_WORKSPACE_H
#define RT_WORKSPACE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_collection.h"
#include "rt_err.h"
#include "rt_eval.h"
#include "rt_measure.h"
#include "rt_progress.h"
#include "rt_qrels.h"
#include "rt_queries.h"
#include "rt_report.h"
#include "rt_run.h"
#include "rt_strtab.h"
#include "rt_taxonomy.h"
#include "rt_wsconfig.h"

/* Where the leakage check finds its training queries and vectors (see rt_leakage). */
typedef struct rt_ws_leak {
    char *train_queries;       /* NULL: no leakage check configured */
    char *train_emb, *test_emb;/* both or neither; neither: the built-in lexical embedder */
    char *queries_path;        /* the workspace's queries file, for messages */
    char *index;               /* a Faiss factory string, NULL: exact search */
    double threshold;          /* NAN: the embedder's default */
    size_t k, dim;             /* 0: defaults */
} rt_ws_leak;

typedef struct rt_ws_run {
    rt_run *run;
    rt_eval_result *base;      /* measures of the run against the base qrels */
} rt_ws_run;

typedef struct rt_workspace {
    char *path;                /* the JSON file, or NULL for an implicit workspace */
    char *name;
    rt_strtab *qids, *pids;
    rt_queries *queries;       /* NULL when none was given */
    rt_collection *collection; /* NULL when none was given (or not in yet); set only by
                                  rt_workspace_set_collection */
    rt_qrels *qrels;
    rt_ws_run *runs;           /* grows only by rt_workspace_add_run */
    size_t nruns, runs_cap;
    rt_measure *ms;            /* grows only by rt_workspace_add_measures (at the end) */
    size_t nm;
    size_t nm_open;            /* the first nm_open are the spec's (what the cache's evals hold);
                                  those after were asked for since (rt_measjob) */
    int32_t level;
    int graded;
    rt_eval *eval;
    char *journal_dir;         /* may be NULL */
    char *annotator;           /* may be NULL */
    rt_taxonomy *taxonomy;     /* the error categories (DESIGN.md §7 unless replaced) */
    rt_ws_leak leak;
    rt_report *report;         /* what loading found */
    struct rt_facets *facets;  /* NULL when none were given (or from the answers file) */
    struct rt_answers *answers;/* NULL when none were given: the distant-supervision hint */
    uint32_t *qlist;           /* every query the workspace knows: queries file order, then */
    size_t nq;                 /* judged queries, then run-only queries */
    struct rt_wscache *cache;  /* the workspace cache (rt_wscache), or NULL */
    struct rt_loader *loader;  /* what is still loading into it (rt_loader.h: private; its
                                  queries and events are the only way to know) */
    rt_tuning tuning;          /* the spec's (or the defaults), as the open took it */
    uint64_t generation;       /* bumped each time it grows (a run, the collection): a view that
                                  keeps state per run compares it with the one it was made for */
} rt_workspace;

/* Opens the workspace a spec describes (rt_wsopen.c). With defer_runs or defer_collection, it
 * returns before they are in: rt_loader_poll brings them (and rt_loader_runs_loading and
 * rt_loader_collection_loading say how far they are). progress (NULL: none) is reported to while
 * the open waits, only on this thread, by phase in the order they come: "cache", "queries",
 * "qrels" (begun: 0 of 0), "runs" (the bytes of every run, ticking while workers read them, ending
 * at their total), "collection" (its bytes while it is indexed, here or on its thread); none of
 * it is kept past the open. Owned: the caller frees *out with rt_workspace_free. */
rt_status rt_workspace_open(rt_workspace **out, const rt_ws_spec *spec, const rt_progress *progress,
                            rt_err *err);

/* Opens the workspace of a JSON file read by rt_wsconfig_read (its spec as the caller left it:
 * flags, tuning), named and with the taxonomy the file gives (taken from c). */
rt_status rt_workspace_open_config(rt_workspace **out, rt_ws_config *c, const rt_progress *progress,
                                   rt_err *err);

/* Reads a workspace JSON file (rt_wsconfig_read: its keys) and opens it with the default tuning.
 * flags: RT_WS_* or 0. */
#define RT_WS_NO_CACHE 1u   /* parse the inputs even when the workspace cache is fresh */
#define RT_WS_DEFER_COLLECTION 2u   /* rt_ws_spec.defer_collection */
#define RT_WS_DEFER_RUNS 4u         /* rt_ws_spec.defer_runs */
rt_status rt_workspace_open_json(rt_workspace **out, const char *path, unsigned flags,
                                 const rt_progress *progress, rt_err *err);

void rt_workspace_free(rt_workspace **ws);

/* The text of query qid, or NULL. Borrowed: valid until rt_workspace_free. */
const char *rt_workspace_query_text(const rt_workspace *ws, uint32_t qid);

/* The passage text of pid: 1 with *text and *len set (borrowed from the collection's mapping, not
 * NUL-terminated, any bytes: sanitise before display; valid until rt_workspace_free); 0 when the
 * workspace has no collection, its collection is still being indexed (a deferred open), or pid is
 * not in it. */
int rt_workspace_passage(const rt_workspace *ws, uint32_t pid, const char **text, size_t *len);

/* The first bytes of the passages of the n pids brought into memory together, before a screen
 * shows them (rt_collection_prefetch): from a cold collection, one disk wait instead of n. */
void rt_workspace_prefetch(const rt_workspace *ws, const uint32_t *pids, size_t n, size_t bytes);

/* Run r evaluated against the base qrels by ev (an evaluator over ws->qrels, ws->qids and ws->pids,
 * e.g. with other measures than the workspace's). Owned: the caller frees it with
 * rt_eval_result_free. */
rt_eval_result *rt_workspace_eval_run(const rt_workspace *ws, const rt_eval *ev, size_t r);

/* The base grade of (qid, pid); returns 0 when unjudged. */
int rt_workspace_grade(const rt_workspace *ws, uint32_t qid, uint32_t pid, int32_t *grade);

/* 1-based rank of pid in run r's ranking of qid, or 0 when absent. */
size_t rt_workspace_rank_of(const rt_workspace *ws, size_t r, uint32_t qid, uint32_t pid);

/* Finds a run by name or 1-based number; (size_t)-1 when none. */
size_t rt_workspace_find_run(const rt_workspace *ws, const char *name);

/* The container's own steps, for the loader (rt_loader.c), on the thread that uses ws. */

/* An empty workspace with the settings of s (name, leakage check, level, journal, annotator) and
 * room for s->nruns runs. Owned: rt_workspace_free. */
rt_workspace *rt_workspace_new(const rt_ws_spec *s);

/* Run run (owned: taken) joins ws with its base evaluation (may be NULL during the open, which
 * evaluates every run once they are in); ws->generation is bumped. Only ever for the spec's runs:
 * at most runs_cap. */
void rt_workspace_add_run(rt_workspace *ws, rt_run *run, rt_eval_result *base);

/* The collection (owned: taken; NULL: none after all) is ws's now; ws->generation is bumped. */
void rt_workspace_set_collection(rt_workspace *ws, rt_collection *c);

/* ws->qlist rebuilt: queries file order, then judged queries, then run-only queries. */
void rt_workspace_list_queries(rt_workspace *ws);

/* Warns (in ws->report) about ids that do not line up between the inputs. */
void rt_workspace_cross_check(rt_workspace *ws);

/* Warns about judged passages the collection lacks (when there is one). */
void rt_workspace_check_judged(rt_workspace *ws);

/* run evaluated against the base qrels with ws->eval. Owned: rt_eval_result_free. */
rt_eval_result *rt_workspace_eval_base(const rt_workspace *ws, const rt_run *run);

/* The index of the measure named as m is (its canonical name) in ws->ms, or (size_t)-1. */
size_t rt_workspace_find_measure(const rt_workspace *ws, const rt_measure *m);

/* Measures ms[0..n) (none of them in ws yet) join ws->ms at its end, with each run's base values
 * of them: extra[r] is run r evaluated against the base qrels with exactly these measures (an
 * evaluator over ws->qrels with ms, e.g. rt_measjob's; borrowed, left to the caller). ws->eval is
 * made again over the longer list, so that a run taken in later is evaluated with every one.
 * RT_EUSAGE, nothing changed, while runs are still being taken in (rt_loader_runs_loading: a run
 * half evaluated has the old width) or when extra does not cover every run. Then rt_live_sync
 * gives the live metrics the new columns. On the workspace's thread. */
rt_status rt_workspace_add_measures(rt_workspace *ws, const rt_measure *ms, size_t n,
                                    rt_eval_result *const *extra, size_t nextra, rt_err *err);

/* What the base evaluation depends on besides the inputs: the measures and the relevance level. */
uint64_t rt_workspace_evals_key(const rt_workspace *ws);

#endif
