/* rt_json — what every JSON input is checked for before and while cJSON reads it: ids that are
 * strings or exact whole numbers, and no string that decodes to hold U+0000. */
#include "config.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <string.h>

#include "rt_json.h"
#include "rt_num.h"

int rt_json_id(const struct cJSON *v, char *buf, size_t n, const char **s)
{
    if (cJSON_IsString(v)) {
        *s = v->valuestring;
        return (int)strlen(v->valuestring);
    }
    int64_t x;
    if (cJSON_IsNumber(v) && rt_num_int_value_in(v->valuedouble, -RT_JSON_INT_MAX, RT_JSON_INT_MAX, &x)) {
        *s = buf;
        return snprintf(buf, n, "%lld", (long long)x);
    }
    return -1;
}

size_t rt_json_nul_at(const char *s, size_t len)
{
    /* the common case, nothing to look at: no backslash followed by u0000 and no NUL byte */
    const char *z = memchr(s, 0, len);
    size_t lim = z ? (size_t)(z - s) : len;
    int maybe = 0;
    for (const char *b = s; !maybe && (b = memchr(b, '\\', lim - (size_t)(b - s))); b++)
        maybe = lim - (size_t)(b - s) >= 6 && memcmp(b, "\\u0000", 6) == 0;
    if (!maybe)
        return lim;
    int in_str = 0;
    for (size_t i = 0; i < lim; i++) {
        if (!in_str) {
            in_str = s[i] == '"';
        } else if (s[i] == '"') {
            in_str = 0;
        } else if (s[i] == '\\') {
            if (lim - i >= 6 && memcmp(s + i, "\\u0000", 6) == 0)
                return i;
            i++;   /* the escaped byte (an escaped backslash or quote among them) */
        }
    }
    return lim;
}

rt_status rt_json_check_nul(const char *path, size_t line, const char *s, size_t len, rt_err *err)
{
    size_t at = rt_json_nul_at(s, len);
    if (at == len)
        return RT_OK;
    size_t col = 1;
    for (size_t i = 0; i < at; i++, col++)
        if (s[i] == '\n')
            line++, col = 0;
    return rt_err_at(err, RT_EINPUT, path, line, "a JSON string holds %s at column %zu: ids and texts "
                     "cannot hold U+0000", s[at] ? "\\u0000" : "a NUL byte", col);
}
