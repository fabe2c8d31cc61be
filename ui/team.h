/* team — the annotators of the workspace together in the workbench (DESIGN.md §6): every
 * journal of the journal folder, or those --annotators names, read-only beside the annotator's
 * own; the team's decisions on each pair; and what the others append, picked up while the
 * workbench runs. The agreement and disagreement views (view_agree.c, view_disputes.c) read it. */
#ifndef RT_UI_TEAM_H
#define RT_UI_TEAM_H

#include "app.h"
#include "rt_package.h"
#include "rt_team.h"

/* Opens the team on first use; 0, or -1 with the reason on the status line. */
int team_ensure(app *a);

/* Opens the team when the journal folder holds other annotators' journals (or --annotators
 * names some): the workbench does this as it starts, so that the team's views open at once. */
void team_open_if_any(app *a);

/* The team and its decisions (NULL until team_ensure). Borrowed: the team is valid until
 * team_release; the decisions until they change (team_poll, team_after_change: team_generation
 * moves) or team_release, either of which frees them. */
rt_team *team_of(const app *a);
rt_team_decisions *team_decisions(const app *a);

/* Bumped whenever the decisions change (the views recompute what they derive from them). */
unsigned team_generation(const app *a);

/* Picks up what the other annotators appended (one lstat per journal when nothing changed);
 * says on the status line who added what. Called by the event loop. */
void team_poll(app *a);

/* After one of the annotator's own changes to (qid, pid): decides the pair again. */
void team_after_change(app *a, uint32_t qid, uint32_t pid);

/* The team's decisions as a read-only session (rt_team_session), for the metrics panel; NULL when
 * the team is not open. Rebuilt when the decisions change. Borrowed: valid until the next
 * team_session call after team_generation moved, team_runs_changed or team_release. */
rt_session *team_session(app *a);

/* The team's packages and their review report (default threshold and reviewers); NULL when the
 * team is not open. Rebuilt when the decisions change. Borrowed: valid until the next
 * team_packages call after team_generation moved, or team_release. */
const rt_package_report *team_packages(app *a);

/* Frees the team (the workbench closes). */
void team_release(app *a);

/* Runs were taken in (app_settle): the team's live metrics are made again at their next use. */
void team_runs_changed(app *a);

/* The decisions of member m on (qid, pid) as "1", "0 entity,typo" or "-" into buf; returns buf
 * (Borrowed: it is the caller's buf). */
const char *team_decision_text(const app *a, size_t m, uint32_t qid, uint32_t pid, char *buf, size_t n);

#endif
