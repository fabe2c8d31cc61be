/* judge — the judging mode's state: the current query's depth-k pool in reciprocal-rank-fusion
 * order, judged counts per query and overall, and the walk to the next unjudged passage. */
#ifndef RT_JUDGE_H
#define RT_JUDGE_H

#include "app.h"

/* Builds the pool of the current query if it is not the one held. */
void judge_refresh(app *a);

/* The focused pool passage; returns 0 when the pool is empty. */
int judge_focus(app *a, uint32_t *pid);

/* Moves to the next passage no one has judged: in this pool after the cursor, then in the next
 * queries of the list. */
int judge_next_unjudged(app *a);

/* Judged passages and pool size of query qid at the current depth. */
void judge_counts(app *a, uint32_t qid, size_t *judged, size_t *size);

/* Forgets the cached counts of list row qi (its judgments changed). */
void judge_forget(app *a, size_t qi);

int act_judge(app *a, const char *arg);

#endif
