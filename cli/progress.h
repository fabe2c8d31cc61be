/* progress — a progress line on standard error for loads the command line waits on. */
#ifndef RT_CLI_PROGRESS_H
#define RT_CLI_PROGRESS_H

#include <stdint.h>

/* Draws "retriage: loading PHASE… DONE of TOTAL (P%), RATE/s" on standard error, over the last
 * such line: nothing in the first half second of a load (RETRIAGE_PROGRESS_AFTER seconds, when
 * set), then at most ten times a second per phase. A progress callback for rt_workspace_open
 * (ctx is unused). Call it only while standard error is a terminal. */
void cli_progress(void *ctx, const char *phase, uint64_t done, uint64_t total);

/* Erases the line cli_progress drew, if any, and starts the next load's clock afresh. */
void cli_progress_clear(void);

#endif
