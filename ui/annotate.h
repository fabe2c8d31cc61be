/* annotate — the workbench's annotation actions: tagging, relabelling, notes, undo / redo,
 * jumping to the next thing to do — what every view that focuses a pair shares. Each change goes
 * through rt_session, so it is on disk before the status line reports it. */
#ifndef RT_ANNOTATE_H
#define RT_ANNOTATE_H

#include "app.h"

/* Reports what a session change did on the status line and refreshes its query (st RT_OK), or
 * shows why it was refused; returns 0 or -1. A change refused as already so (RT_ERR_NOOP) is
 * said as a plain message and returns 0: nothing was written, and nothing failed. */
int annotate_outcome(app *a, rt_status st, const rt_change *ch, const rt_err *err);

/* A key that no follow-up action of pending p takes: says that nothing was done and returns 1
 * when the key is used up by that (0: it goes on to its own action). */
int annotate_pending_other(app *a, pending_kind p);

int act_tag_key(app *a, const char *arg);
int act_query_tag(app *a, const char *arg);
int act_tag(app *a, const char *arg);
int act_untag(app *a, const char *arg);
int act_note(app *a, const char *arg);
int act_label(app *a, const char *arg);
int act_relevant(app *a, const char *arg);
int act_not_relevant(app *a, const char *arg);
int act_base_label(app *a, const char *arg);
int act_grade(app *a, const char *arg);
/* The follow-up keys (the action table binds them after t, r or a false-negative tag). */
int act_fn_relabel(app *a, const char *arg);
int act_fn_keep(app *a, const char *arg);
int act_query_tag_digit(app *a, const char *arg);
int act_grade_digit(app *a, const char *arg);
int act_grade_base(app *a, const char *arg);
int act_undo(app *a, const char *arg);
int act_redo(app *a, const char *arg);
int act_next_todo(app *a, const char *arg);

#endif
