/* view — one record per view, the way tig's view_ops and ncdu's per-screen functions work: the
 * view's name, how it draws, the (qid, pid) it offers to the annotation keys, its cursor, and what
 * Enter, h/l and x do there, and the size of its own state. The action table (actions.c) names
 * the views an action applies to and calls through these records; a view's state struct and
 * handlers live in its view_<name>.c, so a new view is its own file, an id in app.h and a line in
 * the table (view.c). */
#ifndef RT_VIEW_H
#define RT_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app.h"

/* What a view is about, for the actions shared by every view. */
enum {
    VIEW_IN_QUERY = 1,   /* it shows the current query: x starts from its focused rank */
    VIEW_RUN_FOCUS = 2,  /* it shows the runs side by side, the focused one (a->col) among them */
    VIEW_OF_PASSAGE = 4, /* it shows one passage: stepping to another query leaves it */
};

struct pairlist_ops;

typedef struct view_ops {
    const char *name;    /* "query list": the title, help headings, the man page */
    unsigned flags;
    void (*draw)(app *a, int top, int height);
    /* The pair the view is on: its focused passage, or the query alone (*pid = RT_NO_ID).
     * Returns 0 when there is none. NULL: its pair list's focused pair (pairs below), else the
     * current query, when there is one. */
    int (*focus)(app *a, uint32_t *qid, uint32_t *pid);
    /* The position the movement keys change and how many there are (NULL: its pair list's
     * cursor, else a->scroll, which the view bounds when it draws). */
    size_t *(*cursor)(app *a, size_t *n);
    /* Enter; NULL: its pair list's (the focused pair's passage), else nothing. 0, or -1 with a
     * message. */
    int (*open)(app *a);
    /* x; NULL: its pair list's next row to do, else the next untagged failing passage. */
    int (*next_todo)(app *a);
    void (*side)(app *a, int d);     /* h (-1) / l (+1); NULL: nothing */
    /* The status line's legend when no message is shown, into buf; NULL: the common one. */
    void (*legend)(app *a, char *buf, size_t n);
    /* A view of (query, passage) pairs: its rows (pairlist.h), which give focus, cursor, open
     * and next_todo where the view sets none of its own. NULL: not such a view. */
    const struct pairlist_ops *pairs;
    /* The view's own state (tig's view->private): state_size bytes, zeroed, allocated by the app
     * at the view's first use (view_state) and kept until the workbench closes; 0: none. init
     * sets what does not start at zero (NULL: nothing); release frees what the state points to,
     * not the state itself, which the app frees (NULL: it points to nothing owned). */
    size_t state_size;
    void (*init)(void *state);
    void (*release)(void *state);
    /* Runs were taken in (app_catch_up): what the view keeps per run or per listed query is
     * dropped, made again at its next use. Called only for a view whose state exists. NULL: it
     * keeps nothing of the kind. */
    void (*runs_changed)(app *a, void *state);
    /* The view state kept across opens (viewstate.c): save writes what of the view's state a
     * reopen should restore as lines "KEY VALUE" to f; restore takes one such line back through
     * the view's actions (never by setting members), returning 1 when it took it, 0 when the key
     * is not the view's, -1 when the value is refused (the action's message says why). Called
     * only for a view whose state exists (save) or once it is made (restore). NULL: nothing kept. */
    void (*save)(app *a, FILE *f);
    int (*restore)(app *a, const char *key, const char *value);
} view_ops;

extern const view_ops view_list_ops, view_compare_ops, view_passage_ops, view_metrics_ops,
    view_help_ops, view_report_ops, view_breakdown_ops, view_judge_ops, view_leak_ops, view_agree_ops,
    view_disputes_ops, view_packages_ops, view_package_ops, view_review_ops, view_plot_ops, view_grep_ops,
    view_grepall_ops;

/* The record of view v (never NULL for a valid id). Borrowed: a static record. */
const view_ops *view_get(view_id v);

/* View v's own state (view_ops.state_size bytes), allocated at its first use; NULL for a view
 * without state. Borrowed: the app owns it until view_release_all. */
void *view_state(app *a, view_id v);

/* Tells every view with state that runs were taken in (view_ops.runs_changed). */
void view_runs_changed(app *a);

/* Frees every view's state (the workbench closes). */
void view_release_all(app *a);

/* The record of the view on screen. Borrowed: a static record. */
const view_ops *view_current(const app *a);

/* The pair the current view is on (see focus above); 0 when none. */
int view_focus(app *a, uint32_t *qid, uint32_t *pid);

/* The current view's cursor and in *n how many positions it has (see cursor above). Borrowed: a
 * member of the view's state or of the app, valid until the workbench closes. */
size_t *view_cursor(app *a, size_t *n);

/* Enter in the current view (see open above): 0, or -1 with a message. */
int view_open(app *a);

/* x in the current view (see next_todo above); otherwise(a) when the view has no next of its own. */
int view_next_todo(app *a, int (*otherwise)(app *a));

/* Moves the current view's cursor by d positions, clamped to its range. */
void view_move(app *a, long d);

/* The run in focus (a->col): h/l move it in the list and the side-by-side, whose headers mark it;
 * the status line names it in every view, and f, x and the breakdown's top k follow it. */
size_t view_focused_run(const app *a);

/* ---- the actions each view file defines (bound in the action table) ------------------------ */

/* view_list.c: which queries the list shows and in which order */
int act_search(app *a, const char *arg);
int act_sort(app *a, const char *arg);
int act_reverse(app *a, const char *arg);
int act_sort_by(app *a, sort_key key, size_t run);
int act_filter(app *a, const char *arg);
int act_failing(app *a, const char *arg);
int act_clear_filter(app *a, const char *arg);
int act_goto(app *a, const char *arg);
int act_delta(app *a, const char *arg);
int act_measure(app *a, const char *arg);
int act_contrast(app *a, const char *arg);
/* Once the first screen is up: both contrasts (RBO, Jaccard@10) of the delta runs computed on a
 * low-priority thread, taken by the list when they are done and the pair is still the one shown.
 * Later calls do nothing. */
void list_contrast_ahead(app *a);
/* Whether that thread is still computing (for a script's :idle). */
int list_contrast_ahead_busy(app *a);

/* view_metrics.c: the run the panel marks significance against */
int act_baseline(app *a, const char *arg);
int act_by(app *a, const char *arg);

/* view_passage.c: shows passage pid of the current query from its start; find, when not NULL,
 * becomes the passage search, its first match highlighted and scrolled to (NULL: the search there
 * is stays). */
void passage_show(app *a, uint32_t pid, const char *find);

/* view_passage.c: searching the passage */
int act_find(app *a, const char *arg);
int act_next_match(app *a, const char *arg);
int act_prev_match(app *a, const char *arg);

/* view_judge.c: the distant-supervision hint in judging */
int act_hint(app *a, const char *arg);

/* view_grep.c: searching the passages of the listed queries' rankings */
int act_grep(app *a, const char *arg);
int act_grep_all(app *a, const char *arg);   /* :grep all WORDS (view_grepall.c) */

/* view_plot.c */
int act_plot(app *a, const char *arg);

/* view_breakdown.c */
int act_breakdown(app *a, const char *arg);

/* view_leak.c: the leakage review */
int act_leakage(app *a, const char *arg);
int act_leak_type(app *a, const char *arg);
int act_leaked(app *a, const char *arg);
int leak_next_unreviewed(app *a);
size_t leak_npairs(const app *a);

/* view_agree.c, view_disputes.c: the team of annotators */
int act_agreement(app *a, const char *arg);
int act_disputes(app *a, const char *arg);
int act_adopt(app *a, const char *arg);
int act_adj_relevant(app *a, const char *arg);
int act_adj_not_relevant(app *a, const char *arg);
int act_adj_withdraw(app *a, const char *arg);
int act_adjudicate(app *a, const char *arg);

/* view_packages.c, view_package.c, view_review.c: packages and their review */
int act_packages(app *a, const char *arg);
int act_package(app *a, const char *arg);
int act_review(app *a, const char *arg);
int act_judge_relevant(app *a, const char *arg);
int act_judge_not_relevant(app *a, const char *arg);
int act_review_correct(app *a, const char *arg);
int act_review_wrong(app *a, const char *arg);
int act_review_clear(app *a, const char *arg);
/* Opens package name for judging (view_package.c) or its review sample (view_review.c); 0 or -1. */
int package_open_judging(app *a, const char *name);
int package_open_review(app *a, const char *name);

#endif
