/* rt_wscache — the workspace cache: the parsed queries' ids, qrels and runs of a workspace kept
 * in one binary file, mapped at the next open instead of parsing gigabytes of text again
 * (DESIGN.md §10). It lives beside the collection index (beside the qrels without a collection),
 * or in ~/.cache/retriage/workspaces/ when that folder cannot be written, and is named by a hash
 * of what the workspace reads (its files' paths, the run names, order and strictness).
 *
 * A cache is used only when it is whole, every section matches its checksum (XXH3, checked at
 * the restore) and every input's stamp still matches (rt_stamp: size, mtime, inode, ctime,
 * sampled content); otherwise the inputs are parsed and the cache written
 * again, atomically (a temporary renamed over it), so a killed writer or a second process opening
 * the same workspace never reads half a file. It holds the strings, arrays and load report the
 * parse produced, nothing derived from them later: the same numbers come out either way. */
#ifndef RT_WSCACHE_H
#define RT_WSCACHE_H

#include <stddef.h>

#include "rt_eval.h"
#include "rt_tuning.h"
#include "rt_qrels.h"
#include "rt_report.h"
#include "rt_run.h"
#include "rt_strtab.h"

/* What a workspace reads, as the cache is keyed and stamped. */
typedef struct rt_wscache_key {
    const char *anchor;              /* the collection (the cache goes beside it), or NULL */
    const char *queries;             /* may be NULL */
    const char *qrels;
    const char *const *runs;
    const char *const *names;        /* NULL, or per run its given name (NULL: none given) */
    size_t nruns;
    int order, strict;
    const rt_tuning *tuning;         /* its cache_min and cache_background_min; NULL: the
                                        defaults. Read by rt_wscache_begin only */
} rt_wscache_key;

typedef struct rt_wscache rt_wscache;

/* Starts caching for k: stamps its inputs before they are read. NULL when the workspace is not
 * cached: an input is not a regular file, or the runs are smaller than rt_tuning.cache_min bytes
 * (default 16 MiB: below that parsing is as fast as mapping). Owned: the caller frees it with
 * rt_wscache_free. */
rt_wscache *rt_wscache_begin(const rt_wscache_key *k);

/* Maps a valid cache and sets *qids, *pids, *qrels and runs[0..nruns) from it (they borrow the
 * mapping: free them before rt_wscache_free). Every section's checksum is checked first, on two
 * threads. Returns 1; 0 when there is none or it is stale or damaged (then nothing is set, and
 * report gets a line saying which input changed, or which section was damaged). */
int rt_wscache_restore(rt_wscache *c, rt_strtab **qids, rt_strtab **pids, rt_qrels **qrels,
                       rt_run **runs, rt_report *report);

/* After a restore: appends the load report lines the parse had produced (from the qrels on),
 * and one naming the cache. */
void rt_wscache_replay(const rt_wscache *c, rt_report *report);

/* How many judged pids the collection lacks, as counted when the cache was written, when the
 * collection has not changed since (1); 0: count them. */
int rt_wscache_judged_missing(const rt_wscache *c, size_t *missing);

/* Records that count for rt_wscache_save. */
void rt_wscache_set_judged_missing(rt_wscache *c, size_t missing);

/* Each run's evaluation against the base qrels, for one set of measures and level (key). */
typedef struct rt_ws_evals {
    uint64_t key;
    size_t nq, nm;
    rt_eval_result *const *base;   /* per run */
} rt_ws_evals;

/* Fills into (just begun by rt_eval_begin, for run r) from the cache when it holds the evals of
 * key for as many queries and measures: then 1, and the caller finishes with rt_eval_end. */
int rt_wscache_base(const rt_wscache *c, uint64_t key, size_t r, rt_eval_result *into);

/* A cache ready to be written: what rt_wscache_save laid out (the header, the stamps, the section
 * table) and the tables, runs, report and evals it reads, borrowed from save's caller. */
typedef struct rt_wscache_job rt_wscache_job;

/* A caller's way of writing a large cache away from the open (the loader's: a child process,
 * rt_loader.c). It starts something that calls rt_wscache_job_write(job) and returns its process
 * id (> 0), or 0 when it could not (then save writes the job in-process). job is valid only during
 * the call: what runs it must be a copy of this process made then (fork), not a thread. */
typedef long (*rt_wscache_runner)(const rt_wscache_job *job, void *ctx);

/* After a parse: writes the cache from what was loaded, with evals (or NULL) and report's lines
 * first..last (the qrels' and runs'), and the first nqids and npids ids of the tables (their
 * counts when the inputs were loaded: ids a journal added since are not the inputs'). Unless an
 * input changed since rt_wscache_begin; a cache that cannot be written anywhere only costs the
 * next open its parse (report says why). A cache of at least rt_tuning.cache_background_min bytes
 * is handed to run(job, run_ctx) when run is not NULL: its process id is returned, and report
 * says the cache is being written by it; else 0, and it was written here. */
long rt_wscache_save(rt_wscache *c, const rt_strtab *qids, uint32_t nqids, const rt_strtab *pids,
                     uint32_t npids, const rt_qrels *qrels, rt_run *const *runs, const rt_ws_evals *evals,
                     rt_report *report, size_t first, size_t last, rt_wscache_runner run, void *run_ctx);

/* In the process a runner started: every input stamped again, its content sample too (the open
 * only looked at sizes and times, so that the sampling's cost falls here; tests/bench/PERF.md),
 * and when none changed, the cache written beside the anchor, else in the cache folder, atomically.
 * 1 when it was written; 0 when an input changed or it could not be written (nothing says why:
 * the process has no report). Touches only job, the rt_wscache it was made from, the files it
 * opens itself, streams it makes (fopencookie) and malloc. */
int rt_wscache_job_write(const rt_wscache_job *job);

/* The cache file used or written, or NULL. Borrowed: valid until the next rt_wscache_save (which
 * replaces it when it writes the cache here) or rt_wscache_free. */
const char *rt_wscache_path(const rt_wscache *c);

/* The restored file's mapping (*len bytes), or NULL when nothing was restored. Borrowed: valid
 * until rt_wscache_free. */
const void *rt_wscache_map(const rt_wscache *c, size_t *len);

/* Unmaps the cache (after everything restored from it was freed). */
void rt_wscache_free(rt_wscache **c);

#endif
