/* rt_runstage — the staged way a run is loaded, behind the workspace loader (rt_loader,
 * rt_loadjobs): parsed on any thread without touching a shared table, then interned on the
 * workspace's thread in the file's order, whole or in steps. Everyone else loads a run with
 * rt_run_load (rt_run.h), which is these stages back to back. */
#ifndef RT_RUNSTAGE_H
#define RT_RUNSTAGE_H

#include "rt_run.h"

/* rt_run_load in two steps, for loading runs on several threads: rt_run_parse reads path into a
 * run whose ids are not yet interned (it touches no shared table: any thread may call it), and
 * rt_run_intern then interns its qids and pids in the file's order (the ids rt_run_load would
 * give, when runs are interned in the order they would have been loaded) and adds its lines to
 * report. A run must be interned before anything else is asked of it. */
rt_status rt_run_parse(rt_run **out, const char *path, const rt_run_opts *opts, rt_err *err);
/* tick (may be NULL) is called with tick_ctx every few hundred thousand pids: the first run of a
 * large workspace adds most of its pids, which takes a while (a progress line keeps moving). */
void rt_run_intern(rt_run *run, rt_strtab *qids, rt_strtab *pids, const char *path, rt_report *report,
                   void (*tick)(void *ctx), void *tick_ctx);

/* rt_run_parse reading a large file on two threads (rt_run_scan_halves): a regular line-based
 * file of at least min bytes, split at the line after its middle, whose queries' lines are
 * grouped (else each half keeps its lines and they are put together after). The same run,
 * report lines and errors as rt_run_parse, which it falls back to (a query in both halves apart
 * from the one straddling the split, a format the halves cannot read, an input error, whose
 * message then has the whole file's line numbers). opts->progress_done, if set, counts the bytes
 * read (of the file, as rt_run_parse counts them, each once though it may be read twice); then
 * opts->progress is not reported to (a worker's read is shown by its opener, from the counter). */
rt_status rt_run_parse_halves(rt_run **out, const char *path, const rt_run_opts *opts, uint64_t min,
                              rt_err *err);
/* rt_run_intern in steps, for a thread that must stay responsive meanwhile (the workbench taking
 * a run in while keys come): begin interns the qids, each step at most budget more pids (in the
 * file's order: the same ids), returning 1 once every pid is; finish adds the report lines and
 * frees the texts. Until finish, nothing but the next step or rt_run_free may be asked of it. */
void rt_run_intern_begin(rt_run *run, rt_strtab *qids, rt_strtab *pids);
int rt_run_intern_step(rt_run *run, size_t budget);
void rt_run_intern_finish(rt_run *run, const char *path, rt_report *report);

#endif
