/* annotate — the workbench's annotation actions: tagging, relabelling, notes, undo / redo,
 * jumping to the next thing to do — what every view that focuses a pair shares. Each change goes
 * through rt_session, so it is on disk before the status line reports it. */
#ifndef RT_ANNOTATE_H
#define RT_ANNOTATE_H

#include "app.h"

/* Does op (owned; cleared here) through the session and reports it on the status line; returns
 * 0, or -1 with the reason shown. */
int annotate_do(app *a, rt_op *op);

/* Handles a key while a two-key action waits; returns 1 when the key was used. */
int annotate_pending_key(app *a, int key);

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
int act_undo(app *a, const char *arg);
int act_redo(app *a, const char *arg);
int act_next_todo(app *a, const char *arg);

#endif
