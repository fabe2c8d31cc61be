/* rt_mem — checked allocation. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

void *rt_malloc(size_t n) { return check(malloc(n ? n : 1), n ? n : 1); }

void *rt_calloc(size_t count, size_t size)
{
    return check(calloc(count ? count : 1, size ? size : 1), count * size + 1);
}

void *rt_realloc(void *p, size_t n) { return check(realloc(p, n ? n : 1), n ? n : 1); }

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
