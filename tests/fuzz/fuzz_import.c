/* fuzz_import — judgments and tags files for `retriage import` (rt_import_read, then
 * rt_import_dedupe): any header width, any fields. Every entry read must carry a query, an
 * annotator and, for tags, a category of the taxonomy. */
#include "config.h"

#include "fuzz.h"
#include "rt_import.h"
#include "rt_taxonomy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    unsigned sel = fuzz_pick(&data, &n, 4);
    int tags = sel & 1;
    const char *annotator = sel & 2 ? "fuzz" : NULL;
    const char *path = fuzz_file("import.tsv", data, n);
    rt_taxonomy *tax = rt_taxonomy_default();
    rt_import im = {0};
    rt_err err;
    if (rt_import_read(&im, path, tags, tax, annotator, &err) == RT_OK)
        (void)rt_import_dedupe(&im, &err);
    for (size_t i = 0; i < im.n; i++) {
        const rt_op *op = &im.e[i].op;
        if (!im.e[i].annotator[0] || !op->qid[0] || (tags && rt_taxonomy_find(tax, op->cat) == (size_t)-1) ||
            (!tags && !op->pid)) {
            fprintf(stderr, "fuzz_import: entry %zu read without what it needs\n", i);
            abort();
        }
    }
    rt_import_clear(&im);
    rt_taxonomy_free(&tax);
    return 0;
}
