/* rt_reader — line reading with a buffer that grows only for long lines. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_reader.h"

#define READ_BYTES (1u << 20)
#define MAX_LINE ((size_t)1 << 30)

struct rt_reader {
    int fd;
    int own_fd;
    char *path;
    char *buf;
    size_t cap;
    size_t start, end;   /* unread bytes are buf[start, end) */
    size_t lineno;
    int eof;
    int unterminated;
    int first;
    uint64_t pos, end_off;   /* next file offset to read, and where to stop (0: end of file) */
    int ranged;              /* reading a part of the file with pread */
};

static rt_status check_path(const char *path, int fd, rt_err *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return rt_err_set(err, RT_EINPUT, "%s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return rt_err_set(err, RT_EINPUT, "%s: is a directory, expected a file", path);
    return RT_OK;
}

rt_status rt_reader_open(rt_reader **rp, const char *path, rt_err *err)
{
    return rt_reader_open_range(rp, path, 0, 0, err);
}

rt_status rt_reader_open_range(rt_reader **rp, const char *path, uint64_t start, uint64_t end,
                               rt_err *err)
{
    *rp = NULL;
    int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return rt_err_set(err, RT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    rt_status st = check_path(path, fd, err);
    if (st != RT_OK) {
        if (fd)
            close(fd);
        return st;
    }
#ifdef HAVE_POSIX_FADVISE
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    rt_reader *r = rt_calloc(1, sizeof *r);
    r->fd = fd;
    r->own_fd = fd != 0;
    r->path = rt_strdup(path);
    r->cap = READ_BYTES;
    r->buf = rt_malloc(r->cap + 1);
    r->first = start == 0;
    r->pos = start;
    r->end_off = end;
    r->ranged = start || end;
    *rp = r;
    return RT_OK;
}

/* Moves unread bytes to the front and reads more; returns bytes read, 0 at EOF, -1 on error. */
static ssize_t fill(rt_reader *r, rt_err *err)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    if (r->end == r->cap) {
        if (r->cap >= MAX_LINE) {
            rt_err_at(err, RT_EINPUT, r->path, r->lineno + 1, "line longer than %zu bytes", MAX_LINE);
            return -1;
        }
        r->cap *= 2;
        r->buf = rt_realloc(r->buf, r->cap + 1);
    }
    for (;;) {
        size_t want = r->cap - r->end;
        if (r->end_off) {
            if (r->pos >= r->end_off)
                return 0;
            if (want > r->end_off - r->pos)
                want = (size_t)(r->end_off - r->pos);
        }
        ssize_t n = r->ranged ? pread(r->fd, r->buf + r->end, want, (off_t)r->pos)
                                         : read(r->fd, r->buf + r->end, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rt_err_set(err, RT_EINPUT, "%s: read error: %s", r->path, strerror(errno));
            return -1;
        }
        r->end += (size_t)n;
        r->pos += (uint64_t)n;
        return n;
    }
}

static void take(rt_reader *r, char *s, size_t n, char **line, size_t *len)
{
    if (n && s[n - 1] == '\r')
        n--;
    s[n] = '\0';
    r->lineno++;
    if (r->first) {
        r->first = 0;
        if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
            s += 3;
            n -= 3;
        }
    }
    *line = s;
    *len = n;
}

/* A NUL byte has no place in a text input: it is the mark of a binary file (or a torn, zero
 * filled one), and C strings would cut the line there. An error, never a skipped line. */
static int nul_check(rt_reader *r, const char *line, size_t len, rt_err *err)
{
    const char *z = memchr(line, 0, len);
    if (!z)
        return 1;
    rt_err_at(err, RT_EINPUT, r->path, r->lineno, "a NUL byte at column %zu: not a text file",
              (size_t)(z - line) + 1);
    return -1;
}

int rt_reader_next(rt_reader *r, char **line, size_t *len, rt_err *err)
{
    size_t scanned = r->start;
    for (;;) {
        char *nl = memchr(r->buf + scanned, '\n', r->end - scanned);
        if (nl) {
            char *s = r->buf + r->start;
            size_t n = (size_t)(nl - s);
            r->start += n + 1;
            r->unterminated = 0;
            take(r, s, n, line, len);
            return nul_check(r, *line, *len, err);
        }
        if (r->eof) {
            if (r->start == r->end)
                return 0;
            char *s = r->buf + r->start;
            size_t n = r->end - r->start;
            r->start = r->end;
            r->unterminated = 1;
            take(r, s, n, line, len);
            return nul_check(r, *line, *len, err);
        }
        size_t done = r->end - r->start;
        ssize_t got = fill(r, err);
        if (got < 0)
            return -1;
        if (got == 0)
            r->eof = 1;
        scanned = r->start + done;
    }
}

size_t rt_reader_lineno(const rt_reader *r) { return r->lineno; }
const char *rt_reader_path(const rt_reader *r) { return r->path; }
int rt_reader_last_unterminated(const rt_reader *r) { return r->unterminated; }

void rt_reader_close(rt_reader **rp)
{
    if (!rp || !*rp)
        return;
    rt_reader *r = *rp;
    if (r->own_fd)
        close(r->fd);
    free(r->path);
    free(r->buf);
    free(r);
    *rp = NULL;
}

rt_status rt_read_file(const char *path, char **bufp, size_t *lenp, rt_err *err)
{
    *bufp = NULL;
    *lenp = 0;
    int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return rt_err_set(err, RT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    rt_status st = check_path(path, fd, err);
    size_t cap = 1 << 16, len = 0;
    char *buf = rt_malloc(cap + 1);
    while (st == RT_OK) {
        if (len == cap) {
            cap *= 2;
            buf = rt_realloc(buf, cap + 1);
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            st = rt_err_set(err, RT_EINPUT, "%s: read error: %s", path, strerror(errno));
        else if (n == 0)
            break;
        else
            len += (size_t)n;
    }
    if (fd)
        close(fd);
    if (st != RT_OK) {
        free(buf);
        return st;
    }
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
        memmove(buf, buf + 3, len - 3);
        len -= 3;
    }
    const char *z = memchr(buf, 0, len);
    if (z) {   /* a JSON document holds no NUL: name the line, as the line reader does */
        size_t line = 1, col = 1;
        for (const char *p = buf; p < z; p++, col++)
            if (*p == '\n')
                line++, col = 0;
        free(buf);
        return rt_err_at(err, RT_EINPUT, path, line, "a NUL byte at column %zu: not a text file", col);
    }
    buf[len] = '\0';
    *bufp = buf;
    *lenp = len;
    return RT_OK;
}

char *rt_path_stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    return rt_strndup(b, n);
}

char *rt_path_dir(const char *path)
{
    const char *s = strrchr(path, '/');
    if (!s)
        return rt_strdup(".");
    if (s == path)
        return rt_strdup("/");
    return rt_strndup(path, (size_t)(s - path));
}

char *rt_path_join(const char *base, const char *rel)
{
    if (!base || !*base || rel[0] == '/')
        return rt_strdup(rel);
    size_t a = strlen(base), b = strlen(rel);
    char *p = rt_malloc(a + b + 2);
    memcpy(p, base, a);
    p[a] = '/';
    memcpy(p + a + 1, rel, b + 1);
    return p;
}
