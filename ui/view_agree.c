/* view_agree — agreement between the loaded annotators (rt_team): per pair of annotators the
 * pairs both judged, observed agreement and Cohen's kappa of relevance (weighted kappas in a
 * graded workspace) and, on the pairs both tagged, the kappa of each category; over all, Fleiss'
 * kappa and Krippendorff's alpha. The overall figures are computed when shown and again when a
 * journal changes; a pair's row when it is first on the screen (a thousand annotators make half a
 * million pairs: only those scrolled to are worked out and kept). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "rt_mem.h"
#include "team.h"
#include "view.h"

struct agree_view {
    rt_team_agreement *r;     /* the overall figures (no pairs: those are in rows) */
    rt_pair_agreement **rows; /* r->npairs: a pair of raters each, NULL until shown */
    size_t *raters;           /* the members who judged or tagged something, in order */
    size_t nraters;
    unsigned gen;
    char why[300];            /* why there is no agreement to show */
};

static void forget_rows(struct agree_view *g)
{
    for (size_t i = 0; g->rows && g->r && i < g->r->npairs; i++)
        if (g->rows[i]) {
            rt_pair_agreement_clear(g->rows[i]);
            free(g->rows[i]);
        }
    free(g->rows);
    g->rows = NULL;
    free(g->raters);
    g->raters = NULL;
    g->nraters = 0;
}

static struct agree_view *agree_state(app *a) { return view_state(a, VIEW_AGREE); }

static void release(void *state)
{
    struct agree_view *g = state;
    forget_rows(g);
    rt_team_agreement_free(&g->r);
}

static void compute(app *a)
{
    struct agree_view *g = agree_state(a);
    if (g->r && g->gen == team_generation(a))
        return;
    forget_rows(g);
    rt_team_agreement_free(&g->r);
    rt_err err;
    g->why[0] = 0;
    const rt_team *t = team_of(a);
    if (rt_team_agreement_overall(t, &g->r, &err) != RT_OK)
        snprintf(g->why, sizeof g->why, "%.290s", err.msg);
    else {
        g->rows = rt_calloc(g->r->npairs + 1, sizeof *g->rows);
        g->raters = rt_calloc(t->n + 1, sizeof *g->raters);
        for (size_t m = 0; m < t->n; m++)
            if (rt_team_rater(t, m))
                g->raters[g->nraters++] = m;
    }
    g->gen = team_generation(a);
}

/* Pair i of raters (in the order (0,1), (0,2), …, (1,2), …), worked out the first time. */
static const rt_pair_agreement *row_of(app *a, size_t i)
{
    struct agree_view *g = agree_state(a);
    if (!g->rows[i]) {
        size_t x = 0, k = i;
        while (k >= g->nraters - 1 - x) {   /* rater x heads nraters - 1 - x pairs */
            k -= g->nraters - 1 - x;
            x++;
        }
        g->rows[i] = rt_calloc(1, sizeof *g->rows[i]);
        rt_team_pair_agreement(team_of(a), g->raters[x], g->raters[x + 1 + k], g->rows[i]);
    }
    return g->rows[i];
}

int act_agreement(app *a, const char *arg)
{
    (void)arg;
    if (team_ensure(a) != 0)
        return -1;
    a->scroll = 0;
    app_push(a, VIEW_AGREE);
    return 0;
}

static const char *fmt_k(const rt_agreement *k, char *buf, size_t n)
{
    if (k->defined)
        snprintf(buf, n, "%7.4f", k->value);
    else
        snprintf(buf, n, "%7s", "undef");
    return buf;
}

static void draw(app *a, int top, int height)
{
    if (!team_of(a))
        return;
    compute(a);
    struct agree_view *g = agree_state(a);
    const rt_team *t = team_of(a);
    const rt_taxonomy *tax = a->s->ws->taxonomy;
    int y = top;
    int x = draw_fmt(y, 0, a->cols, ROLE_HEADER, "agreement of %zu annotators:", t->n);
    for (size_t m = 0; m < t->n && x < a->cols; m++)
        x += draw_fmt(y, x, a->cols - x, ROLE_HEADER, " %s%s", t->m[m].name, t->m[m].self ? " (you)" : "");
    y++;
    if (!g->r) {
        draw_text(y, 0, a->cols, g->why, strlen(g->why), ROLE_DIM, NULL);
        return;
    }
    const rt_team_agreement *r = g->r;
    char b1[32], b2[32], b3[32];
    int overall = y++;   /* drawn after the rows: whether an "undef" showed is known then */
    int undef = !r->fleiss.defined || !r->alpha.defined;
    /* one row a pair of annotators: judged, observed, kappa, then each category's kappa */
    size_t nrows = r->npairs + 1, rows = height > 3 ? (size_t)(height - 3) : 0;
    size_t maxscroll = nrows > rows ? nrows - rows : 0;
    if (a->scroll > maxscroll)
        a->scroll = maxscroll;
    x = draw_fmt(y, 0, a->cols, ROLE_HEADER, "%-25s %6s %7s %7s %s", "annotators", "pairs", "observd", "kappa",
                 a->s->ws->graded ? "  linear  quadr " : "");
    x += draw_fmt(y, x, a->cols - x, ROLE_HEADER, " %6s", "tagged");
    for (size_t c = 0; c < tax->ncats && x + 8 <= a->cols; c++)
        x += draw_fmt(y, x, 8, ROLE_HEADER, " %7.7s", tax->cats[c].id);
    y++;
    for (size_t i = a->scroll; i < r->npairs && y < top + height; i++) {
        const rt_pair_agreement *p = row_of(a, i);
        char names[128];
        snprintf(names, sizeof names, "%s / %s", t->m[p->a].name, t->m[p->b].name);
        char obs[32];
        if (p->relevance.items)
            snprintf(obs, sizeof obs, "%7.4f", p->relevance.observed);
        else
            snprintf(obs, sizeof obs, "%7s", "-");
        x = draw_fmt(y, 0, a->cols, ROLE_NORMAL, "%-25.25s %6zu %s %s", names, p->relevance.items, obs,
                     fmt_k(&p->relevance, b1, sizeof b1));
        undef |= !p->relevance.defined;
        if (a->s->ws->graded) {
            x += draw_fmt(y, x, a->cols - x, ROLE_NORMAL, " %s %s", fmt_k(&p->linear, b2, sizeof b2),
                          fmt_k(&p->quadratic, b3, sizeof b3));
            undef |= !p->linear.defined || !p->quadratic.defined;
        }
        x += draw_fmt(y, x, a->cols - x, ROLE_NORMAL, "  %6zu", p->tag_items);
        for (size_t c = 0; c < tax->ncats && x + 8 <= a->cols; c++) {
            x += draw_fmt(y, x, 8, ROLE_NORMAL, " %s", fmt_k(&p->category[c], b1, sizeof b1));
            undef |= !p->category[c].defined;
        }
        y++;
    }
    draw_fmt(overall, 0, a->cols, ROLE_DIM, "Fleiss' kappa %s on %zu pairs all judged | Krippendorff's alpha %s on %zu "
             "judged pairs", fmt_k(&r->fleiss, b1, sizeof b1), r->fleiss.items, fmt_k(&r->alpha, b2, sizeof b2), r->units);
    if (undef && y < top + height)   /* below the rows, apart from the figures it is not about */
        draw_fmt(y, 0, a->cols, ROLE_DIM, "undef: every label the same, or nothing to compare");
}

const view_ops view_agree_ops = {.name = "agreement", .draw = draw, .state_size = sizeof(struct agree_view),
    .release = release};
