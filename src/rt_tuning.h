/* rt_tuning — the numbers that tune loading (when to use threads, how big a step, when to cache)
 * and the holds the tests use to catch a thread mid-way. The program reads them once from the
 * environment (cli/tuning.c, RETRIAGE_*: see the man page); src/ reads no environment variable
 * for them. A spec carries them (rt_ws_spec.tuning, rt_run_opts.tuning); NULL means the
 * defaults, and a test sets the struct. */
#ifndef RT_TUNING_H
#define RT_TUNING_H

#include <stddef.h>
#include <stdint.h>

typedef struct rt_tuning {
    uint64_t parallel_min;          /* bytes from which a run file is read on two threads, a
                                       workspace's runs on one per core and its collection on a
                                       thread of its own (tests/bench/PERF.md) */
    size_t settle_step;             /* pids of a deferred run interned per step the workbench
                                       takes between two keys */
    uint64_t cache_min;             /* bytes the runs must add up to for a workspace cache */
    uint64_t cache_background_min;  /* bytes from which the cache is written by a child process */
    /* For tests: a path whose existence releases a thread held before its work (NULL: no hold).
     * Borrowed: must outlive every workspace opened with this tuning. */
    const char *collection_wait;    /* the collection's thread, before it reads */
    const char *cache_writer_wait;  /* the background cache writer, before it writes */
    const char *measure_wait;       /* the threads of a measure asked for later (rt_measjob) */
    /* For tests: the workbench's contrasts computed ahead stop after this many queries of each
     * kind, as if a key had asked for them first (0: no limit). */
    size_t contrast_ahead_max;
} rt_tuning;

#define RT_TUNING_DEFAULTS {.parallel_min = 64ULL << 20, .settle_step = (size_t)1 << 16, \
                            .cache_min = 16ULL << 20, .cache_background_min = 64ULL << 20}

/* t, or the defaults when t is NULL. Borrowed: t itself, or static storage. */
static inline const rt_tuning *rt_tuning_or_default(const rt_tuning *t)
{
    static const rt_tuning defaults = RT_TUNING_DEFAULTS;
    return t ? t : &defaults;
}

#endif
