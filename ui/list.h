/* list — the query list's own state (view_list.c): the listed queries (filtered and sorted), the
 * cursor in them, what the columns show. Other views read the listed queries (judging walks
 * them, :grep and the exports search them, x moves the list's cursor with the query it goes to)
 * and the delta pair (the plot, the exports); only view_list.c and app.c change the rest. */
#ifndef RT_LIST_H
#define RT_LIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app.h"
#include "view.h"

struct list_state {
    size_t *rows_idx;           /* visible rows: indices into ws->qlist */
    size_t nrows;
    size_t sel, top;
    uint32_t *judged;           /* judged passages per query index (app_compute_stats) */
    sort_key sort;
    size_t sort_run;
    int sort_desc;
    size_t measure;             /* the measure the list shows (index into ws->ms) */
    int contrast;               /* the contrast column: 0 none, 1 RBO, 2 Jaccard@10 */
    struct contrast_memo {      /* its values per query, computed once per kind for a pair of runs: */
        double *v[2];           /* rankings do not change, and a sort compares each value log n */
        size_t ra[2], rb[2];    /* times ([0] RBO, [1] Jaccard; NULL: not computed) */
        struct contrast_ahead *ahead;   /* both kinds being computed ahead (view_list.c), or NULL */
        int ahead_asked;
    } memo;
    char text_filter[256];
    int filtering;              /* only the queries that meet cond */
    rt_condition cond;
    char filter_arg[256];       /* cond as typed (:filter ARG): what the view state keeps */
    size_t delta_a, delta_b;    /* runs compared in the delta column */
    size_t hoff;                /* the first run column shown (h/l move the focused run) */
    int qid_w;                  /* the qid column's width, worked out for qid_w_nq listed queries */
    size_t qid_w_nq;            /* (runs read later add some) */
};

/* The list's state (allocated by list_start before the first screen). Borrowed: the app's. */
static inline struct list_state *list_state(app *a) { return view_state(a, VIEW_LIST); }

/* Sets the list up for the workspace: the delta pair (the first two runs), the measure (RR@10
 * when the workspace has it), room for every query's row. Before app_compute_stats. */
void list_start(app *a);

/* view_list_keep.c: the list's part of the view state kept across opens (view_ops.save and
 * .restore, see view.h): measure, delta pair, contrast, filter, text filter, sort, focused query. */
void list_save(app *a, FILE *f);
int list_restore(app *a, const char *key, const char *value);
/* Back to the list as a first open shows it (:fresh): default measure, first two runs, no
 * contrast, no filter, workspace order, the first query. */
void list_fresh(app *a);

#endif
