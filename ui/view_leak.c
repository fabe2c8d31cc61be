/* view_leak — reviewing train–test leakage candidates: each test query with the training
 * queries rt_leak found near it, the cosine, both texts with their overlap highlighted, and the
 * reviewer's type for the pair (journal operations, so undoable and kept). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "draw.h"
#include "rt_leakage.h"
#include "rt_mem.h"
#include "view.h"
#include "rt_leak.h"

/* The keys 1-6 name these types; 0 removes the label. */
static const char *const type_of_key[] = {"identical", "generalization", "specialization",
                                          "reformulation", "different-topic", "not-leak"};

/* The review's own cursor (the candidates themselves, a->leak, are shared with the metrics
 * split and the exports). */
struct leak_view {
    size_t sel, top;
};

static struct leak_view *leak_state(app *a) { return view_state(a, VIEW_LEAK); }

static int ensure(app *a)
{
    if (a->leak)
        return 0;
    rt_err err;
    if (rt_leakage_find(&a->leak, a->s->ws, &err) != RT_OK) {
        app_message(a, 1, "leakage: %s", err.msg);
        return -1;
    }
    return 0;
}

int act_leakage(app *a, const char *arg)
{
    (void)arg;
    if (ensure(a) != 0)
        return -1;
    a->scroll = 0;
    app_push(a, VIEW_LEAK);
    app_message(a, 0, "%zu candidate pairs at cosine >= %.2f%s", a->leak->npairs, a->leak->threshold,
                a->leak->builtin ? " (built-in embedder: lexical near-duplicates, not paraphrases)" : "");
    return 0;
}

static const char *label_of(app *a, const rt_leak_pair *p)
{
    const rt_leak_label *l = rt_annot_leak(a->s->annot, a->leak->test_qid[p->test], rt_leakage_train_qid(a->leak, p));
    return l ? l->type : NULL;
}

int act_leak_type(app *a, const char *arg)
{
    struct leak_view *lv = leak_state(a);
    (void)arg;
    if (!a->leak || lv->sel >= a->leak->npairs)
        return 0;
    int k = a->key - '0';
    if (k < 0 || k > 6) {
        app_message(a, 1, "1 identical, 2 generalization, 3 specialization, 4 reformulation, 5 different topic, 6 not a leak, 0 clears");
        return -1;
    }
    const rt_leak_pair *p = &a->leak->pairs[lv->sel];
    rt_change ch;
    rt_err err;
    int rc = annotate_outcome(a, rt_session_type_leak(a->s, a->leak->test_qid[p->test], rt_leakage_train_qid(a->leak, p),
                                                      k ? type_of_key[k - 1] : "", &ch, &err), &ch, &err);
    if (rc == 0 && lv->sel + 1 < a->leak->npairs)
        lv->sel++;
    return rc;
}

size_t leak_npairs(const app *a) { return a->leak ? a->leak->npairs : 0; }

int act_leaked(app *a, const char *arg)
{
    if (!arg || (strcmp(arg, "reviewed") && strcmp(arg, "candidates"))) {
        app_message(a, 1, "usage: :leaked reviewed|candidates");
        return -1;
    }
    a->leak_candidates = strcmp(arg, "candidates") == 0;
    if (a->leak_candidates && ensure(a) != 0)
        return -1;
    app_message(a, 0, "metrics split by %s", a->leak_candidates ? "every candidate above the threshold" : "reviewed leaks");
    return 0;
}

int leak_next_unreviewed(app *a)
{
    struct leak_view *lv = leak_state(a);
    if (!a->leak || !a->leak->npairs)
        return 0;
    for (size_t step = 1; step <= a->leak->npairs; step++) {
        size_t i = (lv->sel + step) % a->leak->npairs;
        if (!label_of(a, &a->leak->pairs[i])) {
            lv->sel = i;
            return 0;
        }
    }
    app_message(a, 0, "every candidate pair is reviewed");
    return 0;
}

static void draw_pair(app *a, int y, int h, size_t i)
{
    const rt_leak_pair *p = &a->leak->pairs[i];
    uint32_t q = a->leak->test_qid[p->test];
    int focused = i == leak_state(a)->sel;
    term_role role = focused ? ROLE_SELECTED : ROLE_NORMAL;
    const char *tt = rt_workspace_query_text(a->s->ws, q), *rt = rt_leakage_train_text(a->leak, p);
    const char *type = label_of(a, p);
    rt_overlap *ov_test = rt_overlap_new(rt ? rt : "", rt ? strlen(rt) : 0);
    rt_overlap *ov_train = rt_overlap_new(tt ? tt : "", tt ? strlen(tt) : 0);
    int x = draw_fmt(y, 0, a->cols, role, "%5.3f %-16s ", p->score, type ? type : "-");
    x += draw_fmt(y, x, a->cols - x, role, "%s  ", rt_strtab_str(a->s->ws->qids, q));
    draw_text(y, x, a->cols - x, tt ? tt : "", tt ? strlen(tt) : 0, role, ov_test);
    if (h > 1) {
        x = draw_fmt(y + 1, 0, a->cols, ROLE_DIM, "%23s", "train ");
        x += draw_fmt(y + 1, x, a->cols - x, ROLE_DIM, "%s  ", rt_leakage_train_qid(a->leak, p));
        draw_text(y + 1, x, a->cols - x, rt ? rt : "", rt ? strlen(rt) : 0, ROLE_NORMAL, ov_train);
    }
    rt_overlap_free(&ov_test);
    rt_overlap_free(&ov_train);
}

static void draw(app *a, int top, int height)
{
    struct leak_view *lv = leak_state(a);
    if (!a->leak)
        return;
    size_t reviewed = 0;
    for (size_t i = 0; i < a->leak->npairs; i++)
        reviewed += label_of(a, &a->leak->pairs[i]) != NULL;
    size_t nleaked;
    free(rt_leakage_mask(a->s, a->leak, 0, &nleaked));
    char head[256];
    snprintf(head, sizeof head,
             "%zu candidates (cosine >= %.2f, %s) | reviewed %zu/%zu | %zu test queries confirmed leaked",
             a->leak->npairs, a->leak->threshold, a->leak->builtin ? "built-in lexical embedder" : "given embeddings",
             reviewed, a->leak->npairs, nleaked);
    int hr = draw_wrapped(top, 0, a->cols, height > 6 ? 2 : 1, head, strlen(head), ROLE_HEADER);
    top += hr - 1;
    height -= hr - 1;
    /* the keys, each type with how many candidates carry it (Fröbe et al.'s table, live) */
    char keys[512];
    size_t len = 0;
    for (size_t t = 0; rt_leak_types[t] && len < sizeof keys; t++) {
        size_t count = 0;
        for (size_t i = 0; i < a->leak->npairs; i++) {
            const char *type = label_of(a, &a->leak->pairs[i]);
            count += type && strcmp(type, rt_leak_types[t]) == 0;
        }
        len += (size_t)snprintf(keys + len, sizeof keys - len, "%zu\u00a0%s\u00a0(%zu)  ", t + 1, rt_leak_types[t], count);
    }
    if (len < sizeof keys)
        snprintf(keys + len, sizeof keys - len, "0\u00a0clear  x\u00a0next\u00a0unreviewed");
    int kr = draw_wrapped(top + 1, 0, a->cols, height > 8 ? 3 : 1, keys, strlen(keys), ROLE_DIM);
    if (!a->leak->npairs) {
        static const char none[] = "No training query is that close to a test query.";
        draw_text(top + 1 + kr, 0, a->cols, none, strlen(none), ROLE_DIM, NULL);
        return;
    }
    size_t per = 2, rows = height > 1 + kr ? (size_t)(height - 1 - kr) / per : 0;
    if (rows == 0)
        return;
    if (lv->sel >= a->leak->npairs)
        lv->sel = a->leak->npairs - 1;
    if (lv->sel < lv->top)
        lv->top = lv->sel;
    if (lv->sel >= lv->top + rows)
        lv->top = lv->sel - rows + 1;
    for (size_t r = 0; r < rows && lv->top + r < a->leak->npairs; r++)
        draw_pair(a, top + 1 + kr + (int)(r * per), (int)per, lv->top + r);
}

static size_t *cursor(app *a, size_t *n)
{
    *n = leak_npairs(a);
    return &leak_state(a)->sel;
}

const view_ops view_leak_ops = {
    .name = "leakage", .draw = draw, .cursor = cursor, .next_todo = leak_next_unreviewed,
    .state_size = sizeof(struct leak_view),
};
