/* rt_parse — splitting lines into fields and parsing numbers, exactly and fast. Scores are parsed
 * to the same double as strtod (ties in a run depend on exact equality), with a fast path for
 * the plain decimals runs are made of. */
#ifndef RT_PARSE_H
#define RT_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "rt_err.h"

typedef struct rt_field {
    const char *s;
    size_t len;
} rt_field;

/* Splits line at runs of spaces and tabs (TREC files); leading and trailing blanks are ignored.
 * Stores at most max fields and returns how many there are in all (which may exceed max). */
size_t rt_split_ws(const char *line, size_t len, rt_field *f, size_t max);

/* Classifies the 64 bytes at p, all readable: bit i of *blank is set when p[i] is a blank or a
 * tab, of *nl when it is '\n', and of the return when it is any other byte that is not printable
 * ASCII (controls, DEL, every byte from 0x80). SSE2 where there is, a byte loop elsewhere. A line
 * scanner reads a line's end, its fields and whether its ids need checking off these masks. */
static inline uint64_t rt_classify64(const char *p, uint64_t *blank, uint64_t *nl)
{
#ifdef __SSE2__
    const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), del = _mm_set1_epi8(0x7f),
                  lf = _mm_set1_epi8('\n');
    uint64_t b = 0, n = 0, bad = 0;
    for (int k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        __m128i t = _mm_cmpeq_epi8(x, tab), l = _mm_cmpeq_epi8(x, lf);
        __m128i bl = _mm_or_si128(_mm_cmpeq_epi8(x, sp), t);
        /* signed: below ' ' is a control byte or (negative) any byte from 0x80 */
        __m128i odd = _mm_andnot_si128(_mm_or_si128(t, l),
                                       _mm_or_si128(_mm_cmplt_epi8(x, sp), _mm_cmpeq_epi8(x, del)));
        b |= (uint64_t)(uint16_t)_mm_movemask_epi8(bl) << (16 * k);
        n |= (uint64_t)(uint16_t)_mm_movemask_epi8(l) << (16 * k);
        bad |= (uint64_t)(uint16_t)_mm_movemask_epi8(odd) << (16 * k);
    }
    *blank = b;
    *nl = n;
    return bad;
#else
    uint64_t b = 0, n = 0, bad = 0;
    for (int k = 0; k < 64; k++) {
        unsigned char c = (unsigned char)p[k];
        b |= (uint64_t)(c == ' ' || c == '\t') << k;
        n |= (uint64_t)(c == '\n') << k;
        bad |= (uint64_t)((c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f) << k;
    }
    *blank = b;
    *nl = n;
    return bad;
#endif
}

/* Splits line at each tab (TSV files); empty fields are kept. Same return as rt_split_ws. */
size_t rt_split_tab(const char *line, size_t len, rt_field *f, size_t max);

/* Splits line at each tab into *f, an array grown (never shrunk) to hold every field, *cap its
 * size: for a header of any width. Returns the field count, or (size_t)-1 when the memory for
 * them is refused (a line of a million tabs asks for it; *f and *cap are then unchanged). */
size_t rt_split_tab_all(const char *line, size_t len, rt_field **f, size_t *cap);

typedef enum rt_num_status {
    RT_NUM_OK = 0,
    RT_NUM_BAD,        /* not a number */
    RT_NUM_NONFINITE,  /* nan, inf, or overflows to inf */
} rt_num_status;

/* Parses all len bytes at s as a decimal or exponent-form double, rounding like strtod. */
rt_num_status rt_parse_double(const char *s, size_t len, double *out);

/* rt_parse_double (the same answer, always) for s in a padded buffer: s[0 .. len + 32) must be
 * readable. Reads the usual score, [sign] up to 8 digits [. up to 8 digits], eight bytes at a
 * time. */
rt_num_status rt_parse_double_padded(const char *s, size_t len, double *out);

/* ---- eight bytes at a time (SWAR), for buffers with bytes to spare after a field ---- */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RT_LITTLE_ENDIAN 1
#else
#define RT_LITTLE_ENDIAN 0
#endif

#define RT_ONES8 UINT64_C(0x0101010101010101)

/* The eight bytes at p as a little-endian word (byte 0 lowest). */
static inline uint64_t rt_load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if !RT_LITTLE_ENDIAN
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* How many of the bytes of w, from the first, are decimal digits (0–8). A byte below '0' borrows
 * from the bytes after it, and one above '9' carries into them, but never into the ones before:
 * the first non-digit is always found. */
static inline size_t rt_leading_digits(uint64_t w)
{
    uint64_t t = w - 0x30 * RT_ONES8;
    uint64_t nd = (t | (t + 0x76 * RT_ONES8)) & (0x80 * RT_ONES8);
    return nd ? (size_t)__builtin_ctzll(nd) / 8 : 8;
}

/* The value of the first n (0–8) bytes of w, all digits: each step joins neighbouring groups
 * (digit pairs, then fours, then eights), none overflowing its lane. */
static inline uint64_t rt_digits_value(uint64_t w, size_t n)
{
    if (n == 0)
        return 0;
    uint64_t v = (w - 0x30 * RT_ONES8) << (8 * (8 - n));   /* the digits at the top, zeros below */
    v = (v * 10 + (v >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
    v = (v * 100 + (v >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
    return (v * 10000 + (v >> 32)) & UINT64_C(0xFFFFFFFF);
}

/* Writes v into out (RT_G17_MAX bytes) exactly as snprintf's "%.17g" does and returns the
 * length (without the NUL it also writes): the value with 17 significant digits, correctly
 * rounded (ties to even), trailing zeros dropped. Measure values are formatted by the tens of
 * thousands; the usual ones (|v| in [1e-4, 2^53)) without printf. */
#define RT_G17_MAX 32
size_t rt_format_g17(char *out, double v);

/* The decimal digits of v into buf (no sign, no leading zero, no NUL); their count. */
size_t rt_format_u32(char buf[16], uint32_t v);

/* Parses all len bytes at s as a signed decimal integer that fits in int32_t. */
rt_num_status rt_parse_int32(const char *s, size_t len, int32_t *out);

/* True when the len bytes at s are valid UTF-8 (no overlongs, no surrogates). */
int rt_utf8_valid(const char *s, size_t len);

/* A copy of the NUL-terminated s (Owned: the caller frees it with free) with each invalid UTF-8
 * byte replaced by U+FFFD: for strings put into JSON, which must be UTF-8. */
char *rt_utf8_repaired(const char *s);

/* Byte offset of the first invalid UTF-8 sequence in s, or len when all are valid. */
size_t rt_utf8_invalid_at(const char *s, size_t len);



/* True when a line of a line-based format carries no record: blank, or a '#' comment. */
int rt_line_skippable(const char *line, size_t len);

/* The first byte of line that is not a blank or tab, or 0 when there is none. */
char rt_line_first(const char *line, size_t len);

/* Why the len bytes at s cannot be an id (qid or pid), or NULL when they can: ids are non-empty
 * valid UTF-8 without control characters. Borrowed: a static string. */
const char *rt_id_problem(const char *s, size_t len);

/* Checks the query and passage ids of a judgment or a ranked line at path:line: RT_OK, or
 * RT_EINPUT with "bad query id: …" / "bad passage id: …" in err. */
rt_status rt_check_pair_ids(const char *path, size_t line, const char *qid, size_t ql,
                            const char *pid, size_t pl, rt_err *err);

/* True when id can stand in a blank-separated TREC line (no space, tab or other blank in it). */
int rt_id_trec_safe(const char *id);

/* A printable, shortened copy of an id for messages ("…" after 60 bytes; control bytes and the
 * bytes of invalid UTF-8 as \xNN, so the copy is valid UTF-8), written to buf of size n; returns
 * buf. Borrowed: it is the caller's buf. */
char *rt_id_show(const char *s, size_t len, char *buf, size_t n);

/* Parses the whole NUL-terminated string s as a decimal integer (optional sign, digits only) in
 * [min, max]: 1 and *out set, or 0 for anything else (empty, junk, overflow, out of range). Every
 * count, depth, level or grade typed by a user or read from a workspace goes through it. */
int rt_parse_int_in(const char *s, int64_t min, int64_t max, int64_t *out);

/* True (and *out set) when the double d is an integer in [min, max] — for numbers from JSON,
 * where 2.7 or 1e10 must be refused rather than cast. */
int rt_int_value_in(double d, int64_t min, int64_t max, int64_t *out);

/* The largest integer below which every JSON number (a double) is exactly the digits written:
 * numeric ids beyond it are refused (9007199254740993 would read as …992). */
#define RT_JSON_INT_MAX 9007199254740991LL

/* An id in JSON (question_id, paragraph_id): a string, or a whole number within ±RT_JSON_INT_MAX
 * written in decimal into buf. Sets *s to it and returns its length; -1 when v is neither. */
struct cJSON;
int rt_json_id(const struct cJSON *v, char *buf, size_t n, const char **s);


/* Offset in the len bytes of JSON text at s of the first place where a string would decode to
 * hold U+0000 (a \u0000 escape, or a NUL byte), or len when none would. cJSON decodes \u0000
 * into a NUL that then ends the C string early: "q1\u0000x" would be read as "q1" and merged
 * with another query. Every JSON input is checked with it (rt_json_check_nul) before parsing. */
size_t rt_json_nul_at(const char *s, size_t len);

/* RT_OK when no string of the JSON text at s (len bytes, starting at line `line` of path) holds
 * U+0000; else RT_EINPUT with "path:LINE: a JSON string holds \u0000 …" in err, LINE being the
 * line of the escape. */
rt_status rt_json_check_nul(const char *path, size_t line, const char *s, size_t len, rt_err *err);

#endif
