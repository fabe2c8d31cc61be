/* rt_reader — line reading with a buffer that grows only for long lines, from plain, gzip or
 * zstd files (told apart by their first bytes). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "rt_mem.h"
#include "rt_reader.h"

#define READ_BYTES (256u << 10)   /* a page first touched is a fault (dear on a VM): not more than needed */

static size_t input_max = RT_INPUT_MAX_DEFAULT;
static const char *input_max_hint;

void rt_input_max_set(size_t bytes, const char *hint)
{
    input_max = bytes < 1 ? 1 : bytes > SIZE_MAX / 4 ? SIZE_MAX / 4 : bytes;
    input_max_hint = hint;
}

size_t rt_input_max(void) { return input_max; }

rt_status rt_input_max_error(rt_err *err, const char *path, size_t line, const char *what)
{
    return rt_err_at(err, RT_EINPUT, path, line, "%s is larger than the limit of %zu bytes%s%s%s", what,
                     input_max, input_max_hint ? " (" : "", input_max_hint ? input_max_hint : "",
                     input_max_hint ? ")" : "");
}

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
    int lines_told;          /* rt_reader_read's caller says the line it reached (rt_reader_set_lineno) */
    uint64_t pos, end_off;   /* next file offset to read, and where to stop (0: end of file) */
    int ranged;              /* reading a part of the file with pread */
    /* decompression: the codec found by the first bytes, the compressed bytes not yet decoded */
    int sniffed, codec;      /* RT_CODEC_* */
    unsigned char pre[4];
    size_t pre_len, pre_pos; /* a plain file's first bytes, read to tell */
    unsigned char *zin;
    size_t zin_len, zin_pos;
    int zeof;                /* the compressed file is read to its end */
    int zend;                /* the decoder is at the end of a gzip member / zstd frame */
    z_stream *gz;
    ZSTD_DStream *zs;
};

#define ZIN_BYTES (1u << 18)

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

int rt_codec_of(const unsigned char *b, size_t n)
{
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        return RT_CODEC_GZIP;
    if (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
        return RT_CODEC_ZSTD;
    return RT_CODEC_NONE;
}

int rt_file_codec(const char *path)
{
    /* a pipe cannot be read at an offset anyway; opening a FIFO would wait for its writer (or,
     * closed at once, cost a writer its only reader) */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return RT_CODEC_NONE;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return RT_CODEC_NONE;
    unsigned char b[4];
    ssize_t n = pread(fd, b, sizeof b, 0);
    close(fd);
    return n > 0 ? rt_codec_of(b, (size_t)n) : RT_CODEC_NONE;
}

static ssize_t raw_read(rt_reader *r, void *out, size_t want)
{
    for (;;) {
        if (r->end_off) {
            if (r->pos >= r->end_off)
                return 0;
            if (want > r->end_off - r->pos)
                want = (size_t)(r->end_off - r->pos);
        }
        ssize_t n = r->ranged ? pread(r->fd, out, want, (off_t)r->pos) : read(r->fd, out, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0)
            r->pos += (uint64_t)n;
        return n;
    }
}

/* Reads the first bytes (from a pipe too) to tell a compressed file, and prepares its decoder. */
static int sniff(rt_reader *r, rt_err *err)
{
    r->sniffed = 1;
    if (r->ranged)
        return 0;   /* parts of a file are read only when it is plain (rt_run_split_offset) */
    while (r->pre_len < sizeof r->pre) {
        ssize_t n = raw_read(r, r->pre + r->pre_len, sizeof r->pre - r->pre_len);
        if (n < 0) {
            rt_err_set(err, RT_EINPUT, "%s: read error: %s", r->path, strerror(errno));
            return -1;
        }
        if (n == 0)
            break;
        r->pre_len += (size_t)n;
    }
    r->codec = rt_codec_of(r->pre, r->pre_len);
    if (r->codec == RT_CODEC_NONE)
        return 0;
    r->zin = rt_malloc(ZIN_BYTES);
    memcpy(r->zin, r->pre, r->pre_len);
    r->zin_len = r->pre_len;
    r->pre_len = 0;
    if (r->codec == RT_CODEC_GZIP) {
        r->gz = rt_calloc(1, sizeof *r->gz);
        if (inflateInit2(r->gz, 15 + 16) != Z_OK) {   /* 15 + 16: a gzip wrapper */
            rt_err_set(err, RT_EINPUT, "%s: cannot start gzip decompression", r->path);
            return -1;
        }
    } else if (!(r->zs = ZSTD_createDStream()) || ZSTD_isError(ZSTD_initDStream(r->zs))) {
        rt_err_set(err, RT_EINPUT, "%s: cannot start zstd decompression", r->path);
        return -1;
    }
    return 0;
}

/* Decodes into out; returns the bytes decoded, 0 at the end, -1 on an error (err set). */
static ssize_t decode(rt_reader *r, char *out, size_t want, rt_err *err)
{
    for (;;) {
        if (r->zin_pos == r->zin_len && !r->zeof) {
            ssize_t n = raw_read(r, r->zin, ZIN_BYTES);
            if (n < 0) {
                rt_err_set(err, RT_EINPUT, "%s: read error: %s", r->path, strerror(errno));
                return -1;
            }
            r->zeof = n == 0;
            r->zin_len = (size_t)n;
            r->zin_pos = 0;
        }
        if (r->zin_pos == r->zin_len && r->zeof) {
            if (r->zend)
                return 0;
            rt_err_at(err, RT_EINPUT, r->path, r->lineno + 1, "the %s data ends early (a truncated file)",
                      r->codec == RT_CODEC_GZIP ? "gzip" : "zstd");
            return -1;
        }
        size_t got;
        if (r->codec == RT_CODEC_GZIP) {
            if (r->zend) {   /* another member follows (a concatenated gzip file) */
                inflateReset(r->gz);
                r->zend = 0;
            }
            r->gz->next_in = r->zin + r->zin_pos;
            r->gz->avail_in = (uInt)(r->zin_len - r->zin_pos);
            r->gz->next_out = (Bytef *)out;
            r->gz->avail_out = (uInt)(want > (1u << 30) ? 1u << 30 : want);
            uInt before = r->gz->avail_out;
            int rc = inflate(r->gz, Z_NO_FLUSH);
            r->zin_pos = r->zin_len - r->gz->avail_in;
            got = before - r->gz->avail_out;
            if (rc == Z_STREAM_END)
                r->zend = 1;
            else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                rt_err_at(err, RT_EINPUT, r->path, r->lineno + 1, "not valid gzip data (%s)",
                          r->gz->msg ? r->gz->msg : "inflate failed");
                return -1;
            }
        } else {
            ZSTD_inBuffer in = {r->zin, r->zin_len, r->zin_pos};
            ZSTD_outBuffer o = {out, want, 0};
            size_t rc = ZSTD_decompressStream(r->zs, &o, &in);
            if (ZSTD_isError(rc)) {
                rt_err_at(err, RT_EINPUT, r->path, r->lineno + 1, "not valid zstd data (%s)", ZSTD_getErrorName(rc));
                return -1;
            }
            r->zin_pos = in.pos;
            r->zend = rc == 0;
            got = o.pos;
        }
        if (got)
            return (ssize_t)got;
    }
}

/* The next bytes of the text, whatever the file's codec: up to want into out. */
static ssize_t source_read(rt_reader *r, char *out, size_t want, rt_err *err)
{
    if (!r->sniffed && sniff(r, err) < 0)
        return -1;
    if (r->codec != RT_CODEC_NONE)
        return decode(r, out, want, err);
    if (r->pre_pos < r->pre_len) {
        size_t n = r->pre_len - r->pre_pos < want ? r->pre_len - r->pre_pos : want;
        memcpy(out, r->pre + r->pre_pos, n);
        r->pre_pos += n;
        return (ssize_t)n;
    }
    ssize_t n = raw_read(r, out, want);
    if (n < 0)
        rt_err_set(err, RT_EINPUT, "%s: read error: %s", r->path, strerror(errno));
    return n;
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
        /* the line so far fills the buffer: a line the limit allows may grow it, and the memory
         * refused for it is an input error, not an abort (the file asked for it) */
        if (r->cap >= input_max) {
            rt_input_max_error(err, r->path, r->lineno + 1, "a line");
            return -1;
        }
        size_t cap = r->cap * 2 > input_max ? input_max : r->cap * 2;
        char *buf = realloc(r->buf, cap + 1);
        if (!buf) {
            rt_err_at(err, RT_EINPUT, r->path, r->lineno + 1, "a line of more than %zu bytes does not fit "
                      "in memory", r->cap);
            return -1;
        }
        r->buf = buf;
        r->cap = cap;
    }
    ssize_t n = source_read(r, r->buf + r->end, r->cap - r->end, err);
    if (n > 0)
        r->end += (size_t)n;
    return n;
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
    if (len > input_max) {   /* (a limit below the buffer's first size: fill checks the others) */
        rt_input_max_error(err, r->path, r->lineno, "a line");
        return -1;
    }
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

ssize_t rt_reader_read(rt_reader *r, char *buf, size_t n, rt_err *err)
{
    ssize_t got = source_read(r, buf, n, err);
    if (got > 0 && !r->lines_told)   /* the line reached, for a decompression error's message */
        for (const char *p = buf, *e = buf + got; (p = memchr(p, '\n', (size_t)(e - p))); p++)
            r->lineno++;
    return got;
}

uint64_t rt_reader_offset(const rt_reader *r) { return r->pos; }

size_t rt_reader_lineno(const rt_reader *r) { return r->lineno; }
void rt_reader_set_lineno(rt_reader *r, size_t lineno)
{
    r->lineno = lineno;
    r->lines_told = 1;
}
const char *rt_reader_path(const rt_reader *r) { return r->path; }
int rt_reader_last_unterminated(const rt_reader *r) { return r->unterminated; }

void rt_reader_close(rt_reader **rp)
{
    if (!rp || !*rp)
        return;
    rt_reader *r = *rp;
    if (r->own_fd)
        close(r->fd);
    if (r->gz)
        inflateEnd(r->gz);
    free(r->gz);
    ZSTD_freeDStream(r->zs);
    free(r->zin);
    free(r->path);
    free(r->buf);
    free(r);
    *rp = NULL;
}

rt_status rt_read_file(const char *path, char **bufp, size_t *lenp, rt_err *err)
{
    *bufp = NULL;
    *lenp = 0;
    rt_reader *r;
    rt_status st = rt_reader_open(&r, path, err);
    if (st != RT_OK)
        return st;
    size_t cap = 1 << 16, len = 0;
    char *buf = rt_malloc(cap + 1);
    for (;;) {
        if (len == cap) {   /* the size is the file's to ask: refused, never an abort */
            size_t want = cap * 2 > input_max + 1 ? input_max + 1 : cap * 2;   /* one over: too long */
            char *more = NULL;
            if (cap > input_max)
                st = rt_input_max_error(err, path, r->lineno + 1, "the document (decompressed)");
            else if (!(more = realloc(buf, want + 1)))
                st = rt_err_at(err, RT_EINPUT, path, r->lineno + 1, "a document of more than %zu bytes "
                               "does not fit in memory", cap);
            if (!more)
                break;
            buf = more;
            cap = want;
        }
        ssize_t n = source_read(r, buf + len, cap - len, err);
        if (n < 0)
            st = RT_EINPUT;
        if (n <= 0)
            break;
        for (const char *p = buf + len, *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
            r->lineno++;   /* for the messages of decompression: the line reached */
        len += (size_t)n;
    }
    if (st == RT_OK && len > input_max) {   /* (a limit below the first buffer's size) */
        size_t line = 1;   /* where the limit is crossed */
        for (const char *p = buf, *e = buf + input_max; (p = memchr(p, '\n', (size_t)(e - p))); p++)
            line++;
        st = rt_input_max_error(err, path, line, "the document (decompressed)");
    }
    rt_reader_close(&r);
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
