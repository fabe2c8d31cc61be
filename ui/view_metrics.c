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
#include "rt_compare.h"
#include "rt_facets.h"
#include "rt_mem.h"
#include "team.h"
#include "view.h"

#define SUB_W 8     /* base, current */
#define DELTA_W 9

/* Significance in the panel: each run's current values against the baseline run's (paired
 * t-test over the current qrels' queries, Holm over the runs of a measure), and each run's
 * current values against its base values (did the relabels change its score?). */
typedef struct marks {
    unsigned char *vs_base;      /* [r * nm + m]: differs from the baseline run */
    unsigned char *relabels;     /* [r * nm + m]: current differs from base */
} marks;

/* The panel's own state: its first measure column shown, the run it marks significance against
 * and the facet it splits by. */
struct metrics_state {
    size_t hoff;
    size_t baseline_run;   /* (size_t)-1: none */
    size_t facet_by;       /* (size_t)-1: none */
};

static struct metrics_state *metrics_state(app *a) { return view_state(a, VIEW_METRICS); }

static void init(void *state)
{
    struct metrics_state *m = state;
    m->baseline_run = (size_t)-1;
    m->facet_by = (size_t)-1;
}

static void compute_marks(app *a, marks *mk)
{
    struct metrics_state *ms = metrics_state(a);
    rt_workspace *ws = a->s->ws;
    size_t nr = ws->nruns, nm = ws->nm, nq;
    const uint32_t *qs = rt_live_sorted(a->s->live, &nq);
    mk->vs_base = rt_calloc(nr * nm + 1, 1);
    mk->relabels = rt_calloc(nr * nm + 1, 1);
    double **vals = rt_calloc(nr + 1, sizeof *vals);
    unsigned char **def = rt_calloc(nr + 1, sizeof *def);
    for (size_t r = 0; r < nr; r++) {
        vals[r] = rt_calloc(nq * nm + 1, sizeof **vals);
        def[r] = rt_calloc(nq * nm + 1, 1);
        for (size_t i = 0; i < nq; i++)
            for (size_t m = 0; m < nm; m++)
                def[r][i * nm + m] = (unsigned char)rt_live_value(a->s->live, r, qs[i], m, &vals[r][i * nm + m]);
    }
    rt_compare_opts o = {.test = RT_TEST_TTEST, .correction = RT_CORRECT_HOLM, .alpha = RT_COMPARE_ALPHA,
                         .samples = 1, .seed = 1, .baseline = ms->baseline_run, .only_test = 1};
    rt_comparison *c;
    size_t n;
    rt_err err;
    if (ms->baseline_run != (size_t)-1 && nr > 1 &&
        rt_compare_runs((const double *const *)vals, (const unsigned char *const *)def, nr, nq, nm, &o, &c, &n,
                        &err) == RT_OK) {
        for (size_t i = 0; i < n; i++)
            mk->vs_base[c[i].a * nm + c[i].measure] = (unsigned char)c[i].significant;
        free(c);
    }
    /* base vs current, per run: the base evaluation's queries, paired */
    const rt_qrels *bq = ws->qrels;
    size_t nb = rt_qrels_nqueries(bq);
    double *pair[2] = {rt_calloc(nb * nm + 1, sizeof(double)), rt_calloc(nb * nm + 1, sizeof(double))};
    unsigned char *pdef[2] = {rt_calloc(nb * nm + 1, 1), rt_calloc(nb * nm + 1, 1)};
    o.baseline = 1;
    for (size_t r = 0; r < nr; r++) {
        const rt_eval_result *b = ws->runs[r].base;
        for (size_t i = 0; i < nb; i++)
            for (size_t m = 0; m < nm; m++) {
                pair[1][i * nm + m] = b->value[i * nm + m];
                pdef[1][i * nm + m] = b->defined[i * nm + m];
                pdef[0][i * nm + m] = (unsigned char)rt_live_value(a->s->live, r, rt_qrels_qid(bq, i), m,
                                                                   &pair[0][i * nm + m]);
            }
        if (rt_compare_runs((const double *const *)pair, (const unsigned char *const *)pdef, 2, nb, nm, &o, &c, &n,
                            &err) == RT_OK) {
            for (size_t i = 0; i < n; i++)
                mk->relabels[r * nm + c[i].measure] = (unsigned char)c[i].significant;
            free(c);
        }
    }
    for (int k = 0; k < 2; k++) {
        free(pair[k]);
        free(pdef[k]);
    }
    for (size_t r = 0; r < nr; r++) {
        free(vals[r]);
        free(def[r]);
    }
    free(vals);
    free(def);
}

static void draw_row(app *a, int y, int namew, size_t r, const double *bm, const double *cm, const marks *mk);

/* The panel split by a facet's values: a line per value, then each run's values over its queries. */
static int draw_facet(app *a, int y, int bottom, int namew)
{
    struct metrics_state *m = metrics_state(a);
    rt_workspace *ws = a->s->ws;
    const rt_facet *fc = &ws->facets->f[m->facet_by];
    double *bm = rt_calloc(ws->nm + 1, sizeof *bm), *cm = rt_calloc(ws->nm + 1, sizeof *cm);
    size_t *bn = rt_calloc(ws->nm + 1, sizeof *bn), *cn = rt_calloc(ws->nm + 1, sizeof *cn);
    uint32_t *sub = rt_calloc(ws->nq + 1, sizeof *sub);
    for (size_t v = 0; v <= fc->nv && y < bottom; v++) {
        size_t n = 0;
        for (size_t i = 0; i < ws->nq; i++) {
            size_t qv = rt_facet_value(ws->facets, m->facet_by, ws->qlist[i]);
            if (v == fc->nv ? qv == (size_t)-1 : qv == v)
                sub[n++] = ws->qlist[i];
        }
        if (!n)
            continue;
        size_t judged = 0;   /* (not a measure's count: MFR is defined on fewer) */
        for (size_t i = 0; i < n; i++)
            judged += (size_t)rt_live_is_judged(a->s->live, sub[i]);
        draw_fmt(y++, 0, a->cols, ROLE_HEADER, "%s = %s: %zu judged queries", fc->name, v == fc->nv ? "(none)" : fc->values[v],
                 judged);
        for (size_t r = 0; r < ws->nruns && y < bottom; r++) {
            rt_live_means(a->s->live, r, sub, n, bm, bn, cm, cn);
            draw_row(a, y++, namew, r, bm, cm, NULL);
        }
    }
    free(sub);
    free(bm);
    free(cm);
    free(bn);
    free(cn);
    return y;
}

int act_by(app *a, const char *arg)
{
    struct metrics_state *m = metrics_state(a);
    if (!arg || !strcmp(arg, "none")) {
        m->facet_by = (size_t)-1;
        app_message(a, 0, "the metrics panel is not split");
        return 0;
    }
    size_t k = rt_facets_find(a->s->ws->facets, arg);
    if (k == (size_t)-1) {
        char list[400] = "";
        for (size_t i = 0; a->s->ws->facets && i < a->s->ws->facets->n; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", a->s->ws->facets->f[i].name);
        app_message(a, 1, a->s->ws->facets ? "no facet %s (%s)" : "no facets in this workspace (\"facets\", or --facets F)%s%s",
                    a->s->ws->facets ? arg : "", list);
        return -1;
    }
    m->facet_by = k;
    a->scroll = 0;
    app_push(a, VIEW_METRICS);
    app_message(a, 0, "the metrics panel splits the means by %s", arg);
    return 0;
}

int act_baseline(app *a, const char *arg)
{
    struct metrics_state *m = metrics_state(a);
    if (!arg || !strcmp(arg, "none")) {
        m->baseline_run = (size_t)-1;
        app_message(a, 0, "no baseline: the metrics panel marks no run");
        return 0;
    }
    size_t r = app_find_run(a, arg);
    if (r == (size_t)-1) {
        app_message(a, 1, "no run \"%s\" (a name or a number)", arg);
        return -1;
    }
    m->baseline_run = r;
    app_message(a, 0, "baseline %s: * marks the runs that differ significantly (paired t-test, Holm, alpha 0.05)",
                rt_run_name(a->s->ws->runs[r].run));
    return 0;
}

static int name_width(app *a)
{
    int namew = 8;
    for (size_t r = 0; r < a->s->ws->nruns; r++) {
        const char *n = rt_run_name(a->s->ws->runs[r].run);
        int w = (int)rt_text_width(n, strlen(n)) + (r == metrics_state(a)->baseline_run ? 4 : 0);
        if (w + 2 > namew)
            namew = w + 2;
    }
    return namew > 24 ? 24 : namew;
}

static void draw_row(app *a, int y, int namew, size_t r, const double *bm, const double *cm, const marks *mk)
{
    struct metrics_state *mt = metrics_state(a);
    rt_workspace *ws = a->s->ws;
    int colw = 2 * SUB_W + DELTA_W + 2;
    const char *name = rt_run_name(ws->runs[r].run);
    char label[160];
    if (mk && r == mt->baseline_run) {
        snprintf(label, sizeof label, "%s (b)", name);
        name = label;
    }
    draw_text(y, 0, namew, name, strlen(name), ROLE_NORMAL, NULL);
    for (size_t m = mt->hoff; m < ws->nm; m++) {
        int x = namew + (int)(m - mt->hoff) * colw;
        if (x + colw > a->cols)
            break;
        char b[32];
        int n = rt_measure_format(&ws->ms[m], bm[m], 0, b, sizeof b);
        draw_text(y, x, SUB_W, b, (size_t)n, ROLE_DIM, NULL);
        n = rt_measure_format(&ws->ms[m], cm[m], 0, b, sizeof b);
        if (mk && mk->vs_base[r * ws->nm + m])
            b[n++] = '*', b[n] = 0;
        draw_text(y, x + SUB_W, SUB_W, b, (size_t)n, ROLE_NORMAL, NULL);
        double d = cm[m] - bm[m];
        n = rt_measure_format(&ws->ms[m], d, 1, b, sizeof b);
        if (mk && mk->relabels[r * ws->nm + m])
            b[n++] = '*', b[n] = 0;
        int zero = d > -5e-5 && d < 5e-5;
        draw_text(y, x + 2 * SUB_W, DELTA_W + 2, b, (size_t)n, zero ? ROLE_DIM : d > 0 ? ROLE_GOOD : ROLE_BAD, NULL);
    }
}

/* DuReader-retrieval's Table 6 layout: each run's current values on the leaked ("Duplicated")
 * test queries and on the others, when a leakage check ran or a leak was typed. */
static void draw_split(app *a, int y, int bottom, int namew)
{
    struct metrics_state *mt = metrics_state(a);
    rt_workspace *ws = a->s->ws;
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
            for (size_t m = mt->hoff; m < ws->nm && namew + (int)(m - mt->hoff + 1) * colw <= a->cols; m++)
                draw_text(y, namew + (int)(m - mt->hoff) * colw, colw, "dup     others", 14, ROLE_DIM, NULL);
            y++;
        }
        const char *name = rt_run_name(ws->runs[r].run);
        draw_text(y, 0, namew, name, strlen(name), ROLE_NORMAL, NULL);
        for (size_t m = mt->hoff; m < ws->nm && namew + (int)(m - mt->hoff + 1) * colw <= a->cols; m++) {
            char b[32];
            int x = namew + (int)(m - mt->hoff) * colw;
            int n = rt_measure_format(&ws->ms[m], in[m], 0, b, sizeof b);
            draw_text(y, x, SUB_W, b, (size_t)n, ROLE_NORMAL, NULL);
            n = rt_measure_format(&ws->ms[m], out[m], 0, b, sizeof b);
            draw_text(y, x + SUB_W, SUB_W, b, (size_t)n, ROLE_NORMAL, NULL);
        }
        y++;
    }
    free(in);
    free(out);
    free(mask);
}

static void draw(app *a, int top, int height)
{
    struct metrics_state *mt = metrics_state(a);
    rt_workspace *ws = a->s->ws;
    int namew = name_width(a), colw = 2 * SUB_W + DELTA_W + 2;
    const rt_qset *set = a->set ? rt_annot_set(a->s->annot, a->set) : NULL;
    size_t nl = rt_annot_nlabels(a->s->annot);
    char sig[200] = "";
    if (!set && mt->baseline_run != (size_t)-1)
        snprintf(sig, sizeof sig, " | * differs from %s (b); delta*: relabels change it (t-test, Holm, 0.05)",
                 rt_run_name(ws->runs[mt->baseline_run].run));
    else if (!set)
        snprintf(sig, sizeof sig, " | delta*: relabels change it significantly (t-test; :baseline RUN marks runs)");
    char head[512];
    if (set)
        snprintf(head, sizeof head, "Query set %s (%zu queries) | %zu relabels | level %d",
                 a->set, set->n, nl, (int)ws->level);
    else
        snprintf(head, sizeof head, "Base: %u judged queries | current: %zu | %zu relabels | level %d%s",
                 rt_qrels_nqueries(ws->qrels), rt_live_nqueries(a->s->live), nl, (int)ws->level, sig);
    int hr = draw_wrapped(top, 0, a->cols, height > 10 ? 2 : 1, head, strlen(head), ROLE_NORMAL);
    top += hr - 1;
    height -= hr - 1;
    draw_text(top + 1, 0, namew, "run", 3, ROLE_HEADER, NULL);
    draw_fill(top + 2, 0, a->cols, ROLE_NORMAL);
    /* the measure columns that fit, from metrics_hoff (h/l scroll them; the run names stay) */
    size_t fit = a->cols > namew ? (size_t)((a->cols - namew) / colw) : 0;
    if (fit < 1)
        fit = 1;
    if (fit > ws->nm)
        fit = ws->nm;
    if (mt->hoff + fit > ws->nm)
        mt->hoff = ws->nm - fit;
    app_show_columns(a, mt->hoff, fit, ws->nm, "measures");
    for (size_t m = mt->hoff; m < mt->hoff + fit; m++) {
        int x = namew + (int)(m - mt->hoff) * colw;
        draw_text(top + 1, x, colw, ws->ms[m].name, strlen(ws->ms[m].name), ROLE_HEADER, NULL);
        draw_text(top + 2, x, colw, "base    current  delta", 22, ROLE_DIM, NULL);
    }
    size_t rows = height > 3 ? (size_t)(height - 3) : 0;
    size_t maxscroll = ws->nruns > rows ? ws->nruns - rows : 0;
    if (a->scroll > maxscroll)
        a->scroll = maxscroll;
    double *bm = rt_calloc(ws->nm + 1, sizeof *bm), *cm = rt_calloc(ws->nm + 1, sizeof *cm);
    size_t *nd = rt_calloc(ws->nm + 1, sizeof *nd);
    marks mk = {0};
    if (!set)   /* (the tests run over every judged query; with a set, the means are the set's) */
        compute_marks(a, &mk);
    for (size_t k = 0; k < rows && a->scroll + k < ws->nruns; k++) {
        size_t r = a->scroll + k;
        rt_live_means(a->s->live, r, set ? set->qids : NULL, set ? set->n : 0, bm, nd, cm, nd);
        draw_row(a, top + 3 + (int)k, namew, r, bm, cm, set ? NULL : &mk);
    }
    free(mk.vs_base);
    free(mk.relabels);
    int y = top + 4 + (int)ws->nruns;
    if (a->scroll == 0 && mt->facet_by != (size_t)-1 && ws->facets && y < top + height)
        y = draw_facet(a, y, top + height, namew) + 1;
    if (a->scroll == 0 && ws->nruns + 4 < rows && team_session(a)) {
        /* the team's qrels: base ⊕ adjudications ⊕ agreed decisions */
        const rt_team_decisions *d = team_decisions(a);
        rt_session *ts = team_session(a);
        draw_fmt(y++, 0, a->cols, ROLE_NORMAL, "Team: %zu pairs agreed, %zu adjudicated; %zu of %zu disagreements "
                 "unresolved (they keep the base judgment) | base, team, delta", d->agreed, d->adjudicated,
                 d->unresolved, d->disputed);
        for (size_t r = 0; r < ws->nruns && y < top + height; r++) {
            rt_live_means(ts->live, r, set ? set->qids : NULL, set ? set->n : 0, bm, nd, cm, nd);
            draw_row(a, y++, namew, r, bm, cm, NULL);
        }
        y++;
    }
    if (a->scroll == 0 && ws->nruns + 4 < rows && y < top + height)
        draw_split(a, y, top + height, namew);
    free(bm);
    free(cm);
    free(nd);
}

/* h / l: the measure columns that do not fit */
static void side(app *a, int d)
{
    struct metrics_state *m = metrics_state(a);
    if (d < 0 && m->hoff > 0)
        m->hoff--;
    else if (d > 0 && m->hoff + a->hshown < a->s->ws->nm)
        m->hoff++;
}

const view_ops view_metrics_ops = {
    .name = "metrics", .draw = draw, .side = side, .state_size = sizeof(struct metrics_state), .init = init,
};
