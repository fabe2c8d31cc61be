/* test_contrast — rank-biased overlap (extrapolated, Webber et al. 2010 eq. 32) and the Jaccard of
 * the top k, on rankings worked out by hand. */
#include "config.h"

#include <math.h>

#include "rt_contrast.h"
#include "tap.h"

#define EPS 1e-12

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
    return tap_done();
}
