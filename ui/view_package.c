/* view_package — judging one's package: its pairs (those a reviewer marked wrong first, when the
 * package went back for revision), each with the annotator's own decision and the passage's
 * start. + / - record the annotator's grade even when it equals the base judgment (the decision
 * is theirs, for agreement and the team's qrels); the category keys tag; x goes to the next pair
 * not judged yet. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "app.h"
#include "draw.h"
#include "rt_mem.h"
#include "team.h"
#include "view.h"

struct package_view {
    char *name;   /* the package's, whole (a prefix may be long) */
    size_t *rows, nrows, sel, top;   /* indices into the package's pairs */
    size_t nwrong;                   /* rows marked wrong by a reviewer (they come first) */
};

static struct package_view *package_state(app *a) { return view_state(a, VIEW_PACKAGE); }

static void release(void *state)
{
    struct package_view *k = state;
    free(k->rows);
    free(k->name);
}

static const rt_package_state *state(app *a)
{
    const rt_package_report *r = team_packages(a);
    return r && package_state(a)->name ? rt_package_report_find(r, package_state(a)->name) : NULL;
}

/* How many of the team's reviewers marked pair i of p wrong. */
static size_t wrong_marks(app *a, const rt_package *p, size_t i)
{
    const rt_team *t = team_of(a);
    size_t n = 0;
    for (size_t m = 0; m < t->n; m++) {
        const rt_review *v = rt_annot_review(t->m[m].s->annot, p->qids[i], p->pids[i], p->name);
        n += v && !v->correct;
    }
    return n;
}

int package_open_judging(app *a, const char *name)
{
    if (team_ensure(a) != 0)
        return -1;
    struct package_view *k = package_state(a);
    char *was = k->name;   /* name may be it */
    k->name = rt_strdup(name);
    free(was);
    const rt_package_state *s = state(a);
    if (!s) {
        app_message(a, 1, "no package named %s", name);
        return -1;
    }
    const rt_package *p = s->p;
    free(k->rows);
    k->rows = rt_calloc(p->n + 1, sizeof *k->rows);
    k->nrows = k->nwrong = k->sel = k->top = 0;
    for (int pass = 0; pass < 2; pass++)   /* the pairs a reviewer marked wrong first */
        for (size_t i = 0; i < p->n; i++)
            if ((wrong_marks(a, p, i) > 0) == (pass == 0))
                k->rows[k->nrows++] = i;
    for (size_t i = 0; i < k->nrows && wrong_marks(a, p, k->rows[i]); i++)
        k->nwrong++;
    app_push(a, VIEW_PACKAGE);
    if (strcmp(p->annotator, a->s->annotator) != 0)
        app_message(a, 0, "%s is %s's package: your decisions here are yours, not theirs", name, p->annotator);
    else if (k->nwrong)
        app_message(a, 0, "%s came back for revision: the %zu pairs reviewers marked wrong come first", name, k->nwrong);
    return 0;
}

static const rt_package *package(app *a)
{
    const rt_package_state *s = state(a);
    return s ? s->p : NULL;
}

static int focus(app *a, uint32_t *qid, uint32_t *pid)
{
    const rt_package *p = package(a);
    struct package_view *k = package_state(a);
    if (!p || k->sel >= k->nrows)
        return 0;
    *qid = p->qids[k->rows[k->sel]];
    *pid = p->pids[k->rows[k->sel]];
    return 1;
}

static size_t *cursor(app *a, size_t *n)
{
    *n = package_state(a)->nrows;
    return &package_state(a)->sel;
}

static int judge(app *a, int32_t grade)
{
    uint32_t q, p;
    if (!focus(a, &q, &p))
        return 0;
    rt_change ch;
    rt_err err;
    int rc = annotate_outcome(a, rt_session_judge(a->s, q, p, grade, &ch, &err), &ch, &err);
    if (rc == 0 && package_state(a)->sel + 1 < package_state(a)->nrows)
        package_state(a)->sel++;
    return rc;
}

int act_judge_relevant(app *a, const char *arg)
{
    (void)arg;
    return judge(a, a->s->ws->level > 0 ? a->s->ws->level : 1);
}

int act_judge_not_relevant(app *a, const char *arg)
{
    (void)arg;
    return judge(a, 0);
}

static int next_todo(app *a)
{
    const rt_package *p = package(a);
    struct package_view *k = package_state(a);
    for (size_t step = 1; p && step <= k->nrows; step++) {
        size_t i = (k->sel + step) % k->nrows;
        if (!rt_annot_label(a->s->annot, p->qids[k->rows[i]], p->pids[k->rows[i]])) {
            k->sel = i;
            return 0;
        }
    }
    app_message(a, 0, "you judged every pair of the package");
    return 0;
}

static int open(app *a)
{
    uint32_t q, p;
    if (!focus(a, &q, &p))
        return 0;
    app_open_passage(a, q, p);
    return 0;
}

static void draw(app *a, int top, int height)
{
    const rt_package_state *s = state(a);
    struct package_view *k = package_state(a);
    if (!s) {
        draw_fmt(top, 0, a->cols, ROLE_ERROR, "the package %s is gone (its maker withdrew it)", k->name);
        return;
    }
    const rt_package *p = s->p;
    size_t mine = 0;
    for (size_t i = 0; i < p->n; i++)
        mine += rt_annot_label(a->s->annot, p->qids[i], p->pids[i]) != NULL;
    draw_fmt(top, 0, a->cols, ROLE_HEADER, "package %s for %s | you judged %zu/%zu | status %s%s", p->name, p->annotator,
             mine, p->n, s->status, k->nwrong ? " | marked wrong by a reviewer: first" : "");
    static const char keys[] = "+ relevant  - not relevant  1-9 tag  N note  x next unjudged  Enter passage";
    draw_text(top + 1, 0, a->cols, keys, strlen(keys), ROLE_DIM, NULL);
    size_t rows = height > 2 ? (size_t)(height - 2) : 0;
    if (k->sel >= k->nrows)
        k->sel = k->nrows ? k->nrows - 1 : 0;
    if (k->sel < k->top)
        k->top = k->sel;
    if (rows && k->sel >= k->top + rows)
        k->top = k->sel - rows + 1;
    for (size_t r = 0; r < rows && k->top + r < k->nrows; r++) {
        size_t i = k->rows[k->top + r];
        int y = top + 2 + (int)r, focused = k->top + r == k->sel;
        const rt_label *l = rt_annot_label(a->s->annot, p->qids[i], p->pids[i]);
        size_t wrong = r < k->nwrong || k->top + r < k->nwrong ? wrong_marks(a, p, i) : 0;
        term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
        int x = draw_fmt(y, 0, a->cols, role, "%c %-10.10s %-14.14s %-8s ", !l ? '?' : l->grade >= a->s->ws->level ? '+' : '-',
                         rt_strtab_str(a->s->ws->qids, p->qids[i]), rt_strtab_str(a->s->ws->pids, p->pids[i]),
                         wrong ? "wrong" : "");
        app_draw_passage_of(a, y, x, a->cols - x, p->qids[i], p->pids[i], role);
    }
}

const view_ops view_package_ops = {
    .name = "package", .draw = draw, .focus = focus, .cursor = cursor, .open = open,
    .next_todo = next_todo, .state_size = sizeof(struct package_view), .release = release,
};
