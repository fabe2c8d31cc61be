/* queryset — named query sets: :sample draws a reproducible one and saves it as a journal
 * operation, :set limits the list, the metrics and the breakdown to one. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "queryset.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_sample.h"
#include "list.h"
#include "view.h"

int act_set(app *a, const char *arg)
{
    if (!arg || strcmp(arg, "none") == 0) {
        free(a->set);
        a->set = NULL;
        app_refresh_rows(a);
        app_message(a, 0, "all queries (%zu shown)", list_state(a)->nrows);
        return 0;
    }
    if (!rt_annot_set(a->s->annot, arg)) {
        size_t n;
        const rt_qset *s = rt_annot_sets(a->s->annot, &n);
        app_message(a, 1, "no query set \"%s\"%s%s", arg, n ? "; there is " : "", n ? s[n - 1].name : "");
        return -1;
    }
    char *name = rt_strdup(arg);   /* any length, as the journal takes; arg may be a->set */
    free(a->set);
    a->set = name;
    app_refresh_rows(a);
    app_message(a, 0, "query set %s: %zu queries shown", a->set, list_state(a)->nrows);
    return 0;
}

int act_sample(app *a, const char *arg)
{
    char ns[32], ss[32];
    int64_t n, seed;
    int used = 0;
    if (!arg || sscanf(arg, "%31s %31s %n", ns, ss, &used) != 2 || !used ||
        !rt_num_parse_int_in(ns, 1, INT32_MAX, &n) || !rt_num_parse_int_in(ss, 0, INT64_MAX, &seed)) {
        app_message(a, 1, "usage: :sample N SEED CONDITION (all | tagged | untagged | notop K RUN | worse A B)");
        return -1;
    }
    rt_condition c;
    rt_err err;
    if (rt_condition_parse(a->s->ws, arg + used, &c, &err) != RT_OK &&
        (!a->s->ws->runs_pending || !app_wait(a, APP_WAIT_RUNS) ||   /* a run still being read? */
         rt_condition_parse(a->s->ws, arg + used, &c, &err) != RT_OK)) {
        app_message(a, 1, "%s", err.msg);
        return -1;
    }
    uint32_t *q;
    size_t nq;
    rt_sample_pick(a->s, (size_t)n, (uint64_t)seed, &c, &q, &nq);
    /* the whole condition in the name: two conditions never share one (long run names too) */
    const char *cond = arg + used;
    size_t cap = strlen(cond) + 64;
    char *name = rt_malloc(cap), *how = rt_malloc(cap + strlen(arg));
    int k = snprintf(name, cap, "n%" PRId64 "-seed%" PRId64 "-", n, seed);
    for (const char *s = cond; *s; s++)
        name[k++] = *s == ' ' ? '-' : *s;
    name[k] = 0;
    snprintf(how, cap + strlen(arg), "sample %s", arg);
    rt_change ch;
    rt_status st = rt_session_save_set(a->s, name, q, nq, how, &ch, &err);
    free(q);
    free(how);
    if (annotate_outcome(a, st, &ch, &err) != 0) {
        free(name);
        return -1;
    }
    act_set(a, name);
    if (nq < (size_t)n)
        app_message(a, 0, "query set %s: only %zu queries meet the condition", name, nq);
    free(name);
    return 0;
}

