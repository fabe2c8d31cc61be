/* rt_runscan — reading system runs (TREC, TSV, DuReader JSON): per query, a ranked list of
 * (pid, score). rt_run_scan streams a run query by query to a callback, holding one query at a
 * time, so that evaluating millions of lines needs no id table for passages never judged; rt_run
 * (rt_run.h) keeps a whole run in memory on top of it. Every query is ordered the same way
 * (DESIGN.md §5) and duplicate pids dropped the same way. */
#ifndef RT_RUNSCAN_H
#define RT_RUNSCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_num.h"
#include "rt_progress.h"
#include "rt_report.h"
#include "rt_tuning.h"

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

/* Receives one query whose passage ids are all decimal values (rt_run_opts.values). */
typedef rt_status (*rt_run_values_fn)(void *ctx, const char *qid, size_t qid_len,
                                      const uint32_t *values, size_t n, rt_err *err);

typedef struct rt_run_opts {
    rt_run_format format;
    rt_order order;      /* formats without scores always use file order */
    int strict;          /* a duplicate pid within a query is an error */
    const char *name;    /* run name; NULL takes the TREC tag column or the file's stem */
    /* Reading progress, every few thousand lines. progress (NULL: none) is reported to as phase
     * progress_phase, done the bytes of the file read so far plus progress_before (the bytes of
     * the files before it in the phase: a workspace's runs), at most progress_total; only on the
     * thread that called the scan (a file read in halves: the first half's, the caller's).
     * progress_done (NULL: none) counts the bytes read into a counter other threads may count
     * into too (the parts of a file read in parts; a workspace's run workers, whose opener reports
     * it); when set, done is that counter's value plus progress_before. */
    const rt_progress *progress;
    const char *progress_phase;
    uint64_t progress_before, progress_total;
    _Atomic uint64_t *progress_done;
    /* When set, a query of a line-based run read by query (not regrouped) whose pids are all
     * values rt_strtab_decimal gives, none twice, goes to values rather than to the scan's
     * callback: the values in rank order, each pid read once and neither copied nor hashed
     * (MS MARCO's runs, for rt_run, which keeps the values). Other queries go to the callback
     * as always; rank order and counts are the same either way. */
    rt_run_values_fn values;
    const rt_tuning *tuning;   /* rt_eval_file's parallel_min; NULL: the defaults */
} rt_run_opts;

/* The hash of a passage id in rt_hit.hash: of every byte, a multiply and a shift per eight
 * (the last eight overlapping the one before, so nothing past the id is read), cheaper than
 * rt_hash_bytes as a scan computes one per line. Not rt_hash_bytes: an rt_strtab lookup needs
 * that one. */
static inline uint64_t rt_run_pid_hash(const char *p, size_t len)
{
    const uint64_t k = 0x9fb21c651e98df25ULL;
    uint64_t h = (len + 1) * 0x9e3779b97f4a7c15ULL, w;
    if (len >= 8) {
        size_t i = 0;
        for (; i + 8 < len; i += 8) {
            memcpy(&w, p + i, 8);
            h = (h ^ w) * k;
            h ^= h >> 29;
        }
        memcpy(&w, p + len - 8, 8);
    } else {
        w = 0;
        for (size_t i = 0; i < len; i++)
            w |= (uint64_t)(unsigned char)p[i] << (8 * i);
    }
    h = (h ^ w) * k;
    h ^= h >> 32;
    h *= k;
    return h ^ (h >> 29);
}

/* rt_run_pid_hash (the same value) for an id with at least 8 bytes readable from p. */
static inline uint64_t rt_run_pid_hash_padded(const char *p, size_t len)
{
    if (len >= 8)
        return rt_run_pid_hash(p, len);
    const uint64_t k = 0x9fb21c651e98df25ULL;
    uint64_t h = (len + 1) * 0x9e3779b97f4a7c15ULL;
    uint64_t w = rt_num_load8(p) & ((UINT64_C(1) << (8 * len)) - 1);   /* len < 8: the shift is defined */
    h = (h ^ w) * k;
    h ^= h >> 32;
    h *= k;
    return h ^ (h >> 29);
}

/* A scan's hits keep this many bytes after each pid readable (its arena has them to spare), so
 * that a callback may read a short pid eight bytes at a time (rt_strtab_decimal_padded). */
#define RT_HIT_PAD 32

/* One retrieved passage, as handed to a scan callback. */
typedef struct rt_hit {
    const char *pid;     /* not NUL-terminated; valid during the callback only */
    uint32_t pid_len;
    double score;
    uint64_t hash;       /* rt_run_pid_hash(pid, pid_len) */
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

/* Adds to x what was found in y, the part of the same file read after x's (its lines numbered
 * from the part's start): the counts, and the first duplicate's line when x had none. */
void rt_run_info_join(rt_run_info *x, const rt_run_info *y);

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

/* Returned by rt_run_scan_halves when a query's lines are not contiguous within a half (or the
 * format is one JSON document, or the halves read as different formats): the caller must scan
 * the whole file with rt_run_scan instead. */
#define RT_RUN_NOT_GROUPED ((rt_status)100)

/* Streams a line-based run file in two halves, bytes [0, mid) and [mid, end) (mid a line start,
 * rt_run_split_offset), read by two threads: the first half's queries go to fn with ctx[0] and
 * what it found to info[0], the second's to fn with ctx[1] and info[1]. The query at the split
 * (whose lines may straddle mid) and the second half's first query, when another, are handed
 * over with ctx[0] after both halves are read (with line numbers from the file's start): ctx[0]'s
 * queries and then ctx[1]'s are in the file's order. Line numbers in info[1], in its hits and in
 * its messages count from mid. A query that appears in both halves otherwise is not detected
 * here: the caller sees it in both contexts. With gather, for a file
 * whose queries' lines are not grouped, each half keeps all its lines, and after both every query
 * (its lines from both halves, in file order, numbered from the file's start) goes to fn with
 * ctx[0] in order of first appearance, as rt_run_scan does; this holds the whole run in memory.
 * info[k].name is owned by the caller (rt_run_info_clear). With opts->progress, the halves count
 * into a counter of their own (not opts->progress_done) and the first half reports it, on this
 * thread; without, both count into opts->progress_done when set. */
rt_status rt_run_scan_halves(const char *path, const rt_run_opts *opts, uint64_t mid, int gather,
                             rt_run_query_fn fn, void *ctx[2], rt_run_info info[2], rt_err *err);

/* The start of the first line after the middle of the regular file at path (of size bytes), to
 * split it in two halves; 0 when there is none (small or compressed file, unreadable, a line
 * longer than a megabyte at the middle). */
uint64_t rt_run_split_offset(const char *path, uint64_t size);

/* Adds the one warning about dropped duplicate passages, when there were any, to report. */
void rt_run_report_duplicates(const rt_run_info *info, const char *path, rt_report *report);

/* The names of the values (rt_names). */
extern const rt_name rt_run_formats[];
extern const rt_name rt_orders[];

int rt_run_format_parse(const char *name, rt_run_format *fmt);
/* The name of fmt, or "?". Borrowed: a static string. */
const char *rt_run_format_name(rt_run_format fmt);

#endif
