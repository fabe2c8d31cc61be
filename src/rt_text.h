/* rt_text — text for the terminal: turning arbitrary input bytes into a sequence of safely
 * drawable characters with known display widths, and fitting or wrapping it to columns.
 *
 * Widths come from utf8proc and are checked against the C library's wcwidth (which ncurses
 * advances by); a character on which the two disagree, or which terminals draw unreliably
 * (zero-width joiners, variation selectors, …), is replaced or dropped, so that the width the
 * layout computes is the width the terminal draws. Control characters, tabs and escape sequences
 * are never passed through: they become visible escapes ("^[" for ESC, "⇥" for a tab) — see
 * rt_text_sanitize. Invalid UTF-8 becomes U+FFFD. The check uses wcwidth under the caller's
 * LC_CTYPE, so the program must have set a UTF-8 locale (setlocale(LC_CTYPE, "")) first; this
 * module never changes the locale. */
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
 * released with rt_glyphs_free); out->width grows by their widths. The rules:
 *   - printable ASCII, and any character whose width utf8proc and wcwidth agree on (0, 1 or 2),
 *     is kept; a width-0 character (a combining mark) is kept only on a drawable base, at most 4
 *     per base (an ncurses cell holds 5 characters; more are dropped);
 *   - '\n' (and U+2028, U+2029) becomes a space, or with keep_newlines a glyph cp '\n' of
 *     width 0 that ends a line in rt_glyphs_fit and rt_glyphs_wrap and is never drawn;
 *   - escaped=1, drawn as shown: TAB → "⇥" (U+21E5, width 1, not East Asian ambiguous);
 *     other C0 controls and DEL → caret notation "^@" … "^_", "^?" (ESC → "^[", so ESC [31m
 *     shows as "^[[31m"; CR → "^M"); C1 controls U+0080–U+009F → "<80>" … "<9F>"; invalid UTF-8
 *     (each maximal invalid subsequence), unassigned and private-use code points, format
 *     characters that are not default-ignorable (e.g. U+0600, U+FFF9), a combining mark
 *     without a base, and any character whose widths disagree or that wcwidth rejects → U+FFFD;
 *   - dropped (no glyph): default-ignorable characters — U+00AD soft hyphen, U+034F, U+061C,
 *     U+115F/U+1160/U+3164/U+FFA0 Hangul fillers, U+17B4–U+17B5, U+180B–U+180F, U+200B–U+200F
 *     (ZWSP, ZWNJ, ZWJ, LRM, RLM), U+202A–U+202E and U+2066–U+206F (bidi controls), U+2060–U+2064
 *     (word joiner, invisible operators), U+FE00–U+FE0F and U+E0100–U+E01EF (variation
 *     selectors), U+FEFF, U+1BCA0–U+1BCA3, U+1D173–U+1D17A, U+E0001 and U+E0020–U+E007F (tags)
 *     — and emoji skin-tone modifiers U+1F3FB–U+1F3FF after a wide character; so an emoji ZWJ
 *     sequence shows as its emoji side by side and "❤️" as "❤";
 *   - conjoining Hangul jamo L V [T] are composed to the precomposed syllable.
 * Each glyph's range [src_off, src_off + src_len) is relative to s (input past 4 GiB is ignored):
 * all glyphs of one escape share the range of the character they stand for; dropped characters
 * extend the range of the glyph before them (leading ones the range of the first glyph). So
 * when any glyph is produced, the ranges, in order, tile the input. */
void rt_text_sanitize(const char *s, size_t len, int keep_newlines, rt_glyphs *out);
void rt_glyphs_free(rt_glyphs *g);

/* Display width of len bytes at s after sanitising. */
size_t rt_text_width(const char *s, size_t len);

/* How many glyphs, from glyph start on, fit into cols columns without splitting a wide
 * character; *used (may be NULL) receives the columns they take. Zero-width glyphs after the
 * last fitting one are included, and counting stops after a kept newline glyph. */
size_t rt_glyphs_fit(const rt_glyphs *g, size_t start, size_t cols, size_t *used);

/* Wraps glyphs into lines of at most cols columns, breaking after spaces where possible (CJK
 * text breaks anywhere); writes each line's first glyph index to starts (capacity max) and
 * returns the number of lines (which may exceed max; only max are written). Line i is the glyphs
 * [starts[i], starts[i + 1]), the last one ends at g->n; no text gives no lines. A line ends
 * after a kept newline glyph; a break goes after a space (a space never starts a line unless the
 * text or a hard break puts it there) or beside a wide character, but not before closing nor
 * after opening punctuation ("，。）" / "（《“"); a word longer than cols is broken where it
 * reaches cols; a combining mark stays with its base. Only when cols is smaller than one glyph
 * (cols 0, or 1 before a wide character) does a line hold that single glyph and exceed cols. */
size_t rt_glyphs_wrap(const rt_glyphs *g, size_t cols, size_t *starts, size_t max);

/* Encodes glyphs [from, to) as UTF-8 into buf (capacity n, NUL-terminated when n > 0,
 * truncated at a glyph boundary); returns the bytes written before the NUL. Newline glyphs are
 * written as nothing, so the result never holds a control character. */
size_t rt_glyphs_utf8(const rt_glyphs *g, size_t from, size_t to, char *buf, size_t n);

/* The width a terminal advances for cp according to the C library (wcwidth under the current
 * LC_CTYPE; -1 when it is not printable), for tests. */
int rt_text_libc_width(uint32_t cp);

#define RT_TEXT_INVALID UINT32_MAX

/* Decodes the character at s (len >= 1 bytes): returns its length in bytes and stores its code
 * point in *cp, or for invalid UTF-8 the length of the maximal invalid subsequence (at least 1)
 * and RT_TEXT_INVALID. Overlongs, surrogates and code points past U+10FFFF are invalid. */
size_t rt_text_decode(const char *s, size_t len, uint32_t *cp);

/* Short forms of n names (run names in table headers), each at most cols columns wide, that tell
 * them apart: a name that fits is kept; a longer one keeps, from the start of a word, what follows
 * the longest start it shares with another name ("…jieba" beside "…bigram" for xapian-bm25-jieba
 * and xapian-bm25-bigram), cut with "…" when still too wide; forms that would still be equal for
 * different names become "#k" (k the 1-based position). out[i] are new strings (caller frees).
 * Returns how many names were shortened, so the caller can show a legend when any was. */
size_t rt_text_short_names(const char *const *names, size_t n, size_t cols, char **out);

#endif
