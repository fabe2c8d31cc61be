/* actions — what each key and command does, in one table. Handlers change the state in app and
 * return; the event loop redraws. */
#include "config.h"

#include <limits.h>
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "annotate.h"
#include "export.h"
#include "judge.h"
#include "keys.h"
#include "queryset.h"
#include "rt_file.h"
#include "rt_outguard.h"
#include "rt_num.h"
#include "rt_sample.h"
#include "term.h"
#include "list.h"
#include "view.h"
#include "viewstate.h"

#define LIST VIEW_BIT(VIEW_LIST)
#define CMP VIEW_BIT(VIEW_COMPARE)
#define PAS VIEW_BIT(VIEW_PASSAGE)
#define JUD VIEW_BIT(VIEW_JUDGE)
#define ITEM (CMP | PAS | JUD)   /* views with a focused passage */
#define PKG VIEW_BIT(VIEW_PACKAGE)
#define REV VIEW_BIT(VIEW_REVIEW)
#define GALL VIEW_BIT(VIEW_GREPALL)   /* :grep all's pairs are judged where they are listed */

/* ---- movement ---------------------------------------------------------------------------- */

static int act_down(app *a, const char *arg) { (void)arg; view_move(a, 1); return 0; }
static int act_up(app *a, const char *arg) { (void)arg; view_move(a, -1); return 0; }
static int act_page_down(app *a, const char *arg) { (void)arg; view_move(a, app_body_height(a) - 1); return 0; }
static int act_page_up(app *a, const char *arg) { (void)arg; view_move(a, -(app_body_height(a) - 1)); return 0; }
static int act_top(app *a, const char *arg) { (void)arg; view_move(a, -(long)((size_t)-1 / 4)); return 0; }
static int act_bottom(app *a, const char *arg) { (void)arg; view_move(a, (long)((size_t)-1 / 4)); return 0; }

static int act_side(app *a, int d)
{
    const view_ops *v = view_current(a);
    if (v->side)
        v->side(a, d);
    return 0;
}

static int act_left(app *a, const char *arg) { (void)arg; return act_side(a, -1); }
static int act_right(app *a, const char *arg) { (void)arg; return act_side(a, 1); }

static int act_open(app *a, const char *arg)
{
    (void)arg;
    return view_open(a);
}

static int act_back(app *a, const char *arg)
{
    (void)arg;
    if (a->depth == 0)
        a->quit = 1;
    else
        app_pop(a);
    return 0;
}

/* Esc: back, but never out of the workbench (q quits from the query list). */
static int act_cancel(app *a, const char *arg)
{
    (void)arg;
    if (a->depth == 0)
        app_message(a, 0, "Esc never quits: q quits from the query list");
    else
        app_pop(a);
    return 0;
}

static int act_quit(app *a, const char *arg) { (void)arg; a->quit = 1; return 0; }
static int act_help(app *a, const char *arg) { (void)arg; a->scroll = 0; app_push(a, VIEW_HELP); return 0; }
static int act_metrics(app *a, const char *arg) { (void)arg; a->scroll = 0; app_push(a, VIEW_METRICS); return 0; }
static int act_report(app *a, const char *arg) { (void)arg; a->scroll = 0; app_push(a, VIEW_REPORT); return 0; }
static int act_redraw(app *a, const char *arg) { (void)arg; (void)a; clearok(curscr, TRUE); return 0; }

static int step_query(app *a, int d)
{
    struct list_state *l = list_state(a);
    if (!l->nrows)
        return 0;
    size_t pos = 0;
    for (size_t i = 0; i < l->nrows; i++)
        if (l->rows_idx[i] == a->cur)
            pos = i;
    if ((d < 0 && pos == 0) || (d > 0 && pos + 1 >= l->nrows)) {
        app_message(a, 0, d < 0 ? "first query of the list" : "last query of the list");
        return 0;
    }
    pos = (size_t)((long)pos + d);
    l->sel = pos;
    app_set_query(a, l->rows_idx[pos]);
    if (view_current(a)->flags & VIEW_OF_PASSAGE)
        app_pop(a);
    return 0;
}

static int act_next_query(app *a, const char *arg) { (void)arg; return step_query(a, 1); }
static int act_prev_query(app *a, const char *arg) { (void)arg; return step_query(a, -1); }

static int act_cmdline(app *a, const char *arg)
{
    (void)arg;
    a->prompt = ':';
    a->line_len = 0;
    a->line[0] = '\0';
    return 0;
}

/* ---- script helpers ---------------------------------------------------------------------- */

static int act_snapshot(app *a, const char *arg)
{
    char path[1024], opt[16] = "";
    if (!arg || sscanf(arg, "%1023s %15s", path, opt) < 1) {
        app_message(a, 1, "usage: :snapshot PATH [attrs]");
        return -1;
    }
    app_draw(a);
    rt_outfile *f;   /* the one writer: no link followed, no file half-written, no input replaced */
    rt_err err;
    rt_outguard *g = rt_outguard_new();
    rt_outguard_add_session(g, a->s);
    rt_status st = rt_outguard_open(&f, path, g, &err);
    rt_outguard_free(&g);
    if (st != RT_OK) {
        app_message(a, 1, "%s", err.msg);
        return -1;
    }
    term_snapshot(rt_outfile_stream(f), strcmp(opt, "attrs") == 0);
    if (rt_outfile_commit(&f, &err) != RT_OK) {
        app_message(a, 1, "%s", err.msg);
        return -1;
    }
    return 0;
}

static int act_resize(app *a, const char *arg)
{
    char cs[32], rs[32];
    int64_t c, r;
    if (!arg || sscanf(arg, "%31s %31s", cs, rs) != 2 || !rt_num_parse_int_in(cs, 1, 1000, &c) ||
        !rt_num_parse_int_in(rs, 1, 1000, &r)) {
        app_message(a, 1, "usage: :resize COLS ROWS");
        return -1;
    }
    if (!term_is_headless()) {
        app_message(a, 1, ":resize only works in script mode; resize the terminal instead");
        return -1;
    }
    term_resize((int)c, (int)r);
    return 0;
}

/* ---- command arguments ------------------------------------------------------------------- */

/* The word at *p (copied into buf of n bytes, "" when too long), then *p moves past it and the
 * blanks after it. */
void actions_word(const char **p, char *buf, size_t n)
{
    size_t len = strcspn(*p, " ");
    snprintf(buf, n, "%.*s", len < n ? (int)len : 0, *p);
    *p += len;
    *p += strspn(*p, " ");
}

/* ---- the table --------------------------------------------------------------------------- */

const action ui_actions[] = {
    {"down", {'j', KEY_DOWN, 0}, VIEWS_ALL, act_down, "", "move down", PEND_NONE},
    {"up", {'k', KEY_UP, 0}, VIEWS_ALL, act_up, "", "move up", PEND_NONE},
    {"page-down", {CTRL('f'), KEY_NPAGE, ' ', 0}, VIEWS_ALL, act_page_down, "", "move down a page", PEND_NONE},
    {"page-up", {CTRL('b'), KEY_PPAGE, 0}, VIEWS_ALL, act_page_up, "", "move up a page", PEND_NONE},
    {"top", {'g', KEY_HOME, 0}, VIEWS_ALL, act_top, "", "go to the first row", PEND_NONE},
    {"bottom", {'G', KEY_END, 0}, VIEWS_ALL, act_bottom, "", "go to the last row", PEND_NONE},
    {"left", {'h', KEY_LEFT, 0}, LIST | CMP, act_left, "", "focus the run on the left (the columns follow)", PEND_NONE},
    {"right", {'l', KEY_RIGHT, 0}, LIST | CMP, act_right, "", "focus the run on the right (the columns follow)", PEND_NONE},
    {"scroll-left", {'h', KEY_LEFT, 0}, VIEW_BIT(VIEW_METRICS) | VIEW_BIT(VIEW_BREAKDOWN), act_left, "",
     "show the columns on the left (the first stays)", PEND_NONE},
    {"scroll-right", {'l', KEY_RIGHT, 0}, VIEW_BIT(VIEW_METRICS) | VIEW_BIT(VIEW_BREAKDOWN), act_right, "",
     "show the columns on the right", PEND_NONE},
    {"open", {'\r', '\n', KEY_ENTER, 0}, LIST | CMP | JUD | PKG | REV | VIEW_BIT(VIEW_DISPUTES) | VIEW_BIT(VIEW_PACKAGES) | VIEW_BIT(VIEW_GREP) | VIEW_BIT(VIEW_GREPALL),
     act_open, "",
     "open: a query side by side, a passage in full", PEND_NONE},
    {"next-query", {'n', 0}, ITEM, act_next_query, "", "next query of the list", PEND_NONE},
    {"prev-query", {'p', 0}, ITEM, act_prev_query, "", "previous query of the list", PEND_NONE},
    {"search", {'/', 0}, VIEWS_ALL, act_search, "TEXT",
     "show the queries whose id or text contains TEXT; in the passage view, search the passage", PEND_NONE},
    {"find", {0}, PAS, act_find, "TEXT", "search the passage (any case): matches highlighted, the first shown",
     PEND_NONE},
    {"hint", {0}, VIEWS_ALL, act_hint, "order|T|off",
     "judging: unjudged passages closest to an answer first; T: only hint >= T and not relevant (likely false negatives)",
     PEND_NONE},
    {"grep", {0}, VIEWS_ALL, act_grep, "TEXT | all WORDS",
     "list the passages containing TEXT (any case) that the runs rank for the listed queries; all WORDS: in the "
     "whole collection; Enter opens one",
     PEND_NONE},
    {"next-match", {']', 0}, PAS, act_next_match, "", "the next match of the passage search", PEND_NONE},
    {"prev-match", {'[', 0}, PAS, act_prev_match, "", "the previous match of the passage search", PEND_NONE},
    {"sort", {'s', 0}, LIST, act_sort, "[order|qid|text|delta|judged|tags|rbo|jaccard|RUN] [asc|desc]",
     "sort the query list (s cycles through the columns; delta: the largest difference first, tags: the most first)", PEND_NONE},
    {"reverse", {'S', 0}, LIST, act_reverse, "", "reverse the sort order", PEND_NONE},
    {"filter", {0}, VIEWS_ALL, act_filter, "none | text STR | notop K RUN | worse|better A B [MIN] | rbo|jaccard A B MAX | zero RUN | tagged | untagged",
     "filter the query list (worse|better A B MIN: A below|above B by at least MIN; ties never)", PEND_NONE},
    {"failing", {'f', 0}, LIST | CMP, act_failing, "",
     "show the queries the focused run fails: no relevant in its top 5 (RR@10), else 0 on the list's measure", PEND_NONE},
    {"clear-filter", {'F', 0}, LIST, act_clear_filter, "", "show all queries", PEND_NONE},
    {"delta", {0}, VIEWS_ALL, act_delta, "RUN_A RUN_B", "compare RUN_A with RUN_B in the delta column", PEND_NONE},
    {"contrast", {0}, VIEWS_ALL, act_contrast, "rbo|jaccard|none",
     "a column of how differently the delta runs rank each query, without qrels (RBO p 0.9, Jaccard@10)", PEND_NONE},
    {"measure", {'M', 0}, VIEWS_ALL, act_measure, "[NAME,…]",
     "the list's measure: run columns, delta, sorting, :filter worse/better (M cycles); any measure eval -m takes "
     "(? lists them): one the workspace lacks is computed for every run, then kept live and in the metrics panel",
     PEND_NONE},
    {"goto", {0}, VIEWS_ALL, act_goto, "QID", "open query QID side by side", PEND_NONE},
    {"tag-key", {KEY_RANGE('0', '9'), 0}, LIST | ITEM | PKG, act_tag_key, "",
     "tag (or untag) the focused passage with the category on that key; in the query list, the query", PEND_NONE},
    {"query-tag", {'t', 0}, ITEM, act_query_tag, "", "tag the query itself: t then a category key", PEND_NONE},
    {NULL, {KEY_RANGE('0', '9'), 0}, ITEM, act_query_tag_digit, "", "tag the query with the category on that key",
     PEND_QUERY_TAG},
    {NULL, {'y', 0}, LIST | ITEM, act_fn_relabel, "", "after a false-negative tag: relabel the passage relevant",
     PEND_FN},
    {NULL, {'n', 27, 0}, LIST | ITEM, act_fn_keep, "", "after a false-negative tag: keep its judgment", PEND_FN},
    {"tag", {0}, VIEWS_ALL, act_tag, "QID PID|- CATEGORY", "tag a pair (- : the query) with a category (id, name or number)", PEND_NONE},
    {"untag", {0}, VIEWS_ALL, act_untag, "QID PID|- CATEGORY", "remove a category from a pair or query", PEND_NONE},
    {"note", {'N', 0}, LIST | ITEM | PKG, act_note, "QID PID|- TEXT", "write a note on a pair or query (empty removes it)", PEND_NONE},
    {"relevant", {'+', 0}, ITEM | GALL, act_relevant, "", "relabel the focused passage relevant", PEND_NONE},
    {"not-relevant", {'-', 0}, ITEM | GALL, act_not_relevant, "", "relabel the focused passage not relevant (grade 0)", PEND_NONE},
    {"grade", {'r', 0}, ITEM | GALL, act_grade, "", "relabel with a grade: r then 0-1 (0-3 when graded), = for the base", PEND_NONE},
    {NULL, {KEY_RANGE('0', '3'), 0}, ITEM, act_grade_digit, "", "relabel with that grade (0-1, or 0-3 when graded)",
     PEND_GRADE},
    {NULL, {'=', 0}, ITEM, act_grade_base, "", "back to the base judgment", PEND_GRADE},
    {"base-label", {'=', 0}, ITEM, act_base_label, "", "drop the relabel: back to the base judgment", PEND_NONE},
    {"label", {0}, VIEWS_ALL, act_label, "QID PID GRADE|base", "relabel a passage of a query", PEND_NONE},
    {"undo", {'u', 0}, VIEWS_ALL, act_undo, "", "undo the last change (appends the inverse operation)", PEND_NONE},
    {"redo", {CTRL('r'), 'U', 0}, VIEWS_ALL, act_redo, "", "redo the last undone change", PEND_NONE},
    {"next-todo", {'x', 0}, LIST | ITEM | PKG | REV | VIEW_BIT(VIEW_LEAK) | VIEW_BIT(VIEW_DISPUTES), act_next_todo, "",
     "next failing passage without a tag (top k of the focused run); judging: next unjudged; leakage: next unreviewed; "
     "disagreements: next unresolved; package: next unjudged; review: next unreviewed", PEND_NONE},
    {"judge", {'J', 0}, LIST | CMP | PAS, act_judge, "[DEPTH]",
     "judging mode: the query's pool of every run's top DEPTH (default 10) in fusion order", PEND_NONE},
    {"leakage", {'D', 0}, LIST | CMP | PAS, act_leakage, "",
     "review train-test leakage: test queries with near-duplicate training queries (workspace \"leakage\")", PEND_NONE},
    {"leak-type", {KEY_RANGE('0', '6'), 0}, VIEW_BIT(VIEW_LEAK), act_leak_type, "",
     "type the pair: 1 identical 2 generalization 3 specialization 4 reformulation 5 different topic 6 not a leak, 0 clears", PEND_NONE},
    {"leaked", {0}, VIEWS_ALL, act_leaked, "reviewed|candidates",
     "split metrics by confirmed leaks (default) or by every candidate above the threshold", PEND_NONE},
    {"agreement", {'A', 0}, VIEWS_ALL, act_agreement, "",
     "agreement between the annotators whose journals are loaded (Cohen, Fleiss, Krippendorff)", PEND_NONE},
    {"disputes", {'Q', 0}, VIEWS_ALL, act_disputes, "[all|grade|categories|unresolved|resolved] [A B]",
     "the disagreement queue: pairs the annotators decided differently, to adjudicate", PEND_NONE},
    {"adopt", {KEY_RANGE('1', '9'), 0}, VIEW_BIT(VIEW_DISPUTES), act_adopt, "",
     "adjudicate: adopt the decision of the annotator on that key", PEND_NONE},
    {"adjudicate-relevant", {'+', 0}, VIEW_BIT(VIEW_DISPUTES), act_adj_relevant, "",
     "adjudicate: the pair is relevant (your own decision)", PEND_NONE},
    {"adjudicate-not-relevant", {'-', 0}, VIEW_BIT(VIEW_DISPUTES), act_adj_not_relevant, "",
     "adjudicate: the pair is not relevant (your own decision)", PEND_NONE},
    {"withdraw", {'w', 0}, VIEW_BIT(VIEW_DISPUTES), act_adj_withdraw, "", "withdraw your adjudication of the pair",
     PEND_NONE},
    {"adjudicate", {0}, VIEWS_ALL, act_adjudicate, "QID PID ANNOTATOR|GRADE|withdraw",
     "adjudicate a pair: adopt an annotator's decision, or give the grade", PEND_NONE},
    {"packages", {'P', 0}, VIEWS_ALL, act_packages, "",
     "the team's judging packages: progress, review, pass or revise (Enter: judge yours, review another's)", PEND_NONE},
    {"package", {0}, VIEWS_ALL, act_package, "ANNOTATOR,… [depth K] [size N] [sample R] [seed S] [prefix P] [unjudged]",
     "split the depth-K pool into packages of about N pairs for these annotators (saved in your journal)", PEND_NONE},
    {"review", {'R', 0}, VIEW_BIT(VIEW_PACKAGES), act_review, "PACKAGE",
     "review a package: its seeded sample of R pairs with the annotator's decisions", PEND_NONE},
    {"judge-relevant", {'+', 0}, PKG, act_judge_relevant, "", "judge the pair relevant (recorded even when the base agrees)",
     PEND_NONE},
    {"judge-not-relevant", {'-', 0}, PKG, act_judge_not_relevant, "", "judge the pair not relevant (recorded even when the base agrees)",
     PEND_NONE},
    {"review-correct", {'c', 0}, REV, act_review_correct, "", "review: the annotator's decision is correct", PEND_NONE},
    {"review-wrong", {'w', 0}, REV, act_review_wrong, "", "review: the annotator's decision is wrong", PEND_NONE},
    {"review-clear", {'0', 0}, REV, act_review_clear, "", "review: withdraw your mark on the pair", PEND_NONE},
    {"breakdown", {'b', 0}, VIEWS_ALL, act_breakdown, "[K] [team|mine]",
     "the category breakdown (runs count their top K, default 5; team: the team's categories)", PEND_NONE},
    {"sample", {0}, VIEWS_ALL, act_sample, "N SEED CONDITION",
     "save a reproducible random query set (all | tagged | untagged | notop K RUN | worse A B) and show it", PEND_NONE},
    {"set", {0}, VIEWS_ALL, act_set, "NAME|none", "limit the list, metrics and breakdown to a query set", PEND_NONE},
    {"export", {0}, VIEWS_ALL, act_export, "WHAT [FORMAT] PATH",
     "write qrels, qrels-diff, tags, breakdown, metrics, per-query, leakage, leak-pairs, leak-types or a figure "
     "(figure-delta, figure-hist, figure-before-after) as tsv, csv, json, md, latex, trec or svg", PEND_NONE},
    {"metrics", {'m', 0}, VIEWS_ALL, act_metrics, "", "show the metrics panel: base, current, delta", PEND_NONE},
    {"plot", {'v', 0}, LIST | VIEW_BIT(VIEW_METRICS) | VIEW_BIT(VIEW_PLOT), act_plot, "[delta|hist|before-after]",
     "plots of the list's measure: per-query difference of the delta runs, histogram, before/after relabels (v cycles)",
     PEND_NONE},
    {"by", {0}, VIEWS_ALL, act_by, "FACET|none", "split the metrics panel's means by a query facet", PEND_NONE},
    {"baseline", {0}, VIEWS_ALL, act_baseline, "RUN|none",
     "the metrics panel marks * the runs significantly different from RUN (paired t-test, Holm)", PEND_NONE},
    {"report", {'L', 0}, VIEWS_ALL, act_report, "", "show the load report (warnings)", PEND_NONE},
    {"help", {'?', 0}, VIEWS_ALL, act_help, "", "show this help", PEND_NONE},
    {"command", {':', 0}, VIEWS_ALL, act_cmdline, "", "type a command", PEND_NONE},
    {"back", {'q', 0}, VIEWS_ALL, act_back, "", "go back; quit from the query list (the view is restored at the next open)",
     PEND_NONE},
    {"cancel", {27, 0}, VIEWS_ALL, act_cancel, "", "cancel a prompt or go back; never quits", PEND_NONE},
    {"view", {0}, VIEWS_ALL, act_view, "save NAME|NAME", "keep the view (measure, sort, filter, delta, contrast, "
     "query, run, view) as NAME in the journal folder, or restore it", PEND_NONE},
    {"views", {0}, VIEWS_ALL, act_views, "", "list the named views", PEND_NONE},
    {"fresh", {0}, VIEWS_ALL, act_fresh, "", "start fresh: the list as a first open shows it", PEND_NONE},
    {"quit", {0}, VIEWS_ALL, act_quit, "", "quit retriage", PEND_NONE},
    {"redraw", {CTRL('l'), 0}, VIEWS_ALL, act_redraw, "", "redraw the screen", PEND_NONE},
    {"snapshot", {0}, VIEWS_ALL, act_snapshot, "PATH [attrs]", "write the screen as text to PATH", PEND_NONE},
    {"resize", {0}, VIEWS_ALL, act_resize, "COLS ROWS", "resize the screen (script mode)", PEND_NONE},
};
const size_t ui_nactions = sizeof ui_actions / sizeof ui_actions[0];

int actions_key(app *a, int key)
{
    pending_kind p = a->pending;   /* t, r or a false-negative tag waits for its second key */
    a->pending = PEND_NONE;
    for (size_t i = 0; i < ui_nactions; i++) {
        const action *x = &ui_actions[i];
        if (x->after != p || !(x->views & VIEW_BIT(a->view)))
            continue;
        for (int k = 0; k < 4 && x->key[k]; k++)
            if (keys_match(x->key[k], key)) {
                a->key = key;
                x->fn(a, NULL);
                return 1;
            }
    }
    if (p != PEND_NONE && (annotate_pending_other(a, p) || actions_key(a, key)))
        return 1;
    return 0;
}

int actions_command(app *a, const char *line)
{
    while (*line == ' ')
        line++;
    size_t n = strcspn(line, " ");
    if (n == 0)
        return 0;
    const char *arg = line + n;
    while (*arg == ' ')
        arg++;
    if ((n == 1 && line[0] == 'q') || (n == 2 && strncmp(line, "q!", 2) == 0))
        return act_quit(a, NULL);
    for (size_t i = 0; i < ui_nactions; i++)
        if (ui_actions[i].name && strlen(ui_actions[i].name) == n && strncmp(ui_actions[i].name, line, n) == 0) {
            if (ui_actions[i].fn == act_search || ui_actions[i].fn == act_cmdline)
                return ui_actions[i].fn == act_search ? act_search(a, arg) : 0;
            return ui_actions[i].fn(a, *arg ? arg : NULL);
        }
    app_message(a, 1, "unknown command \"%.*s\" (? lists them)", (int)n, line);
    return -1;
}

static const action *starter_of(pending_kind p)
{
    static const struct { pending_kind p; action_fn fn; } starts[] = {
        {PEND_QUERY_TAG, act_query_tag}, {PEND_GRADE, act_grade}, {PEND_FN, act_tag_key},
    };
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++)
        for (size_t i = 0; starts[s].p == p && i < ui_nactions; i++)
            if (ui_actions[i].fn == starts[s].fn)
                return &ui_actions[i];
    return NULL;
}

/* The key codes of x as a list ("Ctrl-F, PgDn, Space"), repeated names once. */
static size_t key_list(const action *x, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < 4 && x->key[k]; k++) {
        char name[32];
        keys_name(x->key[k], name, sizeof name);
        if (o && strstr(buf, name))
            continue;   /* Enter is three codes */
        o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "", name);
        if (o >= n)
            return n - 1;
    }
    return o;
}

const char *actions_keys(const action *x, char *buf, size_t n)
{
    const action *s = x->after ? starter_of(x->after) : NULL;
    size_t o = 0;
    if (s) {
        o = key_list(s, buf, n);
        o += (size_t)snprintf(buf + o, n - o, " then ");
    }
    if (o < n)
        key_list(x, buf + o, n - o);
    return buf;
}

const char *actions_keys_of(const char *name, char *buf, size_t n)
{
    for (size_t i = 0; i < ui_nactions; i++)
        if (ui_actions[i].name && strcmp(ui_actions[i].name, name) == 0)
            return actions_keys(&ui_actions[i], buf, n);
    snprintf(buf, n, "?");
    return buf;
}

void actions_write_keys(FILE *f, int roff)
{
    for (size_t i = 0; i < ui_nactions; i++) {
        const action *x = &ui_actions[i];
        char keys[64], cmd[128] = "";
        actions_keys(x, keys, sizeof keys);
        if (x->name)
            snprintf(cmd, sizeof cmd, ":%s%s%s", x->name, *x->args ? " " : "", x->args);
        if (roff) {
            fprintf(f, ".TP\n");
            if (*keys)
                fprintf(f, "\\fB%s\\fR%s", keys, x->name ? ", " : "\n");
            if (x->name)
                fprintf(f, "\\fB:%s\\fR%s%s\n", x->name, *x->args ? " " : "", x->args);
            fprintf(f, "%s\n", x->help);
        } else {
            fprintf(f, "%-22s %-44s %s\n", keys, cmd, x->help);
        }
    }
}
