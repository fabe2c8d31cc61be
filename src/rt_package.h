/* rt_package — judging in packages with review (DuReader-retrieval, Appendix A.3): the pairs to
 * judge (the depth-k pool of the runs, over every query or a query set) split into packages of
 * about N pairs — a query's pairs stay together — assigned to the annotators in turn; a package's
 * review sample (R pairs drawn with the seed the package records); and the review report: per
 * package the annotator's progress, each reviewer's accuracy on the sample, their mean, and
 * whether it passes the threshold or goes back to be revised. Packages and reviews are
 * operations (rt_op): the packages in the journal of whoever made them, the verdicts in each
 * reviewer's. */
#ifndef RT_PACKAGE_H
#define RT_PACKAGE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_op.h"
#include "rt_table.h"
#include "rt_team.h"

#define RT_PACKAGE_SIZE 1000
#define RT_PACKAGE_SAMPLE 100
#define RT_PACKAGE_THRESHOLD 0.93
#define RT_PACKAGE_REVIEWERS 2

typedef struct rt_package_plan {
    size_t depth;               /* pool depth (default 10) */
    size_t size;                /* pairs a package (default RT_PACKAGE_SIZE); a query's pairs stay together */
    size_t sample;              /* review sample (default RT_PACKAGE_SAMPLE) */
    uint64_t seed;              /* the first package's sample seed; the next ones count up */
    const uint32_t *qids;       /* the queries (NULL: every query of the workspace, in its order) */
    size_t nqids;
    int unjudged;               /* only pairs the base qrels does not judge */
    const char *prefix;         /* names PREFIX-001, PREFIX-002, … (default "pkg") */
    char *const *annotators;    /* assigned in turn */
    size_t nannotators;
} rt_package_plan;

/* Builds the package operations of plan (caller clears each op, then frees the array), by the
 * workspace's ids: by_id set, each pair in id.qids and id.pids, no text form (qids, pids NULL);
 * the journal names them as it writes the line (rt_journal_set_names). Nothing is interned and
 * no string of a query or passage is made. RT_EUSAGE when there are no annotators or no pair to
 * judge, or when the prefix or an annotator is no name (rt_name_problem). */
rt_status rt_package_make(const rt_workspace *ws, const rt_package_plan *plan, rt_op **ops, size_t *n,
                          rt_err *err);

/* The review sample of p: min(p->sample, p->n) indices into its pairs (idx has room for p->n),
 * drawn by a partial Fisher–Yates shuffle with p's seed (rt_rng), in the order drawn. Every
 * reviewer of the package reviews the same sample. Returns how many. */
size_t rt_package_sample(const rt_package *p, size_t *idx);

/* The team's packages: every member's, each once (the latest when two members made one of the
 * same name). Owned: *out, freed with free; each p is borrowed from a member's state, valid until
 * that state next changes (rt_annot_apply, rt_team_refresh). */
typedef struct rt_team_package {
    const rt_package *p;
    size_t owner;               /* the member whose journal holds it */
} rt_team_package;
size_t rt_team_packages(const rt_team *t, rt_team_package **out);

/* The first name of the package operations ops (n of them) that a member of t has a package of
 * already, with that member in *owner; NULL when every name is new. A second package of a name
 * would hide the first from the whole team (the latest stands), so makers check this first.
 * Borrowed: the name is ops[i].name, valid as long as ops. */
const char *rt_package_name_taken(const rt_team *t, const rt_op *ops, size_t n, size_t *owner);

typedef struct rt_package_reviewer {
    size_t member;
    size_t reviewed, correct;   /* verdicts on the sample */
    int complete;               /* every pair of the sample reviewed */
} rt_package_reviewer;

typedef struct rt_package_state {
    const rt_package *p;
    size_t owner;
    size_t annotator;           /* the member it is assigned to, or (size_t)-1: no journal yet */
    size_t judged;              /* pairs the annotator judged */
    size_t sample;              /* its review sample's size */
    rt_package_reviewer *rev;   /* every member but its annotator who reviewed a pair of it */
    size_t nrev;
    size_t complete;            /* reviewers who reviewed the whole sample */
    int has_accuracy;           /* mean of the complete reviewers' accuracies */
    double accuracy;
    const char *status;         /* "judging", "in review", "pass", "revise" */
} rt_package_state;

typedef struct rt_package_report {
    rt_package_state *s;
    size_t n;
    double threshold;
    size_t min_reviewers;
    size_t pairs, judged, passed, revise;   /* totals */
    uint64_t *gens;             /* each member's generations when made: queries and pairs, packages */
    size_t ngens;               /* members when made */
} rt_package_report;

/* The review report of the team's packages: a package passes when at least min_reviewers
 * reviewed its whole sample and their mean accuracy is at least threshold; it goes back
 * ("revise") when they did and it is below; otherwise it is "judging" (pairs left) or "in review".
 * The annotator's reviews of their own package are never counted (a journal written by hand
 * holds them as well as one the workbench refused them to).
 * Owned: the caller frees it with rt_package_report_free; each state's p is borrowed from t's
 * annotation states, valid until one of them next changes (rt_annot_apply, rt_team_refresh). */
rt_package_report *rt_package_report_make(const rt_team *t, double threshold, size_t min_reviewers);
void rt_package_report_free(rt_package_report **r);

/* Whether r still describes t: no member's pairs or packages changed since it was made and no
 * member joined. Its states point into the members' package arrays, which a package operation
 * (an undo included) frees or moves: whoever keeps a report rebuilds it when this is 0. */
int rt_package_report_current(const rt_team *t, const rt_package_report *r);

/* The state of the package named name, or NULL. Borrowed: valid until rt_package_report_free. */
const rt_package_state *rt_package_report_find(const rt_package_report *r, const char *name);

/* Whether review v (of the pair qid, pid of package s; NULL: none) still judges the annotator's
 * decision: they had judged the pair when it was given, and have not changed it since. A mark
 * that does not hold counts for nothing in the report; marking again dates it anew. */
int rt_package_review_holds(const rt_team *t, const rt_package_state *s, uint32_t qid, uint32_t pid,
                            const rt_review *v);

/* v written exactly, the shortest %g that reads back as v, into buf (n bytes, at least 32);
 * returns buf. How a threshold and a mean accuracy are shown everywhere: rounded, a mean shown
 * as 0.9550 could fail a threshold shown as 0.95. Borrowed: it is buf, the caller's. */
const char *rt_package_exact(double v, char *buf, size_t n);

/* The report as a table: package, annotator, judged, pairs, reviewers, each reviewer's accuracy
 * ("rev1 0.9500 (100/100)"), mean, status; then a totals row. The mean and the threshold are
 * written exactly (the shortest decimal that reads back as the same double), never rounded: a
 * mean shown as 0.9550 must not fail a threshold shown as 0.95. Owned: the caller frees it
 * with rt_table_free. */
rt_table *rt_package_report_table(const rt_team *t, const rt_package_report *r);

#endif
