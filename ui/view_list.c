/* view_list — the query list: qid, query text, per run the rank of the first relevant passage
 * and RR@10, the RR@10 delta of two runs, and judged/tag counts. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "view.h"

#define RUN_W 11
#define DELTA_W 7
#define COUNT_W 7

static int qid_width(app *a)
{
    if (a->qid_w)
        return a->qid_w;   /* computed once: the ids do not change */
    int w = 3;
    for (size_t i = 0; i < a->ws->nq; i++) {
        int n = (int)rt_text_width(rt_strtab_str(a->ws->qids, a->ws->qlist[i]),
                                   rt_strtab_len(a->ws->qids, a->ws->qlist[i]));
        if (n > w)
            w = n;
    }
    a->qid_w = w > 16 ? 16 : w;
    return a->qid_w;
}

/* How many run columns fit beside qid, a query text of at least 16 columns, delta and counts. */
static size_t runs_shown(const app *a, int qw)
{
    int rest = a->cols - qw - 1 - 16 - DELTA_W - 2 * COUNT_W;
    size_t n = rest > 0 ? (size_t)(rest / RUN_W) : 0;
    return n < a->ws->nruns ? n : a->ws->nruns;
}

static void draw(app *a, int top, int height)
{
    int qw = qid_width(a);
    size_t nr = runs_shown(a, qw);
    int textw = a->cols - qw - 1 - (int)nr * RUN_W - DELTA_W - 2 * COUNT_W;
    if (textw < 4)
        textw = 4;
    int x = 0;
    draw_text(top, x, qw + 1, "qid", 3, ROLE_HEADER, NULL);
    x += qw + 1;
    draw_text(top, x, textw, "query", 5, ROLE_HEADER, NULL);
    x += textw;
    for (size_t r = 0; r < nr; r++) {
        const char *name = rt_run_name(a->ws->runs[r].run);
        draw_text(top, x, RUN_W, name, strlen(name), ROLE_HEADER, NULL);
        x += RUN_W;
    }
    char dh[32];
    snprintf(dh, sizeof dh, "Δ%zu-%zu", a->delta_a + 1, a->delta_b + 1);
    draw_text(top, x, DELTA_W, dh, strlen(dh), ROLE_HEADER, NULL);
    x += DELTA_W;
    draw_text(top, x, COUNT_W, "judged", 6, ROLE_HEADER, NULL);
    x += COUNT_W;
    draw_text(top, x, a->cols - x, "tags", 4, ROLE_HEADER, NULL);

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
        x = 0;
        draw_text(y, x, qw, rt_strtab_str(a->ws->qids, q), rt_strtab_len(a->ws->qids, q), role, NULL);
        draw_fill(y, x + qw, 1, role);
        x += qw + 1;
        const char *t = rt_workspace_query_text(a->ws, q);
        draw_text(y, x, textw, t ? t : "", t ? strlen(t) : 0, role, NULL);
        x += textw;
        int judged = rt_live_is_judged(a->s->live, q);
        for (size_t r = 0; r < nr; r++) {
            size_t fr = rt_session_first_rel(a->s, r, q);
            double rr = rt_session_rr10(a->s, r, q);
            char cell[32];
            if (!judged)
                snprintf(cell, sizeof cell, "   -   -");
            else if (fr)
                snprintf(cell, sizeof cell, "%4zu %.2f", fr, rr);
            else
                snprintf(cell, sizeof cell, "   - %.2f", rr);
            draw_text(y, x, RUN_W, cell, strlen(cell), role, NULL);
            x += RUN_W;
        }
        double d = rt_session_rr10(a->s, a->delta_a, q) - rt_session_rr10(a->s, a->delta_b, q);
        char cell[32];
        snprintf(cell, sizeof cell, judged ? "%+.2f" : "-", d);
        term_role drole = role == ROLE_SELECTED || !judged ? role : d > 0 ? ROLE_GOOD : d < 0 ? ROLE_BAD : role;
        draw_text(y, x, DELTA_W, cell, strlen(cell), drole, NULL);
        x += DELTA_W;
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

const view_ops view_list_ops = {
    .name = "query list", .draw = draw, .focus = focus, .cursor = cursor, .open = open_query,
};
