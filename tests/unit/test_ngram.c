/* test_ngram — the built-in embedder: what it ignores (punctuation, spaces, width, case), what it
 * keeps (order, content), zero rows for texts without content, unit rows, the dimension, idf
 * weighting, and invalid UTF-8. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "rt_mem.h"
#include "rt_ngram.h"
#include "tap.h"

static double dot(const rt_embed *e, size_t a, size_t b)
{
    double s = 0;
    for (size_t j = 0; j < e->d; j++)
        s += (double)e->x[a * e->d + j] * e->x[b * e->d + j];
    return s;
}

/* Embeds texts with idf counted over them (and over extra, when given). */
static rt_embed *embed(const char *const *texts, size_t n, const char *const *extra, size_t nextra,
                       size_t dim, size_t *nzero)
{
    rt_ngram *m = rt_ngram_new(dim);
    rt_ngram_count(m, texts, n);
    if (extra)
        rt_ngram_count(m, extra, nextra);
    rt_embed *e = rt_ngram_embed(m, texts, n, nzero);
    rt_ngram_free(&m);
    ok(m == NULL, "free sets the pointer to NULL");
    return e;
}

static void test_invariance(void)
{
    static const char *const t[] = {
        "abc北京天气", "ＡＢＣ 北京，天气？", "AbC\xe3\x80\x80北京\t天气！！", "天气北京abc",
        "", "？！。 ，", "\xff\xfe北京天气", "上海天气",
    };
    size_t n = sizeof t / sizeof *t, nzero = 0;
    rt_embed *e = embed(t, n, NULL, 0, 0, &nzero);
    ok(e->n == n && e->d == RT_NGRAM_DIM, "%zu rows of the default dimension %d", n, RT_NGRAM_DIM);
    is_dbl(dot(e, 0, 1), 1, 1e-6, "full-width letters, case, spaces and punctuation are ignored");
    is_dbl(dot(e, 0, 2), 1, 1e-6, "an ideographic space, a tab and repeated marks are ignored");
    ok(dot(e, 0, 3) < 0.9, "another order scores lower (%.3f)", dot(e, 0, 3));
    ok(dot(e, 0, 3) > 0.3, "but shares its characters (%.3f)", dot(e, 0, 3));
    is_int(nzero, 2, "an empty text and one of punctuation only give zero rows");
    is_dbl(dot(e, 4, 4) + dot(e, 5, 5), 0, 0, "the zero rows are zero");
    ok(dot(e, 6, 6) > 0.99, "invalid UTF-8 does not empty a text");
    int unit = 1;
    for (size_t i = 0; i < n; i++)
        if (i != 4 && i != 5 && fabs(dot(e, i, i) - 1) > 1e-6)
            unit = 0;
    ok(unit, "every other row has unit length");
    ok(dot(e, 0, 7) < 0.6, "a different city scores lower (%.3f)", dot(e, 0, 7));
    rt_embed_free(&e);
}

static void test_dim_and_determinism(void)
{
    static const char *const t[] = {"如何办理护照", "如何办理护照"};
    rt_embed *e = embed(t, 2, NULL, 0, 64, NULL);
    ok(e->d == 64, "dimension 64 as asked");
    ok(memcmp(e->x, e->x + 64, 64 * sizeof *e->x) == 0, "the same text gives the same row");
    rt_embed_free(&e);
}

/* Two texts sharing a suffix: the more texts the suffix is in, the less it counts. */
static void test_idf(void)
{
    static const char *const pair[] = {"苹果的价格", "香蕉的价格"};
    const char *many[200];
    for (size_t i = 0; i < 200; i++)
        many[i] = i % 2 ? "手机的价格" : "房子的价格";
    rt_embed *rare = embed(pair, 2, NULL, 0, 0, NULL);
    rt_embed *common = embed(pair, 2, many, 200, 0, NULL);
    ok(dot(common, 0, 1) < dot(rare, 0, 1) - 0.1,
       "a shared part in many texts counts less (%.3f) than in few (%.3f)", dot(common, 0, 1),
       dot(rare, 0, 1));
    rt_embed_free(&rare);
    rt_embed_free(&common);
}

int main(void)
{
    test_invariance();
    test_dim_and_determinism();
    test_idf();
    return tap_done();
}
