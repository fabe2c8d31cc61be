/* rt_measjob — measures asked for after the open (the workbench's :measure NAME): each run
 * evaluated with them against the base qrels on worker threads (one per core, behind the thread
 * that takes keys), then joined to the workspace (rt_workspace_add_measures) on its own thread,
 * where the live metrics take them up (rt_live_sync) and keep them current like the others. */
#ifndef RT_MEASJOB_H
#define RT_MEASJOB_H

#include <stddef.h>

#include "rt_err.h"
#include "rt_measure.h"
#include "rt_workspace.h"

typedef struct rt_measjob rt_measjob;

/* The measures of list (parsed as `retriage eval -m` parses it: rt_measure_list_parse, presets
 * included) into *ms (owned: free) and *n, in the list's order, and in *missing how many of them
 * ws lacks. RT_EUSAGE with the parser's message (what RT_ERR_UNKNOWN_MEASURE for a name it does
 * not know). */
rt_status rt_measjob_parse(const rt_workspace *ws, const char *list, rt_measure **ms, size_t *n,
                           size_t *missing, rt_err *err);

/* Starts evaluating every run of ws with ms[0..n) (measures ws lacks, each once; copied). RT_EUSAGE
 * while runs are still being read (wait for them first) or when n is 0. The threads read the runs, the base
 * qrels and an evaluator of their own: nothing the workspace's thread changes meanwhile (a run in
 * never changes, the array of runs never moves). Owned: rt_measjob_finish or rt_measjob_cancel. */
rt_status rt_measjob_start(rt_measjob **out, const rt_workspace *ws, const rt_measure *ms, size_t n,
                           rt_err *err);

/* The runs evaluated so far and of how many; 1 when all are (finish will not wait). */
int rt_measjob_progress(const rt_measjob *j, size_t *done, size_t *total);

/* Waits up to ms milliseconds (negative: for ever) for every run to be evaluated; returns 1 when
 * they are. */
int rt_measjob_wait(const rt_measjob *j, int ms);

/* The measures being computed. Borrowed: valid until finish or cancel. */
const rt_measure *rt_measjob_measures(const rt_measjob *j, size_t *n);

/* Waits for the threads, joins the measures to ws (rt_workspace_add_measures: the caller then
 * calls rt_live_sync on every live state over ws) and frees *j (set to NULL), whatever the status. */
rt_status rt_measjob_finish(rt_measjob **j, rt_workspace *ws, rt_err *err);

/* Stops the threads (each at its next query), waits for them and frees *j; nothing joins ws. */
void rt_measjob_cancel(rt_measjob **j);

#endif
