/* rt_team — the annotators of a workspace together (DESIGN.md §6): one's own session, the only
 * journal ever written, and every other annotator's journal opened read-only and replayed into a
 * state of its own; and the agreement between them — per pair of annotators the items both
 * judged, observed agreement and Cohen's kappa of relevance (weighted kappas too when the
 * workspace is graded), the items both tagged and per category the kappa of "has this category";
 * over all, Fleiss' kappa on the items judged by every member who judges (one who only tags is
 * no rater of relevance) and Krippendorff's alpha (nominal) on
 * everything judged, missing values allowed. An annotator's judgment of a pair is their label
 * (relabel) of it; a tagged item is a pair they gave at least one category. */
#ifndef RT_TEAM_H
#define RT_TEAM_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "rt_agree.h"
#include "rt_err.h"
#include "rt_session.h"
#include "rt_table.h"

typedef struct rt_member {
    char *name;
    rt_session *s;       /* own session: borrowed; others: opened read-only here */
    int self;
} rt_member;

typedef struct rt_team {
    rt_workspace *ws;    /* borrowed */
    rt_member *m;        /* sorted by name */
    size_t n;
    char *dir;
    int all;             /* every journal of dir: new ones join on refresh */
    struct rt_stray *strays;   /* all: NAME.jsonl files there that are no journal, left out (said
                                * once; looked at again when they change) */
    size_t nstrays;
    struct timespec dir_mtime;
    rt_session *self;
} rt_team;

/* The annotators whose journals are in dir (regular files NAME.jsonl, never through links),
 * sorted, into *names (a new array of new strings; rt_team_names_free). RT_EINPUT when dir cannot
 * be read. */
rt_status rt_team_list(const char *dir, char ***names, size_t *n, rt_err *err);
void rt_team_names_free(char **names, size_t n);

/* Opens the team: names (n of them) or, names NULL, every journal in dir. self (may be NULL) is
 * used for its own annotator instead of opening it again; with_self: self is a member even when
 * it has no journal yet or is not named (the workbench's adjudicator). An annotator named who has
 * no journal in dir is an error (RT_EUSAGE, listing those who do); bad lines in a journal are
 * reported in ws->report and the rest loaded. Of every journal in dir, a NAME.jsonl that is none
 * (no line of it an operation: someone's notes) is left out with a warning in ws->report; named,
 * it is an error. So is a NAME.jsonl that is a symbolic link, a named pipe, a folder or a device:
 * never opened, left out with a warning naming it and what it is (said again on a refresh only
 * when it changes); named, an error. Operations naming queries or passages the workspace lacks
 * are applied to nothing (rt_session); a journal of nothing else is left out of a team of every
 * journal, with a warning: a journal of another workspace changes no figure of this one. */
rt_status rt_team_open(rt_team **out, rt_workspace *ws, rt_session *self, int with_self, const char *dir,
                       char *const *names, size_t n, rt_err *err);

/* Picks up what the other members appended to their journals since (and, when the team is every
 * journal of the folder, journals that appeared); *changed says whether anything did. Costs an
 * lstat per member and one of the folder when nothing changed. Decisions and agreement computed
 * before a change must be computed again — *changed is set on an error too: a journal that
 * cannot be read (the first error is returned) keeps its last state, and every other member
 * and new journal is still picked up. */
rt_status rt_team_refresh(rt_team *t, int *changed, rt_err *err);
void rt_team_free(rt_team **t);

/* The index of annotator name, or (size_t)-1. */
size_t rt_team_find(const rt_team *t, const char *name);

typedef struct rt_pair_agreement {
    size_t a, b;                 /* member indices, a < b */
    rt_agreement relevance;      /* Cohen's kappa of relevance (grade >= level) on the items both
                                    judged; .items, .observed */
    rt_agreement linear, quadratic;   /* weighted kappas of the grades (graded workspaces) */
    size_t tag_items;            /* pairs both tagged */
    rt_agreement *category;      /* per taxonomy category: kappa of "has it" on the tag items */
} rt_pair_agreement;

typedef struct rt_team_agreement {
    size_t ncats;
    rt_pair_agreement *pairs;    /* every pair of members, in order (0,1), (0,2), …, (1,2), … */
    size_t npairs;
    rt_agreement fleiss;         /* relevance over the items judged by every member who judged any */
    rt_agreement alpha;          /* Krippendorff's alpha, nominal grades, every judged item */
    size_t units;                /* items anyone judged */
} rt_team_agreement;

/* Computes the agreement of the team's members who judged or tagged something (an adjudicator
 * who only adjudicates is left out); at least two such: RT_EUSAGE otherwise. Holds every pair of
 * members: quadratic in the team's size (for the workbench's view); a command that writes the
 * pairs takes the overall figures and goes through the pairs one at a time instead. */
rt_status rt_team_agreement_compute(const rt_team *t, rt_team_agreement **out, rt_err *err);
void rt_team_agreement_free(rt_team_agreement **a);

/* rt_team_agreement_compute without the pairs: pairs NULL, npairs how many there are. */
rt_status rt_team_agreement_overall(const rt_team *t, rt_team_agreement **out, rt_err *err);

/* Whether member m is a rater (judged or tagged something): the pairs are those of raters a < b. */
int rt_team_rater(const rt_team *t, size_t m);

/* The agreement of members a and b into *p (its category array new: rt_pair_agreement_clear). */
void rt_team_pair_agreement(const rt_team *t, size_t a, size_t b, rt_pair_agreement *p);
void rt_pair_agreement_clear(rt_pair_agreement *p);

/* ---- the team's decisions (DESIGN.md §6) ------------------------------------------------ */

enum { RT_DIFFER_GRADE = 1, RT_DIFFER_CATS = 2 };

/* The adjudication that stands on a pair, copied out of the adjudicator's state. */
typedef struct rt_team_adjud {
    int has_grade;
    int32_t grade;
    int has_cats;
    unsigned long long cats;
    int64_t time_ms;
    uint64_t seq;
    size_t nsettles;             /* decisions it names as settled */
} rt_team_adjud;

/* A pair some member decided (judged, tagged or adjudicated), and what the team makes of it:
 * an adjudication (the latest when several members adjudicated it) decides what it covers;
 * otherwise the common decision of every member who made one; otherwise nothing (disputed). */
typedef struct rt_team_pair {
    uint32_t qid, pid;
    unsigned differ;             /* RT_DIFFER_*: where the members' own decisions differ, or where
                                    the adjudication differs from what they all decided */
    unsigned unresolved;         /* the part of differ no adjudication decides */
    int has_grade;               /* the team's grade */
    int32_t grade;
    int has_cats;                /* the team's categories */
    unsigned long long cats;
    size_t adj_member;           /* whose adjudication stands ((size_t)-1: none) */
    int has_adj;                 /* adj holds it */
    rt_team_adjud adj;           /* a copy of it: the member's array moves and shrinks as they
                                    adjudicate, so no decision points into it */
    size_t nadj;                 /* members who adjudicated it */
} rt_team_pair;

typedef struct rt_team_decisions {
    rt_team_pair *p;             /* by qid id, then pid id */
    size_t n;
    size_t disputed;             /* pairs whose members' decisions differ */
    size_t unresolved;           /* of those, the ones with a difference no adjudication decides */
    size_t agreed, adjudicated;  /* team grades from agreement, from an adjudication */
    size_t overridden;           /* pairs adjudicated by more than one member (the later stands) */
    uint64_t *gens;              /* each member's rt_annot_generation the decisions follow */
    size_t ngens;                /* members when decided (a member joined: decide again) */
} rt_team_decisions;

/* Works out every pair's team decision; a pair adjudicated by several members is reported in
 * rep (may be NULL): the later adjudication stands. Owned: the caller frees it with
 * rt_team_decisions_free; the decisions own everything they hold (nothing points into a
 * member's state) and record each member's generation. */
rt_team_decisions *rt_team_decide(const rt_team *t, rt_report *rep);
void rt_team_decisions_free(rt_team_decisions **d);

/* Decides (qid, pid) again after a change to it (an adjudication, its undo), the one change made
 * since d was decided or last redecided: d then follows the members' generations again. 0 when
 * d does not hold the pair or a member joined since (decide everything again). */
int rt_team_redecide(const rt_team *t, rt_team_decisions *d, uint32_t qid, uint32_t pid);

/* Whether d follows the members' current states (no pair change since it was decided or
 * redecided, no member joined). Whoever reads decisions asserts it: a stale decision is a
 * wrong number on the screen. */
int rt_team_decisions_current(const rt_team *t, const rt_team_decisions *d);

/* The pair (qid, pid) of d, or NULL. Borrowed: valid until rt_team_decisions_free (rt_team_redecide
 * rewrites it in place). */
const rt_team_pair *rt_team_pair_of(const rt_team_decisions *d, uint32_t qid, uint32_t pid);

/* A read-only session over the team's decisions, for metrics, breakdowns and exports (--team):
 * its annotation state holds the team's grades as relabels and the team's categories as tags,
 * by author "team"; its live metrics follow them. Owned: the caller closes it with
 * rt_session_close; it borrows t's workspace, not t or d. */
rt_session *rt_team_session(const rt_team *t, const rt_team_decisions *d);

/* The pairs whose members' decisions differ: qid, pid, what differs, each member's decision
 * ("1", "0 entity,typo", "-"), who adjudicated it, and whether a difference is left. Owned: the
 * caller frees it with rt_table_free. */
rt_table *rt_team_disputes_table(const rt_team *t, const rt_team_decisions *d);

/* Markdown and LaTeX are laid out over the whole table: more pairs of annotators than this are
 * refused for them rather than held (the other formats are written as the pairs are worked out). */
#define RT_TEAM_AGREEMENT_TABLE_PAIRS 5000

/* Writes the agreement to f in fmt: per pair of raters (worked out, written and dropped one at a
 * time) the observed agreement, the relevance kappa (linear and quadratic too when graded) and
 * each category's kappa, then Fleiss' kappa and Krippendorff's alpha from r (the overall figures,
 * rt_team_agreement_overall). JSON: annotators, level, graded, pairs, fleiss, krippendorff, names
 * repaired to UTF-8. RT_EIO when f cannot be written. */
rt_status rt_team_agreement_write(FILE *f, const rt_team *t, const rt_team_agreement *r, rt_table_format fmt,
                                  rt_err *err);

#endif
