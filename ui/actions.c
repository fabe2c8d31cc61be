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
#include "queryset.h"
#include "rt_parse.h"
#include "rt_sample.h"
#include "term.h"
#include "view.h"

#define CTRL(c) ((c) & 0x1f)
#define LIST VIEW_BIT(VIEW_LIST)
#define CMP VIEW_BIT(VIEW_COMPARE)
#define PAS VIEW_BIT(VIEW_PASSAGE)
#define JUD VIEW_BIT(VIEW_JUDGE)
#define ITEM (CMP | PAS | JUD)   /* views with a focused passage */
#define DIGITS (-2)              /* in a key list: any digit; the handler reads a->key */

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
    const view_ops *v = view_current(a);
    return v->open ? v->open(a) : 0;
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

static int act_quit(app *a, const char *arg) { (void)arg; a->quit = 1; return 0; }
static int act_help(app *a, const char *arg) { (void)arg; a->scroll = 0; app_push(a, VIEW_HELP); return 0; }
static int act_metrics(app *a, const char *arg) { (void)arg; a->scroll = 0; app_push(a, VIEW_METRICS); return 0; }
static int act_report(app *a, const char *arg) { (void)arg; a->scroll = 0; app_push(a, VIEW_REPORT); return 0; }
static int act_redraw(app *a, const char *arg) { (void)arg; (void)a; clearok(curscr, TRUE); return 0; }

static int step_query(app *a, int d)
{
    if (!a->nrows)
        return 0;
    size_t pos = 0;
    for (size_t i = 0; i < a->nrows; i++)
        if (a->rows_idx[i] == a->cur)
            pos = i;
    if ((d < 0 && pos == 0) || (d > 0 && pos + 1 >= a->nrows)) {
        app_message(a, 0, d < 0 ? "first query of the list" : "last query of the list");
        return 0;
    }
    pos = (size_t)((long)pos + d);
    a->sel = pos;
    app_set_query(a, a->rows_idx[pos]);
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
    FILE *f = fopen(path, "w");
    if (!f) {
        app_message(a, 1, "cannot write %s", path);
        return -1;
    }
    term_snapshot(f, strcmp(opt, "attrs") == 0);
    if (fclose(f) != 0) {
        app_message(a, 1, "cannot write %s", path);
        return -1;
    }
    return 0;
}

static int act_resize(app *a, const char *arg)
{
    char cs[32], rs[32];
    int64_t c, r;
    if (!arg || sscanf(arg, "%31s %31s", cs, rs) != 2 || !rt_parse_int_in(cs, 1, 1000, &c) ||
        !rt_parse_int_in(rs, 1, 1000, &r)) {
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
    {"down", "j, Down", {'j', KEY_DOWN, 0}, VIEWS_ALL, act_down, "", "move down"},
    {"up", "k, Up", {'k', KEY_UP, 0}, VIEWS_ALL, act_up, "", "move up"},
    {"page-down", "Ctrl-F, PgDn, Space", {CTRL('f'), KEY_NPAGE, ' ', 0}, VIEWS_ALL, act_page_down, "", "move down a page"},
    {"page-up", "Ctrl-B, PgUp", {CTRL('b'), KEY_PPAGE, 0}, VIEWS_ALL, act_page_up, "", "move up a page"},
    {"top", "g, Home", {'g', KEY_HOME, 0}, VIEWS_ALL, act_top, "", "go to the first row"},
    {"bottom", "G, End", {'G', KEY_END, 0}, VIEWS_ALL, act_bottom, "", "go to the last row"},
    {"left", "h, Left", {'h', KEY_LEFT, 0}, CMP, act_left, "", "focus the run on the left"},
    {"right", "l, Right", {'l', KEY_RIGHT, 0}, CMP, act_right, "", "focus the run on the right"},
    {"open", "Enter", {'\r', '\n', KEY_ENTER, 0}, LIST | CMP | JUD, act_open, "",
     "open: a query side by side, a passage in full"},
    {"next-query", "n", {'n', 0}, ITEM, act_next_query, "", "next query of the list"},
    {"prev-query", "p", {'p', 0}, ITEM, act_prev_query, "", "previous query of the list"},
    {"search", "/", {'/', 0}, VIEWS_ALL, act_search, "TEXT", "show the queries whose id or text contains TEXT"},
    {"sort", "s", {'s', 0}, LIST, act_sort, "[order|qid|text|delta|judged|tags|RUN] [asc|desc]",
     "sort the query list (s cycles through the columns)"},
    {"reverse", "S", {'S', 0}, LIST, act_reverse, "", "reverse the sort order"},
    {"filter", "", {0}, VIEWS_ALL, act_filter, "none | text STR | notop K RUN | worse A B | tagged | untagged",
     "filter the query list"},
    {"failing", "f", {'f', 0}, LIST | CMP, act_failing, "",
     "show queries with no relevant passage in the top 5 of the focused run"},
    {"clear-filter", "F", {'F', 0}, LIST, act_clear_filter, "", "show all queries"},
    {"delta", "", {0}, VIEWS_ALL, act_delta, "RUN_A RUN_B", "compare RUN_A with RUN_B in the delta column"},
    {"goto", "", {0}, VIEWS_ALL, act_goto, "QID", "open query QID side by side"},
    {"tag-key", "1-9", {DIGITS, 0}, LIST | ITEM, act_tag_key, "",
     "tag (or untag) the focused passage with the category on that key; in the query list, the query"},
    {"query-tag", "t", {'t', 0}, ITEM, act_query_tag, "", "tag the query itself: t then a category key"},
    {"tag", "", {0}, VIEWS_ALL, act_tag, "QID PID|- CATEGORY", "tag a pair (- : the query) with a category (id, name or number)"},
    {"untag", "", {0}, VIEWS_ALL, act_untag, "QID PID|- CATEGORY", "remove a category from a pair or query"},
    {"note", "N", {'N', 0}, LIST | ITEM, act_note, "QID PID|- TEXT", "write a note on a pair or query (empty removes it)"},
    {"relevant", "+", {'+', 0}, ITEM, act_relevant, "", "relabel the focused passage relevant"},
    {"not-relevant", "-", {'-', 0}, ITEM, act_not_relevant, "", "relabel the focused passage not relevant (grade 0)"},
    {"grade", "r", {'r', 0}, ITEM, act_grade, "", "relabel with a grade: r then 0-1 (0-3 when graded), = for the base"},
    {"base-label", "=", {'=', 0}, ITEM, act_base_label, "", "drop the relabel: back to the base judgment"},
    {"label", "", {0}, VIEWS_ALL, act_label, "QID PID GRADE|base", "relabel a passage of a query"},
    {"undo", "u", {'u', 0}, VIEWS_ALL, act_undo, "", "undo the last change (appends the inverse operation)"},
    {"redo", "Ctrl-R, U", {CTRL('r'), 'U', 0}, VIEWS_ALL, act_redo, "", "redo the last undone change"},
    {"next-todo", "x", {'x', 0}, LIST | ITEM | VIEW_BIT(VIEW_LEAK), act_next_todo, "",
     "next failing passage without a tag (top k of the focused run); judging: next unjudged; leakage: next unreviewed"},
    {"judge", "J", {'J', 0}, LIST | CMP | PAS, act_judge, "[DEPTH]",
     "judging mode: the query's pool of every run's top DEPTH (default 10) in fusion order"},
    {"leakage", "D", {'D', 0}, LIST | CMP | PAS, act_leakage, "",
     "review train-test leakage: test queries with near-duplicate training queries (workspace \"leakage\")"},
    {"leak-type", "0-6", {DIGITS, 0}, VIEW_BIT(VIEW_LEAK), act_leak_type, "",
     "type the pair: 1 identical 2 generalization 3 specialization 4 reformulation 5 different topic 6 not a leak, 0 clears"},
    {"leaked", "", {0}, VIEWS_ALL, act_leaked, "reviewed|candidates",
     "split metrics by confirmed leaks (default) or by every candidate above the threshold"},
    {"breakdown", "b", {'b', 0}, VIEWS_ALL, act_breakdown, "[K]", "the category breakdown (runs count their top K, default 5)"},
    {"sample", "", {0}, VIEWS_ALL, act_sample, "N SEED CONDITION",
     "save a reproducible random query set (all | tagged | untagged | notop K RUN | worse A B) and show it"},
    {"set", "", {0}, VIEWS_ALL, act_set, "NAME|none", "limit the list, metrics and breakdown to a query set"},
    {"export", "", {0}, VIEWS_ALL, act_export, "WHAT [FORMAT] PATH",
     "write qrels, qrels-diff, tags, breakdown, metrics, per-query or leakage (tsv, csv, json, md, latex, trec)"},
    {"metrics", "m", {'m', 0}, VIEWS_ALL, act_metrics, "", "show the metrics panel: base, current, delta"},
    {"report", "L", {'L', 0}, VIEWS_ALL, act_report, "", "show the load report (warnings)"},
    {"help", "?", {'?', 0}, VIEWS_ALL, act_help, "", "show this help"},
    {"command", ":", {':', 0}, VIEWS_ALL, act_cmdline, "", "type a command"},
    {"back", "q, Esc", {'q', 27, 0}, VIEWS_ALL, act_back, "", "go back; quit from the query list"},
    {"quit", "", {0}, VIEWS_ALL, act_quit, "", "quit retriage"},
    {"redraw", "Ctrl-L", {CTRL('l'), 0}, VIEWS_ALL, act_redraw, "", "redraw the screen"},
    {"snapshot", "", {0}, VIEWS_ALL, act_snapshot, "PATH [attrs]", "write the screen as text to PATH"},
    {"resize", "", {0}, VIEWS_ALL, act_resize, "COLS ROWS", "resize the screen (script mode)"},
};
const size_t ui_nactions = sizeof ui_actions / sizeof ui_actions[0];

int actions_key(app *a, int key)
{
    for (size_t i = 0; i < ui_nactions; i++) {
        const action *x = &ui_actions[i];
        if (!(x->views & VIEW_BIT(a->view)))
            continue;
        for (int k = 0; k < 4 && x->key[k]; k++)
            if (x->key[k] == key || (x->key[k] == DIGITS && key >= '0' && key <= '9')) {
                a->key = key;
                x->fn(a, NULL);
                return 1;
            }
    }
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
        if (strlen(ui_actions[i].name) == n && strncmp(ui_actions[i].name, line, n) == 0) {
            if (ui_actions[i].fn == act_search || ui_actions[i].fn == act_cmdline)
                return ui_actions[i].fn == act_search ? act_search(a, arg) : 0;
            return ui_actions[i].fn(a, *arg ? arg : NULL);
        }
    app_message(a, 1, "unknown command \"%.*s\" (? lists them)", (int)n, line);
    return -1;
}

void actions_write_keys(FILE *f, int roff)
{
    for (size_t i = 0; i < ui_nactions; i++) {
        const action *x = &ui_actions[i];
        if (roff) {
            fprintf(f, ".TP\n");
            if (*x->keys)
                fprintf(f, "\\fB%s\\fR, ", x->keys);
            fprintf(f, "\\fB:%s\\fR%s%s\n%s\n", x->name, *x->args ? " " : "", x->args, x->help);
        } else {
            char cmd[128];
            snprintf(cmd, sizeof cmd, ":%s%s%s", x->name, *x->args ? " " : "", x->args);
            fprintf(f, "%-22s %-44s %s\n", x->keys, cmd, x->help);
        }
    }
}
