/* rt_text — text for the terminal: turning arbitrary input bytes into a sequence of safely
 * drawable characters with known display widths, and fitting or wrapping it to columns.
 *
 * Widths come from utf8proc and are checked against the C library's wcwidth (which ncurses
 * advances by); a character on which the two disagree, or which terminals draw unreliably
 * (zero-width joiners, variation selectors, …), is replaced or dropped, so that the width the
 * layout computes is the width the terminal draws. Control characters, tabs and escape sequences
 * are never passed through: they become visible escapes (e.g. "^[", "\t" as "→"?) — see
 * rt_text_sanitize. Invalid UTF-8 bytes become U+FFFD. */
#ifndef RT_TEXT_H
#define RT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* One drawable character: a code point, its width in columns (0, 1 or 2), where it came from in
 * the input (byte offset and length, for mapping highlights), and whether it is an escape that
 * stands for something that was not drawable (to be drawn in a distinct attribute). */
typedef struct rt_glyph {
    uint32_t cp;
    uint8_t width;
    uint8_t escaped;
    uint32_t src_off;
    uint32_t src_len;
} rt_glyph;

typedef struct rt_glyphs {
    rt_glyph *g;
    size_t n, cap;
    size_t width;      /* total display width */
} rt_glyphs;

/* Converts len bytes at s into drawable glyphs appended to out (which starts zeroed and is
 * released with rt_glyphs_free). Newlines become spaces unless keep_newlines, in which case they
 * stay as cp '\n' with width 0 (for wrapping). */
void rt_text_sanitize(const char *s, size_t len, int keep_newlines, rt_glyphs *out);
void rt_glyphs_free(rt_glyphs *g);

/* Display width of len bytes at s after sanitising. */
size_t rt_text_width(const char *s, size_t len);

/* How many glyphs, from glyph start on, fit into cols columns without splitting a wide
 * character; *used receives the columns they take. */
size_t rt_glyphs_fit(const rt_glyphs *g, size_t start, size_t cols, size_t *used);

/* Wraps glyphs into lines of at most cols columns, breaking after spaces where possible (CJK
 * text breaks anywhere); writes each line's first glyph index to starts (capacity max) and
 * returns the number of lines (which may exceed max; only max are written). */
size_t rt_glyphs_wrap(const rt_glyphs *g, size_t cols, size_t *starts, size_t max);

/* Encodes glyphs [from, to) as UTF-8 into buf (capacity n, NUL-terminated, truncated at a glyph
 * boundary); returns the bytes written. */
size_t rt_glyphs_utf8(const rt_glyphs *g, size_t from, size_t to, char *buf, size_t n);

/* The width a terminal advances for cp according to the C library (wcwidth), for tests. */
int rt_text_libc_width(uint32_t cp);

#endif
