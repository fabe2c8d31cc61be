/* rt_run — system runs: per query, a ranked list of (pid, score). Two ways in:
 *  - rt_run_scan streams a run query by query to a callback, holding one query at a time, so that
 *    evaluating millions of lines needs no id table for passages that are never judged;
 *  - rt_run_load keeps the whole run in memory with interned ids, for browsing.
 * Both order each query the same way (DESIGN.md §5) and drop duplicate pids the same way. */
#ifndef RT_RUN_H
#define RT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_report.h"
#include "rt_strtab.h"

typedef enum rt_run_format {
    RT_RUN_AUTO = 0,
    RT_RUN_TREC,      /* qid Q0 pid rank score tag [ignored…] */
    RT_RUN_TSV,       /* qid<TAB>pid<TAB>rank[<TAB>score] */
    RT_RUN_DUREADER,  /* {"qid": ["pid", …], …} */
} rt_run_format;

typedef enum rt_order {
    RT_ORDER_SCORE = 0,  /* score descending, ties by pid descending in byte order (trec_eval) */
    RT_ORDER_FILE,       /* the order of the lines in the file */
} rt_order;

typedef struct rt_run_opts {
    rt_run_format format;
    rt_order order;      /* formats without scores always use file order */
    int strict;          /* a duplicate pid within a query is an error */
    const char *name;    /* run name; NULL takes the TREC tag column or the file's stem */
} rt_run_opts;

/* One retrieved passage, as handed to a scan callback. */
typedef struct rt_hit {
    const char *pid;     /* not NUL-terminated; valid during the callback only */
    uint32_t pid_len;
    double score;
    uint64_t hash;       /* rt_hash_bytes(pid, pid_len) */
    size_t line;         /* line of the file it came from (1 for JSON runs) */
} rt_hit;

/* What a scan found. name is owned by the info; release it with rt_run_info_clear. */
typedef struct rt_run_info {
    char *name;
    rt_run_format format;
    int has_scores;
    size_t lines;         /* data lines read */
    size_t hits;          /* hits kept */
    size_t queries;
    size_t duplicates;    /* hits dropped as duplicate pids */
    size_t first_dup_line;
    int regrouped;        /* a query's lines were not contiguous; the run was read twice */
    size_t physical_lines; /* lines of the file read, blank and comment lines included */
} rt_run_info;

void rt_run_info_clear(rt_run_info *info);

/* Receives one query's hits, ranked, duplicates removed. A status other than RT_OK stops the
 * scan and is returned by it. */
typedef rt_status (*rt_run_query_fn)(void *ctx, const char *qid, size_t qid_len,
                                     const rt_hit *hits, size_t n, rt_err *err);

/* Called when the scan must start over (a query's lines were not contiguous): the callback will
 * see every query again from the first, so it must forget what it was given. May be NULL. */
typedef void (*rt_run_reset_fn)(void *ctx);

/* Streams path to fn, one call per query in order of first appearance. */
rt_status rt_run_scan(const char *path, const rt_run_opts *opts, rt_run_query_fn fn,
                      rt_run_reset_fn reset, void *ctx, rt_run_info *info, rt_err *err);

/* Returned by rt_run_scan_part when a query's lines are not contiguous within the part (or the
 * format is one JSON document): the caller must scan the whole file with rt_run_scan instead. */
#define RT_RUN_NOT_GROUPED ((rt_status)100)

/* Streams bytes [start, end) of a line-based run file (start at a line start; end 0: to the end)
 * like rt_run_scan, for reading a large file in parts in parallel. Line numbers in messages and
 * in hits count from start. Empty parts are not an error. */
rt_status rt_run_scan_part(const char *path, const rt_run_opts *opts, uint64_t start,
                           uint64_t end, rt_run_query_fn fn, void *ctx, rt_run_info *info,
                           rt_err *err);

/* An offset near the middle of the regular file at path (of size bytes) where a line of a new
 * query begins, to split it into two parts with no query in both; 0 when there is none (small
 * file, unreadable, one huge query). */
uint64_t rt_run_split_offset(const char *path, uint64_t size);

/* The names of the values (rt_names). */
extern const rt_name rt_run_formats[];

int rt_run_format_parse(const char *name, rt_run_format *fmt);
const char *rt_run_format_name(rt_run_format fmt);

/* ---- a run held in memory ---------------------------------------------------------------- */

typedef struct rt_run rt_run;

/* Loads path, interning its qids and pids into the shared namespaces (which must outlive it).
 * Warnings (duplicates dropped) go to report. */
rt_status rt_run_load(rt_run **out, const char *path, const rt_run_opts *opts, rt_strtab *qids,
                      rt_strtab *pids, rt_report *report, rt_err *err);
void rt_run_free(rt_run **run);

const char *rt_run_name(const rt_run *run);
const char *rt_run_path(const rt_run *run);
const rt_run_info *rt_run_get_info(const rt_run *run);

/* The ranked pids (and scores) of qid, or NULL with *n = 0 when the run has no such query.
 * Borrowed; valid until the run is freed. */
const uint32_t *rt_run_ranking(const rt_run *run, uint32_t qid, size_t *n, const double **scores);

/* Number of queries in the run and the qid of the i-th (order of first appearance). */
uint32_t rt_run_nqueries(const rt_run *run);
uint32_t rt_run_qid(const rt_run *run, uint32_t i);

#endif
