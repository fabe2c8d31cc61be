/* rt_runscan_impl — what the run scanner's files share, not an interface for anyone else: the
 * state of one scan, a hit waiting for its query's ranking, and the calls between the driver
 * (rt_runscan.c), the line scanner (rt_runlines.c), the JSON scanner (rt_runjson.c) and the
 * ranking (rt_runrank.c). */
#ifndef RT_RUNSCAN_IMPL_H
#define RT_RUNSCAN_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_num.h"
#include "rt_runscan.h"
#include "rt_strtab.h"

/* A scan's status when a query's lines turn out not to be contiguous: the driver reads the file
 * again, gathering every line before ranking (rt_run_scan). */
#define RESTART ((rt_status)100)

typedef struct pending {
    size_t pid_off;      /* into the arena; in a decimal block (scan.dec), the pid's value */
    uint32_t pid_len;
    uint32_t qslot;      /* gather mode: the query's scan-local id */
    double score;
    uint64_t hash;
    size_t line;
} pending;

typedef struct scan {
    const char *path;
    rt_run_opts opts;
    rt_run_format fmt;
    int tsv_cols;            /* 3 or 4 once known */
    rt_run_query_fn fn;
    void *ctx;
    rt_run_info *info;
    int gather;              /* collect everything, rt_runscan_emit at the end */
    uint64_t start, end;     /* the part of the file to read (0, 0: all of it) */

    char *qid;               /* current block's qid */
    size_t qid_len, qid_cap;
    int open;                /* a block has lines not yet emitted */
    int unterminated;        /* the line at hand is the last and has no line end */
    /* Reading halves (rt_run_scan_halves): the first half holds its last block back, the second
     * its first, p[0..held_np) with pids in arena[0..held_alen), for the query may straddle. */
    int hold_first, hold_last, held;
    size_t held_np, held_alen;
    char *held_qid;
    size_t held_qid_len;
    pending *p;
    size_t np, pcap;
    char *arena;
    size_t alen, acap;
    rt_strtab *seen;         /* qids whose block has been emitted (stream) or seen (gather) */
    /* The block at hand keeps its pids as values (opts.values; every pid so far a decimal):
     * pending.pid_off is the value, nothing is in the arena and hash is 0. held_dec: the same
     * for the held block. tie_dec: the block being ranked is such a block. */
    int dec, held_dec, tie_dec;
    uint32_t *vals;          /* a decimal block's values in rank order, handed to opts.values */
    size_t vcap;
    uint64_t *vset;          /* duplicate detection in a decimal block (emit_values) */
    size_t vset_cap;
    uint32_t vstamp;

    rt_hit *hits;            /* the ranked block handed to fn */
    size_t hcap;
    uint64_t *set;           /* duplicate detection (rt_runscan_emit) */
    size_t set_cap;
    struct rank_key *keys;   /* ranking: 2 per hit (the radix sort's second half) */
    size_t kcap;
} scan;

/* ---- ranking (rt_runrank.c) ---------------------------------------------------------------- */

/* Ranks pending entries p[0..n) of query qid, drops later copies of a pid (under strict, an
 * error) and hands the hits to the callback, all in one pass over the ranking. */
rt_status rt_runscan_emit(scan *s, const char *qid, size_t qid_len, const pending *p, size_t n, rt_err *err);

/* Gives the decimal block's entries s->p[from..to) their pids' texts in the arena and their
 * hashes: the block as the text path would have read it. */
void rt_runscan_spell_entries(scan *s, size_t from, size_t to);

/* Emits the current block (the lines of one query since the last), or holds it when it is the
 * first of a part that may continue a query of the part before (see rt_run_scan_halves). */
rt_status rt_runscan_flush(scan *s, rt_err *err);

/* ---- reading (rt_runlines.c, rt_runjson.c) ------------------------------------------------- */

/* Adds one hit of query qid after checking both ids (RT_EINPUT naming s->path:line when one is
 * bad); RESTART when qid's block was already emitted (the lines are not grouped by query). */
rt_status rt_runscan_add_hit(scan *s, const char *qid, size_t ql, const char *pid, size_t pl,
                             double score, size_t line, rt_err *err);

/* Reads the TREC or TSV lines of s's part of the file (all of it when start and end are 0). */
rt_status rt_runscan_lines(scan *s, rt_err *err);

/* Reads a DuReader JSON run ({"qid": ["pid", …], …}) whole. */
rt_status rt_runscan_json(scan *s, rt_err *err);

#endif
