/* fuzz_queries — query files (TSV, DuReader JSON lines). */
#include "config.h"

#include "fuzz.h"
#include "rt_queries.h"
#include "rt_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static const rt_queries_format fmts[] = {RT_QUERIES_AUTO, RT_QUERIES_TSV, RT_QUERIES_DUREADER};
    unsigned sel = fuzz_pick(&data, &n, 6);
    const char *path = fuzz_file("queries", data, n);
    rt_strtab *qids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_load_opts lo = {.strict = sel >= 3};
    rt_err err;
    rt_queries *q = NULL;
    if (rt_queries_load(&q, path, fmts[sel % 3], qids, &lo, rep, &err) == RT_OK)
        rt_queries_free(&q);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    return 0;
}
