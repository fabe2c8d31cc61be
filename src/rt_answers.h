/* rt_answers — the human answers of the queries, for the distant-supervision hint and dslabel:
 * DuReader JSON lines ({"question_id": …, "answers": ["…", …]}, optionally question_type and
 * fact_or_opinion, which rt_facets reads) or TSV qid<TAB>answer (a line per answer). Each answer
 * is kept as written and normalised (rt_spanf1). */
#ifndef RT_ANSWERS_H
#define RT_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_report.h"
#include "rt_spanf1.h"
#include "rt_strtab.h"

typedef struct rt_answers rt_answers;

/* Loads path for the queries of qids: answers of unknown qids are counted in rep (a warning with
 * the count and the first) and ignored, as are empty answers (counted too). A malformed line is
 * an error naming file:line. With intern set, unknown qids are added to qids instead (dslabel). */
rt_status rt_answers_load(rt_answers **out, const char *path, rt_strtab *qids, int intern, rt_report *rep,
                          rt_err *err);
void rt_answers_free(rt_answers **a);

/* How many answers qid has (0: none, or the file does not list it); *norm (may be NULL) receives
 * their normalised forms. */
size_t rt_answers_of(const rt_answers *a, uint32_t qid, const rt_normtext *const **norm);

/* Answer k of qid as written, or NULL. Borrowed: valid until rt_answers_free. */
const char *rt_answers_text(const rt_answers *a, uint32_t qid, size_t k);

/* Whether the file lists qid at all (with or without answers). */
int rt_answers_lists(const rt_answers *a, uint32_t qid);

/* The path the answers came from. Borrowed: valid until rt_answers_free. */
const char *rt_answers_path(const rt_answers *a);

#endif
