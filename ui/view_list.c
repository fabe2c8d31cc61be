/* view_list — the query list: qid, query text, per run the rank of the first relevant passage
 * and the value of the list's measure (any of the workspace's, or one computed when asked for:
 * measure.c; RR@10 unless the workspace lacks it), the delta of two runs on it, and judged/tag
 * counts. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "list.h"
#include "draw.h"
#include "rt_mem.h"
#include "rt_text.h"
#include "rt_warm.h"
#include "view.h"
#include "rt_thread.h"
#include "rt_contrast.h"
#include "rt_run.h"

#define RUN_W 11
#define DELTA_W 7
#define COUNT_W 7
#define CONTRAST_W 7

/* Filling a contrast memo: the queries [from, to) of it, on one of two threads. */
typedef struct contrast_fill {
    const rt_workspace *ws;
    size_t ra, rb;
    int kind;       /* 0 RBO, 1 Jaccard@10 */
    double *v;
    size_t from, to;
} contrast_fill;

/* A filling thread. Touches: its values [from, to); reads runs ra and rb, the qrels and
 * ws->qlist, which nothing changes meanwhile (the caller joins it before it goes on). */
static void *fill_contrast(void *arg)
{
    contrast_fill *f = arg;
    for (size_t i = f->from; i < f->to; i++) {
        double v;
        f->v[i] = rt_contrast_of(f->ws, f->ra, f->rb, f->ws->qlist[i], f->kind, &v) ? v : -1;
    }
    return NULL;
}

/* Both kinds of contrast for the delta pair of the moment the first screen was up, computed on a
 * low-priority thread (list_contrast_ahead), so that the first :sort rbo or contrast column does
 * not wait for them; one asked for before the thread is done takes what it has (ahead_split). */
struct contrast_ahead {
    pthread_t th;
    const rt_workspace *ws;
    size_t ra, rb;
    uint32_t *qlist;      /* the query list as it was when it started (a copy) */
    size_t nq;
    double *v[2];         /* [0] RBO, [1] Jaccard@10, per query as in the memo */
    size_t max;           /* the queries it computes of each kind (nq, or fewer for a test) */
    atomic_size_t upto[2];   /* the values of kind k are in for the queries [0, upto[k]) */
    atomic_int stop, ended;
};

/* The thread computing contrasts ahead. Touches: its own copy of the query list, runs ra and rb
 * of the workspace (their rankings, read: a run in never changes, and the array of runs never
 * moves), the qrels (read), its values and their counts. Never touches: ws->qlist or ws->nq (the
 * loader rebuilds them when a run comes in), the collection, the report, the session. Jaccard
 * first: all of it costs what a twentieth of the RBOs do. */
static void *contrast_ahead_thread(void *arg)
{
    struct contrast_ahead *h = arg;
    rt_thread_lower_priority();
    rt_run_populate(h->ws->runs[h->ra].run);
    rt_run_populate(h->ws->runs[h->rb].run);
    for (int k = 1; k >= 0; k--)
        for (size_t i = 0; i < h->max && !atomic_load_explicit(&h->stop, memory_order_relaxed); i++) {
            double v;
            h->v[k][i] = rt_contrast_of(h->ws, h->ra, h->rb, h->qlist[i], k, &v) ? v : -1;
            atomic_store_explicit(&h->upto[k], i + 1, memory_order_release);
        }
    atomic_store(&h->ended, 1);
    return NULL;
}

void list_contrast_ahead(app *a)
{
    struct list_state *l = list_state(a);
    struct contrast_memo *m = &l->memo;
    if (m->ahead_asked || a->s->ws->nruns < 2 || l->delta_a == l->delta_b ||
        rt_loader_runs_loading(a->s->ws, NULL, NULL))   /* taking a run in grows the query list it reads */
        return;
    m->ahead_asked = 1;
    struct contrast_ahead *h = rt_calloc(1, sizeof *h);
    h->ws = a->s->ws;
    h->ra = l->delta_a;
    h->rb = l->delta_b;
    for (int k = 0; k < 2; k++)
        h->v[k] = rt_reallocarray(NULL, a->s->ws->nq + 1, sizeof *h->v[k]);
    h->nq = a->s->ws->nq;
    size_t max = a->s->ws->tuning.contrast_ahead_max;
    h->max = max && max < h->nq ? max : h->nq;
    h->qlist = rt_reallocarray(NULL, h->nq + 1, sizeof *h->qlist);
    memcpy(h->qlist, a->s->ws->qlist, h->nq * sizeof *h->qlist);
    if (pthread_create(&h->th, NULL, contrast_ahead_thread, h) != 0) {
        free(h->v[0]);
        free(h->v[1]);
        free(h->qlist);
        free(h);
        return;
    }
    m->ahead = h;
}

int list_contrast_ahead_busy(app *a)
{
    const struct contrast_ahead *h = list_state(a)->memo.ahead;
    return h && !atomic_load(&h->ended);
}

/* Stops and frees the thread computing ahead, if any. */
static void ahead_free(struct contrast_ahead *h)
{
    free(h->v[0]);
    free(h->v[1]);
    free(h->qlist);
    free(h);
}

static void ahead_end(struct contrast_memo *m)
{
    struct contrast_ahead *h = m->ahead;
    if (!h)
        return;
    atomic_store(&h->stop, 1);
    pthread_join(h->th, NULL);
    ahead_free(h);
    m->ahead = NULL;
}

/* Whether the memo holds kind k for the delta pair now. */
static int memo_holds(const struct list_state *l, const struct contrast_memo *m, int k)
{
    return m->v[k] && m->ra[k] == l->delta_a && m->rb[k] == l->delta_b;
}

/* Whether the thread computing ahead computes the delta pair now over the query list now (a run
 * the session took in, which runs_changed has not yet been told of, grows the list). */
static int ahead_fits(const struct contrast_ahead *h, const struct list_state *l, const rt_workspace *ws)
{
    return h->ra == l->delta_a && h->rb == l->delta_b && h->nq == ws->nq &&
           memcmp(h->qlist, ws->qlist, h->nq * sizeof *h->qlist) == 0;
}

/* The thread computing ahead (if any) stopped, or ended: kind k's values in so far (all of them
 * once it is done), when it computes the delta pair now over the query list now, in *v (owned by
 * the caller; NULL: none), and how many in *from. The other kind is taken into the memo when it
 * is complete. */
static void ahead_split(struct list_state *l, struct contrast_memo *m, const rt_workspace *ws, int k,
                        double **v, size_t *from)
{
    struct contrast_ahead *h = m->ahead;
    *v = NULL;
    *from = 0;
    if (!h)
        return;
    atomic_store(&h->stop, 1);
    pthread_join(h->th, NULL);
    m->ahead = NULL;
    if (ahead_fits(h, l, ws)) {
        *from = atomic_load(&h->upto[k]);
        *v = h->v[k];
        h->v[k] = NULL;
        if (atomic_load(&h->upto[!k]) == h->nq) {
            free(m->v[!k]);
            m->v[!k] = h->v[!k];
            h->v[!k] = NULL;
            m->ra[!k] = h->ra;
            m->rb[!k] = h->rb;
        }
    }
    ahead_free(h);
}

/* The contrast of the delta runs on query qi (RBO or Jaccard@10); -1 when neither ranks it.
 * At the first need for this kind and pair of runs: what the thread computing ahead has of it,
 * and the rest computed then on both cores (RBO of 7,000 rankings of 1,000 is a twentieth of a
 * second on one); then remembered. */
static double contrast_of(app *a, size_t qi)
{
    struct list_state *l = list_state(a);
    struct contrast_memo *m = &l->memo;
    int k = l->contrast == 2;
    if (!memo_holds(l, m, k)) {
        const rt_workspace *ws = a->s->ws;
        size_t nq = ws->nq, from;
        double *v;
        ahead_split(l, m, ws, k, &v, &from);   /* the cores are this computation's */
        if (from < nq) {   /* every ranking of both is read */
            rt_run_populate(ws->runs[l->delta_a].run);
            rt_run_populate(ws->runs[l->delta_b].run);
        }
        free(m->v[k]);
        m->v[k] = rt_reallocarray(v, nq + 1, sizeof *m->v[k]);
        size_t mid = from + (nq - from) / 2;
        contrast_fill f[2] = {{ws, l->delta_a, l->delta_b, k, m->v[k], from, mid},
                              {ws, l->delta_a, l->delta_b, k, m->v[k], mid, nq}};
        pthread_t th;
        int two = nq - from >= 512 && pthread_create(&th, NULL, fill_contrast, &f[1]) == 0;
        if (!two)
            f[0].to = nq;
        fill_contrast(&f[0]);
        if (two)
            pthread_join(th, NULL);
        m->ra[k] = l->delta_a;
        m->rb[k] = l->delta_b;
    }
    return m->v[k][qi];
}

/* ---- the rows: which queries the list shows, in which order ------------------------------ */

/* Run r's value of the list's measure on query qi (0 when undefined: MFR without a relevant). */
static double value_of(app *a, size_t qi, size_t r)
{
    double v = 0;
    return rt_live_value(a->s->live, r, a->s->ws->qlist[qi], list_state(a)->measure, &v) ? v : 0;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return 1;
    return n == 0;
}

static int in_set(const rt_qset *set, uint32_t q)
{
    for (size_t i = 0; set && i < set->n; i++)
        if (set->qids[i] == q)
            return 1;
    return 0;
}

static int visible(app *a, size_t qi)
{
    struct list_state *l = list_state(a);
    uint32_t q = a->s->ws->qlist[qi];
    if (a->set && !in_set(rt_annot_set(a->s->annot, a->set), q))
        return 0;
    if (l->text_filter[0]) {
        const char *t = rt_workspace_query_text(a->s->ws, q);
        if (!contains_ci(rt_strtab_str(a->s->ws->qids, q), l->text_filter) && !(t && contains_ci(t, l->text_filter)))
            return 0;
    }
    /* the same conditions as :sample, over the judged queries (unjudged ones cannot fail), but
     * those that read no qrels (tags, contrasts) over every query */
    rt_cond_kind k = l->cond.kind;
    int any = k == RT_COND_RBO || k == RT_COND_JACCARD || k == RT_COND_TAGGED || k == RT_COND_UNTAGGED;
    return !l->filtering || ((any || rt_live_is_judged(a->s->live, q)) && rt_condition_holds(a->s, &l->cond, q));
}

static double delta_of(app *a, size_t qi)
{
    struct list_state *l = list_state(a);
    return value_of(a, qi, l->delta_a) - value_of(a, qi, l->delta_b);
}

/* Natural order: runs of digits compare as numbers (q2 before q10), the rest byte by byte. */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            const char *x = a, *y = b;
            while (*x == '0')
                x++;
            while (*y == '0')
                y++;
            const char *xe = x, *ye = y;
            while (*xe >= '0' && *xe <= '9')
                xe++;
            while (*ye >= '0' && *ye <= '9')
                ye++;
            if (xe - x != ye - y)
                return xe - x < ye - y ? -1 : 1;   /* more digits: a bigger number */
            int c = memcmp(x, y, (size_t)(xe - x));
            if (c)
                return c;
            a = xe;
            b = ye;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int row_cmp(const void *x, const void *y, void *ctx)
{
    app *a = ctx;
    struct list_state *l = list_state(a);
    const rt_workspace *ws = a->s->ws;
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    int c = 0;
    switch (l->sort) {
    case SORT_ORDER:
        break;
    case SORT_QID:
        c = natural_cmp(rt_strtab_str(ws->qids, ws->qlist[i]), rt_strtab_str(ws->qids, ws->qlist[j]));
        break;
    case SORT_TEXT: {
        const char *s = rt_workspace_query_text(a->s->ws, ws->qlist[i]);
        const char *t = rt_workspace_query_text(a->s->ws, ws->qlist[j]);
        c = strcmp(s ? s : "", t ? t : "");
        break;
    }
    case SORT_RUN: {
        double s = value_of(a, i, l->sort_run), t = value_of(a, j, l->sort_run);
        c = s < t ? -1 : s > t;
        if (!c) {
            size_t fs = rt_session_first_rel(a->s, l->sort_run, ws->qlist[i]);
            size_t ft = rt_session_first_rel(a->s, l->sort_run, ws->qlist[j]);
            fs = fs ? fs : (size_t)-1;
            ft = ft ? ft : (size_t)-1;
            c = fs > ft ? -1 : fs < ft;   /* worse (later or no) first relevant first */
        }
        break;
    }
    case SORT_DELTA: {
        /* by the size of the difference, whichever run wins: the pair's order does not say which
         * is the baseline, and the queries the runs disagree on most are what one looks at
         * first. At equal size a loss of A (Δ < 0) counts as the larger (it comes first). */
        double d = delta_of(a, i), e = delta_of(a, j), ad = fabs(d), ae = fabs(e);
        c = ad < ae ? -1 : ad > ae ? 1 : d > e ? -1 : d < e;
        break;
    }
    case SORT_JUDGED:
        c = l->judged[i] < l->judged[j] ? -1 : l->judged[i] > l->judged[j];
        break;
    case SORT_CONTRAST: {
        double ci = contrast_of(a, i), cj = contrast_of(a, j);   /* most different (lowest) first */
        if ((ci < 0) != (cj < 0))
            return ci < 0 ? 1 : -1;   /* none (neither run ranks it): last, either way */
        c = ci < cj ? -1 : ci > cj;
        break;
    }
    case SORT_TAGS: {
        size_t ti = rt_annot_tag_count(a->s->annot, ws->qlist[i]);
        size_t tj = rt_annot_tag_count(a->s->annot, ws->qlist[j]);
        c = ti < tj ? -1 : ti > tj;
        break;
    }
    }
    if (l->sort_desc)
        c = -c;
    return c ? c : (i < j ? -1 : i > j);
}

void app_refresh_rows(app *a)
{
    struct list_state *l = list_state(a);
    size_t keep = l->nrows ? l->rows_idx[l->sel < l->nrows ? l->sel : 0] : 0;
    l->nrows = 0;
    for (size_t i = 0; i < a->s->ws->nq; i++)
        if (visible(a, i))
            l->rows_idx[l->nrows++] = i;
    qsort_r(l->rows_idx, l->nrows, sizeof *l->rows_idx, row_cmp, a);
    l->sel = 0;
    for (size_t k = 0; k < l->nrows; k++)
        if (l->rows_idx[k] == keep)
            l->sel = k;
    l->top = 0;
}

/* After a sort, a filter or a search the list starts at its first row, focused: the rows the
 * user asked for are on screen from the top (a live update keeps the focused query instead). */
void app_rows_to_top(app *a)
{
    struct list_state *l = list_state(a);
    app_refresh_rows(a);
    l->sel = 0;
    l->top = 0;
}

/* ---- actions on the list ------------------------------------------------------------------ */

int act_search(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    if (a->view == VIEW_PASSAGE)   /* / in the passage view searches the passage */
        return act_find(a, arg);
    if (!arg) {
        a->prompt = '/';
        a->line_len = 0;
        a->line[0] = '\0';
        return 0;
    }
    snprintf(l->text_filter, sizeof l->text_filter, "%s", arg);
    app_show_list(a);
    app_rows_to_top(a);
    app_message(a, 0, *arg ? "%zu queries match \"%s\"" : "%zu queries", l->nrows, arg);
    return 0;
}

/* The direction a key sorts in when none is asked for: the useful end first — the largest
 * differences (delta), the most tags — else ascending (a run: its worst queries first). */
static int sort_default_desc(sort_key key)
{
    return key == SORT_DELTA || key == SORT_TAGS;
}

/* Says what the list is sorted by, and for delta and tags which end comes first in words. */
static void sort_message(app *a)
{
    struct list_state *l = list_state(a);
    const rt_workspace *ws = a->s->ws;
    const char *names[] = {"workspace order", "qid", "query text", "run", "delta", "judged", "tags",
                           l->contrast == 2 ? "Jaccard@10 of the delta runs" : "RBO of the delta runs"};
    const char *dir = l->sort_desc ? ", descending" : "";
    if (l->sort == SORT_DELTA)
        dir = l->sort_desc ? ", the largest difference first (a loss before a gain of the same size)"
                           : ", the smallest difference first";
    else if (l->sort == SORT_TAGS)
        dir = l->sort_desc ? ", the most first" : ", the fewest first";
    if (l->sort == SORT_RUN)
        app_message(a, 0, "sorted by %s of %s%s", ws->ms[l->measure].name, rt_run_name(ws->runs[l->sort_run].run), dir);
    else
        app_message(a, 0, "sorted by %s%s", names[l->sort], dir);
}

static int set_sort(app *a, const char *key)
{
    struct list_state *l = list_state(a);
    static const struct { const char *n; sort_key k; } keys[] = {
        {"order", SORT_ORDER}, {"qid", SORT_QID}, {"text", SORT_TEXT},
        {"delta", SORT_DELTA}, {"judged", SORT_JUDGED}, {"tags", SORT_TAGS},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i].n) == 0) {
            l->sort = keys[i].k;
            return 0;
        }
    if (!strcmp(key, "rbo") || !strcmp(key, "jaccard")) {   /* shows the column too */
        l->contrast = key[0] == 'r' ? 1 : 2;
        l->sort = SORT_CONTRAST;
        return 0;
    }
    size_t r = app_find_run(a, key);
    if (r == (size_t)-1) {
        app_message(a, 1, "sort by what? order, qid, text, delta, judged, tags, rbo, jaccard or a run name, not \"%s\"",
                    key);
        return -1;
    }
    l->sort = SORT_RUN;
    l->sort_run = r;
    return 0;
}

int act_sort(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    const rt_workspace *ws = a->s->ws;
    if (!arg || !*arg) {
        /* cycle: order → qid → text → each run → delta → judged → tags → order; the contrast
         * sort (:sort rbo|jaccard, a click on its header) is no step of it and goes on as tags does */
        if (l->sort == SORT_RUN && l->sort_run + 1 < ws->nruns)
            l->sort_run++;
        else if (l->sort == SORT_TEXT) {
            l->sort = SORT_RUN;
            l->sort_run = 0;
        } else if (l->sort == SORT_RUN)
            l->sort = SORT_DELTA;
        else if (l->sort >= SORT_TAGS)
            l->sort = SORT_ORDER;
        else
            l->sort = (sort_key)(l->sort + 1);
        l->sort_desc = l->sort != SORT_RUN && sort_default_desc(l->sort);   /* (a run: as it was) */
    } else {
        char key[128], dir[16] = "";
        if (sscanf(arg, "%127s %15s", key, dir) < 1 || set_sort(a, key) != 0)
            return -1;
        if (*dir && strcmp(dir, "asc") != 0 && strcmp(dir, "desc") != 0) {
            app_message(a, 1, "sort direction is asc or desc, not \"%s\"", dir);
            return -1;
        }
        l->sort_desc = *dir ? strcmp(dir, "desc") == 0 : l->sort != SORT_RUN && sort_default_desc(l->sort);
    }
    app_rows_to_top(a);
    sort_message(a);
    return 0;
}

/* A click on a column header: sort by it, or reverse when it is already the sort. */
int act_sort_by(app *a, sort_key key, size_t run)
{
    struct list_state *l = list_state(a);
    if (l->sort == key && (key != SORT_RUN || l->sort_run == run))
        l->sort_desc = !l->sort_desc;
    else {
        l->sort = key;
        l->sort_run = key == SORT_RUN ? run : l->sort_run;
        l->sort_desc = key == SORT_RUN || key == SORT_DELTA || key == SORT_JUDGED || key == SORT_TAGS;
    }
    app_rows_to_top(a);
    sort_message(a);
    return 0;
}

int act_reverse(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    (void)arg;
    l->sort_desc = !l->sort_desc;
    app_rows_to_top(a);
    sort_message(a);   /* which end comes first now, in the words :sort used */
    return 0;
}

int act_filter(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    char kind[32] = "";
    rt_err err;
    if (!arg || sscanf(arg, "%31s", kind) < 1 || strcmp(kind, "none") == 0) {
        l->filtering = 0;
        l->text_filter[0] = '\0';
    } else if (strcmp(kind, "text") == 0) {
        const char *t = strstr(arg, "text") + 4;
        while (*t == ' ')
            t++;
        snprintf(l->text_filter, sizeof l->text_filter, "%s", t);
    } else if (rt_condition_parse(a->s->ws, arg, &l->cond, &err) == RT_OK ||
               (rt_loader_runs_loading(a->s->ws, NULL, NULL) && app_wait(a, APP_WAIT_RUNS) &&   /* a run still being read */
                rt_condition_parse(a->s->ws, arg, &l->cond, &err) == RT_OK)) {
        l->filtering = 1;
        l->cond.measure = l->measure;   /* worse / better: on the list's measure */
        snprintf(l->filter_arg, sizeof l->filter_arg, "%s", arg);
    } else {
        app_message(a, 1, "usage: :filter none | text STRING | notop K RUN | worse RUN_A RUN_B [MIN_DELTA] | "
                    "better RUN_A RUN_B [MIN_DELTA] | rbo RUN_A RUN_B MAX | jaccard RUN_A RUN_B MAX | zero RUN | tagged | untagged");
        return -1;
    }
    app_show_list(a);
    app_rows_to_top(a);
    app_message(a, 0, "%zu queries shown", l->nrows);
    return 0;
}

/* f: the queries the focused run fails — no relevant passage in its top 5 when the list shows
 * RR@10 (the paper's failures), a value of 0 on the list's measure otherwise. */
int act_failing(app *a, const char *arg)
{
    (void)arg;
    char buf[160];
    const char *run = rt_run_name(a->s->ws->runs[view_focused_run(a)].run);
    if (!strcmp(a->s->ws->ms[list_state(a)->measure].name, "RR@10"))
        snprintf(buf, sizeof buf, "notop 5 %s", run);
    else
        snprintf(buf, sizeof buf, "zero %s", run);
    return act_filter(a, buf);
}

int act_clear_filter(app *a, const char *arg) { (void)arg; return act_filter(a, "none"); }

int act_goto(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    if (!arg || !*arg) {
        app_message(a, 1, "usage: :goto QID");
        return -1;
    }
    uint32_t q = rt_strtab_find(a->s->ws->qids, arg, strlen(arg));
    if (q == RT_NO_ID && rt_loader_runs_loading(a->s->ws, NULL, NULL) && app_wait(a, APP_WAIT_RUNS))   /* one only a later run ranks? */
        q = rt_strtab_find(a->s->ws->qids, arg, strlen(arg));
    for (size_t i = 0; q != RT_NO_ID && i < a->s->ws->nq; i++)
        if (a->s->ws->qlist[i] == q) {
            for (size_t k = 0; k < l->nrows; k++)
                if (l->rows_idx[k] == i)
                    l->sel = k;
            app_set_query(a, i);
            app_show_list(a);
            app_push(a, VIEW_COMPARE);
            return 0;
        }
    app_message(a, 1, "no query with id \"%s\"", arg);
    return -1;
}

int act_delta(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    char x[128], y[128];
    if (!arg || sscanf(arg, "%127s %127s", x, y) != 2) {
        app_message(a, 1, "usage: :delta RUN_A RUN_B");
        return -1;
    }
    size_t r1 = app_find_run(a, x), r2 = app_find_run(a, y);
    if (r1 == (size_t)-1 || r2 == (size_t)-1) {
        app_message(a, 1, "unknown run in \"%s\"", arg);
        return -1;
    }
    l->delta_a = r1;
    l->delta_b = r2;
    app_refresh_rows(a);
    return 0;
}

/* ---- drawing ------------------------------------------------------------------------------ */

/* The qid column's width: the widest listed qid's, at most 16; worked out again when the listed
 * queries grow (runs read later add some). */
static int qid_width(app *a)
{
    struct list_state *l = list_state(a);
    const rt_workspace *ws = a->s->ws;
    if (l->qid_w && l->qid_w_nq == ws->nq)
        return l->qid_w;
    l->qid_w_nq = ws->nq;
    int w = 3;
    for (size_t i = 0; i < ws->nq; i++) {
        int n = (int)rt_text_width(rt_strtab_str(ws->qids, ws->qlist[i]), rt_strtab_len(ws->qids, ws->qlist[i]));
        if (n > w)
            w = n;
    }
    l->qid_w = w > 16 ? 16 : w;
    return l->qid_w;
}

/* How many run columns fit beside qid, a query text of at least 16 columns, delta and counts. */
static size_t runs_shown(app *a, int qw)
{
    int rest = a->cols - qw - 1 - 16 - DELTA_W - 2 * COUNT_W;
    size_t n = rest > 0 ? (size_t)(rest / RUN_W) : 0;
    return n < a->s->ws->nruns ? n : a->s->ws->nruns;
}

char **app_run_short_names(const app *a, size_t width, char *legend, size_t n)
{
    size_t nr = a->s->ws->nruns;
    const char **full = rt_calloc(nr + 1, sizeof *full);
    char **out = rt_calloc(nr + 1, sizeof *out);
    for (size_t r = 0; r < nr; r++)
        full[r] = rt_run_name(a->s->ws->runs[r].run);
    size_t k = rt_text_short_names(full, nr, width, out);
    size_t o = 0;
    legend[0] = '\0';
    for (size_t r = 0; k && r < nr && o < n; r++)
        if (strcmp(out[r], full[r]) != 0)
            o += (size_t)snprintf(legend + o, n - o, "%s%s\u00a0=\u00a0%s", o ? "   " : "runs: ", out[r], full[r]);
    free(full);
    return out;
}

void app_free_names(char **names, size_t n)
{
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* The list's columns on screen: the qid's and the query text's widths, the run columns shown
 * (nr) from the first, l->hoff. */
typedef struct list_layout {
    int qw, textw;
    size_t nr;
} list_layout;

/* Works out the columns, keeping the focused run among the run columns shown (h/l move it,
 * scrolling them). */
static list_layout layout(app *a)
{
    struct list_state *l = list_state(a);
    size_t nruns = a->s->ws->nruns;
    list_layout c;
    c.qw = qid_width(a);
    c.nr = runs_shown(a, c.qw);
    c.textw = a->cols - c.qw - 1 - (int)c.nr * RUN_W - DELTA_W - 2 * COUNT_W - (l->contrast ? CONTRAST_W : 0);
    if (c.textw < 4)
        c.textw = 4;
    if (a->col >= nruns)
        a->col = 0;
    if (a->col < l->hoff)
        l->hoff = a->col;
    if (c.nr && a->col >= l->hoff + c.nr)
        l->hoff = a->col - c.nr + 1;
    if (l->hoff + c.nr > nruns)
        l->hoff = nruns - c.nr;
    app_show_columns(a, l->hoff, c.nr, nruns, "runs");
    return c;
}

/* One header cell from column x, w wide, that sorts by key (run: of SORT_RUN) when clicked;
 * returns the next cell's column. */
static int header_cell(app *a, int y, int x, int w, const char *text, sort_key key, size_t run)
{
    draw_text(y, x, w, text, strlen(text), ROLE_HEADER, NULL);
    app_region(a, y, x, x + w, REGION_SORT, key, run);
    return x + w;
}

/* The header row (each column sorts when clicked) and, below it when any run name had to be
 * shortened, which short name is which run; returns the rows that legend took. */
static int draw_header(app *a, int top, int height, const list_layout *c)
{
    struct list_state *l = list_state(a);
    rt_workspace *ws = a->s->ws;
    char legend[1024];
    char **names = app_run_short_names(a, RUN_W - 2, legend, sizeof legend);   /* a marker and a gap */
    int x = header_cell(a, top, 0, c->qw + 1, "qid", SORT_QID, 0);
    char qh[80];
    snprintf(qh, sizeof qh, "query (%s)", ws->ms[l->measure].name);
    x = header_cell(a, top, x, c->textw, qh, SORT_TEXT, 0);
    for (size_t k = 0; k < c->nr; k++) {
        size_t r = l->hoff + k;
        app_region(a, top, x, x + RUN_W, REGION_SORT, SORT_RUN, r);
        draw_text(top, x, 1, r == a->col ? ">" : " ", 1, ROLE_HEADER, NULL);
        draw_text(top, x + 1, RUN_W - 2, names[r], strlen(names[r]), ROLE_HEADER, NULL);
        draw_fill(top, x + RUN_W - 1, 1, ROLE_HEADER);   /* two headers never run together */
        x += RUN_W;
    }
    char dh[32];
    snprintf(dh, sizeof dh, "Δ%zu-%zu", l->delta_a + 1, l->delta_b + 1);
    x = header_cell(a, top, x, DELTA_W, dh, SORT_DELTA, 0);
    if (l->contrast)
        x = header_cell(a, top, x, CONTRAST_W, l->contrast == 2 ? "Jac@10" : "RBO", SORT_CONTRAST, 0);
    x = header_cell(a, top, x, COUNT_W, "judged", SORT_JUDGED, 0);
    header_cell(a, top, x, a->cols - x, "tags", SORT_TAGS, 0);
    app_free_names(names, ws->nruns);
    if (legend[0] && height > 4)   /* which short name is which run */
        return draw_wrapped(top + 1, 0, a->cols, height > 12 ? 2 : 1, legend, strlen(legend), ROLE_DIM);
    return 0;
}

/* Run r's cell of query qi: the rank of its first relevant passage and its value of the list's
 * measure ("-" for a query without judgments). */
static void run_cell(app *a, size_t qi, size_t r, int judged, char *cell, size_t n)
{
    uint32_t q = a->s->ws->qlist[qi];
    size_t fr = rt_session_first_rel(a->s, r, q);
    double v = value_of(a, qi, r);
    char vs[24];
    if (rt_measure_is_sum(&a->s->ws->ms[list_state(a)->measure]))
        snprintf(vs, sizeof vs, "%4.0f", v);
    else
        snprintf(vs, sizeof vs, "%.2f", v);
    if (!judged)
        snprintf(cell, n, "   -   -");
    else if (fr)
        snprintf(cell, n, "%4zu %s", fr, vs);
    else
        snprintf(cell, n, "   - %s", vs);
}

/* Row k of the list on screen row y. */
static void draw_row(app *a, int y, size_t k, const list_layout *c)
{
    struct list_state *l = list_state(a);
    rt_workspace *ws = a->s->ws;
    size_t qi = l->rows_idx[k];
    uint32_t q = ws->qlist[qi];
    term_role role = k == l->sel ? ROLE_SELECTED : ROLE_NORMAL;
    app_region(a, y, 0, a->cols, REGION_CURSOR, k, 0);
    int x = 0;
    draw_text(y, x, c->qw, rt_strtab_str(ws->qids, q), rt_strtab_len(ws->qids, q), role, NULL);
    draw_fill(y, x + c->qw, 1, role);
    x += c->qw + 1;
    const char *t = rt_workspace_query_text(ws, q);
    draw_text(y, x, c->textw, t ? t : "", t ? strlen(t) : 0, role, NULL);
    x += c->textw;
    int judged = rt_live_is_judged(a->s->live, q);
    char cell[48];
    for (size_t r = l->hoff; r < l->hoff + c->nr; r++) {
        run_cell(a, qi, r, judged, cell, sizeof cell);
        draw_text(y, x, RUN_W, cell, strlen(cell), role, NULL);
        x += RUN_W;
    }
    double d = value_of(a, qi, l->delta_a) - value_of(a, qi, l->delta_b);
    snprintf(cell, sizeof cell, judged ? "%+.2f" : "-", d);
    term_role drole = role == ROLE_SELECTED || !judged ? role : d > 0 ? ROLE_GOOD : d < 0 ? ROLE_BAD : role;
    draw_text(y, x, DELTA_W, cell, strlen(cell), drole, NULL);
    x += DELTA_W;
    if (l->contrast) {
        double cv = contrast_of(a, qi);
        if (cv < 0)
            snprintf(cell, sizeof cell, "-");
        else
            snprintf(cell, sizeof cell, "%.3f", cv);
        draw_text(y, x, CONTRAST_W, cell, strlen(cell), role, NULL);
        x += CONTRAST_W;
    }
    snprintf(cell, sizeof cell, "%u", l->judged[qi]);
    draw_text(y, x, COUNT_W, cell, strlen(cell), role, NULL);
    x += COUNT_W;
    snprintf(cell, sizeof cell, "%zu", rt_annot_tag_count(a->s->annot, q));
    draw_text(y, x, a->cols - x, cell, strlen(cell), role, NULL);
}

static void draw(app *a, int top, int height)
{
    struct list_state *l = list_state(a);
    list_layout c = layout(a);
    int lr = draw_header(a, top, height, &c);
    top += lr;
    height -= lr;
    int h = height - 1;
    if (l->sel < l->top)
        l->top = l->sel;
    if (h > 0 && l->sel >= l->top + (size_t)h)
        l->top = l->sel - (size_t)h + 1;
    if (l->nrows == 0) {
        const char *m = "No query matches the filter (F shows all).";
        draw_text(top + 1, 0, a->cols, m, strlen(m), ROLE_DIM, NULL);
        return;
    }
    for (int row = 0; row < h && l->top + (size_t)row < l->nrows; row++)
        draw_row(a, top + 1 + row, l->top + (size_t)row, &c);
}

static int focus(app *a, uint32_t *qid, uint32_t *pid)
{
    struct list_state *l = list_state(a);
    *pid = RT_NO_ID;
    if (!l->nrows)
        return 0;
    *qid = a->s->ws->qlist[l->rows_idx[l->sel]];
    return 1;
}

static size_t *cursor(app *a, size_t *n)
{
    struct list_state *l = list_state(a);
    *n = l->nrows;
    return &l->sel;
}

static int open_query(app *a)
{
    struct list_state *l = list_state(a);
    if (!l->nrows)
        return 0;
    app_set_query(a, l->rows_idx[l->sel]);
    app_push(a, VIEW_COMPARE);
    return 0;
}

/* h / l: the focused run, the one f filters on and the status line names */
static void side(app *a, int d)
{
    if (d < 0 && a->col > 0)
        a->col--;
    else if (d > 0 && a->col + 1 < a->s->ws->nruns)
        a->col++;
    app_message(a, 0, "run %s in focus (f: its failing queries)", rt_run_name(a->s->ws->runs[a->col].run));
}

void list_start(app *a)
{
    struct list_state *l = list_state(a);
    rt_workspace *ws = a->s->ws;
    l->delta_b = ws->nruns > 1 ? 1 : 0;
    for (size_t m = 0; m < ws->nm; m++)   /* the list shows RR@10 when the workspace has it */
        if (!strcmp(ws->ms[m].name, "RR@10")) {
            l->measure = m;
            break;
        }
    l->rows_idx = rt_calloc(ws->nq + 1, sizeof *l->rows_idx);
}

static void runs_changed(app *a, void *state)
{
    struct contrast_memo *m = &((struct list_state *)state)->memo;
    (void)a;
    ahead_end(m);   /* it reads the query list, which grows */
    for (int k = 0; k < 2; k++) {
        free(m->v[k]);
        m->v[k] = NULL;
    }
    m->ahead_asked = 0;   /* computed ahead again for the pair then */
}

static void release(void *state)
{
    struct list_state *l = state;
    ahead_end(&l->memo);
    free(l->memo.v[0]);
    free(l->memo.v[1]);
    free(l->rows_idx);
    free(l->judged);
}

const view_ops view_list_ops = {
    .name = "query list", .draw = draw, .focus = focus, .cursor = cursor, .open = open_query, .side = side,
    .state_size = sizeof(struct list_state), .release = release, .runs_changed = runs_changed,
    .save = list_save, .restore = list_restore,
};

int act_contrast(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    if (!arg || (strcmp(arg, "rbo") && strcmp(arg, "jaccard") && strcmp(arg, "none"))) {
        app_message(a, 1, "usage: :contrast rbo|jaccard|none (how differently the delta runs rank each query)");
        return -1;
    }
    l->contrast = arg[0] == 'r' ? 1 : arg[0] == 'j' ? 2 : 0;
    if (!l->contrast && l->sort == SORT_CONTRAST)
        l->sort = SORT_ORDER;
    app_refresh_rows(a);
    app_message(a, 0, l->contrast ? "the %s column compares %s with %s (:sort %s puts the most different first)"
                                  : "no contrast column%s%s%s%s",
                l->contrast ? (l->contrast == 2 ? "Jaccard@10" : "RBO (p 0.9)") : "",
                l->contrast ? rt_run_name(a->s->ws->runs[l->delta_a].run) : "",
                l->contrast ? rt_run_name(a->s->ws->runs[l->delta_b].run) : "", l->contrast == 2 ? "jaccard" : l->contrast ? "rbo" : "");
    return 0;
}
