/* rt_team — the annotators of a workspace together (DESIGN.md §6): one's own session, the only
 * journal ever written, and every other annotator's journal opened read-only and replayed into a
 * state of its own; and the agreement between them — per pair of annotators the items both
 * judged, observed agreement and Cohen's kappa of relevance (weighted kappas too when the
 * workspace is graded), the items both tagged and per category the kappa of "has this category";
 * over all, Fleiss' kappa on the items everyone judged and Krippendorff's alpha (nominal) on
 * everything judged, missing values allowed. An annotator's judgment of a pair is their label
 * (relabel) of it; a tagged item is a pair they gave at least one category. */
#ifndef RT_TEAM_H
#define RT_TEAM_H

#include <stddef.h>

#include "rt_agree.h"
#include "rt_err.h"
#include "rt_session.h"

typedef struct rt_member {
    char *name;
    rt_session *s;       /* own session: borrowed; others: opened read-only here */
    int self;
} rt_member;

typedef struct rt_team {
    rt_workspace *ws;    /* borrowed */
    rt_member *m;        /* sorted by name */
    size_t n;
} rt_team;

/* The annotators whose journals are in dir (regular files NAME.jsonl, never through links),
 * sorted, into *names (a new array of new strings; rt_team_names_free). RT_EINPUT when dir cannot
 * be read. */
rt_status rt_team_list(const char *dir, char ***names, size_t *n, rt_err *err);
void rt_team_names_free(char **names, size_t n);

/* Opens the team: names (n of them) or, names NULL, every journal in dir. self (may be NULL) is
 * used for its own annotator instead of opening it again. An annotator named who has no journal
 * in dir is an error (RT_EUSAGE, listing those who do); bad lines in a journal are reported in
 * ws->report and the rest loaded. */
rt_status rt_team_open(rt_team **out, rt_workspace *ws, rt_session *self, const char *dir,
                       char *const *names, size_t n, rt_err *err);
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
    rt_agreement fleiss;         /* relevance over the items every member judged */
    rt_agreement alpha;          /* Krippendorff's alpha, nominal grades, every judged item */
    size_t units;                /* items anyone judged */
} rt_team_agreement;

/* Computes the agreement of the team's members (at least two: RT_EUSAGE otherwise). */
rt_status rt_team_agreement_compute(const rt_team *t, rt_team_agreement **out, rt_err *err);
void rt_team_agreement_free(rt_team_agreement **a);

#endif
