/* rt_sample — conditions on queries ("no relevant passage in the top 5 of run X") and
 * reproducible random samples of the queries that meet one: the paper's "100 random dev queries
 * whose top-5 hold no positive". The same N, seed and condition give the same sample on every
 * machine (splitmix64 and a partial Fisher–Yates shuffle over the judged queries in workspace
 * order). Relevance is judged against the current qrels (base ⊕ relabels). */
#ifndef RT_SAMPLE_H
#define RT_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_session.h"

typedef enum rt_cond_kind {
    RT_COND_ALL = 0,   /* "all": every judged query */
    RT_COND_NOTOP,     /* "notop K RUN": no relevant passage in the top K of RUN */
    RT_COND_WORSE,     /* "worse A B [MIN]": A below B, by at least MIN when given */
    RT_COND_BETTER,    /* "better A B [MIN]": A above B, by at least MIN when given */
    RT_COND_TAGGED,    /* "tagged": at least one tag */
    RT_COND_UNTAGGED,  /* "untagged" */
    RT_COND_ZERO,      /* "zero RUN": RUN scores 0 on the measure (the query list's: its f) */
    RT_COND_RBO,       /* "rbo A B MAX": the runs' rank-biased overlap (p 0.9) at most MAX */
    RT_COND_JACCARD,   /* "jaccard A B MAX": the Jaccard of their top 10 at most MAX */
} rt_cond_kind;

typedef struct rt_condition {
    rt_cond_kind kind;
    size_t k, a, b;    /* a, b: run indices */
    double min_delta;  /* worse / better: by at least this (and by something) */
    size_t measure;    /* worse / better compare this workspace measure ((size_t)-1: RR@10, as
                          :sample has always done; the query list sets its own) */
} rt_condition;

/* Parses a condition; runs are named or numbered from 1. */
rt_status rt_condition_parse(const rt_workspace *ws, const char *text, rt_condition *c, rt_err *err);

int rt_condition_holds(const rt_session *s, const rt_condition *c, uint32_t qid);

/* Picks min(n, available) of the judged queries meeting c; *out (caller frees) in workspace
 * order. */
void rt_sample_pick(const rt_session *s, size_t n, uint64_t seed, const rt_condition *c,
                    uint32_t **out, size_t *nout);

#endif
