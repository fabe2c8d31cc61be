/* rt_names — name ↔ value tables. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <utf8proc.h>

#include "rt_names.h"
#include "rt_utf8.h"

int rt_name_value(const rt_name *t, const char *name, int *value)
{
    for (; t->name; t++)
        if (strcmp(t->name, name) == 0) {
            *value = t->value;
            return 1;
        }
    return 0;
}

const char *rt_name_of(const rt_name *t, int value)
{
    for (; t->name; t++)
        if (t->value == value)
            return t->name;
    return "?";
}

const char *rt_name_list(const rt_name *t, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (const rt_name *x = t; x->name && o < n; x++) {
        if (strcmp(rt_name_of(t, x->value), x->name) != 0)
            continue;   /* an alias: its value is listed under its first name */
        o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "", x->name);
    }
    return buf;
}

static int is_bidi_control(int32_t cp)
{
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

/* Why cp cannot end a name, or NULL: a space or an invisible character at an end makes a second
 * name that looks like the first. */
static const char *bad_at_end(int32_t cp)
{
    utf8proc_category_t c = utf8proc_category(cp);
    if (c == UTF8PROC_CATEGORY_ZS || c == UTF8PROC_CATEGORY_ZL || c == UTF8PROC_CATEGORY_ZP)
        return "it has spaces around it";
    return c == UTF8PROC_CATEGORY_CF ? "it has an invisible (format) character at an end" : NULL;
}

const char *rt_name_problem(const char *name)
{
    if (!name || !name[0])
        return "it is empty";
    size_t len = strlen(name);
    if (!rt_utf8_valid(name, len))
        return "it is not valid UTF-8";
    const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)name;
    int32_t first = -1, last = -1;
    for (size_t i = 0; i < len;) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t n = utf8proc_iterate(s + i, (utf8proc_ssize_t)(len - i), &cp);
        if (n <= 0)
            return "it is not valid UTF-8";
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
            return "it holds a control character";
        if (is_bidi_control(cp))
            return "it holds a bidirectional control character (it would reorder what is shown around it)";
        if (first < 0)
            first = cp;
        last = cp;
        i += (size_t)n;
    }
    const char *why = bad_at_end(first);
    return why ? why : bad_at_end(last);
}
