/* rt_contrast — how differently two runs rank a query, without qrels (DiffIR's unsupervised
 * contrasts): rank-biased overlap, extrapolated (Webber, Moffat and Zobel 2010, eq. 32, for lists
 * of unequal length; persistence p), and the Jaccard overlap of the top k. Rankings are pid ids in
 * rank order, without repeats. */
#ifndef RT_CONTRAST_H
#define RT_CONTRAST_H

#include <stddef.h>
#include <stdint.h>

#define RT_RBO_P 0.9
#define RT_JACCARD_K 10

/* RBO_ext of rankings a and b with persistence p (0 < p < 1): 1 for identical rankings, 0 for
 * disjoint ones. Returns 0 (undefined) when both are empty; *v otherwise. */
int rt_rbo(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, double p, double *v);

/* |A_k ∩ B_k| / |A_k ∪ B_k| of the top k of a and b. Returns 0 (undefined) when both are empty. */
int rt_jaccard(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, size_t k, double *v);

struct rt_workspace;

/* The contrast of runs a and b on qid without qrels: RBO (p 0.9) when jaccard is 0, else the
 * Jaccard of the top 10; returns 0 when neither ranks the query. */
int rt_contrast_of(const struct rt_workspace *ws, size_t a, size_t b, uint32_t qid, int jaccard, double *v);

#endif
