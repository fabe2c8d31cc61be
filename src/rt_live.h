/* rt_live — every run's metrics against the current qrels (base ⊕ relabels), kept up to date
 * one query at a time: a relabel recomputes the touched query for each run and re-sums the
 * means in trec_eval's order, so the values equal `retriage eval` on the exported qrels. */
#ifndef RT_LIVE_H
#define RT_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_annot.h"
#include "rt_workspace.h"

typedef struct rt_live rt_live;

/* Evaluates every run of ws against base ⊕ the relabels of annot (both borrowed). Owned: the
 * caller frees it with rt_live_free, before ws and annot. */
rt_live *rt_live_new(const rt_workspace *ws, const rt_annot *annot);
void rt_live_free(rt_live **l);

/* Evaluates the runs the workspace took in since (a deferred open's, rt_loader_poll) and the
 * measures it gained since (rt_workspace_add_measures): they are not seen before this call. */
void rt_live_sync(rt_live *l);

/* Recomputes query qid after its relabels changed. */
void rt_live_update(rt_live *l, uint32_t qid);

/* The current grade of (qid, pid): the relabel if any, else the base judgment. Returns 0 when
 * the pair is judged by neither. */
int rt_live_grade(const rt_live *l, uint32_t qid, uint32_t pid, int32_t *grade);

/* Current means of run r (nm values, in the workspace's measure order) and how many queries
 * each is over. Borrowed: valid until rt_live_free; rt_live_update changes the values in place. */
const double *rt_live_mean(const rt_live *l, size_t r);
const size_t *rt_live_n_defined(const rt_live *l, size_t r);

/* Rank (1-based) of the first currently relevant passage of run r for qid, over the whole
 * ranking; 0 when none (or qid has no judgment). Looked for (a walk down the ranking) at the first
 * ask after qid's grades changed, then remembered: O(1) until the next rt_live_update of qid. The
 * memo is written through l although l is const: not for threads sharing one rt_live. */
size_t rt_live_first_rel(const rt_live *l, size_t r, uint32_t qid);

/* Reciprocal rank of that passage within the top k (k 0: any rank), 0 when none: RR@k from the
 * current judgments, for the query list whatever the workspace's measures are. */
double rt_live_rr(const rt_live *l, size_t r, uint32_t qid, size_t k);

/* Current value of measure m for run r on qid; returns 0 when qid is not judged or the value is
 * undefined. */
int rt_live_value(const rt_live *l, size_t r, uint32_t qid, size_t m, double *v);

/* True when qid has at least one current judgment (it is evaluated). */
int rt_live_is_judged(const rt_live *l, uint32_t qid);

/* Number of judged queries now (base queries plus those only relabels judge). */
size_t rt_live_nqueries(const rt_live *l);

/* The judged queries in trec_eval's order (qid byte order). Borrowed: valid until the next
 * rt_live_update (which may reallocate it) or rt_live_free. */
const uint32_t *rt_live_sorted(const rt_live *l, size_t *n);

/* The means of run r over a subset of queries (qids[0..n), judged ones only), into mean[nm]
 * and n_defined[nm]; for query sets and the leaked / other split. */
void rt_live_mean_over(const rt_live *l, size_t r, const uint32_t *qids, size_t n, int current,
                       double *mean, size_t *n_defined);

/* Base and current means of run r (nm values each, and how many queries each is over) over the
 * queries qids[0..n), or over all judged queries when qids is NULL: what the metrics panel and
 * the metrics export show. */
void rt_live_means(const rt_live *l, size_t r, const uint32_t *qids, size_t n, double *base,
                   size_t *n_base, double *current, size_t *n_current);

/* The current means of run r over the judged queries with mask[qid] set (in) and the others
 * (out): DuReader-retrieval's "Duplicated" vs "Others". nq_in / nq_out receive the number of
 * judged queries on each side. */
void rt_live_split(const rt_live *l, size_t r, const unsigned char *mask, double *in, double *out,
                   size_t *nq_in, size_t *nq_out);

#endif
