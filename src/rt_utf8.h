/* rt_utf8 — checking that bytes are UTF-8, finding where they stop being, and repairing them. */
#ifndef RT_UTF8_H
#define RT_UTF8_H

#include <stddef.h>

/* True when the len bytes at s are valid UTF-8 (no overlongs, no surrogates). */
int rt_utf8_valid(const char *s, size_t len);

/* A copy of the NUL-terminated s (Owned: the caller frees it with free) with each invalid UTF-8
 * byte replaced by U+FFFD: for strings put into JSON, which must be UTF-8. */
char *rt_utf8_repaired(const char *s);

/* Byte offset of the first invalid UTF-8 sequence in s, or len when all are valid. */
size_t rt_utf8_invalid_at(const char *s, size_t len);

#endif
