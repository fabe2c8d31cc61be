/* rt_spanf1 — DuReader-retrieval's distant supervision (its §2.2, Algorithm 1): how close a
 * passage comes to a human answer. Both are normalised the same way — lower-cased as Python's
 * str.lower() (utf8proc's mappings, the final sigma and İ as Python's), whitespace and
 * separators (Unicode Z*), control and format characters (C*) and
 * punctuation (P*) dropped, each remaining character a token — and a span s of the passage
 * scores F1(s, a) = 2·ov / (|s| + |a|) against answer a, ov the size of the multiset
 * intersection of their characters. The best span is found exactly, as a fractional programme
 * (Dinkelbach, see rt_spanf1.c): a few linear sweeps over the passage's answer characters, each
 * asking whether some span beats the best F1 so far, all in integers, so the best F1 and the
 * decision F1 >= t are exactly the brute-force ones; time O(|p|) per sweep whatever |a| is, so a
 * long passage against a long answer stays linear (tests/bench/PERF.md). */
#ifndef RT_SPANF1_H
#define RT_SPANF1_H

#include <stddef.h>
#include <stdint.h>

/* A normalised text: its characters and, for each, where it came from in the original bytes. */
typedef struct rt_normtext {
    uint32_t *cp;
    uint32_t *off, *len;   /* byte offset and length of character i in the original */
    size_t n;
    /* an answer's distinct characters (sorted) and their counts, made once by
     * rt_normtext_prepare (else each search makes them) */
    uint32_t *acp, *aneed;
    size_t an;
} rt_normtext;

/* Normalises len bytes of UTF-8 at s. Invalid bytes are dropped, after they end a word for the
 * final sigma as Python's U+FFFD would (decode(errors="replace"): "A\xFFΣ" gives a σ). */
void rt_normtext_make(rt_normtext *t, const char *s, size_t len);
void rt_normtext_free(rt_normtext *t);

/* Prepares t to be searched for as an answer many times (its character counts). */
void rt_normtext_prepare(rt_normtext *t);

/* The best span of passage p against answer a. */
typedef struct rt_spanf1 {
    double f1;             /* 0 when nothing overlaps (or a is empty) */
    size_t from, to;       /* the span: normalised characters [from, to) of p */
    size_t answer;         /* which answer (rt_spanf1_best_of) */
} rt_spanf1;

/* The exact best F1 of any span of p against a. With threshold t > 0, stops at the first span
 * reaching F1 >= t (the decision of Algorithm 1; the span is then one that qualifies, not
 * necessarily the best). */
rt_spanf1 rt_spanf1_best(const rt_normtext *p, const rt_normtext *a, double t);

/* The best over n answers (ties: the first answer). */
rt_spanf1 rt_spanf1_best_of(const rt_normtext *p, const rt_normtext *const *answers, size_t n, double t);

/* The same by brute force over every span (for the tests): O(n^2 |a|). */
double rt_spanf1_brute(const rt_normtext *p, const rt_normtext *a);

#endif
