/* fuzz_collection — a collection file: built (the scan and the pid sort), then reopened from the
 * index it wrote; every passage listed must be found again by its pid. */
#include "config.h"

#include "fuzz.h"
#include "rt_collection.h"
#include "rt_report.h"

static void check(const rt_collection *c)
{
    size_t n = rt_collection_count(c);
    for (size_t i = 0; i < n && i < 64; i++) {
        const char *pid, *text, *t2;
        size_t pl, tl, tl2;
        rt_collection_at(c, i, &pid, &pl, &text, &tl);
        if (!rt_collection_find(c, pid, pl, &t2, &tl2) || t2 != text || tl2 != tl)
            abort();   /* a listed passage is found by its pid, the same text */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const char *path = fuzz_file("collection.tsv", data, n);
    for (int round = 0; round < 2; round++) {   /* built, then reopened from its index */
        rt_report *rep = rt_report_new();
        rt_collection *c = NULL;
        rt_err err;
        if (rt_collection_open(&c, path, NULL, rep, &err) == RT_OK) {
            check(c);
            rt_collection_close(&c);
        }
        rt_report_free(&rep);
    }
    return 0;
}
