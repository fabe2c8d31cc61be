/* rt_search — whole-collection search (rt_search.h). The words' rarest-looking one (the longest)
 * is looked for across a whole buffer of lines, 16 bytes a step by its first and last byte; only
 * a line holding it is split and checked for every word. A plain file is read in two halves on
 * two threads with pread (on a VM, a page first touched through a mapping costs a fault:
 * tests/bench/PERF.md), a compressed one through rt_reader on one. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "rt_mem.h"
#include "rt_reader.h"
#include "rt_runscan.h"
#include "rt_search.h"

#define NONE ((size_t)-1)

static inline unsigned char lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c; }

static int same_ci(const unsigned char *s, const unsigned char *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (lower(s[i]) != lower(w[i]))
            return 0;
    return 1;
}

#ifdef __SSE2__
/* The 16 bytes with ASCII capitals made small. */
static inline __m128i fold16(__m128i x)
{
    __m128i t = _mm_sub_epi8(x, _mm_set1_epi8('A'));
    __m128i up = _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(25)), t);
    return _mm_or_si128(x, _mm_and_si128(up, _mm_set1_epi8(0x20)));
}
#endif

size_t rt_search_find(const char *s_, size_t n, const char *word_, size_t wlen)
{
    const unsigned char *s = (const unsigned char *)s_, *w = (const unsigned char *)word_;
    if (wlen == 0 || wlen > n)
        return NONE;
    unsigned char f = lower(w[0]), l = lower(w[wlen - 1]);
    size_t i = 0;
#ifdef __SSE2__
    const __m128i F = _mm_set1_epi8((char)f), L = _mm_set1_epi8((char)l);
    for (; i + wlen - 1 + 16 <= n; i += 16) {
        __m128i a = fold16(_mm_loadu_si128((const __m128i *)(const void *)(s + i)));
        __m128i b = fold16(_mm_loadu_si128((const __m128i *)(const void *)(s + i + wlen - 1)));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, F), _mm_cmpeq_epi8(b, L)));
        for (; m; m &= m - 1) {
            size_t k = i + (size_t)__builtin_ctz(m);
            if (same_ci(s + k + 1, w + 1, wlen > 2 ? wlen - 2 : 0))
                return k;
        }
    }
#endif
    for (; i + wlen <= n; i++)
        if (lower(s[i]) == f && same_ci(s + i, w, wlen))
            return i;
    return NONE;
}

/* ---- one part of the file ------------------------------------------------------------------- */

typedef struct part {
    const char *path;
    const char *const *words;
    size_t nwords, anchor;     /* anchor: the longest word, looked for first */
    int fd;                    /* plain: read [start, end) with pread; else r */
    rt_reader *r;
    uint64_t start, end;
    rt_search_result res;
    uint64_t bad_off;          /* a line without a tab: its offset (error) */
    rt_status st;
    rt_err err;
} part;

static void add_hit(rt_search_result *res, uint64_t line_off, const char *pid, size_t pid_len,
                    const char *text, size_t tlen, size_t at)
{
    size_t a = at > 40 ? at - 40 : 0, b = a + RT_SEARCH_SNIP < tlen ? a + RT_SEARCH_SNIP : tlen;
    while (a > 0 && ((unsigned char)text[a] & 0xC0) == 0x80)   /* whole characters */
        a--;
    while (b < tlen && b > a && ((unsigned char)text[b] & 0xC0) == 0x80)
        b--;
    RT_GROW(res->arena, res->acap, res->alen + pid_len + (b - a) + 1);
    RT_GROW(res->hits, res->cap, res->n + 1);
    rt_search_hit *h = &res->hits[res->n++];
    *h = (rt_search_hit){line_off, res->alen, pid_len, res->alen + pid_len, b - a, (uint32_t)(at - a),
                         (uint32_t)at};
    memcpy(res->arena + res->alen, pid, pid_len);
    memcpy(res->arena + res->alen + pid_len, text + a, b - a);
    res->alen += pid_len + (b - a);
}

/* Checks the line [line, line + len) at file offset off: a hit when its text holds every word.
 * 0, or -1 when it has no tab (p->bad_off set). */
static int check_line(part *p, const char *line, size_t len, uint64_t off)
{
    if (off == 0 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
        line += 3;
        len -= 3;
        off += 3;
    }
    if (len && line[len - 1] == '\r')
        len--;
    const char *tab = memchr(line, '\t', len);
    if (!tab) {
        p->bad_off = off;
        return -1;
    }
    const char *text = tab + 1;
    size_t tlen = len - (size_t)(text - line), first = NONE;
    for (size_t k = 0; k < p->nwords; k++) {
        size_t at = rt_search_find(text, tlen, p->words[k], strlen(p->words[k]));
        if (at == NONE)
            return 0;
        if (k == 0)
            first = at;
    }
    add_hit(&p->res, off, line, (size_t)(tab - line), text, tlen, first);
    return 0;
}

/* Searches the complete lines buf[0, n) (file offset off): the anchor across the buffer, then
 * each line that holds it. -1 on a line without a tab. */
static int scan_lines(part *p, const char *buf, size_t n, uint64_t off)
{
    const char *aw = p->words[p->anchor];
    size_t alen = strlen(aw), from = 0;
    while (from < n) {
        size_t k = rt_search_find(buf + from, n - from, aw, alen);
        if (k == NONE)
            return 0;
        k += from;
        const char *s = buf + k;
        while (s > buf + from && s[-1] != '\n')
            s--;
        const char *e = memchr(buf + k, '\n', n - k);
        size_t end = e ? (size_t)(e - buf) : n;
        if (check_line(p, s, (size_t)(buf + end - s), off + (uint64_t)(s - buf)) < 0)
            return -1;
        from = end + 1;
    }
    return 0;
}

/* Reads up to want bytes of the part into buf: bytes read, 0 at its end, -1 on an error. */
static ssize_t part_read(part *p, char *buf, size_t want, uint64_t *at)
{
    if (p->r)
        return rt_reader_read(p->r, buf, want, &p->err);
    if (*at >= p->end)
        return 0;
    if (want > p->end - *at)
        want = (size_t)(p->end - *at);
    ssize_t got;
    do
        got = pread(p->fd, buf, want, (off_t)*at);
    while (got < 0 && errno == EINTR);
    if (got < 0)
        rt_err_set(&p->err, RT_EINPUT, "%s: cannot read: %s", p->path, strerror(errno));
    else
        *at += (uint64_t)got;
    return got;
}

/* The part's thread (and the caller's, for the first). Touches: its part only. */
static void *part_scan(void *arg)
{
    part *p = arg;
    size_t cap = 4u << 20, have = 0;
    char *buf = rt_malloc(cap);
    uint64_t at = p->start, base = p->start;   /* buf[0] is file offset base */
    p->st = RT_OK;
    for (;;) {
        if (have == cap)   /* one line fills the buffer */
            buf = rt_realloc(buf, cap *= 2);
        ssize_t got = part_read(p, buf + have, cap - have, &at);
        if (got < 0) {
            p->st = RT_EINPUT;
            break;
        }
        have += (size_t)got;
        const char *nl = got ? memrchr(buf, '\n', have) : NULL;
        size_t whole = got == 0 ? have : nl ? (size_t)(nl - buf) + 1 : 0;   /* the end: the last line too */
        if (whole && scan_lines(p, buf, whole, base) < 0) {
            p->st = RT_EINPUT;
            break;
        }
        if (got == 0)
            break;
        memmove(buf, buf + whole, have - whole);
        have -= whole;
        base += whole;
    }
    free(buf);
    return NULL;
}

/* The line number of file offset off (1-based), counted from the start: for an error only. */
static size_t line_at(const char *path, uint64_t off)
{
    rt_reader *r;
    rt_err e;
    size_t line = 1;
    if (rt_reader_open(&r, path, &e) != RT_OK)
        return 0;
    char buf[1 << 16];
    uint64_t pos = 0;
    ssize_t n;
    while (pos < off && (n = rt_reader_read(r, buf, sizeof buf, &e)) > 0) {
        size_t take = pos + (uint64_t)n > off ? (size_t)(off - pos) : (size_t)n;
        for (const char *s = buf; (s = memchr(s, '\n', take - (size_t)(s - buf))) != NULL; s++)
            line++;
        pos += (uint64_t)n;
    }
    rt_reader_close(&r);
    return line;
}

static void join(rt_search_result *a, rt_search_result *b)
{
    RT_GROW(a->arena, a->acap, a->alen + b->alen + 1);
    RT_GROW(a->hits, a->cap, a->n + b->n + 1);
    if (b->alen)
        memcpy(a->arena + a->alen, b->arena, b->alen);
    for (size_t i = 0; i < b->n; i++) {
        rt_search_hit h = b->hits[i];
        h.pid += a->alen;
        h.snip += a->alen;
        a->hits[a->n++] = h;
    }
    a->alen += b->alen;
    rt_search_result_free(b);
}

rt_status rt_search_file(const char *path, const char *const *words, size_t nwords, rt_search_result *out,
                         rt_err *err)
{
    memset(out, 0, sizeof *out);
    if (nwords == 0 || nwords > RT_SEARCH_MAX_WORDS)
        return rt_err_set(err, RT_EUSAGE, "give 1 to %d words to search for", RT_SEARCH_MAX_WORDS);
    size_t anchor = 0;
    for (size_t k = 0; k < nwords; k++) {
        if (!words[k][0])
            return rt_err_set(err, RT_EUSAGE, "an empty word matches everything: leave it out");
        if (strlen(words[k]) > strlen(words[anchor]))
            anchor = k;
    }
    part p[2];
    memset(p, 0, sizeof p);
    for (int k = 0; k < 2; k++)
        p[k] = (part){.path = path, .words = words, .nwords = nwords, .anchor = anchor, .fd = -1};
    int nparts = 1;
    struct stat sb;
    if (rt_file_codec(path) == RT_CODEC_NONE && strcmp(path, "-") != 0 && stat(path, &sb) == 0 &&
        S_ISREG(sb.st_mode)) {   /* (a pipe or a FIFO is read as a stream, below) */
        p[0].fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (p[0].fd < 0)
            return rt_err_set(err, RT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        uint64_t size = (uint64_t)sb.st_size;
        uint64_t mid = size >= (1u << 20) ? rt_run_split_offset(path, size) : 0;
        p[0].end = mid ? mid : size;
        if (mid) {
            p[1].fd = p[0].fd;
            p[1].start = mid;
            p[1].end = size;
            nparts = 2;
        }
    } else {
        rt_status st = rt_reader_open(&p[0].r, path, err);
        if (st != RT_OK)
            return st;
    }
    pthread_t t;
    int threaded = nparts == 2 && pthread_create(&t, NULL, part_scan, &p[1]) == 0;
    part_scan(&p[0]);
    if (threaded)
        pthread_join(t, NULL);
    else if (nparts == 2)
        part_scan(&p[1]);
    if (p[0].fd >= 0)
        close(p[0].fd);
    rt_reader_close(&p[0].r);
    rt_status st = RT_OK;
    for (int k = 0; k < nparts && st == RT_OK; k++) {
        if (p[k].st == RT_OK)
            continue;
        st = p[k].st;
        if (p[k].err.msg[0])
            *err = p[k].err;
        else
            st = rt_err_at(err, RT_EINPUT, path, line_at(path, p[k].bad_off),
                           "expected pid<TAB>text, found no tab");
    }
    if (st != RT_OK) {
        for (int k = 0; k < 2; k++)
            rt_search_result_free(&p[k].res);
        return st;
    }
    *out = p[0].res;
    if (nparts == 2)
        join(out, &p[1].res);
    return RT_OK;
}

void rt_search_result_free(rt_search_result *r)
{
    free(r->hits);
    free(r->arena);
    memset(r, 0, sizeof *r);
}
