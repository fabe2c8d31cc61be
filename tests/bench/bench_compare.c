/* bench_compare — the comparison issue 12 sets as a target: 5 runs against a baseline, 3
 * measures, 7,000 queries, randomization and bootstrap with 10^4 samples each (rt_compare with
 * every test), and the live marker's cost: the t-test of 6 runs × 3 measures (what the metrics
 * panel recomputes after a relabel). Per-query values are synthetic (RR-like: 0, 1/k). Prints the
 * wall times; then the bootstrap of one comparison of 50 queries with BIG samples (default 10^7)
 * and the process's peak memory (issue 33: every resample mean was kept and sorted, 1.2 GB at
 * 10^8; now the percentiles' tails, 5% of them). Usage: bench_compare [QUERIES] [SAMPLES] [BIG] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "rt_compare.h"
#include "rt_rng.h"
#include "rt_stats.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    size_t nq = argc > 1 ? strtoul(argv[1], NULL, 10) : 7000, samples = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000;
    size_t nr = 6, nm = 3;
    double *v[6];
    unsigned char *d[6];
    uint64_t st = 42;
    for (size_t r = 0; r < nr; r++) {
        v[r] = malloc(nq * nm * sizeof **v);
        d[r] = malloc(nq * nm);
        for (size_t i = 0; i < nq * nm; i++) {
            uint64_t k = rt_rng_below(&st, 12 + r);
            v[r][i] = k < 10 ? 1.0 / (double)(k + 1) : 0;
            d[r][i] = 1;
        }
    }
    rt_compare_opts o = {.test = RT_TEST_RANDOMIZATION, .correction = RT_CORRECT_HOLM, .alpha = 0.05,
                         .samples = samples, .seed = 1, .baseline = 0};
    rt_comparison *c;
    size_t n;
    rt_err err;
    double t0 = now_s();
    rt_compare_runs((const double *const *)v, (const unsigned char *const *)d, nr, nq, nm, &o, &c, &n, &err);
    double full = now_s() - t0;
    printf("bench_compare: %zu runs vs a baseline x %zu measures x %zu queries, t-test + Wilcoxon + randomization "
           "+ bootstrap (%zu samples each): %.3f s (target < 1 s); e.g. p %.4f\n", nr - 1, nm, nq, samples, full, c[0].p);
    free(c);
    o.only_test = 1;
    o.test = RT_TEST_TTEST;
    int reps = 20;
    t0 = now_s();
    for (int k = 0; k < reps; k++) {
        rt_compare_runs((const double *const *)v, (const unsigned char *const *)d, nr, nq, nm, &o, &c, &n, &err);
        free(c);
    }
    printf("live markers (t-test only, the same comparisons): %.2f ms (target < 5 ms after a relabel)\n",
           (now_s() - t0) / reps * 1e3);
    for (size_t r = 0; r < nr; r++) {
        free(v[r]);
        free(d[r]);
    }
    size_t big = argc > 3 ? strtoul(argv[3], NULL, 10) : 10000000;
    double diff[50], lo, hi;
    for (size_t i = 0; i < 50; i++)
        diff[i] = (double)rt_rng_below(&st, 9) / 8.0 - 0.45;
    rt_test p;
    t0 = now_s();
    rt_stats_bootstrap_test(diff, 50, big, 1, 0.025, 0.975, &lo, &hi, &p);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("bootstrap, 50 queries x %zu samples: %.2f s, [%.4f, %.4f] p %.4f; peak memory of the process %.0f MB "
           "(every mean would be %.0f MB)\n", big, now_s() - t0, lo, hi, p.p, (double)ru.ru_maxrss / 1024,
           (double)big * 8 / 1e6);
    return 0;
}
