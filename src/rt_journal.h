/* rt_journal — an annotator's journal (DESIGN.md §6): one JSON object a line, appended and
 * fsync'd before the caller shows the change as done. Opening reads every operation back,
 * sets a torn last line aside, and takes the journal's lock; a second process gets the journal
 * read-only. This module knows the file and the line format, not what operations mean. */
#ifndef RT_JOURNAL_H
#define RT_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_report.h"

typedef enum rt_op_kind {
    RT_OP_LABEL = 0,   /* qid pid grade (has_grade 0: back to the base judgment) */
    RT_OP_TAG,         /* qid [pid] cat: add a category to a pair or a query */
    RT_OP_UNTAG,       /* qid [pid] cat: remove it */
    RT_OP_NOTE,        /* qid [pid] text ("" removes the note) */
    RT_OP_LEAK,        /* qid (test) train (training qid) text: leak type ("" clears) */
    RT_OP_SET,         /* name, qids[]: a named query set (has_list 0 deletes it); text: how made */
    RT_OP_KIND_COUNT
} rt_op_kind;

/* One operation. Strings are owned by the op (rt_op_clear frees them). */
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
    size_t line;          /* the journal line it was read from (0: made in this process) */
} rt_op;

void rt_op_clear(rt_op *op);
/* A deep copy of src into *dst. */
void rt_op_copy(rt_op *dst, const rt_op *src);

const char *rt_op_kind_name(rt_op_kind k);

/* Writes op as one JSON line (with the newline) into a new string; caller frees. */
char *rt_op_to_json(const rt_op *op);

/* Parses one line into *op; on failure returns RT_EINPUT with a reason (no location). */
rt_status rt_op_from_json(rt_op *op, const char *line, size_t len, rt_err *err);

typedef struct rt_journal rt_journal;

/* Opens (creating dir and file as needed) the journal of annotator in dir. Existing operations
 * are read into *ops / *nops (caller frees each with rt_op_clear, then the array).
 * - Nothing is opened through a symbolic link: a journal folder that is a link, or a journal
 *   that is a link, a pipe, a device or a folder, is refused (RT_EINPUT), nothing touched; so is a
 *   file whose first line is not an operation (not a journal at all).
 * - A complete line that is not an operation is reported with file:line and the journal opens
 *   read-only (nothing cut or rewritten) until the user fixes or moves it; the good operations
 *   still load.
 * - Bytes after the last newline that look like an append cut short (the start of an operation
 *   line, zeros) are a torn write: copied to "<file>.torn-<time>" and cut off (when writable).
 * - When another process holds the lock, the journal or its folder is not writable, or the
 *   folder cannot be created, the journal opens read-only and rt_journal_readonly says why. */
rt_status rt_journal_open(rt_journal **out, const char *dir, const char *annotator,
                          rt_op **ops, size_t *nops, rt_report *report, rt_err *err);

/* Opens read-only without taking the lock and without changing anything (exports, reviews). */
rt_status rt_journal_open_readonly(rt_journal **out, const char *dir, const char *annotator,
                                   rt_op **ops, size_t *nops, rt_report *report, rt_err *err);

void rt_journal_close(rt_journal **j);

/* Makes the journal read-only from now on, for reason why (copied; a first reason stands): what
 * the caller does when an operation it replays turns out to be invalid. */
void rt_journal_refuse(rt_journal *j, const char *why);

/* NULL when writable; otherwise why not (borrowed). */
const char *rt_journal_readonly(const rt_journal *j);
const char *rt_journal_path(const rt_journal *j);

/* The next sequence number. */
uint64_t rt_journal_next_seq(const rt_journal *j);

/* Stamps op with the next sequence number and the time, appends it, and returns only when it is
 * on disk (write + fsync). On failure the journal is left as it was and RT_EIO returned. */
rt_status rt_journal_append(rt_journal *j, rt_op *op, rt_err *err);

/* The current time in milliseconds (for stamps). */
int64_t rt_journal_now_ms(void);

/* Formats t (ms) as "2026-11-21T10:11:12.345Z" into buf (at least 32 bytes). */
void rt_journal_format_time(int64_t t, char *buf, size_t len);

#endif
