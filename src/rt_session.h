/* rt_session — a workspace with its annotator's journal: replays the journal into the
 * annotation state and the live metrics on open, and makes each new change durable (journal
 * append + fsync) before applying it. The UI, the export command and the tests all annotate
 * through this module. */
#ifndef RT_SESSION_H
#define RT_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "rt_annot.h"
#include "rt_err.h"
#include "rt_journal.h"
#include "rt_live.h"
#include "rt_workspace.h"

typedef struct rt_session {
    rt_workspace *ws;          /* borrowed */
    rt_journal *journal;
    rt_annot *annot;
    rt_live *live;
    char *annotator;
    char *journal_dir;
} rt_session;

/* The leak types a reviewer can give a candidate pair (Fröbe et al. 2022, plus "not a leak"),
 * NULL-terminated. */
extern const char *const rt_leak_types[];

/* The journal folder when none is given: the workspace's journal_dir, else "annotations" beside
 * the workspace file, else "./annotations" (an implicit workspace). Caller frees. */
char *rt_session_default_dir(const rt_workspace *ws);

/* The annotator when none is given: the workspace's, else the login name, else "annotator".
 * Caller frees. */
char *rt_session_default_annotator(const rt_workspace *ws);

/* Opens the journal of annotator in dir (NULLs: the defaults above), replays it, and evaluates
 * the current qrels. readonly: do not take the lock or repair the journal (exports). Problems in
 * the journal go to ws->report; a journal locked by another process opens read-only. */
rt_status rt_session_open(rt_session **out, rt_workspace *ws, const char *dir,
                          const char *annotator, int readonly, rt_err *err);
void rt_session_close(rt_session **s);

/* NULL when changes can be made; otherwise why not. */
const char *rt_session_readonly(const rt_session *s);

/* Checks op (known query and passage, grade in range, known category or leak type) without
 * doing it; RT_EUSAGE with a message when it cannot be done or would change nothing. */
rt_status rt_session_check(const rt_session *s, const rt_op *op, rt_err *err);

/* Checks op, appends it to the journal (returning only once it is on disk), then applies it to
 * the state and the metrics. op's author, seq and time are filled in, and a category given by
 * name or number is replaced by its id. */
rt_status rt_session_do(rt_session *s, rt_op *op, rt_err *err);

/* Undoes the last change (redo: re-does the last undone one) by appending the inverse
 * operation; *done (cleared by the caller) receives it. RT_EUSAGE when there is nothing to do. */
rt_status rt_session_undo(rt_session *s, rt_op *done, rt_err *err);
rt_status rt_session_redo(rt_session *s, rt_op *done, rt_err *err);

/* Builds and does the common operations. pid NULL: the query itself. grade < 0 with has_grade
 * 0: back to the base judgment. */
rt_status rt_session_label(rt_session *s, const char *qid, const char *pid, int has_grade,
                           int32_t grade, rt_err *err);
rt_status rt_session_tag(rt_session *s, rt_op_kind kind, const char *qid, const char *pid,
                         const char *cat, rt_err *err);
rt_status rt_session_note(rt_session *s, const char *qid, const char *pid, const char *text,
                          rt_err *err);

/* The current grade of (qid, pid) and whether the relabel overlay sets it (*relabel, may be
 * NULL). Returns 0 when unjudged. */
int rt_session_grade(const rt_session *s, uint32_t qid, uint32_t pid, int32_t *grade,
                     const rt_label **relabel);

/* Rank (1-based) of the first currently relevant passage of run r for qid, 0 when none. */
size_t rt_session_first_rel(const rt_session *s, size_t r, uint32_t qid);

/* RR@10 of run r on qid from the current judgments (what the query list shows and sorts by). */
double rt_session_rr10(const rt_session *s, size_t r, uint32_t qid);

/* One line describing op for the status line ("labelled q01 p0023 relevant (1)"). */
void rt_session_describe(const rt_session *s, const rt_op *op, char *buf, size_t len);

#endif
