/* rt_report — the load report: what loading found worth telling (counts, duplicates dropped,
 * unknown ids, queries without judgments). Loaders append lines; the CLI prints them to stderr
 * and the UI shows them in its load-report view. */
#ifndef RT_REPORT_H
#define RT_REPORT_H

#include <stddef.h>

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

/* Moves lines from..end to before line at (at <= from), in their order: lines added later that
 * belong where a loader would have put them. */
void rt_report_move_tail(rt_report *r, size_t from, size_t at);

size_t rt_report_count(const rt_report *r);
size_t rt_report_warnings(const rt_report *r);
/* Line i and its kind. Borrowed: valid until rt_report_free (rt_report_add and
 * rt_report_move_tail move the lines' index, not the lines). */
const char *rt_report_line(const rt_report *r, size_t i, rt_report_kind *kind);

#endif
