/* rt_warm — makes a reopened workspace's mapped files resident while the user looks at the first
 * screen. A reopen maps the workspace cache and the collection index; the first touch of each
 * page of a mapping then costs a fault (dear on a VM, and a disk read when the file is cold),
 * which a key reading every run's rankings (a sort by RBO, a filter) pays for 100,000 pages.
 * One low-priority thread asks the kernel to map the regions (MADV_POPULATE_READ, a chunk at a
 * time, so that stopping waits at most one chunk), then runs the caller's step over the resident
 * pages. Regions larger in all than a quarter of the memory are left alone. */
#ifndef RT_WARM_H
#define RT_WARM_H

#include <stdatomic.h>
#include <stddef.h>

typedef struct rt_warm rt_warm;

typedef struct rt_warm_region {
    const void *p;
    size_t len;
} rt_warm_region;

/* Called on the thread once every region is resident: work that reads them, returning early once
 * *stop is set. */
typedef void (*rt_warm_then)(void *ctx, const atomic_int *stop);

/* Starts warming the n regions (copied), then calls then(ctx, …) unless stopped first. NULL when
 * there is nothing to do, the regions are too large, or no thread could be made. Owned: the
 * caller stops and frees it with rt_warm_stop. */
rt_warm *rt_warm_start(const rt_warm_region *regions, size_t n, rt_warm_then then, void *ctx);

/* Stops the thread (at the end of its current chunk) and frees *w; NULL is fine. */
void rt_warm_stop(rt_warm **w);

/* Whether the thread has finished every region and the step (for tests). */
int rt_warm_done(const rt_warm *w);

#endif
