/* hint — the distant-supervision hint of a (query, passage) pair: the best span F1 of the passage
 * against the query's human answers (rt_spanf1), computed when a view first draws the pair and
 * kept (answers and passages do not change during a session). */
#ifndef RT_HINT_H
#define RT_HINT_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"

/* The hint is computed over the first HINT_MAX_BYTES of a passage (cut at a character), so that
 * a huge passage costs a bounded time; the passage view says when it was cut. */
#define HINT_MAX_BYTES ((size_t)64 << 10)
/* and against the first HINT_MAX_ANSWER characters of each answer (normalised). */
#define HINT_MAX_ANSWER 2048

typedef enum hint_state {
    HINT_NONE = 0,        /* the workspace has no answers */
    HINT_NO_ANSWERS,      /* this query has none */
    HINT_NO_PASSAGE,      /* the passage is not in the collection */
    HINT_OK,
} hint_state;

typedef struct hint {
    hint_state state;
    double f1;
    size_t answer;         /* which answer (0-based) */
    size_t from, to;       /* the span's byte offsets in the passage; from == to: no overlap */
    int cut;               /* the passage was longer than HINT_MAX_BYTES */
    int answer_cut;        /* an answer was longer than HINT_MAX_ANSWER characters */
} pair_hint;

/* The hint of (qid, pid) (computed now or remembered). */
pair_hint hint_of(app *a, uint32_t qid, uint32_t pid);

/* Draws a compact badge of the hint at (y, x) within w columns: the F1 in tenths (".8", "1.0"),
 * brighter from 0.5 (where Algorithm 1 calls the pair positive); returns the columns used (0
 * when the workspace has no answers or the query none). */
int hint_draw_badge(app *a, int y, int x, int w, uint32_t qid, uint32_t pid, int focused);

void hint_release(app *a);

#endif
