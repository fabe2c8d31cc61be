/* rt_stamp — what a file looked like when it was read: size, modification and change times (ns),
 * inode, and a hash of sampled content. A derived file (the collection index, the workspace
 * cache) records the stamps of its inputs and is trusted only while every one still matches:
 * the size and mtime catch ordinary edits, the inode a file renamed over the old one, the ctime
 * any write or touch (no user can set it back), the sample a same-size rewrite with its mtime
 * put back. */
#ifndef RT_STAMP_H
#define RT_STAMP_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"

typedef struct rt_stamp {
    uint64_t size;
    int64_t mtime_sec, mtime_nsec;
    uint64_t ino;
    int64_t ctime_sec, ctime_nsec;
    uint64_t sample;   /* rt_stamp_sample of the content */
} rt_stamp;

/* A hash of the first and last 64 KiB and 64 blocks of 4 KiB spread in between (files up to
 * 384 KiB whole): 384 KiB of reads, a few milliseconds cold. */
uint64_t rt_stamp_sample(const unsigned char *base, size_t size);

/* The stamp of the regular file at path (mapped briefly to sample it). RT_EINPUT naming path
 * when it cannot be opened or is not a regular file. */
rt_status rt_stamp_file(const char *path, rt_stamp *s, rt_err *err);

/* rt_stamp_file without the content sample (s->sample 0): one fstat, no page read. */
rt_status rt_stamp_file_meta(const char *path, rt_stamp *s, rt_err *err);

/* NULL when now matches was; otherwise the first property that differs, in the order size,
 * mtime, inode, content, ctime ("size", "mtime", "inode", "content", "ctime"). Borrowed: a static
 * string. */
const char *rt_stamp_diff(const rt_stamp *was, const rt_stamp *now);

#endif
