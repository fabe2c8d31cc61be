/* rt_spanf1 — exact best-span character F1 (see the header for the rules). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "rt_mem.h"
#include "rt_spanf1.h"

static int dropped(utf8proc_int32_t c)
{
    switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_ZS: case UTF8PROC_CATEGORY_ZL: case UTF8PROC_CATEGORY_ZP:
    case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF: case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO: case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE: case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
        return 1;
    default:
        return 0;
    }
}

void rt_normtext_make(rt_normtext *t, const char *s, size_t len)
{
    memset(t, 0, sizeof *t);
    t->cp = rt_calloc(len + 1, sizeof *t->cp);
    t->off = rt_calloc(len + 1, sizeof *t->off);
    t->len = rt_calloc(len + 1, sizeof *t->len);
    size_t i = 0;
    while (i < len) {
        utf8proc_int32_t c;
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &c);
        if (k <= 0) {   /* an invalid byte: skipped */
            i++;
            continue;
        }
        if (!dropped(c)) {
            t->cp[t->n] = (uint32_t)utf8proc_tolower(c);
            t->off[t->n] = (uint32_t)i;
            t->len[t->n] = (uint32_t)k;
            t->n++;
        }
        i += (size_t)k;
    }
}

void rt_normtext_free(rt_normtext *t)
{
    free(t->cp);
    free(t->off);
    free(t->len);
    free(t->acp);
    free(t->aneed);
    memset(t, 0, sizeof *t);
}

/* The answer's distinct characters, for counting: sorted with their counts. */
typedef struct alpha {
    uint32_t *cp, *need;
    size_t n;
} alpha;

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void alpha_make(alpha *al, const rt_normtext *a)
{
    uint32_t *s = rt_calloc(a->n + 1, sizeof *s);
    memcpy(s, a->cp, a->n * sizeof *s);
    qsort(s, a->n, sizeof *s, cmp_u32);
    al->cp = rt_calloc(a->n + 1, sizeof *al->cp);
    al->need = rt_calloc(a->n + 1, sizeof *al->need);
    al->n = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (al->n && al->cp[al->n - 1] == s[i])
            al->need[al->n - 1]++;
        else {
            al->cp[al->n] = s[i];
            al->need[al->n++] = 1;
        }
    }
    free(s);
}

void rt_normtext_prepare(rt_normtext *t)
{
    alpha al;
    free(t->acp);
    free(t->aneed);
    alpha_make(&al, t);
    t->acp = al.cp;
    t->aneed = al.need;
    t->an = al.n;
}

static int32_t alpha_id(const alpha *al, uint32_t c)
{
    size_t lo = 0, hi = al->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (al->cp[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < al->n && al->cp[lo] == c ? (int32_t)lo : -1;
}

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* The best span beating floor (0: any); f1 stays at floor and the span empty when none does. */
static rt_spanf1 best_above(const rt_normtext *p, const rt_normtext *a, double t, double floor)
{
    rt_spanf1 best = {floor, 0, 0, 0};
    size_t n = p->n, m = a->n;
    if (!n || !m)
        return best;
    alpha al = {a->acp, a->aneed, a->an};
    int own = !a->acp;   /* not prepared: made here */
    if (own)
        alpha_make(&al, a);
    /* each passage character as the index of an answer character, or al.n (a slot whose need is
     * 0: the sliding loop counts it without a branch and it never adds to the overlap) */
    uint32_t *id = rt_calloc(n + 1, sizeof *id);
    uint32_t *cnt = rt_calloc(al.n + 1, sizeof *cnt), *need = rt_calloc(al.n + 1, sizeof *need);
    memcpy(need, al.need, al.n * sizeof *need);
    for (size_t i = 0; i < n; i++) {
        int32_t k = alpha_id(&al, p->cp[i]);
        id[i] = k >= 0 ? (uint32_t)k : (uint32_t)al.n;
        cnt[id[i]]++;
    }
    size_t T = 0;   /* the whole passage's overlap with the answer */
    for (size_t k = 0; k < al.n; k++)
        T += cnt[k] < need[k] ? cnt[k] : need[k];
    if (T == 0)
        goto done;
    /* Span lengths from where the bound peaks (L = C = min(|a|, T)) outwards. g(L), the best
     * overlap of a window of length L, never falls as L grows and rises by at most 1 a step, so
     * a computed g(L0) bounds the lengths around it: below, g(L) <= g(L0) (and <= L); above,
     * g(L) <= g(L0) + (L - L0) (and <= C). A length whose bound 2 g / (L + |a|) cannot beat the
     * best so far (or reach t) is skipped, and the lengths up to the next one that can are jumped
     * over; the jumps are taken short (floating point) and checked length by length. */
    size_t C = m < T ? m : T;
    size_t lo = C < n ? C : n, hi = lo + 1;
    size_t g_lo = C;              /* g of the last length computed at or above lo */
    size_t L_up = 0, g_up = 0;    /* the last length computed at or below hi, and its g */
    int more_lo = lo >= 1, more_hi = hi <= n;
#define WIN(b) (t > 0 ? (b) >= t && (b) > best.f1 : (b) > best.f1)
#define THR (t > 0 && t > best.f1 ? t : best.f1)
#define BOUND_LO(L) (2.0 * (double)((L) < g_lo ? (L) : g_lo) / (double)((L) + m))
#define BOUND_HI(L) (2.0 * (double)min3(C, g_up + ((L) - L_up), (L)) / (double)((L) + m))
    for (;;) {
        while (more_lo && !WIN(BOUND_LO(lo))) {
            if (lo <= g_lo || lo <= 1 || THR <= 0) {
                more_lo = 0;   /* at or below g_lo the bound only falls further down */
                break;
            }
            double x = 2.0 * (double)g_lo / THR - (double)m;   /* the lengths below x can win */
            size_t j = x < 1 ? 0 : (size_t)x + 1;
            if (j >= lo)
                j = lo - 1;
            if (j < g_lo)
                j = g_lo;
            if (j < 1) {
                more_lo = 0;
                break;
            }
            lo = j;
        }
        while (more_hi && !WIN(BOUND_HI(hi))) {
            size_t g0 = g_up + (hi - L_up);   /* the bound on g(hi) */
            if (g0 >= C || THR >= 2) {
                more_hi = 0;   /* past the cap the bound only falls further up */
                break;
            }
            double y = (THR * (double)(hi + m) - 2.0 * (double)g0) / (2.0 - THR);
            size_t d = y < 1 ? 1 : (size_t)y;
            if (d > n - hi + 1)
                d = n - hi + 1;
            hi += d;
            if (hi > n) {
                more_hi = 0;
                break;
            }
        }
        if (!more_lo && !more_hi)
            break;
        int down = more_lo && (!more_hi || BOUND_LO(lo) >= BOUND_HI(hi));
        size_t L = down ? lo : hi;
        /* every window of length L, by sliding counts */
        memset(cnt, 0, (al.n + 1) * sizeof *cnt);
        size_t ov = 0, g = 0;
        for (size_t i = 0; i < L; i++)
            ov += cnt[id[i]]++ < need[id[i]];
        for (size_t s = 0;; s++) {
            if (ov > g) {
                g = ov;
                double f = 2.0 * (double)ov / (double)(L + m);
                if (f > best.f1) {
                    best.f1 = f;
                    best.from = s;
                    best.to = s + L;
                    if ((t > 0 && f >= t) || f >= 1)
                        goto done;   /* decided, or nothing can beat it */
                }
            }
            if (s + L >= n)
                break;
            uint32_t out = id[s], in = id[s + L];   /* branch-free: the characters are random */
            ov -= --cnt[out] < need[out];
            ov += cnt[in]++ < need[in];
        }
        if (L_up == 0) {   /* the first length computed bounds both sides */
            L_up = L;
            g_up = g;
        }
        if (down) {
            g_lo = g;
            if (lo <= 1)
                more_lo = 0;
            else
                lo--;
        } else {
            L_up = hi;
            g_up = g;
            if (hi >= n)
                more_hi = 0;
            else
                hi++;
        }
    }
#undef WIN
#undef THR
#undef BOUND_LO
#undef BOUND_HI
done:
    free(id);
    free(cnt);
    free(need);
    if (own) {
        free(al.cp);
        free(al.need);
    }
    return best;
}

rt_spanf1 rt_spanf1_best(const rt_normtext *p, const rt_normtext *a, double t)
{
    return best_above(p, a, t, 0);
}

rt_spanf1 rt_spanf1_best_of(const rt_normtext *p, const rt_normtext *const *answers, size_t n, double t)
{
    rt_spanf1 best = {0, 0, 0, 0};
    for (size_t k = 0; k < n; k++) {   /* a later answer is searched only for what beats the best */
        rt_spanf1 s = best_above(p, answers[k], t, best.f1);
        if (s.f1 > best.f1) {
            best = s;
            best.answer = k;
            if ((t > 0 && best.f1 >= t) || best.f1 >= 1)
                break;
        }
    }
    return best;
}

double rt_spanf1_brute(const rt_normtext *p, const rt_normtext *a)
{
    double best = 0;
    for (size_t i = 0; i < p->n; i++)
        for (size_t j = i + 1; j <= p->n; j++) {
            size_t ov = 0;
            unsigned char *used = rt_calloc(a->n + 1, 1);
            for (size_t k = i; k < j; k++)
                for (size_t q = 0; q < a->n; q++)
                    if (!used[q] && a->cp[q] == p->cp[k]) {
                        used[q] = 1;
                        ov++;
                        break;
                    }
            free(used);
            double f = a->n ? 2.0 * (double)ov / (double)(j - i + a->n) : 0;
            if (f > best)
                best = f;
        }
    return best;
}
