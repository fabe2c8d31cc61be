/* progress — a progress line on standard error for loads the command line waits on. */
#ifndef RT_CLI_PROGRESS_H
#define RT_CLI_PROGRESS_H

#include "rt_progress.h"

/* Draws "retriage: loading PHASE… DONE of TOTAL (P%), RATE/s" on standard error, over the last
 * such line: nothing in the first half second of a load (RETRIAGE_PROGRESS_AFTER seconds, when
 * set), then at most ten times a second per phase. The progress to pass to a load
 * (rt_workspace_open, rt_run_opts.progress); only while standard error is a terminal. */
extern const rt_progress cli_progress;

/* Erases the line cli_progress drew, if any, and starts the next load's clock afresh. */
void cli_progress_clear(void);

#endif
