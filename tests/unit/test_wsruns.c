/* test_wsruns — runs taken in behind the first screen (rt_ws_spec.defer_runs): the open returns
 * once the first run is in, rt_loader_poll takes the others in one at a time, and then
 * everything is as an open that waited would have left it: every value, the query list, the
 * report line by line (in its order), the workspace cache and what a reopen from it evaluates.
 * With the collection deferred too; a run that cannot be read fails at settling with its file and
 * line, is left out (the runs after it still come), and writes no cache; a session's live
 * metrics follow the runs taken in, also when a label of a passage only a later run names makes
 * the session take them in; a run is taken in a step per call (the same ids as at once); a
 * workspace freed while runs are still being read, or one half taken in, leaks nothing. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_session.h"
#include "rt_workspace.h"
#include "tap.h"
#include "ws_fixture.h"

static rt_workspace *open_ws(rt_ws_spec *spec, int defer_runs, int defer_coll, int no_cache, rt_err *err)
{
    spec->defer_runs = defer_runs;
    spec->defer_collection = defer_coll;
    spec->no_cache = no_cache;
    spec->tuning = &tuning;
    rt_workspace *ws = NULL;
    if (rt_workspace_open(&ws, spec, NULL, err) != RT_OK)
        printf("# open: %s\n", err->msg);
    return ws;
}

/* Whether run 0's values in a are those of b's run 0. */
static int same_first(const rt_workspace *a, const rt_workspace *b)
{
    const rt_eval_result *x = a->runs[0].base, *y = b->runs[0].base;
    return x->nq == y->nq && memcmp(x->value, y->value, x->nq * x->nm * sizeof *x->value) == 0 &&
           memcmp(x->mean, y->mean, x->nm * sizeof *x->mean) == 0;
}

/* Whether a and b list the same queries (by their text) in the same order. */
static int same_list(const rt_workspace *a, const rt_workspace *b)
{
    if (a->nq != b->nq)
        return 0;
    for (size_t i = 0; i < a->nq; i++)
        if (strcmp(rt_strtab_str(a->qids, a->qlist[i]), rt_strtab_str(b->qids, b->qlist[i])) != 0)
            return 0;
    return 1;
}

/* Whether the reports of a and b have the same lines, of the same kinds, in the same order. */
static int same_report(const rt_workspace *a, const rt_workspace *b)
{
    size_t n = rt_report_count(a->report);
    int same = n == rt_report_count(b->report);
    for (size_t i = 0; i < n && i < rt_report_count(b->report); i++) {
        rt_report_kind ka, kb;
        const char *la = rt_report_line(a->report, i, &ka), *lb = rt_report_line(b->report, i, &kb);
        if (ka != kb || strcmp(la, lb) != 0) {
            printf("# line %zu: \"%s\" vs \"%s\"\n", i + 1, la, lb);
            return 0;
        }
    }
    if (!same)
        printf("# %zu lines vs %zu\n", n, rt_report_count(b->report));
    return same;
}

/* Whether the live means and per-query values of every run are the same in sessions a and b. */
static int same_live(const rt_session *a, const rt_session *b)
{
    const rt_workspace *wa = a->ws, *wb = b->ws;
    if (wa->nruns != wb->nruns)
        return 0;
    for (size_t r = 0; r < wa->nruns; r++) {
        if (memcmp(rt_live_mean(a->live, r), rt_live_mean(b->live, r), wa->nm * sizeof(double)) != 0)
            return 0;
        for (size_t i = 0; i < wa->nq; i++) {
            const char *q = rt_strtab_str(wa->qids, wa->qlist[i]);
            uint32_t qb = rt_strtab_find(wb->qids, q, strlen(q));
            for (size_t m = 0; m < wa->nm; m++) {
                double va = -1, vb = -1;
                int da = rt_live_value(a->live, r, wa->qlist[i], m, &va);
                int db = qb != RT_NO_ID && rt_live_value(b->live, r, qb, m, &vb);
                if (da != db || (da && va != vb))
                    return 0;
            }
        }
    }
    return 1;
}

int main(void)
{
    fixture_dir("rt_wsruns");
    const char *coll = in_dir("collection.tsv", "p1\tone\np2\ttwo\np3\tthree\np4\tfour\np5\tfive\np6\tsix\n");
    const char *queries = in_dir("queries.tsv", "q1\tfirst\nq2\tsecond\nq3\tthird\n");
    const char *qrels = in_dir("qrels.trec", "q1 0 p1 1\nq1 0 p9 1\nq2 0 p3 1\n");
    const char *ra = in_dir("a.trec", "q1 Q0 p2 1 3 a\nq1 Q0 p1 2 2 a\nq2 Q0 p3 1 5 a\nq3 Q0 p4 1 5 a\n");
    const char *rb = in_dir("b.trec", "q1 Q0 p1 1 3 b\nq2 Q0 p2 1 5 b\nq2 Q0 p3 2 4 b\nq7 Q0 p5 1 1 b\n");
    const char *rcp = in_dir("c.trec", "q1 Q0 p5 1 3 c\nq1 Q0 p1 2 2 c\nq1 Q0 p5 3 1 c\nq2 Q0 p6 1 5 c\n"
                                      "q8 Q0 p1 1 1 c\n");
    const char *runs[3] = {ra, rb, rcp};
    rt_ws_spec spec = {.queries = queries, .collection = coll, .qrels = qrels, .run_paths = runs,
                       .nruns = 3, .measures = "RR@10,R@50,P@1"};
    rt_err err = {0};

    /* the reference: an open that waits for every run and the collection, and reads no cache */
    rt_workspace *ref = open_ws(&spec, 0, 0, 1, &err);
    ok(ref && ref->nruns == 3 && !rt_loader_runs_loading(ref, NULL, NULL), "an open that waits has every run");
    ok(ref && report_has(ref, "run b: 1 queries are not in the queries file"), "and its cross-check lines");
    remove_derived();

    /* deferred: the first run only, until settled */
    tuning.settle_step = 1;   /* a pid a step: every run takes several calls */
    rt_workspace *ws = open_ws(&spec, 1, 0, 1, &err);
    size_t in = 0, of = 0;
    ok(ws && ws->nruns == 1 && rt_loader_runs_loading(ws, NULL, NULL), "a deferred open returns with its first run in");
    ok(ws && rt_loader_runs_loading(ws, &in, &of) && in == 1 && of == 3, "it says 1 of 3 runs are read");
    ok(ws && same_first(ws, ref), "the first run's values are there, as an open that waits has them");
    ok(ws && !report_has(ws, "queries are not in the queries file"), "the cross-check waits for every run");
    ok(ws && ws->nq == 3, "the query list has the first run's queries (%zu)", ws ? ws->nq : 0);
    int one_each = 1, rc = 0, steps = 0, quiet = 1;
    size_t was = ws ? ws->nruns : 0;
    for (int i = 0; ws && i < 4000 && rt_loader_runs_loading(ws, NULL, NULL); i++) {
        int busy = rt_loader_busy(ws);
        rc = step(ws, &err);
        one_each &= rc >= 0 && ws->nruns - was <= 1 && (rc == 1) == (ws->nruns != was);
        steps += rc == 0 && rt_loader_busy(ws);
        quiet &= !busy || rc == 1 || ws->nruns == was;   /* a run half taken in is not yet in */
        was = ws->nruns;
        if (rc == 0 && !rt_loader_busy(ws))
            usleep(2000);
    }
    tuning.settle_step = (rt_tuning)RT_TUNING_DEFAULTS.settle_step;
    ok(one_each, "settling without waiting takes at most one run a call, and says so");
    ok(steps >= 4 && quiet && ws && !rt_loader_busy(ws),
       "a run is taken in a step a call (%d steps that left it half in), counted only when whole", steps);
    ok(ws && ws->nruns == 3 && !rt_loader_runs_loading(ws, NULL, NULL) && !rt_loader_runs_loading(ws, &in, &of), "then every run is in");
    ok(ws && same_values(ws, ref), "every value is the waiting open's");
    ok(ws && same_list(ws, ref), "the query list is the waiting open's, run-only queries last");
    ok(ws && same_report(ws, ref), "the report is the waiting open's, line by line");
    int same_ids = ws && rt_strtab_count(ws->pids) == rt_strtab_count(ref->pids);
    for (uint32_t id = 0; same_ids && id < rt_strtab_count(ws->pids); id++)
        same_ids = strcmp(rt_strtab_str(ws->pids, id), rt_strtab_str(ref->pids, id)) == 0;
    ok(same_ids, "and every pid has the waiting open's id (the steps intern in the file's order)");
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 0, "settling again does nothing");
    rt_workspace_free(&ws);
    remove_derived();

    /* the collection deferred too: everything waited for at once */
    ws = open_ws(&spec, 1, 1, 1, &err);
    ok(ws && rt_loader_runs_loading(ws, NULL, NULL) && rt_loader_collection_loading(ws, NULL, NULL), "runs and collection both deferred");
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 1, "settling with wait takes them in");
    ok(ws && !rt_loader_runs_loading(ws, NULL, NULL) && !rt_loader_collection_loading(ws, NULL, NULL) && ws->collection, "then nothing is pending");
    ok(ws && same_values(ws, ref) && same_list(ws, ref), "every value and the query list are the waiting open's");
    ok(ws && same_report(ws, ref), "and the report, line by line");
    rt_workspace_free(&ws);
    remove_derived();

    /* the collection indexed while a run is still being read (the third, a FIFO the test writes
     * later): its passages are in at once; the judged-pid check and the report's order follow
     * the runs */
    char ctext[4096];
    FILE *cf = fopen(rcp, "r");
    size_t clen = cf ? fread(ctext, 1, sizeof ctext, cf) : 0;
    if (cf)
        fclose(cf);
    unlink(rcp);
    int fifo = mkfifo(rcp, 0600) == 0;
    ws = fifo ? open_ws(&spec, 1, 1, 1, &err) : NULL;
    for (int i = 0; ws && i < 4000 && !ws->collection; i++) {
        if (step(ws, &err) < 0)
            break;
        usleep(2000);
    }
    ok(ws && ws->collection && rt_loader_runs_loading(ws, NULL, NULL) && ws->nruns == 2,
       "the collection comes in while the third run is still being read");
    ok(ws && !report_has(ws, "judged passages are not in the collection"), "the judged passages are checked after the runs");
    pid_t child = fifo ? fork() : -1;
    if (child == 0) {   /* the third run's writer */
        FILE *w = fopen(rcp, "w");
        if (w) {
            fwrite(ctext, 1, clen, w);
            fclose(w);
        }
        _exit(0);
    }
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 1 && !rt_loader_runs_loading(ws, NULL, NULL) && !rt_loader_collection_loading(ws, NULL, NULL), "then the runs come in");
    if (child > 0)
        waitpid(child, NULL, 0);
    ok(ws && same_values(ws, ref) && same_list(ws, ref), "every value and the query list are the waiting open's");
    ok(ws && same_report(ws, ref), "and the report, line by line");
    rt_workspace_free(&ws);
    unlink(rcp);
    in_dir("c.trec", "q1 Q0 p5 1 3 c\nq1 Q0 p1 2 2 c\nq1 Q0 p5 3 1 c\nq2 Q0 p6 1 5 c\nq8 Q0 p1 1 1 c\n");
    remove_derived();

    /* the workspace cache: written once every run is in, and a reopen from it is the same */
    ws = open_ws(&spec, 1, 0, 0, &err);
    ok(ws && rt_loader_runs_loading(ws, NULL, NULL) && caches() == 0, "no cache is written before every run is in");
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 1 && caches() == 1, "it is written once they are");
    rt_workspace_free(&ws);
    rt_workspace *re = open_ws(&spec, 1, 0, 0, &err);
    ok(re && re->cache && !rt_loader_runs_loading(re, NULL, NULL) && re->nruns == 3, "a reopen from the cache has every run at once");
    ok(re && same_values(re, ref) && same_list(re, ref), "with every value and the query list of the waiting open");
    rt_workspace_free(&re);
    remove_derived();
    ws = open_ws(&spec, 1, 1, 0, &err);
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 1 && caches() == 1, "with the collection deferred too, once both are in");
    rt_workspace_free(&ws);
    re = open_ws(&spec, 1, 1, 0, &err);
    ok(re && re->cache && same_values(re, ref) && report_has(re, "1 judged passages are not in the collection"),
       "and a reopen from it has every value and the count it kept");
    rt_workspace_free(&re);
    remove_derived();

    /* live metrics: labels made before the runs are in, and a label of a passage only the third
     * run names, which makes the session take the runs in first */
    char jref[300], jdef[300];
    snprintf(jref, sizeof jref, "%s/jref", dir);
    snprintf(jdef, sizeof jdef, "%s/jdef", dir);
    rt_session *sref = NULL, *sdef = NULL;
    ok(rt_session_open(&sref, ref, jref, "x", 0, &err) == RT_OK, "a session on the waiting open");
    ws = open_ws(&spec, 1, 0, 1, &err);
    ok(ws && rt_session_open(&sdef, ws, jdef, "x", 0, &err) == RT_OK, "and on a deferred one");
    if (sref && sdef) {
        ok(rt_session_label(sref, "q1", "p2", 1, 1, &err) == RT_OK &&
           rt_session_label(sdef, "q1", "p2", 1, 1, &err) == RT_OK, "a label of a passage the first run names");
        ok(rt_loader_runs_loading(ws, NULL, NULL) && memcmp(rt_live_mean(sdef->live, 0), rt_live_mean(sref->live, 0),
                                      ws->nm * sizeof(double)) == 0,
           "while runs are read, the first run's live means are the waiting open's");
        size_t nruns = ws->nruns;   /* a const check only reads: it takes no run in */
        rt_op op = {.kind = RT_OP_LABEL, .qid = "q2", .pid = "p6", .has_grade = 1, .grade = 1};
        rt_session_check(sdef, &op, &err);
        ok(rt_loader_runs_loading(ws, NULL, NULL) && ws->nruns == nruns && rt_loader_queued(ws) == 0,
           "checking a label of a passage only run c names leaves the runs being read");
        ok(rt_session_label(sref, "q2", "p6", 1, 1, &err) == RT_OK &&
           rt_session_label(sdef, "q2", "p6", 1, 1, &err) == RT_OK, "a label of a passage only run c names (%s)",
           err.msg);
        ok(!rt_loader_runs_loading(ws, NULL, NULL) && ws->nruns == 3 &&
           !strcmp(drain(ws), "R1R2DE"), "took every run in first, and queued their events for the workbench");
        ok(same_live(sdef, sref), "every run's live values and means are the waiting open's");
        ok(rt_session_label(sref, "q8", "p1", 1, 0, &err) == RT_OK &&
           rt_session_label(sdef, "q8", "p1", 1, 0, &err) == RT_OK && same_live(sdef, sref),
           "and stay so after a label of a run-only query");
    }
    rt_session_close(&sdef);
    rt_session_close(&sref);
    rt_workspace_free(&ws);
    remove_derived();

    /* a session settling: the live metrics follow each run */
    ws = open_ws(&spec, 1, 0, 1, &err);
    ok(ws && rt_session_open(&sdef, ws, jdef, "x", 1, &err) == RT_OK, "a read-only session over those labels");
    ok(rt_session_open(&sref, ref, jref, "x", 1, &err) == RT_OK, "and one on the waiting open");
    if (sdef && sref) {
        ok(rt_session_wait(sdef, RT_LOAD_ALL, &err) == 1 && !strcmp(drain(ws), "R1R2DE"),
           "waiting on the session takes the runs in, an event each");
        ok(same_live(sdef, sref), "and its live metrics have every run, as the waiting open's");
    }
    rt_session_close(&sdef);
    rt_session_close(&sref);
    rt_workspace_free(&ws);

    /* freed while runs are being read: the workers are stopped, nothing leaks (under ASan) */
    ws = open_ws(&spec, 1, 1, 0, &err);
    ok(ws && rt_loader_runs_loading(ws, NULL, NULL), "opened deferred");
    rt_workspace_free(&ws);
    ok(!ws && caches() == 0, "freed before it was settled, and no cache written");
    remove_derived();

    /* a bad third run: the open succeeds, settling fails with the file and line */
    const char *bad = in_dir("bad.trec", "q1 Q0 p1 1 3 z\nq1 Q0 p2 2 not-a-score z\n");
    const char *bruns[3] = {ra, rb, bad};
    rt_ws_spec bspec = spec;
    bspec.run_paths = bruns;
    rt_err werr = {0};
    rt_workspace *w0 = open_ws(&bspec, 0, 0, 1, &werr);
    ok(!w0 && strstr(werr.msg, "bad.trec:2"), "an open that waits fails on it (%s)", werr.msg);
    ws = open_ws(&bspec, 1, 0, 0, &err);
    ok(ws && rt_loader_runs_loading(ws, NULL, NULL), "a deferred open returns");
    memset(&err, 0, sizeof err);
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == -1, "settling fails");
    ok(strcmp(err.msg, werr.msg) == 0, "with the waiting open's message (%s)", err.msg);
    ok(ws && rt_loader_runs_failed(ws) && ws->nruns == 2 && !rt_loader_runs_loading(ws, NULL, NULL), "the runs before it are in, no other");
    ok(ws && report_has(ws, "bad.trec:2") && report_has(ws, "not shown"), "the report says so");
    ok(caches() == 0, "no cache is written for it");
    rt_workspace_free(&ws);
    /* a bad run between good ones: it is left out, the run after it still comes */
    const char *bmid[3] = {ra, bad, rb};
    bspec.run_paths = bmid;
    ws = open_ws(&bspec, 1, 0, 0, &err);
    memset(&err, 0, sizeof err);
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == -1 && strstr(err.msg, "bad.trec:2"),
       "a bad second run: waiting says so");
    ok(ws && !rt_loader_runs_loading(ws, NULL, NULL), "and still takes the third run in");
    const char *seq = ws ? drain(ws) : "";
    ok(!strcmp(seq, "FrR1DE"), "its events: the second run failed, the third in, the runs done, the end (%s)", seq);
    ok(ws && ws->nruns == 2 && rt_loader_runs_failed(ws) == 1 && !strcmp(rt_run_name(ws->runs[0].run), "a") &&
       !strcmp(rt_run_name(ws->runs[1].run), "b"), "the first and third runs are in, the second left out");
    ok(ws && report_has(ws, "bad.trec:2") && report_has(ws, "that run is not shown") && caches() == 0,
       "the report says so, and no cache is written");
    rt_workspace_free(&ws);
    remove_derived();
    const char *bruns0[3] = {bad, ra, rb};
    bspec.run_paths = bruns0;
    ws = open_ws(&bspec, 1, 0, 0, &err);
    ok(!ws && strstr(err.msg, "bad.trec:2"), "a bad first run fails the deferred open itself");

    /* freed with a run half taken in: nothing leaks (ASan), nothing is left waiting */
    tuning.settle_step = 1;
    ws = open_ws(&spec, 1, 0, 1, &err);
    int half = 0;
    for (int i = 0; ws && i < 4000 && !half && rt_loader_runs_loading(ws, NULL, NULL); i++) {
        if (step(ws, &err) < 0)
            break;
        half = rt_loader_busy(ws);
        if (!half)
            usleep(2000);
    }
    tuning.settle_step = (rt_tuning)RT_TUNING_DEFAULTS.settle_step;
    ok(half && ws->nruns == 1, "a run half taken in is not counted");
    rt_workspace_free(&ws);
    ok(ws == NULL, "and the workspace is freed with it");
    remove_derived();

    rt_workspace_free(&ref);
    remove_derived();
    const char *files[] = {coll, queries, qrels, ra, rb, rcp, bad};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        unlink(files[i]);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", dir);
    return tap_done();
}
