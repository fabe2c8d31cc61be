/* view_list_keep — the query list's part of the view state kept across opens: written as the
 * commands that make it again (measure, delta, contrast, filter, search, sort, focus) and taken
 * back through the list's actions, so a value a reopen cannot take (a run gone, a measure the
 * workspace lacks) is refused with the action's own message. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "list.h"
#include "rt_run.h"
#include "view.h"

/* The sort as :sort takes it ("KEY asc|desc"). */
static void sort_arg(app *a, char *buf, size_t n)
{
    const struct list_state *l = list_state(a);
    static const char *const keys[] = {"order", "qid", "text", "run", "delta", "judged", "tags", "contrast"};
    const char *k = keys[l->sort];
    if (l->sort == SORT_RUN)
        k = rt_run_name(a->s->ws->runs[l->sort_run].run);
    else if (l->sort == SORT_CONTRAST)
        k = l->contrast == 2 ? "jaccard" : "rbo";
    snprintf(buf, n, "%s %s", k, l->sort_desc ? "desc" : "asc");
}

void list_save(app *a, FILE *f)
{
    const struct list_state *l = list_state(a);
    const rt_workspace *ws = a->s->ws;
    char sort[300];
    fprintf(f, "measure %s\n", ws->ms[l->measure].name);
    if (ws->nruns)
        fprintf(f, "delta %s %s\n", rt_run_name(ws->runs[l->delta_a].run), rt_run_name(ws->runs[l->delta_b].run));
    fprintf(f, "contrast %s\n", l->contrast == 1 ? "rbo" : l->contrast == 2 ? "jaccard" : "none");
    if (l->filtering)
        fprintf(f, "filter %s\n", l->filter_arg);
    if (l->text_filter[0])
        fprintf(f, "search %s\n", l->text_filter);
    sort_arg(a, sort, sizeof sort);
    fprintf(f, "sort %s\n", sort);
    if (l->nrows)   /* (none listed: the current query is not the list's) */
        fprintf(f, "focus %s\n", rt_strtab_str(ws->qids, app_qid(a)));
}

/* focus QID: the list's cursor on that query, which becomes the current one. */
static int focus(app *a, const char *qid)
{
    struct list_state *l = list_state(a);
    uint32_t q = rt_strtab_find(a->s->ws->qids, qid, strlen(qid));
    for (size_t k = 0; q != RT_NO_ID && k < l->nrows; k++)
        if (a->s->ws->qlist[l->rows_idx[k]] == q) {
            l->sel = k;
            app_set_query(a, l->rows_idx[k]);
            return 1;
        }
    app_message(a, 1, "query \"%.80s\" is not listed", qid);
    return -1;
}

int list_restore(app *a, const char *key, const char *value)
{
    static const struct { const char *key; int (*fn)(app *, const char *); } acts[] = {
        {"measure", act_measure}, {"delta", act_delta}, {"contrast", act_contrast},
        {"filter", act_filter}, {"search", act_search}, {"sort", act_sort},
    };
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        if (!strcmp(key, acts[i].key))
            return acts[i].fn(a, value) == 0 ? 1 : -1;
    if (!strcmp(key, "focus"))
        return focus(a, value);
    return 0;
}

void list_fresh(app *a)
{
    const rt_workspace *ws = a->s->ws;
    char delta[600];
    size_t m = 0;
    for (size_t k = 0; k < ws->nm; k++)   /* as list_start: RR@10 when the workspace has it */
        if (!strcmp(ws->ms[k].name, "RR@10"))
            m = k;
    act_filter(a, "none");
    act_contrast(a, "none");
    act_measure(a, ws->ms[m].name);
    if (ws->nruns) {
        snprintf(delta, sizeof delta, "%s %s", rt_run_name(ws->runs[0].run),
                 rt_run_name(ws->runs[ws->nruns > 1 ? 1 : 0].run));
        act_delta(a, delta);
    }
    act_sort(a, "order asc");
    app_show_list(a);
    list_state(a)->sel = 0;
    if (list_state(a)->nrows)
        app_set_query(a, list_state(a)->rows_idx[0]);
}
