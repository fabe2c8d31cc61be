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
#include "rt_qrels.h"
#include "rt_queries.h"
#include "rt_report.h"
#include "rt_run.h"
#include "rt_strtab.h"
#include "rt_taxonomy.h"

/* Where the leakage check finds its training queries and vectors (see rt_leakage). */
typedef struct rt_ws_leak {
    char *train_queries;       /* NULL: no leakage check configured */
    char *train_emb, *test_emb;/* both or neither; neither: the built-in lexical embedder */
    char *queries_path;        /* the workspace's queries file, for messages */
    char *index;               /* a Faiss factory string, NULL: exact search */
    double threshold;          /* NAN: the embedder's default */
    size_t k, dim;             /* 0: defaults */
} rt_ws_leak;

/* What to load. Paths are used as given (the JSON loader resolves them against the file). */
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
                                  open returns; rt_workspace_settle takes it in */
    int defer_runs;            /* the workbench: runs read on threads (rt_ws_spec.nruns of at least
                                  two, together at least RETRIAGE_PARALLEL_MIN bytes) are taken in
                                  one by one: the open returns once the first is in, and
                                  rt_workspace_settle takes each of the others in */
} rt_ws_spec;

typedef struct rt_ws_run {
    rt_run *run;
    rt_eval_result *base;      /* measures of the run against the base qrels */
} rt_ws_run;

typedef struct rt_workspace {
    char *path;                /* the JSON file, or NULL for an implicit workspace */
    char *name;
    rt_strtab *qids, *pids;
    rt_queries *queries;       /* NULL when none was given */
    rt_collection *collection; /* NULL when none was given */
    rt_qrels *qrels;
    rt_ws_run *runs;
    size_t nruns;
    rt_measure *ms;
    size_t nm;
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
    struct rt_warm *warm;      /* rt_workspace_warm's thread, or NULL */
    struct rt_ws_pending *pending; /* the collection still being indexed (defer_collection), or
                                  NULL; collection is NULL meanwhile */
    int collection_failed;     /* a deferred collection could not be opened (the report says why) */
    struct rt_ws_runs *runs_pending; /* the runs still being parsed (defer_runs), or NULL: nruns
                                  counts those taken in so far */
    int runs_failed;           /* deferred runs that could not be read (left out; the others came) */
    int warm_asked;            /* rt_workspace_warm was called: later calls do nothing */
} rt_workspace;

/* Loading progress: a phase name and bytes done of total (total 0 when unknown). */
typedef void (*rt_ws_progress_fn)(void *ctx, const char *phase, uint64_t done, uint64_t total);

rt_status rt_workspace_open(rt_workspace **out, const rt_ws_spec *spec,
                            rt_ws_progress_fn progress, void *ctx, rt_err *err);

/* Reads a workspace JSON file and opens it. Keys: name, queries, collection, qrels, runs (array
 * of paths or of {"name", "path"}), measures, level, graded, order ("score"|"file"), strict,
 * journal_dir, annotator, taxonomy (see rt_taxonomy_from_json), leakage ({"train_queries",
 * "train_embeddings", "test_embeddings", "threshold", "k", "index", "dim"}), facets (a TSV of
 * query facets, rt_facets), dbqa (an NLPCC DBQA file instead of queries, collection and qrels;
 * the runs are then its score files), answers (the queries' human answers, rt_answers; DuReader's
 * JSON lines also give the facets question_type and fact_or_opinion when "facets" is absent).
 * Paths are relative to the file's folder. flags: RT_WS_* or 0. */
#define RT_WS_NO_CACHE 1u   /* parse the inputs even when the workspace cache is fresh */
#define RT_WS_DEFER_COLLECTION 2u   /* rt_ws_spec.defer_collection */
#define RT_WS_DEFER_RUNS 4u         /* rt_ws_spec.defer_runs */
rt_status rt_workspace_open_json(rt_workspace **out, const char *path, unsigned flags,
                                 rt_ws_progress_fn progress, void *ctx, rt_err *err);

void rt_workspace_free(rt_workspace **ws);

/* What a deferred open left, taken into ws. Deferred runs (rt_ws_spec.defer_runs) first, in
 * order: each is interned, evaluated and counted in ws->nruns (a run's queries join ws->qlist; a
 * live state sees the new runs after rt_live_sync); after the last, the cross-check. Then a
 * deferred collection (rt_ws_spec.defer_collection), once indexed: ws->collection is set, the
 * judged passages it lacks are reported, and the workspace cache (with the ids as they were when
 * the last run was in) and the index are written (by the cache's writer process) as a waiting
 * open would have. With wait 1, waits for everything; with RT_SETTLE_RUNS, for every run only; with
 * 0, takes a step of one run (rt_workspace_runs_busy until its last step), or the collection,
 * only when it is ready. Returns 1 when something was taken now, 0 when nothing was (none
 * pending, not ready, or a step that did not finish a run), -1 when a run (counted in ws->runs_failed: it is left out, the others
 * still come) or
 * the collection (ws->collection_failed: ws goes on without one) could not be read; err says
 * why, the report too, and no cache is written after a run failed. On the thread that uses ws. */
int rt_workspace_settle(rt_workspace *ws, int wait, rt_err *err);
#define RT_SETTLE_RUNS 2   /* wait: for the runs only; a collection is taken only when done */

/* The process is about to end with runs still being read or a collection still being indexed:
 * their threads are told to stop, detached and left to the exit, never waited for (a run read from
 * a pipe may never end); rt_workspace_free then frees the rest. Nothing is written for them. */
void rt_workspace_abandon(rt_workspace *ws);

/* 1 while deferred runs (rt_ws_spec.defer_runs) are still being read, with how many are in
 * (ws->nruns) of how many; else 0. */
int rt_workspace_runs_loading(const rt_workspace *ws, size_t *in, size_t *total);

/* 1 while a read run is being taken in a step per rt_workspace_settle call that does not wait
 * (a few milliseconds each, so that keys are handled between them): call it again soon. */
int rt_workspace_runs_busy(const rt_workspace *ws);

/* 1 while a deferred collection is being indexed, with the bytes read of its total; else 0. */
int rt_workspace_collection_loading(const rt_workspace *ws, uint64_t *done, uint64_t *total);

/* The text of query qid, or NULL. Borrowed: valid until rt_workspace_free. */
const char *rt_workspace_query_text(const rt_workspace *ws, uint32_t qid);

/* The passage text of pid: 1 with *text and *len set (borrowed from the collection's mapping, not
 * NUL-terminated, any bytes: sanitise before display; valid until rt_workspace_free); 0 when the
 * workspace has no collection, its collection is still being indexed (a deferred open), or pid is
 * not in it. */
int rt_workspace_passage(const rt_workspace *ws, uint32_t pid, const char **text, size_t *len);

/* After the first screen of a reopen: on a low-priority thread (rt_warm), maps in the collection
 * index and the workspace cache, then checks every run's rankings (rt_run_check_all) and reads
 * the collection into the page cache, so that keys which read every ranking or show passages do
 * not fault them in one page at a time. Once per workspace; nothing while deferred runs are still
 * being taken in (ask again after) or when neither the index nor the cache is mapped; stopped by
 * rt_workspace_free. */
void rt_workspace_warm(rt_workspace *ws);

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

#endif
