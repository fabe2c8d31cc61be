/* rt_ngram — the built-in embedder, for leakage checks without a model: TF-IDF vectors of a
 * text's characters and ordered character pairs, hashed into dim dimensions, L2-normalised.
 *
 * It finds lexical near-duplicates, not paraphrases: two texts score high when they share most
 * of their characters in about the same order. Before features are taken, a text is NFKC-
 * normalised and case-folded (so full-width and half-width forms, and upper and lower case, are
 * equal) and every character that is punctuation, a space, a control or a format character is
 * removed, so added punctuation or spaces change nothing. The features of the remaining
 * characters c1…cm:
 *   - each character ci (weight RT_NGRAM_W_CHAR);
 *   - each ordered pair ci cj with 1 ≤ j − i ≤ RT_NGRAM_WINDOW, the pair being the same feature
 *     whatever the distance, and the edge pairs ^c1 and cm$ (weight RT_NGRAM_W_PAIR): a bigram
 *     keeps order, and counting "a_b" as "ab" lets a swapped or inserted character keep most
 *     pairs;
 * each times (1 + ln tf) × idf, idf = ln((1 + N) / (1 + df)) + 1 over the N texts counted with
 * rt_ngram_count (an n-gram never counted gets the largest idf). A feature is added to one of dim
 * dimensions with a sign, both from a 64-bit hash of it (signed feature hashing: collisions
 * cancel on average instead of adding up). Characters are the unit because Chinese has no
 * spaces; Latin text works the same way, letter by letter. */
#ifndef RT_NGRAM_H
#define RT_NGRAM_H

#include <stddef.h>

#include "rt_embed.h"

#define RT_NGRAM_DIM 256
#define RT_NGRAM_WINDOW 3
#define RT_NGRAM_W_CHAR 1.0
#define RT_NGRAM_W_PAIR 1.0

/* The default cosine threshold for these vectors. On the planted edits of test_leak.c it keeps
 * 99% of edited queries (every added punctuation or space scores 1; insertions, deletions and
 * swaps of one character score 0.52–1, median 0.83–0.89), while the best-scoring unrelated query
 * of a test query scores a median 0.28 and a 99th percentile 0.55 among 2,000. Against 20,000
 * training queries the best unrelated score reaches 0.65 for 3% of test queries: at that
 * scale they are near-duplicates too (one query a character or two away from another). */
#define RT_NGRAM_THRESHOLD 0.65

/* What to tell a user of the built-in embedder, once. */
#define RT_NGRAM_NOTICE \
    "the built-in embedder (hashed character n-grams) finds lexical near-duplicates, not paraphrases"

typedef struct rt_ngram rt_ngram;

/* A model with no texts counted, embedding into dim dimensions (0: RT_NGRAM_DIM). Owned: free it
 * with rt_ngram_free, which sets *m NULL. */
rt_ngram *rt_ngram_new(size_t dim);
void rt_ngram_free(rt_ngram **m);

/* Counts the n texts (NUL-terminated UTF-8; invalid bytes are skipped) into the document
 * frequencies. Count every text that will be embedded (train and test) before embedding. */
void rt_ngram_count(rt_ngram *m, const char *const *texts, size_t n);

/* Embeds the n texts into a new n × dim matrix (Owned: the caller frees it with rt_embed_free),
 * each row of unit norm, except a text without any letter, digit or symbol (empty, or only
 * punctuation and spaces): its row is zero. *nzero (may be NULL) receives the number of zero
 * rows. */
rt_embed *rt_ngram_embed(const rt_ngram *m, const char *const *texts, size_t n, size_t *nzero);

#endif
