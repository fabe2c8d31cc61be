/* test_stats — paired significance tests and corrections: closed forms, hand-computed cases, and
 * the reference figures of ../shared/data/significance (SciPy 1.10 / statsmodels 0.13: 1e-9 for
 * the t-test, Wilcoxon and corrections, ±0.005 for randomization at 10^5 samples, ±0.01 for the
 * bootstrap bounds). */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rt_compare.h"
#include "rt_rng.h"
#include "rt_stats.h"
#include "tap.h"

static void closed_forms(void)
{
    is_dbl(rt_stats_betainc(2, 3, 0), 0, 0, "I_0(a,b) = 0");
    is_dbl(rt_stats_betainc(2, 3, 1), 1, 0, "I_1(a,b) = 1");
    is_dbl(rt_stats_betainc(1, 1, 0.3), 0.3, 1e-15, "I_x(1,1) = x");
    is_dbl(rt_stats_betainc(4, 1, 0.7), pow(0.7, 4), 1e-15, "I_x(a,1) = x^a");
    is_dbl(rt_stats_betainc(1, 3, 0.2), 1 - pow(0.8, 3), 1e-15, "I_x(1,b) = 1 - (1-x)^b");
    is_dbl(rt_stats_betainc(7.5, 7.5, 0.5), 0.5, 1e-14, "I_0.5(a,a) = 0.5");
    /* Student's t with 1 degree of freedom is Cauchy: P(T > t) = 1/2 - atan(t)/pi */
    is_dbl(rt_stats_t_sf(1.7, 1), 0.5 - atan(1.7) / M_PI, 1e-14, "t_sf, df 1 = Cauchy");
    /* df 2: P(T > t) = 1/2 - t / (2 sqrt(2 + t^2)) */
    is_dbl(rt_stats_t_sf(0.9, 2), 0.5 - 0.9 / (2 * sqrt(2 + 0.81)), 1e-14, "t_sf, df 2 closed form");
    is_dbl(rt_stats_t_sf(-0.9, 2), 0.5 + 0.9 / (2 * sqrt(2 + 0.81)), 1e-14, "t_sf of a negative t");
    is_dbl(rt_stats_t_sf(40, 92), 0, 1e-30, "t_sf far in the tail");
}

static void hand_cases(void)
{
    /* d = 1, 2, 3, 4: mean 2.5, sd sqrt(5/3), t = 2.5 / (sqrt(5/3)/2) = 3.8729833… with 3 df */
    double d[] = {1, 2, 3, 4};
    rt_test t = rt_stats_ttest(d, 4);
    ok(t.defined && fabs(t.stat - 2.5 / (sqrt(5.0 / 3) / 2)) < 1e-14, "t statistic by hand");
    double same[] = {0.2, 0.2, 0.2};
    t = rt_stats_ttest(same, 3);
    ok(!t.defined && t.why, "t-test: no variance is undefined, with the reason");
    ok(!rt_stats_ttest(d, 1).defined, "t-test: one query is undefined");
    /* RR 1/2 vs 1/6 and 1/3 vs 0: both differences are 1/3, one bit apart in double; their
     * "spread" is rounding, not a t of 10^16 */
    volatile double half = 0.5, sixth = 1.0 / 6, third = 1.0 / 3;
    double thirds[] = {half - sixth, third - 0}, dz_thirds = 0;
    ok(thirds[0] != thirds[1] && !rt_stats_ttest(thirds, 2).defined && !rt_stats_effect_size(thirds, 2, &dz_thirds),
       "t-test and d_z: differences equal but for rounding are undefined, not t = 10^16");
    /* Wilcoxon: d = 1, -2, 3, 0 → zero dropped; ranks 1, 2, 3; R+ = 4, R- = 2, T = 2;
     * mean 3·4/4 = 3, var = 3·4·7/24 = 3.5 → z = -1/sqrt(3.5) */
    double w[] = {1, -2, 3, 0};
    t = rt_stats_wilcoxon(w, 4);
    ok(t.defined && fabs(t.stat + 1 / sqrt(3.5)) < 1e-14, "Wilcoxon z by hand (zero dropped)");
    /* ties: d = 1, 1, -1 → ranks 2, 2, 2; R+ = 4, R- = 2; var = (3·4·7 - 3·(9-1)/2)/24 = 72/24 = 3 */
    double wt[] = {1, 1, -1};
    t = rt_stats_wilcoxon(wt, 3);
    ok(t.defined && fabs(t.stat - (2 - 3) / sqrt(3.0)) < 1e-14, "Wilcoxon tie correction by hand");
    double zeros[] = {0, 0};
    ok(!rt_stats_wilcoxon(zeros, 2).defined, "Wilcoxon: all-zero differences are undefined");
    /* randomization: with all-zero d every sign vector reaches |0|: p = 1 */
    t = rt_stats_randomization(zeros, 2, 1000, 1);
    ok(t.defined && t.p == 1, "randomization: zero differences give p = 1");
    ok(!rt_stats_randomization(d, 4, 0, 1).defined, "randomization: 0 samples is refused");
    rt_test r1 = rt_stats_randomization(d, 4, 5000, 7), r2 = rt_stats_randomization(d, 4, 5000, 7);
    ok(r1.p == r2.p, "randomization: the same seed gives the same p");
    /* 4 positive differences: only the all-plus and all-minus vectors (2 of 16) reach the mean */
    ok(fabs(r1.p - 2.0 / 16) < 0.02, "randomization: p near 2/16 (got %.4f)", r1.p);
    double lo, hi;
    ok(rt_stats_bootstrap(same, 3, 100, 1, 0.025, 0.975, &lo, &hi) && fabs(lo - 0.2) < 1e-15 && fabs(hi - 0.2) < 1e-15,
       "bootstrap of a constant is that constant");
    ok(!rt_stats_bootstrap(d, 4, 0, 1, 0.025, 0.975, &lo, &hi), "bootstrap: 0 samples is refused");
    double dz;
    ok(rt_stats_effect_size(d, 4, &dz) && fabs(dz - 2.5 / sqrt(5.0 / 3)) < 1e-14, "effect size d_z by hand");

    double p[] = {0.01, 0.04, 0.03, 0.5}, a[4];
    rt_stats_adjust(p, 4, RT_CORRECT_BONFERRONI, a);
    ok(a[0] == 0.04 && a[1] == 0.16 && a[2] == 0.12 && a[3] == 1, "Bonferroni: p·m, capped at 1");
    rt_stats_adjust(p, 4, RT_CORRECT_HOLM, a);
    /* sorted 0.01 0.03 0.04 0.5 → ·4 ·3 ·2 ·1 = 0.04 0.09 0.08 0.5 → running max 0.04 0.09 0.09 0.5 */
    ok(fabs(a[0] - 0.04) < 1e-15 && fabs(a[2] - 0.09) < 1e-15 && fabs(a[1] - 0.09) < 1e-15 && a[3] == 0.5,
       "Holm: step-down with a running maximum");
    rt_stats_adjust(p, 4, RT_CORRECT_BH, a);
    /* sorted 0.01 0.03 0.04 0.5 → ·4/1 ·4/2 ·4/3 ·4/4 = 0.04 0.06 0.0533 0.5 → running min from the top */
    ok(fabs(a[0] - 0.04) < 1e-15 && fabs(a[2] - 0.04 * 4 / 3) < 1e-15 && fabs(a[1] - 0.04 * 4 / 3) < 1e-15 && a[3] == 0.5,
       "Benjamini-Hochberg: step-up with a running minimum");

    uint64_t s = 42;
    int spread[5] = {0};
    for (int i = 0; i < 5000; i++)
        spread[rt_rng_below(&s, 5)]++;
    ok(spread[0] > 900 && spread[4] > 900 && spread[2] < 1100, "rt_rng_below: roughly uniform");
}

/* ---- the fixture -------------------------------------------------------------------------- */

typedef struct pq {
    char run[64], measure[32], qid[32];
    double v;
} pq;

static pq *rows;
static size_t nrows;

static const double *values(const char *run, const char *measure, size_t *n)
{
    static double buf[3][1024];
    static int k;
    k = (k + 1) % 3;
    *n = 0;
    for (size_t i = 0; i < nrows; i++)   /* the file lists the queries of each run in one order */
        if (strcmp(rows[i].run, run) == 0 && strcmp(rows[i].measure, measure) == 0 && *n < 1024)
            buf[k][(*n)++] = rows[i].v;
    return buf[k];
}

static double num(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key)->valuedouble; }
static const char *str(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key)->valuestring; }

static void fixture(void)
{
    const char *sd = getenv("SHARED_DATA");
    char dir[1024], path[1100];
    snprintf(dir, sizeof dir, "%s/significance", sd ? sd : "../shared/data");
    snprintf(path, sizeof path, "%s/per-query.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("ok %d - # SKIP %s is absent (fixtures are read from ../shared/data)\n", ++tap_n, dir);
        return;
    }
    char line[256];
    while (fgets(line, sizeof line, f)) {
        rows = realloc(rows, (nrows + 1) * sizeof *rows);
        if (sscanf(line, "%63s %31s %31s %lf", rows[nrows].run, rows[nrows].measure, rows[nrows].qid,
                   &rows[nrows].v) == 4)
            nrows++;
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/expected.json", dir);
    f = fopen(path, "r");
    static char buf[1 << 17];
    size_t len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[len] = 0;
    cJSON *exp = cJSON_Parse(buf);
    ok(exp && nrows > 0, "read the fixture (%zu per-query values)", nrows);
    double pt[64];
    const cJSON *e;
    int k = 0;
    cJSON_ArrayForEach(e, exp) {
        const char *m = str(e, "measure"), *a = str(e, "a"), *b = str(e, "b");
        size_t na, nb;
        const double *va = values(a, m, &na), *vb = values(b, m, &nb);
        double d[1024];
        for (size_t i = 0; i < na && i < nb; i++)
            d[i] = va[i] - vb[i];
        size_t n = na < nb ? na : nb;
        is_int(n, num(e, "queries"), "%s %s − %s: queries", m, a, b);
        double mean = 0;
        for (size_t i = 0; i < n; i++)
            mean += d[i];
        mean /= (double)n;
        is_dbl(mean, num(e, "mean_diff"), 1e-12, "%s %s − %s: mean difference", m, a, b);
        rt_test t = rt_stats_ttest(d, n);
        is_dbl(t.stat, num(e, "t"), 1e-9, "%s %s − %s: t", m, a, b);
        is_dbl(t.p, num(e, "p_ttest"), 1e-9, "%s %s − %s: t-test p", m, a, b);
        pt[k++] = t.p;
        rt_test w = rt_stats_wilcoxon(d, n);
        is_dbl(w.p, num(e, "p_wilcoxon"), 1e-9, "%s %s − %s: Wilcoxon p", m, a, b);
        rt_test r = rt_stats_randomization(d, n, 100000, 2026);
        is_dbl(r.p, num(e, "p_randomization"), 0.005, "%s %s − %s: randomization p (10^5 samples)", m, a, b);
        double lo, hi;
        const cJSON *bs = cJSON_GetObjectItemCaseSensitive(e, "bootstrap95");
        rt_stats_bootstrap(d, n, 20000, 2026, 0.025, 0.975, &lo, &hi);
        is_dbl(lo, cJSON_GetArrayItem(bs, 0)->valuedouble, 0.01, "%s %s − %s: bootstrap 2.5%%", m, a, b);
        is_dbl(hi, cJSON_GetArrayItem(bs, 1)->valuedouble, 0.01, "%s %s − %s: bootstrap 97.5%%", m, a, b);
    }
    /* the corrections: each measure's three t-test p-values together, in file order */
    int i = 0;
    cJSON_ArrayForEach(e, exp) {
        int first = i - i % 3;
        double adj[3];
        const char *fields[] = {"p_ttest_bonferroni", "p_ttest_holm", "p_ttest_bh"};
        rt_correction cs[] = {RT_CORRECT_BONFERRONI, RT_CORRECT_HOLM, RT_CORRECT_BH};
        for (int c = 0; c < 3; c++) {
            rt_stats_adjust(pt + first, 3, cs[c], adj);
            is_dbl(adj[i % 3], num(e, fields[c]), 1e-9, "%s %s − %s: %s", str(e, "measure"), str(e, "a"), str(e, "b"), fields[c]);
        }
        i++;
    }
    cJSON_Delete(exp);
    free(rows);
}

/* The many-at-once forms equal one call per comparison, bit for bit (one thread and two). */
static void test_many(void)
{
    for (int big = 0; big < 2; big++) {
        size_t n = big ? 1000 : 40, m = 3, samples = big ? 1000 : 300;
        double *d = calloc(n * m, sizeof *d), *col = calloc(n, sizeof *col);
        uint64_t st = 9;
        for (size_t i = 0; i < n * m; i++)
            d[i] = (double)(rt_rng_below(&st, 7)) / 7.0 - 0.4 + 0.05 * (double)(i % m);
        rt_test many[3], p[3];
        double lo[3], hi[3];
        rt_stats_randomization_many(d, n, m, samples, 77, many);
        rt_stats_bootstrap_many(d, n, m, samples, 78, 0.025, 0.975, lo, hi, p);
        int same = 1;
        for (size_t c = 0; c < m; c++) {
            for (size_t i = 0; i < n; i++)
                col[i] = d[i * m + c];
            rt_test one = rt_stats_randomization(col, n, samples, 77);
            double l, h;
            rt_test q;
            rt_stats_bootstrap_test(col, n, samples, 78, 0.025, 0.975, &l, &h, &q);
            same &= one.p == many[c].p && l == lo[c] && h == hi[c] && q.defined && q.p == p[c].p;
        }
        ok(same, "%s: randomization and bootstrap of three comparisons at once equal three calls", big ? "two threads" : "one thread");
        free(d);
        free(col);
    }
}

/* Many comparisons times many samples: the bootstrap keeps a group of comparisons' resample
 * means at a time, not all of them (20 x 10^6 samples would be 160 MB), and the figures are those
 * of one call each. The address space is capped 128 MB above what the program uses (not under
 * AddressSanitizer, which reserves terabytes). */
static void test_many_samples(void)
{
    size_t n = 4, m = 20, samples = 1000000;
    double *d = calloc(n * m, sizeof *d), lo[20], hi[20];
    rt_test p[20];
    for (size_t i = 0; i < n * m; i++)
        d[i] = (double)((i * 7) % 5) / 4.0 - 0.3;
    struct rlimit old;
    int capped = 0;
#ifndef __SANITIZE_ADDRESS__
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%ld", &pages) == 1 && getrlimit(RLIMIT_AS, &old) == 0) {
        struct rlimit cap = old;
        cap.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)128 << 20);
        capped = old.rlim_cur == RLIM_INFINITY || cap.rlim_cur < old.rlim_cur ? setrlimit(RLIMIT_AS, &cap) == 0 : 0;
    }
    if (f)
        fclose(f);
#endif
    int done = rt_stats_bootstrap_many(d, n, m, samples, 5, 0.025, 0.975, lo, hi, p);
    if (capped)
        setrlimit(RLIMIT_AS, &old);
    ok(done, "bootstrap of 20 comparisons x 10^6 samples within 128 MB%s", capped ? "" : " (not capped here)");
    int same = 1;
    for (size_t c = 0; c < m; c += m - 1) {
        double col[4], l, h;
        rt_test q;
        for (size_t i = 0; i < n; i++)
            col[i] = d[i * m + c];
        rt_stats_bootstrap_test(col, n, samples, 5, 0.025, 0.975, &l, &h, &q);
        same &= l == lo[c] && h == hi[c] && q.defined == p[c].defined && q.p == p[c].p;
    }
    ok(same, "its first and last comparison's figures equal a call each");
    free(d);
}


/* ---- tests that cannot be computed are never significant (issue 33) ---------------------- */

/* Every test of rt_stats on one query, on samples = 1, and on differences all the same: a test
 * that cannot be computed is undefined with a reason; a Monte Carlo p is never below
 * 1 / (samples + 1). */
static void undefined_cases(void)
{
    double one[] = {0.5}, lo, hi;
    rt_test b;
    ok(!rt_stats_ttest(one, 1).defined && rt_stats_ttest(one, 1).why, "n = 1: the t-test is undefined, with why");
    ok(!rt_stats_wilcoxon(one, 1).defined && rt_stats_wilcoxon(one, 1).why, "n = 1: Wilcoxon is undefined, with why");
    rt_test r = rt_stats_randomization(one, 1, 1000, 1);
    ok(!r.defined && r.why, "n = 1: the randomization test is undefined, with why");
    ok(!rt_stats_bootstrap_test(one, 1, 1000, 1, 0.025, 0.975, &lo, &hi, &b) && !b.defined && b.why,
       "n = 1: the bootstrap (interval and test) is undefined, with why (was p = 0)");
    double dz;
    ok(!rt_stats_effect_size(one, 1, &dz), "n = 1: d_z is undefined");

    /* one query differs among many: one signed rank is no test (scipy would say p = 0.317) */
    double lone[] = {0, 0, 0.25, 0};
    rt_test w = rt_stats_wilcoxon(lone, 4);
    ok(!w.defined && w.why && strstr(w.why, "one query differs"), "Wilcoxon with one nonzero difference: undefined (%s)",
       w.why ? w.why : "-");

    /* samples = 1: the Monte Carlo p is at least 1/2 */
    double pos[] = {0.1, 0.3, 0.2, 0.5, 0.4, 0.25};
    r = rt_stats_randomization(pos, 6, 1, 3);
    ok(r.defined && r.p >= 0.5, "samples = 1: randomization p >= 1/2 (got %g)", r.p);
    int has = rt_stats_bootstrap_test(pos, 6, 1, 3, 0.025, 0.975, &lo, &hi, &b);
    ok(has && b.defined && b.p == 1,
       "samples = 1: bootstrap p = 1 (every resampled mean above 0: 2·(0 + 1)/(1 + 1)), was 0 (got %g)", b.p);

    /* every resampled mean above 0: p = 2 / (samples + 1), not 0 */
    has = rt_stats_bootstrap_test(pos, 6, 999, 3, 0.025, 0.975, &lo, &hi, &b);
    ok(has && b.defined && b.p == 2.0 / 1000,
       "bootstrap p never below its Monte Carlo floor: 2 / (samples + 1) (got %g)", b.p);
    r = rt_stats_randomization(pos, 6, 999, 3);
    ok(r.defined && r.p >= 1.0 / 1000, "randomization p never below 1 / (samples + 1) (got %g)", r.p);

    /* every difference the same: no spread */
    double same[] = {0.2, 0.2, 0.2, 0.2, 0.2};
    ok(!rt_stats_ttest(same, 5).defined, "all-equal differences: t-test undefined");
    has = rt_stats_bootstrap_test(same, 5, 1000, 1, 0.025, 0.975, &lo, &hi, &b);
    ok(has && lo == 0.2 && hi == 0.2 && !b.defined && b.why,
       "all-equal differences: the bootstrap interval is [0.2, 0.2], its test undefined with why (was p = 0)");
    r = rt_stats_randomization(same, 5, 1000, 1);
    ok(r.defined && r.p > 1.0 / 32 && r.p < 0.12, "all-equal differences: randomization p near its exact 2/32 (got %g)", r.p);
    w = rt_stats_wilcoxon(same, 5);
    /* all ranks tied at 3: T = 0, var = (5·6·11 - 5·24/2)/24 = 11.25, z = -7.5/sqrt(11.25) (scipy) */
    ok(w.defined && fabs(w.stat + 7.5 / sqrt(11.25)) < 1e-14,
       "all-equal differences: Wilcoxon is defined, as scipy (all ranks tied, z from the signs)");
    double zeros[] = {0, 0, 0};
    ok(!rt_stats_ttest(zeros, 3).defined && !rt_stats_wilcoxon(zeros, 3).defined &&
           rt_stats_bootstrap_test(zeros, 3, 100, 1, 0.025, 0.975, &lo, &hi, &b) && !b.defined,
       "all-zero differences: t-test, Wilcoxon and bootstrap test undefined");
}

/* rt_compare on one query: with every test and the loosest alpha, nothing is significant. */
static void compare_one_query(void)
{
    double va[] = {1.0}, vb[] = {0.5};
    unsigned char da[] = {1}, db[] = {1};
    const double *vals[] = {va, vb};
    const unsigned char *def[] = {da, db};
    int bad = 0;
    for (int t = RT_TEST_TTEST; t <= RT_TEST_BOOTSTRAP; t++)
        for (size_t samples = 1; samples <= 10000; samples *= 100) {
            rt_compare_opts o = {.test = (rt_test_kind)t, .correction = RT_CORRECT_NONE, .alpha = 0.999,
                                 .samples = samples, .seed = 1, .baseline = 1};
            rt_comparison *c;
            size_t n;
            rt_err err;
            if (rt_compare_runs(vals, def, 2, 1, 1, &o, &c, &n, &err) != RT_OK || n != 1) {
                bad++;
                continue;
            }
            if (c[0].significant || c[0].has_p || !c[0].why) {
                printf("# test %d, %zu samples: significant %d, has_p %d, p %g\n", t, samples, c[0].significant,
                       c[0].has_p, c[0].p);
                bad++;
            }
            free(c);
        }
    ok(!bad, "compare, one query: no test gives a p or says significant (alpha 0.999, 1 and 10^4 samples)");
}

/* --samples 10^8 took 1.2 GB: every resample mean kept, then sorted with a copy. Only the tails
 * of the two percentiles are kept now: 2.5·10^7 samples of one comparison within 128 MB more than
 * the program uses (each mean alone would be 200 MB), with the percentiles of every mean. */
static void test_bootstrap_memory(void)
{
    double d[] = {0.1, -0.2, 0.35, 0.0}, lo = 0, hi = 0;
    rt_test p;
    struct rlimit old;
    int capped = 0;
#ifndef __SANITIZE_ADDRESS__
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%ld", &pages) == 1 && getrlimit(RLIMIT_AS, &old) == 0) {
        struct rlimit cap = old;
        cap.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)128 << 20);
        capped = old.rlim_cur == RLIM_INFINITY || cap.rlim_cur < old.rlim_cur ? setrlimit(RLIMIT_AS, &cap) == 0 : 0;
    }
    if (f)
        fclose(f);
#endif
    int done = rt_stats_bootstrap_test(d, 4, 25000000, 9, 0.025, 0.975, &lo, &hi, &p);
    if (capped)
        setrlimit(RLIMIT_AS, &old);
    /* the resample means are multiples of 0.0125 between -0.2 and 0.35, and the interval is close
     * to the exact bootstrap distribution's (about ±1.96 · sd/sqrt(n) around the mean 0.0625) */
    ok(done && p.defined && lo < 0 && hi > 0.15 && hi < 0.3 && fabs(lo / 0.0125 - round(lo / 0.0125)) < 1e-6,
       "bootstrap of 2.5·10^7 samples within 128 MB%s: [%g, %g], p %g", capped ? "" : " (not capped here)", lo, hi, p.p);
}

int main(void)
{
    closed_forms();
    hand_cases();
    fixture();
    test_many();
    test_many_samples();
    undefined_cases();
    compare_one_query();
    test_bootstrap_memory();
    return tap_done();
}
