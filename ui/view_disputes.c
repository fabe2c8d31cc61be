/* view_disputes — the disagreement queue: every pair on which the loaded annotators decided
 * differently (grade, or categories), each annotator's decision and note beside the passage, and
 * adjudication with one key: 1-9 adopts that annotator's decision, + / - set the adjudicator's own
 * grade, w withdraws the adjudication. Each adjudication is an operation in the adjudicator's
 * journal naming the decisions it settles; u undoes it like any other. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "annotate.h"
#include "app.h"
#include "draw.h"
#include "pairlist.h"
#include "rt_mem.h"
#include "team.h"
#include "view.h"

/* What only this view keeps: the rows shown (indices into the decisions), the cursor, the
 * filters, and the decisions' generation the rows were built from. */
struct disputes_view {
    size_t *rows, nrows;
    pairlist list;
    unsigned differ;         /* RT_DIFFER_* shown (0: every kind) */
    int unresolved_only;
    char a[256], b[256];     /* only the pairs these two annotators decided differently ("": any);
                                room for any annotator's name (under 200 bytes) */
    unsigned gen;
    int built;
    int colw;                /* an annotator's column, as wide as the last draw made it */
};

static struct disputes_view *disputes_state(app *a) { return view_state(a, VIEW_DISPUTES); }

static void release(void *state)
{
    free(((struct disputes_view *)state)->rows);
}

/* Whether members x and y decided the pair differently in a kind of mask. */
static int differ_between(const app *a, size_t x, size_t y, const rt_team_pair *p, unsigned mask)
{
    const rt_team *t = team_of(a);
    const rt_label *lx = rt_annot_label(t->m[x].s->annot, p->qid, p->pid);
    const rt_label *ly = rt_annot_label(t->m[y].s->annot, p->qid, p->pid);
    const rt_tag *tx = rt_annot_tag(t->m[x].s->annot, p->qid, p->pid);
    const rt_tag *ty = rt_annot_tag(t->m[y].s->annot, p->qid, p->pid);
    if ((mask & RT_DIFFER_GRADE) && lx && ly && lx->grade != ly->grade)
        return 1;
    return (mask & RT_DIFFER_CATS) && tx && ty && tx->cats && ty->cats && tx->cats != ty->cats;
}

static void rebuild(app *a)
{
    struct disputes_view *q = disputes_state(a);
    const rt_team *t = team_of(a);
    const rt_team_decisions *d = team_decisions(a);
    size_t x = rt_team_find(t, q->a), y = rt_team_find(t, q->b);
    uint32_t keep_q = RT_NO_ID, keep_p = RT_NO_ID;
    if (q->built && q->list.sel < q->nrows) {
        keep_q = d->p[q->rows[q->list.sel]].qid;   /* (the decisions are rebuilt in the same order) */
        keep_p = d->p[q->rows[q->list.sel]].pid;
    }
    free(q->rows);
    q->rows = rt_calloc(d->n + 1, sizeof *q->rows);
    q->nrows = 0;
    unsigned mask = q->differ ? q->differ : RT_DIFFER_GRADE | RT_DIFFER_CATS;
    for (size_t i = 0; i < d->n; i++) {
        const rt_team_pair *p = &d->p[i];
        if (!(p->differ & mask) || (q->unresolved_only && !(p->unresolved & mask)))
            continue;
        if (q->a[0] && (x == (size_t)-1 || y == (size_t)-1 || !differ_between(a, x, y, p, mask)))
            continue;
        if (p->qid == keep_q && p->pid == keep_p)
            q->list.sel = q->nrows;
        q->rows[q->nrows++] = i;
    }
    if (q->list.sel >= q->nrows)
        q->list.sel = q->nrows ? q->nrows - 1 : 0;
    q->gen = team_generation(a);
    q->built = 1;
}

static void ensure_rows(app *a)
{
    struct disputes_view *dq = disputes_state(a);
    if (!dq->built || dq->gen != team_generation(a))
        rebuild(a);
}

static const rt_team_pair *focused(app *a)
{
    if (!team_of(a))
        return NULL;
    ensure_rows(a);
    struct disputes_view *q = disputes_state(a);
    return q->list.sel < q->nrows ? &team_decisions(a)->p[q->rows[q->list.sel]] : NULL;
}

static pairlist *list(app *a) { return &disputes_state(a)->list; }

/* The rows shown (made again first when the decisions changed). */
static size_t count(app *a)
{
    if (!team_of(a))
        return 0;
    ensure_rows(a);
    return disputes_state(a)->nrows;
}

static const rt_team_pair *row_pair(app *a, size_t i) { return &team_decisions(a)->p[disputes_state(a)->rows[i]]; }

static int pair(app *a, size_t i, uint32_t *qid, uint32_t *pid)
{
    *qid = row_pair(a, i)->qid;
    *pid = row_pair(a, i)->pid;
    return 1;
}

/* Unresolved: no adjudication settles it. */
static int todo(app *a, size_t i) { return row_pair(a, i)->unresolved; }

static void draw_row(app *a, int y, size_t i, int focused_row);

static const pairlist_ops pairs = {
    .list = list, .count = count, .pair = pair, .todo = todo, .all_done = "every disagreement shown is resolved",
    .draw_row = draw_row,
};

int act_disputes(app *a, const char *arg)
{
    if (team_ensure(a) != 0)
        return -1;
    struct disputes_view *q = disputes_state(a);
    const char *p = arg ? arg : "";
    char w[256];   /* an annotator's name whole */
    while (*p) {
        actions_word(&p, w, sizeof w);
        if (!strcmp(w, "all"))
            q->differ = 0, q->unresolved_only = 0, q->a[0] = q->b[0] = 0;
        else if (!strcmp(w, "grade"))
            q->differ = RT_DIFFER_GRADE;
        else if (!strcmp(w, "categories"))
            q->differ = RT_DIFFER_CATS;
        else if (!strcmp(w, "unresolved"))
            q->unresolved_only = 1;
        else if (!strcmp(w, "resolved"))
            q->unresolved_only = 0;
        else if (rt_team_find(team_of(a), w) != (size_t)-1 && !q->a[0])
            snprintf(q->a, sizeof q->a, "%s", w);
        else if (rt_team_find(team_of(a), w) != (size_t)-1)
            snprintf(q->b, sizeof q->b, "%s", w);
        else {
            app_message(a, 1, "usage: :disputes [all|grade|categories|unresolved|resolved] [ANNOTATOR ANNOTATOR] "
                        "(\"%s\" is none of these)", w);
            return -1;
        }
    }
    if (q->a[0] && !q->b[0]) {
        app_message(a, 1, ":disputes: name two annotators to compare (%s and who?)", q->a);
        q->a[0] = 0;
        return -1;
    }
    q->built = 0;
    ensure_rows(a);
    app_push(a, VIEW_DISPUTES);
    return 0;
}

static char *settle_ref(const char *who, uint64_t seq)
{
    size_t len = strlen(who) + 24;
    char *ref = rt_malloc(len);
    snprintf(ref, len, "%s:%llu", who, (unsigned long long)seq);
    return ref;
}

/* The decisions an adjudication of p settles: "annotator:seq" of every member's label and tag,
 * whole whatever the names' length (new strings in a new array of *n; caller frees). */
static char **settled(app *a, const rt_team_pair *p, size_t *n)
{
    const rt_team *t = team_of(a);
    char **v = rt_calloc(2 * t->n + 1, sizeof *v);
    *n = 0;
    for (size_t m = 0; m < t->n; m++) {
        const rt_label *l = rt_annot_label(t->m[m].s->annot, p->qid, p->pid);
        const rt_tag *tg = rt_annot_tag(t->m[m].s->annot, p->qid, p->pid);
        if (l)
            v[(*n)++] = settle_ref(t->m[m].name, l->prov.seq);
        if (tg && tg->cats && (!l || tg->prov.seq != l->prov.seq))
            v[(*n)++] = settle_ref(t->m[m].name, tg->prov.seq);
    }
    return v;
}

static int adjudicate(app *a, const rt_team_pair *p, int has_grade, int32_t grade, int has_cats,
                      unsigned long long cats)
{
    size_t n = 0;
    char **v = has_grade || has_cats ? settled(a, p, &n) : NULL;
    uint32_t qid = p->qid, pid = p->pid;
    rt_change ch;
    rt_err err;
    rt_status st = rt_session_adjudicate(a->s, qid, pid, has_grade, grade, has_cats, cats, v, n, &ch, &err);
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    int rc = annotate_outcome(a, st, &ch, &err);
    if (rc != 0)
        return rc;
    struct disputes_view *q = disputes_state(a);   /* annotate_outcome has decided the pair again */
    ensure_rows(a);
    /* on to the next pair still unresolved */
    for (size_t i = q->list.sel + 1; i < q->nrows; i++)
        if (team_decisions(a)->p[q->rows[i]].unresolved) {
            q->list.sel = i;
            break;
        }
    return 0;
}

int act_adopt(app *a, const char *arg)
{
    (void)arg;
    const rt_team_pair *p = focused(a);
    const rt_team *t = team_of(a);
    size_t k = (size_t)(a->key - '1');
    if (!p)
        return 0;
    if (k >= t->n) {
        app_message(a, 1, "there are %zu annotators (keys 1-%zu)", t->n, t->n);
        return -1;
    }
    const rt_label *l = rt_annot_label(t->m[k].s->annot, p->qid, p->pid);
    const rt_tag *tg = rt_annot_tag(t->m[k].s->annot, p->qid, p->pid);
    int has_cats = (p->differ & RT_DIFFER_CATS) || (tg && tg->cats);
    if (!l && !has_cats) {
        app_message(a, 1, "%s made no decision on this pair", t->m[k].name);
        return -1;
    }
    return adjudicate(a, p, l != NULL, l ? l->grade : 0, has_cats, tg ? tg->cats : 0);
}

static int own_grade(app *a, int32_t g)
{
    const rt_team_pair *p = focused(a);
    if (!p)
        return 0;
    const rt_adjud *mine = rt_annot_adjud(a->s->annot, p->qid, p->pid);   /* its categories stay */
    return adjudicate(a, p, 1, g, mine && mine->has_cats, mine ? mine->cats : 0);
}

int act_adj_relevant(app *a, const char *arg)
{
    (void)arg;
    return own_grade(a, a->s->ws->level > 0 ? a->s->ws->level : 1);
}

int act_adj_not_relevant(app *a, const char *arg)
{
    (void)arg;
    return own_grade(a, 0);
}

int act_adj_withdraw(app *a, const char *arg)
{
    (void)arg;
    const rt_team_pair *p = focused(a);
    return p ? adjudicate(a, p, 0, 0, 0, 0) : 0;
}

/* :adjudicate QID PID ANNOTATOR|GRADE|withdraw — for scripts and for pairs outside the queue. */
int act_adjudicate(app *a, const char *arg)
{
    if (team_ensure(a) != 0)
        return -1;
    char q[1024], pstr[1024], how[256];   /* how: an annotator's name whole */
    const char *s = arg ? arg : "";
    actions_word(&s, q, sizeof q);
    actions_word(&s, pstr, sizeof pstr);
    actions_word(&s, how, sizeof how);
    uint32_t qid = rt_strtab_find(a->s->ws->qids, q, strlen(q)), pid = rt_session_pid(a->s, pstr);
    const rt_team_pair *p = qid != RT_NO_ID && pid != RT_NO_ID ? rt_team_pair_of(team_decisions(a), qid, pid) : NULL;
    if (!how[0] || !p) {
        app_message(a, 1, !how[0] ? "usage: :adjudicate QID PID ANNOTATOR|GRADE|withdraw"
                                  : "nobody on the team decided %s %s", q, pstr);
        return -1;
    }
    if (!strcmp(how, "withdraw"))
        return adjudicate(a, p, 0, 0, 0, 0);
    size_t k = rt_team_find(team_of(a), how);
    if (k != (size_t)-1) {
        const rt_team *t = team_of(a);
        const rt_label *l = rt_annot_label(t->m[k].s->annot, qid, pid);
        const rt_tag *tg = rt_annot_tag(t->m[k].s->annot, qid, pid);
        int has_cats = (p->differ & RT_DIFFER_CATS) || (tg && tg->cats);
        if (!l && !has_cats) {
            app_message(a, 1, "%s made no decision on this pair", how);
            return -1;
        }
        return adjudicate(a, p, l != NULL, l ? l->grade : 0, has_cats, tg ? tg->cats : 0);
    }
    if (strlen(how) == 1 && how[0] >= '0' && how[0] <= '9') {
        const rt_adjud *mine = rt_annot_adjud(a->s->annot, qid, pid);
        return adjudicate(a, p, 1, how[0] - '0', mine && mine->has_cats, mine ? mine->cats : 0);
    }
    app_message(a, 1, "\"%s\" is no annotator of the team, grade or \"withdraw\"", how);
    return -1;
}

static void draw_pair_row(app *a, int y, const rt_team_pair *p, int focus, int colw)
{
    const rt_team *t = team_of(a);
    term_role role = focus ? ROLE_SELECTED : p->unresolved ? ROLE_NORMAL : ROLE_DIM;
    int x = draw_fmt(y, 0, a->cols, role, "%c %-10.10s %-14.14s %-4s ", p->unresolved ? '!' : ' ',
                     rt_strtab_str(a->s->ws->qids, p->qid), rt_strtab_str(a->s->ws->pids, p->pid),
                     p->differ == (RT_DIFFER_GRADE | RT_DIFFER_CATS) ? "g+c" : p->differ == RT_DIFFER_GRADE ? "g" : "c");
    char buf[256];
    for (size_t m = 0; m < t->n && x + colw <= a->cols; m++, x += colw)
        draw_fmt(y, x, colw - 1, role, "%s", team_decision_text(a, m, p->qid, p->pid, buf, sizeof buf));
    if (x < a->cols)
        draw_fmt(y, x, a->cols - x, role, "%s", p->has_adj ? t->m[p->adj_member].name : "");
}

static void draw_row(app *a, int y, size_t i, int focused_row)
{
    draw_pair_row(a, y, row_pair(a, i), focused_row, disputes_state(a)->colw);
}

/* The focused pair in full: the query, the passage's start, each annotator's decision and note. */
static void draw_detail(app *a, int y, int h, const rt_team_pair *p)
{
    const rt_team *t = team_of(a);
    const char *qt = rt_workspace_query_text(a->s->ws, p->qid);
    int x = draw_fmt(y, 0, a->cols, ROLE_HEADER, "%s  ", rt_strtab_str(a->s->ws->qids, p->qid));
    draw_text(y, x, a->cols - x, qt ? qt : "", qt ? strlen(qt) : 0, ROLE_HEADER, NULL);
    if (h > 1)
        app_draw_passage_of(a, y + 1, 2, a->cols - 2, p->qid, p->pid, ROLE_NORMAL);
    char buf[256];
    for (size_t m = 0; m < t->n && (int)m + 2 < h; m++) {
        const rt_tag *tg = rt_annot_tag(t->m[m].s->annot, p->qid, p->pid);
        int xx = draw_fmt(y + 2 + (int)m, 0, a->cols, ROLE_NORMAL, "%zu %-12.12s %-24.24s ", m + 1, t->m[m].name,
                          team_decision_text(a, m, p->qid, p->pid, buf, sizeof buf));
        if (tg && tg->note)
            draw_text(y + 2 + (int)m, xx, a->cols - xx, tg->note, strlen(tg->note), ROLE_DIM, NULL);
    }
}

static void draw(app *a, int top, int height)
{
    if (!team_of(a))
        return;
    ensure_rows(a);
    struct disputes_view *q = disputes_state(a);
    const rt_team *t = team_of(a);
    const rt_team_decisions *d = team_decisions(a);
    pairlist_header(a, top, "1-9 adopt that annotator's decision  + relevant  - not relevant  w withdraw  "
                    "u undo  Enter passage  :disputes filters",
                    "disagreements: resolved %zu / %zu | shown %zu (%s%s%s%s%s%s) | team of %zu",
                    d->disputed - d->unresolved, d->disputed, q->nrows,
                    q->differ == RT_DIFFER_GRADE  ? "grade"
                    : q->differ == RT_DIFFER_CATS ? "categories"
                                                  : "grade and categories",
                    q->unresolved_only ? ", unresolved" : "", q->a[0] ? ", " : "", q->a, q->a[0] ? " vs " : "", q->b, t->n);
    int colw = t->n ? (a->cols - 33 - 10) / (int)t->n : 10;
    if (colw > 22)
        colw = 22;
    if (colw < 6)
        colw = 6;
    int x = draw_fmt(top + 2, 0, a->cols, ROLE_HEADER, "  %-10s %-14s %-4s ", "qid", "pid", "diff");
    for (size_t m = 0; m < t->n && x + colw <= a->cols; m++, x += colw)
        draw_fmt(top + 2, x, colw, ROLE_HEADER, "%zu %s", m + 1, t->m[m].name);
    if (x < a->cols)
        draw_fmt(top + 2, x, a->cols - x, ROLE_HEADER, "adjudicated");
    if (!q->nrows) {
        static const char none[] = "No pair here: the annotators agree on every pair this filter shows.";
        draw_text(top + 3, 0, a->cols, none, strlen(none), ROLE_DIM, NULL);
        return;
    }
    int detail = (int)t->n + 3;
    int rows = height - 3 - (height - 3 > detail + 3 ? detail : 0);
    if (rows < 1)
        rows = 1;
    q->colw = colw;
    pairlist_draw(a, &pairs, top + 3, (size_t)rows);
    if (height - 3 > detail + 3)
        draw_detail(a, top + 3 + rows, detail, &d->p[q->rows[q->list.sel]]);
}

const view_ops view_disputes_ops = {
    .name = "disagreements", .draw = draw, .pairs = &pairs, .state_size = sizeof(struct disputes_view),
    .release = release,
};
