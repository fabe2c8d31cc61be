/* view_grepall — :grep all WORDS: the passages of the whole collection whose text holds every
 * word (rt_search), for the query in focus when it was asked: each with its rank in every run, or
 * "not retrieved", and the text around the match. The rows are (query, passage) pairs: Enter opens
 * one, and the relabel keys (+, -, r) judge it there, so that a relevant passage no system
 * retrieved gets a judgment (a false negative of the whole pool). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "pairlist.h"
#include "rt_mem.h"
#include "rt_safeout.h"
#include "rt_search.h"
#include "rt_text.h"
#include "view.h"

struct grepall_view {
    char words[256];
    uint32_t qid;            /* the query the passages are paired with */
    rt_search_result res;
    uint32_t *pid;           /* per hit: its pid's id, RT_NO_ID until asked (interned on demand) */
    pairlist list;
};

static struct grepall_view *grepall_state(app *a) { return view_state(a, VIEW_GREPALL); }

static void release(void *state)
{
    struct grepall_view *g = state;
    rt_search_result_free(&g->res);
    free(g->pid);
}

int act_grep_all(app *a, const char *arg)
{
    while (*arg == ' ')
        arg++;
    if (!*arg) {
        app_message(a, 1, "usage: :grep all WORDS (the passages of the whole collection holding every word)");
        return -1;
    }
    uint32_t qid = app_qid(a);
    if (qid == RT_NO_ID) {
        app_message(a, 1, ":grep all pairs what it finds with the query in focus: there is none");
        return -1;
    }
    if (!app_wait(a, APP_WAIT_COLLECTION))
        return -1;
    if (!a->s->ws->collection) {
        app_message(a, 1, ":grep all searches the collection: the workspace has none");
        return -1;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    const char *words[RT_SEARCH_MAX_WORDS];
    size_t n = 0;
    for (char *w = strtok(buf, " \t"); w; w = strtok(NULL, " \t")) {
        if (n == RT_SEARCH_MAX_WORDS) {
            app_message(a, 1, ":grep all: at most %d words", RT_SEARCH_MAX_WORDS);
            return -1;
        }
        words[n++] = w;
    }
    rt_search_result res;
    rt_err err;
    if (rt_search_file(rt_collection_path(a->s->ws->collection), words, n, &res, &err) != RT_OK) {
        app_message(a, 1, ":grep all: %s", err.msg);
        return -1;
    }
    struct grepall_view *g = grepall_state(a);
    release(g);
    snprintf(g->words, sizeof g->words, "%s", arg);
    g->qid = qid;
    g->res = res;
    g->pid = rt_reallocarray(NULL, res.n ? res.n : 1, sizeof *g->pid);
    for (size_t i = 0; i < res.n; i++)
        g->pid[i] = RT_NO_ID;
    g->list = (pairlist){0, 0};
    app_push(a, VIEW_GREPALL);
    app_message(a, res.n ? 0 : 1, "%zu passages of the collection hold \"%s\" (paired with query %s)", res.n,
                g->words, rt_strtab_str(a->s->ws->qids, qid));
    return 0;
}

static pairlist *list(app *a) { return &grepall_state(a)->list; }

static size_t count(app *a) { return grepall_state(a)->res.n; }

/* Hit i's pid id: found, or interned from the collection (rt_session_pid), when first asked. */
static uint32_t pid_of(app *a, size_t i)
{
    struct grepall_view *g = grepall_state(a);
    if (g->pid[i] == RT_NO_ID) {
        const rt_search_hit *h = &g->res.hits[i];
        char *s = rt_strndup(g->res.arena + h->pid, h->pid_len);
        g->pid[i] = rt_session_pid(a->s, s);
        free(s);
    }
    return g->pid[i];
}

static int pair(app *a, size_t i, uint32_t *qid, uint32_t *pid)
{
    *qid = grepall_state(a)->qid;
    *pid = pid_of(a, i);
    return *pid != RT_NO_ID;
}

/* The rank of pid in run r's ranking of qid (1-based), 0 when it is not there. */
static size_t rank_in(const rt_workspace *ws, size_t r, uint32_t qid, uint32_t pid)
{
    size_t n;
    const uint32_t *p = rt_run_ranking(ws->runs[r].run, qid, &n);
    for (size_t k = 0; k < n; k++)
        if (p[k] == pid)
            return k + 1;
    return 0;
}

/* Hit i: its pid, its judgment, its rank in every run (or "not retrieved"), and the text around
 * the match, the match highlighted. */
static void draw_row(app *a, int y, size_t i, int focused)
{
    struct grepall_view *g = grepall_state(a);
    rt_workspace *ws = a->s->ws;
    const rt_search_hit *h = &g->res.hits[i];
    term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
    app_region(a, y, 0, a->cols, REGION_CURSOR, i, 0);
    uint32_t pid = pid_of(a, i);
    char ranks[160] = "";
    size_t o = 0, found = 0;
    for (size_t r = 0; pid != RT_NO_ID && r < ws->nruns && o + 24 < sizeof ranks; r++) {
        size_t k = rank_in(ws, r, g->qid, pid);
        found += k != 0;
        o += k ? (size_t)snprintf(ranks + o, sizeof ranks - o, "%s@%zu ", rt_run_name(ws->runs[r].run), k)
               : (size_t)snprintf(ranks + o, sizeof ranks - o, "%s:- ", rt_run_name(ws->runs[r].run));
    }
    int32_t grade;
    int judged = pid != RT_NO_ID && app_grade(a, g->qid, pid, &grade);
    char pidtext[64];
    rt_safeout_text(g->res.arena + h->pid, h->pid_len, pidtext, sizeof pidtext);
    int x = draw_fmt(y, 0, a->cols, role, "%-12s %-3s %s ", pidtext,
                     judged ? (grade > 0 ? "rel" : "no") : "?", found ? ranks : "not retrieved ");
    size_t wl = strcspn(g->words, " \t");
    uint8_t *mark = rt_calloc(h->snip_len + 1, 1);
    if (h->snip_at + wl <= h->snip_len)
        memset(mark + h->snip_at, DRAW_MARK_MATCH, wl);
    rt_glyphs gl = {0};
    rt_text_sanitize(g->res.arena + h->snip, h->snip_len, 0, &gl);
    draw_glyphs(y, x, a->cols - x, &gl, 0, gl.n, mark, role);
    rt_glyphs_free(&gl);
    free(mark);
}

static const pairlist_ops pairs = {.list = list, .count = count, .pair = pair, .draw_row = draw_row};

static void draw(app *a, int top, int height)
{
    struct grepall_view *g = grepall_state(a);
    pairlist_header(a, top, "Enter opens it; + - r judge it for the query",
                    "\"%s\" in the whole collection: %zu passages, for query %s", g->words, g->res.n,
                    rt_strtab_str(a->s->ws->qids, g->qid));
    int rows = height - 2;
    if (!g->res.n || rows < 1) {
        const char *m = "No passage of the collection holds every word.";
        draw_text(top + 2, 0, a->cols, m, strlen(m), ROLE_DIM, NULL);
        return;
    }
    pairlist_draw(a, &pairs, top + 2, (size_t)rows);
}

const view_ops view_grepall_ops = {
    .name = "collection search", .draw = draw, .pairs = &pairs,
    .state_size = sizeof(struct grepall_view), .release = release,
};
