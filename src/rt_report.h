/* rt_report — the load report: what loading found worth telling (counts, duplicates dropped,
 * unknown ids, queries without judgments). Loaders append lines; the CLI prints them to stderr
 * and the UI shows them in its load-report view. */
#ifndef RT_REPORT_H
#define RT_REPORT_H

#include <stddef.h>
#include <stdint.h>

typedef enum rt_report_kind {
    RT_REPORT_INFO,     /* counts: "qrels.trec: 384 judgments, 93 queries" */
    RT_REPORT_WARNING,  /* something was dropped or is inconsistent */
} rt_report_kind;

typedef struct rt_report rt_report;

/* An empty report. Owned: the caller frees it with rt_report_free. */
rt_report *rt_report_new(void);
void rt_report_free(rt_report **r);

/* Appends a line (printf-style). r may be NULL, in which case nothing happens. */
void rt_report_add(rt_report *r, rt_report_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Lines are kept in the order of their keys, then of their adding: a line goes after every line
 * of its key or a lower one, so that a loader that takes inputs in later (the workbench's) puts
 * each input's lines where a loader that waited would have, by key, without moving any. Sets the
 * key the lines added from now on carry (0 at first) and returns the one it replaces. Nothing for
 * r NULL (returns 0). */
uint32_t rt_report_set_key(rt_report *r, uint32_t key);

/* The index of the first line whose key is at least key (rt_report_count when none). */
size_t rt_report_key_start(const rt_report *r, uint32_t key);

size_t rt_report_count(const rt_report *r);
size_t rt_report_warnings(const rt_report *r);
/* Line i and its kind. Borrowed: valid until rt_report_free (rt_report_add may move the lines'
 * index, by key, not the lines). */
const char *rt_report_line(const rt_report *r, size_t i, rt_report_kind *kind);

#endif
