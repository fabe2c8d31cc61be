/* rt_compare — comparing runs with rigor: for each measure and each pair of runs (or each run
 * against a baseline), over the evaluation's queries paired by qid, both means, the mean
 * difference, the paired t-test, the Wilcoxon signed-rank test, a sign-flip randomization test, a
 * percentile bootstrap 95% interval, the effect size (d_z) and wins / ties / losses; the p-values of
 * the chosen test adjusted over the comparisons of one measure by the chosen correction (and the
 * t-test's by all three, as statsmodels does). The tests are rt_stats'. */
#ifndef RT_COMPARE_H
#define RT_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_stats.h"

typedef enum rt_test_kind {
    RT_TEST_TTEST = 0,
    RT_TEST_WILCOXON,
    RT_TEST_RANDOMIZATION,
    RT_TEST_BOOTSTRAP,
} rt_test_kind;

extern const rt_name rt_test_kinds[];     /* ttest, wilcoxon, randomization, bootstrap */
extern const rt_name rt_corrections[];    /* none, bonferroni, holm, bh */

#define RT_COMPARE_SAMPLES 10000
#define RT_COMPARE_SEED 1
#define RT_COMPARE_ALPHA 0.05

typedef struct rt_compare_opts {
    rt_test_kind test;
    rt_correction correction;
    double alpha;
    size_t samples;      /* randomization and bootstrap resamples (> 0) */
    uint64_t seed;
    size_t baseline;     /* run index, or (size_t)-1: every pair of runs */
    int only_test;       /* compute the chosen test only (and the means, wins…): live markers */
} rt_compare_opts;

typedef struct rt_comparison {
    size_t measure, a, b;     /* b is the baseline when there is one */
    size_t queries;           /* queries paired (both values defined) */
    size_t dropped;           /* queries left out: a value undefined in either run */
    double mean_a, mean_b, mean_diff;
    rt_test ttest, wilcoxon, randomization;
    int has_boot;             /* the interval (two queries or more) */
    double boot_lo, boot_hi;
    rt_test boot;             /* the bootstrap test: p, or why not (no spread, too few queries) */
    int has_effect;
    double effect;            /* d_z = mean(d) / sd(d) */
    size_t wins, ties, losses;   /* queries where a is above, equal to, below b */
    double p_ttest_adj[3];    /* the t-test's p adjusted by bonferroni, holm, bh (1 when undefined) */
    int has_p;                /* the chosen test gave a p */
    double p, p_adj;          /* the chosen test's p, adjusted by the chosen correction */
    int significant;          /* has_p and p_adj < alpha: an undefined test is never significant */
    const char *why;          /* why the chosen test gave none */
} rt_comparison;

/* Compares runs. values[r][i * nm + m] and defined[r][…] are run r's value of measure m on query
 * i of the evaluation (nq queries, the same order for every run). Results in *out (caller frees):
 * per measure in order, then per pair (a, b) with a before b in run order, or (run, baseline). */
rt_status rt_compare_runs(const double *const *values, const unsigned char *const *defined, size_t nruns, size_t nq,
                          size_t nm, const rt_compare_opts *o, rt_comparison **out, size_t *n, rt_err *err);

#endif
