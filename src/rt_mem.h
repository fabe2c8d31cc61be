/* rt_mem — allocation that never returns NULL. Running out of memory cannot be reported usefully
 * by every caller, so it goes to one handler the program installs (rt_mem_on_exhausted: retriage
 * says what happened and exits with status 2, the terminal restored); with none, these print one
 * line and abort, like tig's and htop's xmalloc. */
#ifndef RT_MEM_H
#define RT_MEM_H

#include <stddef.h>

/* What runs when an allocation cannot be had: n bytes were asked for ((size_t)-1: more than
 * can be counted). It must not return (exit, or _exit); it may run on any thread. */
typedef void (*rt_mem_exhausted_fn)(size_t n);
void rt_mem_on_exhausted(rt_mem_exhausted_fn fn);

/* Sets the allocator up for the big blocks below (each mapped on its own): called first thing
 * by the program. Without it everything still works, with more page faults. */
void rt_mem_init(void);

/* Blocks of 2 MiB and more are 2 MiB-aligned and offered transparent huge pages. Owned: each
 * result below is the caller's, freed with free (the array of rt_realloc / rt_reallocarray moves:
 * p is no longer valid). */
void *rt_malloc(size_t n);
void *rt_calloc(size_t count, size_t size);
void *rt_realloc(void *p, size_t n);
/* realloc for an array of count elements of size bytes, with an overflow check. Owned: freed with
 * free. */
void *rt_reallocarray(void *p, size_t count, size_t size);
char *rt_strndup(const char *s, size_t n);
char *rt_strdup(const char *s);

/* An array of count elements of size bytes made to hold new_count (more): a big one stays where
 * it is while the room reserved for it lasts, else moves into a new block of whole huge pages
 * with room for several more doublings, copying its count elements (realloc would remap it,
 * keeping its pages and gaining new ones at both ends, 4 KiB at a time). Owned: freed with free;
 * p is no longer valid when the array moved. */
void *rt_grow_array(void *p, size_t count, size_t new_count, size_t size);

/* Grows *cap (doubling, at least min_cap) and reallocates *p so that it holds need elements. */
#define RT_GROW(p, cap, need) \
    do { if ((need) > (cap)) { size_t nc_ = (cap) ? (cap) : 16; while (nc_ < (need)) nc_ *= 2; \
         (p) = rt_grow_array((p), (cap), nc_, sizeof *(p)); (cap) = nc_; } } while (0)

/* Makes the array p of *len elements of size bytes, indexed by a dense id, long enough to hold
 * element index: it grows to a power of two (at least 64) and the new elements' bytes are set to
 * fill (0, or 0xff for RT_NO_ID in uint32_t slots). Returns the array; *len is updated. Owned:
 * freed with free; p is no longer valid when the array moved. */
void *rt_grow_index(void *p, size_t *len, size_t index, size_t size, int fill);

/* Asks the kernel to back the 2 MiB-aligned part of [p, p + bytes) with huge pages (where
 * transparent huge pages are enabled "madvise"): for tables of hundreds of megabytes read at
 * random, one TLB entry per 2 MiB instead of per 4 KiB. A hint; harmless when refused. */
void rt_advise_huge(void *p, size_t bytes);

/* Reserves bytes (a multiple of 2 MiB) of zeroed address space, 2 MiB-aligned and offered huge
 * pages, to be filled sparsely: a page costs memory only once written, and a table that would
 * otherwise grow by doubling and copying never moves. Returns NULL when the system refuses (the
 * caller falls back to the heap). Owned: release it with rt_unreserve (not free). */
void *rt_reserve(size_t bytes);
void rt_unreserve(void *p, size_t bytes);

#endif
