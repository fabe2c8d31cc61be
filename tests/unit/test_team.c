/* test_team — several annotators on the tiny workspace of journal_fixture.h (rt_team, rt_package):
 * who is on the team, agreement worked out by hand, the team's decisions (agreed, disputed,
 * adjudicated; two adjudicators, withdrawal, undo), the team's qrels as a session, picking up what
 * another process appends or replaces, and packages with their review sample and report. */
#include "config.h"

#include <time.h>

#include "journal_fixture.h"
#include "rt_package.h"
#include "rt_team.h"

static rt_session *open_as(rt_workspace *ws, const char *who)
{
    rt_session *s = NULL;
    rt_err err;
    if (rt_session_open(&s, ws, P("tm"), who, 0, &err) != RT_OK)
        printf("#   %s: %s\n", who, err.msg);
    return s;
}

static void judge(rt_session *s, const char *q, const char *p, int g)
{
    rt_change ch;
    rt_err err;
    if (rt_session_judge(s, QID(s, q), PID(s, p), g, &ch, &err) != RT_OK)
        printf("#   judge %s %s: %s\n", q, p, err.msg);
}

static void tag(rt_session *s, const char *q, const char *p, const char *cat)
{
    rt_err err;
    if (rt_session_tag(s, RT_OP_TAG, q, p, cat, &err) != RT_OK)
        printf("#   tag: %s\n", err.msg);
}

static void pause_ms(long ms) { nanosleep(&(struct timespec){0, ms * 1000000L}, NULL); }

static rt_status adjud(rt_session *s, const char *q, const char *p, int has_grade, int g, int has_cats, const char *cat)
{
    rt_change ch;
    rt_err err;
    unsigned long long cats = has_cats && cat ? 1ull << rt_taxonomy_find(s->ws->taxonomy, cat) : 0;
    char *settles[] = {"alice:2", "bob:2"};
    rt_status st = rt_session_adjudicate(s, QID(s, q), PID(s, p), has_grade, g, has_cats, cats, settles,
                                         has_grade || has_cats ? 2 : 0, &ch, &err);
    if (st != RT_OK)
        printf("#   adjudicate: %s\n", err.msg);
    return st;
}

static int report_has(const rt_report *r, const char *a, const char *b)
{
    for (size_t i = 0; i < rt_report_count(r); i++) {
        const char *line = rt_report_line(r, i, NULL);
        if (strstr(line, a) && strstr(line, b))
            return 1;
    }
    return 0;
}

/* How many lines of r have both a and b. */
static size_t count_lines(const rt_report *r, const char *a, const char *b)
{
    size_t n = 0;
    for (size_t i = 0; i < rt_report_count(r); i++) {
        const char *line = rt_report_line(r, i, NULL);
        n += strstr(line, a) && strstr(line, b);
    }
    return n;
}

/* "Every journal of the folder" leaves out a NAME.jsonl no line of which is an operation, and
 * only such a file: a journal with a bad first line is an error as before; a stray replaced by a
 * journal joins on the next refresh. (Copies of tm's journals, in a folder of their own.) */
static void test_strays(rt_workspace *ws)
{
    size_t la, lb;
    char *a = get_file(P("tm/alice.jsonl"), &la), *b = get_file(P("tm/bob.jsonl"), &lb);
    mkdir(P("st"), 0700);
    put_file(P("st/alice.jsonl"), a ? a : "", a ? la : 0);
    put_text(P("st/notes.jsonl"), "{\"todo\": \"compare with bob\"}\n");
    size_t lx = strlen("# alice: redo q3 tomorrow\n") + la;
    char *x = malloc(lx + 1);
    snprintf(x, lx + 1, "# alice: redo q3 tomorrow\n%s", a ? a : "");
    put_file(P("st/xalice.jsonl"), x, lx);
    rt_team *t = NULL;
    rt_err err;
    ok(rt_team_open(&t, ws, NULL, 0, P("st"), NULL, 0, &err) == RT_EINPUT && strstr(err.msg, "xalice.jsonl:1") &&
           !(err.what & RT_ERR_NOT_JOURNAL),
       "a journal whose first line is bad (its other lines operations) is an error, not left out (%s)", err.msg);
    rt_team_free(&t);
    unlink(P("st/xalice.jsonl"));
    ok(rt_team_open(&t, ws, NULL, 0, P("st"), NULL, 0, &err) == RT_OK && t->n == 1, "without it: alice; notes left out");
    put_file(P("st/notes.tmp"), b ? b : "", b ? lb : 0);   /* the stray replaced by a journal */
    rename(P("st/notes.tmp"), P("st/notes.jsonl"));
    int changed = 0;
    ok(t && rt_team_refresh(t, &changed, &err) == RT_OK && changed && t->n == 2 && rt_team_find(t, "notes") != (size_t)-1,
       "the stray replaced by a journal joins on the next refresh");
    rt_team_free(&t);
    free(a);
    free(b);
    free(x);
}

static void test_team(rt_workspace *ws)
{
    rt_session *alice = open_as(ws, "alice"), *bob = open_as(ws, "bob");
    rt_err err;
    /* alice 1 1 0 and bob 1 0 0 on q1 p01, q1 p02, q2 p05; both tag q1 p02, differently */
    judge(alice, "q1", "p01", 1);   /* equal to the base: recorded all the same */
    judge(alice, "q1", "p02", 1);
    judge(alice, "q2", "p05", 0);
    tag(alice, "q1", "p02", "entity");
    judge(bob, "q1", "p01", 1);
    judge(bob, "q1", "p02", 0);
    judge(bob, "q2", "p05", 0);
    tag(bob, "q1", "p02", "numeral");
    rt_team *t = NULL;
    put_text(P("tm/notes.jsonl"), "{\"todo\": \"ask bob about q2\"}\n");   /* someone's notes, no journal */
    ok(rt_team_open(&t, ws, NULL, 0, P("tm"), NULL, 0, &err) == RT_OK && t->n == 2 &&
           !strcmp(t->m[0].name, "alice") && !strcmp(t->m[1].name, "bob"),
       "the team: every journal of the folder, by name");
    ok(count_lines(ws->report, "tm/notes.jsonl:1: not a retriage journal", "left out of the team") == 1,
       "a NAME.jsonl there that is no journal is left out, with a warning naming it");
    rt_team_agreement *ag = NULL;
    ok(rt_team_agreement_compute(t, &ag, &err) == RT_OK && ag->npairs == 1, "agreement of one pair of annotators");
    /* observed 2/3; chance 2/3·1/3 + 1/3·2/3 = 4/9; kappa (2/3 - 4/9) / (5/9) = 0.4 */
    ok(ag->pairs[0].relevance.items == 3 && fabs(ag->pairs[0].relevance.observed - 2.0 / 3) < 1e-12 &&
           fabs(ag->pairs[0].relevance.value - 0.4) < 1e-12,
       "3 pairs both judged, observed 2/3, kappa 0.4 (got %g)", ag->pairs[0].relevance.value);
    ok(ag->pairs[0].tag_items == 1, "one pair both tagged");
    rt_team_agreement_free(&ag);

    rt_team_decisions *d = rt_team_decide(t, NULL);
    const rt_team_pair *p = rt_team_pair_of(d, QID(alice, "q1"), PID(alice, "p02"));
    ok(d->n == 3 && d->disputed == 1 && d->unresolved == 1 && d->agreed == 2, "three pairs: two agreed, one disputed");
    ok(p && p->differ == (RT_DIFFER_GRADE | RT_DIFFER_CATS) && !p->has_grade && !p->has_cats,
       "q1 p02: grade and categories differ, the team decides nothing yet");
    rt_session *view = rt_team_session(t, d);
    ok(grade_now(view, "q1", "p01", NULL) == 1 && grade_now(view, "q2", "p05", NULL) == 0 &&
           grade_now(view, "q1", "p02", NULL) == 0 && !tag_of(view, "q1", "p02"),
       "the team's qrels: agreed grades; the disputed pair keeps its base grade and gets no category");
    ok(rt_session_readonly(view) != NULL, "the team's session is read-only");
    rt_session_close(&view);
    rt_team_decisions_free(&d);
    int changed = 1;
    ok(rt_team_refresh(t, &changed, &err) == RT_OK && !changed, "nothing appended: nothing changed");

    /* lead adjudicates q1 p02 as bob did; the team picks up lead's new journal */
    rt_session *lead = open_as(ws, "lead");
    ok(adjud(lead, "q1", "p02", 1, 0, 1, "numeral") == RT_OK, "lead adjudicates q1 p02: grade 0, numeral");
    put_text(P("tm/todo.jsonl"), "q1 p02: ask lead\n");
    ok(rt_team_refresh(t, &changed, &err) == RT_OK && changed && t->n == 3, "a new journal joins the team");
    ok(count_lines(ws->report, "tm/todo.jsonl:1: not a retriage journal", "left out") == 1 &&
           count_lines(ws->report, "tm/notes.jsonl", "left out") == 1,
       "a stray that appears is left out on a refresh too; each is said once");
    d = rt_team_decide(t, NULL);
    p = rt_team_pair_of(d, QID(alice, "q1"), PID(alice, "p02"));
    ok(p && p->has_grade && p->grade == 0 && p->has_cats && p->unresolved == 0 && d->unresolved == 0 &&
           !strcmp(t->m[p->adj_member].name, "lead") && p->has_adj && p->adj.nsettles == 2,
       "q1 p02 resolved by lead's adjudication, which names the decisions it settles");
    view = rt_team_session(t, d);
    ok(grade_now(view, "q1", "p02", NULL) == 0 && has_cat(view, "q1", "p02", "numeral") &&
           !has_cat(view, "q1", "p02", "entity"),
       "the team's qrels and categories follow the adjudication");
    rt_session_close(&view);
    rt_team_decisions_free(&d);

    /* a second adjudicator, later: theirs stands, and the report says so */
    pause_ms(5);
    rt_session *chief = open_as(ws, "chief");
    adjud(chief, "q1", "p02", 1, 1, 0, NULL);
    rt_team_refresh(t, &changed, &err);
    rt_report *rep = rt_report_new();
    d = rt_team_decide(t, rep);
    p = rt_team_pair_of(d, QID(alice, "q1"), PID(alice, "p02"));
    ok(p && p->nadj == 2 && p->grade == 1 && !strcmp(t->m[p->adj_member].name, "chief") && d->overridden == 1,
       "two adjudications of one pair: the later (chief's) stands");
    ok(p && p->unresolved == RT_DIFFER_CATS, "chief decided the grade only: the categories are open again");
    ok(report_has(rep, "q1 p02 was adjudicated by 2 annotators", "chief's, the latest"), "the report says so");
    rt_report_free(&rep);
    rt_team_decisions_free(&d);
    /* chief withdraws: lead's stands again; lead undoes: nobody's */
    adjud(chief, "q1", "p02", 0, 0, 0, NULL);
    rt_op done;
    ok(rt_session_undo(lead, &done, &err) == RT_OK && done.kind == RT_OP_ADJUDICATE, "lead undoes the adjudication");
    rt_op_clear(&done);
    rt_team_refresh(t, &changed, &err);
    d = rt_team_decide(t, NULL);
    p = rt_team_pair_of(d, QID(alice, "q1"), PID(alice, "p02"));
    ok(p && p->nadj == 0 && p->unresolved && d->unresolved == 1, "withdrawn and undone: disputed again");
    rt_team_decisions_free(&d);

    /* another process appends (alice's own session here), then replaces the journal (an import) */
    judge(alice, "q3", "p06", 1);
    ok(rt_team_refresh(t, &changed, &err) == RT_OK && changed, "an append is picked up");
    size_t k = rt_team_find(t, "alice");
    ok(k != (size_t)-1 && rt_annot_label(t->m[k].s->annot, QID(alice, "q3"), PID(alice, "p06")),
       "the new judgment is in the team's copy of alice's state");
    rt_op imp = op_label("q3", "p07", 1, 0);
    free(imp.author);
    imp.author = NULL;
    imp.via = S("import test:1");
    size_t kept;
    ok(rt_session_import(alice, &imp, 1, 0, &kept, &err) == RT_OK && kept == 1, "alice imports a judgment");
    rt_op_clear(&imp);
    ok(rt_team_refresh(t, &changed, &err) == RT_OK && changed, "the replaced journal is read again");
    k = rt_team_find(t, "alice");
    ok(rt_annot_label(t->m[k].s->annot, QID(alice, "q3"), PID(alice, "p07")) &&
           rt_annot_label(t->m[k].s->annot, QID(alice, "q1"), PID(alice, "p02")),
       "after reading it again: the imported judgment and the earlier ones");

    /* alice's journal replaced by something that is not a journal: bob's append is still picked up */
    char keep[600];
    snprintf(keep, sizeof keep, "%s", P("tm/alice.keep"));
    rename(P("tm/alice.jsonl"), keep);
    put_file(P("tm/alice.jsonl"), "{\"not\":\"a journal\"}\n", 21);
    judge(bob, "q4", "p08", 1);
    ok(rt_team_refresh(t, &changed, &err) == RT_EINPUT && strstr(err.msg, "alice.jsonl") && changed,
       "a journal that is no longer one is an error, and the others' changes come anyway (%s)", err.msg);
    k = rt_team_find(t, "bob");
    ok(rt_annot_label(t->m[k].s->annot, QID(bob, "q4"), PID(bob, "p08")) &&
           rt_annot_label(t->m[rt_team_find(t, "alice")].s->annot, QID(alice, "q3"), PID(alice, "p07")),
       "bob's new judgment is in; alice keeps her last state");
    rename(keep, P("tm/alice.jsonl"));
    rt_team_free(&t);

    char *names[] = {"alice", "zed"};
    ok(rt_team_open(&t, ws, NULL, 0, P("tm"), names, 2, &err) == RT_EUSAGE &&
           strstr(err.msg, "no journal of annotator \"zed\"") && strstr(err.msg, "alice, bob, chief, lead"),
       "an annotator without a journal is named with those who have one (%s)", err.msg);
    char *two[] = {"bob", "lead"};
    ok(rt_team_open(&t, ws, alice, 1, P("tm"), two, 2, &err) == RT_OK && t->n == 3 && rt_team_find(t, "alice") == 0 &&
           t->m[0].self,
       "with_self: one's own session joins the named ones");
    ok(rt_team_agreement_compute(t, &ag, &err) == RT_OK && ag->npairs == 1, "agreement leaves out lead, who only adjudicated");
    rt_team_agreement_free(&ag);
    rt_team_free(&t);
    rt_session_close(&chief);
    rt_session_close(&lead);
    rt_session_close(&bob);
    rt_session_close(&alice);
}

/* Decisions kept up to date pair by pair (as the workbench does) equal decisions made afresh. */
static int same_decisions(const rt_team *t, const rt_team_decisions *d, const char *what)
{
    rt_team_decisions *f = rt_team_decide(t, NULL);
    int same = d->n == f->n && d->disputed == f->disputed && d->unresolved == f->unresolved &&
               d->agreed == f->agreed && d->adjudicated == f->adjudicated && d->overridden == f->overridden;
    for (size_t i = 0; same && i < d->n; i++) {
        const rt_team_pair *x = &d->p[i], *y = &f->p[i];
        same = x->qid == y->qid && x->pid == y->pid && x->differ == y->differ && x->unresolved == y->unresolved &&
               x->has_grade == y->has_grade && (!x->has_grade || x->grade == y->grade) && x->has_adj == y->has_adj &&
               x->nadj == y->nadj && (!x->has_adj || (x->adj.has_grade == y->adj.has_grade && x->adj.seq == y->adj.seq));
    }
    if (!same)
        printf("#   %s: kept %zu agreed %zu adjudicated %zu/%zu unresolved; afresh %zu, %zu, %zu/%zu\n", what, d->agreed,
               d->adjudicated, d->unresolved, d->disputed, f->agreed, f->adjudicated, f->unresolved, f->disputed);
    rt_team_decisions_free(&f);
    return same;
}

/* The adjudicator's change to (q, p), followed as the workbench follows it. */
static void follow(const rt_team *t, rt_team_decisions **d, rt_session *s, const char *q, const char *p)
{
    if (!rt_team_redecide(t, *d, QID(s, q), PID(s, p))) {
        rt_team_decisions_free(d);
        *d = rt_team_decide(t, NULL);
    }
}

static rt_status adjud_to(rt_session *s, const char *q, const char *p, int has_grade, int g, unsigned long long cats)
{
    rt_change ch;
    rt_err err;
    rt_status st = rt_session_adjudicate(s, QID(s, q), PID(s, p), has_grade, g, cats != 0, cats, NULL, 0, &ch, &err);
    if (st != RT_OK)
        printf("#   adjudicate %s %s: %s\n", q, p, err.msg);
    return st;
}

/* Issue 33: a decision pointed into the adjudicator's array of adjudications, which a withdrawal
 * reorders and a new adjudication grows; the pair decided again then took away what another
 * adjudication had added, and "pairs agreed" wrapped round to 2^64 - 1. */
static void test_redecide(rt_workspace *ws)
{
    rt_session *alice = NULL, *bob = NULL, *carol = NULL;
    rt_err err;
    rt_session_open(&alice, ws, P("rd"), "alice", 0, &err);
    rt_session_open(&bob, ws, P("rd"), "bob", 0, &err);
    rt_session_open(&carol, ws, P("rd"), "carol", 0, &err);
    if (!ok(alice && bob && carol, "three annotators"))
        return;
    judge(alice, "q1", "p01", 1);
    judge(alice, "q1", "p02", 1);
    tag(alice, "q1", "p03", "entity");
    judge(bob, "q1", "p01", 0);
    judge(bob, "q1", "p02", 0);
    tag(bob, "q1", "p03", "numeral");
    rt_team *t = NULL;
    ok(rt_team_open(&t, ws, carol, 1, P("rd"), NULL, 0, &err) == RT_OK && t->n == 3, "the team, carol adjudicating");
    rt_team_decisions *d = rt_team_decide(t, NULL);
    unsigned long long entity = 1ull << rt_taxonomy_find(ws->taxonomy, "entity");
    static const struct { const char *p; int has, g; } steps[] = {
        {"p01", 1, 1}, {"p02", 1, 1}, {"p01", 0, 0}, {"p03", 0, -1}, {"p02", 1, 0}};
    int all = 1;
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        adjud_to(carol, "q1", steps[i].p, steps[i].has, steps[i].g, steps[i].g < 0 ? entity : 0);
        ok(!rt_team_decisions_current(t, d), "step %zu: the decisions know they are behind carol's change", i + 1);
        follow(t, &d, carol, "q1", steps[i].p);
        char what[32];
        snprintf(what, sizeof what, "step %zu", i + 1);
        all &= rt_team_decisions_current(t, d) && same_decisions(t, d, what);
    }
    ok(all, "adjudicate p01, p02, withdraw p01, adopt alice's p03, p02 again: each step equals deciding afresh");
    ok(d->agreed == 0 && d->adjudicated == 1 && d->disputed == 3 && d->unresolved == 1,
       "1 adjudicated, none agreed, 1 of 3 disagreements unresolved (got %zu agreed, %zu adjudicated, %zu of %zu)",
       d->agreed, d->adjudicated, d->unresolved, d->disputed);
    rt_team_decisions_free(&d);
    rt_team_free(&t);
    rt_session_close(&carol);
    rt_session_close(&bob);
    rt_session_close(&alice);
}

/* 24 adjudications on one query: carol's array of them is reallocated on the way, withdrawals
 * reorder it; decisions kept pair by pair stay equal to deciding afresh. (A workspace of its own
 * whose q1 has 24 passages.) */
static void test_many_adjudications(void)
{
    char qrels[4096] = "", run[4096] = "";
    for (int i = 1; i <= 24; i++) {
        snprintf(qrels + strlen(qrels), sizeof qrels - strlen(qrels), "q1 0 w%02d %d\n", i, i % 2);
        snprintf(run + strlen(run), sizeof run - strlen(run), "q1 Q0 w%02d %d %d.0 A\n", i, i, 100 - i);
    }
    mkdir(P("wide"), 0700);
    put_text(P("wide/qrels"), qrels);
    put_text(P("wide/run"), run);
    put_text(P("wide/queries"), "q1\tone query\n");
    char qp[512], rp[512], qq[512];
    snprintf(qp, sizeof qp, "%s", P("wide/qrels"));
    snprintf(rp, sizeof rp, "%s", P("wide/run"));
    snprintf(qq, sizeof qq, "%s", P("wide/queries"));
    const char *runs[] = {rp};
    rt_ws_spec spec = {.name = "wide", .queries = qq, .qrels = qp, .run_paths = runs, .nruns = 1,
                       .measures = "RR@10", .level = 1};
    rt_workspace *ws = NULL;
    rt_err err;
    if (!ok(rt_workspace_open(&ws, &spec, NULL, &err) == RT_OK, "a workspace of 24 passages for one query"))
        return;
    rt_session *alice = NULL, *bob = NULL, *carol = NULL;
    rt_session_open(&alice, ws, P("wide/j"), "alice", 0, &err);
    rt_session_open(&bob, ws, P("wide/j"), "bob", 0, &err);
    rt_session_open(&carol, ws, P("wide/j"), "carol", 0, &err);
    char pid[8];
    for (int i = 1; i <= 24; i++) {
        snprintf(pid, sizeof pid, "w%02d", i);
        judge(alice, "q1", pid, 1);
        judge(bob, "q1", pid, i % 3 ? 0 : 1);
    }
    rt_team *t = NULL;
    ok(rt_team_open(&t, ws, carol, 1, P("wide/j"), NULL, 0, &err) == RT_OK, "the team");
    rt_team_decisions *d = rt_team_decide(t, NULL);
    int all = 1;
    for (int i = 1; i <= 24; i++) {   /* 24 adjudications; every fifth one withdraws an earlier */
        snprintf(pid, sizeof pid, "w%02d", i);
        adjud_to(carol, "q1", pid, 1, i % 2, 0);
        follow(t, &d, carol, "q1", pid);
        all &= same_decisions(t, d, pid);
        if (i % 5 == 0) {
            snprintf(pid, sizeof pid, "w%02d", i - 3);
            adjud_to(carol, "q1", pid, 0, 0, 0);
            follow(t, &d, carol, "q1", pid);
            all &= same_decisions(t, d, pid);
        }
    }
    ok(all, "24 adjudications and 4 withdrawals on one query: each step equals deciding afresh");
    ok(d->adjudicated == 20 && d->agreed == 1 && d->n == 24,
       "20 adjudicated, w12 (withdrawn) agreed, the rest disputed (got %zu adjudicated, %zu agreed of %zu)", d->adjudicated, d->agreed, d->n);
    rt_team_decisions_free(&d);
    rt_team_free(&t);
    rt_session_close(&carol);
    rt_session_close(&bob);
    rt_session_close(&alice);
    rt_workspace_free(&ws);
}

/* Marks the n sample pairs idx of package p correct, as reviewer rev. */
static void review_all(rt_session *rev, const rt_package *p, const size_t *idx, int n)
{
    rt_change ch;
    rt_err err;
    for (int i = 0; i < n; i++)
        rt_session_review(rev, p->name, p->qids[idx[i]], p->pids[idx[i]], "correct", &ch, &err);
}

/* 2 ms on (the next operation's time differs), the team refreshed, and t-003's state in a new
 * report *r (one reviewer enough). */
static const rt_package_state *t003_after(rt_team *t, rt_package_report **r)
{
    nanosleep(&(struct timespec){0, 2000000}, NULL);
    int changed;
    rt_err err;
    rt_team_refresh(t, &changed, &err);
    *r = rt_package_report_make(t, 0.93, 1);
    return rt_package_report_find(*r, "t-003");
}

static void test_packages(rt_workspace *ws)
{
    char *to[] = {"alice", "bob"};
    rt_package_plan plan = {.depth = 2, .size = 3, .sample = 2, .seed = 7, .annotators = to, .nannotators = 2,
                            .prefix = "t"};
    rt_op *ops = NULL;
    size_t n = 0;
    rt_err err;
    /* depth 2: q1 {p01 p09 p02 p03}, q2 {p05 p06 p08 p09}, q3 {p07 p10}, q4 {p08 p07 p02 p03}; size 3
     * keeps each query whole, so each query is a package */
    ok(rt_package_make(ws, &plan, &ops, &n, &err) == RT_OK && n == 4, "four packages (%zu)", n);
    ok(n == 4 && !strcmp(ops[0].name, "t-001") && !strcmp(ops[0].text, "alice") && !strcmp(ops[1].text, "bob") &&
           !strcmp(ops[2].text, "alice") && ops[0].nqids == 4 && ops[2].nqids == 2 && ops[0].seed == 7 &&
           ops[1].seed == 8 && ops[0].sample == 2,
       "named in order, assigned in turn, a query's pairs together, seeds counting up");
    ok(n == 4 && ops[0].by_id && ops[0].id.qids[0] == rt_strtab_find(ws->qids, "q1", 2) &&
           ops[0].id.pids[0] == rt_strtab_find(ws->pids, "p01", 3) && ops[0].id.pids[1] == rt_strtab_find(ws->pids, "p09", 3),
       "pairs in fusion order (equal fusion scores by pid)");
    rt_session *lead = open_as(ws, "pklead");
    ok(rt_session_add_packages(lead, ops, n, &err) == RT_OK, "saved in the lead's journal");
    for (size_t i = 0; i < n; i++)
        rt_op_clear(&ops[i]);
    free(ops);
    ok(rt_package_make(ws, &plan, &ops, &n, &err) == RT_OK && rt_session_add_packages(lead, ops, n, &err) == RT_EUSAGE &&
           strstr(err.msg, "exists already"),
       "the same names again are refused");
    for (size_t i = 0; i < n; i++)
        rt_op_clear(&ops[i]);
    free(ops);
    plan.unjudged = 1;
    plan.size = 100;
    /* q1: p09; q2: p06 p08 p09; q3: p10; q4 (judged by nobody): all four */
    ok(rt_package_make(ws, &plan, &ops, &n, &err) == RT_OK && n == 1 && ops[0].nqids == 9,
       "unjudged only: the 9 pooled pairs the base does not judge, one package");
    for (size_t i = 0; i < n; i++)
        rt_op_clear(&ops[i]);
    free(ops);
    char *none[] = {NULL};
    rt_package_plan empty = {.depth = 2, .annotators = none, .nannotators = 0};
    ok(rt_package_make(ws, &empty, &ops, &n, &err) == RT_EUSAGE, "no annotators: refused");

    const rt_package *pk = rt_annot_package(lead->annot, "t-001");
    size_t a[8], b[8];
    ok(pk && rt_package_sample(pk, a) == 2 && rt_package_sample(pk, b) == 2 && a[0] == b[0] && a[1] == b[1] &&
           a[0] != a[1] && a[0] < 4 && a[1] < 4,
       "the review sample: 2 distinct pairs, the same every time");

    /* alice judges t-001; rev1 and rev2 review its sample */
    rt_session *alice = open_as(ws, "alice"), *r1 = open_as(ws, "rev1"), *r2 = open_as(ws, "rev2");
    rt_change ch;
    for (size_t i = 0; i < pk->n; i++)
        rt_session_judge(alice, pk->qids[i], pk->pids[i], 1, &ch, &err);
    rt_team *t;
    rt_team_open(&t, ws, NULL, 0, P("tm"), NULL, 0, &err);
    rt_package_report *r = rt_package_report_make(t, 0.93, 2);
    const rt_package_state *s = rt_package_report_find(r, "t-001");
    ok(s && s->judged == 4 && !strcmp(s->status, "in review") && s->nrev == 0, "t-001 judged, not reviewed: in review");
    ok(rt_package_report_find(r, "t-002") && !strcmp(rt_package_report_find(r, "t-002")->status, "judging"),
       "t-002 (bob's): judging");
    rt_package_report_free(&r);
    rt_session_review(r1, "t-001", pk->qids[a[0]], pk->pids[a[0]], "correct", &ch, &err);
    rt_session_review(r1, "t-001", pk->qids[a[1]], pk->pids[a[1]], "correct", &ch, &err);
    rt_session_review(r2, "t-001", pk->qids[a[0]], pk->pids[a[0]], "correct", &ch, &err);
    rt_session_review(r2, "t-001", pk->qids[a[1]], pk->pids[a[1]], "wrong", &ch, &err);
    int changed;
    rt_team_refresh(t, &changed, &err);
    r = rt_package_report_make(t, 0.93, 2);
    s = rt_package_report_find(r, "t-001");
    /* rev1 2/2, rev2 1/2: mean 0.75 < 0.93 */
    ok(s && s->complete == 2 && fabs(s->accuracy - 0.75) < 1e-12 && !strcmp(s->status, "revise"),
       "two complete reviews, mean accuracy 0.75: revise");
    rt_package_report_free(&r);
    rt_session_review(r2, "t-001", pk->qids[a[1]], pk->pids[a[1]], "correct", &ch, &err);
    rt_team_refresh(t, &changed, &err);
    r = rt_package_report_make(t, 0.93, 2);
    s = rt_package_report_find(r, "t-001");
    ok(s && s->accuracy == 1.0 && !strcmp(s->status, "pass"), "rev2 changes the mark: 1.0, pass");
    rt_table *tab = rt_package_report_table(t, r);
    FILE *f = tmpfile();
    rt_table_write(tab, RT_TABLE_TSV, f, &err);
    rewind(f);
    char line[1024], all[8192] = "";
    while (fgets(line, sizeof line, f))
        strncat(all, line, sizeof all - strlen(all) - 1);
    fclose(f);
    ok(strstr(all, "t-001\talice\t4\t4\t2\t2\trev1 1.0000 (2/2); rev2 1.0000 (2/2)\t1\tpass\n") != NULL,
       "the report's row for t-001");
    ok(strstr(all, "\nt-002\tbob (no journal yet)\t0\t4\t") != NULL, "a package of an annotator without a journal says so");
    ok(strstr(all, "\ntotal\t\t4\t14\t") != NULL, "the totals row");
    rt_table_free(&tab);
    rt_package_report_free(&r);

    /* t-003 (alice's, q3: both pairs are its sample): a review holds only for a decision alice
     * had made when it was given; 2 ms between steps, so that their times differ */
    const rt_package *p3 = rt_annot_package(lead->annot, "t-003");
    size_t c[8];
    int ns = p3 ? (int)rt_package_sample(p3, c) : 0;
    review_all(r1, p3, c, ns);
    s = t003_after(t, &r);
    ok(ns == 2 && s && s->nrev == 0 && !strcmp(s->status, "judging"),
       "marks on pairs alice has not judged count for nothing: judging, no reviewer");
    rt_package_report_free(&r);
    for (size_t i = 0; i < p3->n; i++)
        rt_session_judge(alice, p3->qids[i], p3->pids[i], 1, &ch, &err);
    s = t003_after(t, &r);
    ok(s && s->nrev == 0 && !strcmp(s->status, "in review"), "once she judges, the earlier marks still checked nothing");
    rt_package_report_free(&r);
    review_all(r1, p3, c, ns);
    s = t003_after(t, &r);
    ok(s && s->complete == 1 && !strcmp(s->status, "pass"), "reviewed after her decisions: pass");
    rt_package_report_free(&r);
    rt_session_judge(alice, p3->qids[c[0]], p3->pids[c[0]], 0, &ch, &err);
    s = t003_after(t, &r);
    ok(s && s->complete == 0 && s->nrev == 1 && s->rev[0].reviewed == 1 && !strcmp(s->status, "in review"),
       "she changes a reviewed decision: that mark no longer holds, the package is in review again");
    rt_package_report_free(&r);
    rt_team_free(&t);
    rt_session_close(&r2);
    rt_session_close(&r1);
    rt_session_close(&alice);
    rt_session_close(&lead);
}

/* A graded workspace: the weighted kappas are those of the grades themselves (rt_kappa_cohen is
 * checked against scikit-learn in test_agree), relevance is grade >= level. */
static void test_graded(void)
{
    rt_workspace *ws = open_ws(1, "RR@10");
    rt_session *a = NULL, *b = NULL;
    rt_err err;
    rt_session_open(&a, ws, P("tg"), "ann1", 0, &err);
    rt_session_open(&b, ws, P("tg"), "ann2", 0, &err);
    static const char *const pairs[][2] = {{"q1", "p01"}, {"q1", "p02"}, {"q1", "p03"}, {"q2", "p04"}, {"q2", "p05"}, {"q3", "p06"}};
    static const int ga[] = {3, 0, 1, 2, 0, 1}, gb[] = {2, 0, 2, 3, 1, 1};
    for (size_t i = 0; i < 6; i++) {
        judge(a, pairs[i][0], pairs[i][1], ga[i]);
        judge(b, pairs[i][0], pairs[i][1], gb[i]);
    }
    rt_team *t = NULL;
    rt_team_agreement *ag = NULL;
    ok(rt_team_open(&t, ws, NULL, 0, P("tg"), NULL, 0, &err) == RT_OK && rt_team_agreement_compute(t, &ag, &err) == RT_OK,
       "a graded team");
    rt_agreement lin = rt_kappa_cohen(ga, gb, 6, 4, RT_KAPPA_LINEAR), quad = rt_kappa_cohen(ga, gb, 6, 4, RT_KAPPA_QUADRATIC);
    int ra[6], rb[6];
    for (size_t i = 0; i < 6; i++)
        ra[i] = ga[i] >= 1, rb[i] = gb[i] >= 1;
    rt_agreement rel = rt_kappa_cohen(ra, rb, 6, 2, RT_KAPPA_UNWEIGHTED);
    ok(ag && ag->pairs[0].linear.defined && ag->pairs[0].linear.value == lin.value &&
           ag->pairs[0].quadratic.value == quad.value && ag->pairs[0].relevance.value == rel.value,
       "linear %.4f and quadratic %.4f kappas of the grades, relevance kappa %.4f at level 1", lin.value, quad.value,
       rel.value);
    rt_team_agreement_free(&ag);
    rt_team_free(&t);
    rt_session_close(&b);
    rt_session_close(&a);
    rt_workspace_free(&ws);
}

int main(void)
{
    if (!fixture_begin())
        return 2;
    write_inputs();
    rt_workspace *ws = open_ws(0, "RR@10");
    if (!ok(ws != NULL, "the tiny workspace"))
        return fixture_end();
    test_team(ws);
    test_strays(ws);
    test_redecide(ws);
    test_many_adjudications();
    /* packages in a folder of their own */
    char dir[600];
    snprintf(dir, sizeof dir, "%s", P("tm"));
    rt_workspace_free(&ws);
    ws = open_ws(0, "RR@10");
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    test_packages(ws);
    rt_workspace_free(&ws);
    test_graded();
    return fixture_end();
}
