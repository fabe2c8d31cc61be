/* test_measure — measure names and the per-query values of every measure on rankings whose
 * values are worked out by hand in the comments (DESIGN.md §5), then the evaluator's handling of
 * levels, nDCG's ideal, query sets and MFR's definedness on small files. */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "rt_eval.h"
#include "rt_measure.h"
#include "tap.h"

#define U RT_UNJUDGED
#define EPS 1e-15

static rt_measure M(const char *name)
{
    rt_measure m;
    rt_err err;
    memset(&m, 0, sizeof m);
    if (rt_measure_parse(name, &m, &err) != RT_OK)
        printf("# cannot parse %s: %s\n", name, err.msg);
    return m;
}

static double val(const char *name, const int32_t *g, size_t n, const rt_qinfo *qi, int32_t level)
{
    rt_measure m = M(name);
    int def;
    return rt_measure_compute(&m, g, n, qi, level, &def);
}

static int defined(const char *name, const int32_t *g, size_t n, const rt_qinfo *qi)
{
    rt_measure m = M(name);
    int def = -1;
    rt_measure_compute(&m, g, n, qi, 1, &def);
    return def;
}

static void parses_as(const char *name, rt_measure_kind kind, uint32_t cutoff, const char *canon)
{
    rt_measure m;
    rt_err err;
    int okay = rt_measure_parse(name, &m, &err) == RT_OK;
    ok(okay && m.kind == kind && m.cutoff == cutoff && strcmp(m.name, canon) == 0,
       "\"%s\" parses as %s", name, canon);
}

static void rejects(const char *name)
{
    rt_measure m;
    rt_err err;
    rt_status st = rt_measure_parse(name, &m, &err);
    ok(st == RT_EUSAGE && strstr(err.msg, "unknown measure"), "\"%s\" is rejected", name);
}

static void test_names(void)
{
    parses_as("RR@10", RT_M_RR, 10, "RR@10");
    parses_as("rr@10", RT_M_RR, 10, "RR@10");
    parses_as("MRR@10", RT_M_RR, 10, "RR@10");
    parses_as("RR", RT_M_RR, 0, "RR");
    parses_as("MRR", RT_M_RR, 0, "RR");
    parses_as("recip_rank", RT_M_RR, 0, "RR");
    parses_as("P@5", RT_M_P, 5, "P@5");
    parses_as("P_10", RT_M_P, 10, "P@10");
    parses_as("R@50", RT_M_R, 50, "R@50");
    parses_as("R", RT_M_R, 0, "R");
    parses_as("recall_50", RT_M_R, 50, "R@50");
    parses_as("Success@1", RT_M_SUCCESS, 1, "Success@1");
    parses_as("success_50", RT_M_SUCCESS, 50, "Success@50");
    parses_as("SUCCESS@5", RT_M_SUCCESS, 5, "Success@5");
    parses_as("ACC@1", RT_M_SUCCESS, 1, "Success@1");
    parses_as("AP", RT_M_AP, 0, "AP");
    parses_as("map", RT_M_AP, 0, "AP");
    parses_as("MAP", RT_M_AP, 0, "AP");
    parses_as("AP@100", RT_M_AP, 100, "AP@100");
    parses_as("map_cut_10", RT_M_AP, 10, "AP@10");
    parses_as("AP_min", RT_M_AP_MIN, 0, "AP_min");
    parses_as("MAP_min", RT_M_AP_MIN, 0, "AP_min");
    parses_as("nDCG@10", RT_M_NDCG, 10, "nDCG@10");
    parses_as("ndcg@10", RT_M_NDCG, 10, "nDCG@10");
    parses_as("nDCG", RT_M_NDCG, 0, "nDCG");
    parses_as("ndcg", RT_M_NDCG, 0, "nDCG");
    parses_as("ndcg_cut_10", RT_M_NDCG, 10, "nDCG@10");
    parses_as("Rprec", RT_M_RPREC, 0, "Rprec");
    parses_as("MFR", RT_M_MFR, 0, "MFR");
    parses_as("MFR@10", RT_M_MFR, 10, "MFR@10");
    parses_as("NumRet", RT_M_NUM_RET, 0, "NumRet");
    parses_as("num_ret", RT_M_NUM_RET, 0, "NumRet");
    parses_as("NumRel", RT_M_NUM_REL, 0, "NumRel");
    parses_as("num_rel", RT_M_NUM_REL, 0, "NumRel");
    parses_as("NumRelRet", RT_M_NUM_REL_RET, 0, "NumRelRet");
    parses_as("num_rel_ret", RT_M_NUM_REL_RET, 0, "NumRelRet");

    rejects("P");           /* P and Success need a cutoff */
    rejects("Success");
    rejects("ndcg_cut");
    rejects("RR@0");        /* cutoffs are positive integers */
    rejects("P@-1");
    rejects("P@5x");
    rejects("RR@");
    rejects("P@1.5");
    rejects("RR@100000001");
    rejects("recip_rank@10"); /* trec_eval names take no '@' */
    rejects("P_");
    rejects("Rprec@10");
    rejects("NumRet5");
    rejects("bpref");
    rejects("");
}

static void test_lists(void)
{
    rt_measure *ms = NULL;
    size_t n = 0;
    rt_err err;
    ok(rt_measure_list_parse(" RR@10 , P_5,,map ", &ms, &n, &err) == RT_OK && n == 3 &&
       strcmp(ms[0].name, "RR@10") == 0 && strcmp(ms[1].name, "P@5") == 0 &&
       strcmp(ms[2].name, "AP") == 0, "list with blanks and an empty item");
    ok(rt_measure_list_parse("MRR@10,recip_rank,RR", &ms, &n, &err) == RT_OK && n == 4 &&
       strcmp(ms[3].name, "RR") == 0, "aliases of a measure already listed are not added twice");
    free(ms);
    ms = NULL;
    n = 0;
    ok(rt_measure_list_parse("dureader", &ms, &n, &err) == RT_OK && n == 3 &&
       strcmp(ms[0].name, "RR@10") == 0 && strcmp(ms[1].name, "Success@1") == 0 &&
       strcmp(ms[2].name, "Success@50") == 0, "preset dureader = RR@10, Success@1, Success@50");
    free(ms);
    ms = NULL;
    n = 0;
    ok(rt_measure_list_parse("DBQA,trec", &ms, &n, &err) == RT_OK && n == 7 &&
       strcmp(ms[2].name, "AP_min") == 0 && strcmp(ms[3].name, "AP") == 0 &&
       strcmp(ms[6].name, "R@1000") == 0, "presets dbqa + trec, RR once");
    free(ms);
    ms = NULL;
    n = 0;
    rt_status st = rt_measure_list_parse("RR,nope", &ms, &n, &err);
    ok(st == RT_EUSAGE && strstr(err.msg, "\"nope\""), "a bad name in a list fails naming it");
    free(ms);
    ms = NULL;
    n = 0;
    st = rt_measure_list_parse(" , ", &ms, &n, &err);
    ok(st == RT_EUSAGE && strstr(err.msg, "no measure"), "an empty list fails");
    free(ms);
    ok(rt_measure_preset("nope") == NULL, "unknown preset");
    ok(rt_measure_preset_names[0] && rt_measure_preset(rt_measure_preset_names[0]), "preset names resolve");

    rt_measure d[3] = {M("RR@10"), M("Success@50"), M("NumRel")};
    is_int(rt_measure_depth(d, 3), 50, "depth: the deepest cutoff");
    d[2] = M("AP");
    is_int(rt_measure_depth(d, 3), 0, "depth: AP needs the whole ranking");
    d[2] = M("AP_min");
    is_int(rt_measure_depth(d, 3), 0, "depth: AP_min needs the ranking's length");
    d[2] = M("NumRet");
    is_int(rt_measure_depth(d, 3), 0, "depth: NumRet needs the ranking's length");
    d[0] = M("NumRel");
    is_int(rt_measure_depth(d, 1), 1, "depth: NumRel alone reads almost nothing");
    rt_measure s = M("NumRelRet"), p = M("MFR"), a = M("AP");
    ok(rt_measure_is_sum(&s) && !rt_measure_is_sum(&a), "NumRelRet is summed, AP averaged");
    ok(rt_measure_is_partial(&p) && !rt_measure_is_partial(&a), "MFR is partial, AP is not");
}

static void test_binary(void)
{
    /* Ranks 1..5: non-relevant, unjudged, relevant, non-relevant, relevant; 3 relevant judged
     * (one never retrieved). */
    const int32_t g[] = {0, U, 1, 0, 1};
    const int32_t ideal[] = {1, 1, 1};
    rt_qinfo qi = {3, ideal, 3};
    is_dbl(val("RR", g, 5, &qi, 1), 1.0 / 3, EPS, "RR = 1/3");
    is_dbl(val("RR@2", g, 5, &qi, 1), 0, EPS, "RR@2 = 0 (first relevant at rank 3)");
    is_dbl(val("RR@3", g, 5, &qi, 1), 1.0 / 3, EPS, "RR@3 = 1/3");
    is_dbl(val("P@5", g, 5, &qi, 1), 0.4, EPS, "P@5 = 2/5");
    is_dbl(val("P@10", g, 5, &qi, 1), 0.2, EPS, "P@10 = 2/10: missing ranks count as non-relevant");
    is_dbl(val("P@2", g, 5, &qi, 1), 0, EPS, "P@2 = 0: unjudged is not relevant");
    is_dbl(val("R@3", g, 5, &qi, 1), 1.0 / 3, EPS, "R@3 = 1/3");
    is_dbl(val("R@5", g, 5, &qi, 1), 2.0 / 3, EPS, "R@5 = 2/3");
    is_dbl(val("R", g, 5, &qi, 1), 2.0 / 3, EPS, "R = 2/3");
    is_dbl(val("Success@1", g, 5, &qi, 1), 0, EPS, "Success@1 = 0");
    is_dbl(val("Success@3", g, 5, &qi, 1), 1, EPS, "Success@3 = 1");
    is_dbl(val("AP", g, 5, &qi, 1), (1.0 / 3 + 2.0 / 5) / 3, EPS, "AP = (1/3 + 2/5)/3");
    is_dbl(val("AP@3", g, 5, &qi, 1), (1.0 / 3) / 3, EPS, "AP@3 = (1/3)/3");
    is_dbl(val("AP_min", g, 5, &qi, 1), (1.0 / 3 + 2.0 / 5) / 3, EPS, "AP_min = AP when 3 <= 5 retrieved");
    is_dbl(val("Rprec", g, 5, &qi, 1), 1.0 / 3, EPS, "Rprec: 1 relevant in the top 3");
    is_dbl(val("MFR", g, 5, &qi, 1), 3, EPS, "MFR = 3");
    is_int(defined("MFR", g, 5, &qi), 1, "MFR defined with a relevant passage");
    is_int(defined("MFR@2", g, 5, &qi), 0, "MFR@2 undefined: no relevant passage in the top 2");
    is_dbl(val("NumRet", g, 5, &qi, 1), 5, EPS, "NumRet = 5");
    is_dbl(val("NumRel", g, 5, &qi, 1), 3, EPS, "NumRel = 3");
    is_dbl(val("NumRelRet", g, 5, &qi, 1), 2, EPS, "NumRelRet = 2");
    is_dbl(val("nDCG@5", g, 5, &qi, 1), (1 / log2(4) + 1 / log2(6)) / (1 + 1 / log2(3) + 1 / log2(4)),
           EPS, "nDCG@5 = (1/log2 4 + 1/log2 6)/(1 + 1/log2 3 + 1/log2 4)");
    is_dbl(val("nDCG@2", g, 5, &qi, 1), 0, EPS, "nDCG@2 = 0");
}

static void test_no_relevant(void)
{
    /* Nothing relevant judged at all: every measure is 0 (no division by zero), MFR undefined. */
    const int32_t g[] = {0, U, 0};
    rt_qinfo none = {0, NULL, 0};
    const char *names[] = {"RR", "RR@10", "P@3", "R@3", "R", "Success@3", "AP", "AP@2", "AP_min",
                           "nDCG@3", "nDCG", "Rprec", "NumRelRet", "NumRel"};
    int all_zero = 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        double v = val(names[i], g, 3, &none, 1);
        if (v != 0 || isnan(v)) {
            printf("# %s = %g\n", names[i], v);
            all_zero = 0;
        }
    }
    ok(all_zero, "no relevant passage judged: all measures 0");
    is_int(defined("MFR", g, 3, &none), 0, "MFR undefined without a relevant passage");

    /* Relevant judged but none retrieved; and an empty ranking. */
    const int32_t ideal[] = {2};
    rt_qinfo qi = {1, ideal, 1};
    is_dbl(val("AP", g, 3, &qi, 1), 0, EPS, "relevant not retrieved: AP 0");
    is_dbl(val("nDCG@10", g, 3, &qi, 1), 0, EPS, "relevant not retrieved: nDCG 0");
    is_int(defined("MFR", g, 3, &qi), 0, "relevant not retrieved: MFR undefined");
    is_dbl(val("RR", NULL, 0, &qi, 1), 0, EPS, "empty ranking: RR 0");
    is_dbl(val("P@10", NULL, 0, &qi, 1), 0, EPS, "empty ranking: P@10 0");
    is_dbl(val("AP_min", NULL, 0, &qi, 1), 0, EPS, "empty ranking: AP_min 0 (min(1, 0) = 0)");
    is_dbl(val("NumRet", NULL, 0, &qi, 1), 0, EPS, "empty ranking: NumRet 0");
    is_int(defined("MFR", NULL, 0, &qi), 0, "empty ranking: MFR undefined");
}

static void test_ap_min(void)
{
    /* NLPCC DBQA: the denominator is min(#relevant, #retrieved). */
    const int32_t two[] = {1, 1};
    const int32_t ideal[] = {1, 1, 1};
    rt_qinfo qi3 = {3, ideal, 3};
    is_dbl(val("AP", two, 2, &qi3, 1), 2.0 / 3, EPS, "3 relevant, 2 retrieved, both relevant: AP 2/3");
    is_dbl(val("AP_min", two, 2, &qi3, 1), 1.0, EPS, "... AP_min (1 + 1)/min(3, 2) = 1");
    const int32_t four[] = {1, 0, 0, 1};
    rt_qinfo qi2 = {2, ideal, 2};
    is_dbl(val("AP_min", four, 4, &qi2, 1), (1 + 2.0 / 4) / 2, EPS, "AP_min = AP when #relevant < #retrieved");
    const int32_t mid[] = {0, 1, 0};
    rt_qinfo qi1 = {1, ideal, 1};
    is_dbl(val("AP_min", mid, 3, &qi1, 1), 0.5, EPS, "1 relevant at rank 2 of 3: AP_min 1/2");
}

static void test_graded(void)
{
    /* Judged A=3 B=2 C=1 D=0 E=-1 F=2 (F not retrieved); ranking B, E, A, unjudged, C, D. */
    const int32_t g[] = {2, -1, 3, U, 1, 0};
    const int32_t ideal[] = {3, 2, 2, 1};   /* the positive grades, descending */
    rt_qinfo l1 = {4, ideal, 4}, l2 = {3, ideal, 4}, l3 = {1, ideal, 4}, l0 = {5, ideal, 4};
    is_dbl(val("RR", g, 6, &l1, 1), 1, EPS, "level 1: RR 1 (B)");
    is_dbl(val("AP", g, 6, &l1, 1), (1 + 2.0 / 3 + 3.0 / 5) / 4, EPS, "level 1: AP (1 + 2/3 + 3/5)/4");
    is_dbl(val("P@5", g, 6, &l1, 1), 3.0 / 5, EPS, "level 1: P@5 3/5");
    is_dbl(val("Rprec", g, 6, &l1, 1), 2.0 / 4, EPS, "level 1: Rprec 2/4");
    is_dbl(val("NumRelRet", g, 6, &l1, 1), 3, EPS, "level 1: NumRelRet 3");
    is_dbl(val("AP", g, 6, &l2, 2), (1 + 2.0 / 3) / 3, EPS, "level 2: AP (1 + 2/3)/3");
    is_dbl(val("R@5", g, 6, &l2, 2), 2.0 / 3, EPS, "level 2: R@5 2/3");
    is_dbl(val("Rprec", g, 6, &l2, 2), 2.0 / 3, EPS, "level 2: Rprec 2/3");
    is_dbl(val("RR", g, 6, &l3, 3), 1.0 / 3, EPS, "level 3: RR 1/3 (A)");
    is_dbl(val("AP", g, 6, &l3, 3), 1.0 / 3, EPS, "level 3: AP 1/3");
    is_dbl(val("Success@1", g, 6, &l3, 3), 0, EPS, "level 3: Success@1 0");
    is_dbl(val("Rprec", g, 6, &l3, 3), 0, EPS, "level 3: Rprec 0");
    is_dbl(val("AP", g, 6, &l0, 0), (1 + 2.0 / 3 + 3.0 / 5 + 4.0 / 6) / 5, EPS,
           "level 0: grade 0 counts, E (-1) and the unjudged do not: AP (1 + 2/3 + 3/5 + 4/6)/5");
    is_dbl(val("RR", g + 3, 1, &l0, INT32_MIN + 1), 0, EPS, "unjudged is never relevant, whatever the level");
    /* nDCG: raw positive grades, negative ones gain nothing, and the level plays no part. */
    double dcg = 2 / log2(2) + 3 / log2(4) + 1 / log2(6);
    double idcg = 3 / log2(2) + 2 / log2(3) + 2 / log2(4) + 1 / log2(5);
    is_dbl(val("nDCG@5", g, 6, &l1, 1), dcg / idcg, EPS, "nDCG@5 = (2 + 3/log2 4 + 1/log2 6)/IDCG");
    is_dbl(val("nDCG@5", g, 6, &l3, 3), dcg / idcg, EPS, "nDCG@5 ignores the level");
    is_dbl(val("nDCG", g, 6, &l1, 1), dcg / idcg, EPS, "nDCG (full) = nDCG@5 here");
    is_dbl(val("nDCG@1", g, 6, &l1, 1), 2.0 / 3, EPS, "nDCG@1 = 2/3");
    is_dbl(val("nDCG@2", g, 6, &l1, 1), 2 / (3 + 2 / log2(3)), EPS, "nDCG@2 = 2/(3 + 2/log2 3): E gains 0");
}

/* ---- the evaluator on files --------------------------------------------------------------- */

typedef struct fixture {
    rt_strtab *qids, *pids;
    rt_qrels *qrels;
    rt_measure *ms;
    size_t nm;
    rt_eval *ev;
    rt_eval_result *r;
} fixture;

static int fx_run(fixture *f, const char *qrels, const char *run, const char *measures,
                  int32_t level)
{
    rt_err err;
    memset(f, 0, sizeof *f);
    f->qids = rt_strtab_new();
    f->pids = rt_strtab_new();
    const char *qp = tmp_file(qrels), *rp = tmp_file(run);
    int good = rt_qrels_load(&f->qrels, qp, RT_QRELS_AUTO, f->qids, f->pids, NULL, NULL, &err) == RT_OK &&
               rt_measure_list_parse(measures, &f->ms, &f->nm, &err) == RT_OK;
    if (good) {
        f->ev = rt_eval_new(f->qrels, f->qids, f->pids, f->ms, f->nm, level);
        good = rt_eval_file(f->ev, rp, NULL, &f->r, &err) == RT_OK;
    }
    if (!good)
        printf("# %s\n", err.msg);
    return good;
}

static void fx_free(fixture *f)
{
    rt_eval_result_free(&f->r);
    rt_eval_free(&f->ev);
    rt_qrels_free(&f->qrels);
    free(f->ms);
    rt_strtab_free(&f->qids);
    rt_strtab_free(&f->pids);
}

/* The value of measure m on qid; NAN when the query is not judged or the value is undefined. */
static double qval(const fixture *f, const char *qid, size_t m)
{
    uint32_t q = rt_strtab_find(f->qids, qid, strlen(qid));
    uint32_t i = q == RT_NO_ID ? RT_NO_ID : rt_qrels_index(f->qrels, q);
    if (i == RT_NO_ID || !f->r->defined[i * f->nm + m])
        return NAN;
    return f->r->value[i * f->nm + m];
}

static const char graded_qrels[] = "g1 0 A 3\ng1 0 B 2\ng1 0 C 1\ng1 0 D 0\ng1 0 E -1\ng1 0 F 2\n";
static const char graded_run[] = "g1 Q0 B 1 0.9 r\ng1 Q0 E 2 0.8 r\ng1 Q0 A 3 0.7 r\n"
                                 "g1 Q0 U 4 0.6 r\ng1 Q0 C 5 0.5 r\ng1 Q0 D 6 0.4 r\n";

static void test_eval_levels(void)
{
    /* The same graded case as test_graded, but with num_rel and the ideal gains computed by the
     * evaluator from the qrels (F, never retrieved, is in the ideal). */
    double idcg = 3 / log2(2) + 2 / log2(3) + 2 / log2(4) + 1 / log2(5);
    double ndcg5 = (2 / log2(2) + 3 / log2(4) + 1 / log2(6)) / idcg;
    const struct { int32_t level; double numrel, ap, rr; } want[] = {
        {0, 5, (1 + 2.0 / 3 + 3.0 / 5 + 4.0 / 6) / 5, 1},
        {1, 4, (1 + 2.0 / 3 + 3.0 / 5) / 4, 1},
        {2, 3, (1 + 2.0 / 3) / 3, 1},
        {3, 1, 1.0 / 3, 1.0 / 3},
        {4, 0, 0, 0},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        fixture f;
        if (!ok(fx_run(&f, graded_qrels, graded_run, "NumRel,AP,RR,nDCG@5,nDCG", want[k].level),
                "level %d: evaluates", want[k].level))
            continue;
        is_dbl(qval(&f, "g1", 0), want[k].numrel, EPS, "level %d: NumRel", want[k].level);
        is_dbl(qval(&f, "g1", 1), want[k].ap, EPS, "level %d: AP", want[k].level);
        is_dbl(qval(&f, "g1", 2), want[k].rr, EPS, "level %d: RR", want[k].level);
        is_dbl(qval(&f, "g1", 3), ndcg5, EPS, "level %d: nDCG@5 unchanged", want[k].level);
        is_dbl(qval(&f, "g1", 4), ndcg5, EPS, "level %d: nDCG unchanged", want[k].level);
        fx_free(&f);
    }
}

static void test_eval_queries(void)
{
    /* q1: a relevant at rank 2; q2: its relevant b not retrieved; q3: judged, not in the run;
     * q4: only a grade-0 judgment; q9: in the run, not judged. */
    const char *qrels = "q1 0 a 1\nq2 0 b 1\nq3 0 c 1\nq4 0 d 0\n";
    const char *run = "q1 Q0 x 1 2 r\nq1 Q0 a 2 1 r\nq2 Q0 y 1 1 r\nq9 Q0 a 1 1 r\nq4 Q0 d 1 1 r\n";
    fixture f;
    if (!ok(fx_run(&f, qrels, run, "RR,MFR,NumRet,NumRel,NumRelRet,MFR@1", 1), "query sets: evaluates"))
        return;
    is_int(f.r->nq, 4, "the judged queries are q1..q4");
    is_dbl(qval(&f, "q1", 0), 0.5, EPS, "q1 RR 1/2");
    is_dbl(qval(&f, "q3", 0), 0, EPS, "q3 (not in the run) RR 0");
    is_dbl(f.r->mean[0], 0.5 / 4, EPS, "RR mean over the 4 judged queries: 0.5/4");
    is_int(f.r->n_defined[0], 4, "RR defined on 4 queries");
    is_dbl(qval(&f, "q1", 1), 2, EPS, "q1 MFR 2");
    ok(isnan(qval(&f, "q2", 1)) && isnan(qval(&f, "q3", 1)) && isnan(qval(&f, "q4", 1)),
       "MFR undefined on q2, q3, q4");
    is_dbl(f.r->mean[1], 2, EPS, "MFR mean over the one query with a hit");
    is_int(f.r->n_defined[1], 1, "MFR defined on 1 query");
    is_dbl(f.r->mean[2], 2 + 1 + 0 + 1, EPS, "NumRet summed over judged queries (q9 left out)");
    is_dbl(f.r->mean[3], 3, EPS, "NumRel summed: 1 + 1 + 1 + 0");
    is_dbl(f.r->mean[4], 1, EPS, "NumRelRet summed");
    is_int(f.r->n_defined[5], 0, "MFR@1 defined nowhere (q1's hit is at rank 2)");
    is_dbl(f.r->mean[5], 0, EPS, "MFR@1 mean of nothing is 0");
    is_int(f.r->queries_not_in_qrels, 1, "one run query is not judged (q9)");
    is_int(f.r->qrels_queries_missing, 1, "one judged query is missing (q3)");
    fx_free(&f);

    /* nDCG's ideal comes from every judged passage, retrieved or not. */
    if (ok(fx_run(&f, "q1 0 a 1\nq1 0 b 1\n", "q1 Q0 a 1 1 r\n", "nDCG@10,R@10", 1), "ideal: evaluates")) {
        is_dbl(qval(&f, "q1", 0), 1 / (1 + 1 / log2(3)), EPS, "nDCG@10 = 1/(1 + 1/log2 3)");
        is_dbl(qval(&f, "q1", 1), 0.5, EPS, "R@10 = 1/2");
        fx_free(&f);
    }
}

/* Judged@k (ir_measures): the judged share of the top k, whatever the grade; k the denominator. */
static void test_judged(void)
{
    parses_as("Judged@10", RT_M_JUDGED, 10, "Judged@10");
    parses_as("judged@3", RT_M_JUDGED, 3, "Judged@3");
    rejects("Judged");
    const int32_t g[] = {1, RT_UNJUDGED, 0, RT_UNJUDGED, 2};
    rt_qinfo qi = {.num_rel = 2};
    is_dbl(val("Judged@4", g, 5, &qi, 1), 0.5, EPS, "Judged@4: 2 of the top 4 judged (0 counts)");
    is_dbl(val("Judged@2", g, 5, &qi, 1), 0.5, EPS, "Judged@2: 1 of 2");
    is_dbl(val("Judged@10", g, 5, &qi, 1), 0.3, EPS, "Judged@10 of a ranking of 5: 3 / 10");
    is_dbl(val("Judged@1", g + 1, 4, &qi, 1), 0.0, EPS, "Judged@1 of an unjudged first passage: 0");
}

int main(void)
{
    test_judged();
    test_names();
    test_lists();
    test_binary();
    test_no_relevant();
    test_ap_min();
    test_graded();
    test_eval_levels();
    test_eval_queries();
    return tap_done();
}
