/* fuzz_qrels — qrels in every format, detected and forced. */
#include "config.h"

#include "fuzz.h"
#include "rt_qrels.h"
#include "rt_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static const rt_qrels_format fmts[] = {RT_QRELS_AUTO, RT_QRELS_TREC, RT_QRELS_TSV, RT_QRELS_DUREADER};
    unsigned sel = fuzz_pick(&data, &n, 8);
    const char *path = fuzz_file("qrels", data, n);
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_load_opts lo = {.strict = sel >= 4};
    rt_err err;
    rt_qrels *q = NULL;
    if (rt_qrels_load(&q, path, fmts[sel % 4], qids, pids, &lo, rep, &err) == RT_OK) {
        for (uint32_t i = 0; i < rt_qrels_nqueries(q); i++) {
            size_t nj;
            const rt_judgment *j = rt_qrels_judgments(q, i, &nj);
            int32_t g;
            for (size_t k = 0; k < nj; k++)
                if (!rt_qrels_lookup(q, i, j[k].pid, &g) || g != j[k].grade)
                    abort();   /* every judgment listed must be found with its grade */
        }
        rt_qrels_free(&q);
    }
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return 0;
}
