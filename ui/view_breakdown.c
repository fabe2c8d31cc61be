/* view_breakdown — the category breakdown (rt_breakdown): per group and category, the tagged
 * items overall with a bar of their share, and per run those among its top k. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "app.h"
#include "draw.h"
#include "rt_breakdown.h"
#include "rt_mem.h"
#include "rt_text.h"
#include "rt_num.h"
#include "team.h"
#include "view.h"

#define NAME_W 36
#define ALL_W 14
#define RUN_W 13

/* The view's own state: its first run column shown, and whether it counts the team's categories
 * (:breakdown team). */
struct breakdown_state {
    size_t hoff;
    int team;
};

static struct breakdown_state *breakdown_state(app *a) { return view_state(a, VIEW_BREAKDOWN); }

static void bar(int y, int x, int w, double share)
{
    int n = (int)(share * w + 0.5);
    char b[256];
    if (w > (int)sizeof b - 1)
        w = (int)sizeof b - 1;
    for (int i = 0; i < w; i++)
        b[i] = i < n ? '#' : ' ';
    draw_text(y, x, w, b, (size_t)w, ROLE_GOOD, NULL);
}

static void row(app *a, const rt_breakdown *b, int y, const char *label, int group, size_t i, int barw)
{
    draw_text(y, 0, NAME_W, label, strlen(label), group ? ROLE_HEADER : ROLE_NORMAL, NULL);
    int x = NAME_W;
    for (size_t k = 0; k <= a->hshown; k++) {   /* the overall column, then the runs shown */
        size_t c = k ? 1 + a->hfirst + k - 1 : 0;
        double sh;
        size_t n = group == 2 ? b->total[c] : group ? rt_breakdown_group(b, c, i, &sh) : rt_breakdown_cat(b, c, i, &sh);
        if (group == 2)
            sh = n ? 1.0 : 0.0;
        int w = c ? RUN_W : ALL_W;
        if (x + w > a->cols)
            break;
        draw_fmt(y, x, w, group ? ROLE_HEADER : ROLE_NORMAL, "%5zu %5.1f%%", n, 100.0 * sh);
        x += w;
        if (c == 0 && barw > 0) {
            bar(y, x, barw, sh);
            x += barw + 1;
        }
    }
}

static void draw(app *a, int top, int height)
{
    struct breakdown_state *bd = breakdown_state(a);
    const rt_qset *set = a->set ? rt_annot_set(a->s->annot, a->set) : NULL;
    rt_session *src = bd->team && team_session(a) ? team_session(a) : a->s;
    rt_breakdown *b = rt_breakdown_compute(src, a->bk, set ? set->qids : NULL, set ? set->n : 0);
    const rt_taxonomy *tax = a->s->ws->taxonomy;
    char head[512];
    snprintf(head, sizeof head, "%s%zu tagged items over %zu queries%s%s | runs count their top %zu "
             "(:breakdown K, :breakdown team|mine)", src != a->s ? "the team's categories: " : "", b->total[0],
             b->nqueries, set ? " of set " : "", set ? a->set : "", a->bk);
    int hr = draw_wrapped(top, 0, a->cols, height > 8 ? 2 : 1, head, strlen(head), ROLE_NORMAL);
    top += hr - 1;
    height -= hr - 1;
    /* the run columns that fit (the bar only when every run does); h/l scroll the others */
    int avail = a->cols - NAME_W - ALL_W, barw = 0;
    size_t fit = avail > 0 ? (size_t)(avail / RUN_W) : 0, nruns = b->nruns;
    if (fit >= nruns) {
        fit = nruns;
        barw = avail - (int)nruns * RUN_W - 1;
        barw = barw > 30 ? 30 : barw < 5 ? 0 : barw;
    }
    if (bd->hoff + fit > nruns)
        bd->hoff = nruns - fit;
    app_show_columns(a, bd->hoff, fit, nruns, "runs");
    char at[32], legend[1024];
    int atw = snprintf(at, sizeof at, "@%zu", a->bk);
    char **names = app_run_short_names(a, (size_t)(RUN_W - 2 - atw > 3 ? RUN_W - 2 - atw : 3), legend, sizeof legend);
    if (legend[0] && height > 6) {
        int lr = draw_wrapped(top + 1, 0, a->cols, 2, legend, strlen(legend), ROLE_DIM);
        top += lr;
        height -= lr;
    }
    draw_text(top + 1, 0, NAME_W, "category", 8, ROLE_HEADER, NULL);
    int x = NAME_W;
    const char *allh = barw ? "    n  share (all)" : "  all  share";
    draw_text(top + 1, x, ALL_W + (barw ? barw + 1 : 0), allh, strlen(allh), ROLE_HEADER, NULL);
    x += ALL_W + (barw ? barw + 1 : 0);
    for (size_t k = 0; k < fit; k++, x += RUN_W) {
        size_t r = bd->hoff + k;
        draw_fmt(top + 1, x, RUN_W - 1, ROLE_HEADER, " %s%s", names[r], at);
        draw_fill(top + 1, x + RUN_W - 1, 1, ROLE_HEADER);
    }
    app_free_names(names, nruns);
    size_t nrows = tax->ngroups + tax->ncats + 1, rows = height > 2 ? (size_t)(height - 2) : 0;
    size_t maxscroll = nrows > rows ? nrows - rows : 0;
    if (a->scroll > maxscroll)
        a->scroll = maxscroll;
    size_t k = 0;
    int y = top + 2;
    for (size_t g = 0; g < tax->ngroups; g++) {
        if (k++ >= a->scroll && y < top + height)
            row(a, b, y++, tax->groups[g], 1, g, barw);
        for (size_t i = 0; i < tax->ncats; i++) {
            if (tax->cats[i].group != g)
                continue;
            char label[160];
            snprintf(label, sizeof label, "  %c %s", tax->cats[i].key ? tax->cats[i].key : ' ', tax->cats[i].name);
            if (k++ >= a->scroll && y < top + height)
                row(a, b, y++, label, 0, i, barw);
        }
    }
    if (k >= a->scroll && y < top + height)
        row(a, b, y, "tagged items", 2, 0, barw);
    rt_breakdown_free(&b);
}

int act_breakdown(app *a, const char *arg)
{
    struct breakdown_state *bd = breakdown_state(a);
    const char *p = arg ? arg : "";
    char w[64];
    while (*p) {
        int64_t k;
        actions_word(&p, w, sizeof w);
        if (!strcmp(w, "team")) {
            if (team_ensure(a) != 0)
                return -1;
            bd->team = 1;
        } else if (!strcmp(w, "mine")) {
            bd->team = 0;
        } else if (rt_num_parse_int_in(w, 1, INT32_MAX, &k)) {
            a->bk = (size_t)k;
        } else {
            app_message(a, 1, "usage: :breakdown [K] [team|mine] (K: top passages of each run, default 5; team: the "
                        "team's categories)");
            return -1;
        }
    }
    a->scroll = 0;
    app_push(a, VIEW_BREAKDOWN);
    return 0;
}

/* h / l: the run columns that do not fit */
static void side(app *a, int d)
{
    struct breakdown_state *bd = breakdown_state(a);
    if (d < 0 && bd->hoff > 0)
        bd->hoff--;
    else if (d > 0 && bd->hoff + a->hshown < a->s->ws->nruns)
        bd->hoff++;
}

const view_ops view_breakdown_ops = {
    .name = "breakdown", .draw = draw, .side = side, .state_size = sizeof(struct breakdown_state),
};
