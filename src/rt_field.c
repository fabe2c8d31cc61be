/* rt_field — splitting a line into fields (TREC blanks, TSV tabs) and telling a record line
 * from a blank or comment one. */
#include "config.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt_field.h"
#include "rt_num.h"

/* Index (0–8) of the first space or tab among the eight bytes of w, in memory order. */
static inline size_t blank_in_word(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    uint64_t a = w ^ (0x20 * ones), b = w ^ (0x09 * ones);
    uint64_t z = ((a - ones) & ~a & high) | ((b - ones) & ~b & high);
    return z ? (size_t)__builtin_ctzll(z) / 8 : 8;
}

size_t rt_field_split_ws(const char *line, size_t len, rt_field *f, size_t max)
{
    size_t n = 0, i = 0;
    for (;;) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= len)
            return n;
        size_t b = i;
        /* Fields are long ids: look for the end eight bytes at a time (little-endian order). */
        while (RT_NUM_LITTLE_ENDIAN && i + 8 <= len) {
            uint64_t w;
            memcpy(&w, line + i, 8);
            size_t k = blank_in_word(w);
            i += k;
            if (k < 8)
                break;
        }
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        if (n < max) {
            f[n].s = line + b;
            f[n].len = i - b;
        }
        n++;
    }
}

size_t rt_field_split_tab(const char *line, size_t len, rt_field *f, size_t max)
{
    size_t n = 0, b = 0;
    for (;;) {
        const char *t = memchr(line + b, '\t', len - b);
        size_t e = t ? (size_t)(t - line) : len;
        if (n < max) {
            f[n].s = line + b;
            f[n].len = e - b;
        }
        n++;
        if (!t)
            return n;
        b = e + 1;
    }
}

size_t rt_field_split_tab_all(const char *line, size_t len, rt_field **f, size_t *cap)
{
    size_t n = rt_field_split_tab(line, len, *f, *cap);
    if (n <= *cap)
        return n;
    rt_field *more = n <= SIZE_MAX / sizeof *more ? realloc(*f, n * sizeof *more) : NULL;
    if (!more)
        return (size_t)-1;
    *f = more;
    *cap = n;
    size_t again = rt_field_split_tab(line, len, *f, *cap);
    assert(again == n);   /* the same line splits the same way: every field is stored */
    return again;
}

char rt_field_line_first(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i < len ? line[i] : 0;
}

int rt_field_line_skippable(const char *line, size_t len)
{
    char c = rt_field_line_first(line, len);
    return c == 0 || c == '#';
}
