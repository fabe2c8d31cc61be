/* fuzz_journal_line — one journal line: whatever parses must write back to a line that parses
 * again into the same operation (the journal replays what it wrote, years later). */
#include "config.h"

#include "fuzz.h"
#include "rt_journal.h"

static int same(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static int same_op(const rt_op *op, const rt_op *back)
{
    int eq = op->seq == back->seq && op->time_ms == back->time_ms && op->kind == back->kind &&
             same(op->author ? op->author : "", back->author ? back->author : "") && same(op->qid, back->qid) &&
             same(op->pid, back->pid) && op->has_grade == back->has_grade && (!op->has_grade || op->grade == back->grade) &&
             same(op->cat, back->cat) && same(op->text, back->text) && same(op->train, back->train) &&
             same(op->name, back->name) && op->has_list == back->has_list && op->nqids == back->nqids &&
             op->undo == back->undo && op->redo == back->redo && same(op->via, back->via) &&
             !op->pids == !back->pids && op->has_cats == back->has_cats && op->ncats == back->ncats &&
             op->nsettles == back->nsettles && op->seed == back->seed && op->sample == back->sample;
    for (size_t i = 0; eq && i < op->nqids; i++)
        eq = same(op->qids[i], back->qids[i]) && (!op->pids || same(op->pids[i], back->pids[i]));
    for (size_t i = 0; eq && i < op->ncats; i++)
        eq = same(op->cats[i], back->cats[i]);
    for (size_t i = 0; eq && i < op->nsettles; i++)
        eq = same(op->settles[i], back->settles[i]);
    return eq;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    rt_op op, back, full;
    rt_err err, ferr;
    /* the fast path (labels and tags as written) must read every line as the general parser does */
    rt_status st = rt_op_from_json(&op, (const char *)data, n, &err);
    rt_status fst = rt_op_from_json_full(&full, (const char *)data, n, &ferr);
    if (st != fst || (st == RT_OK && !same_op(&op, &full))) {
        fprintf(stderr, "the fast path and the general parser disagree (%d, %d)\n", (int)st, (int)fst);
        abort();
    }
    if (fst == RT_OK)
        rt_op_clear(&full);
    if (st != RT_OK)
        return 0;
    char *line = rt_op_to_json(&op);
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n' || memchr(line, '\n', len - 1))
        abort();   /* one line, ended by its newline */
    if (rt_op_from_json(&back, line, len - 1, &err) != RT_OK) {
        fprintf(stderr, "written back, it does not parse (%s): %s", err.msg, line);
        abort();
    }
    int eq = same_op(&op, &back);
    if (!eq) {
        fprintf(stderr, "written back, it reads as another operation: %s", line);
        abort();
    }
    free(line);
    rt_op_clear(&op);
    rt_op_clear(&back);
    return 0;
}
