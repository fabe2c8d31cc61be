/* rt_names — the tables that name the values of an enum (formats, export kinds): one lookup in
 * each direction and one list for messages, instead of a loop per module. A table is an array of
 * {name, value} ending with {NULL, 0}; several names may share a value (the first is the one
 * shown). And the one rule for names people give (rt_name_problem). */
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

/* Why name cannot name an annotator, a package (or the prefix of package names), a query set or
 * a run, or NULL when it can. Such a name is shown on every screen and must be the same name
 * however it was typed or pasted: it must not be empty, must be valid UTF-8, must hold no
 * control character (C0, DEL, C1), must not begin or end with a separator or format character
 * (Unicode categories Zs, Zl, Zp, Cf: spaces of every width, U+200B, U+FEFF, …), and must hold
 * no bidirectional control anywhere (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069),
 * which would reorder what is drawn around it. Borrowed: the reason is a static string. Every module that
 * takes such a name calls this (rt_journal_name_problem adds what a file name needs). */
const char *rt_name_problem(const char *name);

#endif
