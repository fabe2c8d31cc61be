/* hint — the distant-supervision hint, cached per (query, passage). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "hint.h"
#include "rt_answers.h"
#include "rt_mem.h"

typedef struct slot {
    uint64_t key;      /* qid << 32 | pid, + 1 (0: empty) */
    pair_hint h;
} slot;

struct hint_cache {
    slot *s;
    size_t cap, n;
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static slot *find(struct hint_cache *c, uint64_t key)
{
    size_t i = (size_t)mix(key) & (c->cap - 1);
    while (c->s[i].key && c->s[i].key != key)
        i = (i + 1) & (c->cap - 1);
    return &c->s[i];
}

static void grow(struct hint_cache *c)
{
    struct hint_cache old = *c;
    c->cap = old.cap ? old.cap * 2 : 1024;
    c->s = rt_calloc(c->cap, sizeof *c->s);
    c->n = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.s[i].key) {
            *find(c, old.s[i].key) = old.s[i];
            c->n++;
        }
    free(old.s);
}

static pair_hint compute(app *a, uint32_t qid, uint32_t pid)
{
    pair_hint h = {HINT_NONE, 0, 0, 0, 0, 0, 0};
    if (!a->s->ws->answers)
        return h;
    const rt_normtext *const *an;
    size_t na = rt_answers_of(a->s->ws->answers, qid, &an);
    if (!na) {
        h.state = HINT_NO_ANSWERS;
        return h;
    }
    const char *text;
    size_t len;
    if (!rt_workspace_passage(a->s->ws, pid, &text, &len)) {
        h.state = HINT_NO_PASSAGE;
        return h;
    }
    if (len > HINT_MAX_BYTES) {
        h.cut = 1;
        len = HINT_MAX_BYTES;
        while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80)
            len--;
    }
    rt_normtext p;
    rt_normtext_make(&p, text, len);
    /* a very long answer is searched for by its beginning (bounded time) */
    const rt_normtext **use = rt_calloc(na + 1, sizeof *use);
    rt_normtext *cut = rt_calloc(na + 1, sizeof *cut);
    for (size_t k = 0; k < na; k++) {
        use[k] = an[k];
        if (an[k]->n > HINT_MAX_ANSWER) {
            cut[k] = (rt_normtext){.cp = an[k]->cp, .off = an[k]->off, .len = an[k]->len, .n = HINT_MAX_ANSWER};
            use[k] = &cut[k];
            h.answer_cut = 1;
        }
    }
    rt_spanf1 s = rt_spanf1_best_of(&p, use, na, 0);
    free(use);
    free(cut);
    h.state = HINT_OK;
    h.f1 = s.f1;
    h.answer = s.answer;
    if (s.f1 > 0) {
        h.from = p.off[s.from];
        h.to = p.off[s.to - 1] + p.len[s.to - 1];
    }
    rt_normtext_free(&p);
    return h;
}

pair_hint hint_of(app *a, uint32_t qid, uint32_t pid)
{
    uint64_t done, total;
    if (!a->s->ws->answers || rt_workspace_collection_loading(a->s->ws, &done, &total)) {   /* none yet */
        pair_hint none = {HINT_NONE, 0, 0, 0, 0, 0, 0};
        return none;
    }
    if (!a->hints)
        a->hints = rt_calloc(1, sizeof *a->hints);
    struct hint_cache *c = a->hints;
    if (2 * (c->n + 1) > c->cap)
        grow(c);
    uint64_t key = ((uint64_t)qid << 32 | pid) + 1;
    slot *s = find(c, key);
    if (!s->key) {
        s->key = key;
        s->h = compute(a, qid, pid);
        c->n++;
    }
    return s->h;
}

int hint_draw_badge(app *a, int y, int x, int w, uint32_t qid, uint32_t pid, int focused)
{
    if (!a->s->ws->answers || w < 4)
        return 0;
    pair_hint h = hint_of(a, qid, pid);
    if (h.state != HINT_OK)
        return 0;
    char b[16];
    int n = h.f1 >= 1 ? snprintf(b, sizeof b, " 1.0") : snprintf(b, sizeof b, " .%d", (int)(h.f1 * 10));
    term_role role = focused ? ROLE_SELECTED : h.f1 >= 0.5 ? ROLE_HL_ANSWER : ROLE_DIM;
    return draw_text(y, x, w, b, (size_t)n, role, NULL);
}

void hint_release(app *a)
{
    if (a->hints)
        free(a->hints->s);
    free(a->hints);
    a->hints = NULL;
}
