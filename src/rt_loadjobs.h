/* rt_loadjobs — the loader's threads: the collection indexed on a thread of its own, and the run
 * parsers (one per core). Only rt_loader.c uses this header: the jobs' state is shared between the
 * threads and the loader, which alone decides when to take what they made. */
#ifndef RT_LOADJOBS_H
#define RT_LOADJOBS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "rt_collection.h"
#include "rt_progress.h"
#include "rt_report.h"
#include "rt_run.h"
#include "rt_workspace.h"

/* A file's size in bytes; 0 for "-", NULL or a file that cannot be stat'ed. */
uint64_t rt_load_file_size(const char *path);

/* The collection opened on a thread of its own while the runs are parsed: a first open indexes
 * it, a pass over gigabytes that needs nothing from the runs. Its report lines are kept apart and
 * appended after the runs', where a sequential open puts them. Until finished is set the thread
 * owns c, report, st and err; after, the loader does. */
typedef struct rt_colljob {
    char *path;
    char *hold_path;   /* rt_tuning.collection_wait, copied: the thread waits for it first */
    rt_collection *c;
    rt_report *report;
    rt_status st;
    rt_err err;
    _Atomic uint64_t done, total;   /* its progress, shown by the main thread once the runs are in */
    _Atomic int finished;
    int behind;        /* deferred: it yields the processors and the disk to the runs */
    int save;          /* no workspace cache, whose writer process would write the index: it does */
    _Atomic long tid;  /* behind: its thread id, to hurry it when waited for */
    _Atomic int hurry; /* waited for: back to the normal classes */
} rt_colljob;

/* Whether the collection at path is large enough to be opened on its own thread: its size (a
 * compressed one's four times) of at least parallel_min bytes. */
int rt_colljob_threaded(const char *path, uint64_t parallel_min);

/* Starts the thread that opens the collection of s (job and th set), and writes its index when
 * save; 0 when it could not be made. */
int rt_colljob_start(rt_colljob **job, pthread_t *th, const rt_ws_spec *s, int save);

/* Its thread back to the normal classes: something waits on it now. */
void rt_colljob_hurry(rt_colljob *j);

/* Frees a job whose thread has ended (joined). */
void rt_colljob_free(rt_colljob **jp);

/* The runs parsed on worker threads (one per core) and interned on the opening thread in the
 * workspace's order, so that every id is what a sequential open gives. Every field but read is
 * guarded by mu; parsed[r], st[r] and err[r] belong to the worker that took r until done[r]. */
typedef struct rt_runsjob {
    const rt_ws_spec *s;
    uint64_t parallel_min;   /* s's rt_tuning.parallel_min: a run this large is read in halves */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next;       /* the next run a worker takes */
    size_t interned;   /* runs interned so far */
    int stop;          /* a run failed: no more are taken */
    rt_run **parsed;
    rt_status *st;
    rt_err *err;
    unsigned char *done;
    int count;                /* the workers count the bytes they read into read */
    _Atomic uint64_t read;
    pthread_t th[8];
    size_t started;
    int hold;          /* one worker at a time until the first run is interned (a deferred open's
                          first screen waits for it: it is read on two threads, rt_run_parse_halves,
                          then interned while one worker reads the next) */
    size_t busy;       /* workers parsing a run */
    int go_on;         /* a run that fails does not stop the others (a deferred open's, once its
                          first screen is up: the workbench goes on without that run) */
} rt_runsjob;

/* How many threads parse runs: the cores, at most one per run; 0 for a workspace whose runs
 * are below rt_tuning.parallel_min bytes (or of one run), read on the opening thread. */
size_t rt_runsjob_threads(const rt_ws_spec *s);

/* Starts the workers that parse the runs of s (which must outlive them), or returns NULL when
 * the runs are read one by one on the opening thread (no threads, or none could be made).
 * count: the workers count the bytes they read, for a progress line; hold: rt_runsjob.hold.
 * Owned: the caller ends it with rt_runsjob_finish (or rt_runsjob_abandon). */
rt_runsjob *rt_runsjob_start(const rt_ws_spec *s, int count, int hold);

/* Stops the workers, joins them and frees the job with every run parsed and not taken. */
void rt_runsjob_finish(rt_runsjob **jp);

/* Stops the workers and detaches them, never waiting (a run read from a pipe may never end): the
 * job and what it read go with the process. */
void rt_runsjob_abandon(rt_runsjob **jp);

/* Whether run r has been parsed by a worker (it can be taken without waiting). */
int rt_runsjob_ready(rt_runsjob *j, size_t r);

/* Run r of s, parsed: from a worker of j, waiting for it (with progress, ticking ten times a
 * second from the workers' counter), or parsed here when j is NULL. before and total: the bytes of
 * the runs before r and of all, for progress (phase "runs", reported on this thread only).
 * Owned: *out goes to the caller. */
rt_status rt_runsjob_fetch(const rt_ws_spec *s, rt_runsjob *j, size_t r, uint64_t before, uint64_t total,
                           const rt_progress *progress, rt_run **out, rt_err *err);

/* Run r is in the workspace (st RT_OK) or failed: the workers are told (the next may go on).
 * Nothing for j NULL. */
void rt_runsjob_taken(rt_runsjob *j, size_t r, rt_status st);

/* While the opening thread interns a run: what the workers have read meanwhile (read), shown
 * through to as the phase "runs" (rt_run_intern's tick, on the opening thread). */
typedef struct rt_runs_tick {
    const rt_progress *to;
    _Atomic uint64_t *read;
    uint64_t total;
} rt_runs_tick;

void rt_runs_tick_show(void *ctx);

#endif
