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
#include "pairlist.h"
#include "rt_mem.h"
#include "team.h"
#include "view.h"

struct package_view {
    char *name;   /* the package's, whole (a prefix may be long) */
    size_t *rows, nrows;             /* indices into the package's pairs */
    pairlist list;
    size_t nwrong;                   /* rows marked wrong by a reviewer (they come first) */
    pairlist_cols cols;              /* worked out at each draw (the screen's width may change) */
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
    struct package_view *pk = package_state(a);
    const rt_package_report *r = team_packages(a);
    return r && pk->name ? rt_package_report_find(r, pk->name) : NULL;
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
    k->nrows = k->nwrong = 0;
    k->list = (pairlist){0, 0};
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

static pairlist *list(app *a) { return &package_state(a)->list; }

static size_t count(app *a) { return package_state(a)->nrows; }

static int pair(app *a, size_t i, uint32_t *qid, uint32_t *pid)
{
    struct package_view *pk = package_state(a);
    const rt_package *p = package(a);
    if (!p)
        return 0;
    *qid = p->qids[pk->rows[i]];
    *pid = p->pids[pk->rows[i]];
    return 1;
}

/* Not judged by the annotator yet. */
static int todo(app *a, size_t i)
{
    uint32_t q, p;
    return pair(a, i, &q, &p) && !rt_annot_label(a->s->annot, q, p);
}

static void draw_row(app *a, int y, size_t i, int focused);

static const pairlist_ops pairs = {
    .list = list, .count = count, .pair = pair, .todo = todo, .all_done = "you judged every pair of the package",
    .draw_row = draw_row,
};

static int judge(app *a, int32_t grade)
{
    uint32_t q, p;
    if (!pairlist_focus(a, &pairs, &q, &p))
        return 0;
    rt_change ch;
    rt_err err;
    int rc = annotate_outcome(a, rt_session_judge(a->s, q, p, grade, &ch, &err), &ch, &err);
    if (rc == 0)
        pairlist_advance(a, &pairs);
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

/* Row i: the annotator's decision, "wrong" when a reviewer marked it so, the pair with its query's
 * text, the passage's start. */
static void draw_row(app *a, int y, size_t i, int focused)
{
    const rt_package *p = package(a);
    struct package_view *k = package_state(a);
    size_t j = k->rows[i];
    const rt_label *l = rt_annot_label(a->s->annot, p->qids[j], p->pids[j]);
    /* (the first nwrong rows, and as many on screen: a mark made since the package opened shows
     * there too) */
    size_t wrong = i - k->list.top < k->nwrong || i < k->nwrong ? wrong_marks(a, p, j) : 0;
    term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
    rt_workspace *ws = a->s->ws;
    int x = draw_fmt(y, 0, a->cols, role, k->nwrong ? "%c %-5s " : "%c ",
                     !l ? '?' : l->grade >= ws->level ? '+' : '-', wrong ? "wrong" : "");
    pairlist_draw_pair(a, y, x, &k->cols, p->qids[j], p->pids[j], role);
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
    pairlist_header(a, top, "+ relevant  - not relevant  1-9 tag  N note  x next unjudged  Enter passage",
                    "package %s for %s | you judged %zu/%zu | status %s%s", p->name, p->annotator, mine, p->n,
                    s->status, k->nwrong ? " | marked wrong by a reviewer: first" : "");
    pairlist_columns(a, &pairs, a->cols - (k->nwrong ? 8 : 2), &k->cols);
    pairlist_draw(a, &pairs, top + 2, height > 2 ? (size_t)(height - 2) : 0);
}

const view_ops view_package_ops = {
    .name = "package", .draw = draw, .pairs = &pairs, .state_size = sizeof(struct package_view), .release = release,
};
