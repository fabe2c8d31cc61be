/* rt_compare — paired comparisons of runs (see rt_compare.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rt_compare.h"
#include "rt_mem.h"

const rt_name rt_test_kinds[] = {{"ttest", RT_TEST_TTEST}, {"wilcoxon", RT_TEST_WILCOXON},
                                 {"randomization", RT_TEST_RANDOMIZATION}, {"bootstrap", RT_TEST_BOOTSTRAP},
                                 {NULL, 0}};
const rt_name rt_corrections[] = {{"none", RT_CORRECT_NONE}, {"bonferroni", RT_CORRECT_BONFERRONI},
                                  {"holm", RT_CORRECT_HOLM}, {"bh", RT_CORRECT_BH}, {NULL, 0}};

static void compare_one(const double *va, const unsigned char *da, const double *vb, const unsigned char *db,
                        size_t nq, size_t nm, size_t m, const rt_compare_opts *o, rt_comparison *c, double *d)
{
    double sa = 0, sb = 0;
    size_t n = 0;
    for (size_t i = 0; i < nq; i++) {
        if (!da[i * nm + m] || !db[i * nm + m]) {
            c->dropped++;
            continue;
        }
        double x = va[i * nm + m], y = vb[i * nm + m];
        sa += x;
        sb += y;
        d[n++] = x - y;
        c->wins += x > y;
        c->ties += x == y;
        c->losses += x < y;
    }
    c->queries = n;
    if (n) {
        c->mean_a = sa / (double)n;
        c->mean_b = sb / (double)n;
        double sd = 0;
        for (size_t i = 0; i < n; i++)
            sd += d[i];
        c->mean_diff = sd / (double)n;
    }
    int all = !o->only_test;
    static const rt_test skipped = {.why = "not computed"};
    c->ttest = all || o->test == RT_TEST_TTEST ? rt_stats_ttest(d, n) : skipped;
    c->wilcoxon = all || o->test == RT_TEST_WILCOXON ? rt_stats_wilcoxon(d, n) : skipped;
    /* the Monte Carlo tests: here when queries were dropped (or there are none); otherwise for
     * every such comparison at once (monte_carlo), with the same figures */
    c->randomization = skipped;
    c->boot = skipped;
    int here = c->dropped || !n;
    if (here && (all || o->test == RT_TEST_RANDOMIZATION))
        c->randomization = rt_stats_randomization(d, n, o->samples, o->seed);
    if (here && (all || o->test == RT_TEST_BOOTSTRAP))
        c->has_boot = rt_stats_bootstrap_test(d, n, o->samples, o->seed, 0.025, 0.975, &c->boot_lo, &c->boot_hi,
                                              &c->boot);
    c->has_effect = rt_stats_effect_size(d, n, &c->effect);
}

static void choose_p(const rt_compare_opts *o, rt_comparison *c)
{
    switch (o->test) {
    case RT_TEST_TTEST:
        c->has_p = c->ttest.defined, c->p = c->ttest.p, c->why = c->ttest.why;
        break;
    case RT_TEST_WILCOXON:
        c->has_p = c->wilcoxon.defined, c->p = c->wilcoxon.p, c->why = c->wilcoxon.why;
        break;
    case RT_TEST_RANDOMIZATION:
        c->has_p = c->randomization.defined, c->p = c->randomization.p, c->why = c->randomization.why;
        break;
    case RT_TEST_BOOTSTRAP:
        c->has_p = c->boot.defined, c->p = c->boot.p, c->why = c->boot.why;
        break;
    }
}

/* The randomization and bootstrap of the comparisons that dropped no query, all at once. */
static void monte_carlo(const double *const *values, size_t nq, size_t nm, const rt_compare_opts *o, rt_comparison *c,
                        size_t n)
{
    int rand = !o->only_test || o->test == RT_TEST_RANDOMIZATION, boot = !o->only_test || o->test == RT_TEST_BOOTSTRAP;
    size_t *which = rt_calloc(n + 1, sizeof *which), m = 0;
    for (size_t k = 0; k < n; k++)
        if (!c[k].dropped && c[k].queries)
            which[m++] = k;
    if (!m || (!rand && !boot) || !nq) {
        free(which);
        return;
    }
    double *d = rt_malloc(nq * m * sizeof *d);
    for (size_t i = 0; i < nq; i++)
        for (size_t j = 0; j < m; j++) {
            const rt_comparison *x = &c[which[j]];
            d[i * m + j] = values[x->a][i * nm + x->measure] - values[x->b][i * nm + x->measure];
        }
    if (rand) {
        rt_test *t = rt_calloc(m, sizeof *t);
        rt_stats_randomization_many(d, nq, m, o->samples, o->seed, t);
        for (size_t j = 0; j < m; j++)
            c[which[j]].randomization = t[j];
        free(t);
    }
    if (boot) {
        double *lo = rt_calloc(m, sizeof *lo), *hi = rt_calloc(m, sizeof *hi);
        rt_test *p = rt_calloc(m, sizeof *p);
        int ok = rt_stats_bootstrap_many(d, nq, m, o->samples, o->seed, 0.025, 0.975, lo, hi, p);
        for (size_t j = 0; j < m; j++) {
            rt_comparison *x = &c[which[j]];
            x->has_boot = ok;
            x->boot_lo = lo[j];
            x->boot_hi = hi[j];
            x->boot = p[j];
        }
        free(lo);
        free(hi);
        free(p);
    }
    free(d);
    free(which);
}

/* Adjusts the p of the comparisons [from, to) of one measure: undefined ones count as p = 1 (they
 * are comparisons made), as statsmodels would be given them. */
static void adjust(rt_comparison *c, size_t from, size_t to, const rt_compare_opts *o)
{
    size_t m = to - from;
    double *p = rt_calloc(m + 1, sizeof *p), *adj = rt_calloc(m + 1, sizeof *adj);
    static const rt_correction all[3] = {RT_CORRECT_BONFERRONI, RT_CORRECT_HOLM, RT_CORRECT_BH};
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < m; i++)
            p[i] = c[from + i].ttest.defined ? c[from + i].ttest.p : 1;
        rt_stats_adjust(p, m, all[k], adj);
        for (size_t i = 0; i < m; i++)
            c[from + i].p_ttest_adj[k] = adj[i];
    }
    for (size_t i = 0; i < m; i++)
        p[i] = c[from + i].has_p ? c[from + i].p : 1;
    rt_stats_adjust(p, m, o->correction, adj);
    for (size_t i = 0; i < m; i++) {
        c[from + i].p_adj = adj[i];
        c[from + i].significant = c[from + i].has_p && adj[i] < o->alpha;
    }
    free(p);
    free(adj);
}

rt_status rt_compare_runs(const double *const *values, const unsigned char *const *defined, size_t nruns, size_t nq,
                          size_t nm, const rt_compare_opts *o, rt_comparison **out, size_t *n, rt_err *err)
{
    *out = NULL;
    *n = 0;
    if (nruns < 2)
        return rt_err_set(err, RT_EUSAGE, "a comparison needs at least two runs");
    if (o->samples == 0)
        return rt_err_set(err, RT_EUSAGE, "the randomization and bootstrap need at least one sample");
    if (o->baseline != (size_t)-1 && o->baseline >= nruns)
        return rt_err_set(err, RT_EUSAGE, "no run %zu to be the baseline", o->baseline);
    size_t per = o->baseline == (size_t)-1 ? nruns * (nruns - 1) / 2 : nruns - 1;
    rt_comparison *c = rt_calloc(per * nm + 1, sizeof *c);
    double *d = rt_calloc(nq + 1, sizeof *d);
    size_t k = 0;
    for (size_t m = 0; m < nm; m++)
        for (size_t a = 0; a < nruns; a++)
            for (size_t b = o->baseline == (size_t)-1 ? a + 1 : 0; b < nruns; b++) {
                if (o->baseline != (size_t)-1 && (b != o->baseline || a == o->baseline))
                    continue;
                c[k] = (rt_comparison){.measure = m, .a = a, .b = b};
                compare_one(values[a], defined[a], values[b], defined[b], nq, nm, m, o, &c[k], d);
                k++;
            }
    monte_carlo(values, nq, nm, o, c, k);
    for (size_t i = 0; i < k; i++)
        choose_p(o, &c[i]);
    for (size_t from = 0; from < k;) {   /* a measure's comparisons are adjusted together */
        size_t to = from;
        while (to < k && c[to].measure == c[from].measure)
            to++;
        adjust(c, from, to, o);
        from = to;
    }
    free(d);
    *out = c;
    *n = k;
    return RT_OK;
}
