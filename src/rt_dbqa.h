/* rt_dbqa — NLPCC DBQA all-in-one files: question<TAB>sentence<TAB>label per line, which hold
 * the queries, their candidate sentences and the labels at once. A system's run for such a file
 * is a score file with one score per line, aligned with it. Questions get qids "q1", "q2", … in
 * order of first appearance (a question is identified by its text); candidate k of question N
 * gets pid "qN-k". */
#ifndef RT_DBQA_H
#define RT_DBQA_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_eval.h"
#include "rt_qrels.h"
#include "rt_queries.h"
#include "rt_report.h"
#include "rt_strtab.h"

typedef struct rt_dbqa rt_dbqa;

/* Loads path; interns qids and pids into the given namespaces. Labels must be integers. */
rt_status rt_dbqa_load(rt_dbqa **out, const char *path, rt_strtab *qids, rt_strtab *pids,
                       const rt_load_opts *opts, rt_report *report, rt_err *err);
void rt_dbqa_free(rt_dbqa **d);

/* The queries and qrels the file holds. Borrowed: valid until rt_dbqa_free. */
const rt_queries *rt_dbqa_queries(const rt_dbqa *d);
const rt_qrels *rt_dbqa_qrels(const rt_dbqa *d);

/* Number of candidate lines, and line i's pid id and sentence. Borrowed: the sentence is valid
 * until rt_dbqa_free. */
size_t rt_dbqa_count(const rt_dbqa *d);
uint32_t rt_dbqa_pid(const rt_dbqa *d, size_t i);
const char *rt_dbqa_sentence(const rt_dbqa *d, size_t i);

/* Evaluates a score file (one number a line, as many as the DBQA file has lines; "-": standard
 * input) with ev, which must have been made for rt_dbqa_qrels(d). Candidates are ranked by score,
 * ties in file order (the NLPCC evaluation's stable sort). The run is named name (copied), or
 * after the score file's stem when name is NULL. */
rt_status rt_dbqa_eval_scores(const rt_dbqa *d, const rt_eval *ev, const char *scores_path, const char *name,
                              rt_eval_result **out, rt_err *err);

/* The file as a workspace's inputs, for the workbench: written into folder dir (created) as
 * queries.tsv, collection.tsv (the sentences), qrels.trec (the labels) and, for each score file,
 * runN.trec ranked as rt_dbqa_eval_scores ranks it (score, ties in file order), so that a
 * workspace opened on them with order "file" evaluates exactly as eval --dbqa. Errors name the
 * DBQA or score file and line. Paths are new strings (rt_dbqa_files_free). */
typedef struct rt_dbqa_files {
    char *queries, *collection, *qrels;
    char **runs;
    size_t nruns;
} rt_dbqa_files;
rt_status rt_dbqa_write_workspace(const rt_dbqa *d, const char *dir, const char *const *scores, size_t nscores,
                                  rt_dbqa_files *out, rt_err *err);
void rt_dbqa_files_free(rt_dbqa_files *f);

#endif
