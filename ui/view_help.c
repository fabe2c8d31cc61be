/* view_help — the keys and commands, generated from the action table, and the legend of the
 * workspace's taxonomy; long lines wrap (descriptions under their own column), never cut. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "draw.h"
#include "rt_mem.h"
#include "rt_text.h"
#include "view.h"

#define KEYS_W 21
#define CMD_W 30

typedef struct help_rows {
    char **text;
    term_role *role;
    size_t n, cap;
} help_rows;

static void add(help_rows *h, const char *s, size_t len, term_role role)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->text = rt_realloc(h->text, h->cap * sizeof *h->text);
        h->role = rt_realloc(h->role, h->cap * sizeof *h->role);
    }
    h->text[h->n] = rt_malloc(len + 1);
    memcpy(h->text[h->n], s, len);
    h->text[h->n][len] = '\0';
    h->role[h->n++] = role;
}

/* prefix (already padded to indent columns) then text wrapped to cols - indent, the following
 * rows indented by as many blanks. */
static void add_wrapped(help_rows *h, const char *prefix, int indent, const char *text, int cols, term_role role)
{
    int w = cols - indent > 20 ? cols - indent : cols;
    if (w == cols)
        indent = 0;   /* too narrow for the column: the description under the command, unindented */
    rt_glyphs g = {0};
    rt_text_sanitize(text, strlen(text), 0, &g);
    size_t n = rt_glyphs_wrap(&g, (size_t)w, NULL, 0);
    size_t *st = rt_calloc(n + 1, sizeof *st);
    rt_glyphs_wrap(&g, (size_t)w, st, n);
    if (indent == 0 && prefix[0])
        add(h, prefix, strlen(prefix), role);
    for (size_t i = 0; i < n || i == 0; i++) {
        char line[1024];
        int o = snprintf(line, sizeof line, "%-*s", indent, i == 0 && indent ? prefix : "");
        if (o < 0 || (size_t)o >= sizeof line)
            o = 0;
        if (n)
            o += (int)rt_glyphs_utf8(&g, st[i], i + 1 < n ? st[i + 1] : g.n, line + o, sizeof line - (size_t)o);
        add(h, line, (size_t)o, role);
    }
    free(st);
    rt_glyphs_free(&g);
}

static void build(app *a, help_rows *h)
{
    const char *intro = "Keys work in the views named; every action is also a :command.";
    add_wrapped(h, "", 0, intro, a->cols, ROLE_NORMAL);
    add(h, " ", 1, ROLE_NORMAL);
    /* the taxonomy: which digit tags which category (t then the digit tags the query) */
    const rt_taxonomy *t = a->s->ws->taxonomy;
    add_wrapped(h, "", 0, "Categories: the digit keys tag the focused passage; t then a digit tags the query",
                a->cols, ROLE_HEADER);
    for (size_t g = 0; g < t->ngroups; g++) {
        char line[1024], pre[64];
        int o = 0;
        line[0] = '\0';
        for (size_t c = 0; c < t->ncats && o < (int)sizeof line; c++)
            if (t->cats[c].group == g)
                o += snprintf(line + o, sizeof line - (size_t)o, "%s%c\u00a0%s", o ? "   " : "",
                              t->cats[c].key ? t->cats[c].key : '-', t->cats[c].name);
        snprintf(pre, sizeof pre, "  %.60s", t->groups[g]);
        add_wrapped(h, pre, KEYS_W + CMD_W, line, a->cols, ROLE_NORMAL);
    }
    add(h, " ", 1, ROLE_NORMAL);
    /* what :measure takes: every measure eval -m knows (those the workspace lacks are computed) */
    add_wrapped(h, "", 0, "Measures: :measure NAME shows any of them in the list, as retriage eval -m names them",
                a->cols, ROLE_HEADER);
    char known[512];
    snprintf(known, sizeof known, "%s; trec_eval names (recip_rank, P_10, ndcg_cut_10, …) and MRR, MAP, ACC@k too; "
             "a comma list adds several", rt_measure_known);
    add_wrapped(h, "  ", 2, known, a->cols, ROLE_NORMAL);
    add(h, " ", 1, ROLE_NORMAL);
    char head[160];
    int hl = snprintf(head, sizeof head, "%-*s%-*s%s", KEYS_W, "keys", CMD_W, "command", "what it does");
    add(h, head, (size_t)hl, ROLE_HEADER);
    for (size_t i = 0; i < ui_nactions; i++) {
        const action *x = &ui_actions[i];
        char cmd[160] = "", keys[64], pre[256];
        int cl = x->name ? snprintf(cmd, sizeof cmd, ":%s%s%s", x->name, *x->args ? " " : "", x->args) : 0;
        actions_keys(x, keys, sizeof keys);
        if (cl < CMD_W) {
            snprintf(pre, sizeof pre, "%-*s%-*s", KEYS_W, keys, CMD_W, cmd);
        } else {   /* a long synopsis has its own row, the description below it */
            snprintf(pre, sizeof pre, "%-*s%s", KEYS_W, keys, cmd);
            add_wrapped(h, "", 0, pre, a->cols, ROLE_NORMAL);
            pre[0] = '\0';
        }
        add_wrapped(h, pre, KEYS_W + CMD_W, x->help, a->cols, ROLE_NORMAL);
    }
}

static void draw(app *a, int top, int height)
{
    help_rows h = {0};
    build(a, &h);
    size_t maxscroll = h.n > (size_t)height ? h.n - (size_t)height : 0;
    if (a->scroll > maxscroll)
        a->scroll = maxscroll;
    for (int row = 0; row < height && a->scroll + (size_t)row < h.n; row++) {
        size_t k = a->scroll + (size_t)row;
        draw_text(top + row, 0, a->cols, h.text[k], strlen(h.text[k]), h.role[k], NULL);
    }
    for (size_t k = 0; k < h.n; k++)
        free(h.text[k]);
    free(h.text);
    free(h.role);
}

const view_ops view_help_ops = {.name = "help", .draw = draw};
