/* test_dbqa — NLPCC DBQA files (rt_dbqa): questions become queries, sentences candidates, labels
 * qrels; score files are aligned by line and ranked with ties in file order; every mismatch is an
 * error naming file:line. Values worked out by hand. */
#include "config.h"

#include "rt_dbqa.h"
#include "rt_eval.h"
#include "rt_measure.h"
#include "tap.h"

static rt_dbqa *d;
static rt_strtab *qids, *pids;

static rt_status scores(const char *text, double *rr, double *acc, double *apmin, rt_err *err)
{
    rt_measure *ms = NULL;
    size_t nm = 0;
    rt_measure_list_parse("dbqa", &ms, &nm, err);
    rt_eval *ev = rt_eval_new(rt_dbqa_qrels(d), qids, pids, ms, nm, 1);
    rt_eval_result *r = NULL;
    rt_status st = rt_dbqa_eval_scores(d, ev, tmp_file(text), NULL, &r, err);
    if (st == RT_OK) {
        *rr = r->mean[0];
        *acc = r->mean[1];
        *apmin = r->mean[2];
    }
    rt_eval_result_free(&r);
    rt_eval_free(&ev);
    free(ms);
    return st;
}

static rt_status load_n(const char *text, size_t len, rt_err *err)
{
    rt_dbqa_free(&d);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    qids = rt_strtab_new();
    pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_load_opts lo = {0};
    rt_status st = rt_dbqa_load(&d, tmp_bytes(text, len), qids, pids, &lo, rep, err);
    rt_report_free(&rep);
    return st;
}

static rt_status load(const char *text, rt_err *err) { return load_n(text, strlen(text), err); }

int main(void)
{
    rt_err err;
    ok(load("what is it\tsentence one\t1\nwhat is it\tsentence two\t0\nwho\tthree\t0\nwho\tfour\t1\n", &err) == RT_OK,
       "a DBQA file loads (%s)", err.msg);
    is_int(rt_dbqa_count(d), 4, "four candidate lines");
    is_int(rt_qrels_nqueries(rt_dbqa_qrels(d)), 2, "two questions judged");
    is_str(rt_dbqa_sentence(d, 3), "four", "sentences kept in file order");
    double rr, acc, ap;
    /* q1: "two" (0.9, not relevant) above "one" (0.1): RR 1/2; q2: "three" (0.8) above "four":
     * RR 1/2; AP_min: 1/2 each; ACC@1 0 */
    ok(scores("0.1\n0.9\n0.8\n0.2\n", &rr, &acc, &ap, &err) == RT_OK && rr == 0.5 && acc == 0 && ap == 0.5,
       "scores ranked by value: RR 0.5, ACC@1 0, AP_min 0.5");
    /* all tied: file order; q1's relevant first (RR 1), q2's second (RR 1/2) */
    ok(scores("1\n1\n1\n1\n", &rr, &acc, &ap, &err) == RT_OK && rr == 0.75 && acc == 0.5,
       "ties keep file order: RR 0.75, ACC@1 0.5");
    ok(scores("0.1\n0.9\n", &rr, &acc, &ap, &err) == RT_EINPUT && strstr(err.msg, ":3: the file ends after 2 scores, for the 4 lines"),
       "too few scores: an error at the line after the last, counting both (%s)", err.msg);
    ok(scores("1\n2\nnan\n4\n", &rr, &acc, &ap, &err) == RT_EINPUT && strstr(err.msg, ":3:") &&
       strstr(err.msg, "not finite"), "a NaN score names its line (%s)", err.msg);
    ok(scores("1\n2\nx\n4\n", &rr, &acc, &ap, &err) == RT_EINPUT && strstr(err.msg, ":3:"), "a word for a score names its line");
    ok(load("what\ts\tx\n", &err) == RT_EINPUT && strstr(err.msg, ":1:") && strstr(err.msg, "integer label"),
       "a bad label names its line (%s)", err.msg);
    ok(load("a\tb\n", &err) == RT_EINPUT && strstr(err.msg, "3 tab-separated columns"), "two columns are refused");
    ok(load("a\tb\t1\nc\td\n", &err) == RT_EINPUT && strstr(err.msg, ":2:"), "a short second line names line 2");
    ok(load_n("a\tb\0c\t1\n", 8, &err) == RT_EINPUT && strstr(err.msg, "NUL"), "a NUL byte is refused (%s)", err.msg);
    ok(load("", &err) == RT_EINPUT, "an empty file is refused");
    rt_dbqa_free(&d);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return tap_done();
}
