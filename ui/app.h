/* app — the workbench's state shared by the views, the action table and the event loop.
 * Each view has a draw function; actions change state and ask for a redraw. */
#ifndef RT_APP_H
#define RT_APP_H

#include <stddef.h>
#include <stdint.h>

#include "rt_overlap.h"
#include "rt_workspace.h"

typedef enum view_id {
    VIEW_LIST = 0,
    VIEW_COMPARE,
    VIEW_PASSAGE,
    VIEW_METRICS,
    VIEW_HELP,
    VIEW_REPORT,
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
} sort_key;

typedef enum filter_kind {
    FILTER_NONE = 0,
    FILTER_NOTOP,     /* no relevant passage in the top k of run a */
    FILTER_WORSE,     /* RR@10 of run a below that of run b */
} filter_kind;

/* Per query and run, computed once: rank of the first relevant passage (0: none) and RR@10. */
typedef struct qstat {
    uint32_t first_rel;
    double rr10;
} qstat;

typedef struct app {
    rt_workspace *ws;
    int rows, cols;
    view_id view;
    view_id stack[8];
    int depth;
    int quit;
    char msg[512];
    int msg_error;

    qstat *stats;               /* [query index in ws->qlist][run] */
    uint32_t *judged;           /* judged passages per query index */
    int qid_w;                  /* display width of the qid column (0: not yet computed) */

    /* query list */
    size_t *rows_idx;           /* visible rows: indices into ws->qlist */
    size_t nrows;
    size_t sel, top;
    sort_key sort;
    size_t sort_run;
    int sort_desc;
    char text_filter[256];
    filter_kind filter;
    size_t filter_k, filter_a, filter_b;
    size_t delta_a, delta_b;    /* runs compared in the delta column */

    /* side by side */
    size_t cur;                 /* index into ws->qlist */
    size_t col, col_off;        /* focused run, first visible run */
    size_t rank, top_rank;      /* focused rank (0-based), first visible */
    rt_overlap *ov;             /* overlap of the current query */

    /* passage */
    uint32_t pid;
    size_t pscroll;

    /* help, report, metrics */
    size_t scroll;

    /* command line */
    int prompt;                 /* 0, ':' or '/' */
    char line[512];
    size_t line_len;
} app;

/* The current query's qid id. */
uint32_t app_qid(const app *a);

/* Makes ws->qlist[index] the current query (recomputing overlap terms). */
void app_set_query(app *a, size_t index);

/* Rebuilds the visible query rows from the filters and the sort order. */
void app_refresh_rows(app *a);

/* Finds a run by name (or 1-based number); returns its index or (size_t)-1. */
size_t app_find_run(const app *a, const char *name);

void app_push(app *a, view_id v);
void app_pop(app *a);
void app_message(app *a, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Draws the whole screen for the current view. */
void app_draw(app *a);

/* Views: one draw function each. */
void view_list_draw(app *a, int top, int height);
void view_compare_draw(app *a, int top, int height);
void view_passage_draw(app *a, int top, int height);
void view_metrics_draw(app *a, int top, int height);
void view_help_draw(app *a, int top, int height);
void view_report_draw(app *a, int top, int height);

/* Draws the current query (id, then its text with overlap highlighted) on row y. */
void app_draw_query_line(app *a, int y);

/* Rows available to the current view's body. */
int app_body_height(const app *a);

#endif
