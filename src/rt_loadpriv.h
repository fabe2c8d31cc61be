/* rt_loadpriv — the loader's own state, shared by its two files only: rt_loader.c (what a deferred
 * open left, taken in by polls and waits) and rt_wsopen.c (the open itself). Nobody else includes
 * it (but tests/unit/test_wswriter, which saves a cache in a state no open reaches): the rest of
 * the program sees rt_loader.h. */
#ifndef RT_LOADPRIV_H
#define RT_LOADPRIV_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_loader.h"
#include "rt_loadjobs.h"
#include "rt_workspace.h"

/* The report's order (rt_report_set_key): a phase, and in the runs' phase the run's number, so
 * that the lines of what a deferred open takes in later land where a waiting open puts them. The
 * cache keeps the lines of the inputs' and the runs' phases (replayed by a reopen). */
enum { PH_OPEN, PH_INPUTS, PH_RUNS, PH_COLLECTION, PH_CROSS, PH_JUDGED, PH_EXTRAS, PH_AFTER };
#define KEY(phase, input) ((uint32_t)(phase) << 24 | (uint32_t)(input))

/* A collection still being indexed when the open returned (rt_ws_spec.defer_collection): its
 * thread, and what the open would have done with it, done by the loader instead: the judged-pid
 * check, and the workspace cache with the evals of key ekey (the cache waits for the check, whose
 * count it keeps). The cache holds the ids as the open left them, the first nqids and npids: the
 * journals, replayed meanwhile, may have added some. */
typedef struct rt_ws_pending {
    rt_colljob *job;
    pthread_t th;
    uint64_t ekey;
    uint32_t nqids, npids;
} rt_ws_pending;

/* The runs still being parsed when the open returned (rt_ws_spec.defer_runs): the first is in,
 * the workers go on with the others, and rt_loader_poll takes each in, in order, on the thread
 * that uses the workspace (ids are interned there, as a sequential open does). What the open would
 * have done once every run was in is done then: the cross-check, and the judged-pid check and the
 * workspace cache (or, with a collection still being indexed, its pending record updated so that
 * they follow it). Report lines go where a waiting open puts them, by their keys. */
typedef struct rt_ws_runs {
    rt_runsjob *j;
    rt_ws_spec s;              /* the job's own: copies of the paths and names, order, strictness */
    uint64_t ekey;
    size_t next;               /* the next run of s to take in (ws->nruns fewer when one failed) */
    rt_run *taking;            /* run next, being interned a step per poll (not yet in ws) */
    rt_eval_result *base;      /* then its evaluation, begun (NULL: still interning) */
    uint32_t evaluated;        /* the judged queries evaluated so far */
} rt_ws_runs;

/* What the warm-up thread reads: the runs and the collection as they were when it started,
 * copied, so that nothing the workspace's thread changes afterwards (a collection taken in, the
 * report, the ids) is read by it. */
typedef struct warm_snapshot {
    const rt_run **runs;
    size_t nruns;
    const rt_collection *collection;
} warm_snapshot;

/* What is still loading into a workspace (ws->loader), and the events not yet polled. Only the
 * workspace's thread touches it; the threads it owns write only their jobs (rt_loadjobs). */
struct rt_loader {
    rt_ws_pending *coll;       /* the collection still being indexed, or NULL */
    rt_ws_runs *runs;          /* the runs still being parsed, or NULL: ws->nruns counts those in */
    size_t runs_failed;        /* deferred runs that could not be read (left out; the others came) */
    int collection_failed;     /* a deferred collection could not be opened (the report says why) */
    rt_load_event *q;          /* events q[said..nq) not yet returned by rt_loader_poll */
    size_t nq, said, cap;
    int done_said;             /* RT_LOAD_DONE was queued */
    struct rt_warm *warm;      /* rt_loader_warm's thread, or NULL */
    warm_snapshot *snap;       /* what that thread reads */
    int warm_asked;            /* rt_loader_warm was called: later calls do nothing */
    pid_t writer;              /* the workspace cache's writer process (rt_loader.c), or 0 */
};

/* Run r of s taken into ws (ws->nruns must be r, or fewer after a deferred run that failed):
 * fetched from j (or parsed here when j is NULL), then interned on this thread, so that every id
 * is what a sequential open gives; its report lines keyed as run r's. */
rt_status rt_loader_runs_take(rt_workspace *ws, const rt_ws_spec *s, rt_runsjob *j, size_t r, uint64_t before,
                              uint64_t total, const rt_progress *progress, rt_err *err);

/* Every run of s loaded into ws, in order: on threads when it pays, else one by one. Stops at the
 * first run (in order) that fails. */
rt_status rt_loader_load_runs(rt_workspace *ws, const rt_ws_spec *s, const rt_progress *progress, rt_err *err);

/* Starts parsing the runs of s on workers (ws->loader->runs set; the first is taken in by the
 * open, which then returns without waiting for the others). Nothing when the runs would not be
 * read on threads. count: the workers count the bytes they read (the open shows progress). */
void rt_loader_runs_defer(rt_workspace *ws, const rt_ws_spec *s, int count);

/* The lines of from appended to to, kinds kept (with to's key). */
void rt_loader_append_report(rt_report *to, const rt_report *from);

/* The workspace cache written: the first nqids and npids ids, qrels, runs, the evals of key ekey
 * and the report lines of the inputs' and runs' keys; a built collection index goes to the
 * cache's writer process. */
void rt_loader_save_cache(rt_workspace *ws, uint32_t nqids, uint32_t npids, uint64_t ekey);

#endif
