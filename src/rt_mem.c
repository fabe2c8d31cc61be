/* rt_mem — checked allocation. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <sys/mman.h>

#include "rt_mem.h"

static void *check(void *p, size_t n)
{
    if (!p && n) {
        fprintf(stderr, "retriage: out of memory (%zu bytes)\n", n);
        abort();
    }
    return p;
}

/* Big blocks (BIG bytes and more) are offered huge pages. On a virtual machine the first write to
 * a 4 KiB page can cost 15 µs (it dominated reading 40,000 qrels lines, and a first open of MS
 * MARCO writes over a gigabyte of arrays: 480,000 faults); a 2 MiB page costs one. rt_mem_init
 * has every big block mapped on its own, so that realloc moves one by remapping its pages,
 * without a copy or two copies in memory at once. */
#define BIG ((size_t)2 << 20)

void rt_mem_init(void)
{
#ifdef M_MMAP_THRESHOLD
    mallopt(M_MMAP_THRESHOLD, (int)BIG);      /* (fixed: no longer raised as blocks are freed) */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);      /* freed heap pages are kept to be written again */
#endif
}

/* Marks the pages of p's block for huge pages, all of them (the block's usable size reaches the
 * end of its mapping), so that the mapping stays one piece that realloc can remap. */
static void *offer_huge(void *p)
{
#ifdef MADV_HUGEPAGE
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095;
    uintptr_t b = ((uintptr_t)p + malloc_usable_size(p) + 4095) & ~(uintptr_t)4095;
    (void)madvise((void *)a, b - a, MADV_HUGEPAGE);   /* a hint: refused is fine */
#endif
    return p;
}

void *rt_malloc(size_t n)
{
    void *p = check(malloc(n ? n : 1), n ? n : 1);
    return n >= BIG ? offer_huge(p) : p;
}

void *rt_calloc(size_t count, size_t size)
{
    void *p = check(calloc(count ? count : 1, size ? size : 1), count * size + 1);
    return count * size >= BIG ? offer_huge(p) : p;   /* zeroed lazily by the system */
}

void *rt_realloc(void *p, size_t n)
{
    if (n < BIG)
        return check(realloc(p, n ? n : 1), n ? n : 1);
    size_t old = p ? malloc_usable_size(p) : 0;
    if (old < BIG) {   /* becoming big: marked before the copy (under 2 MiB) writes it */
        void *q = rt_malloc(n);
        if (p) {
            memcpy(q, p, old);
            free(p);
        }
        return q;
    }
    return offer_huge(check(realloc(p, n), n));   /* remapped; its new pages offered huge */
}

void *rt_reallocarray(void *p, size_t count, size_t size)
{
    if (size && count > (size_t)-1 / size) {
        fprintf(stderr, "retriage: allocation overflow (%zu x %zu)\n", count, size);
        abort();
    }
    return rt_realloc(p, count * size);
}

char *rt_strndup(const char *s, size_t n)
{
    char *d = rt_malloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *rt_strdup(const char *s) { return rt_strndup(s, strlen(s)); }

void *rt_grow_index(void *p, size_t *len, size_t index, size_t size, int fill)
{
    if (index < *len)
        return p;
    size_t n = *len ? *len : 64;
    while (n <= index)
        n *= 2;
    p = rt_reallocarray(p, n, size);
    memset((char *)p + *len * size, fill, (n - *len) * size);
    *len = n;
    return p;
}

void rt_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    enum { HUGE = 2u << 20 };
    uintptr_t a = ((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
    uintptr_t b = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE - 1);
    if (b > a)
        (void)madvise((void *)a, b - a, MADV_HUGEPAGE);   /* a hint: refused is fine */
#else
    (void)p;
    (void)bytes;
#endif
}

void *rt_reserve(size_t bytes)
{
    enum { HUGE = 2u << 20 };
    size_t span = bytes + HUGE;
    char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *a = (char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
    if (a > m)   /* the unaligned head and tail go back */
        munmap(m, (size_t)(a - m));
    if (m + span > a + bytes)
        munmap(a + bytes, (size_t)(m + span - (a + bytes)));
#ifdef MADV_HUGEPAGE
    (void)madvise(a, bytes, MADV_HUGEPAGE);   /* a hint: refused is fine */
#endif
    return a;
}

void rt_unreserve(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes);
}
