/* view_plot — figures in the terminal, from the same numbers as the SVG export (rt_figure) and
 * redrawn live after every change: the per-query difference of the two delta runs on the list's
 * measure (sorted, a bar a query — or a column per group of queries when they do not fit — around
 * a zero line), a histogram of the first delta run's values, and each run's mean before and after
 * the relabels. v cycles through them. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "list.h"
#include "draw.h"
#include "rt_figure.h"
#include "view.h"

/* The view's own state: its figure (0 the difference, 1 a histogram, 2 before/after). */
struct plot_state {
    int figure;
};

static struct plot_state *plot_state(app *a) { return view_state(a, VIEW_PLOT); }

static const char *const eighths[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
static const char *const lefts[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"};

int act_plot(app *a, const char *arg)
{
    struct plot_state *pl = plot_state(a);
    struct list_state *l = list_state(a);
    static const char *const names[] = {"delta", "hist", "before-after"};
    if (arg) {
        int k = -1;
        for (int i = 0; i < 3; i++)
            if (!strcmp(arg, names[i]))
                k = i;
        if (k < 0) {
            app_message(a, 1, "usage: :plot delta|hist|before-after");
            return -1;
        }
        pl->figure = k;
    } else if (a->view == VIEW_PLOT) {
        pl->figure = (pl->figure + 1) % 3;   /* v again: the next figure */
    }
    if (pl->figure == 0 && l->delta_a == l->delta_b) {
        app_message(a, 1, "the difference plot needs two runs (:delta A B)");
        return -1;
    }
    app_push(a, VIEW_PLOT);
    return 0;
}

/* Vertical bars around a zero line, one column per bar (a group's mean when they do not fit). */
static void draw_bars(app *a, const rt_figure *f, int top, int height)
{
    int w = a->cols - 8, rows = height - 2;
    if (w < 4 || rows < 2 || !f->n)
        return;
    size_t ncol = f->n < (size_t)w ? f->n : (size_t)w;
    double *col = calloc(ncol, sizeof *col), lo = 0, hi = 0;
    for (size_t c = 0; c < ncol; c++) {
        size_t from = c * f->n / ncol, to = (c + 1) * f->n / ncol;
        double sum = 0;
        for (size_t i = from; i < to; i++)
            sum += f->value[i];
        col[c] = to > from ? sum / (double)(to - from) : 0;
        lo = fmin(lo, col[c]);
        hi = fmax(hi, col[c]);
    }
    if (hi == lo)
        hi = lo + 1;
    int counts = f->kind == RT_FIG_HIST;
    if (counts)   /* a whole number of queries a row: the axis says counts, not 19.2 */
        hi = ceil(hi / rows) * rows;
    int rep = ncol * 2 <= (size_t)w ? (int)((size_t)w / ncol > 6 ? 6 : (size_t)w / ncol) : 1;   /* wider bars */
    int up = (int)lround(rows * hi / (hi - lo)), down = rows - up;   /* rows above and below zero */
    double per = (hi - lo) / rows;                                    /* value a row */
    for (int r = 0; r < rows; r++) {
        int y = top + r;
        double edge = r < up ? (up - r) * per : (r - up + 1) * per;   /* the value this row reaches */
        draw_fmt(y, 0, 8, ROLE_DIM, counts ? "%7.0f " : "%7.3f ", r < up ? edge : -edge);
        for (size_t c = 0; c < ncol; c++) {
            double v = col[c];
            const char *g = " ";
            if (r < up && v > 0) {
                double fill = (v - (edge - per)) / per;   /* share of this row the bar covers */
                g = fill >= 1 ? "█" : fill > 0 ? eighths[(int)(fill * 8)] : " ";
            } else if (r >= up && v < 0) {
                double fill = (-v - (edge - per)) / per;
                g = fill >= 1 ? "█" : fill >= 0.5 ? "▀" : " ";
            }
            for (int k = 0; k < rep - (rep > 2); k++)   /* a gap between wide bars */
                draw_text(y, 8 + (int)c * rep + k, 1, g, strlen(g), v < 0 ? ROLE_BAD : ROLE_GOOD, NULL);
        }
    }
    (void)down;
    draw_fmt(top + rows, 0, a->cols, ROLE_DIM, "%8s%s … %s (%zu %s%s)", "", f->label[0], f->label[f->n - 1], f->n,
             f->kind == RT_FIG_HIST ? "bins" : "queries", ncol < f->n ? ", a column per group of queries: their mean" : "");
    free(col);
}

static void draw_before_after(app *a, const rt_figure *f, int top, int height)
{
    int namew = 14, barw = a->cols - namew - 20;
    if (barw < 8)
        return;
    double hi = 0;
    for (size_t i = 0; i < f->n; i++)   /* (fmax passes over an undefined mean, NAN) */
        hi = fmax(hi, fmax(f->value[i], f->value2[i]));
    if (hi <= 0)
        hi = 1;
    /* the run names in namew - 1 columns, shortened by what tells them apart, a space before
     * "base" (a name cut at the column ran into it) */
    char legend[512];
    char **names = app_run_short_names(a, (size_t)namew - 1, legend, sizeof legend);
    int y = top;
    for (size_t i = 0; i < f->n && y + 1 < top + height; i++) {
        for (int s = 0; s < 2; s++, y++) {
            double v = s ? f->value2[i] : f->value[i];
            if (!s)
                draw_text(y, 0, namew - 1, names[i], strlen(names[i]), ROLE_NORMAL, NULL);
            draw_fmt(y, namew, 8, ROLE_DIM, "%s", s ? "after" : "base");
            if (isnan(v)) {   /* no query to average */
                draw_fmt(y, namew + 8, a->cols - namew - 8, ROLE_DIM, " undefined");
                continue;
            }
            int cells8 = (int)lround(v / hi * barw * 8);
            char bar[1024] = "";
            for (int k = 0; k < cells8 / 8 && strlen(bar) + 4 < sizeof bar; k++)
                strcat(bar, "█");
            strcat(bar, lefts[cells8 % 8]);
            int x = namew + 8 + draw_text(y, namew + 8, barw, bar, strlen(bar), s ? ROLE_GOOD : ROLE_DIM, NULL);
            draw_fmt(y, x + 1, a->cols - x - 1, ROLE_NORMAL, "%.4f", v);
        }
    }
    if (legend[0] && y < top + height)
        draw_text(y, 0, a->cols, legend, strlen(legend), ROLE_DIM, NULL);
    app_free_names(names, a->s->ws->nruns);
}

static void draw(app *a, int top, int height)
{
    struct plot_state *pl = plot_state(a);
    struct list_state *l = list_state(a);
    rt_figure *f = pl->figure == 0   ? rt_figure_delta(a->s, l->delta_a, l->delta_b, l->measure)
                   : pl->figure == 1 ? rt_figure_hist(a->s, l->delta_a, l->measure, 10)
                                     : rt_figure_before_after(a->s, l->measure);
    draw_fmt(top, 0, a->cols, ROLE_HEADER, "%s", f->title);
    static const char keys[] = "v next figure (difference, histogram, before/after)  :delta A B  :measure M  "
                               ":export figure-delta|figure-hist|figure-before-after svg PATH";
    draw_text(top + 1, 0, a->cols, keys, strlen(keys), ROLE_DIM, NULL);
    if (pl->figure == 2)
        draw_before_after(a, f, top + 2, height - 2);
    else
        draw_bars(a, f, top + 2, height - 2);
    rt_figure_free(&f);
}

const view_ops view_plot_ops = {.name = "plot", .draw = draw, .state_size = sizeof(struct plot_state)};
