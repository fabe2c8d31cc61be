/* progress — the line on standard error that says how far a long load has gone ("loading
 * runs… 1.2 GiB of 3.0 GiB (40%), 310 MiB/s"), drawn over itself with a carriage return; only the
 * command line uses it, before any screen is open. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void human(char *buf, size_t n, double bytes)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4)
        bytes /= 1024, u++;
    snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

static struct {
    double start;        /* when this load began (0: not yet) */
    double phase_start, last;
    char phase[32];
    int shown;           /* a progress line is on the terminal */
} prog;

static void draw(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    (void)ctx;
    double now = mono_s();
    if (!prog.start)
        prog.start = now;
    if (strcmp(prog.phase, phase) != 0) {
        snprintf(prog.phase, sizeof prog.phase, "%s", phase);
        prog.phase_start = now;
        prog.last = 0;
    } else if (now - prog.last < 0.1 && done < total) {
        return;   /* ten updates a second are enough */
    }
    const char *after = getenv("RETRIAGE_PROGRESS_AFTER");   /* seconds; the tests set 0 */
    if (now - prog.start < (after && *after ? atof(after) : 0.5))
        return;   /* a load that takes less than half a second shows nothing */
    prog.last = now;
    char line[200], d[32], t[32], r[32];
    double secs = now - prog.phase_start;
    human(d, sizeof d, (double)done);
    human(t, sizeof t, (double)total);
    human(r, sizeof r, secs > 0.05 ? (double)done / secs : 0);
    if (total)
        snprintf(line, sizeof line, "loading %s… %s of %s (%d%%), %s/s", phase, d, t,
                 (int)(done * 100 / (total ? total : 1)), r);
    else
        snprintf(line, sizeof line, "loading %s…", phase);
    /* Our own carriage return, so written past the stderr filter (the phase is one of ours). */
    fflush(stderr);
    dprintf(2, "\rretriage: %s\033[K", line);
    prog.shown = 1;
}

const rt_progress cli_progress = {draw, NULL};

void cli_progress_clear(void)
{
    if (prog.shown) {
        fflush(stderr);
        dprintf(2, "\r\033[K");   /* erase the progress line: ours, past the stderr filter */
    }
    memset(&prog, 0, sizeof prog);
}
