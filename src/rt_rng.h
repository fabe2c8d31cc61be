/* rt_rng — the project's one pseudo-random generator (splitmix64): a 64-bit state a seed sets,
 * so that samples, randomization tests and bootstraps give the same numbers everywhere. */
#ifndef RT_RNG_H
#define RT_RNG_H

#include <stdint.h>

/* The next 64 random bits; advances *state. */
uint64_t rt_rng_next(uint64_t *state);

/* A uniform integer in [0, n) without modulo bias (n > 0). */
uint64_t rt_rng_below(uint64_t *state, uint64_t n);

/* The same without a division (Lemire's multiply-and-reject): as unbiased, another sequence of
 * values; the bootstrap's resampling. */
uint64_t rt_rng_below_fast(uint64_t *state, uint64_t n);

#endif
