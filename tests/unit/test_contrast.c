/* test_contrast — rank-biased overlap (extrapolated, Webber et al. 2010 eq. 32) and the Jaccard of
 * the top k, on rankings worked out by hand. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rt_contrast.h"
#include "tap.h"

#define EPS 1e-12

/* X_d, the overlap at depth d, of S (s passages) and L (l >= s): |S_{:d} ∩ L_{:d}|, and for d
 * beyond s |S ∩ L_{:d}|. deep: counted from X_{d-1} (what joins at depth d: S's passage d among
 * L's first d, L's passage d among S's first d - 1), for rankings too deep for counting each
 * depth afresh, which is cubic. */
static size_t overlap_at(const uint32_t *S, size_t s, const uint32_t *L, size_t d, size_t before, int deep)
{
    size_t x = deep ? before : 0;
    if (!deep) {
        for (size_t i = 0; i < (d < s ? d : s); i++)
            for (size_t j = 0; j < d; j++)
                x += S[i] == L[j];
        return x;
    }
    if (d <= s)
        for (size_t j = 0; j < d; j++)
            x += S[d - 1] == L[j];
    for (size_t i = 0; i < (d <= s ? d - 1 : s); i++)
        x += S[i] == L[d - 1];
    return x;
}

/* RBO_ext by its definition, depth by depth, X_d by overlap_at, summed in the same order as
 * rt_rbo, so the two agree bit for bit. */
static double rbo_reference(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, double p, int deep)
{
    const uint32_t *S = na <= nb ? a : b, *L = na <= nb ? b : a;
    size_t s = na <= nb ? na : nb, l = na <= nb ? nb : na;
    double sum = 0, pd = 1, xs = 0;
    size_t x = 0;
    for (size_t d = 1; d <= l; d++) {
        x = overlap_at(S, s, L, d, x, deep);
        pd *= p;
        sum += (double)x / (double)d * pd;
        if (d == s)
            xs = (double)x;
        if (d > s)
            sum += xs * (double)(d - s) / ((double)s * (double)d) * pd;
    }
    return (1 - p) / p * sum + ((double)(x - (size_t)xs) / (double)l + xs / (double)s) * pd;
}

/* Random rankings without repeats over a small pool of ids, so that they overlap. */
static size_t random_ranking(uint64_t *st, uint32_t *r, size_t max)
{
    size_t n = 0;
    *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
    size_t want = 1 + (size_t)(*st >> 33) % max;
    while (n < want) {
        *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t id = (uint32_t)(*st >> 40) % (uint32_t)(2 * max);
        int dup = 0;
        for (size_t k = 0; k < n; k++)
            dup |= r[k] == id;
        if (!dup)
            r[n++] = id;
    }
    return n;
}

int main(void)
{
    double v;
    const uint32_t abc[] = {1, 2, 3}, acb[] = {1, 3, 2}, ab[] = {1, 2}, xyz[] = {7, 8, 9};
    ok(rt_rbo(abc, 3, abc, 3, 0.9, &v) && fabs(v - 1) < EPS, "identical rankings: RBO 1");
    ok(rt_rbo(ab, 2, abc, 3, 0.9, &v) && fabs(v - 1) < EPS, "a prefix of the other: RBO_ext 1 (agreement extrapolated)");
    ok(rt_rbo(abc, 3, xyz, 3, 0.9, &v) && v == 0, "disjoint: 0");
    /* X = 1, 1, 3: (0.1/0.9)(0.9 + 0.405 + 0.729) + 0.729 = 0.955 */
    ok(rt_rbo(abc, 3, acb, 3, 0.9, &v) && fabs(v - 0.955) < EPS, "a b c / a c b: 0.955");
    /* S = b a e (s 3), L = a b c d (l 4): X = 0, 2, 2, 2: 0.63 */
    const uint32_t bae[] = {2, 1, 5}, abcd[] = {1, 2, 3, 4};
    ok(rt_rbo(abcd, 4, bae, 3, 0.9, &v) && fabs(v - 0.63) < 1e-12, "uneven lengths: 0.63");
    ok(rt_rbo(bae, 3, abcd, 4, 0.9, &v) && fabs(v - 0.63) < 1e-12, "symmetric");
    ok(rt_rbo(abc, 3, abc, 0, 0.9, &v) && v == 0, "one empty: 0");
    ok(!rt_rbo(abc, 0, abc, 0, 0.9, &v), "both empty: undefined");
    ok(rt_jaccard(abc, 3, acb, 3, 2, &v) && fabs(v - 1.0 / 3) < EPS, "Jaccard@2 of a b / a c: 1/3");
    ok(rt_jaccard(abcd, 4, bae, 3, 10, &v) && fabs(v - 2.0 / 5) < EPS, "Jaccard@10 of a b c d / b a e: 2/5");
    ok(rt_jaccard(abc, 3, xyz, 3, 3, &v) && v == 0, "disjoint: 0");
    ok(!rt_jaccard(abc, 0, abc, 0, 3, &v), "both empty: undefined");
    uint64_t st = 42;
    int same = 1;
    for (int t = 0; t < 3000; t++) {
        uint32_t x[60], y[60];
        size_t nx = random_ranking(&st, x, 60), ny = random_ranking(&st, y, t % 7 ? 60 : 8);
        double want = rbo_reference(x, nx, y, ny, 0.9, 0), got = -1;
        same &= rt_rbo(x, nx, y, ny, 0.9, &got) && memcmp(&got, &want, sizeof got) == 0;
    }
    ok(same, "3,000 random pairs of rankings (1-60 deep, overlapping): RBO equal bit for bit to the definition");
    /* deep rankings: the table on the stack (below 1,024 passages) and allocated (from 1,024) */
    static uint32_t x[3000], y[3000];
    same = 1;
    int jsame = 1;
    for (int t = 0; t < 12; t++) {
        size_t nx = 1000 + (size_t)t * 170, ny = t % 3 ? nx - (size_t)t * 20 : 1023 + (size_t)t;
        for (size_t i = 0; i < nx; i++)   /* distinct ids, y a shuffled mix of x's and its own */
            x[i] = (uint32_t)(i * 7919u + (uint32_t)t);
        for (size_t i = 0; i < ny; i++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            y[i] = (st >> 40) % 3 ? x[(i * 31 + (size_t)t) % nx] : (uint32_t)(100000000u + i);
        }
        for (size_t i = 0; i < ny; i++)   /* no repeats in y: later copies become ids of their own */
            for (size_t k = 0; k < i; k++)
                if (y[k] == y[i]) {
                    y[i] = (uint32_t)(200000000u + i);
                    break;
                }
        double want = rbo_reference(x, nx, y, ny, 0.9, 1), got = -1;
        same &= rt_rbo(x, nx, y, ny, 0.9, &got) && memcmp(&got, &want, sizeof got) == 0;
        size_t k = nx < ny ? nx : ny, common = 0;
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < k; j++)
                common += x[i] == y[j];
        jsame &= rt_jaccard(x, nx, y, ny, k, &got) && fabs(got - (double)common / (double)(2 * k - common)) < EPS;
    }
    ok(same, "12 pairs of deep rankings (1,000-2,870 passages): RBO equal bit for bit to the definition");
    ok(jsame, "and their Jaccard over the top 1,000 and more: the count by brute force");
    /* the table's edges: 1,023 passages (the last on the stack), 1,024 and 1,025 (allocated), ids
     * from 0 and up to UINT32_MAX - 1 (the largest an id can be: UINT32_MAX is RT_NO_ID), and a k
     * beyond any ranking's depth for Jaccard */
    static const size_t edge[] = {1, 1023, 1024, 1025};
    same = 1;
    jsame = 1;
    for (int base = 0; base < 2; base++)
        for (size_t ei = 0; ei < 4; ei++)
            for (size_t ej = 0; ej < 4; ej++) {
                size_t nx = edge[ei], ny = edge[ej];
                uint32_t off = base ? UINT32_MAX - 1 - 3 * 1024 - 2 : 0;
                for (size_t i = 0; i < nx; i++)
                    x[i] = off + (uint32_t)(3 * (nx - 1 - i) + (size_t)base);   /* base 0: down to id 0 */
                for (size_t i = 0; i < ny; i++) {
                    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
                    y[i] = off + (uint32_t)(3 * i + (size_t)base + (st >> 40) % 2);   /* half x's; up to UINT32_MAX - 1 */
                }
                double want = rbo_reference(x, nx, y, ny, 0.9, 1), got = -1;
                same &= rt_rbo(x, nx, y, ny, 0.9, &got) && memcmp(&got, &want, sizeof got) == 0;
                size_t common = 0;
                for (size_t i = 0; i < nx; i++)
                    for (size_t j = 0; j < ny; j++)
                        common += x[i] == y[j];
                jsame &= rt_jaccard(x, nx, y, ny, SIZE_MAX, &got) && fabs(got - (double)common / (double)(nx + ny - common)) < EPS;
            }
    ok(same, "rankings of 1, 1,023, 1,024 and 1,025 passages, ids from 0 and up to UINT32_MAX - 1: RBO equal bit for bit to the definition");
    ok(jsame, "and their Jaccard with k beyond both rankings (SIZE_MAX): the count by brute force");
    return tap_done();
}
