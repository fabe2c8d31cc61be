/* rt_contrast — RBO and Jaccard of two rankings (see rt_contrast.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "rt_contrast.h"
#include "rt_mem.h"

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
    idset inS = set_new(s), inL = set_new(l);
    double sum = 0, pd = 1, xs = 0;
    size_t x = 0;   /* X_d: the overlap at depth d (beyond s: of all of S with L's prefix) */
    for (size_t d = 1; d <= l; d++) {
        if (d <= s) {
            if (set_has(&inL, S[d - 1]))
                x++;
            set_add(&inS, S[d - 1]);
        }
        if (set_has(&inS, L[d - 1]))
            x++;
        set_add(&inL, L[d - 1]);
        pd *= p;
        sum += (double)x / (double)d * pd;
        if (d == s)
            xs = (double)x;
        if (d > s)
            sum += xs * (double)(d - s) / ((double)s * (double)d) * pd;
    }
    *v = (1 - p) / p * sum + ((double)(x - (size_t)xs) / (double)l + xs / (double)s) * pd;
    free(inS.slot);
    free(inL.slot);
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
