/* test_stamp — a file's stamp: its content sample read from the file equals rt_stamp_sample of the
 * same bytes in memory (a collection index stamps its text through its mapping, and is checked
 * against rt_stamp_file), for files read whole and sampled; a change in a sampled byte, size and
 * times kept, shows as "content". */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_stamp.h"
#include "tap.h"

int main(void)
{
    /* whole below 2 × 64 KiB + 64 × 4 KiB = 393,216 bytes; sampled above */
    static const size_t sizes[] = {0, 1, 4095, 393216, 393217, 1u << 20, (5u << 20) + 123};
    size_t max = (5u << 20) + 123;
    unsigned char *buf = malloc(max);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < max; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = (unsigned char)x;
    }
    rt_err err;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const char *path = tmp_bytes(buf, sizes[k]);
        rt_stamp s, m;
        int got = rt_stamp_file(path, &s, &err) == RT_OK;
        ok(got && s.size == sizes[k] && s.sample == rt_stamp_sample(buf, sizes[k]),
           "%zu bytes: the sample read from the file is rt_stamp_sample of its bytes", sizes[k]);
        ok(rt_stamp_file_meta(path, &m, &err) == RT_OK && m.sample == 0 && m.size == s.size && m.ino == s.ino,
           "%zu bytes: the stamp without a sample: size and inode, sample 0", sizes[k]);
    }
    /* a byte in the sample changed in place, size and modification time kept */
    size_t n = (1u << 20) + 7;
    const char *path = tmp_bytes(buf, n);
    rt_stamp before, after;
    ok(rt_stamp_file(path, &before, &err) == RT_OK, "stamped");
    int fd = open(path, O_WRONLY);
    unsigned char c = buf[n / 65 * 3] ^ 1;   /* in the third inner block */
    int wrote = fd >= 0 && pwrite(fd, &c, 1, (off_t)(n / 65 * 3)) == 1;
    struct timespec times[2] = {{0, UTIME_OMIT}, {before.mtime_sec, before.mtime_nsec}};
    wrote = wrote && futimens(fd, times) == 0;
    if (fd >= 0)
        close(fd);
    ok(wrote && rt_stamp_file(path, &after, &err) == RT_OK && after.mtime_sec == before.mtime_sec &&
           after.mtime_nsec == before.mtime_nsec && rt_stamp_diff(&before, &after) &&
           strcmp(rt_stamp_diff(&before, &after), "content") == 0,
       "a sampled byte changed, size and mtime kept: the stamps differ in content");
    ok(rt_stamp_file("/nonexistent/rt_stamp", &after, &err) != RT_OK && strstr(err.msg, "cannot open"),
       "a missing file: cannot open");
    free(buf);
    return tap_done();
}
