/* rt_mem — checked allocation. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rt_mem.h"

static rt_mem_exhausted_fn exhausted;

void rt_mem_on_exhausted(rt_mem_exhausted_fn fn)
{
    exhausted = fn;
}

/* The program's handler ends the process its own way (a message, exit 2); without one (the
 * tests, the fuzz targets) the old way: one line and abort. */
static void out_of_memory(size_t n)
{
    if (exhausted)
        exhausted(n);
    fprintf(stderr, "retriage: out of memory (%zu bytes)\n", n);
    abort();
}

static void *check(void *p, size_t n)
{
    if (!p && n)
        out_of_memory(n);
    return p;
}

/* Big blocks (BIG bytes and more) are offered huge pages: the first write to each 4 KiB page is a
 * fault, dear on a virtual machine, where a 2 MiB page takes one fault for 512 of them
 * (tests/bench/PERF.md has the costs). rt_mem_init has every big block mapped on its own; a big
 * block starts on the 2 MiB grid and spans whole huge pages, because the kernel gives huge pages
 * only to aligned 2 MiB spans: a block malloc maps where it likes has 4 KiB pages at both ends,
 * up to 4 MiB of them, and a block that realloc remaps to a new place keeps its old pages and
 * gains new ends. So a big block grows by moving into a new aligned block: a copy, at a tenth of
 * the cost of the faults it saves, made rare by the room the new block has (malloc_room). */
#define BIG ((size_t)2 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

/* Whether a moved array gets room to grow in place (malloc_room): not where address space is
 * what is counted — strict overcommit accounting (vm.overcommit_memory 2), a limit on it
 * (ulimit -v) or on the data segment (ulimit -d, which counts private mappings) — as there the
 * room would use up what other blocks need. And never more room than half the memory: a
 * mapping larger than the memory is refused outright (and a refusal is fatal under ASan). */
static int room_ok = 1;
static size_t room_cap = (size_t)4 << 30;

void rt_mem_init(void)
{
#ifdef M_MMAP_THRESHOLD
    mallopt(M_MMAP_THRESHOLD, (int)BIG);      /* (fixed: no longer raised as blocks are freed) */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);      /* freed heap pages are kept to be written again */
#endif
    struct rlimit lim;
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        room_ok = 0;
    if (getrlimit(RLIMIT_DATA, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        room_ok = 0;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        room_cap = (size_t)pages / 2 * (size_t)page;
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    if (f) {
        int mode = 0;
        if (fscanf(f, "%d", &mode) == 1 && mode == 2)
            room_ok = 0;
        fclose(f);
    }
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

/* A big block: 2 MiB-aligned, whole huge pages, offered huge pages before any is written. */
static void *malloc_big(size_t n)
{
    void *p = NULL;
    size_t span = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (span < n || posix_memalign(&p, HUGE_PAGE, span) != 0)
        p = NULL;
    return offer_huge(check(p, n));
}

/* A block for an array outgrowing its own: whole huge pages, and ROOM times the size asked for
 * (at least ROOM_MIN) of address space, which costs memory only where it is written. Grown by
 * doubling, an array then moves (a copy into fresh pages) every fourth time at most, not every
 * time: every move writes the whole array into fresh pages, each a fault (each of a run's
 * arrays would otherwise be written again at half, a quarter, ... of its size on its way there).
 * With ROOM_MIN, an array of up to 256 MiB (a run's pids, the pid table, 8.8
 * million passages' index entries) moves once, at 2 MiB. A system that will not give the room
 * gives what was asked. */
#define ROOM 8
#define ROOM_MIN ((size_t)256 << 20)

static void *malloc_room(size_t n)
{
    void *p = NULL;
    size_t span = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (!room_ok || span < n || span > (size_t)-1 / ROOM)
        return malloc_big(n);
    size_t room = span * ROOM < ROOM_MIN ? ROOM_MIN : span * ROOM;
    room = room > room_cap ? room_cap & ~(HUGE_PAGE - 1) : room;
    if (room < span)
        return malloc_big(n);
    if (posix_memalign(&p, HUGE_PAGE, room) == 0)
        return offer_huge(p);
    return malloc_big(n);
}

void *rt_malloc(size_t n)
{
    return n >= BIG ? malloc_big(n) : check(malloc(n ? n : 1), n ? n : 1);
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

void *rt_grow_array(void *p, size_t count, size_t new_count, size_t size)
{
    if (size && new_count > (size_t)-1 / size) {
        out_of_memory((size_t)-1);   /* more than the address space: no input's size is that honest */
    }
    size_t used = count * size, n = new_count * size;
    if (n < BIG || used >= n)
        return rt_realloc(p, n);
    if (p && malloc_usable_size(p) >= n)
        return p;   /* the room reserved when it last moved */
    void *q = malloc_room(n);
    if (p) {
        memcpy(q, p, used);   /* what it holds, not the whole mapping (never written past) */
        free(p);
    }
    return q;
}

void *rt_reallocarray(void *p, size_t count, size_t size)
{
    if (size && count > (size_t)-1 / size)
        out_of_memory((size_t)-1);
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
