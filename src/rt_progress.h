/* rt_progress — the one way a loader says how far it has gone: a phase ("collection", "runs",
 * "run", "queries", …) and bytes done of total. The collection, a run, an evaluated run file and a
 * workspace open all report through it, so a caller passes one thing and draws one line. */
#ifndef RT_PROGRESS_H
#define RT_PROGRESS_H

#include <stdint.h>

/* fn is called with ctx, the phase (a static string of the loader's; compare it, do not keep it
 * past the call), bytes done and total (0 when unknown: the phase has begun, nothing is counted).
 * Within a phase done does not decrease. A phase read on the caller's thread that counts ends
 * with done == total (the collection, the workspace's runs); a run file read for rt_run_parse or
 * rt_eval_file reports every few thousand lines and may end short of it; the collection indexed
 * on a thread of its own is shown as its thread has counted it, every 50 ms, until it is done.
 *
 * Threads: fn runs only on the thread that called the function it was passed to (the opener's).
 * A loader that reads on other threads (the collection indexed on its own thread, runs parsed by
 * workers, a run read in halves) has them count into atomics, which the opener's thread reads and
 * reports from; none of them ever calls fn. An rt_progress whose fn only stores into such atomics
 * (rt_loadjobs' collection thread) is how a thread of its own counts: it is then that thread's
 * opener.
 *
 * Passed by pointer, NULL meaning no progress; borrowed for the call it is passed to (a deferred
 * workspace open keeps none of it). */
typedef struct rt_progress {
    void (*fn)(void *ctx, const char *phase, uint64_t done, uint64_t total);
    void *ctx;
} rt_progress;

/* Reports through p, when there is one. */
static inline void rt_progress_report(const rt_progress *p, const char *phase, uint64_t done, uint64_t total)
{
    if (p && p->fn)
        p->fn(p->ctx, phase, done, total);
}

#endif
