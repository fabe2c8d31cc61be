/* fuzz_run — runs (TREC, TSV, DuReader JSON) loaded into memory, whole and in two halves (which
 * must give the same run: its rankings, by pid text, and its counts), and evaluated by streaming
 * both as a whole and in two parts (the parallel path, forced on for any size). */
#include "config.h"

#include "fuzz.h"
#include "rt_eval.h"
#include "rt_measure.h"
#include "rt_qrels.h"
#include "rt_report.h"
#include "rt_run.h"
#include "rt_runstage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Aborts unless a and b (interned into their own tables) hold the same queries, rankings and
 * counts. */
static void same_run(const rt_run *a, rt_strtab *qa, rt_strtab *pa, const rt_run *b, rt_strtab *qb,
                     rt_strtab *pb)
{
    const rt_run_info *x = rt_run_get_info(a), *y = rt_run_get_info(b);
    int same = rt_run_nqueries(a) == rt_run_nqueries(b) && x->lines == y->lines && x->hits == y->hits &&
               x->queries == y->queries && x->duplicates == y->duplicates &&
               x->first_dup_line == y->first_dup_line && x->format == y->format;
    for (uint32_t k = 0; same && k < rt_run_nqueries(a); k++) {
        uint32_t q1 = rt_run_qid(a, k), q2 = rt_run_qid(b, k);
        size_t n1, n2;
        const uint32_t *r1 = rt_run_ranking(a, q1, &n1), *r2 = rt_run_ranking(b, q2, &n2);
        same = strcmp(rt_strtab_str(qa, q1), rt_strtab_str(qb, q2)) == 0 && n1 == n2;
        for (size_t i = 0; same && i < n1; i++)
            same = strcmp(rt_strtab_str(pa, r1[i]), rt_strtab_str(pb, r2[i])) == 0;
    }
    if (!same) {
        fprintf(stderr, "fuzz_run: the run read in halves differs from the run read whole\n");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static const rt_run_format fmts[] = {RT_RUN_AUTO, RT_RUN_TREC, RT_RUN_TSV, RT_RUN_DUREADER};
    unsigned sel = fuzz_pick(&data, &n, 8);
    rt_run_opts o = {.format = fmts[sel % 4], .order = sel / 4 ? RT_ORDER_FILE : RT_ORDER_SCORE};
    const char *path = fuzz_file("run", data, n);
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_err err;
    rt_run *run = NULL, *halves = NULL;
    if (rt_run_load(&run, path, &o, qids, pids, rep, &err) == RT_OK) {
        if (rt_run_parse_halves(&halves, path, &o, 0, &err) != RT_OK) {
            fprintf(stderr, "fuzz_run: read whole, but not in halves: %s\n", err.msg);
            abort();
        }
        rt_strtab *hq = rt_strtab_new(), *hp = rt_strtab_new();
        rt_report *hr = rt_report_new();
        rt_run_intern(halves, hq, hp, path, hr, NULL, NULL);
        same_run(run, qids, pids, halves, hq, hp);
        rt_report_free(&hr);
        rt_strtab_free(&hq);
        rt_strtab_free(&hp);
    }
    rt_run_free(&halves);
    rt_run_free(&run);

    static const char qrels_text[] = "q1 0 p1 1\nq1 0 p2 0\nq2 0 p3 2\n1 0 a 1\n";
    const char *qp = fuzz_file("qrels", (const uint8_t *)qrels_text, sizeof qrels_text - 1);
    rt_load_opts lo = {0};
    rt_qrels *q = NULL;
    rt_measure *ms = NULL;
    size_t nm = 0;
    if (rt_qrels_load(&q, qp, RT_QRELS_TREC, qids, pids, &lo, rep, &err) == RT_OK &&
        rt_measure_list_parse("RR@10,AP,nDCG@10,Success@1,MFR", &ms, &nm, &err) == RT_OK) {
        rt_eval *ev = rt_eval_new(q, qids, pids, ms, nm, 1);
        for (int parallel = 0; parallel < 2; parallel++) {
            rt_tuning t = RT_TUNING_DEFAULTS;
            t.parallel_min = parallel ? 0 : 999999999999ULL;
            rt_run_opts po = o;
            po.tuning = &t;
            rt_eval_result *r = NULL;
            if (rt_eval_file(ev, path, &po, &r, &err) == RT_OK)
                rt_eval_result_free(&r);
        }
        rt_eval_free(&ev);
    }
    free(ms);
    rt_qrels_free(&q);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return 0;
}
