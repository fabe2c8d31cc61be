/* rt_stats — paired significance tests over per-query differences d[i] = a[i] - b[i]: Student's
 * paired t-test, the Wilcoxon signed-rank test (normal approximation), a sign-flip randomization
 * test and a percentile bootstrap interval of the mean difference, with p-value corrections for
 * several comparisons. Definitions follow SciPy and statsmodels (see each function), so figures
 * can be checked against them; Monte Carlo tests are reproducible from their seed (rt_rng). */
#ifndef RT_STATS_H
#define RT_STATS_H

#include <stddef.h>
#include <stdint.h>

/* A test's outcome: defined 0 with why set when it cannot be computed (too few queries, no
 * variance), never NaN. */
typedef struct rt_test {
    int defined;
    double stat;       /* t, or z of the signed-rank sum */
    double p;          /* two-sided */
    const char *why;
} rt_test;

/* Paired t-test (scipy.stats.ttest_rel): t = mean(d) / (sd(d) / sqrt(n)), sd with n - 1, p from
 * Student's t with n - 1 degrees of freedom. Undefined for n < 2 or when every d is the same. */
rt_test rt_stats_ttest(const double *d, size_t n);

/* Wilcoxon signed-rank test as scipy.stats.wilcoxon(zero_method='wilcox', correction=False,
 * method='approx'): zero differences dropped, |d| ranked with ties averaged, T = min(R+, R-),
 * z = (T - n(n+1)/4) / sqrt((n(n+1)(2n+1) - Σ t(t²-1)/2) / 24) over tie groups t, p = 2·Φ(-|z|).
 * Undefined when fewer than two differences are nonzero (one signed rank tests nothing). */
rt_test rt_stats_wilcoxon(const double *d, size_t n);

/* Two-sided paired randomization test: the share of `samples` random sign vectors whose |mean of
 * s·d| reaches |mean d| (within a relative 1e-12), as (hits + 1) / (samples + 1), so never below
 * 1 / (samples + 1). Undefined for n < 2 (one query: both signs reach it) or no samples. */
rt_test rt_stats_randomization(const double *d, size_t n, size_t samples, uint64_t seed);

/* Percentile bootstrap: means of `samples` resamples of d with replacement, and their lo and hi
 * quantiles (e.g. 0.025, 0.975) with linear interpolation between order statistics (numpy's
 * default). Returns 0 when n < 2 or samples is 0. Memory: the two quantiles' tails of the means
 * (min(q, 1 - q) of the samples each), not every mean. */
int rt_stats_bootstrap(const double *d, size_t n, size_t samples, uint64_t seed, double lo_q,
                       double hi_q, double *lo, double *hi);

/* The same, and (p not NULL) the bootstrap test: two-sided p = twice the smaller of
 * (resampled means <= 0, + 1) and (>= 0, + 1) over samples + 1, capped at 1; stat is mean d.
 * The test is undefined, with why, when n < 2, samples is 0, or every difference is the same
 * (no spread: every resample has the same mean, which says nothing of chance), though the
 * interval is then given. */
int rt_stats_bootstrap_test(const double *d, size_t n, size_t samples, uint64_t seed, double lo_q, double hi_q,
                            double *lo, double *hi, rt_test *p);

/* The randomization test and the bootstrap of m comparisons over the same n queries at once:
 * d[i * m + c] is comparison c's difference on query i. Every comparison sees the same sign
 * vectors and resamples, in the same order: the figures equal m separate calls with the same
 * seed, for the cost of drawing them once. out / lo / hi / p have m entries. */
void rt_stats_randomization_many(const double *d, size_t n, size_t m, size_t samples, uint64_t seed, rt_test *out);
int rt_stats_bootstrap_many(const double *d, size_t n, size_t m, size_t samples, uint64_t seed, double lo_q,
                            double hi_q, double *lo, double *hi, rt_test *p);

/* Cohen's d for paired samples (d_z): mean(d) / sd(d); 0 when sd is 0 (returns 0: undefined). */
int rt_stats_effect_size(const double *d, size_t n, double *dz);

typedef enum rt_correction {
    RT_CORRECT_NONE = 0,
    RT_CORRECT_BONFERRONI,
    RT_CORRECT_HOLM,
    RT_CORRECT_BH,         /* Benjamini–Hochberg false discovery rate */
} rt_correction;

/* Adjusts the m p-values p[] of one family of comparisons into adj[] (may be the same array), as
 * statsmodels' multipletests does (bonferroni, holm, fdr_bh), capped at 1. */
void rt_stats_adjust(const double *p, size_t m, rt_correction c, double *adj);

/* P(T > t) for Student's t with df degrees of freedom, and the regularized incomplete beta
 * function it is made of (exposed for tests). */
double rt_stats_t_sf(double t, double df);
double rt_stats_betainc(double a, double b, double x);

#endif
