/* annotate — tagging, relabelling and the other annotation actions of the workbench. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "annotate.h"
#include "team.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "list.h"
#include "view.h"

static const char *qstr(const app *a, uint32_t qid) { return rt_strtab_str(a->s->ws->qids, qid); }
static const char *pstr(const app *a, uint32_t pid)
{
    return pid == RT_NO_ID ? NULL : rt_strtab_str(a->s->ws->pids, pid);
}

/* One line for the status line saying what op did ("q01 p0023 labelled 1 (#12)"); the names
 * are the journal's, a category by its name in the taxonomy. */
static void describe(const rt_session *s, const rt_op *op, char *buf, size_t len)
{
    const char *what = op->undo ? "undone: " : op->redo ? "redone: " : "";
    /* a change is made by ids (rt_op.id): its names are the tables' (the text form, when a change
     * came by name, says the same) */
    const rt_taxonomy *tax = s->ws->taxonomy;
    const char *qid = op->qid ? op->qid
                      : op->by_id && op->id.qid != RT_NO_ID ? rt_strtab_str(s->ws->qids, op->id.qid) : "";
    const char *target = op->pid ? op->pid
                         : op->by_id && op->id.pid != RT_NO_ID ? rt_strtab_str(s->ws->pids, op->id.pid) : "(query)";
    size_t c = op->cat ? rt_taxonomy_find(tax, op->cat) : op->by_id ? op->id.cat : (size_t)-1;
    const char *cat = c < tax->ncats ? tax->cats[c].name : op->cat ? op->cat : "";
    switch (op->kind) {
    case RT_OP_LABEL:
        if (op->has_grade)
            snprintf(buf, len, "%s%s %s labelled %d (#%" PRIu64 ")", what, qid, target,
                     (int)op->grade, op->seq);
        else
            snprintf(buf, len, "%s%s %s back to its base judgment (#%" PRIu64 ")", what, qid,
                     target, op->seq);
        break;
    case RT_OP_TAG:
    case RT_OP_UNTAG:
        snprintf(buf, len, "%s%s %s %s %s (#%" PRIu64 ")", what, qid, target,
                 op->kind == RT_OP_TAG ? "tagged" : "untagged", cat, op->seq);
        break;
    case RT_OP_NOTE:
        snprintf(buf, len, "%s%s %s note %s (#%" PRIu64 ")", what, qid, target,
                 op->text[0] ? "saved" : "removed", op->seq);
        break;
    case RT_OP_LEAK:
        snprintf(buf, len, "%s%s × %s: %s (#%" PRIu64 ")", what, qid, op->train,
                 op->text[0] ? op->text : "label removed", op->seq);
        break;
    case RT_OP_SET:
        if (op->has_list)
            snprintf(buf, len, "%squery set %s: %zu queries (#%" PRIu64 ")", what, op->name,
                     op->nqids, op->seq);
        else
            snprintf(buf, len, "%squery set %s removed (#%" PRIu64 ")", what, op->name, op->seq);
        break;
    case RT_OP_ADJUDICATE:
        if (!op->has_grade && !op->has_cats)
            snprintf(buf, len, "%s%s %s: adjudication withdrawn (#%" PRIu64 ")", what, qid, target, op->seq);
        else {
            char g[32] = "";
            if (op->has_grade)
                snprintf(g, sizeof g, " grade %d", (int)op->grade);
            snprintf(buf, len, "%s%s %s adjudicated:%s%s%s (#%" PRIu64 ")", what, qid, target, g,
                     op->has_grade && op->has_cats ? " and" : "", op->has_cats ? " categories" : "", op->seq);
        }
        break;
    case RT_OP_PACKAGE:
        if (op->has_list)
            snprintf(buf, len, "%spackage %s: %zu pairs for %s (#%" PRIu64 ")", what, op->name, op->nqids,
                     op->text, op->seq);
        else
            snprintf(buf, len, "%spackage %s removed (#%" PRIu64 ")", what, op->name, op->seq);
        break;
    case RT_OP_REVIEW:
        snprintf(buf, len, "%s%s %s in %s: %s (#%" PRIu64 ")", what, qid, target, op->name,
                 op->text[0] ? op->text : "review withdrawn", op->seq);
        break;
    default:
        snprintf(buf, len, "?");
    }
}

int annotate_outcome(app *a, rt_status st, const rt_change *ch, const rt_err *err)
{
    if (st != RT_OK && err->what == RT_ERR_NOOP) {
        /* set again as it is: said, and no failure (a script run twice runs to its end) */
        app_message(a, 0, "%s", err->msg);
        return 0;
    }
    if (st != RT_OK) {
        app_message(a, 1, "%s", err->msg);
        return -1;
    }
    char what[400];
    describe(a->s, ch->op, what, sizeof what);
    app_message(a, 0, "%s", what);
    if (ch->qid != RT_NO_ID) {
        app_query_changed(a, ch->qid);
        team_after_change(a, ch->qid, ch->pid);   /* the annotator is on the team too */
    }
    return 0;
}

static int label(app *a, uint32_t qid, uint32_t pid, int has_grade, int32_t grade)
{
    rt_change ch;
    rt_err err;
    return annotate_outcome(a, rt_session_relabel(a->s, qid, pid, has_grade, grade, &ch, &err), &ch, &err);
}

/* Toggles category c on (qid, pid). */
static int toggle(app *a, uint32_t qid, uint32_t pid, size_t c)
{
    const rt_category *cat = &a->s->ws->taxonomy->cats[c];
    const rt_tag *t = rt_annot_tag(a->s->annot, qid, pid);
    int has = t && (t->cats >> c & 1);
    rt_change ch;
    rt_err err;
    if (annotate_outcome(a, rt_session_set_tag(a->s, qid, pid, c, !has, &ch, &err), &ch, &err) != 0)
        return -1;
    int32_t g;
    int rel = app_grade(a, qid, pid, &g) && g >= a->s->ws->level;
    if (!has && cat->relabel && pid != RT_NO_ID && !rel) {
        a->pending = PEND_FN;
        a->pend_qid = qid;
        a->pend_pid = pid;
        size_t n = strlen(a->msg);
        snprintf(a->msg + n, sizeof a->msg - n, " — y: relabel %s as relevant", pstr(a, pid));
    }
    return 0;
}

int act_tag_key(app *a, const char *arg)
{
    (void)arg;
    size_t c = rt_taxonomy_by_key(a->s->ws->taxonomy, a->key);
    uint32_t qid, pid;
    if (c == (size_t)-1) {
        app_message(a, 1, "no category on key %c (? lists them)", a->key);
        return -1;
    }
    if (!view_focus(a, &qid, &pid)) {
        app_message(a, 1, "no passage here to tag");
        return -1;
    }
    return toggle(a, qid, pid, c);
}

int act_query_tag(app *a, const char *arg)
{
    (void)arg;
    uint32_t qid, pid;
    if (!view_focus(a, &qid, &pid))
        return 0;
    a->pending = PEND_QUERY_TAG;
    a->pend_qid = qid;
    app_message(a, 0, "tag the query %s itself: press a category key (1-%zu)", qstr(a, qid),
                a->s->ws->taxonomy->ncats < 9 ? a->s->ws->taxonomy->ncats : 9);
    return 0;
}

int act_grade(app *a, const char *arg)
{
    (void)arg;
    uint32_t qid, pid;
    if (!view_focus(a, &qid, &pid) || pid == RT_NO_ID) {
        app_message(a, 1, "no passage here to relabel");
        return -1;
    }
    a->pending = PEND_GRADE;
    a->pend_qid = qid;
    a->pend_pid = pid;
    app_message(a, 0, "grade for %s: %s, or = for the base judgment", pstr(a, pid),
                a->s->ws->graded ? "0-3" : "0 or 1");
    return 0;
}

/* ---- the keys that follow t, r and a false-negative tag (a->pend_qid, a->pend_pid) -------- */

int act_fn_relabel(app *a, const char *arg)
{
    (void)arg;
    return label(a, a->pend_qid, a->pend_pid, 1, a->s->ws->level > 1 ? a->s->ws->level : 1);
}

int act_fn_keep(app *a, const char *arg)
{
    (void)arg;
    app_message(a, 0, "not relabelled");
    return 0;
}

int act_query_tag_digit(app *a, const char *arg)
{
    (void)arg;
    size_t c = rt_taxonomy_by_key(a->s->ws->taxonomy, a->key);
    if (c == (size_t)-1) {
        app_message(a, 0, "no category on that key; nothing tagged");
        return 0;
    }
    return toggle(a, a->pend_qid, RT_NO_ID, c);
}

int act_grade_digit(app *a, const char *arg)
{
    (void)arg;
    if (a->key - '0' > (a->s->ws->graded ? 3 : 1)) {
        app_message(a, 0, "not relabelled: this workspace's grades are %s", a->s->ws->graded ? "0-3" : "0 and 1");
        return 0;
    }
    return label(a, a->pend_qid, a->pend_pid, 1, a->key - '0');
}

int act_grade_base(app *a, const char *arg)
{
    (void)arg;
    return label(a, a->pend_qid, a->pend_pid, 0, 0);
}

int annotate_pending_other(app *a, pending_kind p)
{
    app_message(a, 0, p == PEND_QUERY_TAG ? "no category on that key; nothing tagged" : "not relabelled");
    return p != PEND_FN;   /* after a false-negative tag, any other key goes on to its own action */
}

static int label_focus(app *a, int has_grade, int32_t grade)
{
    uint32_t qid, pid;
    if (!view_focus(a, &qid, &pid) || pid == RT_NO_ID) {
        app_message(a, 1, "no passage here to relabel");
        return -1;
    }
    return label(a, qid, pid, has_grade, grade);
}

int act_relevant(app *a, const char *arg)
{
    (void)arg;
    return label_focus(a, 1, a->s->ws->level > 1 ? a->s->ws->level : 1);
}
int act_not_relevant(app *a, const char *arg) { (void)arg; return label_focus(a, 1, 0); }
int act_base_label(app *a, const char *arg) { (void)arg; return label_focus(a, 0, 0); }

/* ---- commands ---------------------------------------------------------------------------- */

/* Splits "QID PID REST": the first two words into q and p (p "-" means none), rest after. */
static int two_words(const char *arg, char *q, size_t qn, char *p, size_t pn, const char **rest)
{
    if (!arg)
        return 0;
    arg += strspn(arg, " ");
    actions_word(&arg, q, qn);
    actions_word(&arg, p, pn);
    *rest = arg;
    return q[0] && p[0];
}

/* The ids a command names (q, and p unless it is "-"): 0 with the reason shown when unknown. */
static int ids_of(app *a, const char *q, const char *p, uint32_t *qid, uint32_t *pid)
{
    *qid = rt_strtab_find(a->s->ws->qids, q, strlen(q));
    *pid = RT_NO_ID;
    if (*qid == RT_NO_ID && rt_loader_runs_loading(a->s->ws, NULL, NULL) && app_wait(a, APP_WAIT_RUNS))   /* ranked by a later run? */
        *qid = rt_strtab_find(a->s->ws->qids, q, strlen(q));
    if (*qid == RT_NO_ID) {
        app_message(a, 1, "unknown query \"%s\"", q);
        return 0;
    }
    if (strcmp(p, "-") != 0 && rt_strtab_find(a->s->ws->pids, p, strlen(p)) == RT_NO_ID && !app_wait(a, APP_WAIT_ALL))
        return 0;   /* a passage only a later run or the collection may know: they first, or given up */
    if (strcmp(p, "-") != 0 && (*pid = rt_session_pid(a->s, p)) == RT_NO_ID) {
        app_message(a, 1, "unknown passage \"%s\"", p);
        return 0;
    }
    return 1;
}

static int tag_cmd(app *a, const char *arg, int on)
{
    char q[256], p[256];
    const char *cat;
    uint32_t qid, pid;
    if (!two_words(arg, q, sizeof q, p, sizeof p, &cat) || !*cat) {
        app_message(a, 1, "usage: :%s QID PID|- CATEGORY", on ? "tag" : "untag");
        return -1;
    }
    if (!ids_of(a, q, p, &qid, &pid))
        return -1;
    size_t c = rt_taxonomy_find(a->s->ws->taxonomy, cat);
    if (c == (size_t)-1) {
        app_message(a, 1, "unknown category \"%s\"", cat);
        return -1;
    }
    rt_change ch;
    rt_err err;
    return annotate_outcome(a, rt_session_set_tag(a->s, qid, pid, c, on, &ch, &err), &ch, &err);
}

int act_tag(app *a, const char *arg) { return tag_cmd(a, arg, 1); }
int act_untag(app *a, const char *arg) { return tag_cmd(a, arg, 0); }

int act_note(app *a, const char *arg)
{
    char q[256], p[256];
    const char *text;
    if (!arg) {
        uint32_t qid, pid;
        if (!view_focus(a, &qid, &pid))
            return 0;
        const rt_tag *t = rt_annot_tag(a->s->annot, qid, pid);
        a->prompt = ':';
        a->line_len = (size_t)snprintf(a->line, sizeof a->line, "note %s %s %s", qstr(a, qid),
                                       pid == RT_NO_ID ? "-" : pstr(a, pid), t && t->note ? t->note : "");
        if (a->line_len >= sizeof a->line)
            a->line_len = sizeof a->line - 1;
        return 0;
    }
    if (!two_words(arg, q, sizeof q, p, sizeof p, &text)) {
        app_message(a, 1, "usage: :note QID PID|- TEXT (empty TEXT removes the note)");
        return -1;
    }
    uint32_t qid, pid;
    if (!ids_of(a, q, p, &qid, &pid))
        return -1;
    rt_change ch;
    rt_err err;
    return annotate_outcome(a, rt_session_set_note(a->s, qid, pid, text, &ch, &err), &ch, &err);
}

int act_label(app *a, const char *arg)
{
    char q[256], p[256];
    const char *g;
    if (!two_words(arg, q, sizeof q, p, sizeof p, &g) || !*g) {
        app_message(a, 1, "usage: :label QID PID GRADE|base");
        return -1;
    }
    int64_t v = 0;
    int base = strcmp(g, "base") == 0;
    if (!base && !rt_num_parse_int_in(g, INT32_MIN, INT32_MAX, &v)) {
        app_message(a, 1, "grade \"%s\": a whole number (of the workspace's scale), or base", g);
        return -1;
    }
    uint32_t qid, pid;
    if (!strcmp(p, "-")) {
        app_message(a, 1, "a label needs a passage");
        return -1;
    }
    if (!ids_of(a, q, p, &qid, &pid))
        return -1;
    return label(a, qid, pid, !base, base ? 0 : (int32_t)v);
}

static int history(app *a, int redo)
{
    rt_change ch;
    rt_err err;
    return annotate_outcome(a, rt_session_step(a->s, redo, &ch, &err), &ch, &err);
}

int act_undo(app *a, const char *arg) { (void)arg; return history(a, 0); }
int act_redo(app *a, const char *arg) { (void)arg; return history(a, 1); }

/* ---- next thing to do -------------------------------------------------------------------- */

/* The first rank ≥ from (0-based) in the top k of run r for qid that is not relevant and has no
 * tag; (size_t)-1 when none. */
static size_t failing_from(app *a, size_t r, uint32_t qid, size_t from)
{
    size_t n;
    const uint32_t *p = rt_run_ranking(a->s->ws->runs[r].run, qid, &n);
    for (size_t i = from; i < n && i < a->bk; i++) {
        int32_t g;
        if (app_grade(a, qid, p[i], &g) && g >= a->s->ws->level)
            continue;
        const rt_tag *t = rt_annot_tag(a->s->annot, qid, p[i]);
        if (!t || !t->cats)
            return i;
    }
    return (size_t)-1;
}

static int next_failing(app *a)
{
    struct list_state *l = list_state(a);
    size_t r = view_focused_run(a);
    if (!l->nrows) {
        app_message(a, 1, "no query in the list");
        return -1;
    }
    size_t pos = 0;
    int here = (view_current(a)->flags & VIEW_IN_QUERY) != 0;   /* start from the focused rank */
    for (size_t i = 0; i < l->nrows; i++)
        if (l->rows_idx[i] == (here ? a->cur : l->rows_idx[l->sel]))
            pos = i;
    for (size_t step = 0; step <= l->nrows; step++) {
        size_t k = (pos + step) % l->nrows, qi = l->rows_idx[k];
        uint32_t qid = a->s->ws->qlist[qi];
        if (!rt_live_is_judged(a->s->live, qid))
            continue;
        size_t from = step == 0 && here ? a->rank + 1 : 0;
        size_t rank = failing_from(a, r, qid, from);
        if (rank == (size_t)-1)
            continue;
        if (qi != a->cur || !here)
            app_set_query(a, qi);
        l->sel = k;
        app_show_list(a);
        app_push(a, VIEW_COMPARE);
        a->rank = rank;
        app_message(a, 0, "%s: untagged failing passage at rank %zu of %s", qstr(a, qid), rank + 1,
                    rt_run_name(a->s->ws->runs[r].run));
        return 0;
    }
    app_message(a, 0, "every non-relevant passage in the top %zu of %s is tagged", a->bk,
                rt_run_name(a->s->ws->runs[r].run));
    return 0;
}

int act_next_todo(app *a, const char *arg)
{
    (void)arg;
    return view_next_todo(a, next_failing);
}

/* ---- breakdown, sets, exports ------------------------------------------------------------ */
