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

/* ---- lower-casing as Python's str.lower() ------------------------------------------------------
 * The DuReader script lower-cases with Python's str.lower(): each character's simple lowercase
 * mapping (utf8proc's), except where Python's full mapping differs: U+0130 (İ) becomes i and
 * U+0307, and a capital sigma ending a word becomes the final ς. Unicode's Final_Sigma context:
 * a cased character before it and none after it, case-ignorable characters skipped both ways. */

/* Other_Lowercase and Other_Uppercase (PropList.txt): cased although not of category Lu, Ll or
 * Lt (ª, modifier letters, Roman numerals, circled letters, ...). */
static const uint32_t other_cased[][2] = {
    {0x00AA, 0x00AA}, {0x00BA, 0x00BA}, {0x02B0, 0x02B8}, {0x02C0, 0x02C1}, {0x02E0, 0x02E4},
    {0x0345, 0x0345}, {0x037A, 0x037A}, {0x10FC, 0x10FC}, {0x1D2C, 0x1D6A}, {0x1D78, 0x1D78},
    {0x1D9B, 0x1DBF}, {0x2071, 0x2071}, {0x207F, 0x207F}, {0x2090, 0x209C}, {0x2160, 0x217F},
    {0x24B6, 0x24E9}, {0x2C7C, 0x2C7D}, {0xA69C, 0xA69D}, {0xA770, 0xA770}, {0xA7F2, 0xA7F4},
    {0xA7F8, 0xA7F9}, {0xAB5C, 0xAB5F}, {0xAB69, 0xAB69}, {0x10780, 0x10780}, {0x10783, 0x10785},
    {0x10787, 0x107B0}, {0x107B2, 0x107BA}, {0x1E030, 0x1E06D}, {0x1F130, 0x1F149},
    {0x1F150, 0x1F169}, {0x1F170, 0x1F189},
};

static int cased(utf8proc_int32_t c)
{
    switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
        return 1;
    default:
        break;
    }
    for (size_t i = 0; i < sizeof other_cased / sizeof *other_cased; i++)
        if ((uint32_t)c >= other_cased[i][0] && (uint32_t)c <= other_cased[i][1])
            return 1;
    return 0;
}

/* Case_Ignorable: categories Mn, Me, Cf, Lm, Sk, and the Word_Break classes MidLetter, MidNumLet
 * and Single_Quote (apostrophes, full stops, colons, middle dots). */
static int case_ignorable(utf8proc_int32_t c)
{
    switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_ME: case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_SK:
        return 1;
    default:
        break;
    }
    static const uint32_t mid[] = {0x0027, 0x002E, 0x003A, 0x00B7, 0x0387, 0x055F, 0x05F4, 0x2018,
                                   0x2019, 0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E,
                                   0xFF1A};
    for (size_t i = 0; i < sizeof mid / sizeof *mid; i++)
        if ((uint32_t)c == mid[i])
            return 1;
    return 0;
}

/* Whether the capital sigma at cp[i] (of n; -1 for an invalid byte) ends a word. */
static int final_sigma(const utf8proc_int32_t *cp, size_t n, size_t i)
{
    size_t j = i;
    while (j > 0 && cp[j - 1] >= 0 && case_ignorable(cp[j - 1]))
        j--;
    if (j == 0 || cp[j - 1] < 0 || !cased(cp[j - 1]))
        return 0;
    for (j = i + 1; j < n && cp[j] >= 0 && case_ignorable(cp[j]); j++)
        ;
    return j == n || cp[j] < 0 || !cased(cp[j]);
}

void rt_normtext_make(rt_normtext *t, const char *s, size_t len)
{
    memset(t, 0, sizeof *t);
    t->cp = rt_calloc(len + 1, sizeof *t->cp);
    t->off = rt_calloc(len + 1, sizeof *t->off);
    t->len = rt_calloc(len + 1, sizeof *t->len);
    /* decoded first: a sigma's case depends on its neighbours, dropped ones included */
    utf8proc_int32_t *cp = rt_calloc(len + 1, sizeof *cp);
    uint32_t *at = rt_calloc(len + 1, sizeof *at), *bytes = rt_calloc(len + 1, sizeof *bytes);
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp[n]);
        if (k <= 0) {   /* an invalid byte: skipped (and no letter to a sigma) */
            cp[n] = -1;
            k = 1;
        }
        at[n] = (uint32_t)i;
        bytes[n++] = (uint32_t)k;
        i += (size_t)k;
    }
    for (size_t i = 0; i < n; i++) {
        utf8proc_int32_t c = cp[i];
        if (c < 0 || dropped(c))
            continue;
        uint32_t lower = c == 0x03A3 ? (final_sigma(cp, n, i) ? 0x03C2 : 0x03C3)
                       : c == 0x0130 ? 'i' : (uint32_t)utf8proc_tolower(c);
        t->cp[t->n] = lower;
        t->off[t->n] = at[i];
        t->len[t->n] = bytes[i];
        t->n++;
        if (c == 0x0130) {   /* İ: i and a combining dot above, both from its two bytes */
            t->cp[t->n] = 0x0307;
            t->off[t->n] = at[i];
            t->len[t->n] = bytes[i];
            t->n++;
        }
    }
    free(cp);
    free(at);
    free(bytes);
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


/* The best span beating floor (0: any); f1 stays at floor and the span empty when none does.
 *
 * Sweep the end j of the span over the passage. For each answer character c the "active"
 * occurrences are its last need(c) occurrences up to j; a span [i, j] overlaps the answer in
 * exactly the active positions >= i (min(count, need) counts the most recent ones). So among the
 * spans ending at j with overlap k the shortest starts at the k-th most recent active position,
 * and only those spans (ending at an answer character) need scoring: any other span is beaten
 * by trimming it. The active positions are kept in one list, most recent first; for each j the
 * list is walked while a longer span could still win (k <= |list|, so 2|list| / (len + |a|)
 * bounds the rest). Scores are compared as fractions of integers, so the result is exactly the
 * brute force's. */
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
    /* the active occurrences of each answer character, a ring of need(c) each */
    uint32_t *start = rt_calloc(al.n + 1, sizeof *start), *len = rt_calloc(al.n + 1, sizeof *len),
             *head = rt_calloc(al.n + 1, sizeof *head), *ring = rt_calloc(m + 1, sizeof *ring),
             *list = rt_calloc(m + 1, sizeof *list);
    for (size_t k = 0, at = 0; k < al.n; k++) {
        start[k] = (uint32_t)at;
        at += al.need[k];
    }
    size_t ln = 0;
    /* the best so far as a fraction bn / bd (floor: compared as a double once) */
    uint64_t bn = 0, bd = 1;
    int found = 0;
    for (size_t j = 0; j < n; j++) {
        int32_t k = alpha_id(&al, p->cp[j]);
        if (k < 0)
            continue;   /* a span worth scoring ends on an answer character */
        if (len[k] == al.need[k]) {   /* c's oldest active occurrence is no longer active */
            uint32_t o = ring[start[k] + head[k]];
            head[k] = (head[k] + 1) % al.need[k];
            len[k]--;
            size_t lo = 0, hi = ln;   /* o in the list (descending) */
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (list[mid] > o)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            memmove(list + lo, list + lo + 1, (ln - lo - 1) * sizeof *list);
            ln--;
        }
        ring[start[k] + (head[k] + len[k]) % al.need[k]] = (uint32_t)j;
        len[k]++;
        memmove(list + 1, list, ln * sizeof *list);
        list[0] = (uint32_t)j;
        ln++;
        for (size_t q = 0; q < ln; q++) {
            uint64_t den = (uint64_t)(j - list[q] + 1 + m), num = 2 * (uint64_t)(q + 1);
            double bound = 2.0 * (double)ln / (double)den;
            if ((found ? 2 * (uint64_t)ln * bd <= bn * den : bound <= best.f1) || (t > 0 && bound < t))
                break;   /* no longer span ending here can win (or reach t) */
            if (found ? num * bd <= bn * den : (double)num / (double)den <= best.f1)
                continue;
            bn = num;
            bd = den;
            found = 1;
            best.f1 = (double)num / (double)den;
            best.from = list[q];
            best.to = j + 1;
            if ((t > 0 && best.f1 >= t) || best.f1 >= 1)
                goto done;   /* decided, or nothing can beat it */
        }
    }
done:
    free(start);
    free(len);
    free(head);
    free(ring);
    free(list);
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
