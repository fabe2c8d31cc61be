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
#include "rt_loader.h"
#include "rt_workspace.h"

typedef struct rt_session {
    rt_workspace *ws;          /* borrowed */
    rt_journal *journal;
    rt_annot *annot;
    rt_live *live;
    char *annotator;
    char *journal_dir;
    /* Read back at the open: operations naming a query the workspace's queries file does not
     * have (a journal of another workspace?), the first one's line and qid (said in a warning). */
    size_t foreign[2], foreign_line[2];   /* operations read back naming a query [0] or a passage [1]
                                              this workspace lacks: kept in the journal, applied to
                                              nothing; the first one's line and id */
    char *foreign_id[2];
    rt_op last;                /* the last change made here (rt_change.op borrows it) */
    const char *derived;       /* a derived session's reason to be read-only (rt_session_derived),
                                  a static string; NULL for a session over a journal */
} rt_session;


/* The journal folder when none is given: the workspace's journal_dir, else "annotations" beside
 * the workspace file, else "./annotations" (an implicit workspace). Owned: the caller frees it
 * with free. */
char *rt_session_default_dir(const rt_workspace *ws);

/* The annotator when none is given: the workspace's, else the login name, else "annotator".
 * Owned: the caller frees it with free. */
char *rt_session_default_annotator(const rt_workspace *ws);

/* Opens the journal of annotator in dir (NULLs: the defaults above), replays it, and evaluates
 * the current qrels. readonly: do not take the lock or repair the journal (exports). Problems in
 * the journal go to ws->report; a journal locked by another process opens read-only. */
rt_status rt_session_open(rt_session **out, rt_workspace *ws, const char *dir,
                          const char *annotator, int readonly, rt_err *err);
void rt_session_close(rt_session **s);

/* Another annotator's state only (the team): opened read-only, replayed without undo history and
 * without live metrics (live is NULL). */
rt_status rt_session_open_state(rt_session **out, rt_workspace *ws, const char *dir, const char *annotator,
                                rt_err *err);
/* Closes s, removing its journal when this process created it and wrote nothing
 * (rt_journal_discard). */
void rt_session_discard(rt_session **s);

/* For a read-only session on another annotator's journal: applies what they appended since (or,
 * when the file was replaced, reads it again); *changed says whether anything did. One lstat
 * when nothing changed. Pointers into the state (labels, tags) may move when it changes; when the
 * file was replaced, s->annot, s->live and s->journal are new objects (the old ones are freed). */
rt_status rt_session_refresh(rt_session *s, int *changed, rt_err *err);

/* NULL when changes can be made; otherwise why not. Borrowed: valid until rt_session_close, or
 * an rt_session_refresh that finds the journal replaced (and closes the old one). */
const char *rt_session_readonly(const rt_session *s);

/* The one constructor of a derived session: over a state made elsewhere rather than read from a
 * journal (the team's decisions, rt_team_session), by author (copied), with live metrics that
 * follow annot. annot is taken: rt_session_close frees it. It has no journal and is read-only;
 * rt_session_readonly gives why (a static string, borrowed). Owned: the caller closes it with
 * rt_session_close, before ws. */
rt_session *rt_session_derived(rt_workspace *ws, const char *author, rt_annot *annot, const char *why);

/* rt_loader_poll on the session's workspace, the live metrics brought up to the runs in. The
 * session itself waits (rt_session_wait) before it looks up a query or passage that only runs or a
 * collection not yet in may know: the events of what came in then are returned here afterwards,
 * so that whoever polls catches up (the workspace's generation tells it sooner). */
int rt_session_poll(rt_session *s, int budget_ms, rt_load_event *ev);

/* rt_loader_wait on the session's workspace, the live metrics brought up to the runs in. */
int rt_session_wait(rt_session *s, unsigned what, rt_err *err);

/* Checks op (known query and passage, grade in range, known category or leak type) without
 * doing it; RT_EUSAGE with a message when it cannot be done or would change nothing (then
 * rt_err.what is RT_ERR_NOOP and the message says what is already so). op is by
 * ids (rt_op.by_id) or by name (its text form, looked up in a copy, nothing interned). Only reads:
 * runs or a collection still being read are not waited for, so a query or passage only they name
 * is unknown here until they are in (rt_session_poll); the changes themselves (rt_session_do,
 * the changes by id, imports) wait for them first. */
rt_status rt_session_check(const rt_session *s, const rt_op *op, rt_err *err);

/* Imports ops (judgments or tags made elsewhere; each op's via is "import FILE:LINE") all or
 * nothing: each is checked like rt_session_check, except that a decision equal to the base is
 * kept (it is the annotator's), and an error names the op's FILE:LINE. Those already so in this
 * journal are dropped (cleared, and moved out: ops[0..*done) are the ones kept). check_only:
 * stop there (to check several journals before writing any); else the kept ones are appended at
 * once (rt_journal_append_all) and applied. On error nothing is written. ops stay the caller's
 * to clear. */
rt_status rt_session_import(rt_session *s, rt_op *ops, size_t n, int check_only, size_t *done, rt_err *err);

/* Checks op, appends it to the journal (returning only once it is on disk), then applies it to
 * the state and the metrics. op's author, seq and time are filled in, and a category given by
 * name or number is replaced by its id. An op by name is resolved to ids here, once (the
 * journal's boundary; rt_op.id set, the text form kept and written as given). */
rt_status rt_session_do(rt_session *s, rt_op *op, rt_err *err);

/* Undoes the last change (redo: re-does the last undone one) by appending the inverse
 * operation; *done (cleared by the caller) receives it. RT_EUSAGE when there is nothing to do. */
rt_status rt_session_undo(rt_session *s, rt_op *done, rt_err *err);
rt_status rt_session_redo(rt_session *s, rt_op *done, rt_err *err);

/* What one change did, for the caller to refresh what it shows and to say it. */
typedef struct rt_change {
    rt_op_kind kind;
    uint32_t qid;          /* the query it touched; RT_NO_ID for a query set */
    uint32_t pid;          /* the passage; RT_NO_ID for the query itself or none */
    uint64_t seq;          /* its sequence number in the journal */
    const rt_op *op;       /* the change as made (undo or redo set for a step): what the screen
                              says of it; by ids (a change made here by ids has no text form:
                              its names are the workspace's tables'). Borrowed: valid until the
                              session's next change or rt_session_close */
} rt_change;

/* The changes, by interned ids (the way the workbench makes them): each builds the operation by
 * ids, without a string (the journal names them as it writes the line), checks it, appends it
 * durably and applies it, as rt_session_do does, and on success fills *ch. An id the workspace's
 * tables do not have is refused (RT_EUSAGE). cat is a taxonomy index; on 0 untags. */
rt_status rt_session_relabel(rt_session *s, uint32_t qid, uint32_t pid, int has_grade, int32_t grade,
                             rt_change *ch, rt_err *err);
rt_status rt_session_set_tag(rt_session *s, uint32_t qid, uint32_t pid, size_t cat, int on,
                             rt_change *ch, rt_err *err);
rt_status rt_session_set_note(rt_session *s, uint32_t qid, uint32_t pid, const char *text,
                              rt_change *ch, rt_err *err);
rt_status rt_session_type_leak(rt_session *s, uint32_t qid, const char *train, const char *type,
                               rt_change *ch, rt_err *err);
rt_status rt_session_save_set(rt_session *s, const char *name, const uint32_t *qids, size_t n,
                              const char *how, rt_change *ch, rt_err *err);
/* An adjudication of (qid, pid) for the team: the grade when has_grade, the categories (bits of
 * the taxonomy) when has_cats, neither: withdraw this adjudicator's decision; settles names the
 * decisions it settles ("annotator:seq"). */
rt_status rt_session_adjudicate(rt_session *s, uint32_t qid, uint32_t pid, int has_grade, int32_t grade,
                                int has_cats, unsigned long long cats, char *const *settles, size_t nsettles,
                                rt_change *ch, rt_err *err);
/* Records the annotator's grade of (qid, pid) even when it equals the base judgment (judging a
 * package: the decision is theirs); refused only when their own label says so already. */
rt_status rt_session_judge(rt_session *s, uint32_t qid, uint32_t pid, int32_t grade, rt_change *ch, rt_err *err);

/* A reviewer's verdict on (qid, pid) of package: "correct", "wrong", or "" to withdraw it. */
rt_status rt_session_review(rt_session *s, const char *package, uint32_t qid, uint32_t pid, const char *verdict,
                            rt_change *ch, rt_err *err);

/* Saves package operations (rt_package_make's, by ids; or by name, resolved here) all at once
 * (rt_journal_append_all); a name that exists already, or a pair whose ids the workspace does not
 * have, is refused, and then nothing is written. */
rt_status rt_session_add_packages(rt_session *s, rt_op *ops, size_t n, rt_err *err);

/* Undo (redo 0) or redo the last change, as rt_session_undo / rt_session_redo. */
rt_status rt_session_step(rt_session *s, int redo, rt_change *ch, rt_err *err);

/* The id of a pid typed by a user: known to a run or the qrels, or else found in the collection
 * (then interned); RT_NO_ID when it is nowhere. */
uint32_t rt_session_pid(rt_session *s, const char *pid);

/* Builds and does the common operations by strings (scripts and tests). pid NULL: the query itself. grade < 0 with has_grade
 * 0: back to the base judgment. */
rt_status rt_session_label(rt_session *s, const char *qid, const char *pid, int has_grade,
                           int32_t grade, rt_err *err);
rt_status rt_session_tag(rt_session *s, rt_op_kind kind, const char *qid, const char *pid,
                         const char *cat, rt_err *err);
rt_status rt_session_note(rt_session *s, const char *qid, const char *pid, const char *text,
                          rt_err *err);

/* The current grade of (qid, pid) and whether the relabel overlay sets it (*relabel, may be
 * NULL; Borrowed, as rt_annot_label's: valid until the next change to s). Returns 0 when
 * unjudged. */
int rt_session_grade(const rt_session *s, uint32_t qid, uint32_t pid, int32_t *grade,
                     const rt_label **relabel);

/* Rank (1-based) of the first currently relevant passage of run r for qid, 0 when none. */
size_t rt_session_first_rel(const rt_session *s, size_t r, uint32_t qid);

/* RR@10 of run r on qid from the current judgments (what the query list shows and sorts by). */
double rt_session_rr10(const rt_session *s, size_t r, uint32_t qid);

#endif
