/* rt_safeout — a stdio stream that writes to a terminal only what cannot drive it: C0 controls
 * but newline and tab become caret escapes ("^[" for ESC, "^M" for CR), DEL "^?", C1 controls
 * "<9B>", the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069, which
 * reorder what the terminal shows after them) "<U+202E>", invalid UTF-8 U+FFFD; everything else
 * passes as it is. The CLI puts standard error
 * (always) and standard output (when it is a terminal) behind one, so that no message or result
 * built from input bytes — a run tag, a bad token, a file name — can set a terminal's title or
 * clipboard. Files and pipes keep the bytes. */
#ifndef RT_SAFEOUT_H
#define RT_SAFEOUT_H

#include <stdio.h>

/* A new stream writing sanitised bytes to fd (not closed with the stream); NULL on failure (at
 * most four are open at once). A character split across writes is held until its end arrives.
 * Owned: the caller closes it with fclose, which frees its slot. */
FILE *rt_safeout_open(int fd);

/* Sanitises len bytes at s into buf (capacity n, NUL-terminated, cut at a character boundary);
 * returns the bytes written. For tests and for messages built outside a stream. */
size_t rt_safeout_text(const char *s, size_t len, char *buf, size_t n);

#endif
