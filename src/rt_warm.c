/* rt_warm — the background thread that maps a reopened workspace's files in (rt_warm.h). */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_thread.h"
#include "rt_warm.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22   /* Linux 5.14; an older kernel refuses it and the pages fault in */
#endif

#define CHUNK ((size_t)4 << 20)   /* mapped between looks at the stop flag */

struct rt_warm {
    pthread_t th;
    rt_warm_region *r;
    size_t n;
    rt_warm_then then;
    void *ctx;
    atomic_int stop, done;
};

static void *warm_thread(void *arg)
{
    rt_warm *w = arg;
    rt_thread_lower_priority();
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int ok = 1;
    for (size_t i = 0; i < w->n && ok; i++) {
        uintptr_t a = (uintptr_t)w->r[i].p & ~(uintptr_t)(page - 1);
        uintptr_t end = (uintptr_t)w->r[i].p + w->r[i].len;
        for (; a < end && ok; a += CHUNK) {
            if (atomic_load(&w->stop))
                return NULL;
            size_t len = end - a < CHUNK ? (size_t)(end - a) : CHUNK;
            /* refused (an old kernel) or failed (the file cut short meanwhile: the map guard's
             * business when it is read): no more warming, nothing else changes */
            ok = madvise((void *)a, (len + page - 1) / page * page, MADV_POPULATE_READ) == 0;
        }
    }
    if (ok && w->then && !atomic_load(&w->stop))
        w->then(w->ctx, &w->stop);
    atomic_store(&w->done, 1);
    return NULL;
}

rt_warm *rt_warm_start(const rt_warm_region *regions, size_t n, rt_warm_then then, void *ctx)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += regions[i].len;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (total == 0 || pages <= 0 || psize <= 0 || (uint64_t)total > (uint64_t)pages * (uint64_t)psize / 4)
        return NULL;   /* over a quarter of the memory: warming would push out what is in use */
    rt_warm *w = rt_calloc(1, sizeof *w);
    w->r = rt_reallocarray(NULL, n, sizeof *w->r);
    memcpy(w->r, regions, n * sizeof *w->r);
    w->n = n;
    w->then = then;
    w->ctx = ctx;
    if (pthread_create(&w->th, NULL, warm_thread, w) != 0) {
        free(w->r);
        free(w);
        return NULL;
    }
    return w;
}

void rt_warm_stop(rt_warm **wp)
{
    if (!wp || !*wp)
        return;
    rt_warm *w = *wp;
    atomic_store(&w->stop, 1);
    pthread_join(w->th, NULL);
    free(w->r);
    free(w);
    *wp = NULL;
}

int rt_warm_done(const rt_warm *w) { return w && atomic_load(&((rt_warm *)w)->done); }
