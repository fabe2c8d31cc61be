/* rt_stamp — stamping a file so that a file derived from it can tell when it went stale. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_hash.h"
#include "rt_mapguard.h"
#include "rt_stamp.h"

static uint64_t fold(uint64_t h, uint64_t x) { return rt_hash_mix(h ^ (x + 0x9e3779b97f4a7c15ULL)); }

enum { EDGE = 64 * 1024, BLOCK = 4096, INNER = 64 };

/* Asks for the pages rt_stamp_sample reads of the mapping base (size bytes) at once: from a cold
 * disk they are read together rather than one fault after another (tests/bench/PERF.md). */
static void will_need(const unsigned char *base, size_t size)
{
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    if (size <= 2 * EDGE + INNER * BLOCK) {
        madvise((void *)base, size, MADV_WILLNEED);
        return;
    }
    madvise((void *)base, EDGE, MADV_WILLNEED);
    size_t tail = (size - EDGE) / page * page;
    madvise((void *)(base + tail), size - tail, MADV_WILLNEED);
    for (size_t k = 1; k <= INNER; k++) {
        size_t at = size / (INNER + 1) * k, from = at / page * page;
        madvise((void *)(base + from), at + BLOCK - from, MADV_WILLNEED);
    }
}

uint64_t rt_stamp_sample(const unsigned char *base, size_t size)
{
    uint64_t h = rt_hash_mix(size);
    if (size <= 2 * EDGE + INNER * BLOCK)
        return fold(h, rt_hash_bytes(base, size));
    h = fold(h, rt_hash_bytes(base, EDGE));
    h = fold(h, rt_hash_bytes(base + size - EDGE, EDGE));
    for (size_t k = 1; k <= INNER; k++)
        h = fold(h, rt_hash_bytes(base + size / (INNER + 1) * k, BLOCK));
    return h;
}

static rt_status stamp(const char *path, rt_stamp *s, int sampled, rt_err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);   /* a FIFO: refused, not waited on */
    if (fd < 0)
        return rt_err_set(err, RT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return rt_err_set(err, RT_EINPUT, "%s: not a regular file", path);
    }
    *s = (rt_stamp){(uint64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec,
                    (uint64_t)st.st_ino, (int64_t)st.st_ctim.tv_sec, (int64_t)st.st_ctim.tv_nsec, 0};
    if (!sampled) {
        s->sample = 0;
    } else if (st.st_size > 0) {
        /* MAP_POPULATE is not used: only the sampled pages are read */
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            close(fd);
            return rt_err_set(err, RT_EINPUT, "%s: cannot map: %s", path, strerror(errno));
        }
        madvise(m, (size_t)st.st_size, MADV_RANDOM);
        will_need(m, (size_t)st.st_size);
        rt_mapguard_add(m, (size_t)st.st_size, path);   /* cut short meanwhile: no SIGBUS death */
        s->sample = rt_stamp_sample(m, (size_t)st.st_size);
        rt_mapguard_remove(m);
        munmap(m, (size_t)st.st_size);
    } else {
        s->sample = rt_stamp_sample(NULL, 0);
    }
    close(fd);
    return RT_OK;
}

rt_status rt_stamp_file(const char *path, rt_stamp *s, rt_err *err) { return stamp(path, s, 1, err); }
rt_status rt_stamp_file_meta(const char *path, rt_stamp *s, rt_err *err) { return stamp(path, s, 0, err); }

const char *rt_stamp_diff(const rt_stamp *was, const rt_stamp *now)
{
    if (was->size != now->size)
        return "size";
    if (was->mtime_sec != now->mtime_sec || was->mtime_nsec != now->mtime_nsec)
        return "mtime";
    if (was->ino != now->ino)
        return "inode";
    if (was->sample != now->sample)
        return "content";
    if (was->ctime_sec != now->ctime_sec || was->ctime_nsec != now->ctime_nsec)
        return "ctime";
    return NULL;
}
