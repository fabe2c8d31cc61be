/* fuzz_answers — an answers file (DuReader JSON lines or TSV) and a passage (the input split at
 * its first 0xff byte): loaded, and the passage searched against every answer in full and for a
 * decision, each result checked (F1 within [0, 1], the span inside the passage, the decision
 * agreeing with the full search). Plain and compressed inputs both reach rt_reader. */
#include "config.h"

#include <stdlib.h>

#include "fuzz.h"
#include "rt_answers.h"
#include "rt_report.h"
#include "rt_spanf1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const uint8_t *cut = memchr(data, 0xff, n);
    size_t n1 = cut ? (size_t)(cut - data) : n;
    const char *path = fuzz_file("answers", data, n1);
    const char *passage = cut ? (const char *)cut + 1 : "";
    size_t plen = cut ? n - n1 - 1 : 0;
    rt_strtab *qids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_err err;
    rt_answers *a = NULL;
    if (rt_answers_load(&a, path, qids, 1, rep, &err) == RT_OK) {
        rt_normtext p;
        rt_normtext_make(&p, passage, plen);
        for (uint32_t q = 0; q < rt_strtab_count(qids); q++) {
            const rt_normtext *const *an;
            size_t na = rt_answers_of(a, q, &an);
            if (!na)
                continue;
            rt_spanf1 best = rt_spanf1_best_of(&p, an, na, 0), dec = rt_spanf1_best_of(&p, an, na, 0.5);
            if (best.f1 < 0 || best.f1 > 1 || (best.f1 > 0 && (best.from >= best.to || best.to > p.n)) ||
                best.answer >= na || (dec.f1 >= 0.5) != (best.f1 >= 0.5))
                abort();
        }
        rt_normtext_free(&p);
        rt_answers_free(&a);
    }
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    return 0;
}
