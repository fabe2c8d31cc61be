/* view_metrics — per run and measure: the value against the base qrels, against the current
 * qrels (base ⊕ relabels, kept current by rt_live), and the difference: the paper's "before vs
 * after false-negative reduction" table. With a query set active, the values are over its
 * queries. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "rt_leakage.h"
#include "rt_mem.h"
#include "team.h"
#include "view.h"

#define SUB_W 8     /* base, current */
#define DELTA_W 9

static int name_width(const app *a)
{
    int namew = 8;
    for (size_t r = 0; r < a->ws->nruns; r++) {
        const char *n = rt_run_name(a->ws->runs[r].run);
        int w = (int)rt_text_width(n, strlen(n));
        if (w + 2 > namew)
            namew = w + 2;
    }
    return namew > 24 ? 24 : namew;
}

static void draw_row(app *a, int y, int namew, size_t r, const double *bm, const double *cm)
{
    rt_workspace *ws = a->ws;
    int colw = 2 * SUB_W + DELTA_W + 2;
    const char *name = rt_run_name(ws->runs[r].run);
    draw_text(y, 0, namew, name, strlen(name), ROLE_NORMAL, NULL);
    for (size_t m = 0; m < ws->nm; m++) {
        int x = namew + (int)m * colw;
        if (x + colw > a->cols)
            break;
        char b[32];
        int n = rt_measure_format(&ws->ms[m], bm[m], 0, b, sizeof b);
        draw_text(y, x, SUB_W, b, (size_t)n, ROLE_DIM, NULL);
        n = rt_measure_format(&ws->ms[m], cm[m], 0, b, sizeof b);
        draw_text(y, x + SUB_W, SUB_W, b, (size_t)n, ROLE_NORMAL, NULL);
        double d = cm[m] - bm[m];
        n = rt_measure_format(&ws->ms[m], d, 1, b, sizeof b);
        int zero = d > -5e-5 && d < 5e-5;
        draw_text(y, x + 2 * SUB_W, DELTA_W + 2, b, (size_t)n, zero ? ROLE_DIM : d > 0 ? ROLE_GOOD : ROLE_BAD, NULL);
    }
}

/* DuReader-retrieval's Table 6 layout: each run's current values on the leaked ("Duplicated")
 * test queries and on the others, when a leakage check ran or a leak was typed. */
static void draw_split(app *a, int y, int bottom, int namew)
{
    rt_workspace *ws = a->ws;
    size_t marked;
    unsigned char *mask = rt_leakage_mask(a->s, a->leak, a->leak_candidates, &marked);
    if (!a->leak && !marked) {
        free(mask);
        return;
    }
    double *in = rt_calloc(ws->nm + 1, sizeof *in), *out = rt_calloc(ws->nm + 1, sizeof *out);
    size_t ni = 0, no = 0;
    int colw = 2 * SUB_W + DELTA_W + 2;
    for (size_t r = 0; r < ws->nruns && y + 3 < bottom; r++) {
        rt_live_split(a->s->live, r, mask, in, out, &ni, &no);
        if (r == 0) {
            draw_fmt(y++, 0, a->cols, ROLE_NORMAL, "Leakage (%s): duplicated %zu queries, others %zu (:leaked reviewed|candidates)",
                     a->leak_candidates ? "every candidate" : "reviewed leaks", ni, no);
            for (size_t m = 0; m < ws->nm && namew + (int)(m + 1) * colw <= a->cols; m++)
                draw_text(y, namew + (int)m * colw, colw, "dup     others", 14, ROLE_DIM, NULL);
            y++;
        }
        const char *name = rt_run_name(ws->runs[r].run);
        draw_text(y, 0, namew, name, strlen(name), ROLE_NORMAL, NULL);
        for (size_t m = 0; m < ws->nm && namew + (int)(m + 1) * colw <= a->cols; m++) {
            char b[32];
            int n = rt_measure_format(&ws->ms[m], in[m], 0, b, sizeof b);
            draw_text(y, namew + (int)m * colw, SUB_W, b, (size_t)n, ROLE_NORMAL, NULL);
            n = rt_measure_format(&ws->ms[m], out[m], 0, b, sizeof b);
            draw_text(y, namew + (int)m * colw + SUB_W, SUB_W, b, (size_t)n, ROLE_NORMAL, NULL);
        }
        y++;
    }
    free(in);
    free(out);
    free(mask);
}

static void draw(app *a, int top, int height)
{
    rt_workspace *ws = a->ws;
    int namew = name_width(a), colw = 2 * SUB_W + DELTA_W + 2;
    const rt_qset *set = a->set[0] ? rt_annot_set(a->s->annot, a->set) : NULL;
    size_t nl = rt_annot_nlabels(a->s->annot);
    if (set)
        draw_fmt(top, 0, a->cols, ROLE_NORMAL, "Query set %s (%zu queries) | %zu relabels | level %d",
                 a->set, set->n, nl, (int)ws->level);
    else
        draw_fmt(top, 0, a->cols, ROLE_NORMAL, "Base: %u judged queries | current: %zu | %zu relabels | level %d",
                 rt_qrels_nqueries(ws->qrels), rt_live_nqueries(a->s->live), nl, (int)ws->level);
    draw_text(top + 1, 0, namew, "run", 3, ROLE_HEADER, NULL);
    draw_fill(top + 2, 0, a->cols, ROLE_NORMAL);
    for (size_t m = 0; m < ws->nm; m++) {
        int x = namew + (int)m * colw;
        if (x + colw > a->cols) {
            draw_text(top + 1, x, a->cols - x, "…", 3, ROLE_DIM, NULL);
            break;
        }
        draw_text(top + 1, x, colw, ws->ms[m].name, strlen(ws->ms[m].name), ROLE_HEADER, NULL);
        draw_text(top + 2, x, colw, "base    current  delta", 22, ROLE_DIM, NULL);
    }
    size_t rows = height > 3 ? (size_t)(height - 3) : 0;
    size_t maxscroll = ws->nruns > rows ? ws->nruns - rows : 0;
    if (a->scroll > maxscroll)
        a->scroll = maxscroll;
    double *bm = rt_calloc(ws->nm + 1, sizeof *bm), *cm = rt_calloc(ws->nm + 1, sizeof *cm);
    size_t *nd = rt_calloc(ws->nm + 1, sizeof *nd);
    for (size_t k = 0; k < rows && a->scroll + k < ws->nruns; k++) {
        size_t r = a->scroll + k;
        rt_live_means(a->s->live, r, set ? set->qids : NULL, set ? set->n : 0, bm, nd, cm, nd);
        draw_row(a, top + 3 + (int)k, namew, r, bm, cm);
    }
    int y = top + 4 + (int)ws->nruns;
    if (a->scroll == 0 && ws->nruns + 4 < rows && team_session(a)) {
        /* the team's qrels: base ⊕ adjudications ⊕ agreed decisions */
        const rt_team_decisions *d = team_decisions(a);
        rt_session *ts = team_session(a);
        draw_fmt(y++, 0, a->cols, ROLE_NORMAL, "Team: %zu pairs agreed, %zu adjudicated; %zu of %zu disagreements "
                 "unresolved (they keep the base judgment) | base, team, delta", d->agreed, d->adjudicated,
                 d->unresolved, d->disputed);
        for (size_t r = 0; r < ws->nruns && y < top + height; r++) {
            rt_live_means(ts->live, r, set ? set->qids : NULL, set ? set->n : 0, bm, nd, cm, nd);
            draw_row(a, y++, namew, r, bm, cm);
        }
        y++;
    }
    if (a->scroll == 0 && ws->nruns + 4 < rows && y < top + height)
        draw_split(a, y, top + height, namew);
    free(bm);
    free(cm);
    free(nd);
}

const view_ops view_metrics_ops = {.name = "metrics", .draw = draw};
