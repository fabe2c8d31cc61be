/* view_review — reviewing a package (DuReader-retrieval, Appendix A.3): its review sample (the
 * same R pairs for every reviewer, drawn with the seed the package records), each with the
 * annotator's decision and the passage's start; c marks it correct, w wrong, 0 withdraws the mark.
 * Each mark is an operation in the reviewer's journal; the package's accuracy follows. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "app.h"
#include "draw.h"
#include "pairlist.h"
#include "rt_mem.h"
#include "rt_text.h"
#include "team.h"
#include "view.h"

/* The annotator's decision: a grade and category ids ("1 entity,numeral"), cut past this. */
enum { REVIEW_DEC_MAX = 12 };

struct review_view {
    char name[256];
    size_t *idx, n;             /* the sample: indices into the package's pairs */
    pairlist list;
    pairlist_cols cols;         /* worked out at each draw (the screen's width may change) */
    int decw;                   /* the decision column's width, as wide as the widest shown */
};

static struct review_view *review_state(app *a) { return view_state(a, VIEW_REVIEW); }

static void release(void *state)
{
    free(((struct review_view *)state)->idx);
}

static const rt_package_state *state(app *a)
{
    const rt_package_report *r = team_packages(a);
    return r ? rt_package_report_find(r, review_state(a)->name) : NULL;
}

int package_open_review(app *a, const char *name)
{
    if (team_ensure(a) != 0)
        return -1;
    struct review_view *v = review_state(a);
    snprintf(v->name, sizeof v->name, "%s", name);
    const rt_package_state *s = state(a);
    if (!s) {
        app_message(a, 1, "no package named %s", name);
        return -1;
    }
    free(v->idx);
    v->idx = rt_calloc(s->p->n + 1, sizeof *v->idx);
    v->n = rt_package_sample(s->p, v->idx);
    v->list = (pairlist){0, 0};
    app_push(a, VIEW_REVIEW);
    if (strcmp(s->p->annotator, a->s->annotator) == 0)
        app_message(a, 0, "%s is your own package: a review counts only from someone else", name);
    else
        app_message(a, 0, "reviewing %s by %s: %zu pairs (seed %llu)", name, s->p->annotator, v->n,
                    (unsigned long long)s->p->seed);
    return 0;
}

static pairlist *list(app *a) { return &review_state(a)->list; }

static size_t count(app *a) { return review_state(a)->n; }

static int pair(app *a, size_t i, uint32_t *qid, uint32_t *pid)
{
    struct review_view *rv = review_state(a);
    const rt_package_state *s = state(a);
    if (!s)
        return 0;
    *qid = s->p->qids[rv->idx[i]];
    *pid = s->p->pids[rv->idx[i]];
    return 1;
}

/* Not reviewed, or the mark is stale (the annotator's decision changed since). */
static int todo(app *a, size_t i)
{
    uint32_t q, pid;
    if (!pair(a, i, &q, &pid))
        return 0;
    const char *name = review_state(a)->name;
    return !rt_package_review_holds(team_of(a), state(a), q, pid, rt_annot_review(a->s->annot, q, pid, name));
}

static void draw_row(app *a, int y, size_t i, int focused);

static const pairlist_ops pairs = {
    .list = list, .count = count, .pair = pair, .todo = todo, .all_done = "you reviewed the whole sample",
    .draw_row = draw_row,
};

static int mark(app *a, const char *verdict)
{
    uint32_t q, p;
    if (!pairlist_focus(a, &pairs, &q, &p))
        return 0;
    const rt_package_state *s = state(a);
    if (strcmp(s->p->annotator, a->s->annotator) == 0) {
        app_message(a, 1, "you cannot review your own package");
        return -1;
    }
    const rt_team *t = team_of(a);
    if (verdict[0] && (s->annotator == (size_t)-1 || !rt_annot_label(t->m[s->annotator].s->annot, q, p))) {
        app_message(a, 1, "%s has not judged this pair yet: a review checks a decision", s->p->annotator);
        return -1;
    }
    rt_change ch;
    rt_err err;
    int rc = annotate_outcome(a, rt_session_review(a->s, review_state(a)->name, q, p, verdict, &ch, &err), &ch, &err);
    if (rc == 0 && verdict[0])
        pairlist_advance(a, &pairs);
    return rc;
}

int act_review_correct(app *a, const char *arg)
{
    (void)arg;
    return mark(a, "correct");
}

int act_review_wrong(app *a, const char *arg)
{
    (void)arg;
    return mark(a, "wrong");
}

int act_review_clear(app *a, const char *arg)
{
    (void)arg;
    return mark(a, "");
}

/* Row i: the reviewer's mark (stale when the decision changed since), the annotator's decision,
 * the pair with its query's text, the passage's start. */
static void draw_row(app *a, int y, size_t i, int focused)
{
    const rt_package_state *s = state(a);
    const rt_package *p = s->p;
    size_t j = review_state(a)->idx[i];
    term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
    const rt_review *mk = rt_annot_review(a->s->annot, p->qids[j], p->pids[j], p->name);
    size_t ann = rt_team_find(team_of(a), p->annotator);
    char dec[128];
    if (ann != (size_t)-1)
        team_decision_text(a, ann, p->qids[j], p->pids[j], dec, sizeof dec);
    else
        snprintf(dec, sizeof dec, "-");
    const char *shown = !mk ? "" : !rt_package_review_holds(team_of(a), s, p->qids[j], p->pids[j], mk) ? "stale"
                        : mk->correct ? "correct" : "WRONG";
    int x = draw_fmt(y, 0, a->cols, role, "%-7s ", shown);
    int decw = review_state(a)->decw;
    draw_text(y, x, decw, dec, strlen(dec), role, NULL);   /* category ids come from a file */
    x += decw;
    draw_fill(y, x++, 1, role);
    pairlist_draw_pair(a, y, x, &review_state(a)->cols, p->qids[j], p->pids[j], role);
}

static void draw(app *a, int top, int height)
{
    const rt_package_state *s = state(a);
    struct review_view *v = review_state(a);
    if (!s) {
        draw_fmt(top, 0, a->cols, ROLE_ERROR, "the package %s is gone (its maker withdrew it)", v->name);
        return;
    }
    const rt_package *p = s->p;
    size_t done = 0, good = 0, ann = rt_team_find(team_of(a), p->annotator);
    v->decw = 1;
    for (size_t i = 0; i < v->n; i++) {
        uint32_t q = p->qids[v->idx[i]], pid = p->pids[v->idx[i]];
        char dec[128];
        if (ann != (size_t)-1) {
            size_t dw = rt_text_width(team_decision_text(a, ann, q, pid, dec, sizeof dec), strlen(dec));
            v->decw = dw > REVIEW_DEC_MAX ? REVIEW_DEC_MAX : dw > (size_t)v->decw ? (int)dw : v->decw;
        }
        const rt_review *r = rt_annot_review(a->s->annot, q, pid, p->name);
        int holds = rt_package_review_holds(team_of(a), s, q, pid, r);   /* a stale mark: to do again */
        done += holds;
        good += holds && r->correct;
    }
    char mean[32] = "-";
    if (s->has_accuracy)
        rt_package_exact(s->accuracy, mean, sizeof mean);   /* exact, as the report */
    pairlist_header(a, top, "c correct  w wrong  0 withdraw the mark  x next unreviewed  Enter passage",
                    "review of %s by %s | you: %zu/%zu reviewed, %zu correct | package mean %s, %s", p->name,
                    p->annotator, done, v->n, good, mean, s->status);
    pairlist_columns(a, &pairs, a->cols - 8 - v->decw - 1, &v->cols);
    pairlist_draw(a, &pairs, top + 2, height > 2 ? (size_t)(height - 2) : 0);
}

const view_ops view_review_ops = {
    .name = "review", .draw = draw, .pairs = &pairs, .state_size = sizeof(struct review_view), .release = release,
};
