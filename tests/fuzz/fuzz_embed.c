/* fuzz_embed — embedding files (.npy, .fvecs, TSV with and without an id column). */
#include "config.h"

#include "fuzz.h"
#include "rt_embed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static const char *names[] = {"e.npy", "e.fvecs", "e.tsv", "e.bin"};
    static const rt_embed_format fmts[] = {RT_EMBED_AUTO, RT_EMBED_NPY, RT_EMBED_FVECS, RT_EMBED_TSV};
    static const rt_embed_idcol ids[] = {RT_EMBED_IDS_AUTO, RT_EMBED_IDS_YES, RT_EMBED_IDS_NO};
    unsigned sel = fuzz_pick(&data, &n, 48);
    const char *path = fuzz_file(names[sel % 4], data, n);
    rt_embed_opts o = {.format = fmts[(sel / 4) % 4], .ids = ids[(sel / 16) % 3]};
    rt_embed *e = NULL;
    rt_err err;
    if (rt_embed_load(&e, path, &o, &err) == RT_OK)
        rt_embed_free(&e);
    return 0;
}
