/* rt_annot — the annotation state that replaying a journal builds: the relabel overlay on the
 * base qrels, error tags and notes, leak-type labels and named query sets, each with provenance,
 * plus the undo and redo history. It knows what operations mean; rt_journal stores them and
 * rt_session ties both to a workspace. */
#ifndef RT_ANNOT_H
#define RT_ANNOT_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_journal.h"
#include "rt_strtab.h"
#include "rt_taxonomy.h"

/* Who changed something and when. */
typedef struct rt_prov {
    const char *author;   /* borrowed from the state */
    int64_t time_ms;
    uint64_t seq;
} rt_prov;

/* A relabel: the current grade of (query, pid), overriding the base qrels. */
typedef struct rt_label {
    uint32_t pid;
    int32_t grade;
    rt_prov prov;
} rt_label;

/* The tags and note of a pair, or of the query itself when pid is RT_NO_ID. */
typedef struct rt_tag {
    uint32_t pid;
    unsigned long long cats;  /* bit i: taxonomy category i */
    char *note;               /* NULL when none */
    rt_prov prov;
} rt_tag;

/* A reviewed leakage candidate: test query (the entry's query, by id) × training query. The
 * training query stays a string: it is a query of the training set (the leakage check's own
 * file), which the workspace's table of query ids does not hold. */
typedef struct rt_leak_label {
    char *train;
    char *type;
    rt_prov prov;
} rt_leak_label;

typedef struct rt_qset {
    char *name;
    char *how;               /* what made it, e.g. "sample 100 42 notop 5 bm25" */
    uint32_t *qids;
    size_t n;
} rt_qset;

/* An adjudication: the decision the adjudicator took for the team on a pair. */
typedef struct rt_adjud {
    uint32_t pid;
    int has_grade;           /* the grade was decided */
    int32_t grade;
    int has_cats;            /* the categories were decided */
    unsigned long long cats;
    char **settles;          /* "annotator:seq" of the decisions it settles: a string, as annotators
                                are journals' names, not ids of the workspace */
    size_t nsettles;
    rt_prov prov;
} rt_adjud;

/* A package: pairs assigned to an annotator, and the review sample (seed, size). Its pairs are
 * the workspace's ids; its name and its annotator stay strings (no table of the workspace holds
 * packages' or annotators' names). */
typedef struct rt_package {
    char *name;
    char *annotator;
    uint32_t *qids, *pids;
    size_t n;
    uint64_t seed;
    size_t sample;
    rt_prov prov;
} rt_package;

/* A reviewer's verdict on a pair of a package. */
typedef struct rt_review {
    uint32_t pid;
    char *package;           /* the package's name (a string: packages are found by name) */
    int correct;
    rt_prov prov;
} rt_review;

typedef struct rt_annot rt_annot;

/* An empty state indexed by the ids of qids and pids (borrowed; the state adds none: operations
 * come resolved, rt_op.by_id) and tagging with tax (borrowed). Owned: the caller frees it with
 * rt_annot_free, before qids, pids and tax. */
rt_annot *rt_annot_new(rt_strtab *qids, rt_strtab *pids, const rt_taxonomy *tax);
void rt_annot_free(rt_annot **a);

/* Applies an operation (one read from the journal or just appended to it) and records how to
 * undo it. The op is taken by its ids (rt_op.id): one not resolved to ids of the state's tables
 * (by_id 0, an id outside them) is refused (RT_EINPUT), as are operations naming an unknown
 * category; the strings of its text form are read only for the messages. An op with undo or
 * redo set must match the top of the corresponding history, otherwise the history is reset
 * (the change itself still applies) and *warning says so when not NULL. */
rt_status rt_annot_apply(rt_annot *a, const rt_op *op, const char **warning, rt_err *err);

/* The generation of the state's queries and pairs: changes with every operation applied to a
 * query or pair (everything but query sets and packages), and is never the same in two states.
 * State derived from a (the team's decisions, …) records it, and asserts it is unchanged where
 * it reads what it derived: the arrays the lookups below return move as operations apply. */
uint64_t rt_annot_generation(const rt_annot *a);

/* The generation of the state's packages: changes with every package operation (made, undone,
 * redone), which may free, move or reorder the package array; never the same in two states. */
uint64_t rt_annot_packages_generation(const rt_annot *a);

/* keep 0: apply keeps no undo history (another annotator's state, read-only): cheaper replays. */
void rt_annot_keep_history(rt_annot *a, int keep);

/* True when applying op (by its ids) would change nothing (tagging a present category, …). */
int rt_annot_is_noop(const rt_annot *a, const rt_op *op);

/* Builds in *out the operation that undoes the last change (undo set), or that redoes the last
 * undone one (redo set), by ids without a text form (the journal names them); returns 0 when
 * there is nothing to undo / redo. */
int rt_annot_undo_op(const rt_annot *a, rt_op *out);
int rt_annot_redo_op(const rt_annot *a, rt_op *out);

/* The relabels of qid. Borrowed: valid until the next rt_annot_apply on a (it may reallocate,
 * move or reorder the entries) or rt_annot_free. */
const rt_label *rt_annot_labels(const rt_annot *a, uint32_t qid, size_t *n);
/* The relabel of (qid, pid), or NULL. Borrowed: valid until the next rt_annot_apply on a (it may
 * reallocate, move or reorder the entries) or rt_annot_free. */
const rt_label *rt_annot_label(const rt_annot *a, uint32_t qid, uint32_t pid);
size_t rt_annot_nlabels(const rt_annot *a);

/* The tag entries of qid; entries may have no categories left but a note. Borrowed: valid
 * until the next rt_annot_apply on a (it may reallocate, move or reorder the entries) or
 * rt_annot_free. */
const rt_tag *rt_annot_tags(const rt_annot *a, uint32_t qid, size_t *n);
const rt_tag *rt_annot_tag(const rt_annot *a, uint32_t qid, uint32_t pid);
/* Tag entries of qid that hold at least one category. */
size_t rt_annot_tag_count(const rt_annot *a, uint32_t qid);
/* Pairs and queries with at least one category, over all queries. */
size_t rt_annot_ntagged(const rt_annot *a);

/* Borrowed: valid until the next rt_annot_apply on a (it may reallocate, move or reorder the
 * entries) or rt_annot_free. */
const rt_leak_label *rt_annot_leaks(const rt_annot *a, uint32_t qid, size_t *n);
const rt_leak_label *rt_annot_leak(const rt_annot *a, uint32_t qid, const char *train);

/* Borrowed: valid until the next rt_annot_apply on a (it may reallocate, move or reorder the
 * entries) or rt_annot_free. */
const rt_qset *rt_annot_set(const rt_annot *a, const char *name);
const rt_qset *rt_annot_sets(const rt_annot *a, size_t *n);

/* Adjudications of qid, and of (qid, pid) or NULL. Borrowed: valid until the next rt_annot_apply
 * on a (it may reallocate, move or reorder the entries) or rt_annot_free. */
const rt_adjud *rt_annot_adjuds(const rt_annot *a, uint32_t qid, size_t *n);
const rt_adjud *rt_annot_adjud(const rt_annot *a, uint32_t qid, uint32_t pid);

/* The packages this journal made, and one by name (NULL when none). Borrowed: valid until the
 * next rt_annot_apply on a (it may reallocate, move or reorder the entries) or rt_annot_free. */
const rt_package *rt_annot_packages(const rt_annot *a, size_t *n);
const rt_package *rt_annot_package(const rt_annot *a, const char *name);

/* The review verdicts on qid's pairs, and on (qid, pid) in package (NULL when none).
 * Borrowed: valid until the next rt_annot_apply on a (it may reallocate, move or reorder the
 * entries) or rt_annot_free. */
const rt_review *rt_annot_reviews(const rt_annot *a, uint32_t qid, size_t *n);
const rt_review *rt_annot_review(const rt_annot *a, uint32_t qid, uint32_t pid, const char *package);

/* Number of operations applied, and of undoable / redoable ones. */
size_t rt_annot_nops(const rt_annot *a);
size_t rt_annot_can_undo(const rt_annot *a);
size_t rt_annot_can_redo(const rt_annot *a);

#endif
