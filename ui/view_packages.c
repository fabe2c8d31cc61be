/* view_packages — the team's judging packages (DuReader-retrieval, Appendix A.3): each package's
 * annotator, pairs judged of all, reviewers and their accuracy on the review sample, and its
 * status (judging, in review, pass, revise). Enter opens one: its pairs to judge when it is the
 * annotator's own, its review sample otherwise (R: review it in any case). :package makes them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "annotate.h"
#include "app.h"
#include "draw.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "team.h"
#include "view.h"

/* The view's own state: the focused package. */
struct packages_view {
    size_t sel;
};

static struct packages_view *packages_state(app *a) { return view_state(a, VIEW_PACKAGES); }

static size_t *cursor(app *a, size_t *n)
{
    const rt_package_report *r = team_packages(a);
    *n = r ? r->n : 0;
    return &packages_state(a)->sel;
}

int act_packages(app *a, const char *arg)
{
    (void)arg;
    if (team_ensure(a) != 0)
        return -1;
    app_push(a, VIEW_PACKAGES);
    const rt_package_report *r = team_packages(a);
    if (!r->n)
        app_message(a, 0, "no packages yet: :package ANNOTATORS [depth K] [size N] [sample R] [seed S] makes them");
    return 0;
}

/* Makes the packages of plan for its nn annotators, saves them and shows the list. */
static int make_packages(app *a, rt_package_plan *plan, size_t nn)
{
    rt_op *ops;
    size_t n;
    rt_err err;
    size_t owner;
    const char *taken;
    if (!app_wait(a, APP_WAIT_RUNS))   /* the pools are of every run */
        return -1;
    rt_status st = rt_package_make(a->s->ws, plan, &ops, &n, &err);
    if (st == RT_OK && (taken = rt_package_name_taken(team_of(a), ops, n, &owner)))   /* it would hide theirs */
        st = rt_err_set(&err, RT_EUSAGE, "a package named %s exists already in %s's journal (give another prefix)",
                        taken, team_of(a)->m[owner].name);
    if (st == RT_OK)
        st = rt_session_add_packages(a->s, ops, n, &err);
    if (st != RT_OK) {
        app_message(a, 1, "%s", err.msg);
        if (err.status != RT_EUSAGE || !strstr(err.msg, "no pair"))
            for (size_t i = 0; ops && i < n; i++)
                rt_op_clear(&ops[i]);
        free(ops);
        return -1;
    }
    size_t pairs = 0;
    for (size_t i = 0; i < n; i++) {
        pairs += ops[i].nqids;
        rt_op_clear(&ops[i]);
    }
    free(ops);
    team_after_change(a, RT_NO_ID, RT_NO_ID);
    app_message(a, 0, "%zu packages of %zu pairs for %zu annotators saved", n, pairs, nn);
    app_push(a, VIEW_PACKAGES);
    return 0;
}

/* :package A,B [depth K] [size N] [sample R] [seed S] [prefix P] [unjudged]: any number of
 * annotators, names and prefix of any length (each word is held whole). */
int act_package(app *a, const char *arg)
{
    if (team_ensure(a) != 0)
        return -1;
    static const char usage[] = "usage: :package ANNOTATOR,… [depth K] [size N] [sample R] [seed S] [prefix P] [unjudged]";
    const char *p = arg ? arg : "";
    size_t room = strlen(p) + 1;
    char *to = rt_malloc(room), *w = rt_malloc(room), *v = rt_malloc(room), *prefix = NULL;
    char **names = NULL;
    size_t nn = 0;
    int rc = -1;
    actions_word(&p, to, room);
    rt_package_plan plan = {.seed = (uint64_t)rt_op_now_ms() & ((1ull << 52) - 1), .prefix = "pkg"};
    while (*p) {
        actions_word(&p, w, room);
        if (!strcmp(w, "unjudged")) {
            plan.unjudged = 1;
            continue;
        }
        actions_word(&p, v, room);
        int64_t x;
        int good = rt_num_parse_int_in(v, 1, (int64_t)1 << 52, &x);
        if (good && !strcmp(w, "depth"))
            plan.depth = (size_t)x;
        else if (good && !strcmp(w, "size"))
            plan.size = (size_t)x;
        else if (good && !strcmp(w, "sample"))
            plan.sample = (size_t)x;
        else if (good && !strcmp(w, "seed"))
            plan.seed = (uint64_t)x;
        else if (!strcmp(w, "prefix") && v[0]) {
            free(prefix);
            plan.prefix = prefix = rt_strdup(v);
        } else {
            app_message(a, 1, "%s", usage);
            goto out;
        }
    }
    for (char *save = NULL, *t = strtok_r(to, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const char *why = rt_journal_name_problem(t);
        if (why) {
            app_message(a, 1, "\"%s\" cannot name an annotator's journal: %s", t, why);
            goto out;
        }
        names = rt_reallocarray(names, nn + 1, sizeof *names);
        names[nn++] = t;
    }
    plan.annotators = names;
    plan.nannotators = nn;
    if (!nn) {
        app_message(a, 1, "%s", usage);
        goto out;
    }
    rc = make_packages(a, &plan, nn);
out:
    free(names);
    free(prefix);
    free(to);
    free(w);
    free(v);
    return rc;
}


static const rt_package_state *selected(app *a)
{
    const rt_package_report *r = team_packages(a);
    return r && packages_state(a)->sel < r->n ? &r->s[packages_state(a)->sel] : NULL;
}

/* Enter: judge one's own package, review anyone else's. */
static int open(app *a)
{
    const rt_package_state *s = selected(a);
    if (!s)
        return 0;
    if (strcmp(s->p->annotator, a->s->annotator) == 0)
        return package_open_judging(a, s->p->name);
    return package_open_review(a, s->p->name);
}

int act_review(app *a, const char *arg)
{
    if (team_ensure(a) != 0)
        return -1;
    if (arg)
        return package_open_review(a, arg);
    const rt_package_state *s = a->view == VIEW_PACKAGES ? selected(a) : NULL;
    if (!s) {
        app_message(a, 1, "usage: :review PACKAGE (or R on a package of the packages view, P)");
        return -1;
    }
    return package_open_review(a, s->p->name);
}

static void draw(app *a, int top, int height)
{
    const rt_package_report *r = team_packages(a);
    if (!r)
        return;
    const rt_team *t = team_of(a);
    char thr[32];
    draw_fmt(top, 0, a->cols, ROLE_HEADER, "%zu packages, %zu/%zu pairs judged | %zu pass, %zu revise | pass: %zu "
             "reviewers of the whole sample, mean accuracy >= %s", r->n, r->judged, r->pairs, r->passed, r->revise,
             r->min_reviewers, rt_package_exact(r->threshold, thr, sizeof thr));
    static const char keys[] = "Enter: judge your package, review another's   R review   :package makes packages";
    draw_text(top + 1, 0, a->cols, keys, strlen(keys), ROLE_DIM, NULL);
    draw_fmt(top + 2, 0, a->cols, ROLE_HEADER, "  %-12s %-14s %11s %-10s %-9s %s", "package", "annotator", "judged",
             "status", "mean", "reviewers");
    size_t rows = height > 3 ? (size_t)(height - 3) : 0;
    if (packages_state(a)->sel >= r->n)
        packages_state(a)->sel = r->n ? r->n - 1 : 0;
    size_t first = packages_state(a)->sel >= rows ? packages_state(a)->sel - rows + 1 : 0;
    for (size_t k = 0; k < rows && first + k < r->n; k++) {
        const rt_package_state *s = &r->s[first + k];
        int mine = strcmp(s->p->annotator, a->s->annotator) == 0;
        term_role role = first + k == packages_state(a)->sel ? ROLE_SELECTED : !strcmp(s->status, "revise") ? ROLE_BAD
                         : !strcmp(s->status, "pass")                                           ? ROLE_GOOD
                                                                                                : ROLE_NORMAL;
        char mean[32] = "-", revs[512] = "";
        if (s->has_accuracy)   /* exact: what the threshold is compared with */
            rt_package_exact(s->accuracy, mean, sizeof mean);
        size_t o = 0;
        for (size_t i = 0; i < s->nrev && o < sizeof revs; i++)
            o += (size_t)snprintf(revs + o, sizeof revs - o, "%s%s %zu/%zu", i ? ", " : "", t->m[s->rev[i].member].name,
                                  s->rev[i].correct, s->rev[i].reviewed);
        /* by columns, not bytes: a name in Chinese is as wide as its characters, cut at one */
        int y = top + 3 + (int)k, w = a->cols;
        draw_fmt(y, 0, w, role, "%c", mine ? '*' : ' ');   /* the whole row, blank */
        draw_text(y, 2, w > 2 ? (w < 14 ? w - 2 : 12) : 0, s->p->name, strlen(s->p->name), role, NULL);
        draw_text(y, 15, w > 15 ? (w < 29 ? w - 15 : 14) : 0, s->p->annotator, strlen(s->p->annotator), role, NULL);
        if (w > 30)
            draw_fmt(y, 30, w - 30, role, "%5zu/%-5zu %-10s %-9s %s", s->judged, s->p->n, s->status, mean, revs);
    }
}

const view_ops view_packages_ops = {.name = "packages", .draw = draw, .cursor = cursor, .open = open,
    .state_size = sizeof(struct packages_view)};
