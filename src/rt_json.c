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

/* Past the JSON string starting at s[i] (a quote): the index after its closing quote. */
static size_t skip_string(const char *s, size_t len, size_t i)
{
    for (i++; i < len && s[i] != '"'; i++)
        if (s[i] == '\\')
            i++;
    return i + 1;
}

static size_t skip_blanks(const char *s, size_t len, size_t i)
{
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

static size_t line_at(const char *s, size_t at)
{
    size_t line = 1;
    for (size_t i = 0; i < at; i++)
        line += s[i] == '\n';
    return line;
}

/* Where element index of the array opening at s[i] starts; len when it has none. */
static size_t element_at(const char *s, size_t len, size_t i, long index)
{
    int depth = 0;
    long k = 0;
    for (; i < len; i++) {
        if (s[i] == '"') {
            i = skip_string(s, len, i) - 1;
        } else if (s[i] == '[' || s[i] == '{') {
            size_t first = skip_blanks(s, len, i + 1);
            if (depth++ == 0 && index == 0)
                return first < len && s[first] != ']' ? first : len;
        } else if (s[i] == ']' || s[i] == '}') {
            if (--depth == 0)
                return len;
        } else if (s[i] == ',' && depth == 1 && ++k == index) {
            return skip_blanks(s, len, i + 1);
        }
    }
    return len;
}

size_t rt_json_member_line(const char *s, size_t len, const char *key, long index)
{
    size_t kl = strlen(key);
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '{' || s[i] == '[') {
            depth++;
        } else if (s[i] == '}' || s[i] == ']') {
            depth--;
        } else if (s[i] == '"') {
            size_t end = skip_string(s, len, i);
            size_t v = skip_blanks(s, len, end);
            if (depth == 1 && v < len && s[v] == ':' && end - i - 2 == kl && memcmp(s + i + 1, key, kl) == 0) {
                v = skip_blanks(s, len, v + 1);
                if (index >= 0)
                    v = v < len && s[v] == '[' ? element_at(s, len, v, index) : len;
                return v < len ? line_at(s, v) : 0;
            }
            i = end - 1;
        }
    }
    return 0;
}
