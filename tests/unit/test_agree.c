/* test_agree — agreement coefficients: hand-computed cases, Krippendorff's own worked example,
 * and the three-annotator fixture of ../shared/data/agreement against scikit-learn and
 * statsmodels (expected.json, 1e-9). */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_agree.h"
#include "rt_reader.h"
#include "tap.h"

static void hand_cases(void)
{
    /* 10 items, 2 labels: a = 1111100000, b = 1111000001 → po = 0.8, pe = 0.5·0.5 + 0.5·0.5 = 0.5 */
    int a[] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, b[] = {1, 1, 1, 1, 0, 0, 0, 0, 0, 1};
    rt_agreement k = rt_kappa_cohen(a, b, 10, 2, RT_KAPPA_UNWEIGHTED);
    ok(k.defined && fabs(k.value - 0.6) < 1e-15 && fabs(k.observed - 0.8) < 1e-15, "Cohen: (0.8 - 0.5) / (1 - 0.5) = 0.6");
    k = rt_kappa_cohen(a, a, 10, 2, RT_KAPPA_UNWEIGHTED);
    ok(k.defined && k.value == 1, "Cohen: identical labels give 1");
    int c1[] = {1, 1, 1}, c0[] = {0, 0, 0};
    k = rt_kappa_cohen(c1, c1, 3, 2, RT_KAPPA_UNWEIGHTED);
    ok(!k.defined && k.why && strstr(k.why, "same label"), "Cohen: both constant and equal is undefined, with the reason");
    k = rt_kappa_cohen(c1, c0, 3, 2, RT_KAPPA_UNWEIGHTED);
    ok(k.defined && k.value == 0, "Cohen: constant but different labels: po 0, pe 0, kappa 0");
    k = rt_kappa_cohen(a, b, 0, 2, RT_KAPPA_UNWEIGHTED);
    ok(!k.defined && k.items == 0, "Cohen: no common item is undefined");

    /* Graded, 3 items: a = 0 1 3, b = 0 2 3. Labels used: 0 1 2 3 (positions 0-3).
     * Linear: observed disagreement Σ w·C = |1-2| = 1; expected Σ w·r_i·c_j / n with rows (1,1,0,1),
     * columns (1,0,1,1): pairs (i,j,w): (0,0,0)(0,2,2)(0,3,3)(1,0,1)(1,2,1)(1,3,2)(3,0,3)(3,2,1)(3,3,0)
     * → (0+2+3+1+1+2+3+1+0)/3 = 13/3; kappa = 1 - 1/(13/3) = 10/13.
     * Quadratic: observed 1; expected (0+4+9+1+1+4+9+1+0)/3 = 29/3; kappa = 1 - 3/29 = 26/29. */
    int ga[] = {0, 1, 3}, gb[] = {0, 2, 3};
    k = rt_kappa_cohen(ga, gb, 3, 4, RT_KAPPA_LINEAR);
    ok(k.defined && fabs(k.value - 10.0 / 13) < 1e-15, "Cohen linear: 10/13 (got %.17g)", k.value);
    k = rt_kappa_cohen(ga, gb, 3, 4, RT_KAPPA_QUADRATIC);
    ok(k.defined && fabs(k.value - 26.0 / 29) < 1e-15, "Cohen quadratic: 26/29 (got %.17g)", k.value);
    /* Unused labels take no position (scikit-learn): a = 0 3, b = 3 0 with labels 0..3 in the
     * scale but only 0 and 3 used → weights as for two adjacent labels: linear = unweighted = -1 */
    int ua[] = {0, 3}, ub[] = {3, 0};
    k = rt_kappa_cohen(ua, ub, 2, 4, RT_KAPPA_LINEAR);
    ok(k.defined && fabs(k.value + 1) < 1e-15, "Cohen linear: weights over the labels in use (-1)");

    /* Fleiss, 3 items × 3 annotators, 2 labels: counts (3,0) (0,3) (2,1):
     * P_i = 1, 1, (4+1-3)/6 = 1/3 → Pbar = 7/9; p = (5/9, 4/9) → Pe = 41/81;
     * kappa = (7/9 - 41/81) / (1 - 41/81) = (22/81) / (40/81) = 0.55 */
    int fc[] = {3, 0, 0, 3, 2, 1};
    k = rt_kappa_fleiss(fc, 3, 2);
    ok(k.defined && fabs(k.value - 0.55) < 1e-15, "Fleiss: 0.55 (got %.17g)", k.value);
    int fall[] = {3, 0, 3, 0};
    k = rt_kappa_fleiss(fall, 2, 2);
    ok(!k.defined && k.why, "Fleiss: one label everywhere is undefined");
}

/* Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the nominal example: 4
 * observers, 12 units, missing values; alpha = 0.743 (rounded in the paper). */
static void krippendorff_example(void)
{
    const int X = -1;
    int v[12 * 4] = {
        1, 1, X, 1,   2, 2, 3, 2,   3, 3, 3, 3,   3, 3, 3, 3,   2, 2, 2, 2,   1, 2, 3, 4,
        4, 4, 4, 4,   1, 1, 2, 1,   2, 2, 2, 2,   X, 5, 5, 5,   X, X, 1, 1,   X, 3, X, X,
    };
    rt_agreement k = rt_alpha_nominal(v, 12, 4, 6);
    ok(k.defined && fabs(k.value - 0.743) < 5e-4, "Krippendorff's worked example: alpha 0.743 (got %.6f)", k.value);
    ok(k.items == 11, "unit 12 (one value) is not pairable: 11 units");
    /* by hand from the coincidence matrix: n_c = 9, 13, 10, 5, 3 (n = 40), off-diagonal
     * coincidences 8, Σ n_c n_k (c≠k) = 1600 - (81+169+100+25+9) = 1216 → 1 - 39·8/1216 = 113/152 */
    ok(fabs(k.value - 113.0 / 152) < 1e-12, "alpha = 113/152 exactly (got %.17g)", k.value);
    int same[] = {1, 1, 1, 1};
    ok(!rt_alpha_nominal(same, 2, 2, 2).defined, "alpha: all values the same is undefined");
    int lone[] = {1, X, X, 0};
    ok(!rt_alpha_nominal(lone, 2, 2, 2).defined, "alpha: no pairable unit is undefined");
}

/* ---- the fixture -------------------------------------------------------------------------- */

#define MAXA 3
static const char *ann[MAXA] = {"ann_a", "ann_b", "ann_c"};
static const char *cats[] = {"entity", "numeral", "modifier", "syntactic", "typo", "overlap",
                             "false-negative", "other"};
#define NCAT 8

typedef struct item {
    char key[96];          /* qid pid */
    int grade[MAXA];       /* -1: not judged */
    unsigned tags[MAXA];   /* bit c: category c; tagged[] says whether the pair was tagged */
    int tagged[MAXA];
} item;

static item *items;
static size_t nitems;

static item *find(const char *qid, const char *pid)
{
    char key[96];
    snprintf(key, sizeof key, "%s %s", qid, pid);
    for (size_t i = 0; i < nitems; i++)
        if (strcmp(items[i].key, key) == 0)
            return &items[i];
    items = realloc(items, (nitems + 1) * sizeof *items);
    item *it = &items[nitems++];
    memset(it, 0, sizeof *it);
    snprintf(it->key, sizeof it->key, "%s", key);
    for (int a = 0; a < MAXA; a++)
        it->grade[a] = -1;
    return it;
}

static int ann_of(const char *s)
{
    for (int a = 0; a < MAXA; a++)
        if (strcmp(s, ann[a]) == 0)
            return a;
    return -1;
}

static int read_tsv(const char *path, int tags)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[512];
    int first = 1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (first) {
            first = 0;
            continue;
        }
        char *who = strtok(line, "\t"), *q = strtok(NULL, "\t"), *p = strtok(NULL, "\t"), *x = strtok(NULL, "\t");
        int a = who ? ann_of(who) : -1;
        if (a < 0 || !q || !p || !x)
            continue;
        item *it = find(q, p);
        if (!tags) {
            it->grade[a] = atoi(x);
            continue;
        }
        for (int c = 0; c < NCAT; c++)
            if (strcmp(x, cats[c]) == 0)
                it->tags[a] |= 1u << c;
        it->tagged[a] = 1;
    }
    fclose(f);
    return 1;
}

static double num(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k)->valuedouble; }

static void fixture(void)
{
    const char *sd = getenv("SHARED_DATA");
    char dir[1024], path[1100];
    snprintf(dir, sizeof dir, "%s/agreement", sd ? sd : "../shared/data");
    snprintf(path, sizeof path, "%s/expected.json", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("ok %d - # SKIP %s is absent (fixtures are read from ../shared/data)\n", ++tap_n, dir);
        return;
    }
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    cJSON *exp = cJSON_Parse(buf);
    snprintf(path, sizeof path, "%s/judgments.tsv", dir);
    ok(read_tsv(path, 0), "read judgments.tsv");
    snprintf(path, sizeof path, "%s/tags.tsv", dir);
    ok(read_tsv(path, 1), "read tags.tsv");
    int *x = calloc(nitems + 1, sizeof *x), *y = calloc(nitems + 1, sizeof *y);
    const cJSON *pair;
    cJSON_ArrayForEach(pair, cJSON_GetObjectItemCaseSensitive(exp, "pairs")) {
        int a = ann_of(cJSON_GetObjectItemCaseSensitive(pair, "a")->valuestring);
        int b = ann_of(cJSON_GetObjectItemCaseSensitive(pair, "b")->valuestring);
        size_t n = 0;
        for (size_t i = 0; i < nitems; i++)
            if (items[i].grade[a] >= 0 && items[i].grade[b] >= 0) {
                x[n] = items[i].grade[a];
                y[n++] = items[i].grade[b];
            }
        rt_agreement k = rt_kappa_cohen(x, y, n, 2, RT_KAPPA_UNWEIGHTED);
        is_int(n, num(pair, "items"), "%s × %s: items both judged", ann[a], ann[b]);
        is_dbl(k.observed, num(pair, "observed_agreement"), 1e-12, "%s × %s: observed agreement", ann[a], ann[b]);
        is_dbl(k.value, num(pair, "relevance_kappa"), 1e-9, "%s × %s: relevance kappa", ann[a], ann[b]);
        size_t nt = 0;
        for (size_t i = 0; i < nitems; i++)
            nt += items[i].tagged[a] && items[i].tagged[b];
        is_int(nt, num(pair, "tag_items"), "%s × %s: items both tagged", ann[a], ann[b]);
        const cJSON *ck = cJSON_GetObjectItemCaseSensitive(pair, "category_kappa");
        for (int c = 0; c < NCAT; c++) {
            size_t m = 0;
            for (size_t i = 0; i < nitems; i++)
                if (items[i].tagged[a] && items[i].tagged[b]) {
                    x[m] = (int)(items[i].tags[a] >> c & 1);
                    y[m++] = (int)(items[i].tags[b] >> c & 1);
                }
            rt_agreement kc = rt_kappa_cohen(x, y, m, 2, RT_KAPPA_UNWEIGHTED);
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(ck, cats[c]);
            if (cJSON_IsNull(e))
                ok(!kc.defined, "%s × %s: %s undefined as expected", ann[a], ann[b], cats[c]);
            else
                is_dbl(kc.value, e->valuedouble, 1e-9, "%s × %s: kappa of %s", ann[a], ann[b], cats[c]);
        }
    }
    /* Fleiss over the pairs all three judged */
    int *counts = calloc(2 * nitems + 2, sizeof *counts);
    size_t n = 0;
    for (size_t i = 0; i < nitems; i++) {
        if (items[i].grade[0] < 0 || items[i].grade[1] < 0 || items[i].grade[2] < 0)
            continue;
        for (int a = 0; a < MAXA; a++)
            counts[2 * n + (size_t)items[i].grade[a]]++;
        n++;
    }
    const cJSON *fl = cJSON_GetObjectItemCaseSensitive(exp, "fleiss");
    rt_agreement k = rt_kappa_fleiss(counts, n, 2);
    is_int(n, num(fl, "items"), "Fleiss: items all three judged");
    is_dbl(k.value, num(fl, "relevance_kappa"), 1e-9, "Fleiss: relevance kappa");
    free(counts);
    free(x);
    free(y);
    free(items);
    cJSON_Delete(exp);
}

int main(void)
{
    hand_cases();
    krippendorff_example();
    fixture();
    return tap_done();
}
