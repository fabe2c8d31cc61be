/* rt_pool — TREC depth-k pooling: per query, the union of the top k passages of several runs,
 * ordered by reciprocal-rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009). `retriage pool`
 * prints it; the judging mode walks it one query at a time, so a query's pool is cheap to build. */
#ifndef RT_POOL_H
#define RT_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "rt_qrels.h"
#include "rt_run.h"
#include "rt_strtab.h"

/* The RRF constant of Cormack et al.: a passage at rank r of a run adds 1/(60 + r). */
#define RT_POOL_RRF_K 60u

/* rt_pool_entry.runs records runs 0 … RT_POOL_MASK_RUNS - 1 only. */
#define RT_POOL_MASK_RUNS 64

typedef struct rt_pool_opts {
    size_t depth;     /* k: each run contributes its top depth passages (0 pools nothing) */
    unsigned rrf_k;   /* the RRF constant, RT_POOL_RRF_K in rt_pool_query */
} rt_pool_opts;

/* One pooled passage. A run "pools" a passage when it ranks it within its top depth. */
typedef struct rt_pool_entry {
    uint32_t pid;        /* in the pids namespace the runs were loaded into */
    double rrf;          /* Σ 1/(rrf_k + rank) over the runs that pool it, rank 1-based */
    uint32_t best_rank;  /* the best (smallest) of those ranks */
    uint32_t nruns;      /* how many runs pool it (≥ 1) */
    uint64_t runs;       /* bit r set when runs[r] pools it, for r < RT_POOL_MASK_RUNS */
} rt_pool_entry;

/* Writes the pool of qid into (*out)[0, size) and returns its size. *out is grown with RT_GROW
 * to twice Σ min(depth, ranking length) entries, the upper part being scratch (the caller owns
 * and frees *out; it may start NULL with *cap 0, and is best kept across calls: then nothing is
 * allocated). Order: rrf descending, then best_rank ascending, then the pid strings in byte order
 * (pids is the namespace the runs were loaded into). The pool does not depend on the order of
 * runs but for the bits of .runs, and rrf is summed best rank first, so equal sets of ranks give
 * bit-equal scores. A run without qid contributes nothing; a ranking shorter than depth
 * contributes all of it; depth 0 gives an empty pool. Time: O(P log P) for P pooled hits. */
size_t rt_pool_query(const rt_run *const *runs, size_t nruns, uint32_t qid, size_t depth,
                     const rt_strtab *pids, rt_pool_entry **out, size_t *cap);

/* As rt_pool_query, with the depth and the RRF constant taken from opts. */
size_t rt_pool_query_opts(const rt_run *const *runs, size_t nruns, uint32_t qid,
                          const rt_pool_opts *opts, const rt_strtab *pids, rt_pool_entry **out,
                          size_t *cap);

/* The queries to pool: the union of the runs' queries in order of first appearance (those of
 * runs[0] in its order, then those of runs[1] not seen yet, …), keeping only the queries qrels
 * judges when qrels is not NULL. qids is the namespace the runs (and qrels) were loaded into.
 * Sets *out to a new array (the caller frees it; never NULL) and returns its length. */
size_t rt_pool_queries(const rt_run *const *runs, size_t nruns, const rt_strtab *qids,
                       const rt_qrels *qrels, uint32_t **out);

#endif
