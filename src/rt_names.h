/* rt_names — the tables that name the values of an enum (formats, export kinds): one lookup in
 * each direction and one list for messages, instead of a loop per module. A table is an array of
 * {name, value} ending with {NULL, 0}; several names may share a value (the first is the one
 * shown). */
#ifndef RT_NAMES_H
#define RT_NAMES_H

#include <stddef.h>

typedef struct rt_name {
    const char *name;
    int value;
} rt_name;

/* Sets *value to the value named name and returns 1; 0 when the table has no such name. */
int rt_name_value(const rt_name *t, const char *name, int *value);

/* The first name of value, or "?". Borrowed: one of t's strings, or a static "?". */
const char *rt_name_of(const rt_name *t, int value);

/* The names of the table, each value once, as "a, b, c" into buf; returns buf (cut to fit).
 * Borrowed: it is the caller's buf. */
const char *rt_name_list(const rt_name *t, char *buf, size_t n);

#endif
