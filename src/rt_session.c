/* rt_session — opening an annotation session on a workspace and making changes durable. */
#include "config.h"

#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_names.h"
#include "rt_noop.h"
#include "rt_id.h"
#include "rt_reader.h"
#include "rt_session.h"
#include "rt_path.h"
#include "rt_leak.h"

char *rt_session_default_dir(const rt_workspace *ws)
{
    if (ws->journal_dir)
        return rt_strdup(ws->journal_dir);
    if (ws->path) {
        char *dir = rt_path_dir(ws->path);
        char *j = rt_path_join(dir, "annotations");
        free(dir);
        return j;
    }
    return rt_strdup("annotations");
}

char *rt_session_default_annotator(const rt_workspace *ws)
{
    if (ws->annotator && ws->annotator[0])
        return rt_strdup(ws->annotator);
    const struct passwd *pw = getpwuid(getuid());
    if (pw && pw->pw_name && pw->pw_name[0])
        return rt_strdup(pw->pw_name);
    const char *u = getenv("USER");
    return rt_strdup(u && u[0] ? u : "annotator");
}

/* An operation read back that this workspace cannot take (a grade outside its scale — a label's
 * or an adjudication's —, an unknown category, a review verdict other than correct or wrong) is a
 * bad line like one that does not parse: reported with file:line, not applied, and the journal
 * read-only until the user fixes it. */
static int replayable(const rt_session *s, const rt_op *op, rt_err *e)
{
    int32_t max = s->ws->graded ? 3 : 1;
    if ((op->kind == RT_OP_LABEL || op->kind == RT_OP_ADJUDICATE) && op->has_grade && (op->grade < 0 || op->grade > max))
        return rt_err_set(e, RT_EINPUT, "grade %d is outside this workspace's scale (%s)",
                          (int)op->grade, s->ws->graded ? "0-3" : "0 and 1"), 0;
    if (op->kind == RT_OP_REVIEW && op->text && op->text[0] && strcmp(op->text, "correct") != 0 &&
        strcmp(op->text, "wrong") != 0)   /* else it would count as wrong */
        return rt_err_set(e, RT_EINPUT, "review verdict \"%.100s\": a review says correct or wrong", op->text), 0;
    return 1;
}

/* Whether a query an operation read back names is one this workspace has (its queries, qrels
 * or runs), given its id as found (RT_NO_ID: none yet). Only the loaders add queries: an
 * operation read back never does. Runs still being read behind the first screen (the
 * workbench's deferred open) are not waited for: a query they may name counts as known until
 * they are in, and such an operation is applied as it always was. */
static int replay_qid_known(const rt_session *s, uint32_t id)
{
    return id != RT_NO_ID || rt_loader_runs_loading(s->ws, NULL, NULL);
}

/* Whether pid, found as id, is a passage this workspace has (its qrels, runs or collection).
 * Runs or a collection still being read are not waited for either: what they may hold counts
 * as known. */
static int replay_pid_known(const rt_session *s, const char *pid, uint32_t id)
{
    if (id != RT_NO_ID || rt_loader_runs_loading(s->ws, NULL, NULL) || rt_loader_collection_loading(s->ws, NULL, NULL))
        return 1;
    const char *t;
    size_t tl;
    return s->ws->collection && rt_collection_find(s->ws->collection, pid, strlen(pid), &t, &tl);
}

/* Counts one foreign operation of kind what (0 query, 1 passage), remembering the first. */
static void note_foreign(rt_session *s, int what, const rt_op *op, const char *id)
{
    if (s->foreign[what]++)
        return;
    s->foreign_line[what] = op->line;
    s->foreign_id[what] = rt_strdup(id);
}

/* Whether op, read back and resolved without interning (RESOLVE_FIND), names a query or a
 * passage this workspace does not have (a journal of another workspace): such an operation stays
 * in the journal and is applied to nothing, so that no state, metric, team decision, agreement,
 * package or export of this workspace sees it, and no id of it is interned. A leak label's query
 * is checked by the leakage view instead. */
static int foreign_op(rt_session *s, const rt_op *op)
{
    if (op->kind == RT_OP_LEAK)
        return 0;
    const char *q = op->qid && !replay_qid_known(s, op->id.qid) ? op->qid : NULL;   /* qid NULL: a set, a package */
    for (size_t i = 0; !q && op->qids && i < op->nqids; i++)
        q = !replay_qid_known(s, op->id.qids[i]) ? op->qids[i] : NULL;
    if (q) {
        note_foreign(s, 0, op, q);
        return 1;
    }
    const char *p = op->pid && !replay_pid_known(s, op->pid, op->id.pid) ? op->pid : NULL;
    for (size_t i = 0; !p && op->pids && i < op->nqids; i++)
        p = !replay_pid_known(s, op->pids[i], op->id.pids[i]) ? op->pids[i] : NULL;
    if (p)
        note_foreign(s, 1, op, p);
    return p != NULL;
}

/* How resolve takes a name the workspace's tables lack. */
enum {
    RESOLVE_FIND,     /* RT_NO_ID (a const check, an op read back before foreign_op: nothing changes) */
    RESOLVE_CHANGE    /* a passage the collection has is interned (as rt_session_pid does); else RT_NO_ID */
};

static int known_pid(const rt_session *s, const char *pid);

/* Never interned: only the loaders add queries. */
static uint32_t qid_of(const rt_session *s, const char *qid)
{
    return rt_strtab_find(s->ws->qids, qid, strlen(qid));
}

static uint32_t pid_of(const rt_session *s, const char *pid, int mode)
{
    uint32_t id = rt_strtab_find(s->ws->pids, pid, strlen(pid));
    if (id == RT_NO_ID && mode == RESOLVE_CHANGE && known_pid(s, pid))
        id = rt_strtab_intern(s->ws->pids, pid, strlen(pid));
    return id;
}

/* The journal's boundary: op's text form (a line read back, a change typed or imported by name)
 * resolved to the workspace's ids, which is all the state and the checks read from then on. A
 * name the tables lack stays RT_NO_ID (mode says when it is interned instead); a category the
 * taxonomy lacks sets id.unknown_cat. The text form is kept: it is what the journal writes for
 * such an op (byte for byte what was typed or imported) and what messages quote. */
static void resolve(const rt_session *s, rt_op *op, int mode)
{
    if (op->by_id)
        return;
    const rt_taxonomy *tax = s->ws->taxonomy;
    op->by_id = 1;
    memset(&op->id, 0, sizeof op->id);
    op->id.qid = op->qid ? qid_of(s, op->qid) : RT_NO_ID;
    op->id.pid = op->pid ? pid_of(s, op->pid, mode) : RT_NO_ID;
    if (op->kind == RT_OP_TAG || op->kind == RT_OP_UNTAG) {
        op->id.cat = op->cat ? rt_taxonomy_find(tax, op->cat) : (size_t)-1;
        op->id.unknown_cat = op->id.cat == (size_t)-1;
    }
    for (size_t i = 0; op->kind == RT_OP_ADJUDICATE && op->cats && i < op->ncats; i++) {
        size_t c = rt_taxonomy_find(tax, op->cats[i]);
        if (c == (size_t)-1)
            op->id.unknown_cat = 1;
        else
            op->id.cats |= 1ull << c;
    }
    if (op->qids) {
        op->id.qids = rt_calloc(op->nqids + 1, sizeof *op->id.qids);
        for (size_t i = 0; i < op->nqids; i++)
            op->id.qids[i] = qid_of(s, op->qids[i]);
    }
    if (op->pids) {
        op->id.pids = rt_calloc(op->nqids + 1, sizeof *op->id.pids);
        for (size_t i = 0; i < op->nqids; i++)
            op->id.pids[i] = pid_of(s, op->pids[i], mode);
    }
}

/* The names of op (read back, resolved with RESOLVE_FIND) that foreign_op let through without
 * an id yet, interned: runs or a collection still being read may name them, or a leak label's
 * query; the state has always taken such ids. */
static void intern_rest(const rt_session *s, rt_op *op)
{
    rt_strtab *qt = s->ws->qids, *pt = s->ws->pids;
    if (op->qid && op->id.qid == RT_NO_ID)
        op->id.qid = rt_strtab_intern(qt, op->qid, strlen(op->qid));
    if (op->pid && op->id.pid == RT_NO_ID)
        op->id.pid = rt_strtab_intern(pt, op->pid, strlen(op->pid));
    for (size_t i = 0; op->qids && i < op->nqids; i++) {
        if (op->id.qids[i] == RT_NO_ID)
            op->id.qids[i] = rt_strtab_intern(qt, op->qids[i], strlen(op->qids[i]));
        if (op->pids && op->id.pids[i] == RT_NO_ID)
            op->id.pids[i] = rt_strtab_intern(pt, op->pids[i], strlen(op->pids[i]));
    }
}

/* Applies one operation read back from journal j (s->journal may not be set yet): its names
 * looked up once (the journal's boundary), then foreign_op, then the state by ids. Returns the
 * query of a label applied when the workspace had it before (RT_NO_ID otherwise): whose live
 * metrics a refresh brings up to date. */
static uint32_t replay_one(rt_session *s, rt_journal *j, rt_op *op)
{
    rt_err e;
    const char *warn = NULL;
    resolve(s, op, RESOLVE_FIND);
    if (foreign_op(s, op)) {
        rt_op_clear(op);
        return RT_NO_ID;
    }
    uint32_t had = op->kind == RT_OP_LABEL ? op->id.qid : RT_NO_ID;
    intern_rest(s, op);
    if (!replayable(s, op, &e) || rt_annot_apply(s->annot, op, &warn, &e) != RT_OK) {
        char why[1400];
        snprintf(why, sizeof why, "%s:%zu (operation %" PRIu64 "): %.900s; fix or delete that "
                 "line, or move the journal aside", rt_journal_path(j), op->line, op->seq, e.msg);
        rt_report_add(s->ws->report, RT_REPORT_WARNING, "%s; not applied", why);
        rt_journal_refuse(j, why);
        had = RT_NO_ID;
    } else if (warn) {
        rt_report_add(s->ws->report, RT_REPORT_WARNING, "%s: operation %" PRIu64 ": %s", rt_journal_path(j), op->seq,
                      warn);
    }
    rt_op_clear(op);
    return had;
}

static void replay_cb(void *ctx, rt_journal *j, rt_op *op) { (void)replay_one(ctx, j, op); }

/* Says how many operations read back name queries or passages this workspace lacks. */
static void say_foreign(const rt_session *s, size_t before_q, size_t before_p)
{
    char shown[80];
    const rt_workspace *ws = s->ws;
    size_t nq = s->foreign[0] - before_q, np = s->foreign[1] - before_p;
    if (nq)
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s: %zu operation%s name%s queries that are not in "
                      "%s (the first, line %zu: query \"%s\"): a journal of another workspace? They are "
                      "kept, and no metric of this workspace counts them", rt_journal_path(s->journal), nq,
                      nq == 1 ? "" : "s", nq == 1 ? "s" : "", ws->leak.queries_path ? ws->leak.queries_path
                                                                : "this workspace's queries, qrels or runs",
                      s->foreign_line[0], rt_id_show(s->foreign_id[0], strlen(s->foreign_id[0]), shown, sizeof shown));
    if (np)
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s: %zu operation%s name%s passages that are not in this "
                      "workspace's collection, qrels or runs (the first, line %zu: passage \"%s\"): a journal of "
                      "another workspace? They are kept, and no metric of this workspace counts them",
                      rt_journal_path(s->journal), np, np == 1 ? "" : "s", np == 1 ? "s" : "", s->foreign_line[1],
                      rt_id_show(s->foreign_id[1], strlen(s->foreign_id[1]), shown, sizeof shown));
}

static rt_status open_session(rt_session **out, rt_workspace *ws, const char *dir, const char *annotator,
                              int readonly, int live, rt_err *err)
{
    *out = NULL;
    rt_session *s = rt_calloc(1, sizeof *s);
    s->ws = ws;
    s->journal_dir = dir ? rt_strdup(dir) : rt_session_default_dir(ws);
    s->annotator = annotator ? rt_strdup(annotator) : rt_session_default_annotator(ws);
    s->annot = rt_annot_new(ws->qids, ws->pids, ws->taxonomy);
    if (!live)
        rt_annot_keep_history(s->annot, 0);   /* another's state: nothing here is undone */
    rt_status st = rt_journal_open_each(&s->journal, s->journal_dir, s->annotator, readonly, replay_cb, s,
                                        ws->report, err);
    if (st != RT_OK) {
        rt_session_close(&s);
        return st;
    }
    rt_op_names names = {ws->qids, ws->pids, ws->taxonomy};
    rt_journal_set_names(s->journal, &names);   /* undo, redo and changes by id are written by name */
    if (!readonly && rt_journal_readonly(s->journal))
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s: read-only: %s",
                      rt_journal_path(s->journal), rt_journal_readonly(s->journal));
    say_foreign(s, 0, 0);
    if (live && !readonly)   /* where the annotations go: the load report says it (README, Annotations) */
        rt_report_add(ws->report, RT_REPORT_INFO, "annotations of %s: %s%s", s->annotator, rt_journal_path(s->journal),
                      access(rt_journal_path(s->journal), F_OK) == 0 ? "" : " (written at the first change)");
    if (live)
        s->live = rt_live_new(ws, s->annot);
    *out = s;
    return RT_OK;
}

rt_status rt_session_open(rt_session **out, rt_workspace *ws, const char *dir,
                          const char *annotator, int readonly, rt_err *err)
{
    return open_session(out, ws, dir, annotator, readonly, 1, err);
}

rt_status rt_session_open_state(rt_session **out, rt_workspace *ws, const char *dir, const char *annotator,
                                rt_err *err)
{
    return open_session(out, ws, dir, annotator, 1, 0, err);
}

rt_session *rt_session_derived(rt_workspace *ws, const char *author, rt_annot *annot, const char *why)
{
    rt_session *s = rt_calloc(1, sizeof *s);
    s->ws = ws;
    s->annotator = rt_strdup(author);
    s->journal_dir = rt_strdup("");
    s->annot = annot;
    s->derived = why;
    s->live = rt_live_new(ws, annot);
    return s;
}

void rt_session_close(rt_session **sp)
{
    if (!sp || !*sp)
        return;
    rt_session *s = *sp;
    rt_live_free(&s->live);
    rt_annot_free(&s->annot);
    rt_journal_close(&s->journal);
    free(s->foreign_id[0]);
    free(s->foreign_id[1]);
    rt_op_clear(&s->last);
    free(s->annotator);
    free(s->journal_dir);
    free(s);
    *sp = NULL;
}

void rt_session_discard(rt_session **sp)
{
    if (sp && *sp)
        rt_journal_discard(&(*sp)->journal);
    rt_session_close(sp);
}

const char *rt_session_readonly(const rt_session *s)
{
    return s->journal ? rt_journal_readonly(s->journal) : s->derived ? s->derived : "no journal";
}

int rt_session_poll(rt_session *s, int budget_ms, rt_load_event *ev)
{
    int got = rt_loader_poll(s->ws, budget_ms, ev);
    rt_live_sync(s->live);   /* the runs in so far (a wait below may have taken them in) */
    return got;
}

int rt_session_wait(rt_session *s, unsigned what, rt_err *err)
{
    int rc = rt_loader_wait(s->ws, what, err);
    rt_live_sync(s->live);
    return rc;
}

/* Deferred runs and a collection still being indexed (rt_ws_spec.defer_runs, defer_collection),
 * waited for and taken in: before a passage only they may know is looked up. Their events stay
 * queued for whoever polls (the workbench catches up then). */
static void settled(rt_session *s)
{
    rt_err e;
    (void)rt_session_wait(s, RT_LOAD_ALL, &e);   /* a failure is an event, and in the report */
}

static int id_of_pid(const rt_session *s, const char *pid)
{
    return rt_strtab_find(s->ws->pids, pid, strlen(pid)) != RT_NO_ID;
}

/* Whether pid is a passage the workspace knows now (ids, or the collection). Only reads: what
 * runs or a collection still being read may add is settle_for's to wait for. */
static int known_pid(const rt_session *s, const char *pid)
{
    if (id_of_pid(s, pid))
        return 1;
    const char *t;
    size_t tl;
    return s->ws->collection && rt_collection_find(s->ws->collection, pid, strlen(pid), &t, &tl);
}

/* Whether qid is a query the workspace knows; runs still being read (rt_ws_spec.defer_runs) are
 * waited for before saying no: a query only they rank is known once they are in. */
static int known_qid(const rt_session *s, const char *qid)
{
    return rt_strtab_find(s->ws->qids, qid, strlen(qid)) != RT_NO_ID;
}

/* Before a change is checked: when op names a query or passage the workspace does not know yet
 * and runs or a collection are still being read, they are waited for and taken in (for a query,
 * the runs only), as a query or passage only they name is known once they are in. The checks
 * themselves (check_valid, rt_session_check) only read: a const check never changes the
 * workspace. */
static void settle_for(rt_session *s, const rt_op *op)
{
    int runs = rt_loader_runs_loading(s->ws, NULL, NULL);
    if (op->by_id || (!runs && !rt_loader_collection_loading(s->ws, NULL, NULL)))
        return;   /* by ids: every name it has is known already */
    /* a passage no id names yet: the runs may name it (the collection alone would not take them in) */
    int q = op->qid && !known_qid(s, op->qid), p = op->pid && !id_of_pid(s, op->pid);
    for (size_t i = 0; op->qids && i < op->nqids && !p; i++) {
        q |= !known_qid(s, op->qids[i]);
        p |= op->pids && !id_of_pid(s, op->pids[i]);
    }
    rt_err e;   /* a failure is in the workspace's report */
    if (p)
        settled(s);
    else if (q && runs)
        (void)rt_session_wait(s, RT_LOAD_RUNS, &e);
}

static rt_status check_ids(const rt_session *s, const rt_op *op, rt_err *err);

/* The check every change made here goes through: settle_for, op resolved to ids (a collection's
 * passage interned), then checked by them. */
static rt_status check_change(rt_session *s, rt_op *op, rt_err *err)
{
    settle_for(s, op);
    resolve(s, op, RESOLVE_CHANGE);
    return check_ids(s, op, err);
}

static int known_leak_type(const char *t)
{
    if (!t[0])
        return 1;
    for (size_t i = 0; rt_leak_types[i]; i++)
        if (strcmp(rt_leak_types[i], t) == 0)
            return 1;
    return 0;
}

/* A relabel to the grade the pair already has (from the base) changes nothing. */
static int same_grade(const rt_session *s, const rt_op *op)
{
    if (op->kind != RT_OP_LABEL || !op->has_grade)
        return 0;
    uint32_t q = op->id.qid, p = op->id.pid;
    int32_t g;
    return q != RT_NO_ID && p != RT_NO_ID && rt_session_grade(s, q, p, &g, NULL) && g == op->grade;
}

/* The first category of op's text form the taxonomy lacks, for a message ("" when none). */
static const char *unknown_cat(const rt_session *s, const rt_op *op)
{
    if (op->cat && rt_taxonomy_find(s->ws->taxonomy, op->cat) == (size_t)-1)
        return op->cat;
    for (size_t i = 0; op->cats && i < op->ncats; i++)
        if (rt_taxonomy_find(s->ws->taxonomy, op->cats[i]) == (size_t)-1)
            return op->cats[i];
    return "";
}

/* Whether the i-th passage of a package op is known: an id, or (a const check, which interns
 * nothing) a passage of the collection its text names. */
static int list_pid_known(const rt_session *s, const rt_op *op, size_t i)
{
    if (op->id.pids && op->id.pids[i] != RT_NO_ID)
        return op->id.pids[i] < rt_strtab_count(s->ws->pids);   /* a caller's id: the table's? */
    return op->pids && known_pid(s, op->pids[i]);
}

/* Whether the i-th query of a set or package op is one of the workspace's ids. */
static int list_qid_known(const rt_session *s, const rt_op *op, size_t i)
{
    return op->id.qids && op->id.qids[i] < rt_strtab_count(s->ws->qids);   /* RT_NO_ID is beyond it */
}

/* The name the i-th entry of an op's list is shown by: its text form, or for an op by ids the
 * id itself ("#17"), as an id outside the tables has no name. buf: at least 32 bytes. */
static const char *list_shown(char *const *names, const uint32_t *ids, size_t i, char *buf, size_t len)
{
    if (names)
        return names[i];
    snprintf(buf, len, "#%" PRIu32, ids ? ids[i] : RT_NO_ID);
    return buf;
}

/* Whether op (resolved: by_id) can be done at all (known query, passage, category, grade in
 * range), leaving aside whether it would change anything. Decided by the ids; the text form
 * only names what is unknown (and a collection's passage a const check did not intern). */
static rt_status check_valid(const rt_session *s, const rt_op *op, rt_err *err)
{
    const char *ro = rt_session_readonly(s);
    if (ro)
        return rt_err_set(err, RT_ELOCKED, "read-only: %s", ro);
    if (op->kind != RT_OP_SET && op->kind != RT_OP_PACKAGE && op->id.qid == RT_NO_ID)
        return rt_err_set(err, RT_EUSAGE, "unknown query \"%s\"", op->qid ? op->qid : "");
    if (op->id.pid == RT_NO_ID && op->pid && !known_pid(s, op->pid))
        return rt_err_set(err, RT_EUSAGE, "unknown passage \"%s\"", op->pid);
    int has_pid = op->id.pid != RT_NO_ID || op->pid;
    const char *why;   /* names people give: rt_name_problem */
    char shown[80], shown2[80];
    switch (op->kind) {
    case RT_OP_LABEL:
        if (!has_pid)
            return rt_err_set(err, RT_EUSAGE, "a label needs a passage");
        if (op->has_grade && (op->grade < 0 || op->grade > (s->ws->graded ? 3 : 1)))
            return rt_err_set(err, RT_EUSAGE, "grade %d: this workspace uses %s", (int)op->grade,
                              s->ws->graded ? "grades 0-3" : "0 (not relevant) and 1 (relevant)");
        break;
    case RT_OP_TAG:
    case RT_OP_UNTAG:
        if (op->id.unknown_cat || op->id.cat >= s->ws->taxonomy->ncats)
            return rt_err_set(err, RT_EUSAGE, "unknown category \"%s\"", op->cat ? op->cat : "");
        break;
    case RT_OP_LEAK:
        if (!op->train || !op->text || !known_leak_type(op->text))
            return rt_err_set(err, RT_EUSAGE, "a leak label needs a training query and one of "
                              "identical, generalization, specialization, reformulation, "
                              "different-topic, not-leak");
        break;
    case RT_OP_ADJUDICATE:
        if (!has_pid)
            return rt_err_set(err, RT_EUSAGE, "an adjudication needs a passage");
        if (op->has_grade && (op->grade < 0 || op->grade > (s->ws->graded ? 3 : 1)))
            return rt_err_set(err, RT_EUSAGE, "grade %d: this workspace uses %s", (int)op->grade,
                              s->ws->graded ? "grades 0-3" : "0 (not relevant) and 1 (relevant)");
        if (op->has_cats && op->id.unknown_cat)
            return rt_err_set(err, RT_EUSAGE, "unknown category \"%s\"", unknown_cat(s, op));
        break;
    case RT_OP_REVIEW:
        if (!op->name || !op->name[0] || !has_pid || !op->text ||
            (op->text[0] && strcmp(op->text, "correct") != 0 && strcmp(op->text, "wrong") != 0))
            return rt_err_set(err, RT_EUSAGE, "a review names a package and a pair, and says correct or wrong");
        break;
    case RT_OP_PACKAGE:
        if (!op->name || !op->name[0] || !op->text || !op->text[0] || op->text[0] == '.' || strchr(op->text, '/'))
            return rt_err_set(err, RT_EUSAGE, "a package needs a name and an annotator");
        if (op->has_list && (why = rt_name_problem(op->name)) != NULL)   /* deleting an old one stays possible */
            return rt_err_set(err, RT_EUSAGE, "package name \"%s\": %s", rt_id_show(op->name, strlen(op->name), shown,
                              sizeof shown), why);
        if (op->has_list && (why = rt_journal_name_problem(op->text)) != NULL)
            return rt_err_set(err, RT_EUSAGE, "package %s: \"%s\" cannot name an annotator: %s",
                              rt_id_show(op->name, strlen(op->name), shown, sizeof shown),
                              rt_id_show(op->text, strlen(op->text), shown2, sizeof shown2), why);
        for (size_t i = 0; i < op->nqids; i++) {
            if (!list_qid_known(s, op, i))
                return rt_err_set(err, RT_EUSAGE, "package %s: unknown query \"%s\"", op->name,
                                  list_shown(op->qids, op->id.qids, i, shown2, sizeof shown2));
            if (!list_pid_known(s, op, i))
                return rt_err_set(err, RT_EUSAGE, "package %s: unknown passage \"%s\"", op->name,
                                  list_shown(op->pids, op->id.pids, i, shown2, sizeof shown2));
        }
        break;
    case RT_OP_SET:
        if (!op->name || !op->name[0])
            return rt_err_set(err, RT_EUSAGE, "a query set needs a name");
        if (op->has_list && (why = rt_name_problem(op->name)) != NULL)
            return rt_err_set(err, RT_EUSAGE, "query set name \"%s\": %s", rt_id_show(op->name, strlen(op->name), shown,
                              sizeof shown), why);
        for (size_t i = 0; i < op->nqids; i++)
            if (!list_qid_known(s, op, i))
                return rt_err_set(err, RT_EUSAGE, "query set %s: unknown query \"%s\"", op->name,
                                  list_shown(op->qids, op->id.qids, i, shown2, sizeof shown2));
        break;
    default:
        break;
    }
    return RT_OK;
}

/* RT_EUSAGE for op, which changes nothing: what is already so, what RT_ERR_NOOP. */
static rt_status noop(const rt_session *s, const rt_op *op, rt_err *err)
{
    char why[700];
    rt_op_names names = {s->ws->qids, s->ws->pids, s->ws->taxonomy};
    rt_err_set(err, RT_EUSAGE, "%s: nothing to change", rt_noop_say(op, &names, why, sizeof why));
    if (err)
        err->what = RT_ERR_NOOP;
    return RT_EUSAGE;
}

/* rt_session_check of an op resolved to ids. */
static rt_status check_ids(const rt_session *s, const rt_op *op, rt_err *err)
{
    rt_status st = check_valid(s, op, err);
    if (st == RT_OK && (rt_annot_is_noop(s->annot, op) || same_grade(s, op)))
        return noop(s, op, err);
    return st;
}

rt_status rt_session_check(const rt_session *s, const rt_op *op, rt_err *err)
{
    if (op->by_id)
        return check_ids(s, op, err);
    rt_op ids;   /* by name: a copy resolved without interning (a const check changes nothing) */
    rt_op_copy(&ids, op);
    resolve(s, &ids, RESOLVE_FIND);
    rt_status st = check_ids(s, &ids, err);
    rt_op_clear(&ids);
    return st;
}

/* Appends op (resolved to ids) durably, then applies it everywhere; qid is op's query id when
 * the caller has it (RT_NO_ID: op's own). */
/* Every change is written to the journal first and applied to the state after. The journal is
 * the record: what the screen shows must be what a reopen replays to, so a change the disk
 * refuses (full, or the lock lost) must not be in the state either; written first, such a change
 * fails before anything moved. Applied first, it would have to be taken back out of the state,
 * and the state has no general inverse for that.
 *
 * The apply cannot fail for a change rt_session_check (or the import's check) passed: both look
 * categories and ids up as the apply does. Should it fail all the same, the line is on disk and
 * the state lacks it; applied_after_journal then makes the session read-only, saying so (no more
 * changes built on a state the journal does not describe), and returns the error, which says
 * that the line is kept and that a reopen replays it. */
static rt_status applied_after_journal(rt_session *s, const rt_op *op, const char **warn, rt_err *err)
{
    rt_err e;
    rt_status st = rt_annot_apply(s->annot, op, warn, &e);
    if (st == RT_OK)
        return RT_OK;
    char why[700];
    snprintf(why, sizeof why, "change #%" PRIu64 " is in the journal but could not be applied (%.500s): reopen "
             "the workspace to replay it", op->seq, e.msg);
    rt_journal_refuse(s->journal, why);
    return rt_err_set(err, st, "%s", why);
}

static rt_status commit(rt_session *s, rt_op *op, uint32_t qid, rt_err *err)
{
    free(op->author);
    op->author = rt_strdup(s->annotator);
    rt_status st = rt_journal_append(s->journal, op, err);
    if (st != RT_OK)
        return st;
    st = applied_after_journal(s, op, NULL, err);
    if (st == RT_OK && op->kind == RT_OP_LABEL)
        rt_live_update(s->live, qid != RT_NO_ID ? qid : op->id.qid);
    return st;
}

rt_status rt_session_do(rt_session *s, rt_op *op, rt_err *err)
{
    size_t c = op->cat ? rt_taxonomy_find(s->ws->taxonomy, op->cat) : (size_t)-1;
    if (c != (size_t)-1 && strcmp(op->cat, s->ws->taxonomy->cats[c].id) != 0) {
        free(op->cat);   /* the journal holds the stable id, whatever name or number was typed */
        op->cat = rt_strdup(s->ws->taxonomy->cats[c].id);
    }
    rt_status st = check_change(s, op, err);
    return st == RT_OK ? commit(s, op, RT_NO_ID, err) : st;
}

static rt_status history(rt_session *s, rt_op *done, int redo, rt_err *err)
{
    memset(done, 0, sizeof *done);
    const char *ro = rt_session_readonly(s);
    if (ro)
        return rt_err_set(err, RT_ELOCKED, "read-only: %s", ro);
    if (!(redo ? rt_annot_redo_op : rt_annot_undo_op)(s->annot, done))
        return rt_err_set(err, RT_EUSAGE, redo ? "nothing to redo" : "nothing to undo");
    return commit(s, done, RT_NO_ID, err);
}

rt_status rt_session_undo(rt_session *s, rt_op *done, rt_err *err) { return history(s, done, 0, err); }
rt_status rt_session_redo(rt_session *s, rt_op *done, rt_err *err) { return history(s, done, 1, err); }

/* ---- changes by id: no string is made; the journal names the ids as it writes the line ------ */

/* Fills ch for op, just committed (qid, pid: its ids, RT_NO_ID to look them up), and keeps op as
 * the session's last change (moved: *op is left empty), which ch->op borrows. */
static void changed(rt_session *s, rt_op *op, uint32_t qid, uint32_t pid, rt_change *ch)
{
    if (qid == RT_NO_ID)
        qid = op->id.qid;
    if (pid == RT_NO_ID)
        pid = op->id.pid;
    rt_op_clear(&s->last);
    s->last = *op;
    memset(op, 0, sizeof *op);
    *ch = (rt_change){.kind = s->last.kind, .qid = qid, .pid = pid, .seq = s->last.seq, .op = &s->last};
}

/* Checks and commits op (owned: cleared here), made from ids; fills ch on success. */
static rt_status change(rt_session *s, rt_op *op, uint32_t qid, uint32_t pid, rt_change *ch, rt_err *err)
{
    rt_status st = check_change(s, op, err);
    if (st == RT_OK)
        st = commit(s, op, qid, err);
    if (st == RT_OK)
        changed(s, op, qid, pid, ch);
    rt_op_clear(op);
    return st;
}

/* An operation of kind on (qid, pid) by ids, without a text form: the journal writes the names. */
static rt_op by_id(rt_op_kind kind, uint32_t qid, uint32_t pid)
{
    return (rt_op){.kind = kind, .by_id = 1, .id = {.qid = qid, .pid = pid}};
}

/* Whether qid (and pid, unless RT_NO_ID) are ids of the workspace: a caller's ids, checked
 * before the state indexes by them; otherwise 0 and RT_EUSAGE in *err. */
static int ids_known(const rt_session *s, uint32_t qid, uint32_t pid, rt_err *err)
{
    if (qid >= rt_strtab_count(s->ws->qids))
        return rt_err_set(err, RT_EUSAGE, "no query of id %" PRIu32, qid), 0;
    if (pid != RT_NO_ID && pid >= rt_strtab_count(s->ws->pids))
        return rt_err_set(err, RT_EUSAGE, "no passage of id %" PRIu32, pid), 0;
    return 1;
}

rt_status rt_session_relabel(rt_session *s, uint32_t qid, uint32_t pid, int has_grade, int32_t grade,
                             rt_change *ch, rt_err *err)
{
    if (!ids_known(s, qid, pid, err))
        return RT_EUSAGE;
    rt_op op = by_id(RT_OP_LABEL, qid, pid);
    op.has_grade = has_grade;
    op.grade = has_grade ? grade : 0;
    return change(s, &op, qid, pid, ch, err);
}

rt_status rt_session_set_tag(rt_session *s, uint32_t qid, uint32_t pid, size_t cat, int on,
                             rt_change *ch, rt_err *err)
{
    if (cat >= s->ws->taxonomy->ncats)
        return rt_err_set(err, RT_EUSAGE, "no category %zu", cat + 1);
    if (!ids_known(s, qid, pid, err))
        return RT_EUSAGE;
    rt_op op = by_id(on ? RT_OP_TAG : RT_OP_UNTAG, qid, pid);
    op.id.cat = cat;
    return change(s, &op, qid, pid, ch, err);
}

rt_status rt_session_set_note(rt_session *s, uint32_t qid, uint32_t pid, const char *text,
                              rt_change *ch, rt_err *err)
{
    if (!ids_known(s, qid, pid, err))
        return RT_EUSAGE;
    rt_op op = by_id(RT_OP_NOTE, qid, pid);
    op.text = rt_strdup(text);
    return change(s, &op, qid, pid, ch, err);
}

rt_status rt_session_type_leak(rt_session *s, uint32_t qid, const char *train, const char *type,
                               rt_change *ch, rt_err *err)
{
    if (!ids_known(s, qid, RT_NO_ID, err))
        return RT_EUSAGE;
    rt_op op = by_id(RT_OP_LEAK, qid, RT_NO_ID);
    op.train = rt_strdup(train);
    op.text = rt_strdup(type);
    return change(s, &op, qid, RT_NO_ID, ch, err);
}

rt_status rt_session_save_set(rt_session *s, const char *name, const uint32_t *qids, size_t n,
                              const char *how, rt_change *ch, rt_err *err)
{
    for (size_t i = 0; i < n; i++)
        if (!ids_known(s, qids[i], RT_NO_ID, err))
            return RT_EUSAGE;
    rt_op op = by_id(RT_OP_SET, RT_NO_ID, RT_NO_ID);
    op.name = rt_strdup(name);
    op.has_list = 1;
    op.nqids = n;
    op.id.qids = rt_calloc(n + 1, sizeof *op.id.qids);
    if (n)
        memcpy(op.id.qids, qids, n * sizeof *qids);
    op.text = how ? rt_strdup(how) : NULL;
    return change(s, &op, RT_NO_ID, RT_NO_ID, ch, err);
}

rt_status rt_session_step(rt_session *s, int redo, rt_change *ch, rt_err *err)
{
    rt_op done;
    rt_status st = history(s, &done, redo, err);
    if (st == RT_OK)
        changed(s, &done, RT_NO_ID, RT_NO_ID, ch);
    rt_op_clear(&done);
    return st;
}

uint32_t rt_session_pid(rt_session *s, const char *pid)
{
    uint32_t id = rt_strtab_find(s->ws->pids, pid, strlen(pid));
    if (id == RT_NO_ID) {
        settled(s);
        id = rt_strtab_find(s->ws->pids, pid, strlen(pid));   /* a run read meanwhile names it */
    }
    const char *t;
    size_t tl;
    if (id == RT_NO_ID && s->ws->collection && rt_collection_find(s->ws->collection, pid, strlen(pid), &t, &tl))
        id = rt_strtab_intern(s->ws->pids, pid, strlen(pid));   /* a passage no run or judgment named yet */
    return id;
}

/* ---- by strings, for scripts and tests ------------------------------------------------------ */

static rt_status do_owned(rt_session *s, rt_op *op, rt_err *err)
{
    rt_status st = rt_session_do(s, op, err);
    rt_op_clear(op);
    return st;
}

rt_status rt_session_label(rt_session *s, const char *qid, const char *pid, int has_grade,
                           int32_t grade, rt_err *err)
{
    rt_op op = {.kind = RT_OP_LABEL, .qid = rt_strdup(qid), .pid = pid ? rt_strdup(pid) : NULL,
                .has_grade = has_grade, .grade = has_grade ? grade : 0};
    return do_owned(s, &op, err);
}

rt_status rt_session_tag(rt_session *s, rt_op_kind kind, const char *qid, const char *pid,
                         const char *cat, rt_err *err)
{
    rt_op op = {.kind = kind, .qid = rt_strdup(qid), .pid = pid ? rt_strdup(pid) : NULL,
                .cat = rt_strdup(cat)};
    return do_owned(s, &op, err);
}

rt_status rt_session_note(rt_session *s, const char *qid, const char *pid, const char *text,
                          rt_err *err)
{
    rt_op op = {.kind = RT_OP_NOTE, .qid = rt_strdup(qid), .pid = pid ? rt_strdup(pid) : NULL,
                .text = rt_strdup(text)};
    return do_owned(s, &op, err);
}

int rt_session_grade(const rt_session *s, uint32_t qid, uint32_t pid, int32_t *grade,
                     const rt_label **relabel)
{
    if (relabel)
        *relabel = rt_annot_label(s->annot, qid, pid);
    return rt_live_grade(s->live, qid, pid, grade);
}

size_t rt_session_first_rel(const rt_session *s, size_t r, uint32_t qid)
{
    return rt_live_first_rel(s->live, r, qid);
}

double rt_session_rr10(const rt_session *s, size_t r, uint32_t qid)
{
    return rt_live_rr(s->live, r, qid, 10);
}

/* The place an imported op came from, "FILE:LINE" out of its via "import FILE:LINE". */
static const char *import_place(const rt_op *op)
{
    return op->via && strncmp(op->via, "import ", 7) == 0 ? op->via + 7 : op->via ? op->via : "import";
}

rt_status rt_session_import(rt_session *s, rt_op *ops, size_t n, int check_only, size_t *done, rt_err *err)
{
    *done = 0;
    size_t keep = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ops[i].qid && ops[i].kind != RT_OP_SET)
            continue;   /* dropped by an earlier check-only pass */
        rt_err e;
        settle_for(s, &ops[i]);
        resolve(s, &ops[i], RESOLVE_CHANGE);
        if (check_valid(s, &ops[i], &e) != RT_OK)
            return rt_err_set(err, e.status, "%s: %s", import_place(&ops[i]), e.msg);
        if (rt_annot_is_noop(s->annot, &ops[i])) {
            rt_op_clear(&ops[i]);   /* already so in this journal: importing again adds nothing */
            continue;
        }
        free(ops[i].author);
        ops[i].author = rt_strdup(s->annotator);
        if (keep != i) {
            ops[keep] = ops[i];
            memset(&ops[i], 0, sizeof ops[i]);
        }
        keep++;
    }
    *done = keep;
    if (check_only)
        return RT_OK;
    rt_status st = rt_journal_append_all(s->journal, ops, keep, err);
    if (st != RT_OK) {
        *done = 0;
        return st;
    }
    rt_status first = RT_OK;   /* the lines are all on disk: each is applied, the first failure said */
    for (size_t i = 0; i < keep; i++) {
        const char *warn = NULL;
        rt_err e;
        rt_status a = applied_after_journal(s, &ops[i], &warn, first == RT_OK ? err : &e);
        if (a == RT_OK && ops[i].kind == RT_OP_LABEL)
            rt_live_update(s->live, ops[i].id.qid);
        if (first == RT_OK)
            first = a;
    }
    return first;
}

rt_status rt_session_refresh(rt_session *s, int *changed, rt_err *err)
{
    *changed = 0;
    if (!s->journal)
        return RT_OK;
    rt_op *ops;
    size_t n;
    int replaced;
    rt_status st = rt_journal_refresh(s->journal, &ops, &n, &replaced, s->ws->report, err);
    if (st != RT_OK)
        return st;
    if (replaced) {   /* read it again from the start, into a fresh state */
        rt_session *fresh;
        if ((st = open_session(&fresh, s->ws, s->journal_dir, s->annotator, 1, s->live != NULL, err)) != RT_OK)
            return st;
        rt_live_free(&s->live);
        rt_annot_free(&s->annot);
        rt_journal_close(&s->journal);
        s->journal = fresh->journal;
        s->annot = fresh->annot;
        s->live = fresh->live;
        fresh->journal = NULL;
        fresh->annot = NULL;
        fresh->live = NULL;
        rt_session_close(&fresh);
        *changed = 1;
        return RT_OK;
    }
    if (!n)
        return RT_OK;
    uint32_t *touched = rt_calloc(n, sizeof *touched);
    size_t nt = 0, fq = s->foreign[0], fp = s->foreign[1];
    for (size_t i = 0; i < n; i++)   /* found, never interned: a query it lacks is none of its */
        if ((touched[nt] = replay_one(s, s->journal, &ops[i])) != RT_NO_ID)
            nt++;
    say_foreign(s, fq, fp);
    for (size_t i = 0; s->live && i < nt; i++)
        rt_live_update(s->live, touched[i]);
    free(touched);
    free(ops);
    *changed = 1;
    return RT_OK;
}

rt_status rt_session_adjudicate(rt_session *s, uint32_t qid, uint32_t pid, int has_grade, int32_t grade,
                                int has_cats, unsigned long long cats, char *const *settles, size_t nsettles,
                                rt_change *ch, rt_err *err)
{
    size_t ncats = s->ws->taxonomy->ncats;
    if (!ids_known(s, qid, pid, err))
        return RT_EUSAGE;
    rt_op op = by_id(RT_OP_ADJUDICATE, qid, pid);
    op.has_grade = has_grade;
    op.grade = has_grade ? grade : 0;
    op.has_cats = has_cats;   /* bits past the taxonomy name nothing: dropped */
    op.id.cats = !has_cats ? 0 : ncats < 64 ? cats & ((1ull << ncats) - 1) : cats;
    op.settles = nsettles ? rt_calloc(nsettles, sizeof *op.settles) : NULL;
    for (size_t i = 0; i < nsettles; i++)
        op.settles[op.nsettles++] = rt_strdup(settles[i]);
    return change(s, &op, qid, pid, ch, err);
}

rt_status rt_session_judge(rt_session *s, uint32_t qid, uint32_t pid, int32_t grade, rt_change *ch, rt_err *err)
{
    if (!ids_known(s, qid, pid, err))
        return RT_EUSAGE;
    rt_op op = by_id(RT_OP_LABEL, qid, pid);
    op.has_grade = 1;
    op.grade = grade;
    rt_status st = check_valid(s, &op, err);
    if (st == RT_OK && rt_annot_is_noop(s->annot, &op))
        st = noop(s, &op, err);
    if (st != RT_OK) {
        rt_op_clear(&op);
        return st;
    }
    if ((st = commit(s, &op, qid, err)) == RT_OK)
        changed(s, &op, qid, pid, ch);
    rt_op_clear(&op);
    return st;
}

rt_status rt_session_add_packages(rt_session *s, rt_op *ops, size_t n, rt_err *err)
{
    for (size_t i = 0; i < n; i++) {
        settle_for(s, &ops[i]);
        resolve(s, &ops[i], RESOLVE_CHANGE);
        rt_status st = check_valid(s, &ops[i], err);
        if (st == RT_OK && rt_annot_package(s->annot, ops[i].name))
            st = rt_err_set(err, RT_EUSAGE, "a package named %s exists already (choose another --prefix)", ops[i].name);
        if (st != RT_OK)
            return st;
        free(ops[i].author);
        ops[i].author = rt_strdup(s->annotator);
    }
    rt_status st = rt_journal_append_all(s->journal, ops, n, err);
    if (st != RT_OK)
        return st;
    rt_status first = RT_OK;   /* the lines are all on disk: each is applied, the first failure said */
    for (size_t i = 0; i < n; i++) {
        rt_err e;
        rt_status a = applied_after_journal(s, &ops[i], NULL, first == RT_OK ? err : &e);
        if (first == RT_OK)
            first = a;
    }
    return first;
}

rt_status rt_session_review(rt_session *s, const char *package, uint32_t qid, uint32_t pid, const char *verdict,
                            rt_change *ch, rt_err *err)
{
    if (!ids_known(s, qid, pid, err))
        return RT_EUSAGE;
    rt_op op = by_id(RT_OP_REVIEW, qid, pid);
    op.name = rt_strdup(package);
    op.text = rt_strdup(verdict);
    return change(s, &op, qid, pid, ch, err);
}
