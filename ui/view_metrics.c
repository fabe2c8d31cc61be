/* view_metrics — the workspace's measures per run, computed by the core against the qrels. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "draw.h"

void view_metrics_draw(app *a, int top, int height)
{
    rt_workspace *ws = a->ws;
    int namew = 8;
    for (size_t r = 0; r < ws->nruns; r++) {
        int w = (int)rt_text_width(rt_run_name(ws->runs[r].run), strlen(rt_run_name(ws->runs[r].run)));
        if (w + 2 > namew)
            namew = w + 2;
    }
    if (namew > 30)
        namew = 30;
    int colw = 13;
    size_t maxscroll = ws->nruns > (size_t)(height - 2) ? ws->nruns - (size_t)(height - 2) : 0;
    if (a->scroll > maxscroll)
        a->scroll = maxscroll;
    char buf[256];
    int n = snprintf(buf, sizeof buf, "Measures over the %u judged queries (relevance level %d)",
                     rt_qrels_nqueries(ws->qrels), (int)ws->level);
    draw_text(top, 0, a->cols, buf, (size_t)n, ROLE_NORMAL, NULL);
    draw_text(top + 1, 0, namew, "run", 3, ROLE_HEADER, NULL);
    for (size_t m = 0; m < ws->nm; m++) {
        int x = namew + (int)m * colw;
        if (x + colw > a->cols)
            break;
        draw_text(top + 1, x, colw, ws->ms[m].name, strlen(ws->ms[m].name), ROLE_HEADER, NULL);
    }
    for (size_t r = 0; r < ws->nruns; r++) {
        int y = top + 2 + (int)r - (int)a->scroll;
        if (y < top + 2)
            continue;
        if (y >= top + height)
            break;
        const char *name = rt_run_name(ws->runs[r].run);
        draw_text(y, 0, namew, name, strlen(name), ROLE_NORMAL, NULL);
        const rt_eval_result *res = ws->runs[r].base;
        for (size_t m = 0; m < ws->nm; m++) {
            int x = namew + (int)m * colw;
            if (x + colw > a->cols)
                break;
            if (rt_measure_is_partial(&ws->ms[m]))
                n = snprintf(buf, sizeof buf, "%.2f (n=%zu)", res->mean[m], res->n_defined[m]);
            else if (rt_measure_is_sum(&ws->ms[m]))
                n = snprintf(buf, sizeof buf, "%.0f", res->mean[m]);
            else
                n = snprintf(buf, sizeof buf, "%.4f", res->mean[m]);
            draw_text(y, x, colw, buf, (size_t)n, ROLE_NORMAL, NULL);
        }
    }
}
