/* rt_leak — train–test leakage detection: for each test query, the training queries nearest to
 * it by cosine similarity, with a score at or above a threshold (Fröbe et al., 2022: exact
 * cosine, 100 nearest neighbours, threshold 0.91 on Sentence-BERT embeddings). Vectors come from
 * the user's model (rt_embed) or from the built-in embedder (rt_ngram); the search is exact (a
 * blocked matrix product through the BLAS) unless a Faiss factory string asks for an
 * approximate index. This is the only module that includes Faiss headers, and only in its .c
 * file. */
#ifndef RT_LEAK_H
#define RT_LEAK_H

#include <stddef.h>
#include <stdint.h>

#include "rt_embed.h"
#include "rt_err.h"

/* Fröbe et al.'s threshold for Sentence-BERT cosine; the default for given embeddings. */
#define RT_LEAK_THRESHOLD_EMB 0.91
/* Fröbe et al.'s number of neighbours. */
#define RT_LEAK_K 100
/* Test rows per search call (exact search: per block of the matrix product): bounds the
 * candidate buffers and the normalised copy. */
#define RT_LEAK_BATCH 4096
/* Training rows per block of the exact search's matrix product: with RT_LEAK_BATCH, the blocks
 * Faiss's own exact search uses (a 16 MiB block of scores). */
#define RT_LEAK_TRAIN_BATCH 1024
/* The largest k and built-in embedder dimension accepted from a flag or a workspace. */
#define RT_LEAK_MAX_K (1 << 20)
#define RT_LEAK_MAX_DIM (1 << 16)

typedef struct rt_leak_opts {
    double threshold;          /* report pairs with cosine ≥ threshold; NAN (the default): the
                                  embedder's own, RT_LEAK_THRESHOLD_EMB or RT_NGRAM_THRESHOLD */
    size_t k;                  /* at most k training rows per test row (default RT_LEAK_K) */
    const char *index_spec;    /* a Faiss index_factory string such as "IVF1024,Flat" or
                                  "HNSW32" (inner-product metric); NULL or "Flat": exact */
    const char *index_params;  /* Faiss ParameterSpace settings for it, e.g. "nprobe=32" or
                                  "efSearch=128"; NULL: Faiss's defaults */
    size_t dim;                /* the built-in embedder's dimension (default RT_NGRAM_DIM) */
    size_t batch;              /* test rows per search call (default RT_LEAK_BATCH) */
    size_t train_batch;        /* exact search: training rows per block of the product (default
                                  RT_LEAK_TRAIN_BATCH) */
} rt_leak_opts;

/* One test row's match: row indices into the arrays (or matrices) given to the search. */
typedef struct rt_leak_pair {
    uint32_t test, train;
    float score;               /* cosine similarity */
} rt_leak_pair;

/* Fills o with the defaults above (threshold NAN, k 100, exact search, dim 256, blocks of
 * 4096 test × 1024 training rows). */
void rt_leak_opts_default(rt_leak_opts *o);

/* The threshold o stands for: o->threshold unless it is NAN, else the embedder's default
 * (builtin nonzero: the built-in embedder's). */
double rt_leak_threshold(const rt_leak_opts *o, int builtin);

/* Finds, for each test row, up to o->k training rows whose cosine with it is ≥ the threshold.
 *
 * Vectors: when test_emb and train_emb are both NULL, the texts are embedded with the built-in
 * embedder (rt_ngram, idf over test and train texts together); otherwise both must be given,
 * with ntest and ntrain rows of the same dimension (they need not be normalised: cosine is
 * computed; a zero row matches nothing), and the texts are not read (they may be NULL).
 *
 * Result: *out (the caller frees it with free(); NULL when there are none) holds *npairs pairs,
 * grouped by test row in increasing order, within a test row best first by score (as float),
 * equal scores by training row. Scores are recomputed in double precision from the given vectors
 * for the candidates the float32 product (or the Faiss index) yields, compared with the threshold
 * in double, and rounded to float: so exact search reports exactly the pairs a brute-force cosine
 * would, and identical or scaled copies of a vector tie. With an approximate index, when a tie at
 * the k-th place extends past the candidates fetched, the row is searched again with more; the
 * index misses the pairs it does not return.
 *
 * Errors: RT_EUSAGE for options Faiss rejects (a bad factory string or parameter), RT_EINPUT for
 * mismatched dimensions or row counts and for Faiss failures on the data (e.g. fewer training
 * rows than IVF centroids), with Faiss's message. */
rt_status rt_leak_find(const char *const *test_texts, size_t ntest,
                       const char *const *train_texts, size_t ntrain,
                       const rt_embed *test_emb, const rt_embed *train_emb,
                       const rt_leak_opts *o, rt_leak_pair **out, size_t *npairs, rt_err *err);

/* The search alone, on given vectors, at threshold (a number, not NAN); what rt_leak_find does
 * after embedding. */
rt_status rt_leak_search(const rt_embed *test, const rt_embed *train, const rt_leak_opts *o,
                         double threshold, rt_leak_pair **out, size_t *npairs, rt_err *err);

/* The leak types a reviewer can give a candidate pair (Fröbe et al. 2022, plus "not a leak"),
 * NULL-terminated. */
extern const char *const rt_leak_types[];
/* The first this many of them say the pair is a leak; the rest that it is not. */
#define RT_LEAK_TYPES_LEAKING 4

#endif
