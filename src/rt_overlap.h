/* rt_overlap — which parts of a passage share terms with the query, CJK aware: Chinese text is
 * compared by characters and character bigrams (ignoring punctuation and very common function
 * characters such as 的 了 是), Latin words case-folded and numbers as whole tokens.
 *
 * Tokens, the same for query and passage (full-width ASCII such as "１２３", "ＡＢＣ" counts as
 * ASCII; default-ignorable characters such as U+200B or the soft hyphen are skipped as if absent):
 *   - word: a run of letters that are not wide (Latin, Greek, Cyrillic, …, with their combining
 *     marks), lowercased; letters and digits split, so "iPhone14" is "iphone" and "14";
 *   - number: a run of digits, with at most one decimal point between digits ("3.5"); matched
 *     whole, so "2022" does not match inside "20221";
 *   - CJK character: a wide letter or number (Han, kana, Hangul, 〇), not punctuation or symbol;
 *     a term unless it is one of the stop characters listed in rt_overlap.c;
 *   - CJK bigram: two CJK characters next to each other, a term unless both are stop characters.
 * Terms are the query's distinct words, numbers, characters and bigrams. */
#ifndef RT_OVERLAP_H
#define RT_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

typedef enum rt_overlap_kind {
    RT_OVERLAP_NONE = 0,
    RT_OVERLAP_CHAR = 1,    /* a content character that occurs in the query */
    RT_OVERLAP_TERM = 2,    /* part of a shared bigram, Latin word or number */
} rt_overlap_kind;

typedef struct rt_overlap rt_overlap;

/* Prepares the query's terms (len bytes of UTF-8 at q, which is not kept; invalid bytes are
 * ignored). Owned: the caller frees the result with rt_overlap_free, which sets *o NULL. */
rt_overlap *rt_overlap_new(const char *q, size_t len);
void rt_overlap_free(rt_overlap **o);

/* The number of distinct terms in the query (0 when nothing can be highlighted). */
size_t rt_overlap_nterms(const rt_overlap *o);

/* Marks each byte of the len bytes at text with its overlap kind: mark[i] for text[i] (every
 * byte of a character gets the character's kind): TERM for all bytes of a matching word or
 * number and for both characters of a matching bigram, CHAR for a matching content character
 * outside any matching bigram, NONE elsewhere. mark must hold len bytes. Returns the number of
 * distinct query terms found (a character and the bigrams it is in count separately). */
size_t rt_overlap_mark(const rt_overlap *o, const char *text, size_t len, uint8_t *mark);

#endif
