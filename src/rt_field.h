/* rt_field — splitting lines into fields: runs of blanks (TREC files), tabs (TSV files), and the
 * 64-byte classifier a line scanner reads a line's end and fields off. */
#ifndef RT_FIELD_H
#define RT_FIELD_H

#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct rt_field {
    const char *s;
    size_t len;
} rt_field;

/* Splits line at runs of spaces and tabs (TREC files); leading and trailing blanks are ignored.
 * Stores at most max fields and returns how many there are in all (which may exceed max). */
size_t rt_field_split_ws(const char *line, size_t len, rt_field *f, size_t max);

/* Classifies the 64 bytes at p, all readable: bit i of *blank is set when p[i] is a blank or a
 * tab, of *nl when it is '\n', and of the return when it is any other byte that is not printable
 * ASCII (controls, DEL, every byte from 0x80). SSE2 where there is, a byte loop elsewhere. A line
 * scanner reads a line's end, its fields and whether its ids need checking off these masks. */
static inline uint64_t rt_field_classify64(const char *p, uint64_t *blank, uint64_t *nl)
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

/* Splits line at each tab (TSV files); empty fields are kept. Same return as rt_field_split_ws. */
size_t rt_field_split_tab(const char *line, size_t len, rt_field *f, size_t max);

/* Splits line at each tab into *f, an array grown (never shrunk) to hold every field, *cap its
 * size: for a header of any width. Returns the field count, or (size_t)-1 when the memory for
 * them is refused (a line of a million tabs asks for it; *f and *cap are then unchanged). */
size_t rt_field_split_tab_all(const char *line, size_t len, rt_field **f, size_t *cap);

/* True when a line of a line-based format carries no record: blank, or a '#' comment. */
int rt_field_line_skippable(const char *line, size_t len);

/* The first byte of line that is not a blank or tab, or 0 when there is none. */
char rt_field_line_first(const char *line, size_t len);

#endif
