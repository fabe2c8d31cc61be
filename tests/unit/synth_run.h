/* synth_run.h — a run of 20 queries × 1,000 decimal pids (20,000 lines) for the unit tests that
 * need one large enough to be counted while it is read (a scan counts its bytes every 8,192 lines,
 * and the last 3,616 lines of such a file are never counted before its end). seed varies the
 * pids and the tag. Owned: the caller frees it. */
#ifndef RT_SYNTH_RUN_H
#define RT_SYNTH_RUN_H

#include <stdio.h>
#include <stdlib.h>

static inline char *synth_run(int seed)
{
    size_t cap = 1 << 20, len = 0;
    char *t = malloc(cap);
    for (int q = 0; q < 20; q++)
        for (int i = 0; i < 1000; i++) {
            if (cap - len < 100)
                t = realloc(t, cap *= 2);
            len += (size_t)snprintf(t + len, cap - len, "q%d Q0 %d %d %.4f sys%d\n", q,
                                    (q * 7919 + i * 104729 + seed * 31) % 50000, i + 1,
                                    1000.0 - i, seed);
        }
    return t;
}

#endif
