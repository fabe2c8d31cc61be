/* rt_stamp — stamping a file so that a file derived from it can tell when it went stale. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_hash.h"
#include "rt_mem.h"
#include "rt_stamp.h"

static uint64_t fold(uint64_t h, uint64_t x) { return rt_hash_mix(h ^ (x + 0x9e3779b97f4a7c15ULL)); }

enum { EDGE = 64 * 1024, BLOCK = 4096, INNER = 64 };

/* Asks for the ranges rt_stamp_sample reads of fd (size bytes) at once: from a cold disk they are
 * read together rather than one after another (tests/bench/PERF.md). */
static void will_need(int fd, size_t size)
{
    if (size <= 2 * EDGE + INNER * BLOCK) {
        (void)posix_fadvise(fd, 0, (off_t)size, POSIX_FADV_WILLNEED);
        return;
    }
    (void)posix_fadvise(fd, 0, EDGE, POSIX_FADV_WILLNEED);
    (void)posix_fadvise(fd, (off_t)(size - EDGE), EDGE, POSIX_FADV_WILLNEED);
    for (size_t k = 1; k <= INNER; k++)
        (void)posix_fadvise(fd, (off_t)(size / (INNER + 1) * k), BLOCK, POSIX_FADV_WILLNEED);
}

/* The len bytes of fd at off, folded into h: 0, or the read's errno, or -1 when the file ends
 * before them (it shrank meanwhile). */
static int fold_range(int fd, unsigned char *buf, size_t off, size_t len, uint64_t *h)
{
    for (size_t got = 0; got < len;) {
        ssize_t n = pread(fd, buf + got, len - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno ? errno : EIO;
        if (n == 0)
            return -1;
        got += (size_t)n;
    }
    *h = fold(*h, rt_hash_bytes(buf, len));
    return 0;
}

/* rt_stamp_sample of fd's size bytes into *out, read with pread (0; else as fold_range): a page first touched through a mapping
 * costs a fault, about ten times a read's copy on a virtual machine (tests/bench/PERF.md). */
static int sample_fd(int fd, size_t size, uint64_t *out)
{
    will_need(fd, size);
    uint64_t h = rt_hash_mix(size);
    int whole = size <= 2 * EDGE + INNER * BLOCK;
    unsigned char *buf = rt_malloc(whole ? size : EDGE);
    int st = whole ? fold_range(fd, buf, 0, size, &h) : fold_range(fd, buf, 0, EDGE, &h);
    if (!st && !whole)
        st = fold_range(fd, buf, size - EDGE, EDGE, &h);
    for (size_t k = 1; !st && !whole && k <= INNER; k++)
        st = fold_range(fd, buf, size / (INNER + 1) * k, BLOCK, &h);
    free(buf);
    *out = h;
    return st;
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
    } else {
        int e = sample_fd(fd, (size_t)st.st_size, &s->sample);
        if (e) {
            close(fd);
            return e < 0 ? rt_err_set(err, RT_EINPUT, "%s: cannot read: it shrank while it was being stamped", path)
                         : rt_err_set(err, RT_EINPUT, "%s: cannot read: %s", path, strerror(e));
        }
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
