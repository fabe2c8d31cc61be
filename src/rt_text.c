/* rt_text — sanitising input into glyphs whose widths utf8proc and the C library agree on, and
 * fitting and wrapping them to columns. The rules are listed at rt_text_sanitize in rt_text.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>
#include <wchar.h>

#include "rt_mem.h"
#include "rt_text.h"

#define REPLACEMENT 0xFFFDu
#define TAB_GLYPH 0x21E5u /* ⇥: width 1 in both tables and not East Asian ambiguous */
#define MAX_MARKS 4       /* combining marks kept on one base: a curses cell holds CCHARW_MAX (5) */

size_t rt_text_decode(const char *str, size_t len, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    uint32_t v;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        v = c & 0x0F;
        if (c == 0xE0) lo = 0xA0;   /* overlong */
        if (c == 0xED) hi = 0x9F;   /* surrogate */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        v = c & 0x07;
        if (c == 0xF0) lo = 0x90;   /* overlong */
        if (c == 0xF4) hi = 0x8F;   /* past U+10FFFF */
    } else {
        *cp = RT_TEXT_INVALID;
        return 1;
    }
    for (size_t k = 1; k < n; k++) {
        if (k >= len || s[k] < lo || s[k] > hi) {
            *cp = RT_TEXT_INVALID;
            return k;
        }
        v = (v << 6) | (s[k] & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    *cp = v;
    return n;
}

int rt_text_libc_width(uint32_t cp) { return wcwidth((wchar_t)cp); }

/* Where glyphs go: into out, or (out NULL, for rt_text_width) only counted. The flags describe
 * the last glyph, which decides whether a combining mark or skin-tone modifier may follow. */
typedef struct sink {
    rt_glyphs *out;
    size_t first;       /* this call's first glyph in out */
    size_t width;
    uint32_t covered;   /* input up to here is in some glyph's range */
    int base;           /* the last glyph can carry combining marks */
    int wide;           /* the last glyph is an unescaped wide character */
    int marks;          /* combining marks on that base so far */
} sink;

/* Emits the n glyphs that stand for the input up to end (one character, or one escape). */
static void emit(sink *k, const uint32_t *cps, size_t n, int width, int escaped, uint32_t end)
{
    k->width += (size_t)width * n;
    if (k->out) {
        rt_glyphs *o = k->out;
        RT_GROW(o->g, o->cap, o->n + n);
        for (size_t i = 0; i < n; i++)
            o->g[o->n++] = (rt_glyph){.cp = cps[i], .width = (uint8_t)width,
                                      .escaped = (uint8_t)escaped, .src_off = k->covered,
                                      .src_len = end - k->covered};
        o->width += (size_t)width * n;
    }
    k->covered = end;
    if (width == 0 && cps[0] != '\n') {
        k->marks++;
        return;
    }
    k->base = !escaped && width > 0;
    k->wide = !escaped && width == 2;
    k->marks = 0;
}

static void emit1(sink *k, uint32_t cp, int width, int escaped, uint32_t end)
{
    emit(k, &cp, 1, width, escaped, end);
}

/* A character that gets no glyph: its bytes join the range of the glyphs before it. */
static void drop(sink *k, uint32_t end)
{
    rt_glyphs *o = k->out;
    if (!o || o->n == k->first)
        return;   /* leading: the first glyph's range will start at k->covered */
    uint32_t off = o->g[o->n - 1].src_off;
    for (size_t i = o->n; i > k->first && o->g[i - 1].src_off == off; i--)
        o->g[i - 1].src_len = end - off;
    k->covered = end;
}

static void escape_control(sink *k, uint32_t cp, uint32_t end)
{
    static const char hex[] = "0123456789ABCDEF";
    if (cp < 0x80) {
        uint32_t e[2] = {'^', cp ^ 0x40};   /* ^@ … ^_, and ^? for DEL */
        emit(k, e, 2, 1, 1, end);
    } else {
        uint32_t e[4] = {'<', (uint32_t)hex[cp >> 4], (uint32_t)hex[cp & 15], '>'};
        emit(k, e, 4, 1, 1, end);
    }
}

/* The glyph for a character outside ASCII and the controls: itself when both tables agree on
 * its width, nothing when it is default-ignorable, otherwise U+FFFD. */
static void other(sink *k, uint32_t cp, uint32_t end)
{
    const utf8proc_property_t *p = utf8proc_get_property((utf8proc_int32_t)cp);
    if (p->ignorable || (k->wide && cp >= 0x1F3FB && cp <= 0x1F3FF)) {
        drop(k, end);
        return;
    }
    int w = -1;
    switch (p->category) {
    case UTF8PROC_CATEGORY_CN: case UTF8PROC_CATEGORY_CO: case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CF: case UTF8PROC_CATEGORY_CC:
        break;   /* unassigned, private use, format: no width to trust */
    default:
        w = utf8proc_charwidth((utf8proc_int32_t)cp);
        if (w != rt_text_libc_width(cp) || w > 2)
            w = -1;
        break;
    }
    if (w == 0) {
        int mark = p->category == UTF8PROC_CATEGORY_MN || p->category == UTF8PROC_CATEGORY_ME ||
                   p->category == UTF8PROC_CATEGORY_MC;
        if (mark && k->base && k->marks >= MAX_MARKS) {
            drop(k, end);
            return;
        }
        if (!mark || !k->base)
            w = -1;
    }
    if (w < 0)
        emit1(k, REPLACEMENT, 1, 1, end);
    else
        emit1(k, cp, w, 0, end);
}

/* One decoded character (or RT_TEXT_INVALID) ending at input offset end. */
static void one(sink *k, uint32_t cp, int keep_newlines, uint32_t end)
{
    if (cp >= 0x20 && cp < 0x7F)
        emit1(k, cp, 1, 0, end);
    else if (cp == RT_TEXT_INVALID)
        emit1(k, REPLACEMENT, 1, 1, end);
    else if (cp == '\n' || cp == 0x2028 || cp == 0x2029)
        emit1(k, keep_newlines ? '\n' : ' ', keep_newlines ? 0 : 1, 0, end);
    else if (cp == '\t')
        emit1(k, TAB_GLYPH, 1, 1, end);
    else if (cp < 0xA0)
        escape_control(k, cp, end);
    else
        other(k, cp, end);
}

/* Conjoining jamo: a leading consonant, a vowel and an optional trailing consonant compose to
 * a precomposed syllable (which both tables make 2 wide; the vowels alone they disagree on). */
static size_t hangul(const char *s, size_t len, uint32_t lead, uint32_t *cp)
{
    uint32_t v, t;
    size_t n = rt_text_decode(s, len, &v);
    if (v < 0x1161 || v > 0x1175)
        return 0;
    *cp = 0xAC00 + ((lead - 0x1100) * 21 + (v - 0x1161)) * 28;
    if (n < len) {
        size_t m = rt_text_decode(s + n, len - n, &t);
        if (t >= 0x11A8 && t <= 0x11C2) {
            *cp += t - 0x11A7;
            n += m;
        }
    }
    return n;
}

static void sanitize(const char *s, size_t len, int keep_newlines, sink *k)
{
    if (len > UINT32_MAX)
        len = UINT32_MAX;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = rt_text_decode(s + i, len - i, &cp);
        if (cp >= 0x1100 && cp <= 0x1112 && i + n < len)
            n += hangul(s + i + n, len - i - n, cp, &cp);
        i += n;
        one(k, cp, keep_newlines, (uint32_t)i);
    }
}

void rt_text_sanitize(const char *s, size_t len, int keep_newlines, rt_glyphs *out)
{
    sink k = {.out = out, .first = out->n};
    sanitize(s, len, keep_newlines, &k);
}

void rt_glyphs_free(rt_glyphs *g)
{
    if (!g)
        return;
    free(g->g);
    *g = (rt_glyphs){0};
}

size_t rt_text_width(const char *s, size_t len)
{
    sink k = {0};
    sanitize(s, len, 0, &k);
    return k.width;
}

static int is_newline(const rt_glyph *x) { return x->cp == '\n' && !x->escaped; }

size_t rt_glyphs_fit(const rt_glyphs *g, size_t start, size_t cols, size_t *used)
{
    size_t i = start, u = 0;
    while (i < g->n && u + g->g[i].width <= cols) {
        u += g->g[i].width;
        if (is_newline(&g->g[i++]))
            break;
    }
    if (used)
        *used = u;
    return i - start;
}

/* Spaces a line may break after (not the no-break ones: U+00A0, U+2007, U+202F). */
static int is_space(const rt_glyph *x)
{
    uint32_t c = x->cp;
    return !x->escaped && (c == ' ' || c == 0x3000 || c == 0x1680 || c == 0x205F ||
                           (c >= 0x2000 && c <= 0x200A && c != 0x2007));
}

/* Punctuation that should not start a line (closing: "，。）」…") or end one (opening: "（《“"). */
static int closing(const rt_glyph *x)
{
    int c = utf8proc_category((utf8proc_int32_t)x->cp);
    return c == UTF8PROC_CATEGORY_PE || c == UTF8PROC_CATEGORY_PF || c == UTF8PROC_CATEGORY_PO;
}

static int opening(const rt_glyph *x)
{
    int c = utf8proc_category((utf8proc_int32_t)x->cp);
    return c == UTF8PROC_CATEGORY_PS || c == UTF8PROC_CATEGORY_PI;
}

static int can_break_before(const rt_glyphs *g, size_t j)
{
    const rt_glyph *a = &g->g[j - 1], *b = &g->g[j];
    if (b->width == 0 || is_space(b))
        return 0;
    if (is_space(a))
        return 1;
    if (a->escaped || b->escaped || (a->width < 2 && b->width < 2))
        return 0;
    return !closing(b) && !opening(a);
}

/* Where the line starting at s ends (the next line's start). */
static size_t line_end(const rt_glyphs *g, size_t s, size_t cols)
{
    size_t e = s + rt_glyphs_fit(g, s, cols, NULL);
    if (e == s) {   /* not even one glyph fits: it gets the line, with its marks */
        e++;
        while (e < g->n && g->g[e].width == 0 && !is_newline(&g->g[e]))
            e++;
        return e;
    }
    if (e >= g->n || is_newline(&g->g[e - 1]))
        return e;
    for (size_t j = e; j > s; j--)
        if (can_break_before(g, j))
            return j;
    return e;   /* one long word: break it where it reaches cols */
}

size_t rt_glyphs_wrap(const rt_glyphs *g, size_t cols, size_t *starts, size_t max)
{
    size_t lines = 0;
    for (size_t s = 0; s < g->n; s = line_end(g, s, cols)) {
        if (lines < max)
            starts[lines] = s;
        lines++;
    }
    return lines;
}

static size_t encode(uint32_t cp, char *b)
{
    if (cp < 0x80) {
        b[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        b[0] = (char)(0xC0 | cp >> 6);
        b[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        b[0] = (char)(0xE0 | cp >> 12);
        b[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    b[0] = (char)(0xF0 | cp >> 18);
    b[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    b[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    b[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t rt_glyphs_utf8(const rt_glyphs *g, size_t from, size_t to, char *buf, size_t n)
{
    if (n == 0)
        return 0;
    size_t o = 0;
    for (size_t i = from; i < to && i < g->n; i++) {
        if (is_newline(&g->g[i]))
            continue;
        char b[4];
        size_t m = encode(g->g[i].cp, b);
        if (o + m >= n)
            break;
        for (size_t k = 0; k < m; k++)
            buf[o++] = b[k];
    }
    buf[o] = '\0';
    return o;
}

/* ---- short names ----------------------------------------------------------------------------- */

static int is_name_sep(uint32_t c)
{
    return c == '-' || c == '_' || c == '.' || c == '/' || c == ' ' || c == ':' || c == '+';
}

/* glyphs [from, g->n) cut to cols columns, with "…" before (lead) and/or after when cut. */
static char *cut_form(const rt_glyphs *g, size_t from, size_t cols, int lead)
{
    size_t room = cols > (size_t)lead ? cols - (size_t)lead : 0, used;
    size_t n = rt_glyphs_fit(g, from, room, &used);
    int tail = from + n < g->n;
    if (tail && n > 0)   /* make room for the closing "…" */
        n = rt_glyphs_fit(g, from, room > 0 ? room - 1 : 0, &used);
    size_t cap = 8 + 4 * (n + 1);
    char *s = rt_malloc(cap), *o = s;
    if (lead)
        o += sprintf(o, "\u2026");
    o += rt_glyphs_utf8(g, from, from + n, o, cap - (size_t)(o - s));
    if (tail)
        sprintf(o, "\u2026");
    return s;
}

size_t rt_text_short_names(const char *const *names, size_t n, size_t cols, char **out)
{
    rt_glyphs *g = rt_calloc(n + 1, sizeof *g);
    for (size_t i = 0; i < n; i++)
        rt_text_sanitize(names[i], strlen(names[i]), 0, &g[i]);
    size_t shortened = 0;
    for (size_t i = 0; i < n; i++) {
        if (g[i].width <= cols) {
            out[i] = rt_strdup(names[i]);
            continue;
        }
        /* the longest start it shares with another name: what follows tells it apart */
        size_t lcp = 0;
        for (size_t j = 0; j < n; j++) {
            size_t k = 0;
            while (j != i && k < g[i].n && k < g[j].n && g[i].g[k].cp == g[j].g[k].cp)
                k++;
            if (k > lcp)
                lcp = k;
        }
        size_t from = lcp;
        while (from > 0 && !is_name_sep(g[i].g[from - 1].cp))   /* start at a word */
            from--;
        if (from >= g[i].n)
            from = lcp < g[i].n ? lcp : 0;
        out[i] = cut_form(&g[i], from, cols, from > 0);
        shortened++;
    }
    /* forms that still collide (names that differ only past the columns): numbered */
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(out[i], out[j]) == 0 && strcmp(names[i], names[j]) != 0) {
                for (size_t k = 0; k < n; k++)
                    if (k != i && strcmp(out[k], out[i]) == 0 && strcmp(names[k], names[i]) != 0) {
                        char num[32];
                        snprintf(num, sizeof num, "#%zu", k + 1);
                        free(out[k]);
                        out[k] = rt_strdup(num);
                    }
                char num[32];
                snprintf(num, sizeof num, "#%zu", i + 1);
                free(out[i]);
                out[i] = rt_strdup(num);
            }
    for (size_t i = 0; i < n; i++)
        rt_glyphs_free(&g[i]);
    free(g);
    return shortened;
}
