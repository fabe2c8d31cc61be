/* rt_names — name ↔ value tables. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "rt_names.h"

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
