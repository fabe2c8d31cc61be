/* app — shared state: the current query, the visible query rows (filtered and sorted), the view
 * stack, messages, and the frame every view is drawn in (title, body, status or command line). */
#include "config.h"

#include <limits.h>
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "app.h"
#include "list.h"
#include "draw.h"
#include "hint.h"
#include "judge.h"
#include "measure.h"
#include "team.h"
#include "rt_mem.h"
#include "view.h"
#include "viewstate.h"

#define MIN_COLS 40
#define MIN_ROWS 8

uint32_t app_qid(const app *a) { return a->s->ws->qlist[a->cur]; }

int app_grade(const app *a, uint32_t qid, uint32_t pid, int32_t *grade)
{
    return rt_session_grade(a->s, qid, pid, grade, NULL);
}

/* Judged passages of list row qi (the per-run figures come from the session). */
static void query_stats(app *a, size_t qi)
{
    rt_workspace *ws = a->s->ws;
    uint32_t q = ws->qlist[qi];
    uint32_t bi = rt_qrels_index(ws->qrels, q);
    size_t nj = 0, nl;
    if (bi != RT_NO_ID)
        rt_qrels_judgments(ws->qrels, bi, &nj);
    const rt_label *l = rt_annot_labels(a->s->annot, q, &nl);
    for (size_t k = 0; k < nl; k++)
        nj += !rt_workspace_grade(ws, q, l[k].pid, &(int32_t){0});
    list_state(a)->judged[qi] = (uint32_t)nj;
}

void app_compute_stats(app *a)
{
    rt_workspace *ws = a->s->ws;
    struct list_state *l = list_state(a);
    l->judged = rt_calloc(ws->nq + 1, sizeof *l->judged);
    for (size_t i = 0; i < ws->nq; i++)
        query_stats(a, i);
}

void app_query_changed(app *a, uint32_t qid)
{
    for (size_t i = 0; i < a->s->ws->nq; i++)
        if (a->s->ws->qlist[i] == qid) {
            query_stats(a, i);
            judge_forget(a, i);
        }
}

static char badge_char(int judged, int32_t g, int32_t level)
{
    return !judged ? '?' : g >= level ? '+' : '-';
}

int app_draw_badge(app *a, int y, int x, int w, uint32_t qid, uint32_t pid, int focused)
{
    int32_t g, bg;
    const rt_label *l;
    int judged = rt_session_grade(a->s, qid, pid, &g, &l);
    int bjudged = rt_workspace_grade(a->s->ws, qid, pid, &bg);
    int rel = judged && g >= a->s->ws->level;
    char b[64];
    size_t n = 0;
    char now = badge_char(judged, g, a->s->ws->level), was = badge_char(bjudged, bg, a->s->ws->level);
    if (l && (!bjudged || bg != g)) {
        b[n++] = was;
        b[n++] = '>';
    }
    b[n++] = now;
    term_role role = focused ? ROLE_SELECTED : rel ? ROLE_REL : judged ? ROLE_NONREL : ROLE_UNJUDGED;
    int used = draw_text(y, x, w, b, n, role, NULL);
    if (w - used > 24)   /* the hint where there is room: the best answer-span F1 in tenths */
        used += hint_draw_badge(a, y, x + used, w - used, qid, pid, focused);
    const rt_tag *t = rt_annot_tag(a->s->annot, qid, pid);
    n = 0;
    if (t && (t->cats || t->note)) {
        const rt_taxonomy *tax = a->s->ws->taxonomy;
        b[n++] = '[';
        for (size_t c = 0; c < tax->ncats && n + 4 < sizeof b; c++)
            if (t->cats >> c & 1)
                n += (size_t)snprintf(b + n, sizeof b - n, "%c", tax->cats[c].key ? tax->cats[c].key : '*');
        if (t->note)
            b[n++] = '"';
        b[n++] = ']';
    }
    b[n++] = ' ';
    return used + draw_text(y, x + used, w - used, b, n, focused ? ROLE_SELECTED : ROLE_HEADER, NULL);
}

void app_draw_passage_start(app *a, int y, int x, int w, uint32_t pid, term_role role)
{
    const char *text;
    size_t tl;
    if (w <= 0)
        return;
    if (rt_workspace_passage(a->s->ws, pid, &text, &tl)) {
        /* Only the beginning shows: no glyph is narrower than a column per 4 bytes (escapes are
         * wider still), so 4 bytes a column suffice. */
        size_t want = (size_t)w * 4 + 8;
        draw_text(y, x, w, text, tl < want ? tl : want, role, a->ov);
    } else {
        char miss[160];
        uint64_t done, total;
        int loading = rt_loader_collection_loading(a->s->ws, &done, &total);
        /* a long pid is cut */
        snprintf(miss, sizeof miss, loading ? "[%s] …" : "[%s]", rt_strtab_str(a->s->ws->pids, pid));
        draw_text(y, x, w, miss, strlen(miss), role == ROLE_SELECTED ? role : ROLE_DIM, NULL);
    }
}

const char *app_tag_keys(const app *a, char *buf, size_t n)
{
    char lo = 0, hi = 0;
    const rt_taxonomy *t = a->s->ws->taxonomy;
    for (size_t c = 0; c < t->ncats; c++)
        if (t->cats[c].key) {
            lo = !lo || t->cats[c].key < lo ? t->cats[c].key : lo;
            hi = t->cats[c].key > hi ? t->cats[c].key : hi;
        }
    if (!lo)
        snprintf(buf, n, "(no keys)");
    else if (lo == hi)
        snprintf(buf, n, "%c", lo);
    else
        snprintf(buf, n, "%c-%c", lo, hi);
    return buf;
}

size_t app_query_index(const app *a, uint32_t qid)
{
    for (size_t i = 0; i < a->s->ws->nq; i++)
        if (a->s->ws->qlist[i] == qid)
            return i;
    return 0;
}

void app_set_query(app *a, size_t index)
{
    a->cur = index;
    a->rank = 0;   /* the side-by-side scrolls back to it when it draws */
    rt_overlap_free(&a->ov);
    const char *t = rt_workspace_query_text(a->s->ws, app_qid(a));
    a->ov = rt_overlap_new(t ? t : "", t ? strlen(t) : 0);
}

void app_push(app *a, view_id v)
{
    if (a->view == v)
        return;
    if (a->depth < (int)(sizeof a->stack / sizeof a->stack[0]))
        a->stack[a->depth++] = a->view;
    a->view = v;
}

void app_show_list(app *a)
{
    a->depth = 0;
    a->view = VIEW_LIST;
}

void app_pop(app *a)
{
    if (a->depth > 0)
        a->view = a->stack[--a->depth];
}

void app_message(app *a, int error, const char *fmt, ...)
{
    if (a->msg_keep)   /* a wait was given up: that says what became of the command */
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->msg_error = error;
    if (a->warn_note) {   /* a command that waited for what brought them: its message, and them */
        size_t o = strlen(a->msg);
        snprintf(a->msg + o, sizeof a->msg - o, "  (%zu load warnings: press L)", rt_report_warnings(a->s->ws->report));
        a->warn_note = 0;
    }
}

/* Says that runs or the collection (what) came in with new load warnings. After a message on the
 * line (a command's result or error: not hidden), or as the message; a message set before the next
 * draw (the command that waited for them) says them too. */
static void note_warnings(app *a, const char *what)
{
    size_t n = rt_report_warnings(a->s->ws->report);
    a->warn_note = 0;
    if (a->msg[0]) {
        size_t o = strlen(a->msg);
        snprintf(a->msg + o, sizeof a->msg - o, "; %s, %zu load warnings: press L", what, n);
    } else {
        app_message(a, 0, "%s; %zu load warnings: press L to read them", what, n);
    }
    a->warn_note = 1;
}

/* Runs taken in since the workbench last looked (by app_settle, or by the session when it had to
 * know a passage): the new queries' rows, the delta pair once there are two runs, and the views'
 * and the team's state kept per run or per listed query. */
void app_catch_up(app *a)
{
    rt_workspace *ws = a->s->ws;
    size_t nruns = a->seen_runs, nq = a->seen_nq;
    if (ws->generation == a->seen_gen)   /* it has not grown since */
        return;
    a->seen_gen = ws->generation;
    if (ws->nruns == nruns && ws->nq == nq)
        return;
    a->seen_runs = ws->nruns;
    a->seen_nq = ws->nq;
    int fresh = viewstate_is_fresh(a);   /* what only loading changes is no view to keep */
    struct list_state *l = list_state(a);
    if (ws->nq != nq) {
        l->judged = rt_reallocarray(l->judged, ws->nq + 1, sizeof *l->judged);
        for (size_t i = nq; i < ws->nq; i++)
            query_stats(a, i);
        l->rows_idx = rt_reallocarray(l->rows_idx, ws->nq + 1, sizeof *l->rows_idx);
    }
    if (nruns < 2 && ws->nruns > 1 && l->delta_a == 0 && l->delta_b == 0)
        l->delta_b = 1;   /* as an open with every run gives */
    view_runs_changed(a);
    team_runs_changed(a);   /* (the team is no view: its decisions as a session, for the metrics) */
    size_t top = l->top;   /* the list stays where it was scrolled to (the draw keeps sel on it) */
    app_refresh_rows(a);
    l->top = top;
    if (fresh)
        viewstate_mark_fresh(a);
}

size_t app_find_run(app *a, const char *name)
{
    size_t r = rt_workspace_find_run(a->s->ws, name);
    if (r == (size_t)-1 && rt_loader_runs_loading(a->s->ws, NULL, NULL) && app_wait(a, APP_WAIT_RUNS))   /* perhaps one still being read */
        r = rt_workspace_find_run(a->s->ws, name);
    return r;
}

int app_loading(const app *a)
{
    const rt_workspace *ws = a->s->ws;
    return rt_loader_runs_loading(ws, NULL, NULL) || rt_loader_collection_loading(ws, NULL, NULL) ||
           rt_loader_queued(ws);
}

/* One loading event: what the screen says of it. */
static void loaded(app *a, const rt_load_event *ev)
{
    size_t warnings = rt_report_warnings(a->s->ws->report);
    switch (ev->kind) {
    case RT_LOAD_RUN_READY:
    case RT_LOAD_DONE:
        return;
    case RT_LOAD_FAILED:
        if (ev->collection)
            app_message(a, 1, "the collection could not be opened, passages are not shown: press L for why");
        else   /* what to do first: a long path and message would push it off a narrow status line */
            app_message(a, 1, "a run could not be read and is not shown (L: why): %s", ev->err.msg);
        break;
    case RT_LOAD_RUNS_DONE:
        if (warnings > a->warned)
            note_warnings(a, "every run is in");
        break;
    case RT_LOAD_COLLECTION_READY:   /* taken in now, or by the session (a passage it had to know) */
        if (warnings > a->warned)
            note_warnings(a, "the collection is in");
        break;
    }
    a->warned = warnings;   /* (those it brought, when the session took it in, included) */
}

int app_settle(app *a, int wait)
{
    if (!app_loading(a))
        return 0;
    rt_err e;
    if (wait)   /* its failures come as events, below */
        (void)rt_session_wait(a->s, RT_LOAD_ALL, &e);
    rt_load_event ev;
    int changed = 0;
    /* a step (or the events a wait queued), then only what it queued: keys come between steps */
    if (rt_session_poll(a->s, 0, &ev)) {
        do {
            loaded(a, &ev);
            changed = 1;
        } while (rt_loader_queued(a->s->ws) && rt_session_poll(a->s, 0, &ev));
    }
    app_catch_up(a);
    return changed;
}

/* ---- the frame --------------------------------------------------------------------------- */

size_t app_tax_legend(const app *a, int full, char *buf, size_t n)
{
    const rt_taxonomy *t = a->s->ws->taxonomy;
    size_t o = 0;
    if (n)
        buf[0] = '\0';
    for (size_t c = 0; c < t->ncats && o < n; c++)
        if (t->cats[c].key)
            o += (size_t)snprintf(buf + o, n - o, "%s%c\u00a0%s", o ? "  " : "", t->cats[c].key,
                                  full ? t->cats[c].name : t->cats[c].id);
    return o < n ? o : n ? n - 1 : 0;
}

int app_draw_tax_legend(app *a, int bottom)
{
    char buf[512];
    int o = snprintf(buf, sizeof buf, "tags: ");
    app_tax_legend(a, 0, buf + o, sizeof buf - (size_t)o);
    int rows = draw_wrapped_rows(a->cols, buf, strlen(buf));
    rows = rows < 1 ? 1 : rows > 2 ? 2 : rows;
    return draw_wrapped(bottom - rows + 1, 0, a->cols, rows, buf, strlen(buf), ROLE_DIM);
}

void app_draw_query_line(app *a, int y)
{
    uint32_t q = app_qid(a);
    const char *qt = rt_workspace_query_text(a->s->ws, q);
    char head[160];
    snprintf(head, sizeof head, "%s  ", rt_strtab_str(a->s->ws->qids, q));   /* a long qid is cut */
    int used = draw_text(y, 0, a->cols, head, strlen(head), ROLE_HEADER, NULL);
    draw_text(y, used, a->cols - used, qt ? qt : "(no text)", qt ? strlen(qt) : 9, ROLE_NORMAL, a->ov);
}

int app_body_height(const app *a)
{
    int h = a->rows - 2;
    return h > 1 ? h : 1;
}

static void draw_title(app *a)
{
    char buf[512];
    const char *ro = rt_session_readonly(a->s);
    snprintf(buf, sizeof buf, " retriage — %s — %s — %s%s%s", a->s->ws->name, view_current(a)->name,
             a->s->annotator, ro ? " (read-only)" : "", a->set ? " — set " : "");
    if (a->set)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s", a->set);
    draw_text(0, 0, a->cols, buf, strlen(buf), ROLE_TITLE, NULL);
}

void app_show_columns(app *a, size_t first, size_t shown, size_t total, const char *what)
{
    a->hfirst = first;
    a->hshown = shown;
    a->htotal = total;
    a->hwhat = what;
}

void app_columns_hint(const app *a, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    if (a->htotal && a->hshown < a->htotal)
        snprintf(buf, n, "  %s %zu\u2013%zu of %zu (h/l)", a->hwhat, a->hfirst + 1, a->hfirst + a->hshown, a->htotal);
}

static void draw_status(app *a)
{
    int y = a->rows - 1;
    if (a->prompt) {
        char buf[600];
        snprintf(buf, sizeof buf, "%c%s", a->prompt, a->line);
        int used = draw_text(y, 0, a->cols, buf, strlen(buf), ROLE_NORMAL, NULL);
        if (used < a->cols)
            mvaddch(y, used, ' ' | A_REVERSE);   /* the cursor */
        return;
    }
    if (a->msg[0]) {
        draw_text(y, 0, a->cols, a->msg, strlen(a->msg), a->msg_error ? ROLE_ERROR : ROLE_STATUS, NULL);
        return;
    }
    char buf[512];
    if (view_current(a)->legend) {
        view_current(a)->legend(a, buf, sizeof buf);
        draw_text(y, 0, a->cols, buf, strlen(buf), ROLE_STATUS, NULL);
        return;
    }
    size_t warn = rt_report_warnings(a->s->ws->report);
    char hint[128];
    app_columns_hint(a, hint, sizeof hint);
    char runs[64] = "", coll[48] = "";
    size_t in, of;
    if (rt_loader_runs_loading(a->s->ws, &in, &of))   /* the others still being read */
        snprintf(runs, sizeof runs, "  runs: %zu of %zu read", in, of);
    else if (!hint[0])
        snprintf(runs, sizeof runs, "  %zu run%s", a->s->ws->nruns, a->s->ws->nruns == 1 ? "" : "s");
    uint64_t done, total;
    if (rt_loader_collection_loading(a->s->ws, &done, &total))   /* indexed behind this screen */
        snprintf(coll, sizeof coll, "  passages: indexing %d%%", total ? (int)(100 * done / total) : 0);
    else
        measure_busy(a, coll, sizeof coll);   /* a measure asked for, computed behind this screen */
    snprintf(buf, sizeof buf, " %zu/%zu queries%s  run %s%s%s%s", list_state(a)->nrows, a->s->ws->nq, runs,
             rt_run_name(a->s->ws->runs[view_focused_run(a)].run), hint, coll, warn ? "  L load warnings" : "");
    size_t o = strlen(buf);   /* a run name longer than the line cuts it, and the tail goes */
    snprintf(buf + o, sizeof buf - o, "  ? help  : command  q %s", a->depth ? "back" : "quit");
    draw_text(y, 0, a->cols, buf, strlen(buf), ROLE_STATUS, NULL);
}

void app_draw(app *a)
{
    getmaxyx(stdscr, a->rows, a->cols);
    erase();
    if (a->cols < MIN_COLS || a->rows < MIN_ROWS) {
        char size[64], need[64];
        snprintf(size, sizeof size, "%dx%d is too small.", a->cols, a->rows);
        snprintf(need, sizeof need, "Need %dx%d.", MIN_COLS, MIN_ROWS);
        const char *lines[] = {"Terminal", size, need, "Enlarge it,", "or q quits."};
        for (int y = 0; y < a->rows; y++) {
            const char *l = y < 5 ? lines[y] : "";
            draw_text(y, 0, a->cols, l, strlen(l), y < 3 ? ROLE_ERROR : ROLE_NORMAL, NULL);
        }
        return;
    }
    draw_title(a);
    a->htotal = a->hshown = a->hfirst = 0;   /* the view's draw says which columns it shows */
    a->nregions = 0;                          /* and what can be clicked */
    int h = app_body_height(a);
    view_current(a)->draw(a, 1, h);
    draw_status(a);
    a->warn_note = 0;   /* said: a later message is about something else */
}

void app_draw_passage_of(app *a, int y, int x, int w, uint32_t qid, uint32_t pid, term_role role)
{
    const char *qt = rt_workspace_query_text(a->s->ws, qid);
    rt_overlap *ov = rt_overlap_new(qt ? qt : "", qt ? strlen(qt) : 0), *keep = a->ov;
    a->ov = ov;
    app_draw_passage_start(a, y, x, w, pid, role);
    a->ov = keep;
    rt_overlap_free(&ov);
}

void app_open_passage(app *a, uint32_t qid, uint32_t pid)
{
    app_set_query(a, app_query_index(a, qid));
    passage_show(a, pid, NULL);
}

void app_region(app *a, int y, int x0, int x1, region_kind kind, size_t va, size_t vb)
{
    if (a->nregions < APP_MAX_REGIONS && x1 > x0)
        a->regions[a->nregions++] = (region){y, x0, x1, kind, va, vb};
}

int app_mouse(app *a, int x, int y, int clicks, int wheel)
{
    if (wheel) {
        view_move(a, 3L * wheel);
        return 0;
    }
    for (int i = a->nregions - 1; i >= 0; i--) {
        const region *r = &a->regions[i];
        if (r->y != y || x < r->x0 || x >= r->x1)
            continue;
        switch (r->kind) {
        case REGION_CURSOR: {
            size_t n, *pos = view_cursor(a, &n);
            if (r->a < n)
                *pos = r->a;
            break;
        }
        case REGION_CELL:
            a->col = r->a;
            a->rank = r->b;
            break;
        case REGION_SORT:
            return act_sort_by(a, (sort_key)r->a, r->b);
        }
        if (clicks >= 2)
            return view_open(a);
        return 0;
    }
    return -1;
}
