/* test_live — live metrics (rt_live): after every relabel, undo and redo, every value equals
 * rt_eval_file on a qrels file written out from base ⊕ relabels; and a case by hand. */
#include "config.h"

#include "journal_fixture.h"
#include "rt_measjob.h"

/* ---- 4. live metrics --------------------------------------------------------------------- */

/* The test's own model of the relabel overlay, with undo / redo as whole snapshots. */
typedef struct overlay {
    judgment j[16];
    size_t n;
} overlay;

typedef struct model {
    overlay cur, undo[16], redo[16];
    size_t nundo, nredo;
} model;

static void overlay_set(overlay *o, const char *qid, const char *pid, int has_grade, int grade)
{
    size_t i = 0;
    while (i < o->n && !(strcmp(o->j[i].qid, qid) == 0 && strcmp(o->j[i].pid, pid) == 0))
        i++;
    if (!has_grade) {
        if (i < o->n)
            o->j[i] = o->j[--o->n];
        return;
    }
    if (i == o->n)
        o->n++;
    o->j[i] = (judgment){qid, pid, grade};
}

/* Writes base ⊕ overlay as TREC qrels to path. */
static void write_current(const char *path, const judgment *base, size_t nbase, const overlay *o)
{
    judgment all[32];
    size_t n = 0;
    for (size_t i = 0; i < nbase; i++)
        all[n++] = base[i];
    for (size_t k = 0; k < o->n; k++) {
        size_t i = 0;
        while (i < nbase && !(strcmp(base[i].qid, o->j[k].qid) == 0 && strcmp(base[i].pid, o->j[k].pid) == 0))
            i++;
        if (i < nbase)
            all[i].grade = o->j[k].grade;
        else
            all[n++] = o->j[k];
    }
    write_qrels(path, all, n);
}

/* Compares the session's live metrics with rt_eval_file of each run against base ⊕ overlay. */
static void compare_live(const rt_session *s, const judgment *base, size_t nbase, const overlay *o,
                         const char *name)
{
    const rt_workspace *ws = s->ws;
    const char *path = P("current.qrels");
    write_current(path, base, nbase, o);
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_qrels *qrels = NULL;
    rt_err err = {0};
    if (!ok(rt_qrels_load(&qrels, path, RT_QRELS_AUTO, qids, pids, NULL, NULL, &err) == RT_OK,
            "%s: the written qrels load (%s)", name, err.msg))
        goto out;
    rt_eval *ev = rt_eval_new(qrels, qids, pids, ws->ms, ws->nm, ws->level);
    int means = 1, values = 1, unjudged = 1;
    for (size_t r = 0; r < ws->nruns; r++) {
        rt_eval_result *res = NULL;
        rt_run_opts opts = {.order = RT_ORDER_SCORE};
        if (rt_eval_file(ev, P(r ? "runB.trec" : "runA.trec"), &opts, &res, &err) != RT_OK) {
            printf("#   %s\n", err.msg);
            means = values = 0;
            continue;
        }
        const double *mean = rt_live_mean(s->live, r);
        const size_t *nd = rt_live_n_defined(s->live, r);
        size_t nsorted, over_nd[16];
        double over[16];
        const uint32_t *sorted = rt_live_sorted(s->live, &nsorted);
        rt_live_mean_over(s->live, r, sorted, nsorted, 1, over, over_nd);
        for (size_t m = 0; m < ws->nm; m++) {
            if (mean[m] != res->mean[m] || nd[m] != res->n_defined[m]) {
                printf("#   run %zu %s: live %.17g over %zu, eval %.17g over %zu\n", r, ws->ms[m].name, mean[m],
                       nd[m], res->mean[m], res->n_defined[m]);
                means = 0;
            }
            if (over[m] != mean[m] || over_nd[m] != nd[m]) {
                printf("#   run %zu %s: mean over all judged queries %.17g, live mean %.17g\n", r, ws->ms[m].name,
                       over[m], mean[m]);
                means = 0;
            }
        }
        for (uint32_t i = 0; i < rt_qrels_nqueries(qrels); i++) {
            const char *q = rt_strtab_str(qids, rt_qrels_qid(qrels, i));
            uint32_t lq = rt_strtab_find(ws->qids, q, strlen(q));
            for (size_t m = 0; m < ws->nm; m++) {
                double v = -1;
                int def = rt_live_value(s->live, r, lq, m, &v);
                size_t at = (size_t)i * ws->nm + m;
                if (def != res->defined[at] || (def && v != res->value[at])) {
                    printf("#   run %zu %s %s: live %.17g (%d), eval %.17g (%d)\n", r, q, ws->ms[m].name, v, def,
                           res->value[at], res->defined[at]);
                    values = 0;
                }
            }
        }
        /* queries the written qrels do not judge have no live value */
        for (uint32_t qid = 0; qid < rt_strtab_count(ws->qids); qid++) {
            const char *q = rt_strtab_str(ws->qids, qid);
            double v;
            if (rt_strtab_find(qids, q, strlen(q)) == RT_NO_ID && rt_live_value(s->live, r, qid, 0, &v)) {
                printf("#   %s has a live value but is not judged\n", q);
                unjudged = 0;
            }
        }
        rt_eval_result_free(&res);
    }
    ok(means, "%s: the means of both runs equal rt_eval_file on base ⊕ relabels, bit for bit", name);
    ok(values, "%s: so does every per-query value", name);
    ok(unjudged, "%s: queries judged by neither have no value", name);
    is_int(rt_live_nqueries(s->live), rt_qrels_nqueries(qrels), "%s: the number of judged queries", name);
    int grades = 1;
    for (size_t k = 0; k < o->n; k++) {
        int32_t g;
        grades &= rt_live_grade(s->live, QID(s, o->j[k].qid), PID(s, o->j[k].pid), &g) && g == o->j[k].grade;
    }
    ok(grades && rt_annot_nlabels(s->annot) == o->n, "%s: the %zu relabels are the current grades", name, o->n);
    rt_eval_free(&ev);
out:
    rt_qrels_free(&qrels);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
}

/* The live value of measure m for run r on query q, or -1 when it has none. */
static double live_value(const rt_session *s, size_t r, const char *q, size_t m)
{
    double v;
    return rt_live_value(s->live, r, QID(s, q), m, &v) ? v : -1;
}

/* The relabels: 'L' labels (grade for binary, for graded; has_grade 0: back to the base),
 * 'U' undoes, 'R' redoes. */
static const struct step {
    char what;
    const char *qid, *pid;
    int has_grade, gbin, ggraded;
    const char *why;
} steps[] = {
    {'L', "q1", "p09", 1, 1, 3, "an unjudged passage ranked first becomes relevant"},
    {'L', "q1", "p02", 1, 1, 2, "a non-relevant passage becomes relevant"},
    {'L', "q3", "p06", 1, 0, 0, "q3 loses its only relevant passage"},
    {'L', "q4", "p07", 1, 1, 1, "q4, unjudged so far, becomes judged"},
    {'L', "q5", "p01", 1, 1, 2, "q5, ranked by no run, becomes judged"},
    {'U', NULL, NULL, 0, 0, 0, "undo: q5 unjudged again"},
    {'U', NULL, NULL, 0, 0, 0, "undo: q4 unjudged again"},
    {'R', NULL, NULL, 0, 0, 0, "redo: q4 judged again"},
    {'L', "q1", "p02", 0, 0, 0, "q1 p02 back to its base judgment"},
    {'L', "q2", "p04", 1, 0, 1, "q2's first relevant passage relabelled"},
    {'L', "q4", "p07", 1, 0, 0, "q4 judged with nothing relevant"},
};

static void test_live_config(int graded, const char *measures)
{
    char name[128], dir[64];
    snprintf(name, sizeof name, "%s %s", graded ? "graded" : "binary", measures);
    snprintf(dir, sizeof dir, "live-%d-%zu", graded, strlen(measures));
    const judgment *base = graded ? base_graded : base_bin;
    size_t nbase = graded ? sizeof base_graded / sizeof base_graded[0] : sizeof base_bin / sizeof base_bin[0];
    rt_workspace *ws = open_ws(graded, measures);
    rt_session *s;
    rt_err err = {0};
    if (!ok(ws && rt_session_open(&s, ws, P(dir), "live", 0, &err) == RT_OK, "%s: a session opens", name)) {
        rt_workspace_free(&ws);
        return;
    }
    model md;
    memset(&md, 0, sizeof md);
    compare_live(s, base, nbase, &md.cur, name);
    int changed = 0;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        const struct step *st = &steps[k];
        char step[256];
        snprintf(step, sizeof step, "%s, step %zu (%s)", name, k + 1, st->why);
        rt_status rs;
        rt_op done;
        if (st->what == 'L') {
            md.undo[md.nundo++] = md.cur;
            md.nredo = 0;
            overlay_set(&md.cur, st->qid, st->pid, st->has_grade, graded ? st->ggraded : st->gbin);
            rs = rt_session_label(s, st->qid, st->pid, st->has_grade, graded ? st->ggraded : st->gbin, &err);
        } else if (st->what == 'U') {
            md.redo[md.nredo++] = md.cur;
            md.cur = md.undo[--md.nundo];
            rs = rt_session_undo(s, &done, &err);
            rt_op_clear(&done);
        } else {
            md.undo[md.nundo++] = md.cur;
            md.cur = md.redo[--md.nredo];
            rs = rt_session_redo(s, &done, &err);
            rt_op_clear(&done);
        }
        if (!ok(rs == RT_OK, "%s: done (%s)", step, err.msg))
            break;
        compare_live(s, base, nbase, &md.cur, step);
        for (size_t r = 0; r < ws->nruns; r++)
            for (size_t m = 0; m < ws->nm; m++)
                changed += rt_live_mean(s->live, r)[m] != ws->runs[r].base->mean[m];
    }
    ok(changed > 0, "%s: the relabels moved the means away from the base (%d times)", name, changed);

    if (!graded && strcmp(measures, "dureader") != 0) {
        /* by hand, RR@10 (measure 0) of run A: q1 ranks p09 first (relabelled 1); q4 ranks p07
         * second but it is now judged 0; run B does not rank q3 */
        is_dbl(live_value(s, 0, "q1", 0), 1.0, 0, "%s: RR@10 of A on q1 is 1", name);
        is_dbl(live_value(s, 0, "q4", 0), 0.0, 0, "%s: RR@10 of A on q4 is 0", name);
        is_dbl(live_value(s, 1, "q3", 0), 0.0, 0, "%s: RR@10 of B on q3 is 0", name);
        is_dbl(live_value(s, 0, "q5", 0), -1, 0, "%s: q5 (unjudged again) has no value", name);
        size_t n;
        const uint32_t *sorted = rt_live_sorted(s->live, &n);
        ok(n == 4 && sorted[0] == QID(s, "q1") && sorted[3] == QID(s, "q4"), "%s: judged queries q1…q4 in qid order",
           name);
    }

    rt_session_close(&s);
    if (ok(rt_session_open(&s, ws, P(dir), "live", 0, &err) == RT_OK, "%s: reopens", name)) {
        char step[160];
        snprintf(step, sizeof step, "%s, after replay", name);
        compare_live(s, base, nbase, &md.cur, step);
        rt_session_close(&s);
    }
    rt_workspace_free(&ws);
}

static void test_live_by_hand(void)
{
    /* Before any relabel, the live values are the base values: RR@10 of A on q1 is 1/2 (p03 at
     * rank 2), and adding a relevant passage at rank 1 makes it 1. */
    rt_workspace *ws = open_ws(0, "RR@10,R@50,nDCG@10,AP,P@5,MFR,NumRel");
    rt_session *s;
    rt_err err = {0};
    if (!ok(ws && rt_session_open(&s, ws, P("live-hand"), "h", 0, &err) == RT_OK, "by hand: a session opens")) {
        rt_workspace_free(&ws);
        return;
    }
    is_dbl(live_value(s, 0, "q1", 0), 0.5, 0, "by hand: RR@10 of A on q1 is 1/2");
    is_dbl(live_value(s, 0, "q4", 0), -1, 0, "by hand: q4 is not judged: no value");
    is_dbl(rt_live_mean(s->live, 1)[6], 4.0, 0, "by hand: NumRel sums to 4 …");
    is_int(rt_live_n_defined(s->live, 1)[6], 3, "by hand: … over 3 queries");
    ok(rt_session_label(s, "q1", "p09", 1, 1, &err) == RT_OK, "by hand: label q1 p09 1");
    is_dbl(live_value(s, 0, "q1", 0), 1.0, 0, "by hand: with p09 relevant, RR@10 of A on q1 is 1");
    is_dbl(rt_live_mean(s->live, 1)[6], 5.0, 0, "by hand: NumRel is now 5");
    ok(rt_session_label(s, "q4", "p07", 1, 1, &err) == RT_OK, "by hand: label q4 p07 1");
    is_dbl(live_value(s, 0, "q4", 0), 0.5, 0, "by hand: q4 judged: RR@10 of A is 1/2");
    is_int(rt_live_nqueries(s->live), 4, "by hand: 4 judged queries");
    is_dbl(live_value(s, 1, "q4", 5), -1, 0, "by hand: MFR of B on q4 is undefined (p07 not ranked)");
    is_dbl(live_value(s, 0, "q4", 5), 2, 0, "by hand: MFR of A on q4 is 2");
    rt_session_close(&s);
    rt_workspace_free(&ws);
}

/* Measures asked for after the open (rt_measjob), with relabels made before and after: every value
 * of the old and the new ones equals rt_eval_file on base ⊕ relabels. */
static void test_live_added(int graded)
{
    const char *name = graded ? "graded, measures added later" : "binary, measures added later";
    const judgment *base = graded ? base_graded : base_bin;
    size_t nbase = graded ? sizeof base_graded / sizeof base_graded[0] : sizeof base_bin / sizeof base_bin[0];
    rt_workspace *ws = open_ws(graded, "RR@10");
    rt_session *s;
    rt_err err = {0};
    if (!ok(ws && rt_session_open(&s, ws, P(graded ? "live-add-g" : "live-add"), "add", 0, &err) == RT_OK,
            "%s: a session opens", name)) {
        rt_workspace_free(&ws);
        return;
    }
    model md;
    memset(&md, 0, sizeof md);
    for (size_t k = 0; k < 4; k++) {   /* relabels before: the new columns of those queries are current */
        const struct step *st = &steps[k];
        overlay_set(&md.cur, st->qid, st->pid, st->has_grade, graded ? st->ggraded : st->gbin);
        ok(rt_session_label(s, st->qid, st->pid, st->has_grade, graded ? st->ggraded : st->gbin, &err) == RT_OK,
           "%s: relabel %zu before", name, k + 1);
    }
    rt_measure *ms;
    size_t n, missing;
    ok(rt_measjob_parse(ws, "RR@10,R@50,nDCG@10,AP,P@5,MFR,NumRel", &ms, &n, &missing, &err) == RT_OK &&
       n == 7 && missing == 6, "%s: 6 of the 7 measures are new", name);
    rt_measjob *j = NULL;
    ok(rt_measjob_start(&j, ws, ms + 1, n - 1, &err) == RT_OK, "%s: the job starts (%s)", name, err.msg);
    free(ms);
    ok(j && rt_measjob_wait(j, -1), "%s: the job ends", name);
    ok(rt_measjob_finish(&j, ws, &err) == RT_OK && ws->nm == 7 && ws->nm_open == 1 && !j,
       "%s: the measures join the workspace (%s)", name, err.msg);
    rt_live_sync(s->live);
    compare_live(s, base, nbase, &md.cur, name);
    for (size_t k = 4; k < sizeof steps / sizeof steps[0]; k++) {   /* and after, kept current */
        const struct step *st = &steps[k];
        if (st->what != 'L')
            continue;
        overlay_set(&md.cur, st->qid, st->pid, st->has_grade, graded ? st->ggraded : st->gbin);
        ok(rt_session_label(s, st->qid, st->pid, st->has_grade, graded ? st->ggraded : st->gbin, &err) == RT_OK,
           "%s: relabel %zu after", name, k + 1);
    }
    char step[160];
    snprintf(step, sizeof step, "%s, relabels after", name);
    compare_live(s, base, nbase, &md.cur, step);
    ok(rt_measjob_parse(ws, "nDCG@10,bogus", &ms, &n, &missing, &err) == RT_EUSAGE &&
       err.what == RT_ERR_UNKNOWN_MEASURE && strstr(err.msg, "bogus"), "%s: an unknown name is refused", name);
    rt_measjob *c = NULL;
    ok(rt_measjob_start(&c, ws, ws->ms, 0, &err) == RT_EUSAGE && !c, "%s: no measure: nothing starts", name);
    rt_session_close(&s);
    rt_workspace_free(&ws);
}

int main(void)
{
    if (!fixture_begin())
        return 2;
    write_inputs();
    test_live_by_hand();
    test_live_config(0, "dureader");
    test_live_config(1, "dureader");
    test_live_config(0, "RR@10,R@50,nDCG@10,AP,P@5,MFR,NumRel");
    test_live_config(1, "RR@10,R@50,nDCG@10,AP,P@5,MFR,NumRel");
    test_live_added(0);
    test_live_added(1);
    return fixture_end();
}
