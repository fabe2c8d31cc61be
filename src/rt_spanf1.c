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

/* The best F1 a span of length L can reach: 2·min(L, m, T) / (L + m). */
static double bound(size_t L, size_t m, size_t T)
{
    return 2.0 * (double)min3(L, m, T) / (double)(L + m);
}

/* The best span beating floor (0: any); f1 stays at floor and the span empty when none does. */
static rt_spanf1 best_above(const rt_normtext *p, const rt_normtext *a, double t, double floor)
{
    rt_spanf1 best = {floor, 0, 0, 0};
    size_t n = p->n, m = a->n;
    if (!n || !m)
        return best;
    alpha al;
    alpha_make(&al, a);
    int32_t *id = rt_calloc(n + 1, sizeof *id);
    uint32_t *cnt = rt_calloc(al.n + 1, sizeof *cnt);
    for (size_t i = 0; i < n; i++) {
        id[i] = alpha_id(&al, p->cp[i]);
        if (id[i] >= 0)
            cnt[id[i]]++;
    }
    size_t T = 0;   /* the whole passage's overlap with the answer */
    for (size_t k = 0; k < al.n; k++)
        T += cnt[k] < al.need[k] ? cnt[k] : al.need[k];
    if (T == 0)
        goto done;
    /* lengths from the most promising (L = min(m, T), where the bound peaks) outwards: the
     * bound falls on both sides, so each side stops at the first length that cannot win */
    size_t peak = m < T ? m : T, lo = peak, hi = peak + 1;
    if (peak > n)
        lo = n, hi = n + 1;
    int more_lo = 1, more_hi = hi <= n;
    while (more_lo || more_hi) {
        size_t L;
        if (more_lo && (!more_hi || bound(lo, m, T) >= bound(hi, m, T)))
            L = lo;
        else
            L = hi;
        double b = bound(L, m, T);
        if (b <= best.f1 || (t > 0 && b < t)) {   /* nothing further out can win either */
            if (L == lo)
                more_lo = 0;
            else
                more_hi = 0;
            continue;
        }
        /* every window of length L, by sliding counts */
        memset(cnt, 0, (al.n + 1) * sizeof *cnt);
        size_t ov = 0;
        for (size_t i = 0; i < L; i++)
            if (id[i] >= 0 && cnt[id[i]]++ < al.need[id[i]])
                ov++;
        for (size_t s = 0;; s++) {
            double f = 2.0 * (double)ov / (double)(L + m);
            if (f > best.f1) {
                best.f1 = f;
                best.from = s;
                best.to = s + L;
                if (t > 0 && f >= t)
                    goto done;
            }
            if (s + L >= n)
                break;
            int32_t out = id[s], in = id[s + L];
            if (out >= 0 && --cnt[out] < al.need[out])
                ov--;
            if (in >= 0 && cnt[in]++ < al.need[in])
                ov++;
        }
        if (L == lo) {
            if (lo <= 1)
                more_lo = 0;
            else
                lo--;
        } else {
            if (hi >= n)
                more_hi = 0;
            else
                hi++;
        }
    }
done:
    free(id);
    free(cnt);
    free(al.cp);
    free(al.need);
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
            if (t > 0 && best.f1 >= t)
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
