/* pages.h — for tests: which pages of a range are mapped into this process, and which are in the
 * page cache. */
#ifndef RT_TEST_PAGES_H
#define RT_TEST_PAGES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

/* How many of the pages of [p, p + len) are mapped into this process (/proc/self/pagemap's
 * present bit), or -1 when that cannot be read. */
static inline long present_pages(const void *p, size_t len)
{
    FILE *f = fopen("/proc/self/pagemap", "rb");
    if (!f)
        return -1;
    long n = 0;
    for (uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095; a < (uintptr_t)p + len; a += 4096) {
        uint64_t e;
        if (fseek(f, (long)(a / 4096 * 8), SEEK_SET) != 0 || fread(&e, 8, 1, f) != 1) {
            fclose(f);
            return -1;
        }
        n += (long)(e >> 63);
    }
    fclose(f);
    return n;
}

/* How many of the pages of a mapping of len bytes at p (page-aligned) are in the page cache
 * (mincore), or -1 when that cannot be told. */
static inline long cached_pages(const void *p, size_t len)
{
    size_t np = (len + 4095) / 4096;
    unsigned char *v = malloc(np ? np : 1);
    long n = v && mincore((void *)p, len, v) == 0 ? 0 : -1;
    for (size_t i = 0; n >= 0 && i < np; i++)
        n += v[i] & 1;
    free(v);
    return n;
}

#endif
