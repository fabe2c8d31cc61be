/* rt_measure — the measures (named as in ir_measures) and their per-query definitions, which
 * follow trec_eval 10.0 (DESIGN.md §5). A ranking is given as the grades of its passages in rank
 * order, with RT_UNJUDGED for passages the qrels do not mention. */
#ifndef RT_MEASURE_H
#define RT_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"

#define RT_UNJUDGED INT32_MIN

typedef enum rt_measure_kind {
    RT_M_RR,          /* RR@k: 1/rank of the first relevant passage in the top k (0 if none) */
    RT_M_P,           /* P@k: relevant in the top k / k */
    RT_M_R,           /* R@k: relevant in the top k / relevant judged (TREC recall) */
    RT_M_SUCCESS,     /* Success@k: 1 if a relevant passage is in the top k */
    RT_M_AP,          /* AP[@k]: trec_eval map (map_cut_k with k) */
    RT_M_AP_MIN,      /* AP_min: NLPCC DBQA MAP, denominator min(#relevant, #retrieved) */
    RT_M_NDCG,        /* nDCG[@k]: trec_eval ndcg_cut: gain = grade > 0, log2(rank+1) discount */
    RT_M_RPREC,       /* Rprec: precision at rank R = #relevant */
    RT_M_MFR,         /* MFR: rank of the first relevant passage; undefined when none retrieved */
    RT_M_NUM_RET,     /* NumRet: passages retrieved (summed over queries, like trec_eval) */
    RT_M_NUM_REL,     /* NumRel: relevant passages judged (summed) */
    RT_M_NUM_REL_RET, /* NumRelRet: relevant passages retrieved (summed) */
    RT_M_JUDGED,      /* Judged@k: judged passages (any grade) in the top k / k (ir_measures) */
} rt_measure_kind;

typedef struct rt_measure {
    rt_measure_kind kind;
    uint32_t cutoff;     /* 0: the whole ranking */
    char name[32];       /* canonical name, e.g. "RR@10" */
} rt_measure;

/* What a measure needs to know about the query besides the ranking. */
typedef struct rt_qinfo {
    uint32_t num_rel;      /* judged passages with grade >= level */
    const int32_t *ideal;  /* the positive grades of the query, sorted descending */
    size_t n_ideal;
} rt_qinfo;

/* Fills qi from a query's relevant count and its positive grades (gains[0..n), sorted here in
 * descending order and borrowed by qi). */
void rt_qinfo_set(rt_qinfo *qi, uint32_t num_rel, int32_t *gains, size_t n);

/* Parses one measure name: ir_measures style (RR@10, nDCG@10, P@5, R@50, Success@1, AP, AP_min,
 * MFR, Rprec, NumRet, …, case-insensitive), DuReader/NLPCC aliases (MRR@10, MRR, MAP, ACC@1) and
 * trec_eval names (recip_rank, map, P_10, recall_50, success_1, ndcg_cut_10, num_ret, …). */
rt_status rt_measure_parse(const char *name, rt_measure *m, rt_err *err);

/* Appends the measures of a comma-separated list, or of a preset when list names one
 * ("dureader", "trec", "dbqa"), to the growing array *ms of *n. */
rt_status rt_measure_list_parse(const char *list, rt_measure **ms, size_t *n, rt_err *err);

/* The measure list of a preset, or NULL when name is no preset. Borrowed: a static string. */
const char *rt_measure_preset(const char *name);

/* The measures and presets the parser knows, as help texts and its error list them. */
extern const char rt_measure_known[];

/* All preset names, NULL-terminated, for help texts. */
extern const char *const rt_measure_preset_names[];

/* The value of m for one query. grades[0..n) are the ranked passages' grades; relevance means
 * grade >= level (except for nDCG, which uses the raw positive grades). *defined is set to 0
 * when the value does not exist (MFR without a relevant passage) and to 1 otherwise. */
double rt_measure_compute(const rt_measure *m, const int32_t *grades, size_t n,
                          const rt_qinfo *qi, int32_t level, int *defined);

/* True when the measure is summed over queries rather than averaged. */
int rt_measure_is_sum(const rt_measure *m);

/* The aggregate of measure m over queries: column col of the row-major table value (nm columns),
 * taking rows[0..nrows) in that order (trec_eval sums in qid byte order: the order changes the
 * last bits) and skipping rows whose defined flag is 0. A sum for the counting measures, else the
 * mean over the defined rows (0 when none). *n_defined receives how many rows counted. The one
 * place a mean of per-query values is computed: eval, live metrics and query subsets use it. */
double rt_measure_aggregate(const rt_measure *m, const double *value, const unsigned char *defined,
                            size_t nm, size_t col, const uint32_t *rows, size_t nrows,
                            size_t *n_defined);

/* True when the measure is averaged only over queries where it is defined (MFR). */
int rt_measure_is_partial(const rt_measure *m);

/* Formats a value of m as tables show it: sums (NumRet, …) as integers, others with 4
 * decimals; signed adds the sign (for differences). Returns snprintf's count. */
int rt_measure_format(const rt_measure *m, double v, int signed_, char *buf, size_t n);

/* How deep a ranking must be read to compute all of ms; 0 means the whole ranking. */
size_t rt_measure_depth(const rt_measure *ms, size_t n);

#endif
