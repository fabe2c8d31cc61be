/* export — :export WHAT [FORMAT] PATH: the workbench's exports, the same as `retriage export`,
 * over the query set in use. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "export.h"
#include "rt_export.h"
#include "rt_names.h"
#include "rt_leakage.h"
#include "list.h"
#include "view.h"

static int is_format(const char *w)
{
    rt_table_format f;
    return strcmp(w, "trec") == 0 || strcmp(w, "svg") == 0 || rt_table_format_parse(w, &f);
}

int act_export(app *a, const char *arg)
{
    struct list_state *l = list_state(a);
    /* WHAT [FORMAT] PATH: the second word is a format when it names one and a path follows */
    char what[32], fmt[32] = "", path[1024];
    const char *p = arg ? arg : "";
    actions_word(&p, what, sizeof what);
    const char *rest = p;
    actions_word(&p, fmt, sizeof fmt);
    if (!is_format(fmt) && *p) {   /* WHAT WORD PATH: the middle word can only be a format */
        app_message(a, 1, "unknown format \"%s\" (trec, svg, tsv, csv, json, md, latex)", fmt);
        return -1;
    }
    if (!is_format(fmt) || !*p) {
        fmt[0] = 0;
        p = rest;
    }
    snprintf(path, sizeof path, "%s", p);
    /* figures: the delta runs and the list's measure, as the screen shows them */
    rt_export_opts o = {.k = a->bk, .fig_a = l->delta_a, .fig_b = l->delta_b, .fig_m = l->measure};
    rt_err err;
    if (!path[0] || !rt_export_what_parse(what, &o.what)) {
        char list[512];
        app_message(a, 1, "usage: :export WHAT [FORMAT] PATH, WHAT one of %s",
                    rt_name_list(rt_export_whats, list, sizeof list));
        return -1;
    }
    if (rt_export_format(o.what, fmt[0] ? fmt : NULL, &o.format, &err) != RT_OK) {
        app_message(a, 1, "%s", err.msg);
        return -1;
    }
    const rt_qset *set = a->set ? rt_annot_set(a->s->annot, a->set) : NULL;
    if (set) {
        o.qids = set->qids;
        o.nqids = set->n;
    }
    if (!app_wait(a, APP_WAIT_ALL))   /* a file has every run (and the passages) */
        return -1;
    o.leakage = a->leak;   /* leak-pairs: the cosines, once the leakage view has run the check */
    unsigned char *mask = NULL;
    if (o.what == RT_EXPORT_LEAKAGE)
        o.leaked = mask = rt_leakage_mask(a->s, a->leak, a->leak_candidates, NULL);
    rt_status st = rt_export_file(a->s, &o, path, NULL, &err);
    free(mask);
    if (st != RT_OK) {
        app_message(a, 1, "%s", err.msg);
        return -1;
    }
    app_message(a, 0, "wrote %s (%s%s%s)", path, what, set ? ", set " : "", set ? a->set : "");
    return 0;
}
