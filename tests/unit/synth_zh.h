/* synth_zh.h — synthetic short Chinese queries (4–10 characters) and the edits real query logs
 * are full of (one character inserted or deleted, two neighbours swapped, punctuation or a space
 * added), for measuring the built-in embedder. Shared by tests/unit/test_leak.c and the leak
 * benchmark's generator; everything is static and seeded, so a figure can be reproduced.
 *
 * A query is a run of words cut to its length: a content word is two characters drawn from a
 * fixed list of 413 common characters with Zipf-like frequencies (rank r has weight 1/(r + 10));
 * three words in ten are question or function words (怎么, 什么, 多少, 的, …), as in a query log.
 * So unrelated queries share frequent characters and bigrams, which a threshold must see
 * through, but rarely most of their text. */
#ifndef SYNTH_ZH_H
#define SYNTH_ZH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 413 common characters, most frequent first; each takes three bytes in UTF-8. */
static const char synth_charlist[] =
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学"
    "对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面"
    "公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部"
    "正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关"
    "并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安"
    "表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共"
    "风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管"
    "夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品"
    "士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研";
#define SYNTH_NCHARS ((sizeof synth_charlist - 1) / 3)

static const char *const synth_function_words[] = {
    "怎么", "什么", "多少", "如何", "哪里", "可以", "为什么", "的", "是", "吗", "怎样", "哪个",
    "需要", "有没有", "多久", "能不能", "是不是", "一下", "好不好", "在哪",
};
#define SYNTH_NFUNC (sizeof synth_function_words / sizeof *synth_function_words)

/* Characters for insertions: common ones, so an insertion is plausible. */
static const char *const synth_chars[] = {
    "的", "了", "是", "在", "有", "我", "你", "他", "这", "那", "个", "们", "来", "去",
    "上", "下", "大", "小", "多", "少", "好", "不", "人", "年", "月", "日", "时", "会",
};
static const char *const synth_puncts[] = {"？", "?", "，", "。", "！", "、", "：", "“", "”", "《", "》"};
static const char *const synth_spaces[] = {" ", "\xe3\x80\x80" /* U+3000 */, "  "};

typedef enum synth_edit {
    SYNTH_INSERT, SYNTH_DELETE, SYNTH_SWAP, SYNTH_PUNCT, SYNTH_SPACE, SYNTH_NEDITS
} synth_edit;
static const char *const synth_edit_names[] = {"insert", "delete", "swap", "punctuation", "space"};

typedef struct synth_rng {
    uint64_t s;
} synth_rng;

static inline uint64_t synth_next(synth_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline size_t synth_below(synth_rng *r, size_t n) { return (size_t)(synth_next(r) % n); }

/* Byte offset of character i of s (i may be the character count: the end). */
static inline size_t synth_offset(const char *s, size_t i)
{
    size_t off = 0;
    while (i && s[off]) {
        off++;
        while ((s[off] & 0xc0) == 0x80)
            off++;
        i--;
    }
    return off;
}

/* A character index with weight 1 / (rank + 10), by inverting the cumulative weights. */
static inline size_t synth_char(synth_rng *r)
{
    static double cum[SYNTH_NCHARS];
    if (cum[0] == 0) {
        double s = 0;
        for (size_t i = 0; i < SYNTH_NCHARS; i++)
            cum[i] = s += 1.0 / ((double)i + 10);
    }
    double u = (double)(synth_next(r) >> 11) / 9007199254740992.0 * cum[SYNTH_NCHARS - 1];
    size_t lo = 0, hi = SYNTH_NCHARS - 1;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cum[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Number of UTF-8 characters in s. */
static inline size_t synth_nchars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* Writes a query of 4–10 characters to buf (cap ≥ 40). */
static inline void synth_query(synth_rng *r, char *buf, size_t cap)
{
    size_t want = 4 + synth_below(r, 7), n = 0, len = 0;
    while (n < want && len + 4 <= cap) {
        if (synth_below(r, 10) < 3) {
            const char *w = synth_function_words[synth_below(r, SYNTH_NFUNC)];
            for (; *w && n < want && len + 4 <= cap; n++) {
                size_t cl = synth_offset(w, 1);
                memcpy(buf + len, w, cl);
                len += cl;
                w += cl;
            }
        } else {
            for (int k = 0; k < 2 && n < want; k++, n++, len += 3)
                memcpy(buf + len, synth_charlist + 3 * synth_char(r), 3);
        }
    }
    buf[len] = '\0';
}

static inline void synth_splice(const char *src, size_t at, size_t cut, const char *ins, char *out)
{
    size_t il = strlen(ins);
    memcpy(out, src, at);
    memcpy(out + at, ins, il);
    strcpy(out + at + il, src + at + cut);
}

/* Writes src with one edit of kind e to out (cap ≥ strlen(src) + 16). A swap exchanges two
 * different neighbouring characters (the first such pair from a random start); a query of one
 * repeated character is left as it is. */
static inline void synth_edit_query(synth_rng *r, const char *src, synth_edit e, char *out)
{
    size_t n = synth_nchars(src);
    size_t i = synth_below(r, n + 1);   /* a position between characters */
    switch (e) {
    case SYNTH_INSERT:
        synth_splice(src, synth_offset(src, i), 0, synth_chars[synth_below(r, sizeof synth_chars / sizeof *synth_chars)], out);
        return;
    case SYNTH_PUNCT:
        synth_splice(src, synth_offset(src, i), 0, synth_puncts[synth_below(r, sizeof synth_puncts / sizeof *synth_puncts)], out);
        return;
    case SYNTH_SPACE:
        synth_splice(src, synth_offset(src, i), 0, synth_spaces[synth_below(r, sizeof synth_spaces / sizeof *synth_spaces)], out);
        return;
    case SYNTH_DELETE: {
        size_t at = synth_offset(src, i % n);
        synth_splice(src, at, synth_offset(src, i % n + 1) - at, "", out);
        return;
    }
    default:
        break;
    }
    strcpy(out, src);
    for (size_t k = 0; k + 1 < n; k++) {
        size_t j = (i + k) % (n - 1);
        size_t a = synth_offset(src, j), b = synth_offset(src, j + 1), c = synth_offset(src, j + 2);
        if (b - a == c - b && memcmp(src + a, src + b, b - a) == 0)
            continue;
        memcpy(out + a, src + b, c - b);
        memcpy(out + a + (c - b), src + a, b - a);
        return;
    }
}

#endif
