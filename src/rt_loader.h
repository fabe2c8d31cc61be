/* rt_loader — what is still loading into a workspace after its open returned (the workbench's
 * deferred open: rt_ws_spec.defer_runs, defer_collection), and the only way it comes in. The
 * loader owns every loading thread (the run workers, the collection's thread, the warm-up), the
 * workspace cache's writer process (forked only when none of those threads runs, its fork safety
 * in rt_loader.c) and the order of the report's lines; its state is private. Whoever uses the workspace polls it for
 * events (a run in, the collection in, a failure, the end) on the workspace's thread, or waits for
 * what it needs; the workspace grows only then, on that thread. The open itself is
 * rt_workspace_open (rt_workspace.h). */
#ifndef RT_LOADER_H
#define RT_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_workspace.h"

typedef struct rt_loader rt_loader;

typedef enum rt_load_kind {
    RT_LOAD_RUN_READY,         /* run (its index in ws->runs) is in: ws->nruns, ws->nq grew */
    RT_LOAD_RUNS_DONE,         /* every deferred run is in (or was left out): the cross-check done */
    RT_LOAD_COLLECTION_READY,  /* the collection is in: passages show */
    RT_LOAD_FAILED,            /* a deferred run (left out, the others still come) or the collection
                                  (the workspace goes on without one) could not be read */
    RT_LOAD_DONE               /* nothing is loading any more; the last event */
} rt_load_kind;

typedef struct rt_load_event {
    rt_load_kind kind;
    size_t run;                /* RUN_READY: the run's index in ws->runs */
    int collection;            /* FAILED: 1 the collection, 0 a run */
    rt_err err;                /* FAILED: why (the report says it too) */
} rt_load_event;

/* The next event: one that came in meanwhile (a wait, below, queues them), or what taking in a
 * step at a time brings within about budget_ms milliseconds (0: one step, a few milliseconds at
 * most, never a wait: the workbench handles a key between two). 1 with *ev set; 0 when nothing
 * came in within the budget (or nothing is loading). Each event is returned once. */
int rt_loader_poll(rt_workspace *ws, int budget_ms, rt_load_event *ev);

#define RT_LOAD_RUNS 1u        /* rt_loader_wait: the runs */
#define RT_LOAD_ALL 3u         /* rt_loader_wait: the runs and the collection */

/* Everything will be waited for (a script, a command): the collection's thread no longer yields
 * to the runs but works beside them, so that both cores stay busy to the end rather than one
 * finishing the index alone once the runs are in. rt_loader_wait with RT_LOAD_ALL does it too; a
 * caller that first waits for the runs alone calls it before. */
void rt_loader_hurry(rt_workspace *ws);

/* Takes in, now, every deferred run (RT_LOAD_RUNS), and the collection too (RT_LOAD_ALL), waiting
 * for their threads; a run that cannot be read is left out and the others still come. Their events
 * are queued for rt_loader_poll. Returns 1 when something came in, 0 when nothing was loading,
 * -1 when something could not be read (err: the first failure; the report says each). */
int rt_loader_wait(rt_workspace *ws, unsigned what, rt_err *err);

/* Events queued (by a wait, or a step that brought several): returned by the next polls without
 * taking anything in. */
size_t rt_loader_queued(const rt_workspace *ws);

/* 1 while deferred runs are still being read, with how many are in (ws->nruns, plus those left
 * out) of how many (in and total may be NULL); else 0. */
int rt_loader_runs_loading(const rt_workspace *ws, size_t *in, size_t *total);

/* 1 while a deferred collection is being indexed, with the bytes read of its total (either may
 * be NULL); else 0. */
int rt_loader_collection_loading(const rt_workspace *ws, uint64_t *done, uint64_t *total);

/* 1 while a run is half taken in (a step per poll): poll again at once rather than after a pause. */
int rt_loader_busy(const rt_workspace *ws);

/* Deferred runs that could not be read (left out), and whether the collection could not be. */
size_t rt_loader_runs_failed(const rt_workspace *ws);
int rt_loader_collection_failed(const rt_workspace *ws);

/* The process is about to end with runs still being read or a collection still being indexed:
 * their threads are told to stop, detached and left to the exit, never waited for (a run read from
 * a pipe may never end); rt_workspace_free then frees the rest. Nothing is written for them. */
void rt_loader_abandon(rt_workspace *ws);

/* After the first screen of a reopen: on a low-priority thread (rt_warm), maps in the collection
 * index and the workspace cache, then checks every run's rankings (rt_run_check_all) and reads
 * the collection into the page cache, so that keys which read every ranking or show passages do
 * not fault them in one page at a time. Once per workspace; nothing while deferred runs are still
 * being taken in (ask again after) or when neither the index nor the cache is mapped; the thread
 * reads a copy of the run and collection pointers as they were, never the workspace; stopped by
 * rt_workspace_free. */
void rt_loader_warm(rt_workspace *ws);

/* For rt_workspace_free: every loading thread of ws (the warm-up first) stopped and joined, and
 * the loader freed. */
void rt_loader_free(rt_workspace *ws);

/* For the open (rt_loader.c): ws's loader, with nothing loading. */
void rt_loader_attach(rt_workspace *ws);

#endif
