/* rt_rng — splitmix64 (Steele, Lea and Flood 2014): one addition and two multiply-xorshifts. */
#include "config.h"

#include "rt_rng.h"

uint64_t rt_rng_next(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t rt_rng_below(uint64_t *state, uint64_t n)
{
    /* Reject the top sliver of the 64-bit range that does not divide evenly by n. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do
        r = rt_rng_next(state);
    while (r >= limit);
    return r % n;
}

uint64_t rt_rng_below_fast(uint64_t *state, uint64_t n)
{
    /* Lemire (2019): the high half of r·n; reject the few low halves that would bias it. */
    __extension__ typedef unsigned __int128 u128;
    uint64_t x = rt_rng_next(state);
    u128 m = (u128)x * n;
    uint64_t l = (uint64_t)m;
    if (l < n) {
        uint64_t t = (0 - n) % n;
        while (l < t) {
            x = rt_rng_next(state);
            m = (u128)x * n;
            l = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}
