/* rt_utf8 — validating UTF-8 and repairing it for output that must be UTF-8. */
#include "config.h"

#include <string.h>

#include "rt_mem.h"
#include "rt_utf8.h"

size_t rt_utf8_invalid_at(const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        unsigned lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF)
            n = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else
            return i;
        if (i + n >= len)
            return i;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return i;
        for (size_t k = 2; k <= n; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return i;
        i += n + 1;
    }
    return len;
}

int rt_utf8_valid(const char *s, size_t len) { return rt_utf8_invalid_at(s, len) == len; }

char *rt_utf8_repaired(const char *s)
{
    size_t len = strlen(s), o = 0;
    char *out = rt_malloc(len * 3 + 1);
    while (len) {
        size_t ok = rt_utf8_invalid_at(s, len);
        memcpy(out + o, s, ok);
        o += ok;
        s += ok;
        len -= ok;
        if (len) {
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            s++;
            len--;
        }
    }
    out[o] = '\0';
    return out;
}
