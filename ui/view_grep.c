/* view_grep — :grep TEXT: the passages that contain TEXT (any case) among those the runs rank
 * for the queries the list shows, each with its query, where a run ranks it and the text around
 * the match; Enter opens the passage with the match highlighted (] and [ step through it). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "list.h"
#include "draw.h"
#include "pairlist.h"
#include "rt_mem.h"
#include "rt_text.h"
#include "view.h"

typedef struct grep_hit {
    size_t qi;         /* index into ws->qlist */
    uint32_t pid;
    size_t run, rank;  /* the best rank a run gives it (1-based) */
    size_t at;         /* byte offset of the first match */
} grep_hit;

struct grep_view {
    char text[256];
    grep_hit *hit;
    size_t n, cap;
    pairlist list;
    size_t queries, passages;   /* searched: queries, and (query, passage) pairs */
};

static struct grep_view *grep_state(app *a) { return view_state(a, VIEW_GREP); }

static void release(void *state)
{
    free(((struct grep_view *)state)->hit);
}

/* The first case-insensitive (ASCII letters) occurrence of needle in s, or (size_t)-1. */
static size_t find_ci(const char *s, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; n && i + n <= len; i++) {
        size_t k = 0;
        for (; k < n; k++) {
            unsigned char x = (unsigned char)s[i + k], y = (unsigned char)needle[k];
            if (x != y && !(x < 128 && y < 128 && (x | 0x20) == (y | 0x20) && (x | 0x20) >= 'a' && (x | 0x20) <= 'z'))
                break;
        }
        if (k == n)
            return i;
    }
    return (size_t)-1;
}

int act_grep(app *a, const char *arg)
{
    if (arg && strncmp(arg, "all", 3) == 0 && (arg[3] == ' ' || arg[3] == '\0'))   /* the whole collection */
        return act_grep_all(a, arg + 3);
    if (!arg || !*arg) {
        app_message(a, 1, "usage: :grep TEXT (the passages the runs rank for the listed queries that contain TEXT)");
        return -1;
    }
    if (!app_wait(a, APP_WAIT_COLLECTION))   /* a collection still being indexed: searched once it is in */
        return -1;
    if (!a->s->ws->collection) {
        app_message(a, 1, ":grep searches the passages: the workspace has no collection");
        return -1;
    }
    struct grep_view *g = grep_state(a);
    snprintf(g->text, sizeof g->text, "%s", arg);
    g->n = g->queries = g->passages = 0;
    g->list = (pairlist){0, 0};
    size_t np = rt_strtab_count(a->s->ws->pids);
    size_t *seen = rt_calloc(np + 1, sizeof *seen);   /* query index + 1 that last saw the pid */
    for (size_t row = 0; row < list_state(a)->nrows; row++) {
        size_t qi = list_state(a)->rows_idx[row];
        uint32_t q = a->s->ws->qlist[qi];
        g->queries++;
        for (size_t r = 0; r < a->s->ws->nruns; r++) {
            size_t n;
            const uint32_t *p = rt_run_ranking(a->s->ws->runs[r].run, q, &n);
            for (size_t k = 0; k < n; k++) {
                if (p[k] < np && seen[p[k]] == qi + 1) {
                    for (size_t h = g->n; h-- > 0 && g->hit[h].qi == qi;)   /* a better rank elsewhere */
                        if (g->hit[h].pid == p[k] && k + 1 < g->hit[h].rank) {
                            g->hit[h].rank = k + 1;
                            g->hit[h].run = r;
                        }
                    continue;
                }
                if (p[k] < np)
                    seen[p[k]] = qi + 1;
                const char *t;
                size_t tl;
                if (!rt_workspace_passage(a->s->ws, p[k], &t, &tl))
                    continue;
                g->passages++;
                size_t at = find_ci(t, tl, g->text);
                if (at == (size_t)-1)
                    continue;
                RT_GROW(g->hit, g->cap, g->n + 1);
                g->hit[g->n++] = (grep_hit){qi, p[k], r, k + 1, at};
            }
        }
    }
    free(seen);
    app_push(a, VIEW_GREP);
    /* both counts are (query, passage) pairs: a passage ranked for two queries is searched twice */
    app_message(a, g->n ? 0 : 1, "%zu of %zu query-passage pairs contain \"%s\" (the rankings of %zu listed queries)",
                g->n, g->passages, g->text, g->queries);
    return 0;
}

static pairlist *list(app *a) { return &grep_state(a)->list; }

static size_t count(app *a) { return grep_state(a)->n; }

static int pair(app *a, size_t i, uint32_t *qid, uint32_t *pid)
{
    const grep_hit *h = &grep_state(a)->hit[i];
    *qid = a->s->ws->qlist[h->qi];
    *pid = h->pid;
    return 1;
}

/* Hit i: its query, passage, the best rank a run gives it, and the text from a little before the
 * match, the match highlighted. A click focuses it. */
static void draw_row(app *a, int y, size_t i, int focused)
{
    struct grep_view *g = grep_state(a);
    rt_workspace *ws = a->s->ws;
    const grep_hit *h = &g->hit[i];
    term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
    app_region(a, y, 0, a->cols, REGION_CURSOR, i, 0);
    uint32_t q = ws->qlist[h->qi];
    int x = draw_fmt(y, 0, a->cols, role, "%-6s %-10s %s@%zu  ", rt_strtab_str(ws->qids, q),
                     rt_strtab_str(ws->pids, h->pid), rt_run_name(ws->runs[h->run].run), h->rank);
    const char *t;
    size_t tl;
    if (!rt_workspace_passage(ws, h->pid, &t, &tl))
        return;
    size_t from = h->at > 24 ? h->at - 24 : 0, nlen = strlen(g->text);
    while (from > 0 && ((unsigned char)t[from] & 0xC0) == 0x80)
        from--;
    size_t len = tl - from > 4096 ? 4096 : tl - from;
    uint8_t *mark = rt_calloc(len + 1, 1);
    if (h->at - from + nlen <= len)
        memset(mark + (h->at - from), DRAW_MARK_MATCH, nlen);
    rt_glyphs gl = {0};
    rt_text_sanitize(t + from, len, 0, &gl);
    draw_glyphs(y, x, a->cols - x, &gl, 0, gl.n, mark, role);
    rt_glyphs_free(&gl);
    free(mark);
}

static const pairlist_ops pairs = {.list = list, .count = count, .pair = pair, .draw_row = draw_row};

static void draw(app *a, int top, int height)
{
    struct grep_view *g = grep_state(a);
    draw_fmt(top, 0, a->cols, ROLE_HEADER, "\"%s\": %zu of the %zu query-passage pairs ranked for %zu listed queries "
             "(Enter opens one)", g->text, g->n, g->passages, g->queries);
    int rows = height - 1;
    if (!g->n || rows < 1) {
        const char *m = "No passage the runs rank for the listed queries contains it.";
        draw_text(top + 1, 0, a->cols, m, strlen(m), ROLE_DIM, NULL);
        return;
    }
    pairlist_draw(a, &pairs, top + 1, (size_t)rows);
}

static int open_hit(app *a)
{
    struct grep_view *g = grep_state(a);
    if (!g->n)
        return 0;
    const grep_hit *h = &g->hit[g->list.sel];
    app_set_query(a, h->qi);
    a->col = h->run;
    a->rank = h->rank - 1;
    passage_show(a, h->pid, g->text);   /* the match highlighted in the passage */
    return 0;
}

const view_ops view_grep_ops = {
    .name = "grep", .draw = draw, .pairs = &pairs, .open = open_hit,
    .state_size = sizeof(struct grep_view), .release = release,
};
