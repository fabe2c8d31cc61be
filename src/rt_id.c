/* rt_id — what a query or passage id may hold, and how one is shown in a message. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "rt_id.h"
#include "rt_utf8.h"

const char *rt_id_problem(const char *s, size_t len)
{
    if (len == 0)
        return "empty id";
    size_t a = 0;   /* the common case, printable ASCII, in one pass */
    while (a < len && (unsigned char)s[a] >= 0x20 && (unsigned char)s[a] < 0x7f)
        a++;
    if (a == len)
        return NULL;
    if (!rt_utf8_valid(s, len))
        return "id is not valid UTF-8";
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            return "control character in id";
    }
    return NULL;
}

rt_status rt_id_check_pair(const char *path, size_t line, const char *qid, size_t ql,
                            const char *pid, size_t pl, rt_err *err)
{
    const char *why = rt_id_problem(qid, ql);
    if (why)
        return rt_err_at(err, RT_EINPUT, path, line, "bad query id: %s", why);
    why = rt_id_problem(pid, pl);
    if (why)
        return rt_err_at(err, RT_EINPUT, path, line, "bad passage id: %s", why);
    return RT_OK;
}

char *rt_id_show(const char *s, size_t len, char *buf, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 8 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i >= 60) {
            memcpy(buf + o, "\xE2\x80\xA6", 3);
            o += 3;
            break;
        }
        size_t k = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                   : c >= 0xF0 && c <= 0xF4 ? 4 : 0;   /* a valid character's bytes, else 0 */
        if (k > 1 && (i + k > len || rt_utf8_invalid_at(s + i, k) != k))
            k = 0;
        if (k == 0 || c < 0x20 || c == 0x7f || c == '\\') {   /* invalid UTF-8 too: as bytes */
            o += (size_t)snprintf(buf + o, n - o, "\\x%02x", c);
        } else if (o + k + 8 < n) {
            memcpy(buf + o, s + i, k);
            o += k;
            i += k - 1;
        } else
            break;
    }
    buf[o] = '\0';
    return buf;
}

int rt_id_trec_safe(const char *id)
{
    return id[strcspn(id, " \t\n\r\v\f")] == '\0';
}
