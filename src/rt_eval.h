/* rt_eval — evaluating runs against qrels: per-query values and their means over the queries
 * of the qrels (a qrels query missing from the run scores 0; run queries absent from the qrels
 * are counted, not averaged), exactly as trec_eval -c does (DESIGN.md §5). */
#ifndef RT_EVAL_H
#define RT_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_measure.h"
#include "rt_qrels.h"
#include "rt_report.h"
#include "rt_run.h"
#include "rt_strtab.h"

typedef struct rt_eval rt_eval;

/* Prepares an evaluator for qrels (whose pid namespace is pids) with measures ms[0..nm) and
 * relevance level. Borrows all of them: they must outlive the evaluator. Owned: the caller
 * frees it with rt_eval_free. */
rt_eval *rt_eval_new(const rt_qrels *qrels, const rt_strtab *qids, const rt_strtab *pids,
                     const rt_measure *ms, size_t nm, int32_t level);
void rt_eval_free(rt_eval **ev);

/* Per-query values of one run. value[i * nm + m] is measure m on judged query i (qrels order);
 * defined[] says whether it exists (MFR). mean[m] is the aggregate, n_defined[m] the number of
 * queries it is over. */
typedef struct rt_eval_result {
    char *name;                 /* the run's name */
    size_t nq, nm;
    double *value;
    unsigned char *defined;
    double *mean;
    size_t *n_defined;
    size_t queries_not_in_qrels;   /* run queries that are not judged (ignored) */
    size_t qrels_queries_missing;  /* judged queries the run does not rank (scored 0) */
    rt_run_info info;
    unsigned char *seen;           /* judged query i was ranked by the run */
    struct rt_eval_work *work;     /* the evaluator's own (opaque) */
} rt_eval_result;

void rt_eval_result_free(rt_eval_result **r);

/* Widens a per-query table (rows × old_w values and their defined flags; cap rows allocated) to
 * new_w columns a row: each row's old columns first, the new ones 0 and undefined. For measures
 * added after the table was made (rt_workspace_add_measures, rt_live_sync). */
void rt_eval_table_widen(double **value, unsigned char **defined, size_t rows, size_t cap, size_t old_w,
                         size_t new_w);

/* Evaluates the run file at path, streaming it (see rt_run_scan). A large line-based file is read
 * in two halves by two threads (rt_run_scan_halves), split at any line, and gathered by halves
 * when its queries' lines are not grouped: the values, warnings and line numbers are those of
 * the one-thread read. */
rt_status rt_eval_file(rt_eval *ev, const char *path, const rt_run_opts *opts,
                       rt_eval_result **out, rt_err *err);

/* Incremental evaluation, for rankings that come from elsewhere than a run file: begin, add
 * each query's ranked hits (duplicates already removed), end (scores the missing queries 0 and
 * aggregates). A query added twice keeps the last ranking. Owned: rt_eval_begin's result is
 * the caller's, freed with rt_eval_result_free (after rt_eval_end or not). */
rt_eval_result *rt_eval_begin(const rt_eval *ev, const char *name);
void rt_eval_add(const rt_eval *ev, rt_eval_result *r, const char *qid, size_t qid_len,
                 const rt_hit *hits, size_t n);
void rt_eval_end(const rt_eval *ev, rt_eval_result *r);

/* Evaluates one ranking of judged query i given as pid ids (in the evaluator's pid namespace)
 * into row i of r (between rt_eval_begin and rt_eval_end): for in-memory runs. */
void rt_eval_ranking(const rt_eval *ev, rt_eval_result *r, uint32_t i, const uint32_t *pids,
                     size_t n);

/* The same from grades already looked up (RT_UNJUDGED for unjudged passages). */
void rt_eval_grades(const rt_eval *ev, uint32_t i, const int32_t *grades, size_t n,
                    double *out, unsigned char *defined);

/* Adds what the evaluation of the run at path found to report: duplicates dropped, run queries
 * without judgments, judged queries the run lacks. */
void rt_eval_report(const rt_eval_result *x, const char *path, rt_report *report);

/* Recomputes r->mean and r->n_defined from r->value. */
void rt_eval_aggregate(const rt_eval *ev, rt_eval_result *r);

/* Judged query indices sorted by qid in byte order (trec_eval's output order). Borrowed: valid
 * until rt_eval_free. */
const uint32_t *rt_eval_sorted_queries(const rt_eval *ev);

/* What rt_eval_new was given. Borrowed: the caller's own, as rt_eval_new borrowed them. */
const rt_measure *rt_eval_measures(const rt_eval *ev, size_t *n);
const rt_qrels *rt_eval_qrels(const rt_eval *ev);
const rt_strtab *rt_eval_qids(const rt_eval *ev);

#endif
