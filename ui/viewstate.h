/* viewstate — the view state kept across opens (DESIGN.md §8): the last one per workspace and
 * annotator, restored on the next open, and named views (:view save NAME, :view NAME, :views),
 * all in the journal folder. Each view with state writes and takes back its own part through
 * view_ops.save / .restore; this module adds the app's navigation (the view on screen, the run in
 * focus), the files and their safety. */
#ifndef RT_VIEWSTATE_H
#define RT_VIEWSTATE_H

#include "app.h"

/* At the open: restores the last view state of the session's workspace and annotator (unless
 * fresh), saying "restored: …" (and the first problem of a damaged file, FILE:LINE) on the status
 * line. Nothing when there is none or the session has no journal folder. */
void viewstate_open(app *a, int fresh);

/* When the workbench ends: writes the last view state (atomically, never over a file retriage
 * did not write). 0, or -1 with why in err. */
int viewstate_close(app *a, char *err, size_t n);

/* Whether the view state is still the one a first open shows (none was restored or changed), and,
 * after runs came in (app_catch_up), making the new one so: a state that only loading changed is
 * not kept either. */
int viewstate_is_fresh(app *a);
void viewstate_mark_fresh(app *a);

/* :view save NAME | :view NAME, :views, :fresh. */
int act_view(app *a, const char *arg);
int act_views(app *a, const char *arg);
int act_fresh(app *a, const char *arg);

#endif
