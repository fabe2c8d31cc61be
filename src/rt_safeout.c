/* rt_safeout — terminal-safe output streams (glibc fopencookie). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_safeout.h"
#include "rt_text.h"

typedef struct safeout {
    int fd, used;
    char carry[4];   /* the start of a character whose end has not been written yet */
    size_t ncarry;
} safeout;

/* Static cookies: standard output and error are never closed (streams live until exit), and a
 * heap cookie would be reported as leaked. Two for them, two for -o to a terminal. */
static safeout pool[4];

/* Appends the safe form of the character at s (n bytes, cp as decoded) to out (>= 8 bytes). */
static size_t safe_char(const char *s, size_t n, uint32_t cp, char *out)
{
    if (cp == RT_TEXT_INVALID) {
        memcpy(out, "\xEF\xBF\xBD", 3);   /* U+FFFD */
        return 3;
    }
    if (cp == '\n' || cp == '\t') {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x20 || cp == 0x7f) {
        out[0] = '^';
        out[1] = cp == 0x7f ? '?' : (char)(cp + '@');
        return 2;
    }
    static const char hex[] = "0123456789ABCDEF";
    if (cp >= 0x80 && cp <= 0x9f) {
        out[0] = '<';
        out[1] = hex[cp >> 4];
        out[2] = hex[cp & 15];
        out[3] = '>';
        return 4;
    }
    if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
        memcpy(out, "<U+20", 5);   /* a bidi embedding, override or isolate */
        out[5] = hex[cp >> 4 & 15];
        out[6] = hex[cp & 15];
        out[7] = '>';
        return 8;
    }
    memcpy(out, s, n);
    return n;
}

/* Could these n bytes (1-3) be the start of a valid character whose rest is still to come? */
static int incomplete(const unsigned char *s, size_t n)
{
    size_t need = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
                  : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : 0;
    if (!need || n >= need)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return 1;
}

size_t rt_safeout_text(const char *s, size_t len, char *buf, size_t n)
{
    size_t o = 0;
    if (!n)
        return 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = rt_text_decode(s + i, len - i, &cp);
        char tmp[8];
        size_t m = safe_char(s + i, k, cp, tmp);
        if (o + m >= n)
            break;
        memcpy(buf + o, tmp, m);
        o += m;
        i += k;
    }
    buf[o] = '\0';
    return o;
}

static int put_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

static ssize_t so_write(void *cookie, const char *buf, size_t size)
{
    safeout *so = cookie;
    char out[4096 + 64];
    size_t o = 0, i = 0;
    char joined[8];
    /* finish a character held from the last write */
    while (so->ncarry && i < size) {
        so->carry[so->ncarry++] = buf[i++];
        if (!incomplete((const unsigned char *)so->carry, so->ncarry)) {
            memcpy(joined, so->carry, so->ncarry);
            uint32_t cp;
            size_t k = rt_text_decode(joined, so->ncarry, &cp);
            o += safe_char(joined, k, cp, out + o);
            if (k < so->ncarry)   /* invalid: the bytes after the first are read again below */
                i -= so->ncarry - k;
            so->ncarry = 0;
        }
    }
    while (i < size) {
        if (size - i < 4 && incomplete((const unsigned char *)buf + i, size - i)) {
            memcpy(so->carry, buf + i, size - i);
            so->ncarry = size - i;
            break;
        }
        uint32_t cp;
        size_t k = rt_text_decode(buf + i, size - i, &cp);
        o += safe_char(buf + i, k, cp, out + o);
        i += k;
        if (o > 4096) {
            if (put_all(so->fd, out, o) != 0)
                return -1;
            o = 0;
        }
    }
    if (o && put_all(so->fd, out, o) != 0)
        return -1;
    return (ssize_t)size;
}

static int so_close(void *cookie)
{
    safeout *so = cookie;
    int rc = 0;
    if (so->ncarry)
        rc = put_all(so->fd, "\xEF\xBF\xBD", 3);   /* a character never finished */
    so->used = 0;
    return rc;
}

FILE *rt_safeout_open(int fd)
{
    safeout *so = NULL;
    for (size_t i = 0; !so && i < sizeof pool / sizeof pool[0]; i++)
        if (!pool[i].used)
            so = &pool[i];
    if (!so)
        return NULL;   /* the caller writes unfiltered to a file descriptor it then checks */
    *so = (safeout){.fd = fd, .used = 1};
    cookie_io_functions_t io = {.read = NULL, .write = so_write, .seek = NULL, .close = so_close};
    FILE *f = fopencookie(so, "w", io);
    if (!f)
        so->used = 0;
    return f;
}
