/* bench_hint — the distant-supervision figures issue 14 sets: the hint of a 2,000-character
 * passage against 5 answers of 100 characters (target: under 1 ms; what the passage view and
 * the badges compute for each pair on screen), for passages unrelated to the answers, holding one
 * of them, or holding pieces of several; and, with --write DIR, a dslabel set of 2,000 queries and
 * a depth-50 pool of 5 runs (DuReader-like passages of 300 characters) for `make bench-hint` to
 * time `retriage dslabel` on (target: under 5 s); with --real DIR, the hint over the DuReader 2.0
 * workspace's passages against their questions' human answers; with --long (and after the hint) one
 * passage of 400,000 characters against long answers. The text is drawn from 3,000 CJK characters
 * with a Zipf-like law, so that common characters overlap as they do in Chinese. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rt_answers.h"
#include "rt_collection.h"
#include "rt_report.h"
#include "rt_spanf1.h"
#include "rt_strtab.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A character: rank r of 3,000 with probability ~ 1/(r+10). */
static uint32_t zipf_char(void)
{
    static double cdf[3000];
    static int ready;
    if (!ready) {
        double s = 0;
        for (int r = 0; r < 3000; r++)
            cdf[r] = s += 1.0 / (r + 10);
        for (int r = 0; r < 3000; r++)
            cdf[r] /= s;
        ready = 1;
    }
    double u = (double)(next() >> 11) / 9007199254740992.0;
    int lo = 0, hi = 2999;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cdf[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0x4E00 + (uint32_t)lo;
}

static size_t put_utf8(char *o, uint32_t c)
{
    o[0] = (char)(0xE0 | (c >> 12));
    o[1] = (char)(0x80 | ((c >> 6) & 0x3F));
    o[2] = (char)(0x80 | (c & 0x3F));
    return 3;
}

/* n random characters, with a punctuation mark now and then; returns the bytes. */
static size_t text(char *o, size_t n)
{
    size_t b = 0;
    for (size_t i = 0; i < n; i++) {
        if (next() % 25 == 0) {
            memcpy(o + b, "\xef\xbc\x8c", 3);   /* ， */
            b += 3;
            continue;
        }
        b += put_utf8(o + b, zipf_char());
    }
    o[b] = '\0';
    return b;
}

static void bench_hint(void)
{
    enum { PASSAGES = 300, PLEN = 2000, NA = 5, ALEN = 100 };
    static char pbuf[PLEN * 4 + 16], abuf[NA][ALEN * 4 + 16];
    rt_normtext ans[NA];
    const rt_normtext *ap[NA];
    for (int k = 0; k < NA; k++) {
        text(abuf[k], ALEN);
        rt_normtext_make(&ans[k], abuf[k], strlen(abuf[k]));
        ap[k] = &ans[k];
    }
    const char *kinds[] = {"unrelated to the answers", "holding one answer", "holding pieces of three"};
    for (int kind = 0; kind < 3; kind++) {
        double total = 0, worst = 0, f1 = 0;
        for (int i = 0; i < PASSAGES; i++) {
            size_t b = text(pbuf, PLEN);
            if (kind == 1) {   /* an answer dropped in the middle */
                size_t at = (b / 2) / 3 * 3, al = strlen(abuf[i % NA]);
                memcpy(pbuf + at, abuf[i % NA], al);
            } else if (kind == 2) {
                for (int k = 0; k < 3; k++) {
                    size_t at = (b / 4 * (size_t)(k + 1)) / 3 * 3, al = strlen(abuf[k]) / 2 / 3 * 3;
                    memcpy(pbuf + at, abuf[k], al);
                }
            }
            double t0 = now_s();
            rt_normtext p;
            rt_normtext_make(&p, pbuf, strlen(pbuf));
            rt_spanf1 s = rt_spanf1_best_of(&p, ap, NA, 0);
            rt_normtext_free(&p);
            double dt = now_s() - t0;
            total += dt;
            worst = dt > worst ? dt : worst;
            f1 += s.f1;
        }
        printf("hint, 2,000-character passage %-26s vs 5 answers of 100: mean %.3f ms, worst %.3f ms "
               "(mean F1 %.2f, %d passages)\n", kinds[kind], 1e3 * total / PASSAGES, 1e3 * worst, f1 / PASSAGES,
               PASSAGES);
    }
    for (int k = 0; k < NA; k++)
        rt_normtext_free(&ans[k]);
}

/* Issue 33: one passage of 400,000 characters (a whole document as one passage) against an
 * answer of 100, 1,000 and 10,000 characters, the full search of `dslabel --with-f1` and the hint.
 * The search was O(|p|·|a|) (34.8 s reported for such a passage); it is now a few linear passes. */
static void bench_long(void)
{
    enum { PLEN = 400000 };
    static char pbuf[PLEN * 3 + 16], abuf[10000 * 3 + 16];
    text(pbuf, PLEN);
    rt_normtext p;
    rt_normtext_make(&p, pbuf, strlen(pbuf));
    static const size_t alens[] = {100, 1000, 10000};
    for (size_t k = 0; k < sizeof alens / sizeof *alens; k++) {
        text(abuf, alens[k]);
        rt_normtext a;
        rt_normtext_make(&a, abuf, strlen(abuf));
        double t0 = now_s();
        rt_spanf1 s = rt_spanf1_best(&p, &a, 0);
        printf("best span, a passage of %zu characters vs an answer of %zu: %.3f s (F1 %.3f)\n", p.n, a.n,
               now_s() - t0, s.f1);
        rt_normtext_free(&a);
    }
    rt_normtext_free(&p);
}

/* 2,000 queries, 2 answers of 40 characters each; per query 120 candidate passages of 300
 * characters (a third hold a piece of an answer), and 5 runs ranking 50 of them each. */
static int write_set(const char *dir)
{
    enum { Q = 2000, CAND = 120, RUNS = 5, DEPTH = 50, PLEN = 300, ALEN = 40 };
    char path[4096], buf[PLEN * 4 + 64], ans[2][ALEN * 4 + 16];
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/collection.tsv", dir);
    FILE *c = fopen(path, "w");
    snprintf(path, sizeof path, "%s/answers.tsv", dir);
    FILE *a = fopen(path, "w");
    FILE *r[RUNS];
    for (int k = 0; k < RUNS; k++) {
        snprintf(path, sizeof path, "%s/run%d.trec", dir, k + 1);
        r[k] = fopen(path, "w");
    }
    if (!c || !a)
        return 1;
    for (int q = 0; q < Q; q++) {
        for (int k = 0; k < 2; k++) {
            text(ans[k], ALEN);
            fprintf(a, "q%d\t%s\n", q, ans[k]);
        }
        for (int i = 0; i < CAND; i++) {
            size_t b = text(buf, PLEN);
            if (i % 3 == 0) {
                size_t al = strlen(ans[i % 2]) * (size_t)(1 + i % 4) / 4 / 3 * 3;
                memcpy(buf + (b / 3) / 3 * 3, ans[i % 2], al);
            }
            fprintf(c, "q%d-p%d\t%s\n", q, i, buf);
        }
        for (int k = 0; k < RUNS; k++) {
            int used[CAND] = {0};
            for (int rank = 1; rank <= DEPTH; rank++) {
                int i;
                do
                    i = (int)(next() % CAND);
                while (used[i]);
                used[i] = 1;
                fprintf(r[k], "q%d Q0 q%d-p%d %d %d run%d\n", q, q, i, rank, 1000 - rank, k + 1);
            }
        }
    }
    fclose(c);
    fclose(a);
    for (int k = 0; k < RUNS; k++)
        fclose(r[k]);
    return 0;
}

/* Real data: every passage of the DuReader 2.0 workspace against its question's human answers
 * (the full best-span search the hint does), timed pair by pair. */
static void bench_real(const char *dir)
{
    char path[4096], apath[4096];
    snprintf(path, sizeof path, "%s/collection.tsv", dir);
    snprintf(apath, sizeof apath, "%s/answers.jsonl", dir);
    rt_strtab *qids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_err err;
    rt_answers *ans = NULL;
    rt_collection *c = NULL;
    if (rt_answers_load(&ans, apath, qids, 1, rep, &err) != RT_OK ||
        rt_collection_open(&c, path, NULL, rep, &err) != RT_OK) {
        printf("hint on DuReader 2.0: skipped (%s)\n", err.msg);
        goto out;
    }
    double total = 0, worst = 0;
    size_t pairs = 0, worst_len = 0, longest = 0;
    for (size_t i = 0; i < rt_collection_count(c); i++) {
        const char *pid, *text;
        size_t pl, tl;
        rt_collection_at(c, i, &pid, &pl, &text, &tl);
        const char *dash = memchr(pid, '-', pl);
        uint32_t q = dash ? rt_strtab_find(qids, pid, (size_t)(dash - pid)) : RT_NO_ID;
        const rt_normtext *const *an;
        size_t na = q == RT_NO_ID ? 0 : rt_answers_of(ans, q, &an);
        if (!na)
            continue;
        double t0 = now_s();
        rt_normtext p;
        rt_normtext_make(&p, text, tl);
        rt_spanf1_best_of(&p, an, na, 0);
        size_t chars = p.n;
        rt_normtext_free(&p);
        double dt = now_s() - t0;
        total += dt;
        pairs++;
        if (dt > worst)
            worst = dt, worst_len = chars;
        longest = chars > longest ? chars : longest;
    }
    printf("hint on DuReader 2.0 (%zu passages vs their questions' 1-3 human answers, up to %zu characters): "
           "mean %.3f ms, worst %.3f ms (a passage of %zu characters)\n", pairs, longest, 1e3 * total / (double)pairs,
           1e3 * worst, worst_len);
out:
    rt_collection_close(&c);
    rt_answers_free(&ans);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--real") == 0) {
        bench_real(argv[2]);
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "--write") == 0)
        return write_set(argv[2]);
    if (argc > 1 && strcmp(argv[1], "--long") == 0) {
        bench_long();
        return 0;
    }
    bench_hint();
    bench_long();
    return 0;
}
