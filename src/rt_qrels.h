/* rt_qrels — relevance judgments: (qid, pid) → integer grade, loaded from TREC qrels, TSV or
 * DuReader JSON lines. The loaded qrels are immutable (the base); relabels live in an overlay. */
#ifndef RT_QRELS_H
#define RT_QRELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_report.h"
#include "rt_strtab.h"

typedef enum rt_qrels_format {
    RT_QRELS_AUTO = 0,
    RT_QRELS_TREC,      /* qid iter pid grade */
    RT_QRELS_TSV,       /* qid<TAB>pid[<TAB>grade] */
    RT_QRELS_DUREADER,  /* {"question_id": …, "answer_paragraphs": [{"paragraph_id": …}]} */
} rt_qrels_format;

typedef struct rt_judgment {
    uint32_t pid;
    int32_t grade;
} rt_judgment;

typedef struct rt_qrels rt_qrels;

typedef struct rt_load_opts {
    int strict;   /* duplicates are errors, not warnings */
} rt_load_opts;

/* Loads path into *out, interning qids into qids and pids into pids (the shared namespaces, which
 * must outlive the qrels). fmt RT_QRELS_AUTO detects the format from the content. Duplicate
 * (qid, pid) pairs keep the first grade and are reported (an error under opts->strict). */
rt_status rt_qrels_load(rt_qrels **out, const char *path, rt_qrels_format fmt,
                        rt_strtab *qids, rt_strtab *pids, const rt_load_opts *opts,
                        rt_report *report, rt_err *err);

void rt_qrels_free(rt_qrels **q);

/* The names of the values (rt_names). */
extern const rt_name rt_qrels_formats[];

/* Parses a format name ("trec", "tsv", "dureader", "auto"); returns 0 when unknown. */
int rt_qrels_format_parse(const char *name, rt_qrels_format *fmt);
/* The name of fmt, or "?". Borrowed: a static string. */
const char *rt_qrels_format_name(rt_qrels_format fmt);

rt_qrels_format rt_qrels_format_of(const rt_qrels *q);
/* The path the qrels were read from. Borrowed: valid until rt_qrels_free. */
const char *rt_qrels_path(const rt_qrels *q);

/* Queries with at least one judgment, in order of first appearance; i < rt_qrels_nqueries. */
uint32_t rt_qrels_nqueries(const rt_qrels *q);
uint32_t rt_qrels_qid(const rt_qrels *q, uint32_t i);

/* Index of qid among the judged queries, or RT_NO_ID. */
uint32_t rt_qrels_index(const rt_qrels *q, uint32_t qid);

/* The judgments of judged query i, sorted by pid id; *n receives their count. Borrowed: valid
 * until rt_qrels_free (for attached qrels, as long as the image's mapping too). */
const rt_judgment *rt_qrels_judgments(const rt_qrels *q, uint32_t i, size_t *n);

/* Looks up the grade of (judged query i, pid); returns 1 and sets *grade when judged. */
int rt_qrels_lookup(const rt_qrels *q, uint32_t i, uint32_t pid, int32_t *grade);

size_t rt_qrels_njudgments(const rt_qrels *q);

/* The image of the qrels, for the workspace cache: its size in bytes (a multiple of 8), and
 * writing it to f (0, or -1 on a stream error). */
size_t rt_qrels_image_size(const rt_qrels *q);
int rt_qrels_image_write(const rt_qrels *q, FILE *f);

/* Qrels read from path whose arrays are the image at mem (len bytes, 8-aligned, in a mapping that
 * must outlive them), with qids and pids below nqids and npids. NULL when the image is not whole
 * and consistent (a damaged cache is refused, never read out of bounds). Owned: the caller frees
 * it with rt_qrels_free, before the mapping goes. */
rt_qrels *rt_qrels_attach(void *mem, size_t len, const char *path, uint32_t nqids, uint32_t npids);

/* Building qrels from another source (formats that carry labels inline, such as NLPCC DBQA). */
typedef struct rt_qrels_builder rt_qrels_builder;

/* Starts qrels named name (used in messages), interning into qids and pids. Owned: freed by
 * rt_qrels_builder_finish, whatever it returns. */
rt_qrels_builder *rt_qrels_builder_new(const char *name, rt_strtab *qids, rt_strtab *pids);

/* Adds a judgment; line is the input line it came from (for messages). */
rt_status rt_qrels_builder_add(rt_qrels_builder *b, const char *qid, size_t qid_len,
                               const char *pid, size_t pid_len, int32_t grade, size_t line,
                               rt_err *err);

/* Finishes the qrels into *out (duplicates as for rt_qrels_load) and frees the builder. */
rt_status rt_qrels_builder_finish(rt_qrels_builder **b, const rt_load_opts *opts,
                                  rt_report *report, rt_qrels **out, rt_err *err);

#endif
