/* view_report — the load report: what was loaded and every warning (duplicates dropped, unknown
 * ids, queries without judgments). */
#include "config.h"

#include <string.h>

#include "app.h"
#include "draw.h"
#include "view.h"

static void draw(app *a, int top, int height)
{
    const rt_report *rep = a->s->ws->report;
    size_t n = rt_report_count(rep);
    if (n == 0) {
        draw_text(top, 0, a->cols, "Nothing to report.", 18, ROLE_NORMAL, NULL);
        return;
    }
    if (a->scroll >= n)
        a->scroll = n - 1;
    /* an entry per report line, wrapped (never cut); the scroll counts entries */
    int row = 0;
    for (size_t e = a->scroll; e < n && row < height; e++) {
        rt_report_kind k;
        const char *line = rt_report_line(rep, e, &k);
        char buf[2100];
        size_t len = strlen(line) < 2048 ? strlen(line) : 2048;
        memcpy(buf, k == RT_REPORT_WARNING ? "warning: " : "", k == RT_REPORT_WARNING ? 9 : 0);
        size_t off = k == RT_REPORT_WARNING ? 9 : 0;
        memcpy(buf + off, line, len);
        int used = draw_wrapped(top + row, 0, a->cols, height - row, buf, off + len,
                                k == RT_REPORT_WARNING ? ROLE_ERROR : ROLE_NORMAL);
        row += used > 0 ? used : 1;
    }
}

const view_ops view_report_ops = {.name = "load report", .draw = draw};
