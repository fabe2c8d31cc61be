/* fuzz_dbqa — an NLPCC DBQA file and a score file (the input split at its first 0xff byte),
 * loaded and evaluated. */
#include "config.h"

#include "fuzz.h"
#include "rt_dbqa.h"
#include "rt_eval.h"
#include "rt_measure.h"
#include "rt_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const uint8_t *cut = memchr(data, 0xff, n);
    size_t n1 = cut ? (size_t)(cut - data) : n;
    const char *path = fuzz_file("dbqa", data, n1);
    const char *scores = fuzz_file("scores", cut ? cut + 1 : data, cut ? n - n1 - 1 : 0);
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_load_opts lo = {0};
    rt_err err;
    rt_dbqa *d = NULL;
    if (rt_dbqa_load(&d, path, qids, pids, &lo, rep, &err) == RT_OK) {
        rt_measure *ms = NULL;
        size_t nm = 0;
        if (rt_measure_list_parse("dbqa", &ms, &nm, &err) == RT_OK) {
            rt_eval *ev = rt_eval_new(rt_dbqa_qrels(d), qids, pids, ms, nm, 1);
            rt_eval_result *r = NULL;
            if (rt_dbqa_eval_scores(d, ev, scores, NULL, &r, &err) == RT_OK)
                rt_eval_result_free(&r);
            rt_eval_free(&ev);
        }
        free(ms);
        rt_dbqa_free(&d);
    }
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return 0;
}
