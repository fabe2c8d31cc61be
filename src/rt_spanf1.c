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


/* ---- the search -----------------------------------------------------------------------------
 * F1(s) = 2·ov(s) / (|s| + |a|) is a ratio, so the best is found as a fractional programme
 * (Dinkelbach): for a candidate ratio λ = N / D, the best value of D·2·ov(s) − N·(|s| + |a|) over
 * all spans is > 0 exactly when some span beats λ, and the span attaining it has a higher ratio;
 * moving λ to that span's F1 from a start below the best, a handful of passes reach the best F1,
 * at which the value is 0 (λ rises strictly each pass, so it ends; at most 5 passes in 23,000
 * random and periodic cases of up to 50,000 characters). Each pass is one linear sweep (below),
 * so the search is O(|p| · passes) whatever |a| is, not the brute force's O(|p|·|a|)
 * (tests/bench/PERF.md has the figures). Everything is integer, so the best F1 and the
 * decision F1 >= t are exactly the brute force's.
 *
 * A span worth scoring starts and ends on an answer character (trimming others only raises its
 * F1), so a pass sweeps only the passage's answer characters, at positions q_0 < q_1 < …. For a
 * fixed λ and end e, let V(s) = D·2·ov([q_s, q_e]) − N·(q_e − q_s + 1) for each start s <= e.
 * Moving the end on lowers every V by N per character passed, and raises by 2D those whose span
 * gains overlap: c = p[q_e] counts when the span holds fewer than need(c) earlier c, that is for
 * starts after the need(c)-th most recent earlier c (found once for all passes): a suffix of the
 * starts. A suffix add never favours an earlier start over a later one, so a start is dead for
 * good once a later start has V at least its own; the live starts have strictly falling V, the
 * first is the best, and they are kept as a list of the differences between neighbours (a suffix
 * add changes one difference, where it begins) with a union–find from each start to the first
 * live one at or after it. Each start dies once: amortised near-linear. */

/* The passage's answer characters: pos[e] (a position in p) and from[e], the last start (an
 * index e' < e) the overlap of p[pos[e]] does not raise: the need(c)-th most recent earlier
 * occurrence of c, or −1 when there are fewer. Returns how many. */
static size_t answer_chars(const rt_normtext *p, const alpha *al, size_t m, uint32_t **pos_out, int64_t **from_out)
{
    size_t n = p->n, k = 0;
    uint32_t *pos = rt_calloc(n + 1, sizeof *pos);
    int64_t *from = rt_calloc(n + 1, sizeof *from);
    uint32_t *start = rt_calloc(al->n + 1, sizeof *start), *len = rt_calloc(al->n + 1, sizeof *len),
             *head = rt_calloc(al->n + 1, sizeof *head), *ring = rt_calloc(m + 1, sizeof *ring);
    for (size_t c = 0, at = 0; c < al->n; c++) {
        start[c] = (uint32_t)at;
        at += al->need[c];
    }
    for (size_t j = 0; j < n; j++) {
        int32_t c = alpha_id(al, p->cp[j]);
        if (c < 0)
            continue;
        uint32_t *r = ring + start[c];   /* the last need(c) occurrences of c (as indices e), oldest at head */
        pos[k] = (uint32_t)j;
        if (len[c] == al->need[c]) {
            from[k] = r[head[c]];
            r[head[c]] = (uint32_t)k;
            head[c] = (head[c] + 1) % al->need[c];
        } else {
            from[k] = -1;
            r[(head[c] + len[c]++) % al->need[c]] = (uint32_t)k;
        }
        k++;
    }
    free(start);
    free(len);
    free(head);
    free(ring);
    *pos_out = pos;
    *from_out = from;
    return k;
}

/* The working arrays of a pass, one per answer character. */
typedef struct sweep {
    int64_t *gap;      /* live s with a live predecessor: V(prev) − V(s) > 0 */
    int64_t *prev;     /* the live start before s, −1 for the first */
    size_t *up;        /* union–find: up[s] == s while s is live, else a later start */
} sweep;

static size_t live_from(size_t *up, size_t x)
{
    size_t r = x;
    while (up[r] != r)
        r = up[r];
    while (up[x] != r) {   /* path compression */
        size_t nx = up[x];
        up[x] = r;
        x = nx;
    }
    return r;
}

/* One pass for λ = N / D over the k answer characters: the best value of D·2·ov(s) − N·(|s| + m)
 * and a span attaining it, [pos[*bs], pos[*be]] (ties: the earliest end, then the shortest).
 * Stops early at a span of F1 1, or of F1 >= t when t > 0: nothing more is asked then. */
static int64_t pass(const uint32_t *pos, const int64_t *from, size_t k, size_t m, int64_t N, int64_t D, double t,
                    sweep *w, size_t *bs, size_t *be)
{
    int64_t best = INT64_MIN, H = 0, T = 0, add = 2 * D, tail_cost = N * (int64_t)m;
    int64_t head = -1, tail = -1;
    for (size_t e = 0; e < k; e++) {
        if (e) {   /* the characters passed since the last end, this one excepted */
            int64_t skip = N * (int64_t)(pos[e] - pos[e - 1] - 1);
            H -= skip;
            T -= skip;
        }
        /* start e (empty so far, V = 0): the starts it ties or beats die */
        while (tail >= 0 && T <= 0) {
            w->up[tail] = (size_t)tail + 1;
            if (tail == head) {
                head = tail = -1;
                break;
            }
            T += w->gap[tail];
            tail = w->prev[tail];
        }
        w->up[e] = e;
        if (tail < 0) {
            head = (int64_t)e;
            w->prev[e] = -1;
            H = 0;
        } else {
            w->prev[e] = tail;
            w->gap[e] = T;
        }
        tail = (int64_t)e;
        T = 0;
        H -= N;   /* one character longer */
        T -= N;
        size_t b = live_from(w->up, (size_t)(from[e] + 1));   /* the starts after from[e] gain overlap */
        T += add;
        if ((int64_t)b == head)
            H += add;
        else {
            w->gap[b] -= add;
            while ((int64_t)b != head && w->gap[b] <= 0) {   /* b caught up with the start before it */
                int64_t a = w->prev[b];
                w->up[a] = (size_t)a + 1;
                if (a == head) {
                    H -= w->gap[b];
                    head = (int64_t)b;
                    w->prev[b] = -1;
                } else {
                    w->gap[b] += w->gap[a];
                    w->prev[b] = w->prev[a];
                }
            }
        }
        if (H - tail_cost > best) {
            best = H - tail_cost;
            *bs = (size_t)head;
            *be = e;
            int64_t sd = (int64_t)(pos[e] - pos[head] + 1 + m), ov2 = (best + N * sd) / D;
            if (best > 0 && (ov2 >= sd || (t > 0 && (double)ov2 / (double)sd >= t)))
                break;
        }
    }
    return best;
}

/* Records the span [from, to) of p with F1 N / D as the best. */
static void found(rt_spanf1 *out, int64_t *num, int64_t *den, int64_t N, int64_t D, size_t from, size_t to)
{
    *num = N;
    *den = D;
    out->f1 = (double)N / (double)D;
    out->from = from;
    out->to = to;
}

/* The best span of a whose F1 beats fn / fd (0 / 1: any overlap); *out keeps f1 at the floor and
 * an empty span when none does. With t > 0, stops at a span reaching F1 >= t. *num / *den: the
 * F1 found, as a fraction. */
static void best_above(const rt_normtext *p, const rt_normtext *a, double t, int64_t fn, int64_t fd, rt_spanf1 *out,
                       int64_t *num, int64_t *den)
{
    size_t n = p->n, m = a->n;
    if (!n || !m)
        return;
    alpha al = {a->acp, a->aneed, a->an};
    int own = !a->acp;   /* not prepared: made here */
    if (own)
        alpha_make(&al, a);
    uint32_t *pos;
    int64_t *from;
    size_t k = answer_chars(p, &al, m, &pos, &from);
    int64_t N = fn, D = fd;
    /* a first λ: one answer character alone scores 2 / (1 + m) */
    if (k && 2 * D > N * (int64_t)(1 + m)) {
        N = 2;
        D = (int64_t)(1 + m);
        found(out, num, den, N, D, pos[0], pos[0] + 1);
    }
    sweep w = {rt_calloc(k + 1, sizeof *w.gap), rt_calloc(k + 1, sizeof *w.prev), rt_calloc(k + 1, sizeof *w.up)};
    while (k && !(t > 0 && (double)N / (double)D >= t) && N < D) {   /* until decided, or nothing can beat it */
        size_t bs = 0, be = 0;
        int64_t v = pass(pos, from, k, m, N, D, t, &w, &bs, &be);
        if (v <= 0)
            break;   /* no span beats N / D: it is the best */
        int64_t sd = (int64_t)(pos[be] - pos[bs] + 1 + m);
        N = (v + N * sd) / D;   /* 2·ov of the span found */
        D = sd;
        found(out, num, den, N, D, pos[bs], pos[be] + 1);
    }
    free(w.gap);
    free(w.prev);
    free(w.up);
    free(pos);
    free(from);
    if (own) {
        free(al.cp);
        free(al.need);
    }
}

rt_spanf1 rt_spanf1_best(const rt_normtext *p, const rt_normtext *a, double t)
{
    rt_spanf1 best = {0, 0, 0, 0};
    int64_t num = 0, den = 1;
    best_above(p, a, t, 0, 1, &best, &num, &den);
    return best;
}

rt_spanf1 rt_spanf1_best_of(const rt_normtext *p, const rt_normtext *const *answers, size_t n, double t)
{
    rt_spanf1 best = {0, 0, 0, 0};
    int64_t num = 0, den = 1;   /* the best so far, exactly */
    for (size_t k = 0; k < n; k++) {   /* a later answer is searched only for what beats the best */
        rt_spanf1 s = best;
        int64_t sn = num, sdn = den;
        best_above(p, answers[k], t, num, den, &s, &sn, &sdn);
        if (sn * den > num * sdn) {
            best = s;
            best.answer = k;
            num = sn;
            den = sdn;
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
