/* rt_contrast — RBO and Jaccard of two rankings (see rt_contrast.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_contrast.h"
#include "rt_mem.h"
#include "rt_run.h"
#include "rt_workspace.h"

/* The rank of each passage of the longer ranking, found by id: open addressing, Fibonacci hashing
 * (the product's high bits: its low bits follow the id's low bits alone), at most an eighth full,
 * so that a probe seldom passes the first slot (tests/bench/PERF.md, "Contrasts"). Up to SMALL
 * passages it lives on the stack: the calls for a whole list of queries allocate nothing. */
enum { RANKS_SMALL = 1024, RANKS_SMALL_CAP = 8 * RANKS_SMALL };

typedef struct ranks {
    uint32_t *key;     /* id + 1; 0 is empty */
    uint32_t *rank;    /* where key is set: its rank, from 1 */
    unsigned shift;
    size_t mask;
} ranks;

typedef struct ranks_small {
    uint32_t key[RANKS_SMALL_CAP], rank[RANKS_SMALL_CAP];
} ranks_small;

/* A table for n passages: in small when n < RANKS_SMALL, else allocated. */
static ranks ranks_new(size_t n, ranks_small *small)
{
    size_t cap = 16;
    unsigned shift = 60;
    while (cap < 8 * n + 2) {
        cap <<= 1;
        shift--;
    }
    ranks t = {NULL, NULL, shift, cap - 1};
    if (n < RANKS_SMALL) {   /* then cap <= RANKS_SMALL_CAP */
        t.key = small->key;
        t.rank = small->rank;
        memset(t.key, 0, cap * sizeof *t.key);
    } else {
        t.key = rt_calloc(cap, sizeof *t.key);
        t.rank = rt_reallocarray(NULL, cap, sizeof *t.rank);
    }
    return t;
}

static void ranks_free(ranks *t, const ranks_small *small)
{
    if (t->key != small->key) {
        free(t->key);
        free(t->rank);
    }
}

static size_t ranks_pos(const ranks *t, uint32_t id)
{
    size_t h = (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> t->shift);
    while (t->key[h] && t->key[h] != id + 1u)
        h = (h + 1) & t->mask;
    return h;
}

/* The rank of id in t, 0 when it has none. */
static size_t ranks_get(const ranks *t, uint32_t id)
{
    size_t h = ranks_pos(t, id);
    return t->key[h] ? t->rank[h] : 0;
}

/* Adds id at rank (from 1); the first rank stands if it is there already. */
static void ranks_add(ranks *t, uint32_t id, uint32_t rank)
{
    size_t h = ranks_pos(t, id);
    if (!t->key[h]) {
        t->key[h] = id + 1u;
        t->rank[h] = rank;
    }
}

int rt_rbo(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, double p, double *v)
{
    if (!na && !nb)
        return 0;
    const uint32_t *S = na <= nb ? a : b, *L = na <= nb ? b : a;
    size_t s = na <= nb ? na : nb, l = na <= nb ? nb : na;
    if (!s) {
        *v = 0;
        return 1;
    }
    /* X_d, the overlap at depth d (beyond s: of all of S with L's prefix), counts the passages at
     * rank i in S and j in L with max(i, j) <= d: one lookup of each of S's passages among L's
     * ranks gives every X_d as a running sum, instead of two set operations per depth. */
    ranks_small small;
    uint32_t small_arrive[RANKS_SMALL + 1];
    ranks t = ranks_new(l, &small);
    uint32_t *arrive = l < RANKS_SMALL ? small_arrive : rt_calloc(l + 1, sizeof *arrive);
    if (arrive == small_arrive)
        memset(arrive, 0, (l + 1) * sizeof *arrive);
    for (size_t j = 0; j < l; j++)   /* rankings hold no repeats; the first rank stands if one does */
        ranks_add(&t, L[j], (uint32_t)(j + 1));
    for (size_t i = 1; i <= s; i++) {   /* without a branch: a miss counts at depth 0, unread */
        size_t rank = ranks_get(&t, S[i - 1]);
        arrive[rank ? (i > rank ? i : rank) : 0]++;
    }
    double sum = 0, pd = 1, xs = 0;
    size_t x = 0;
    for (size_t d = 1; d <= l; d++) {
        x += arrive[d];
        pd *= p;
        sum += (double)x / (double)d * pd;
        if (d == s)
            xs = (double)x;
        if (d > s)
            sum += xs * (double)(d - s) / ((double)s * (double)d) * pd;
    }
    *v = (1 - p) / p * sum + ((double)(x - (size_t)xs) / (double)l + xs / (double)s) * pd;
    ranks_free(&t, &small);
    if (arrive != small_arrive)
        free(arrive);
    return 1;
}

int rt_jaccard(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, size_t k, double *v)
{
    size_t ka = na < k ? na : k, kb = nb < k ? nb : k;
    if (!ka && !kb)
        return 0;
    ranks_small small;
    ranks inA = ranks_new(ka, &small);
    for (size_t i = 0; i < ka; i++)
        ranks_add(&inA, a[i], 1);
    size_t common = 0;
    for (size_t i = 0; i < kb; i++)
        common += ranks_get(&inA, b[i]) != 0;
    ranks_free(&inA, &small);
    *v = (double)common / (double)(ka + kb - common);
    return 1;
}

int rt_contrast_of(const struct rt_workspace *ws, size_t a, size_t b, uint32_t qid, int jaccard, double *v)
{
    size_t na = 0, nb = 0;
    const uint32_t *ra = rt_run_ranking(ws->runs[a].run, qid, &na);
    const uint32_t *rb = rt_run_ranking(ws->runs[b].run, qid, &nb);
    if (!ra)
        na = 0;
    if (!rb)
        nb = 0;
    return jaccard ? rt_jaccard(ra, na, rb, nb, RT_JACCARD_K, v) : rt_rbo(ra, na, rb, nb, RT_RBO_P, v);
}
