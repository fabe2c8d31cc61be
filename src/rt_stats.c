/* rt_stats — paired tests and corrections in double precision. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_rng.h"
#include "rt_stats.h"

/* ---- distributions ------------------------------------------------------------------------ */

/* The continued fraction of the incomplete beta function, evaluated by the modified Lentz
 * method; converges fast for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < tiny)
        d = tiny;
    d = 1 / d;
    double f = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));   /* the even step */
        d = 1 + num * d;
        c = 1 + num / c;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        f *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));   /* the odd step */
        d = 1 + num * d;
        c = 1 + num / c;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        double step = d * c;
        f *= step;
        if (fabs(step - 1) < 1e-16)
            break;
    }
    return f;
}

double rt_stats_betainc(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lfront) * beta_cf(a, b, x) / a;
    return 1 - exp(lfront) * beta_cf(b, a, 1 - x) / b;   /* I_x(a,b) = 1 - I_{1-x}(b,a) */
}

double rt_stats_t_sf(double t, double df)
{
    double tail = 0.5 * rt_stats_betainc(df / 2, 0.5, df / (df + t * t));
    return t >= 0 ? tail : 1 - tail;
}

static double normal_sf(double z) { return 0.5 * erfc(z / sqrt(2.0)); }

/* ---- tests -------------------------------------------------------------------------------- */

static rt_test undefined(const char *why) { return (rt_test){.defined = 0, .why = why}; }

/* True when every d[i] is the same value: then the spread is exactly 0, whatever rounding the
 * sum of squares would leave. */
static int constant(const double *d, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (d[i] != d[0])
            return 0;
    return 1;
}

/* True when the spread sd of d is only rounding: the differences are one value worked out along
 * different paths (0.5 − 1/6 and 1/3 − 0 differ in the last bit), and dividing by it would give a
 * t of 10^16. Per-query measures are ratios of small integers, whose real differences are far
 * above 10^-12 of their size. */
static int no_spread(const double *d, size_t n, double sd)
{
    double top = 0;
    for (size_t i = 0; i < n; i++)
        top = fmax(top, fabs(d[i]));
    return constant(d, n) || sd <= 1e-12 * top;
}

static void mean_sd(const double *d, size_t n, double *mean, double *sd)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += d[i];
    *mean = s / (double)n;
    double v = 0;
    for (size_t i = 0; i < n; i++)
        v += (d[i] - *mean) * (d[i] - *mean);
    *sd = n > 1 ? sqrt(v / (double)(n - 1)) : 0;
}

rt_test rt_stats_ttest(const double *d, size_t n)
{
    if (n < 2)
        return undefined("the t-test needs at least two queries");
    double mean, sd;
    mean_sd(d, n, &mean, &sd);
    if (no_spread(d, n, sd))
        return undefined("every query has the same difference (no variance)");
    double t = mean / (sd / sqrt((double)n));
    return (rt_test){.defined = 1, .stat = t, .p = 2 * rt_stats_t_sf(fabs(t), (double)(n - 1))};
}

static int by_abs(const void *x, const void *y)
{
    double a = fabs(*(const double *)x), b = fabs(*(const double *)y);
    return a < b ? -1 : a > b;
}

rt_test rt_stats_wilcoxon(const double *d, size_t n)
{
    if (n == 0)
        return undefined("no query to compare");
    double *nz = rt_malloc((n + 1) * sizeof *nz);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (d[i] != 0)
            nz[m++] = d[i];
    if (m < 2) {   /* one signed rank is no test: its z of -1 would read as p = 0.32 */
        free(nz);
        return undefined(m ? (n == 1 ? "the signed-rank test needs at least two queries"
                                     : "only one query differs: too few for the signed-rank test")
                           : "every difference is zero");
    }
    qsort(nz, m, sizeof *nz, by_abs);
    double rplus = 0, rminus = 0, ties = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && fabs(nz[j]) == fabs(nz[i]))
            j++;
        double rank = ((double)i + 1 + (double)j) / 2, t = (double)(j - i);   /* ranks i+1 … j */
        for (size_t k = i; k < j; k++) {
            if (nz[k] > 0)
                rplus += rank;
            else
                rminus += rank;
        }
        ties += t * (t * t - 1);
        i = j;
    }
    free(nz);
    double dm = (double)m, T = rplus < rminus ? rplus : rminus;
    double var = (dm * (dm + 1) * (2 * dm + 1) - ties / 2) / 24;
    if (var <= 0)
        return undefined("no variance in the signed ranks");
    double z = (T - dm * (dm + 1) / 4) / sqrt(var);
    return (rt_test){.defined = 1, .stat = z, .p = 2 * normal_sf(fabs(z))};
}

rt_test rt_stats_randomization(const double *d, size_t n, size_t samples, uint64_t seed)
{
    rt_test t;   /* the same code as many comparisons at once, so the figures are the same */
    rt_stats_randomization_many(d, n, 1, samples, seed, &t);
    return t;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

int rt_stats_bootstrap(const double *d, size_t n, size_t samples, uint64_t seed, double lo_q,
                       double hi_q, double *lo, double *hi)
{
    return rt_stats_bootstrap_test(d, n, samples, seed, lo_q, hi_q, lo, hi, NULL);
}

int rt_stats_bootstrap_test(const double *d, size_t n, size_t samples, uint64_t seed, double lo_q, double hi_q,
                            double *lo, double *hi, rt_test *p)
{
    rt_test q;   /* the same code as many comparisons at once */
    int ok = rt_stats_bootstrap_many(d, n, 1, samples, seed, lo_q, hi_q, lo, hi, &q);
    if (p)
        *p = q;
    return ok;
}

int rt_stats_effect_size(const double *d, size_t n, double *dz)
{
    if (n < 2)
        return 0;
    double mean, sd;
    mean_sd(d, n, &mean, &sd);
    if (no_spread(d, n, sd))
        return 0;
    *dz = mean / sd;
    return 1;
}

/* ---- corrections -------------------------------------------------------------------------- */

typedef struct ranked {
    double p;
    size_t i;
} ranked;

static int by_p(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->i > b->i) - (a->i < b->i);
}

void rt_stats_adjust(const double *p, size_t m, rt_correction c, double *adj)
{
    if (m == 0)
        return;
    ranked *r = rt_malloc(m * sizeof *r);
    for (size_t i = 0; i < m; i++)
        r[i] = (ranked){p[i], i};
    qsort(r, m, sizeof *r, by_p);
    double *out = rt_malloc(m * sizeof *out);
    switch (c) {
    case RT_CORRECT_NONE:
        for (size_t i = 0; i < m; i++)
            out[r[i].i] = r[i].p;
        break;
    case RT_CORRECT_BONFERRONI:
        for (size_t i = 0; i < m; i++)
            out[r[i].i] = fmin(1, r[i].p * (double)m);
        break;
    case RT_CORRECT_HOLM: {
        double run = 0;   /* step-down: the running maximum keeps the order */
        for (size_t k = 0; k < m; k++) {
            run = fmax(run, fmin(1, r[k].p * (double)(m - k)));
            out[r[k].i] = run;
        }
        break;
    }
    case RT_CORRECT_BH: {
        double run = 1;   /* step-up: the running minimum from the largest p down */
        for (size_t k = m; k-- > 0;) {
            run = fmin(run, r[k].p * (double)m / (double)(k + 1));
            out[r[k].i] = fmin(1, run);
        }
        break;
    }
    }
    memcpy(adj, out, m * sizeof *adj);
    free(out);
    free(r);
}

/* ---- several comparisons over the same queries at once ------------------------------------ */

/* A share of the work: comparisons [c0, c1), packed in blocks of 8 (block b holds comparisons
 * c0 + 8b … c0 + 8b + 7, row i of it at pk[(b · n + i) · 8], zeros past c1), so that a query's
 * values of a block sit in one cache line and its 8 sums stay in registers. Each share draws the
 * whole random sequence itself (cheap), so the figures do not depend on how the work is shared;
 * every comparison's sum runs over the queries in order, as a single one would. */
typedef struct share {
    const double *d;      /* n × m, row-major */
    size_t n, m, c0, c1, samples;
    uint64_t seed;
    const double *obs, *eps;
    size_t *hits;         /* randomization */
    struct boot *boot;    /* bootstrap: boot[c - first], what is kept of comparison c's resamples */
    size_t first;         /* the comparison boot[] starts at */
} share;

#define BLOCK 8

static double *pack(const share *w, size_t *nblocks)
{
    size_t k = w->c1 - w->c0, nb = (k + BLOCK - 1) / BLOCK;
    double *pk = rt_calloc(nb * w->n * BLOCK + 1, sizeof *pk);
    for (size_t c = 0; c < k; c++)
        for (size_t i = 0; i < w->n; i++)
            pk[((c / BLOCK) * w->n + i) * BLOCK + c % BLOCK] = w->d[i * w->m + w->c0 + c];
    *nblocks = nb;
    return pk;
}

static void *randomize_share(void *arg)
{
    share *w = arg;
    size_t nb, k = w->c1 - w->c0;
    double *pk = pack(w, &nb), *sign = rt_malloc((w->n + 1) * sizeof *sign);
    uint64_t st = w->seed, bits = 0;
    for (size_t s = 0; s < w->samples; s++) {
        for (size_t i = 0; i < w->n; i++) {   /* one sign vector for every comparison */
            if (i % 64 == 0)
                bits = rt_rng_next(&st);
            sign[i] = 1.0 - 2.0 * (double)(bits & 1);   /* ±1: sign·x is exactly ±x */
            bits >>= 1;
        }
        for (size_t b = 0; b < nb; b++) {
            const double *rows = pk + b * w->n * BLOCK;
            double a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;   /* in registers */
            for (size_t i = 0; i < w->n; i++) {
                const double *r = rows + i * BLOCK, x = sign[i];
                a0 += x * r[0], a1 += x * r[1], a2 += x * r[2], a3 += x * r[3];
                a4 += x * r[4], a5 += x * r[5], a6 += x * r[6], a7 += x * r[7];
            }
            const double acc[BLOCK] = {a0, a1, a2, a3, a4, a5, a6, a7};
            for (int j = 0; j < BLOCK && b * BLOCK + (size_t)j < k; j++) {
                size_t c = w->c0 + b * BLOCK + (size_t)j;
                w->hits[c] += fabs(acc[j]) >= w->obs[c] - w->eps[c];
            }
        }
    }
    free(sign);
    free(pk);
    return NULL;
}

/* ---- the bootstrap's figures, streamed ---------------------------------------------------
 * A percentile needs two order statistics of the resample means, i and i + 1 with i =
 * floor(q·(samples − 1)): the i + 2 smallest means hold them, or the samples − i largest,
 * whichever are fewer. So a comparison keeps only that tail of each quantile (for 2.5% and 97.5%,
 * 2.5% of the means each) in a heap, and counts the means at or below and at or above 0 for the
 * p: the figures are exactly those of sorting every mean, in a twentieth of the memory, and no
 * sort's copy (tests/bench/PERF.md). */

/* The cap smallest values of y seen (y = x for a low tail, −x for a high one), in a max-heap. */
typedef struct tail {
    double *v;
    size_t cap, len;
    int high;            /* keeps the largest x (stored negated) */
    size_t base;         /* the order statistic (0-based, ascending in x) of the smallest kept */
} tail;

typedef struct boot {
    tail t[2];           /* for lo_q and hi_q */
    size_t le, ge;       /* means <= 0, >= 0 */
} boot;

static void tail_init(tail *t, size_t samples, double q)
{
    size_t i = (size_t)floor(q * (double)(samples - 1));
    size_t low = i + 2 < samples ? i + 2 : samples, high = samples - i;
    t->high = high < low;
    t->cap = t->high ? high : low;
    t->base = t->high ? i : 0;
    t->len = 0;
    t->v = rt_malloc((t->cap + 1) * sizeof *t->v);
}

static void tail_push(tail *t, double x)
{
    double y = t->high ? -x : x, *v = t->v;
    size_t at;
    if (t->len < t->cap) {   /* sift up */
        at = t->len++;
        while (at > 0 && v[(at - 1) / 2] < y) {
            v[at] = v[(at - 1) / 2];
            at = (at - 1) / 2;
        }
        v[at] = y;
        return;
    }
    if (!(y < v[0]))
        return;   /* not among the cap smallest */
    at = 0;   /* replace the largest kept, sift down */
    for (;;) {
        size_t c = 2 * at + 1;
        if (c >= t->len)
            break;
        if (c + 1 < t->len && v[c + 1] > v[c])
            c++;
        if (!(v[c] > y))
            break;
        v[at] = v[c];
        at = c;
    }
    v[at] = y;
}

static void boot_add(boot *b, double x)
{
    b->le += x <= 0;
    b->ge += x >= 0;
    tail_push(&b->t[0], x);
    tail_push(&b->t[1], x);
}

/* The q quantile of all samples from the kept tail, with numpy's linear interpolation: the
 * same arithmetic on the same order statistics as over every mean sorted. Sorts the tail. */
static double tail_quantile(tail *t, size_t samples, double q)
{
    for (size_t k = 0; k < t->len; k++)
        t->v[k] = t->high ? -t->v[k] : t->v[k];
    qsort(t->v, t->len, sizeof *t->v, by_value);
    double pos = q * (double)(samples - 1);
    size_t i = (size_t)floor(pos);
    if (i + 1 >= samples)
        return t->v[samples - 1 - t->base];
    const double *s = t->v + (i - t->base);   /* s[0] is order statistic i */
    return s[0] + (pos - (double)i) * (s[1] - s[0]);
}

/* Uniform indices below n (< 2^32) from 32-bit halves of the generator's words, two a call
 * (Lemire's multiply-and-reject on 32 bits, t = 2^32 mod n: unbiased). */
typedef struct halves {
    uint64_t st, word;
    int left;
} halves;

static uint32_t below32(halves *h, uint32_t n, uint32_t t)
{
    for (;;) {
        if (!h->left) {
            h->word = rt_rng_next(&h->st);
            h->left = 2;
        }
        uint32_t x = (uint32_t)h->word;
        h->word >>= 32;
        h->left--;
        uint64_t m = (uint64_t)x * n;
        if ((uint32_t)m >= t)
            return (uint32_t)(m >> 32);
    }
}

static void *resample_share(void *arg)
{
    share *w = arg;
    size_t nb, k = w->c1 - w->c0;
    double *pk = pack(w, &nb);
    uint32_t *idx = rt_malloc((w->n + 1) * sizeof *idx);
    halves h = {.st = w->seed};
    uint32_t n32 = (uint32_t)w->n, t = (0u - n32) % n32;   /* the rejection threshold, once */
    for (size_t s = 0; s < w->samples; s++) {
        for (size_t i = 0; i < w->n; i++)   /* one resample for every comparison */
            idx[i] = below32(&h, n32, t);
        for (size_t b = 0; b < nb; b++) {
            const double *rows = pk + b * w->n * BLOCK;
            double a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;   /* in registers */
            for (size_t i = 0; i < w->n; i++) {
                const double *r = rows + (size_t)idx[i] * BLOCK;
                a0 += r[0], a1 += r[1], a2 += r[2], a3 += r[3];
                a4 += r[4], a5 += r[5], a6 += r[6], a7 += r[7];
            }
            const double acc[BLOCK] = {a0, a1, a2, a3, a4, a5, a6, a7};
            for (int j = 0; j < BLOCK && b * BLOCK + (size_t)j < k; j++)
                boot_add(&w->boot[w->c0 + b * BLOCK + (size_t)j - w->first], acc[j] / (double)w->n);
        }
    }
    free(idx);
    free(pk);
    return NULL;
}

/* Runs fn over the comparisons [c0, c1) in two shares on two threads when there is enough work
 * (the machine has two cores), else in one. */
static void run_shares(share base, void *(*fn)(void *))
{
    share w[2] = {base, base};
    pthread_t th;
    size_t k = base.c1 - base.c0;
    int two = k >= 2 && (double)base.n * (double)base.samples * (double)k > 2e6;
    if (two) {
        w[0].c1 = base.c0 + k / 2;
        w[1].c0 = base.c0 + k / 2;
        two = pthread_create(&th, NULL, fn, &w[1]) == 0;
    }
    if (!two) {
        w[0] = base;
        fn(&w[0]);
        return;
    }
    fn(&w[0]);
    pthread_join(th, NULL);
}

void rt_stats_randomization_many(const double *d, size_t n, size_t m, size_t samples, uint64_t seed, rt_test *out)
{
    if (n < 2 || samples == 0) {   /* one query: both signs reach its |d|, nothing is tested */
        for (size_t c = 0; c < m; c++)
            out[c] = undefined(n == 0   ? "no query to compare"
                               : n == 1 ? "the randomization test needs at least two queries"
                                        : "no random sample was asked for");
        return;
    }
    double *obs = rt_calloc(m + 1, sizeof *obs), *eps = rt_calloc(m + 1, sizeof *eps);
    size_t *hits = rt_calloc(m + 1, sizeof *hits);
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < m; c++)
            obs[c] += d[i * m + c];
    for (size_t c = 0; c < m; c++) {
        obs[c] = fabs(obs[c]);
        eps[c] = 1e-12 * (obs[c] > 1 ? obs[c] : 1);
    }
    run_shares((share){.d = d, .n = n, .m = m, .c0 = 0, .c1 = m, .samples = samples, .seed = seed, .obs = obs,
                       .eps = eps, .hits = hits},
               randomize_share);
    for (size_t c = 0; c < m; c++)
        out[c] = (rt_test){.defined = 1, .stat = obs[c] / (double)n, .p = ((double)hits[c] + 1) / ((double)samples + 1)};
    free(obs);
    free(eps);
    free(hits);
}

#define BOOT_BYTES ((size_t)64 << 20)

/* The interval and the test of comparisons [first, last) from what their resamples left. The p
 * is twice the smaller share of means at or below and at or above 0, each counted as a Monte
 * Carlo p is, (count + 1) / (samples + 1): never 0 from a finite number of resamples. */
static void boot_figures(boot *bt, const double *d, size_t n, size_t m, size_t first, size_t last, size_t samples,
                         double lo_q, double hi_q, double *lo, double *hi, rt_test *p)
{
    for (size_t c = first; c < last; c++) {
        boot *b = &bt[c - first];
        lo[c] = tail_quantile(&b->t[0], samples, lo_q);
        hi[c] = tail_quantile(&b->t[1], samples, hi_q);
        double sum = 0, top = 0, d0 = d[c];
        int same = 1;
        for (size_t i = 0; i < n; i++) {
            sum += d[i * m + c];
            top = fmax(top, fabs(d[i * m + c]));
            same &= d[i * m + c] == d0;
        }
        double mean = sum / (double)n, v = 0;
        for (size_t i = 0; i < n; i++)
            v += (d[i * m + c] - mean) * (d[i * m + c] - mean);
        if (same || sqrt(v / (double)(n - 1)) <= 1e-12 * top) {   /* as the t-test's no_spread */
            p[c] = undefined("every query has the same difference: the resamples have no spread");
            continue;
        }
        size_t k = b->le < b->ge ? b->le : b->ge;
        double x = 2.0 * ((double)k + 1) / ((double)samples + 1);
        p[c] = (rt_test){.defined = 1, .stat = mean, .p = x > 1 ? 1 : x};
    }
}

int rt_stats_bootstrap_many(const double *d, size_t n, size_t m, size_t samples, uint64_t seed, double lo_q,
                            double hi_q, double *lo, double *hi, rt_test *p)
{
    if (n < 2 || samples == 0) {
        for (size_t c = 0; c < m; c++)
            p[c] = undefined(n == 0   ? "no query to resample"
                             : n == 1 ? "the bootstrap needs at least two queries"
                                      : "no random sample was asked for");
        return 0;
    }
    /* What each comparison keeps of its resamples (the tails of the two percentiles, see tail)
     * is kept for a group of comparisons at a time, so that many comparisons times many samples
     * stay within BOOT_BYTES (each group draws the same resamples, so the figures do not depend
     * on the grouping). */
    boot probe = {0};
    tail_init(&probe.t[0], samples, lo_q);
    tail_init(&probe.t[1], samples, hi_q);
    size_t each = (probe.t[0].cap + probe.t[1].cap) * sizeof(double);
    free(probe.t[0].v);
    free(probe.t[1].v);
    size_t group = BOOT_BYTES / each;
    group = group < 1 ? 1 : group > m ? m : group;
    boot *bt = rt_calloc(group, sizeof *bt);
    for (size_t first = 0; first < m; first += group) {
        size_t last = first + group < m ? first + group : m;
        for (size_t c = first; c < last; c++) {
            bt[c - first] = (boot){0};
            tail_init(&bt[c - first].t[0], samples, lo_q);
            tail_init(&bt[c - first].t[1], samples, hi_q);
        }
        run_shares((share){.d = d, .n = n, .m = m, .c0 = first, .c1 = last, .samples = samples, .seed = seed,
                           .boot = bt, .first = first},
                   resample_share);
        boot_figures(bt, d, n, m, first, last, samples, lo_q, hi_q, lo, hi, p);
        for (size_t c = first; c < last; c++) {
            free(bt[c - first].t[0].v);
            free(bt[c - first].t[1].v);
        }
    }
    free(bt);
    return 1;
}
