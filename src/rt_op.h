/* rt_op — one annotation operation (a relabel, a tag, a note, a leak type, a query set) and its
 * JSON line, the unit of the journal (DESIGN.md §6). This module knows the line format; rt_journal
 * knows the file, rt_annot what operations mean. */
#ifndef RT_OP_H
#define RT_OP_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_strtab.h"
#include "rt_taxonomy.h"

/* The largest sequence number a journal line reads back: 2^53, as JSON readers (cJSON too) take
 * numbers as doubles. A journal never writes one beyond it. */
#define RT_OP_SEQ_MAX 9007199254740992ull

typedef enum rt_op_kind {
    RT_OP_LABEL = 0,   /* qid pid grade (has_grade 0: back to the base judgment) */
    RT_OP_TAG,         /* qid [pid] cat: add a category to a pair or a query */
    RT_OP_UNTAG,       /* qid [pid] cat: remove it */
    RT_OP_NOTE,        /* qid [pid] text ("" removes the note) */
    RT_OP_LEAK,        /* qid (test) train (training qid) text: leak type ("" clears) */
    RT_OP_SET,         /* name, qids[]: a named query set (has_list 0 deletes it); text: how made */
    RT_OP_ADJUDICATE,  /* qid pid [grade] [cats[]] settles[]: the team's decision on a pair (the
                          grade when has_grade, the categories when has_cats; neither: withdrawn);
                          settles names the decisions it settles, "annotator:seq" */
    RT_OP_PACKAGE,     /* name text (the annotator it is assigned to) qids[] + pids[] (its pairs;
                          has_list 0 deletes it) seed sample (the review sample's seed and size) */
    RT_OP_REVIEW,      /* name (a package) qid pid text: "correct", "wrong", or "" (withdrawn) */
    RT_OP_KIND_COUNT
} rt_op_kind;

/* The ids of an operation in a workspace (rt_op.id): what the annotation state applies. */
typedef struct rt_op_ids {
    uint32_t qid, pid;          /* pid RT_NO_ID: the query itself (or none) */
    size_t cat;                 /* tag, untag: the taxonomy index */
    unsigned long long cats;    /* adjudicate (has_cats): bit i, taxonomy category i */
    uint32_t *qids, *pids;      /* set, package: nqids of each (pids: package only); owned */
    int unknown_cat;            /* resolved from a text naming a category the taxonomy lacks (cat
                                   (size_t)-1, or cats without it): the state refuses the op */
} rt_op_ids;

/* One operation. Strings are owned by the op (rt_op_clear frees them).
 *
 * In memory an operation is its ids (by_id set, the id member): the workspace's query and passage
 * ids, a category's taxonomy index; rt_annot applies nothing else. The strings qid, pid, cat,
 * qids, pids and cats are its text form, which exists only at the journal's boundary: a line just
 * read, a change typed or imported by name (rt_session resolves them to ids), or a line being
 * written (rt_op_to_json_names makes it from the ids where the text form is not set). Author,
 * text, train, name, via and settles are strings in both forms: no table of the workspace holds
 * them (annotators' names, a training set's query, names of query sets and packages). */
typedef struct rt_op {
    uint64_t seq;         /* 1, 2, … within a journal */
    int64_t time_ms;      /* Unix time in milliseconds */
    char *author;
    rt_op_kind kind;
    char *qid, *pid;      /* pid NULL: the query itself */
    int32_t grade;
    int has_grade;
    char *cat;
    char *text;
    char *train;
    char *name;
    char **qids;
    size_t nqids;
    int has_list;
    uint64_t undo, redo;  /* nonzero: this op undoes / redoes operation seq */
    char *via;            /* where it came from when not typed: "import FILE:LINE"; NULL: typed */
    char **pids;          /* package: the passage of each pair, beside qids */
    char **cats;          /* adjudicate: category ids (when has_cats) */
    size_t ncats;
    int has_cats;
    char **settles;       /* adjudicate: "annotator:seq" of each decision settled */
    size_t nsettles;
    uint64_t seed;        /* package: the review sample's seed and size */
    uint32_t sample;
    size_t line;          /* the journal line it was read from (0: made in this process) */
    int by_id;            /* id is set: the op as the state applies it */
    rt_op_ids id;
} rt_op;

/* The tables an operation's ids index: a workspace's query and passage ids and its taxonomy
 * (borrowed; they must outlive every use of the names). */
typedef struct rt_op_names {
    const rt_strtab *qids, *pids;
    const rt_taxonomy *tax;
} rt_op_names;

void rt_op_clear(rt_op *op);
/* A deep copy of src into *dst. */
void rt_op_copy(rt_op *dst, const rt_op *src);

/* The journal name of k, or "?". Borrowed: a static string. */
const char *rt_op_kind_name(rt_op_kind k);

/* Writes op as one JSON line (with the newline) into a new string. Whole numbers (seq, undo,
 * redo, seed, sample) are written as integers, digit for digit. Owned: the caller frees it with
 * free. */
char *rt_op_to_json(const rt_op *op);

/* rt_op_to_json of op with its text form made from its ids (through names) wherever it is not
 * set: the same line, byte for byte, as the op with the strings of its ids would write. An op
 * without ids (by_id 0) or names NULL: rt_op_to_json. NULL when an id is outside names' tables
 * (nothing written). Owned: the caller frees it with free. */
char *rt_op_to_json_names(const rt_op *op, const rt_op_names *names);

/* Parses one line into *op; on failure returns RT_EINPUT with a reason (no location). Labels and
 * tags exactly as rt_op_to_json writes them take a fast path; anything else, the general parser. */
rt_status rt_op_from_json(rt_op *op, const char *line, size_t len, rt_err *err);

/* The general parser alone (cJSON): what the fast path must agree with (tests, fuzzing). */
rt_status rt_op_from_json_full(rt_op *op, const char *line, size_t len, rt_err *err);

/* The current time in milliseconds (for stamps). */
int64_t rt_op_now_ms(void);

/* Formats t (ms) as "2026-11-21T10:11:12.345Z" into buf (at least 32 bytes). */
void rt_op_format_time(int64_t t, char *buf, size_t len);

#endif
