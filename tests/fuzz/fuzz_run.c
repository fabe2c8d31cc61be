/* fuzz_run — runs (TREC, TSV, DuReader JSON) loaded into memory, and evaluated by streaming both
 * as a whole and in two parts (the parallel path, forced on for any size). */
#include "config.h"

#include "fuzz.h"
#include "rt_eval.h"
#include "rt_measure.h"
#include "rt_qrels.h"
#include "rt_report.h"
#include "rt_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static const rt_run_format fmts[] = {RT_RUN_AUTO, RT_RUN_TREC, RT_RUN_TSV, RT_RUN_DUREADER};
    unsigned sel = fuzz_pick(&data, &n, 8);
    rt_run_opts o = {.format = fmts[sel % 4], .order = sel / 4 ? RT_ORDER_FILE : RT_ORDER_SCORE};
    const char *path = fuzz_file("run", data, n);
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_err err;
    rt_run *run = NULL;
    if (rt_run_load(&run, path, &o, qids, pids, rep, &err) == RT_OK)
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
            setenv("RETRIAGE_PARALLEL_MIN", parallel ? "0" : "999999999999", 1);
            rt_eval_result *r = NULL;
            if (rt_eval_file(ev, path, &o, &r, &err) == RT_OK)
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
