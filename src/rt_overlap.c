/* rt_overlap — query-term overlap for highlighting: the query and the passage are cut into the
 * same tokens (words, numbers, CJK characters and bigrams) and a passage token is marked when
 * the query has it. Terms are interned as short byte keys with a one-byte kind prefix. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "rt_mem.h"
#include "rt_overlap.h"
#include "rt_strtab.h"
#include "rt_text.h"

/* Very common function characters: alone they say nothing about relevance, so they are never
 * terms by themselves, and a bigram of two of them (是什, 什么) is not a term either; a bigram
 * of one with a content character (的书) is. The simplified forms come first, then the
 * traditional forms of those that differ, for traditional-script queries. */
static const uint32_t stop_chars[] = {
    0x7684, /* 的 */ 0x4E86, /* 了 */ 0x662F, /* 是 */ 0x5728, /* 在 */ 0x548C, /* 和 */
    0x4E0E, /* 与 */ 0x6216, /* 或 */ 0x4E5F, /* 也 */ 0x5C31, /* 就 */ 0x90FD, /* 都 */
    0x800C, /* 而 */ 0x53CA, /* 及 */ 0x7740, /* 着 */ 0x5417, /* 吗 */ 0x5462, /* 呢 */
    0x5427, /* 吧 */ 0x554A, /* 啊 */ 0x4E48, /* 么 */ 0x4EC0, /* 什 */ 0x600E, /* 怎 */
    0x54EA, /* 哪 */ 0x4E2A, /* 个 */ 0x4E00, /* 一 */ 0x6709, /* 有 */ 0x4E3A, /* 为 */
    0x8FD9, /* 这 */ 0x90A3, /* 那 */ 0x4E4B, /* 之 */ 0x5176, /* 其 */ 0x628A, /* 把 */
    0x88AB, /* 被 */ 0x5BF9, /* 对 */ 0x4ECE, /* 从 */ 0x5411, /* 向 */ 0x4EE5, /* 以 */
    0x4E8E, /* 于 */ 0x7B49, /* 等 */ 0x8BF7, /* 请 */ 0x95EE, /* 问 */
    /* traditional: */
    0x8207, /* 與 */ 0x55CE, /* 嗎 */ 0x9EBC, /* 麼 */ 0x500B, /* 個 */ 0x70BA, /* 為 */
    0x9019, /* 這 */ 0x5C0D, /* 對 */ 0x5F9E, /* 從 */ 0x65BC, /* 於 */ 0x8ACB, /* 請 */
    0x554F, /* 問 */
};

static int is_stop(uint32_t cp)
{
    for (size_t i = 0; i < sizeof stop_chars / sizeof stop_chars[0]; i++)
        if (stop_chars[i] == cp)
            return 1;
    return 0;
}

struct rt_overlap {
    rt_strtab *terms;   /* keys: 'w' word or number, 'c' character, 'b' bigram (UTF-8 after) */
};

typedef enum cls { CLS_SEP, CLS_SKIP, CLS_DIGIT, CLS_LETTER, CLS_MARK, CLS_CJK } cls;

/* Full-width ASCII (Ａ, １, ．) is compared as ASCII. */
static uint32_t narrow(uint32_t cp) { return cp >= 0xFF01 && cp <= 0xFF5E ? cp - 0xFEE0 : cp; }

static cls classify(uint32_t cp)
{
    if (cp == RT_TEXT_INVALID)
        return CLS_SEP;
    if (cp < 0x80) {
        if (cp >= '0' && cp <= '9')
            return CLS_DIGIT;
        if ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z')
            return CLS_LETTER;
        return CLS_SEP;
    }
    const utf8proc_property_t *p = utf8proc_get_property((utf8proc_int32_t)cp);
    if (p->ignorable)
        return CLS_SKIP;   /* invisible (ZWSP, soft hyphen, …): neither joins nor separates */
    switch (p->category) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
        return utf8proc_charwidth((utf8proc_int32_t)cp) == 2 ? CLS_CJK
               : p->category <= UTF8PROC_CATEGORY_LO ? CLS_LETTER : CLS_SEP;
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
        return CLS_MARK;
    default:
        return CLS_SEP;   /* punctuation, symbols, spaces, controls */
    }
}

typedef struct tok {
    cls kind;            /* CLS_LETTER (a word), CLS_DIGIT (a number), CLS_CJK, or CLS_SEP/SKIP */
    size_t start, end;   /* bytes */
    uint32_t cp;         /* CLS_CJK: the character */
} tok;

typedef struct scan {
    const char *s;
    size_t len, i;
    char *key;           /* the current word's or number's key, 'w' first */
    size_t keylen, keycap;
} scan;

static void key_put(scan *sc, uint32_t cp)
{
    RT_GROW(sc->key, sc->keycap, sc->keylen + 4);
    sc->keylen += (size_t)utf8proc_encode_char((utf8proc_int32_t)cp,
                                               (utf8proc_uint8_t *)sc->key + sc->keylen);
}

static uint32_t peek(const scan *sc, size_t at, size_t *n)
{
    uint32_t cp;
    *n = rt_text_decode(sc->s + at, sc->len - at, &cp);
    return cp == RT_TEXT_INVALID ? cp : narrow(cp);
}

/* Extends a word or number that starts at t->start; invisible characters inside are skipped,
 * combining marks stay in words, and a number may have one decimal point between digits. */
static void run(scan *sc, tok *t)
{
    int dot = 0;
    size_t at = t->start, n;
    while (at < sc->len) {
        uint32_t cp = peek(sc, at, &n);
        cls c = classify(cp);
        if (c == CLS_SKIP) {
            at += n;
            continue;
        }
        if (t->kind == CLS_DIGIT && cp == '.' && !dot && at + n < sc->len) {
            size_t m;
            if (classify(peek(sc, at + n, &m)) != CLS_DIGIT)
                break;
            dot = 1;
        } else if (c != t->kind && !(t->kind == CLS_LETTER && c == CLS_MARK)) {
            break;
        }
        key_put(sc, t->kind == CLS_LETTER ? (uint32_t)utf8proc_tolower((utf8proc_int32_t)cp) : cp);
        at += n;
        t->end = at;
    }
}

/* The next token; sc->key holds its key when it is a word or number. */
static int next(scan *sc, tok *t)
{
    if (sc->i >= sc->len)
        return 0;
    size_t n;
    uint32_t cp = peek(sc, sc->i, &n);
    *t = (tok){.kind = classify(cp), .start = sc->i, .end = sc->i + n, .cp = cp};
    if (t->kind == CLS_MARK)
        t->kind = CLS_SEP;
    if (t->kind == CLS_LETTER || t->kind == CLS_DIGIT) {
        sc->keylen = 0;
        key_put(sc, 'w');
        run(sc, t);
    }
    sc->i = t->end;
    return 1;
}

static size_t cjk_key(char *b, char kind, uint32_t a, uint32_t c)
{
    size_t n = 1;
    b[0] = kind;
    if (a)
        n += (size_t)utf8proc_encode_char((utf8proc_int32_t)a, (utf8proc_uint8_t *)b + n);
    n += (size_t)utf8proc_encode_char((utf8proc_int32_t)c, (utf8proc_uint8_t *)b + n);
    return n;
}

rt_overlap *rt_overlap_new(const char *q, size_t len)
{
    rt_overlap *o = rt_calloc(1, sizeof *o);
    o->terms = rt_strtab_new();
    scan sc = {.s = q, .len = q ? len : 0};
    tok t;
    uint32_t prev = 0;   /* the CJK character just before, or 0 */
    while (next(&sc, &t)) {
        char b[9];
        if (t.kind == CLS_SKIP)
            continue;
        if (t.kind == CLS_LETTER || t.kind == CLS_DIGIT)
            rt_strtab_intern(o->terms, sc.key, sc.keylen);
        if (t.kind != CLS_CJK) {
            prev = 0;
            continue;
        }
        if (!is_stop(t.cp))
            rt_strtab_intern(o->terms, b, cjk_key(b, 'c', 0, t.cp));
        if (prev && !(is_stop(prev) && is_stop(t.cp)))
            rt_strtab_intern(o->terms, b, cjk_key(b, 'b', prev, t.cp));
        prev = t.cp;
    }
    free(sc.key);
    return o;
}

void rt_overlap_free(rt_overlap **op)
{
    if (!op || !*op)
        return;
    rt_strtab_free(&(*op)->terms);
    free(*op);
    *op = NULL;
}

size_t rt_overlap_nterms(const rt_overlap *o) { return rt_strtab_count(o->terms); }

/* Looks a key up; counts the term the first time it is found. */
static int found(const rt_overlap *o, const char *key, size_t n, uint8_t *seen, size_t *distinct)
{
    uint32_t id = rt_strtab_find(o->terms, key, n);
    if (id == RT_NO_ID)
        return 0;
    if (!seen[id]) {
        seen[id] = 1;
        ++*distinct;
    }
    return 1;
}

size_t rt_overlap_mark(const rt_overlap *o, const char *text, size_t len, uint8_t *mark)
{
    memset(mark, RT_OVERLAP_NONE, len);
    size_t nterms = rt_strtab_count(o->terms), distinct = 0;
    if (nterms == 0)
        return 0;
    uint8_t *seen = rt_calloc(nterms, 1);
    scan sc = {.s = text, .len = len};
    tok t, prev = {.kind = CLS_SEP};
    while (next(&sc, &t)) {
        char b[9];
        if (t.kind == CLS_SKIP)
            continue;
        if ((t.kind == CLS_LETTER || t.kind == CLS_DIGIT) &&
            found(o, sc.key, sc.keylen, seen, &distinct))
            memset(mark + t.start, RT_OVERLAP_TERM, t.end - t.start);
        if (t.kind == CLS_CJK) {
            if (!is_stop(t.cp) && found(o, b, cjk_key(b, 'c', 0, t.cp), seen, &distinct))
                memset(mark + t.start, RT_OVERLAP_CHAR, t.end - t.start);
            if (prev.kind == CLS_CJK &&
                found(o, b, cjk_key(b, 'b', prev.cp, t.cp), seen, &distinct)) {
                memset(mark + prev.start, RT_OVERLAP_TERM, prev.end - prev.start);
                memset(mark + t.start, RT_OVERLAP_TERM, t.end - t.start);
            }
        }
        prev = t;
    }
    free(seen);
    free(sc.key);
    return distinct;
}
