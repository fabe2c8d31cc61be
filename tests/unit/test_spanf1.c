/* test_spanf1 — the distant-supervision span F1: the normalisation by hand, and the exact search
 * against brute-force enumeration of every span on random strings (CJK, Latin, digits,
 * punctuation, spaces): the same best F1, a span that scores it, and the same decision F1 >= t. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_spanf1.h"
#include "tap.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* A random string of n pieces from a small alphabet, so that spans overlap answers often. */
static void random_text(char *buf, size_t cap, size_t n)
{
    static const char *const pieces[] = {"北", "京", "冬", "奥", "会", "的", "年", "a", "B", "c", "D", "1", "2",
                                         "，", "。", " ", "-", "！", "、", "《", "》"};
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *p = pieces[next() % (sizeof pieces / sizeof pieces[0])];
        size_t l = strlen(p);
        if (o + l + 1 >= cap)
            break;
        memcpy(buf + o, p, l + 1);
        o += l;
    }
}

static size_t overlap(const rt_normtext *p, size_t from, size_t to, const rt_normtext *a)
{
    size_t ov = 0;
    unsigned char used[512] = {0};
    for (size_t k = from; k < to; k++)
        for (size_t q = 0; q < a->n && q < sizeof used; q++)
            if (!used[q] && a->cp[q] == p->cp[k]) {
                used[q] = 1;
                ov++;
                break;
            }
    return ov;
}


/* The best F1 over every span in O(|p|² + |p|·|a|): for each start, the ends swept with running
 * counts (each character of p mapped to its answer slot once). Exact as a fraction num / den. */
static void brute_long(const rt_normtext *p, const rt_normtext *a, uint64_t *num, uint64_t *den)
{
    size_t n = p->n, m = a->n;
    int *slot = malloc((n + 1) * sizeof *slot);
    size_t *need = calloc(m + 1, sizeof *need), *cnt = calloc(m + 1, sizeof *cnt);
    for (size_t q = 0; q < m; q++) {   /* slot of a character: its first position in a */
        size_t f = 0;
        while (a->cp[f] != a->cp[q])
            f++;
        need[f]++;
    }
    for (size_t k = 0; k < n; k++) {
        slot[k] = -1;
        for (size_t q = 0; q < m; q++)
            if (a->cp[q] == p->cp[k]) {
                slot[k] = (int)q;
                break;
            }
    }
    *num = 0;
    *den = 1;
    for (size_t i = 0; i < n; i++) {
        memset(cnt, 0, (m + 1) * sizeof *cnt);
        uint64_t ov = 0;
        for (size_t j = i; j < n; j++) {
            if (slot[j] >= 0 && cnt[slot[j]]++ < need[slot[j]])
                ov++;
            uint64_t d = (uint64_t)(j - i + 1 + m);
            if (2 * ov * *den > *num * d) {
                *num = 2 * ov;
                *den = d;
            }
        }
    }
    free(slot);
    free(need);
    free(cnt);
}

/* A random text of n characters from the first k of a fixed alphabet (k small: heavy overlap). */
static void random_cjk(char *buf, size_t n, uint32_t k)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = 0x4E00 + next() % k;
        buf[o++] = (char)(0xE0 | (c >> 12));
        buf[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
        buf[o++] = (char)(0x80 | (c & 0x3F));
    }
    buf[o] = '\0';
}

/* Long passages (issue 33: the search was O(|p|·|a|), 34.8 s for one passage of 400,000
 * characters): exact against the quadratic brute force on passages of thousands of characters
 * and answers of hundreds, several answers at once (the later ones searched above the best so
 * far), and a passage of 400,000 characters against an answer of 40,000 in seconds of CPU. */
static void long_passages(void)
{
    static char pb[6000 * 3 + 4], ab[3][800 * 3 + 4];
    int bad = 0, bad_of = 0, bad_dec = 0, cases = 0;
    for (int i = 0; i < 24; i++) {
        size_t n = 1000 + next() % 5000;
        uint32_t k = 2 + next() % (i % 2 ? 8 : 300);
        random_cjk(pb, n, k);
        rt_normtext p, a[3];
        rt_normtext_make(&p, pb, strlen(pb));
        uint64_t bn = 0, bd = 1, num[3], den[3];
        for (int q = 0; q < 3; q++) {
            random_cjk(ab[q], 1 + next() % (q == 2 ? 800 : 60), k);
            rt_normtext_make(&a[q], ab[q], strlen(ab[q]));
            if (q == 1)
                rt_normtext_prepare(&a[q]);
            brute_long(&p, &a[q], &num[q], &den[q]);
            rt_spanf1 got = rt_spanf1_best(&p, &a[q], 0);
            if (got.f1 != (double)num[q] / (double)den[q] && bad++ < 3)
                printf("# long %zu vs %zu: %.17g, brute %.17g\n", p.n, a[q].n, got.f1, (double)num[q] / (double)den[q]);
            for (double t = 0.3; t < 1; t += 0.2)
                bad_dec += (rt_spanf1_best(&p, &a[q], t).f1 >= t) != ((double)num[q] / (double)den[q] >= t);
            if (num[q] * bd > bn * den[q])
                bn = num[q], bd = den[q];
        }
        const rt_normtext *const all[] = {&a[0], &a[1], &a[2]};
        rt_spanf1 of = rt_spanf1_best_of(&p, all, 3, 0);
        size_t first = 0;
        while (num[first] * bd != bn * den[first])
            first++;
        bad_of += of.f1 != (double)bn / (double)bd || of.answer != first;
        for (int q = 0; q < 3; q++)
            rt_normtext_free(&a[q]);
        rt_normtext_free(&p);
        cases++;
    }
    ok(!bad, "long passages (1,000-6,000 characters, answers up to 800): best F1 equals brute force (%d cases, %d differ)",
       cases, bad);
    ok(!bad_dec, "long passages: F1 >= t (0.3, 0.5, 0.7, 0.9) decided as brute force does (%d differ)", bad_dec);
    ok(!bad_of, "long passages, three answers: the best of them, the first on a tie (%d differ)", bad_of);

    size_t n = 400000, m = 40000;
    char *big = malloc(n * 3 + 4), *ans = malloc(m * 3 + 4);
    random_cjk(big, n, 3000);
    random_cjk(ans, m, 3000);
    rt_normtext p, a;
    rt_normtext_make(&p, big, strlen(big));
    rt_normtext_make(&a, ans, strlen(ans));
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    rt_spanf1 s = rt_spanf1_best(&p, &a, 0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double cpu = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    size_t ov = 0;   /* the span's F1 checked by counting */
    {
        size_t *need = calloc(0x10000, sizeof *need);
        for (size_t q = 0; q < a.n; q++)
            need[a.cp[q] & 0xFFFF]++;
        for (size_t k = s.from; k < s.to; k++)
            if (need[p.cp[k] & 0xFFFF]) {
                need[p.cp[k] & 0xFFFF]--;
                ov++;
            }
        free(need);
    }
    ok(s.f1 > 0.5 && s.f1 == 2.0 * (double)ov / (double)(s.to - s.from + a.n) && cpu < 10,
       "a passage of 400,000 characters against an answer of 40,000: F1 %.4f in %.2f s of CPU (was about a minute)", s.f1,
       cpu);
    rt_normtext_free(&p);
    rt_normtext_free(&a);
    free(big);
    free(ans);
}

int main(void)
{
    rt_normtext t, a, p;
    rt_normtext_make(&t, "Ａb C，北京 2022！\t冬奥\xe2\x80\x8b会。", strlen("Ａb C，北京 2022！\t冬奥\xe2\x80\x8b会。"));
    int same = t.n == 12 && t.cp[0] == 0xFF41 && t.cp[1] == 'b' && t.cp[2] == 'c' && t.cp[3] == 0x5317;
    ok(same, "normalised: lower-cased, spaces, tabs, punctuation and format characters dropped (%zu characters)", t.n);
    ok(t.off[3] == strlen("Ａb C，"), "each character keeps its byte offset in the original");
    rt_normtext_free(&t);

    /* lower-cased as Python's str.lower() (the DuReader script's): a capital sigma ending a word
     * (case-ignorable characters skipped both ways) is the final ς, else σ; İ is i and U+0307.
     * The expected code points are Python 3.11's (punctuation then dropped). */
    static const struct { const char *text; uint32_t want[10]; size_t n; } lower[] = {
        {"ΟΔΟΣ", {0x3BF, 0x3B4, 0x3BF, 0x3C2}, 4},
        {"ΣΑ", {0x3C3, 0x3B1}, 2},
        {"ΑΣ.", {0x3B1, 0x3C2}, 2},
        {"Α.Σ", {0x3B1, 0x3C2}, 2},
        {"ΑΣ'Β", {0x3B1, 0x3C3, 0x3B2}, 3},
        {"Σ", {0x3C3}, 1},
        {"ΑΣ ΒΣ", {0x3B1, 0x3C2, 0x3B2, 0x3C2}, 4},
        {"İstanbul", {'i', 0x307, 's', 't', 'a', 'n', 'b', 'u', 'l'}, 9},
    };
    int as_python = 1;
    for (size_t k = 0; k < sizeof lower / sizeof *lower; k++) {
        rt_normtext_make(&t, lower[k].text, strlen(lower[k].text));
        int same_k = t.n == lower[k].n;
        for (size_t i = 0; same_k && i < t.n; i++)
            same_k = t.cp[i] == lower[k].want[i];
        if (!same_k)
            printf("# %s: %zu characters, the first U+%04X\n", lower[k].text, t.n, t.n ? (unsigned)t.cp[0] : 0);
        as_python &= same_k;
        rt_normtext_free(&t);
    }
    ok(as_python, "lower-cased as Python does: final sigma, İ (8 cases)");
    rt_normtext_make(&p, "ΟΔΟΣ ΑΘΗΝΩΝ", strlen("ΟΔΟΣ ΑΘΗΝΩΝ"));
    rt_normtext_make(&a, "οδος", strlen("οδος"));
    ok(rt_spanf1_best(&p, &a, 0).f1 == 1, "the answer οδος is all of ΟΔΟΣ in a passage: F1 1");
    rt_normtext_free(&a);
    rt_normtext_free(&p);

    rt_normtext_make(&p, "北京冬奥会在张家口举办", strlen("北京冬奥会在张家口举办"));
    rt_normtext_make(&a, "北京和张家口", strlen("北京和张家口"));
    rt_spanf1 s = rt_spanf1_best(&p, &a, 0);
    /* the whole passage (11 characters) holds 5 of the answer's 6: 10/17; 北京冬奥会在张家口 (9):
     * 10/15; 张家口 (3): 6/9 — the best is 2/3, reached twice */
    ok(s.f1 == 2.0 / 3 && ((s.from == 6 && s.to == 9) || (s.from == 0 && s.to == 9)),
       "by hand: 张家口 (or 北京冬奥会在张家口) scores 2/3 (%g [%zu, %zu))", s.f1, s.from, s.to);
    rt_normtext_free(&a);
    rt_normtext_make(&a, "", 0);
    ok(rt_spanf1_best(&p, &a, 0).f1 == 0, "an empty answer scores 0");
    rt_normtext_free(&a);
    rt_normtext_free(&p);

    int bad_best = 0, bad_span = 0, bad_decision = 0, bad_of = 0, cases = 0;
    char pb[1024], ab[256];
    for (int i = 0; i < 3000; i++) {
        random_text(pb, sizeof pb, 1 + next() % 60);
        random_text(ab, sizeof ab, 1 + next() % 14);
        rt_normtext_make(&p, pb, strlen(pb));
        rt_normtext_make(&a, ab, strlen(ab));
        double want = rt_spanf1_brute(&p, &a);
        rt_spanf1 got = rt_spanf1_best(&p, &a, 0);
        if (got.f1 != want && bad_best++ < 3)
            printf("# best: \"%s\" vs \"%s\": %.17g, brute %.17g\n", pb, ab, got.f1, want);
        if (got.f1 > 0 && 2.0 * (double)overlap(&p, got.from, got.to, &a) / (double)(got.to - got.from + a.n) != got.f1)
            bad_span++;
        double ts[] = {0.5, 0.3, 0.75};
        for (int k = 0; k < 3; k++) {
            rt_spanf1 d = rt_spanf1_best(&p, &a, ts[k]);
            if ((d.f1 >= ts[k]) != (want >= ts[k]) && bad_decision++ < 3)
                printf("# decision %g: \"%s\" vs \"%s\": %.17g, brute %.17g\n", ts[k], pb, ab, d.f1, want);
        }
        /* a second answer: the best of both, searched above the first's F1 (the first on a tie) */
        rt_normtext b;
        random_text(ab, sizeof ab, 1 + next() % 14);
        rt_normtext_make(&b, ab, strlen(ab));
        double want_b = rt_spanf1_brute(&p, &b);
        const rt_normtext *const both[] = {&a, &b};
        rt_spanf1 of = rt_spanf1_best_of(&p, both, 2, 0);
        bad_of += of.f1 != (want_b > want ? want_b : want) || (want > 0 && of.answer != (want_b > want));
        rt_normtext_free(&b);
        cases++;
        rt_normtext_free(&p);
        rt_normtext_free(&a);
    }
    ok(!bad_of, "the best of two answers equals the better brute force, the first on a tie (%d differ)", bad_of);
    ok(!bad_best, "best F1 equals brute force on %d random cases (%d differ)", cases, bad_best);
    ok(!bad_span, "the span returned scores the F1 returned (%d do not)", bad_span);
    ok(!bad_decision, "F1 >= t (0.5, 0.3, 0.75) decided as brute force does (%d differ)", bad_decision);

    /* several answers: the best of them, the first on a tie */
    rt_normtext x, y;
    rt_normtext_make(&p, "长江全长约6300千米", strlen("长江全长约6300千米"));
    rt_normtext_make(&x, "黄河", strlen("黄河"));
    rt_normtext_make(&y, "6300千米", strlen("6300千米"));
    const rt_normtext *const two[] = {&x, &y};
    rt_spanf1 b = rt_spanf1_best_of(&p, two, 2, 0);
    ok(b.answer == 1 && b.f1 == 1.0, "the best of two answers: the second, exactly (F1 1)");
    rt_normtext_free(&p);
    rt_normtext_free(&x);
    rt_normtext_free(&y);
    long_passages();
    return tap_done();
}
