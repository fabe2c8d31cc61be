/* app — the workbench's state shared by the views, the action table and the event loop: where
 * the user is (view, query, run, rank), the message line, the prompt, and one pointer to each
 * view's own state (view.h: view_state). Views are records (view.h); actions change this state
 * and never paint: the event loop redraws the whole screen after every key (about a millisecond
 * a frame, make bench-ui). */
#ifndef RT_APP_H
#define RT_APP_H

#include <stddef.h>
#include <stdint.h>

#include "rt_overlap.h"
#include "rt_sample.h"
#include "rt_session.h"
#include "rt_workspace.h"
#include "term.h"

typedef enum view_id {
    VIEW_LIST = 0,
    VIEW_COMPARE,
    VIEW_PASSAGE,
    VIEW_METRICS,
    VIEW_HELP,
    VIEW_REPORT,
    VIEW_BREAKDOWN,
    VIEW_JUDGE,
    VIEW_LEAK,
    VIEW_AGREE,
    VIEW_DISPUTES,
    VIEW_PACKAGES,
    VIEW_PACKAGE,
    VIEW_REVIEW,
    VIEW_PLOT,
    VIEW_GREP,
    VIEW_GREPALL,
    VIEW_COUNT
} view_id;

#define VIEW_BIT(v) (1u << (v))
#define VIEWS_ALL ((1u << VIEW_COUNT) - 1)

typedef enum sort_key {
    SORT_ORDER = 0,   /* workspace order */
    SORT_QID,
    SORT_TEXT,
    SORT_RUN,         /* RR@10 of run sort_run, then first relevant rank */
    SORT_DELTA,
    SORT_JUDGED,
    SORT_TAGS,
    SORT_CONTRAST,    /* the contrast column (RBO or Jaccard of the delta runs), most different first */
} sort_key;

/* A clickable area of the screen, recorded by the view as it draws (the mouse looks it up):
 * a row to focus (a: the cursor position), a column header to sort by (a: sort_key, b: run),
 * a ranked passage of the side-by-side (a: run, b: rank). */
typedef enum region_kind { REGION_CURSOR = 1, REGION_SORT, REGION_CELL } region_kind;
typedef struct region {
    int y, x0, x1;   /* the row and the columns [x0, x1) */
    region_kind kind;
    size_t a, b;
} region;
#define APP_MAX_REGIONS 512

/* A key that waits for a second one. */
typedef enum pending_kind {
    PEND_NONE = 0,
    PEND_QUERY_TAG,   /* t: the next digit tags the query itself */
    PEND_GRADE,       /* r: the next digit is a grade, = the base judgment */
    PEND_FN,          /* a false-negative tag: y relabels the passage as relevant */
} pending_kind;

typedef struct app {
    rt_session *s;              /* the session: the workspace (s->ws), judgments, journal */
    int rows, cols;

    /* navigation: the view on screen and the way back, the current query, run and rank */
    view_id view;
    view_id stack[8];
    int depth;
    int quit;
    size_t cur;                 /* the current query: index into ws->qlist */
    size_t col;                 /* focused run */
    size_t rank;                /* focused rank (0-based) of the side by side */
    rt_overlap *ov;             /* overlap with the current query's text */
    size_t scroll;              /* the position of the views without a cursor of their own (help,
                                 * report, metrics, breakdown, agreement): view_cursor */

    /* each view's own state, by view_id (view_state allocates it at the view's first use; NULL
     * until then, and for a view without state) */
    void *state[VIEW_COUNT];

    /* what the last draw left: where to click, and which of its columns the view showed (the
     * status line's "runs 1-3 of 6"): the first, how many, of how many, what (htotal 0: none) */
    region regions[APP_MAX_REGIONS];
    int nregions;
    size_t hfirst, hshown, htotal;
    const char *hwhat;

    /* the message line */
    char msg[512];
    int msg_error;
    int msg_keep;               /* the message stays until the next key (app_wait was given up) */

    /* the prompt, and keys that wait for a second one */
    int prompt;                 /* 0, ':' or '/' */
    char line[512];
    size_t line_len;
    pending_kind pending;
    uint32_t pend_qid, pend_pid;
    int key;                    /* the key that started the running action */
    int mouse;                  /* mouse events are taken (interactive unless --no-mouse; scripts with --mouse) */

    /* loading behind the screen */
    size_t warned;             /* load warnings the user was told of (or that were there at the
                                * first screen): more since, and a run or the collection coming in
                                * says so */
    int warn_note;             /* that was said since the last draw: a message set after it (the
                                * command that waited for them) keeps it */
    size_t seen_runs, seen_nq; /* the runs and listed queries the workbench's state is sized for */
    uint64_t seen_gen;         /* the workspace's generation they were seen at */

    /* shared by several views and the exports */
    size_t bk;                  /* top k for the breakdown, "next failing" and exports (default 5) */
    char *set;                  /* the query set the list and breakdown are limited to, or NULL */
    struct hint_cache *hints;   /* hint.c's (NULL until a hint is drawn) */
    struct rt_leakage *leak;    /* the leakage candidates, found on first use of the view */
    int leak_candidates;        /* the metrics split counts every candidate, not only reviewed leaks */
    struct team_state *team;    /* the team of annotators (team.c): opened on first use */
    char **annotators;          /* --annotators, or NULL: every journal of the folder */
    struct measure_job *mjob;   /* measures being computed for the list (measure.c), or NULL */
    char *fresh_state;          /* viewstate.c: the view state a first open shows, which is not kept */
    size_t nannotators;
} app;

/* The current grade of (qid, pid) (base ⊕ relabels); 0 when unjudged. */
int app_grade(const app *a, uint32_t qid, uint32_t pid, int32_t *grade);

/* Recomputes what the list shows for query qid after its judgments or tags changed. */
void app_query_changed(app *a, uint32_t qid);

/* Fills the per-query statistics of every row (once, at start). */
void app_compute_stats(app *a);

/* The current query's qid id. */
uint32_t app_qid(const app *a);

/* The digit keys of the workspace's taxonomy ("1-8") into buf; returns buf (Borrowed: it is the
 * caller's buf). */
const char *app_tag_keys(const app *a, char *buf, size_t n);

/* The index in ws->qlist of query qid (0 when it is not listed). */
size_t app_query_index(const app *a, uint32_t qid);

/* Makes ws->qlist[index] the current query (recomputing overlap terms). */
void app_set_query(app *a, size_t index);

/* Rebuilds the visible query rows from the filters and the sort order. */
void app_refresh_rows(app *a);


void app_push(app *a, view_id v);
void app_pop(app *a);
/* Back to the query list, the bottom of the view stack. */
void app_show_list(app *a);
void app_message(app *a, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Draws the whole screen for the current view. */
void app_draw(app *a);

/* Reacts to what loading brought (rt_session_poll's events: a step of the runs still being read,
 * or the collection indexed behind the first screen; with wait 1, everything waited for first):
 * the views catch up with the runs taken in, and a message says what came of them. 1 when
 * something came in or failed since the last call (redraw), else 0. */
int app_settle(app *a, int wait);

/* Whether anything is still loading behind the screen, or came in and is not yet said. */
int app_loading(const app *a);

/* rt_workspace_find_run, waiting for the runs still being read when name is none of those in. */
size_t app_find_run(app *a, const char *name);

/* Waits for the runs still being read (APP_WAIT_RUNS), the collection still being indexed
 * (APP_WAIT_COLLECTION), or both, taking each in as it comes and saying on the status line what
 * it waits for; Esc gives up (a message says the command was not run), and so does a signal.
 * 1 when what was waited for is in (or failed: the message says so), 0 when given up. */
#define APP_WAIT_RUNS 1u
#define APP_WAIT_COLLECTION 2u
#define APP_WAIT_ALL 3u
int app_wait(app *a, unsigned what);

/* Brings the workbench's state up to runs taken in since it last looked (by app_settle, or by the
 * session, which takes them in when it must know a passage): new queries' rows, the views' state
 * kept per run. Nothing when none came. */
void app_catch_up(app *a);

/* Draws the judgment badge of (qid, pid) at (y, x) — + relevant, - not, ? unjudged; "base>now"
 * when a relabel changed it — then the keys of its tag categories. Returns the columns used. */
int app_draw_badge(app *a, int y, int x, int w, uint32_t qid, uint32_t pid, int focused);

/* Draws the beginning of passage pid (overlap highlighted), or [pid] when it is not in the
 * collection, in w columns. */
void app_draw_passage_start(app *a, int y, int x, int w, uint32_t pid, term_role role);

/* The same for a passage of any query qid, its overlap with qid's text highlighted. */
void app_draw_passage_of(app *a, int y, int x, int w, uint32_t qid, uint32_t pid, term_role role);

/* Shows passage pid of query qid in full (the passage view), from a view of pairs. */
void app_open_passage(app *a, uint32_t qid, uint32_t pid);

/* Draws the current query (id, then its text with overlap highlighted) on row y. */
void app_draw_query_line(app *a, int y);

/* The taxonomy's keyed categories as "1 entity  2 numeral …" (full: their names, else their ids)
 * into buf; returns the length. app_draw_tax_legend draws it, dim, on the rows ending at row
 * bottom (one, or two when it does not fit) and returns how many: the legend of the digit keys
 * in the views that tag (side by side, passage, judging). */
size_t app_tax_legend(const app *a, int full, char *buf, size_t n);
int app_draw_tax_legend(app *a, int bottom);

/* Rows available to the current view's body. */
int app_body_height(const app *a);

/* "  runs 1–3 of 6 (h/l)" when the view on screen shows only some of its columns, else "". */
void app_columns_hint(const app *a, char *buf, size_t n);

/* The run names as column headers of width columns show them (rt_text_short_names) and, when
 * any had to be shortened, a legend "short = full …" in legend. Owned: the caller frees them with
 * app_free_names. */
char **app_run_short_names(const app *a, size_t width, char *legend, size_t n);

/* Says which of its columns the view on screen shows (the status line's "runs 1–3 of 4 (h/l)"). */
void app_show_columns(app *a, size_t first, size_t shown, size_t total, const char *what);

/* Frees n names and the array (view_list's short run names, shared with the breakdown). */
void app_free_names(char **names, size_t n);

/* Recomputes the list's rows and goes to the first one (after a sort, filter or search). */
void app_rows_to_top(app *a);

/* Records a clickable area while drawing (ignored beyond APP_MAX_REGIONS). */
void app_region(app *a, int y, int x0, int x1, region_kind kind, size_t va, size_t vb);

/* A mouse event at screen column x, row y: button 1 clicks (clicks 2: a double click) focus the
 * row or cell there, or sort by the header there, and a double click opens; wheel -1 / +1 scrolls
 * the view three rows. Returns 0, or -1 when nothing is there. */
int app_mouse(app *a, int x, int y, int clicks, int wheel);

#endif
