/* rt_contrast — RBO and Jaccard of two rankings (see rt_contrast.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "rt_contrast.h"
#include "rt_mem.h"
#include "rt_run.h"
#include "rt_workspace.h"

/* A small set of pid ids (open addressing; capacity a power of two above twice the items). */
typedef struct idset {
    uint32_t *slot;   /* id + 1; 0 is empty */
    size_t mask;
} idset;

static idset set_new(size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 2)
        cap <<= 1;
    return (idset){rt_calloc(cap, sizeof(uint32_t)), cap - 1};
}

static size_t set_pos(const idset *s, uint32_t id)
{
    size_t h = (size_t)(id * 2654435761u) & s->mask;
    while (s->slot[h] && s->slot[h] != id + 1)
        h = (h + 1) & s->mask;
    return h;
}

static int set_has(const idset *s, uint32_t id) { return s->slot[set_pos(s, id)] != 0; }
static void set_add(idset *s, uint32_t id) { s->slot[set_pos(s, id)] = id + 1; }

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
    size_t cap = 16;
    while (cap < 2 * l + 2)
        cap <<= 1;
    uint32_t *key = rt_calloc(cap, sizeof *key), *rank = rt_calloc(cap, sizeof *rank);   /* key: id + 1 */
    uint32_t *arrive = rt_calloc(l + 1, sizeof *arrive);
    for (size_t j = 0; j < l; j++) {
        size_t h = (size_t)(L[j] * 2654435761u) & (cap - 1);
        while (key[h] && key[h] != L[j] + 1)
            h = (h + 1) & (cap - 1);
        if (!key[h]) {   /* rankings hold no repeats; the first rank stands if one does */
            key[h] = L[j] + 1;
            rank[h] = (uint32_t)(j + 1);
        }
    }
    for (size_t i = 1; i <= s; i++) {
        size_t h = (size_t)(S[i - 1] * 2654435761u) & (cap - 1);
        while (key[h] && key[h] != S[i - 1] + 1)
            h = (h + 1) & (cap - 1);
        if (key[h])
            arrive[i > rank[h] ? i : rank[h]]++;
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
    free(key);
    free(rank);
    free(arrive);
    return 1;
}

int rt_jaccard(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, size_t k, double *v)
{
    size_t ka = na < k ? na : k, kb = nb < k ? nb : k;
    if (!ka && !kb)
        return 0;
    idset inA = set_new(ka);
    for (size_t i = 0; i < ka; i++)
        set_add(&inA, a[i]);
    size_t common = 0;
    for (size_t i = 0; i < kb; i++)
        common += set_has(&inA, b[i]);
    free(inA.slot);
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
