/* rt_hash — a fast 64-bit hash for short byte strings (ids) and for 64-bit keys. Not
 * cryptographic; tables built on it always compare the full key, so collisions only cost time. */
#ifndef RT_HASH_H
#define RT_HASH_H

#include <stdint.h>
#include <string.h>

static inline uint64_t rt_hash_mix(uint64_t x)
{
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    return x;
}

/* Hashes len bytes at s, eight at a time. */
static inline uint64_t rt_hash_bytes(const void *s, size_t len)
{
    const unsigned char *p = s;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (len * 0xff51afd7ed558ccdULL);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ rt_hash_mix(w)) * 0x9fb21c651e98df25ULL;
        p += 8;
        len -= 8;
    }
    if (len) {
        uint64_t w = 0;
        memcpy(&w, p, len);
        h = (h ^ rt_hash_mix(w ^ 0xa0761d6478bd642fULL)) * 0x9fb21c651e98df25ULL;
    }
    return rt_hash_mix(h);
}

#endif
