/* rt_overlap — which parts of a passage share terms with the query, CJK aware: Chinese text is
 * compared by characters and character bigrams (ignoring punctuation and very common function
 * characters such as 的 了 是), Latin words case-folded and numbers as whole tokens. */
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

/* Prepares the query's terms (len bytes of UTF-8 at q; invalid bytes are ignored). */
rt_overlap *rt_overlap_new(const char *q, size_t len);
void rt_overlap_free(rt_overlap **o);

/* Marks each byte of the len bytes at text with its overlap kind: mark[i] for text[i] (every
 * byte of a character gets the character's kind). mark must hold len bytes. Returns the number
 * of distinct query terms found. */
size_t rt_overlap_mark(const rt_overlap *o, const char *text, size_t len, uint8_t *mark);

#endif
