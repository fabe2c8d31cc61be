/* rt_queries — query texts: qid → text, from TSV (qid<TAB>text) or DuReader JSON lines
 * ({"question_id": …, "question": …}), detected from content. */
#ifndef RT_QUERIES_H
#define RT_QUERIES_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_qrels.h"
#include "rt_report.h"
#include "rt_strtab.h"

typedef enum rt_queries_format {
    RT_QUERIES_AUTO = 0,
    RT_QUERIES_TSV,
    RT_QUERIES_DUREADER,
} rt_queries_format;

typedef struct rt_queries rt_queries;

/* Loads path, interning qids into qids (which must outlive the result). Texts must be valid
 * UTF-8. A repeated qid keeps its first text and is reported (an error under opts->strict). */
rt_status rt_queries_load(rt_queries **out, const char *path, rt_queries_format fmt,
                          rt_strtab *qids, const rt_load_opts *opts, rt_report *report,
                          rt_err *err);

/* An empty set, to be filled with rt_queries_add (for formats that carry queries inline). Owned:
 * the caller frees it with rt_queries_free. */
rt_queries *rt_queries_new(rt_strtab *qids);

/* Adds (or keeps the existing) text of qid; returns the qid's id. */
uint32_t rt_queries_add(rt_queries *q, const char *qid, size_t qid_len, const char *text,
                        size_t text_len);

void rt_queries_free(rt_queries **q);

/* The names of the values (rt_names). */
extern const rt_name rt_queries_formats[];

int rt_queries_format_parse(const char *name, rt_queries_format *fmt);

/* Number of queries and the qid id of the i-th, in file order. */
uint32_t rt_queries_count(const rt_queries *q);
uint32_t rt_queries_qid(const rt_queries *q, uint32_t i);

/* The text of qid (NUL-terminated), or NULL when the file has no such qid. Borrowed: valid until
 * rt_queries_free (rt_queries_add moves its index, not the texts). */
const char *rt_queries_text(const rt_queries *q, uint32_t qid);

#endif
