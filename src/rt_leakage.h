/* rt_leakage — train–test leakage for a workspace: the training queries it names, the
 * candidates rt_leak finds for its (test) queries, and which test queries count as leaked —
 * those a reviewer typed as a leak (journal operations "leak"), or, selectably, every query with
 * a candidate above the threshold — so that metrics can be split as in DuReader-retrieval's
 * Table 6 ("Duplicated" vs "Others"). */
#ifndef RT_LEAKAGE_H
#define RT_LEAKAGE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_leak.h"
#include "rt_queries.h"
#include "rt_session.h"

typedef struct rt_leakage {
    rt_strtab *train_qids;
    rt_queries *train;
    uint32_t *test_qid;        /* workspace qid of test row i (the queries file's order) */
    size_t ntest;
    rt_leak_pair *pairs;       /* grouped by test row, best first */
    size_t npairs;
    size_t *first;             /* pairs of test row i: [first[i], first[i + 1]) */
    double threshold;
    int builtin;               /* the built-in lexical embedder was used */
} rt_leakage;

/* Finds the candidates of the workspace's queries among its training queries (ws->leak names
 * the files and options). RT_EUSAGE when the workspace names no training queries or has no
 * queries file. */
rt_status rt_leakage_find(rt_leakage **out, const rt_workspace *ws, rt_err *err);
void rt_leakage_free(rt_leakage **l);

/* The training qid string of pair p, and that query's text. Borrowed: valid until
 * rt_leakage_free. */
const char *rt_leakage_train_qid(const rt_leakage *l, const rt_leak_pair *p);
const char *rt_leakage_train_text(const rt_leakage *l, const rt_leak_pair *p);

/* True when a review label says the pair is a leak (identical, generalization, specialization,
 * reformulation), as opposed to different-topic or not-leak. */
int rt_leak_type_is_leak(const char *type);

/* The leaked test queries: a new array (Owned: the caller frees it with free) with a nonzero
 * byte at each qid id that a review label types as a leak, and, when candidates is set and l is
 * not NULL, at every test query with a candidate. *n (may be NULL) receives how many are marked. */
unsigned char *rt_leakage_mask(const rt_session *s, const rt_leakage *l, int candidates, size_t *n);

#endif
