/* rt_sample — query conditions and reproducible samples. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_contrast.h"
#include "rt_num.h"
#include "rt_rng.h"
#include "rt_sample.h"

/* Whether the words w[0, n) are a condition (a run named in full, of any length). */
static int condition_words(const rt_workspace *ws, char **w, int n, rt_condition *c)
{
    const char *kind = n ? w[0] : "";
    if (n == 1 && strcmp(kind, "all") == 0)
        return 1;
    if (n == 1 && (strcmp(kind, "tagged") == 0 || strcmp(kind, "untagged") == 0)) {
        c->kind = kind[0] == 't' ? RT_COND_TAGGED : RT_COND_UNTAGGED;
        return 1;
    }
    if (n == 3 && strcmp(kind, "notop") == 0) {
        int64_t k = 0;
        int ok = rt_num_parse_int_in(w[1], 1, INT32_MAX, &k);
        c->kind = RT_COND_NOTOP;
        c->k = (size_t)k;
        c->a = rt_workspace_find_run(ws, w[2]);
        return ok && c->a != (size_t)-1;
    }
    if (n == 2 && strcmp(kind, "zero") == 0) {
        c->kind = RT_COND_ZERO;
        c->a = rt_workspace_find_run(ws, w[1]);
        return c->a != (size_t)-1;
    }
    if (n == 4 && (strcmp(kind, "rbo") == 0 || strcmp(kind, "jaccard") == 0)) {
        c->kind = kind[0] == 'r' ? RT_COND_RBO : RT_COND_JACCARD;
        c->a = rt_workspace_find_run(ws, w[1]);
        c->b = rt_workspace_find_run(ws, w[2]);
        return rt_num_parse_double(w[3], strlen(w[3]), &c->min_delta) == RT_NUM_OK && c->min_delta >= 0 &&
               c->min_delta <= 1 && c->a != (size_t)-1 && c->b != (size_t)-1;
    }
    if ((n == 3 || n == 4) && (strcmp(kind, "worse") == 0 || strcmp(kind, "better") == 0)) {
        c->kind = kind[0] == 'w' ? RT_COND_WORSE : RT_COND_BETTER;
        c->a = rt_workspace_find_run(ws, w[1]);
        c->b = rt_workspace_find_run(ws, w[2]);
        int ok = n == 3 || (rt_num_parse_double(w[3], strlen(w[3]), &c->min_delta) == RT_NUM_OK && c->min_delta >= 0);
        return ok && c->a != (size_t)-1 && c->b != (size_t)-1;
    }
    return 0;
}

rt_status rt_condition_parse(const rt_workspace *ws, const char *text, rt_condition *c, rt_err *err)
{
    enum { MAX_WORDS = 4 };
    char *copy = rt_strdup(text), *w[MAX_WORDS], *save = NULL;
    int n = 0;
    for (char *t = strtok_r(copy, " \t\n\r\v\f", &save); t; t = strtok_r(NULL, " \t\n\r\v\f", &save)) {
        if (n < MAX_WORDS)
            w[n] = t;
        n++;   /* more than MAX_WORDS words: no condition */
    }
    memset(c, 0, sizeof *c);
    c->measure = (size_t)-1;
    int ok = n <= MAX_WORDS && condition_words(ws, w, n, c);
    free(copy);
    if (ok)
        return RT_OK;
    return rt_err_set(err, RT_EUSAGE, "condition \"%s\": use all | tagged | untagged | notop K RUN | "
                      "worse RUN_A RUN_B [MIN_DELTA] | better RUN_A RUN_B [MIN_DELTA] | rbo RUN_A RUN_B MAX | "
                      "jaccard RUN_A RUN_B MAX | zero RUN (runs by name or number)",
                      text);
}

int rt_condition_holds(const rt_session *s, const rt_condition *c, uint32_t qid)
{
    switch (c->kind) {
    case RT_COND_ALL: return 1;
    case RT_COND_NOTOP: {
        size_t f = rt_session_first_rel(s, c->a, qid);
        return f == 0 || f > c->k;
    }
    case RT_COND_WORSE:
    case RT_COND_BETTER: {
        double va = 0, vb = 0;
        if (c->measure == (size_t)-1) {
            va = rt_session_rr10(s, c->a, qid);
            vb = rt_session_rr10(s, c->b, qid);
        } else {
            rt_live_value(s->live, c->a, qid, c->measure, &va);
            rt_live_value(s->live, c->b, qid, c->measure, &vb);
        }
        /* "worse by at least MIN": a difference of exactly MIN counts (1 against 0.5 is worse by
         * 0.5), to the 1e-9 the values are exact to; ties never count, MIN 0 or not */
        double d = c->kind == RT_COND_WORSE ? vb - va : va - vb;
        return d > 0 && d >= c->min_delta - 1e-9;
    }
    case RT_COND_ZERO: {
        double v = 0;
        if (c->measure == (size_t)-1)
            return rt_session_rr10(s, c->a, qid) == 0;
        return !rt_live_value(s->live, c->a, qid, c->measure, &v) || v == 0;
    }
    case RT_COND_RBO:
    case RT_COND_JACCARD: {
        double v;
        return rt_contrast_of(s->ws, c->a, c->b, qid, c->kind == RT_COND_JACCARD, &v) && v <= c->min_delta;
    }
    case RT_COND_TAGGED: return rt_annot_tag_count(s->annot, qid) > 0;
    case RT_COND_UNTAGGED: return rt_annot_tag_count(s->annot, qid) == 0;
    }
    return 0;
}

static int by_pos(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

void rt_sample_pick(const rt_session *s, size_t n, uint64_t seed, const rt_condition *c,
                    uint32_t **out, size_t *nout)
{
    const rt_workspace *ws = s->ws;
    size_t *cand = rt_calloc(ws->nq + 1, sizeof *cand), nc = 0;
    for (size_t i = 0; i < ws->nq; i++)
        if (rt_live_is_judged(s->live, ws->qlist[i]) && rt_condition_holds(s, c, ws->qlist[i]))
            cand[nc++] = i;
    size_t take = n < nc ? n : nc;
    uint64_t st = seed;
    for (size_t i = 0; i < take; i++) {
        size_t j = i + (size_t)(rt_rng_next(&st) % (uint64_t)(nc - i));
        size_t t = cand[i];
        cand[i] = cand[j];
        cand[j] = t;
    }
    qsort(cand, take, sizeof *cand, by_pos);
    *out = rt_calloc(take + 1, sizeof **out);
    for (size_t i = 0; i < take; i++)
        (*out)[i] = ws->qlist[cand[i]];
    *nout = take;
    free(cand);
}
