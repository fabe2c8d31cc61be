/* view_list — the query list: qid, query text, per run the rank of the first relevant passage
 * and the value of the list's measure (any of the workspace's, :measure or M; RR@10 unless the
 * workspace lacks it), the delta of two runs on it, and judged/tag counts. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "rt_mem.h"
#include "rt_text.h"
#include "rt_warm.h"
#include "view.h"
#include "rt_thread.h"
#include "rt_contrast.h"

#define RUN_W 11
#define DELTA_W 7
#define COUNT_W 7
#define CONTRAST_W 7

/* Filling a contrast memo: the queries [from, to) of it, on one of two threads. */
typedef struct contrast_fill {
    const app *a;
    double *v;
    size_t from, to;
} contrast_fill;

static void *fill_contrast(void *arg)
{
    contrast_fill *f = arg;
    for (size_t i = f->from; i < f->to; i++) {
        double v;
        f->v[i] = rt_contrast_of(f->a->ws, f->a->delta_a, f->a->delta_b, f->a->ws->qlist[i], f->a->contrast == 2, &v)
                      ? v : -1;
    }
    return NULL;
}

/* Both kinds of contrast for the delta pair of the moment the first screen was up, computed on a
 * low-priority thread (list_contrast_ahead), so that the first :sort rbo or contrast column does
 * not take a tenth of a second. */
struct contrast_ahead {
    pthread_t th;
    const rt_workspace *ws;
    size_t ra, rb;
    double *v[2];         /* [0] RBO, [1] Jaccard@10, per query as in the memo */
    atomic_int stop, done;
};

static void *contrast_ahead_thread(void *arg)
{
    struct contrast_ahead *h = arg;
    rt_thread_lower_priority();
    for (size_t i = 0; i < h->ws->nq && !atomic_load(&h->stop); i++)
        for (int k = 0; k < 2; k++) {
            double v;
            h->v[k][i] = rt_contrast_of(h->ws, h->ra, h->rb, h->ws->qlist[i], k, &v) ? v : -1;
        }
    atomic_store(&h->done, !atomic_load(&h->stop));
    return NULL;
}

void list_contrast_ahead(app *a)
{
    struct contrast_memo *m = a->contrast_memo;
    size_t in, total;
    if (m->ahead_asked || a->ws->nruns < 2 || a->delta_a == a->delta_b ||
        rt_workspace_runs_loading(a->ws, &in, &total))   /* taking a run in grows the query list it reads */
        return;
    m->ahead_asked = 1;
    struct contrast_ahead *h = rt_calloc(1, sizeof *h);
    h->ws = a->ws;
    h->ra = a->delta_a;
    h->rb = a->delta_b;
    for (int k = 0; k < 2; k++)
        h->v[k] = rt_reallocarray(NULL, a->ws->nq + 1, sizeof *h->v[k]);
    if (pthread_create(&h->th, NULL, contrast_ahead_thread, h) != 0) {
        free(h->v[0]);
        free(h->v[1]);
        free(h);
        return;
    }
    m->ahead = h;
}

int list_contrast_ahead_busy(const app *a)
{
    const struct contrast_ahead *h = a->contrast_memo->ahead;
    return h && !atomic_load(&h->done) && !atomic_load(&h->stop);
}

/* Stops and frees the thread computing ahead, if any. */
static void ahead_end(struct contrast_memo *m)
{
    struct contrast_ahead *h = m->ahead;
    if (!h)
        return;
    atomic_store(&h->stop, 1);
    pthread_join(h->th, NULL);
    free(h->v[0]);
    free(h->v[1]);
    free(h);
    m->ahead = NULL;
}

/* Whether the memo holds kind k for the delta pair now. */
static int memo_holds(const app *a, const struct contrast_memo *m, int k)
{
    return m->v[k] && m->ra[k] == a->delta_a && m->rb[k] == a->delta_b;
}

/* Takes both kinds, each with its pair, into the memo from the thread computing ahead when it is
 * done and its pair is the delta pair now. */
static void ahead_take(const app *a, struct contrast_memo *m)
{
    struct contrast_ahead *h = m->ahead;
    if (!h || !atomic_load(&h->done) || h->ra != a->delta_a || h->rb != a->delta_b)
        return;
    pthread_join(h->th, NULL);   /* it has ended */
    for (int k = 0; k < 2; k++) {
        free(m->v[k]);
        m->v[k] = h->v[k];
        h->v[k] = NULL;
        m->ra[k] = h->ra;
        m->rb[k] = h->rb;
    }
    free(h);
    m->ahead = NULL;
}

/* The contrast of the delta runs on query qi (RBO or Jaccard@10); -1 when neither ranks it.
 * Taken from the thread computing ahead when it is done with the pair, else computed for every
 * query at the first need for this kind and pair of runs (on both cores, the thread ahead stopped:
 * RBO of 7,000 rankings of 1,000 is a seventh of a second on one), then remembered. */
static double contrast_of(const app *a, size_t qi)
{
    struct contrast_memo *m = a->contrast_memo;
    int k = a->contrast == 2;
    if (!memo_holds(a, m, k))
        ahead_take(a, m);
    if (!memo_holds(a, m, k)) {   /* checked again: what a take brings holds for its own pair only */
        ahead_end(m);   /* not done yet, or another pair: the cores are this computation's */
        size_t nq = a->ws->nq;
        m->v[k] = rt_reallocarray(m->v[k], nq + 1, sizeof *m->v[k]);
        contrast_fill f[2] = {{a, m->v[k], 0, nq / 2}, {a, m->v[k], nq / 2, nq}};
        pthread_t th;
        int two = nq >= 512 && pthread_create(&th, NULL, fill_contrast, &f[1]) == 0;
        if (!two)
            f[0].to = nq;
        fill_contrast(&f[0]);
        if (two)
            pthread_join(th, NULL);
        m->ra[k] = a->delta_a;
        m->rb[k] = a->delta_b;
    }
    return m->v[k][qi];
}

/* ---- the rows: which queries the list shows, in which order ------------------------------ */

/* Run r's value of the list's measure on query qi (0 when undefined: MFR without a relevant). */
static double value_of(const app *a, size_t qi, size_t r)
{
    double v = 0;
    return rt_live_value(a->s->live, r, a->ws->qlist[qi], a->list_m, &v) ? v : 0;
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

static int visible(const app *a, size_t qi)
{
    uint32_t q = a->ws->qlist[qi];
    if (a->set && !in_set(rt_annot_set(a->s->annot, a->set), q))
        return 0;
    if (a->text_filter[0]) {
        const char *t = rt_workspace_query_text(a->ws, q);
        if (!contains_ci(rt_strtab_str(a->ws->qids, q), a->text_filter) && !(t && contains_ci(t, a->text_filter)))
            return 0;
    }
    /* the same conditions as :sample, over the judged queries (unjudged ones cannot fail), but
     * those that read no qrels (tags, contrasts) over every query */
    rt_cond_kind k = a->cond.kind;
    int any = k == RT_COND_RBO || k == RT_COND_JACCARD || k == RT_COND_TAGGED || k == RT_COND_UNTAGGED;
    return !a->filtering || ((any || rt_live_is_judged(a->s->live, q)) && rt_condition_holds(a->s, &a->cond, q));
}

static double delta_of(const app *a, size_t qi)
{
    return value_of(a, qi, a->delta_a) - value_of(a, qi, a->delta_b);
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
    const app *a = ctx;
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    int c = 0;
    switch (a->sort) {
    case SORT_ORDER:
        break;
    case SORT_QID:
        c = natural_cmp(rt_strtab_str(a->ws->qids, a->ws->qlist[i]), rt_strtab_str(a->ws->qids, a->ws->qlist[j]));
        break;
    case SORT_TEXT: {
        const char *s = rt_workspace_query_text(a->ws, a->ws->qlist[i]);
        const char *t = rt_workspace_query_text(a->ws, a->ws->qlist[j]);
        c = strcmp(s ? s : "", t ? t : "");
        break;
    }
    case SORT_RUN: {
        double s = value_of(a, i, a->sort_run), t = value_of(a, j, a->sort_run);
        c = s < t ? -1 : s > t;
        if (!c) {
            size_t fs = rt_session_first_rel(a->s, a->sort_run, a->ws->qlist[i]);
            size_t ft = rt_session_first_rel(a->s, a->sort_run, a->ws->qlist[j]);
            fs = fs ? fs : (size_t)-1;
            ft = ft ? ft : (size_t)-1;
            c = fs > ft ? -1 : fs < ft;   /* worse (later or no) first relevant first */
        }
        break;
    }
    case SORT_DELTA: {
        double d = delta_of(a, i), e = delta_of(a, j);
        c = d < e ? -1 : d > e;
        break;
    }
    case SORT_JUDGED:
        c = a->judged[i] < a->judged[j] ? -1 : a->judged[i] > a->judged[j];
        break;
    case SORT_CONTRAST: {
        double ci = contrast_of(a, i), cj = contrast_of(a, j);   /* most different (lowest) first */
        if ((ci < 0) != (cj < 0))
            return ci < 0 ? 1 : -1;   /* none (neither run ranks it): last, either way */
        c = ci < cj ? -1 : ci > cj;
        break;
    }
    case SORT_TAGS: {
        size_t ti = rt_annot_tag_count(a->s->annot, a->ws->qlist[i]);
        size_t tj = rt_annot_tag_count(a->s->annot, a->ws->qlist[j]);
        c = ti < tj ? -1 : ti > tj;
        break;
    }
    }
    if (a->sort_desc)
        c = -c;
    return c ? c : (i < j ? -1 : i > j);
}

void app_refresh_rows(app *a)
{
    size_t keep = a->nrows ? a->rows_idx[a->sel < a->nrows ? a->sel : 0] : 0;
    a->nrows = 0;
    for (size_t i = 0; i < a->ws->nq; i++)
        if (visible(a, i))
            a->rows_idx[a->nrows++] = i;
    qsort_r(a->rows_idx, a->nrows, sizeof *a->rows_idx, row_cmp, a);
    a->sel = 0;
    for (size_t k = 0; k < a->nrows; k++)
        if (a->rows_idx[k] == keep)
            a->sel = k;
    a->top = 0;
}

/* After a sort, a filter or a search the list starts at its first row, focused: the rows the
 * user asked for are on screen from the top (a live update keeps the focused query instead). */
void app_rows_to_top(app *a)
{
    app_refresh_rows(a);
    a->sel = 0;
    a->top = 0;
}

/* ---- actions on the list ------------------------------------------------------------------ */

int act_search(app *a, const char *arg)
{
    if (a->view == VIEW_PASSAGE)   /* / in the passage view searches the passage */
        return act_find(a, arg);
    if (!arg) {
        a->prompt = '/';
        a->line_len = 0;
        a->line[0] = '\0';
        return 0;
    }
    snprintf(a->text_filter, sizeof a->text_filter, "%s", arg);
    app_show_list(a);
    app_rows_to_top(a);
    app_message(a, 0, *arg ? "%zu queries match \"%s\"" : "%zu queries", a->nrows, arg);
    return 0;
}

static int set_sort(app *a, const char *key)
{
    static const struct { const char *n; sort_key k; } keys[] = {
        {"order", SORT_ORDER}, {"qid", SORT_QID}, {"text", SORT_TEXT},
        {"delta", SORT_DELTA}, {"judged", SORT_JUDGED}, {"tags", SORT_TAGS},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i].n) == 0) {
            a->sort = keys[i].k;
            return 0;
        }
    if (!strcmp(key, "rbo") || !strcmp(key, "jaccard")) {   /* shows the column too */
        a->contrast = key[0] == 'r' ? 1 : 2;
        a->sort = SORT_CONTRAST;
        return 0;
    }
    size_t r = app_find_run(a, key);
    if (r == (size_t)-1) {
        app_message(a, 1, "sort by what? order, qid, text, delta, judged, tags, rbo, jaccard or a run name, not \"%s\"",
                    key);
        return -1;
    }
    a->sort = SORT_RUN;
    a->sort_run = r;
    return 0;
}

int act_sort(app *a, const char *arg)
{
    if (!arg || !*arg) {
        /* cycle: order → qid → text → each run → delta → judged → tags → order; the contrast
         * sort (:sort rbo|jaccard, a click on its header) is no step of it and goes on as tags does */
        if (a->sort == SORT_RUN && a->sort_run + 1 < a->ws->nruns)
            a->sort_run++;
        else if (a->sort == SORT_TEXT) {
            a->sort = SORT_RUN;
            a->sort_run = 0;
        } else if (a->sort == SORT_RUN)
            a->sort = SORT_DELTA;
        else if (a->sort >= SORT_TAGS)
            a->sort = SORT_ORDER;
        else
            a->sort = (sort_key)(a->sort + 1);
    } else {
        char key[128], dir[16] = "";
        if (sscanf(arg, "%127s %15s", key, dir) < 1 || set_sort(a, key) != 0)
            return -1;
        if (*dir && strcmp(dir, "asc") != 0 && strcmp(dir, "desc") != 0) {
            app_message(a, 1, "sort direction is asc or desc, not \"%s\"", dir);
            return -1;
        }
        a->sort_desc = strcmp(dir, "desc") == 0;
    }
    app_rows_to_top(a);
    const char *names[] = {"workspace order", "qid", "query text", "run", "delta", "judged", "tags",
                           a->contrast == 2 ? "Jaccard@10 of the delta runs" : "RBO of the delta runs"};
    if (a->sort == SORT_RUN)
        app_message(a, 0, "sorted by %s of %s%s", a->ws->ms[a->list_m].name, rt_run_name(a->ws->runs[a->sort_run].run),
                    a->sort_desc ? ", descending" : "");
    else
        app_message(a, 0, "sorted by %s%s", names[a->sort], a->sort_desc ? ", descending" : "");
    return 0;
}

/* A click on a column header: sort by it, or reverse when it is already the sort. */
int act_sort_by(app *a, sort_key key, size_t run)
{
    if (a->sort == key && (key != SORT_RUN || a->sort_run == run))
        a->sort_desc = !a->sort_desc;
    else {
        a->sort = key;
        a->sort_run = key == SORT_RUN ? run : a->sort_run;
        a->sort_desc = key == SORT_RUN || key == SORT_DELTA || key == SORT_JUDGED || key == SORT_TAGS;
    }
    app_rows_to_top(a);
    const char *names[] = {"workspace order", "qid", "query text", "run", "delta", "judged", "tags",
                           a->contrast == 2 ? "Jaccard@10 of the delta runs" : "RBO of the delta runs"};
    if (key == SORT_RUN)
        app_message(a, 0, "sorted by %s of %s%s", a->ws->ms[a->list_m].name, rt_run_name(a->ws->runs[run].run),
                    a->sort_desc ? ", descending" : "");
    else
        app_message(a, 0, "sorted by %s%s", names[key], a->sort_desc ? ", descending" : "");
    return 0;
}

int act_reverse(app *a, const char *arg)
{
    (void)arg;
    a->sort_desc = !a->sort_desc;
    app_rows_to_top(a);
    app_message(a, 0, "sort %s", a->sort_desc ? "descending" : "ascending");
    return 0;
}

int act_filter(app *a, const char *arg)
{
    char kind[32] = "";
    rt_err err;
    if (!arg || sscanf(arg, "%31s", kind) < 1 || strcmp(kind, "none") == 0) {
        a->filtering = 0;
        a->text_filter[0] = '\0';
    } else if (strcmp(kind, "text") == 0) {
        const char *t = strstr(arg, "text") + 4;
        while (*t == ' ')
            t++;
        snprintf(a->text_filter, sizeof a->text_filter, "%s", t);
    } else if (rt_condition_parse(a->ws, arg, &a->cond, &err) == RT_OK ||
               (a->ws->runs_pending && app_wait(a, APP_WAIT_RUNS) &&   /* a run still being read */
                rt_condition_parse(a->ws, arg, &a->cond, &err) == RT_OK)) {
        a->filtering = 1;
        a->cond.measure = a->list_m;   /* worse / better: on the list's measure */
    } else {
        app_message(a, 1, "usage: :filter none | text STRING | notop K RUN | worse RUN_A RUN_B [MIN_DELTA] | "
                    "better RUN_A RUN_B [MIN_DELTA] | rbo RUN_A RUN_B MAX | jaccard RUN_A RUN_B MAX | zero RUN | tagged | untagged");
        return -1;
    }
    app_show_list(a);
    app_rows_to_top(a);
    app_message(a, 0, "%zu queries shown", a->nrows);
    return 0;
}

/* f: the queries the focused run fails — no relevant passage in its top 5 when the list shows
 * RR@10 (the paper's failures), a value of 0 on the list's measure otherwise. */
int act_failing(app *a, const char *arg)
{
    (void)arg;
    char buf[160];
    const char *run = rt_run_name(a->ws->runs[view_focused_run(a)].run);
    if (!strcmp(a->ws->ms[a->list_m].name, "RR@10"))
        snprintf(buf, sizeof buf, "notop 5 %s", run);
    else
        snprintf(buf, sizeof buf, "zero %s", run);
    return act_filter(a, buf);
}

int act_clear_filter(app *a, const char *arg) { (void)arg; return act_filter(a, "none"); }

int act_goto(app *a, const char *arg)
{
    if (!arg || !*arg) {
        app_message(a, 1, "usage: :goto QID");
        return -1;
    }
    uint32_t q = rt_strtab_find(a->ws->qids, arg, strlen(arg));
    if (q == RT_NO_ID && a->ws->runs_pending && app_wait(a, APP_WAIT_RUNS))   /* one only a later run ranks? */
        q = rt_strtab_find(a->ws->qids, arg, strlen(arg));
    for (size_t i = 0; q != RT_NO_ID && i < a->ws->nq; i++)
        if (a->ws->qlist[i] == q) {
            for (size_t k = 0; k < a->nrows; k++)
                if (a->rows_idx[k] == i)
                    a->sel = k;
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
    a->delta_a = r1;
    a->delta_b = r2;
    app_refresh_rows(a);
    return 0;
}

/* ---- drawing ------------------------------------------------------------------------------ */

static int qid_width(app *a)
{
    static int qid_w;   /* computed once for the listed queries (runs read later add some) */
    static size_t for_nq;
    if (qid_w && for_nq == a->ws->nq)
        return qid_w;
    for_nq = a->ws->nq;
    int w = 3;
    for (size_t i = 0; i < a->ws->nq; i++) {
        int n = (int)rt_text_width(rt_strtab_str(a->ws->qids, a->ws->qlist[i]),
                                   rt_strtab_len(a->ws->qids, a->ws->qlist[i]));
        if (n > w)
            w = n;
    }
    qid_w = w > 16 ? 16 : w;
    return qid_w;
}

/* How many run columns fit beside qid, a query text of at least 16 columns, delta and counts. */
static size_t runs_shown(const app *a, int qw)
{
    int rest = a->cols - qw - 1 - 16 - DELTA_W - 2 * COUNT_W;
    size_t n = rest > 0 ? (size_t)(rest / RUN_W) : 0;
    return n < a->ws->nruns ? n : a->ws->nruns;
}

char **app_run_short_names(const app *a, size_t width, char *legend, size_t n)
{
    size_t nr = a->ws->nruns;
    const char **full = rt_calloc(nr + 1, sizeof *full);
    char **out = rt_calloc(nr + 1, sizeof *out);
    for (size_t r = 0; r < nr; r++)
        full[r] = rt_run_name(a->ws->runs[r].run);
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

static void draw(app *a, int top, int height)
{
    int qw = qid_width(a);
    size_t nr = runs_shown(a, qw), nruns = a->ws->nruns;
    int textw = a->cols - qw - 1 - (int)nr * RUN_W - DELTA_W - 2 * COUNT_W - (a->contrast ? CONTRAST_W : 0);
    if (textw < 4)
        textw = 4;
    /* the focused run is always among the columns shown (h/l move it, scrolling them) */
    if (a->col >= nruns)
        a->col = 0;
    if (a->col < a->list_hoff)
        a->list_hoff = a->col;
    if (nr && a->col >= a->list_hoff + nr)
        a->list_hoff = a->col - nr + 1;
    if (a->list_hoff + nr > nruns)
        a->list_hoff = nruns - nr;
    app_show_columns(a, a->list_hoff, nr, nruns, "runs");
    char legend[1024];
    char **names = app_run_short_names(a, RUN_W - 2, legend, sizeof legend);   /* a marker and a gap */
    int x = 0;
    draw_text(top, x, qw + 1, "qid", 3, ROLE_HEADER, NULL);
    app_region(a, top, x, x + qw + 1, REGION_SORT, SORT_QID, 0);
    x += qw + 1;
    char qh[80];
    int ql = snprintf(qh, sizeof qh, "query (%s)", a->ws->ms[a->list_m].name);
    draw_text(top, x, textw, qh, (size_t)ql, ROLE_HEADER, NULL);
    app_region(a, top, x, x + textw, REGION_SORT, SORT_TEXT, 0);
    x += textw;
    for (size_t k = 0; k < nr; k++) {
        size_t r = a->list_hoff + k;
        app_region(a, top, x, x + RUN_W, REGION_SORT, SORT_RUN, r);
        draw_text(top, x, 1, r == a->col ? ">" : " ", 1, ROLE_HEADER, NULL);
        draw_text(top, x + 1, RUN_W - 2, names[r], strlen(names[r]), ROLE_HEADER, NULL);
        draw_fill(top, x + RUN_W - 1, 1, ROLE_HEADER);   /* two headers never run together */
        x += RUN_W;
    }
    char dh[32];
    snprintf(dh, sizeof dh, "Δ%zu-%zu", a->delta_a + 1, a->delta_b + 1);
    draw_text(top, x, DELTA_W, dh, strlen(dh), ROLE_HEADER, NULL);
    app_region(a, top, x, x + DELTA_W, REGION_SORT, SORT_DELTA, 0);
    x += DELTA_W;
    if (a->contrast) {
        const char *ch = a->contrast == 2 ? "Jac@10" : "RBO";
        draw_text(top, x, CONTRAST_W, ch, strlen(ch), ROLE_HEADER, NULL);
        app_region(a, top, x, x + CONTRAST_W, REGION_SORT, SORT_CONTRAST, 0);
        x += CONTRAST_W;
    }
    draw_text(top, x, COUNT_W, "judged", 6, ROLE_HEADER, NULL);
    app_region(a, top, x, x + COUNT_W, REGION_SORT, SORT_JUDGED, 0);
    x += COUNT_W;
    draw_text(top, x, a->cols - x, "tags", 4, ROLE_HEADER, NULL);
    app_region(a, top, x, a->cols, REGION_SORT, SORT_TAGS, 0);
    app_free_names(names, nruns);
    if (legend[0] && height > 4) {   /* which short name is which run */
        int lr = draw_wrapped(top + 1, 0, a->cols, height > 12 ? 2 : 1, legend, strlen(legend), ROLE_DIM);
        top += lr;
        height -= lr;
    }

    int h = height - 1;
    if (a->sel < a->top)
        a->top = a->sel;
    if (h > 0 && a->sel >= a->top + (size_t)h)
        a->top = a->sel - (size_t)h + 1;
    if (a->nrows == 0) {
        const char *m = "No query matches the filter (F shows all).";
        draw_text(top + 1, 0, a->cols, m, strlen(m), ROLE_DIM, NULL);
        return;
    }
    for (int row = 0; row < h && a->top + (size_t)row < a->nrows; row++) {
        size_t k = a->top + (size_t)row, qi = a->rows_idx[k];
        uint32_t q = a->ws->qlist[qi];
        term_role role = k == a->sel ? ROLE_SELECTED : ROLE_NORMAL;
        int y = top + 1 + row;
        app_region(a, y, 0, a->cols, REGION_CURSOR, k, 0);
        x = 0;
        draw_text(y, x, qw, rt_strtab_str(a->ws->qids, q), rt_strtab_len(a->ws->qids, q), role, NULL);
        draw_fill(y, x + qw, 1, role);
        x += qw + 1;
        const char *t = rt_workspace_query_text(a->ws, q);
        draw_text(y, x, textw, t ? t : "", t ? strlen(t) : 0, role, NULL);
        x += textw;
        int judged = rt_live_is_judged(a->s->live, q);
        const rt_measure *lm = &a->ws->ms[a->list_m];
        for (size_t r = a->list_hoff; r < a->list_hoff + nr; r++) {
            size_t fr = rt_session_first_rel(a->s, r, q);
            double v = value_of(a, qi, r);
            char cell[48], vs[24];
            if (rt_measure_is_sum(lm))
                snprintf(vs, sizeof vs, "%4.0f", v);
            else
                snprintf(vs, sizeof vs, "%.2f", v);
            if (!judged)
                snprintf(cell, sizeof cell, "   -   -");
            else if (fr)
                snprintf(cell, sizeof cell, "%4zu %s", fr, vs);
            else
                snprintf(cell, sizeof cell, "   - %s", vs);
            draw_text(y, x, RUN_W, cell, strlen(cell), role, NULL);
            x += RUN_W;
        }
        double d = value_of(a, qi, a->delta_a) - value_of(a, qi, a->delta_b);
        char cell[32];
        snprintf(cell, sizeof cell, judged ? "%+.2f" : "-", d);
        term_role drole = role == ROLE_SELECTED || !judged ? role : d > 0 ? ROLE_GOOD : d < 0 ? ROLE_BAD : role;
        draw_text(y, x, DELTA_W, cell, strlen(cell), drole, NULL);
        x += DELTA_W;
        if (a->contrast) {
            double cv = contrast_of(a, qi);
            if (cv < 0)
                snprintf(cell, sizeof cell, "-");
            else
                snprintf(cell, sizeof cell, "%.3f", cv);
            draw_text(y, x, CONTRAST_W, cell, strlen(cell), role, NULL);
            x += CONTRAST_W;
        }
        snprintf(cell, sizeof cell, "%u", a->judged[qi]);
        draw_text(y, x, COUNT_W, cell, strlen(cell), role, NULL);
        x += COUNT_W;
        snprintf(cell, sizeof cell, "%zu", rt_annot_tag_count(a->s->annot, q));
        draw_text(y, x, a->cols - x, cell, strlen(cell), role, NULL);
    }
}

static int focus(app *a, uint32_t *qid, uint32_t *pid)
{
    *pid = RT_NO_ID;
    if (!a->nrows)
        return 0;
    *qid = a->ws->qlist[a->rows_idx[a->sel]];
    return 1;
}

static size_t *cursor(app *a, size_t *n)
{
    *n = a->nrows;
    return &a->sel;
}

static int open_query(app *a)
{
    if (!a->nrows)
        return 0;
    app_set_query(a, a->rows_idx[a->sel]);
    app_push(a, VIEW_COMPARE);
    return 0;
}

/* h / l: the focused run, the one f filters on and the status line names */
static void side(app *a, int d)
{
    if (d < 0 && a->col > 0)
        a->col--;
    else if (d > 0 && a->col + 1 < a->ws->nruns)
        a->col++;
    app_message(a, 0, "run %s in focus (f: its failing queries)", rt_run_name(a->ws->runs[a->col].run));
}

void list_runs_changed(app *a)
{
    struct contrast_memo *m = a->contrast_memo;
    if (!m)
        return;
    ahead_end(m);   /* it reads the query list, which grows */
    for (int k = 0; k < 2; k++) {
        free(m->v[k]);
        m->v[k] = NULL;
    }
    m->ahead_asked = 0;   /* computed ahead again for the pair then */
}

static void release(app *a)
{
    if (!a->contrast_memo)
        return;
    ahead_end(a->contrast_memo);
    free(a->contrast_memo->v[0]);
    free(a->contrast_memo->v[1]);
    free(a->contrast_memo);
    a->contrast_memo = NULL;
}

const view_ops view_list_ops = {
    .name = "query list", .draw = draw, .focus = focus, .cursor = cursor, .open = open_query, .side = side,
    .release = release,
};

int act_measure(app *a, const char *arg)
{
    size_t m = (a->list_m + 1) % a->ws->nm;   /* M: the next measure */
    if (arg) {
        for (m = 0; m < a->ws->nm && strcasecmp(a->ws->ms[m].name, arg) != 0; m++)
            ;
        if (m == a->ws->nm) {
            char list[512] = "";
            for (size_t k = 0; k < a->ws->nm; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", a->ws->ms[k].name);
            app_message(a, 1, "the workspace has no measure %s (%s; -m or \"measures\" adds others)", arg, list);
            return -1;
        }
    }
    a->list_m = m;
    if (a->filtering)
        a->cond.measure = m;
    app_refresh_rows(a);
    app_message(a, 0, "the list shows %s: run columns, delta, sorting and :filter worse/better", a->ws->ms[m].name);
    return 0;
}

int act_contrast(app *a, const char *arg)
{
    if (!arg || (strcmp(arg, "rbo") && strcmp(arg, "jaccard") && strcmp(arg, "none"))) {
        app_message(a, 1, "usage: :contrast rbo|jaccard|none (how differently the delta runs rank each query)");
        return -1;
    }
    a->contrast = arg[0] == 'r' ? 1 : arg[0] == 'j' ? 2 : 0;
    if (!a->contrast && a->sort == SORT_CONTRAST)
        a->sort = SORT_ORDER;
    app_refresh_rows(a);
    app_message(a, 0, a->contrast ? "the %s column compares %s with %s (:sort %s puts the most different first)"
                                  : "no contrast column%s%s%s%s",
                a->contrast ? (a->contrast == 2 ? "Jaccard@10" : "RBO (p 0.9)") : "",
                a->contrast ? rt_run_name(a->ws->runs[a->delta_a].run) : "",
                a->contrast ? rt_run_name(a->ws->runs[a->delta_b].run) : "", a->contrast == 2 ? "jaccard" : a->contrast ? "rbo" : "");
    return 0;
}
