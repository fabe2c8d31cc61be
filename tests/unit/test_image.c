/* test_image — the images the workspace cache is made of (rt_strtab, rt_qrels, rt_run): what is
 * attached from an image answers exactly as what was written; a table attached to an image takes
 * new strings (and rehashes) without touching what it had; a damaged image is refused, or (the
 * string table's slots, which are not scanned) only costs lookups their answers, never a fault or
 * an endless probe. Run under ASan, an out-of-bounds read would show. */
#include "config.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_qrels.h"
#include "rt_report.h"
#include "rt_run.h"
#include "rt_runstage.h"
#include "rt_strtab.h"
#include "tap.h"

/* The image f writes, in an 8-aligned writable buffer of *len bytes. */
typedef int (*writer)(const void *x, FILE *f);
static unsigned char *image_of(writer w, const void *x, size_t *len)
{
    char *mem = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&mem, &n);
    w(x, f);
    fclose(f);
    unsigned char *buf = aligned_alloc(8, n ? (n + 7) / 8 * 8 : 8);
    memcpy(buf, mem, n);
    free(mem);
    *len = n;
    return buf;
}

static int w_strtab(const void *x, FILE *f) { return rt_strtab_image_write(x, UINT32_MAX, f); }
static int w_strtab600(const void *x, FILE *f) { return rt_strtab_image_write(x, 600, f); }
static int w_qrels(const void *x, FILE *f) { return rt_qrels_image_write(x, f); }
static int w_run(const void *x, FILE *f) { return rt_run_image_write(x, f); }

static void test_strtab(void)
{
    rt_strtab *t = rt_strtab_new();
    char s[32];
    for (int i = 0; i < 1000; i++) {
        int n = snprintf(s, sizeof s, i % 3 ? "p%d" : "a longer passage id %d", i);
        rt_strtab_intern(t, s, (size_t)n);
    }
    rt_strtab_intern(t, "", 0);
    size_t len;
    unsigned char *img = image_of(w_strtab, t, &len);
    ok(len == rt_strtab_image_size(t, UINT32_MAX) && len % 8 == 0, "the image is as long as announced (%zu)", len);
    rt_strtab *a = rt_strtab_attach(img, len);
    ok(a && rt_strtab_count(a) == 1001, "attached: 1001 strings");
    int same = a != NULL;
    for (uint32_t id = 0; a && id < 1001; id++)
        same &= strcmp(rt_strtab_str(a, id), rt_strtab_str(t, id)) == 0 && rt_strtab_len(a, id) == rt_strtab_len(t, id) &&
                rt_strtab_find(a, rt_strtab_str(t, id), rt_strtab_len(t, id)) == id;
    ok(same, "every id has its string and is found by it");
    /* new strings: enough to rehash away from the image's slots */
    int fresh = a != NULL;
    for (int i = 0; a && i < 3000; i++) {
        int n = snprintf(s, sizeof s, "new-%d", i);
        fresh &= rt_strtab_intern(a, s, (size_t)n) == 1001 + (uint32_t)i;
    }
    for (uint32_t id = 0; a && id < 1001; id++)
        fresh &= rt_strtab_find(a, rt_strtab_str(t, id), rt_strtab_len(t, id)) == id;
    ok(fresh && rt_strtab_find(a, "new-2999", 8) == 4000, "3,000 new strings get the next ids; the old are still found");
    /* its own image, the attached strings and the new (their arena's length summed as added) */
    size_t len2;
    unsigned char *img2 = image_of(w_strtab, a, &len2);
    rt_strtab *a2 = img2 ? rt_strtab_attach(img2, len2) : NULL;
    same = a2 && len2 == rt_strtab_image_size(a, UINT32_MAX) && rt_strtab_count(a2) == 4001;
    for (uint32_t id = 0; same && id < 4001; id++)
        same &= strcmp(rt_strtab_str(a2, id), rt_strtab_str(a, id)) == 0;
    ok(same, "an image of an attached table and its new strings holds all 4,001");
    rt_strtab_free(&a2);
    free(img2);
    rt_strtab_free(&a);
    free(img);

    /* decimal strings interned by their values (rt_strtab_intern_decimals), then others */
    rt_strtab *v = rt_strtab_new();
    uint32_t vals[500];
    for (int i = 0; i < 500; i++)
        vals[i] = (uint32_t)(i * 7919 % 100003);
    rt_strtab_intern_decimals(v, vals, 500);
    rt_strtab_intern(v, "p-text", 6);
    img2 = image_of(w_strtab, v, &len2);
    a2 = img2 ? rt_strtab_attach(img2, len2) : NULL;
    same = a2 && len2 == rt_strtab_image_size(v, UINT32_MAX) && rt_strtab_count(a2) == rt_strtab_count(v);
    for (uint32_t id = 0; same && id < rt_strtab_count(v); id++)
        same &= strcmp(rt_strtab_str(a2, id), rt_strtab_str(v, id)) == 0;
    ok(same, "an image of decimal ids interned by value holds each (%u)", rt_strtab_count(v));
    rt_strtab_free(&a2);
    rt_strtab_free(&v);
    free(img2);

    /* the first 600 strings only (the table as it was then), decimal ones among them */
    rt_strtab *d = rt_strtab_new();
    for (int i = 0; i < 1000; i++) {
        int n = snprintf(s, sizeof s, i % 2 ? "%d" : "q%d", i * 7);
        rt_strtab_intern(d, s, (size_t)n);
    }
    img = image_of(w_strtab600, d, &len);
    ok(len == rt_strtab_image_size(d, 600) && len % 8 == 0, "an image of the first 600: as long as announced (%zu)", len);
    a = rt_strtab_attach(img, len);
    same = a && rt_strtab_count(a) == 600;
    for (uint32_t id = 0; a && id < 1000; id++)
        same &= rt_strtab_find(a, rt_strtab_str(d, id), rt_strtab_len(d, id)) == (id < 600 ? id : RT_NO_ID);
    ok(same, "it has those 600, each found by its string, and none of the later ones");
    int again = a != NULL;
    for (uint32_t id = 600; a && id < 1000; id++)
        again &= rt_strtab_intern(a, rt_strtab_str(d, id), rt_strtab_len(d, id)) == id;
    ok(again, "interned again in order, the later strings get the ids they had");
    rt_strtab_free(&a);
    rt_strtab_free(&d);
    free(img);

    /* damage */
    img = image_of(w_strtab, t, &len);
    uint64_t *head = (uint64_t *)img;
    uint64_t *off = head + 3;
    off[5] = head[2] + 10;   /* past the strings */
    ok(rt_strtab_attach(img, len) == NULL, "an offset past the strings: refused");
    free(img);
    img = image_of(w_strtab, t, &len);
    head = (uint64_t *)img;
    uint32_t *lens = (uint32_t *)(head + 3 + head[0]);
    lens[7] += 1;   /* now ends on the next string's first byte, not a NUL */
    ok(rt_strtab_attach(img, len) == NULL, "a length that misses the terminating NUL: refused");
    free(img);
    img = image_of(w_strtab, t, &len);
    ok(rt_strtab_attach(img, len - 8) == NULL, "cut short: refused");
    free(img);
    /* every slot filled with ids past the strings: attached (slots are not scanned), but lookups
     * end after one pass and find nothing, and interning still works */
    img = image_of(w_strtab, t, &len);
    head = (uint64_t *)img;
    uint64_t n = head[0], nslots = head[1];
    uint32_t *slots = (uint32_t *)((unsigned char *)(head + 3 + n) + (n * 4 + 7) / 8 * 8);
    for (uint64_t j = 0; j < nslots; j++) {
        slots[2 * j] = (uint32_t)(5000 + j);
        slots[2 * j + 1] = 0;
    }
    a = rt_strtab_attach(img, len);
    ok(a != NULL, "garbage slots: attached");
    ok(a && rt_strtab_find(a, "p1", 2) == RT_NO_ID, "garbage slots: a lookup ends and finds nothing");
    ok(a && rt_strtab_intern(a, "p1", 2) == 1001 && strcmp(rt_strtab_str(a, 1001), "p1") == 0,
       "garbage slots: interning still works (a new id)");
    rt_strtab_free(&a);
    free(img);
    rt_strtab_free(&t);
}

static void test_qrels(void)
{
    const char *path = tmp_file("q1 0 p1 1\nq1 0 p3 0\nq2 0 p2 2\nq1 0 p2 1\nq3 0 p9 1\nq2 0 p1 0\n");
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_qrels *q;
    rt_err err;
    rt_status st = rt_qrels_load(&q, path, RT_QRELS_AUTO, qids, pids, NULL, NULL, &err);
    ok(st == RT_OK, "qrels loaded");
    if (st != RT_OK)
        return;
    rt_strtab_intern(pids, "p-unjudged", 10);
    size_t len;
    unsigned char *img = image_of(w_qrels, q, &len);
    ok(len == rt_qrels_image_size(q), "the image is as long as announced");
    rt_qrels *a = rt_qrels_attach(img, len, path, rt_strtab_count(qids), rt_strtab_count(pids));
    ok(a && rt_qrels_nqueries(a) == 3 && rt_qrels_njudgments(a) == 6 && rt_qrels_format_of(a) == RT_QRELS_TREC,
       "attached: 3 queries, 6 judgments, TREC");
    int same = a != NULL;
    for (uint32_t qid = 0; a && qid < rt_strtab_count(qids); qid++) {
        uint32_t i = rt_qrels_index(q, qid);
        same &= rt_qrels_index(a, qid) == i;
        for (uint32_t pid = 0; i != RT_NO_ID && pid < rt_strtab_count(pids); pid++) {
            int32_t g1 = -9, g2 = -9;
            same &= rt_qrels_lookup(q, i, pid, &g1) == rt_qrels_lookup(a, i, pid, &g2) && g1 == g2;
        }
    }
    ok(same, "every (query, passage) has the same grade or none");
    rt_qrels_free(&a);
    ok(rt_qrels_attach(img, len, path, 2, rt_strtab_count(pids)) == NULL, "fewer qids than it names: refused");
    ok(rt_qrels_attach(img, len, path, rt_strtab_count(qids), 2) == NULL, "fewer pids than it names: refused");
    ok(rt_qrels_attach(img, len - 8, path, rt_strtab_count(qids), rt_strtab_count(pids)) == NULL, "cut short: refused");
    uint64_t *head = (uint64_t *)img;
    uint32_t *qa = (uint32_t *)(head + 4);
    uint32_t *start = qa + (head[1] + 1) / 2 * 2 + (head[2] + 1) / 2 * 2;
    start[1] = 99;   /* the first query's judgments run past the end */
    ok(rt_qrels_attach(img, len, path, rt_strtab_count(qids), rt_strtab_count(pids)) == NULL, "a range past the judgments: refused");
    free(img);
    rt_qrels_free(&q);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
}

static void test_run(void)
{
    const char *path = tmp_file("q2 Q0 p5 1 3.5 sys\nq2 Q0 p1 2 3.5 sys\nq1 Q0 p1 1 9 sys\nq2 Q0 p5 3 1 sys\n"
                                "q1 Q0 p2 2 8.25 sys\nq3 Q0 p7 1 -1e-3 sys\n");
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_run *r;
    rt_err err;
    rt_run_opts o = {0};
    rt_status st = rt_run_load(&r, path, &o, qids, pids, NULL, &err);
    ok(st == RT_OK, "run loaded");
    if (st != RT_OK)
        return;
    size_t len;
    unsigned char *img = image_of(w_run, r, &len);
    ok(len == rt_run_image_size(r), "the image is as long as announced");
    rt_run *a = rt_run_attach(img, len, path, qids, pids);
    const rt_run_info *x = rt_run_get_info(r), *y = a ? rt_run_get_info(a) : NULL;
    ok(y && strcmp(x->name, y->name) == 0 && x->format == y->format && x->hits == y->hits &&
       x->duplicates == y->duplicates && x->first_dup_line == y->first_dup_line && x->lines == y->lines,
       "attached: the same name, format, counts and duplicates");
    int same = a && rt_run_nqueries(a) == rt_run_nqueries(r);
    for (uint32_t i = 0; same && i < rt_run_nqueries(r); i++)
        same &= rt_run_qid(a, i) == rt_run_qid(r, i);
    if (a) {   /* every page mapped at once: a hint, for an attached and a parsed run alike */
        rt_run_populate(a);
        rt_run_populate(r);
    }
    for (uint32_t qid = 0; a && qid < rt_strtab_count(qids) + 2; qid++) {
        rt_run_prefetch(a, qid);   /* a read-ahead hint, for known and unknown qids alike */
        rt_run_prefetch(r, qid);
        size_t n1, n2;
        const uint32_t *p1 = rt_run_ranking(r, qid, &n1), *p2 = rt_run_ranking(a, qid, &n2);
        same &= n1 == n2 && (!n1 || memcmp(p1, p2, n1 * 4) == 0);
    }
    ok(same, "the same queries and rankings, each read after a prefetch");
    rt_run_free(&a);
    a = rt_run_attach(img, len, path, qids, pids);
    atomic_int go = 0;
    rt_run_check_all(a, &go);   /* what the warming thread does: checked ahead, the same rankings */
    rt_run_check_all(r, &go);   /* parsed: nothing to check */
    same = a != NULL;
    for (uint32_t qid = 0; a && qid < rt_strtab_count(qids) + 2; qid++) {
        size_t n1, n2;
        const uint32_t *p1 = rt_run_ranking(r, qid, &n1), *p2 = rt_run_ranking(a, qid, &n2);
        same &= n1 == n2 && (!n1 || memcmp(p1, p2, n1 * 4) == 0);
    }
    ok(same, "checked ahead (rt_run_check_all): the same rankings");
    rt_run_free(&a);
    rt_strtab *few = rt_strtab_new();
    rt_strtab_intern(few, "p5", 2);
    a = rt_run_attach(img, len, path, qids, few);
    size_t n1 = 9, n2 = 9;
    ok(a && rt_run_ranking(a, rt_strtab_find(qids, "q1", 2), &n1) == NULL && n1 == 0 &&
       rt_run_ranking(a, rt_strtab_find(qids, "q2", 2), &n2) == NULL && n2 == 0,
       "pids past the pid table: those rankings read as none");
    rt_run_free(&a);
    a = rt_run_attach(img, len, path, qids, few);
    rt_run_check_all(a, &go);
    n1 = n2 = 9;
    ok(a && rt_run_ranking(a, rt_strtab_find(qids, "q1", 2), &n1) == NULL && n1 == 0 &&
       rt_run_ranking(a, rt_strtab_find(qids, "q2", 2), &n2) == NULL && n2 == 0,
       "pids past the pid table, checked ahead: those rankings read as none");
    rt_run_free(&a);
    ok(rt_run_attach(img, len - 8, path, qids, pids) == NULL, "cut short: refused");
    rt_strtab_free(&few);
    free(img);
    rt_run_free(&r);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
}

/* Decimal ids take a shortcut (their value indexes the ids): the same ids, strings and lookups as
 * any other string, one by one or in batches, and through an image (which has no shortcut). */
static void test_decimal(void)
{
    const char *v[] = {"7", "007", "0", "00", "12345678", "123456789", "67108864", "67108863", "-1", "1a",
                       "7", "p7", "99999999", "0", "", "3"};
    size_t n = sizeof v / sizeof *v, lens[16];
    uint32_t one[16], many[16];
    rt_strtab *a = rt_strtab_new(), *b = rt_strtab_new();
    for (size_t i = 0; i < n; i++) {
        lens[i] = strlen(v[i]);
        one[i] = rt_strtab_intern(a, v[i], lens[i]);
    }
    rt_strtab_intern_many(b, v, lens, n, many);
    int same = 1;
    for (size_t i = 0; i < n; i++) {
        same &= one[i] == many[i] && strcmp(rt_strtab_str(a, one[i]), v[i]) == 0 &&
                rt_strtab_find(a, v[i], lens[i]) == one[i] && rt_strtab_find(b, v[i], lens[i]) == one[i];
        for (size_t k = 0; k < n; k++)
            same &= (strcmp(v[i], v[k]) == 0) == (one[i] == one[k]);
    }
    ok(same && rt_strtab_count(a) == 14, "decimal and other ids: one id per string, one by one and batched (%u)",
       rt_strtab_count(a));
    ok(rt_strtab_find(a, "8", 1) == RT_NO_ID && rt_strtab_find(a, "70", 2) == RT_NO_ID &&
       rt_strtab_find(a, "07", 2) == RT_NO_ID, "decimals never interned are not found (8, 70, 07)");
    /* many decimals in a batch, with repeats, against one by one */
    enum { N = 20000 };
    static char buf[N][12];
    const char *p[N];
    size_t l[N];
    uint32_t x[N], y[N];
    rt_strtab *c = rt_strtab_new(), *d = rt_strtab_new();
    for (int i = 0; i < N; i++) {
        l[i] = (size_t)snprintf(buf[i], sizeof buf[i], i % 5 ? "%d" : "d%d", (i * 7919) % 9000);
        p[i] = buf[i];
        x[i] = rt_strtab_intern(c, p[i], l[i]);
    }
    rt_strtab_intern_many(d, p, l, N, y);
    ok(memcmp(x, y, sizeof x) == 0 && rt_strtab_count(c) == rt_strtab_count(d),
       "20,000 ids (decimal and not, repeated): batched ids equal one-by-one ids");
    /* num[] grows as a heap block up to 2^16 values, then becomes one reservation of all 2^26:
     * ids interned before and after the change are all found */
    rt_strtab *g = rt_strtab_new();
    uint32_t first = RT_NO_ID, big = RT_NO_ID;
    char nb[12];
    int found = 1;
    for (int k = 0; k <= 3; k++)
        for (int i = 1; i < 70000; i += 7) {
            int nl = snprintf(nb, sizeof nb, "%d", i);
            uint32_t id = rt_strtab_intern(g, nb, (size_t)nl);
            found &= id == (uint32_t)(i / 7);   /* the same id on every pass */
            if (i == 1 && k == 0)
                first = id;
            if (k == 1 && i == 35000 - 35000 % 7 + 1)
                big = rt_strtab_intern(g, "67108863", 8);   /* past the heap block: reserved */
        }
    ok(found && first == 0 && big == 10000 && rt_strtab_find(g, "67108863", 8) == big &&
       rt_strtab_find(g, "69994", 5) == 69993 / 7 && rt_strtab_find(g, "69995", 5) == RT_NO_ID &&
       rt_strtab_count(g) == 10001,
       "decimals 1..69994 interned four times around a value near 2^26: one id each, all found");
    rt_strtab_free(&g);
    size_t len;
    unsigned char *img = image_of(w_strtab, c, &len);
    rt_strtab *e = rt_strtab_attach(img, len);
    same = e != NULL;
    for (int i = 0; e && i < N; i++)
        same &= rt_strtab_find(e, p[i], l[i]) == x[i];
    uint32_t idn = e ? rt_strtab_intern(e, "123456", 6) : 0;
    ok(same && e && rt_strtab_find(e, "123456", 6) == idn && idn == rt_strtab_count(c),
       "through an image: every decimal found by its hash, a new one interned after");
    rt_strtab_free(&e);
    free(img);
    rt_strtab_free(&a);
    rt_strtab_free(&b);
    rt_strtab_free(&c);
    rt_strtab_free(&d);
}

/* Decimal values carried between threads (rt_strtab_decimal, rt_strtab_intern_decimals) give the
 * ids interning their digits gives; such strings live in num[] alone, not in the slots, so a
 * rehash (forced by many other strings after them) and an image must still find every one. */
static void test_decimal_values(void)
{
    uint32_t v = 99;
    ok(rt_strtab_decimal("0", 1, &v) && v == 0 && rt_strtab_decimal("67108863", 8, &v) && v == 67108863 &&
       !rt_strtab_decimal("67108864", 8, &v) && !rt_strtab_decimal("007", 3, &v) &&
       !rt_strtab_decimal("", 0, &v) && !rt_strtab_decimal("-1", 2, &v) && !rt_strtab_decimal("1 ", 2, &v) &&
       !rt_strtab_decimal("123456789", 9, &v),
       "a decimal value: 1-8 digits, no leading zero, below 2^26 (0 and 67108863 yes; 67108864, 007, -1 no)");
    enum { N = 30000 };
    static char buf[N][16];
    static uint32_t one[N], vals[N];
    rt_strtab *a = rt_strtab_new(), *b = rt_strtab_new();
    int isdec[N];
    for (int i = 0; i < N; i++) {
        /* decimals repeated, others ("x…", and "07" which is not canonical) between them */
        int k = (i * 7919) % 12000;
        int n = snprintf(buf[i], sizeof buf[i], i % 7 == 3 ? "x%d" : i % 11 == 5 ? "0%d" : "%d", k * 5003 % 67108863);
        one[i] = rt_strtab_intern(a, buf[i], (size_t)n);
        isdec[i] = rt_strtab_decimal(buf[i], (size_t)n, &vals[i]);
    }
    /* b: the same strings in the same order, stretches of decimals by value, others by text */
    for (int i = 0; i < N;) {
        int e = i;
        if (isdec[i]) {
            while (e < N && isdec[e])
                e++;
            rt_strtab_intern_decimals(b, vals + i, (size_t)(e - i));
        } else {
            while (e < N && !isdec[e])
                e++;
            const char *p[N];
            size_t l[N];
            for (int k = i; k < e; k++) {
                p[k - i] = buf[k];
                l[k - i] = strlen(buf[k]);
            }
            rt_strtab_intern_many(b, p, l, (size_t)(e - i), vals + i);
        }
        i = e;
    }
    int same = rt_strtab_count(a) == rt_strtab_count(b);
    for (int i = 0; same && i < N; i++)
        same &= vals[i] == one[i] && strcmp(rt_strtab_str(b, vals[i]), buf[i]) == 0 &&
                rt_strtab_find(b, buf[i], strlen(buf[i])) == one[i];
    ok(same, "30,000 ids (decimal values and other strings, repeated): the ids of interning their text (%u)",
       rt_strtab_count(b));
    /* many other strings after the decimals: the slots grow (rehash) around num[]'s strings */
    uint32_t before = rt_strtab_count(b);
    for (int i = 0; i < 5000; i++) {
        char s[16];
        int n = snprintf(s, sizeof s, "y%d", i);
        rt_strtab_intern(b, s, (size_t)n);
    }
    same = rt_strtab_count(b) == before + 5000;
    for (int i = 0; same && i < N; i++)
        same &= rt_strtab_find(b, buf[i], strlen(buf[i])) == one[i] &&
                rt_strtab_intern(b, buf[i], strlen(buf[i])) == one[i];
    ok(same, "after 5,000 other strings (the slots rehashed): every string found, none interned twice");
    size_t len;
    unsigned char *img = image_of(w_strtab, b, &len);
    rt_strtab *c = rt_strtab_attach(img, len);
    same = c != NULL && len == rt_strtab_image_size(b, UINT32_MAX) && rt_strtab_count(c) == rt_strtab_count(b);
    for (uint32_t id = 0; same && id < rt_strtab_count(b); id++)
        same &= rt_strtab_find(c, rt_strtab_str(b, id), rt_strtab_len(b, id)) == id;
    uint32_t more = 4242;
    if (c)
        rt_strtab_intern_decimals(c, &more, 1);   /* an image keeps no num[]: by the digits */
    ok(same && c && more == rt_strtab_find(c, "4242", 4) && rt_strtab_find(b, "4242", 4) == RT_NO_ID &&
       more == rt_strtab_count(c) - 1,
       "the image holds num[]'s strings in its slots: every id found by its text; a value interned after");
    /* a value past 2^26 (a caller's mark for a text) stops the stretch, in both kinds of table */
    uint32_t run[4] = {4243, 4243, 0x80000000u, 4244}, run2[3] = {4245, 67108864u, 4246};
    uint32_t count = rt_strtab_count(b);
    int fresh = rt_strtab_find(b, "4243", 4) == RT_NO_ID && rt_strtab_find(b, "4244", 4) == RT_NO_ID &&
                (!c || rt_strtab_find(c, "4246", 4) == RT_NO_ID);
    size_t done = rt_strtab_intern_decimals(b, run, 4);
    size_t done2 = c ? rt_strtab_intern_decimals(c, run2, 3) : 0;
    ok(fresh && done == 2 && run[0] == count && run[1] == count && run[2] == 0x80000000u &&
       run[3] == 4244 && rt_strtab_count(b) == count + 1 && rt_strtab_find(b, "4244", 4) == RT_NO_ID &&
       done2 == 1 && run2[1] == 67108864u && run2[2] == 4246 && rt_strtab_find(c, "4246", 4) == RT_NO_ID,
       "interning values stops at the first one past 2^26, leaving it and the rest as they were");
    rt_strtab_free(&c);
    free(img);
    rt_strtab_free(&a);
    rt_strtab_free(&b);
}

/* rt_run_parse on other threads' behalf, then rt_run_intern in order: the ids, rankings and
 * report of rt_run_load one after the other, whatever order the runs were parsed in. */
static void test_run_parse_intern(void)
{
    const char *p1 = tmp_file("q2 Q0 17 1 3.5 a\nq2 Q0 p1 2 3.25 a\nq1 Q0 017 1 9 a\nq2 Q0 17 3 1 a\n"
                              "q1 Q0 0 2 8.25 a\nq3 Q0 99999999 1 -1e-3 a\nq1 Q0 123456789 3 1 a\n");
    const char *p2 = tmp_file("q9 Q0 5 1 2 b\nq9 Q0 17 2 1 b\nq9 Q0 x5 3 0.5 b\nq1 Q0 0 1 7 b\nq1 Q0 88 2 6 b\n");
    rt_strtab *qa = rt_strtab_new(), *pa = rt_strtab_new(), *qb = rt_strtab_new(), *pb = rt_strtab_new();
    rt_report *ra = rt_report_new(), *rb = rt_report_new();
    rt_run_opts o = {0};
    rt_err err;
    rt_run *a1 = NULL, *a2 = NULL, *b1 = NULL, *b2 = NULL;
    rt_status st = rt_run_load(&a1, p1, &o, qa, pa, ra, &err);
    if (st == RT_OK)
        st = rt_run_load(&a2, p2, &o, qa, pa, ra, &err);
    if (st == RT_OK)
        st = rt_run_parse(&b2, p2, &o, &err);   /* the second parsed first */
    if (st == RT_OK)
        st = rt_run_parse(&b1, p1, &o, &err);
    ok(st == RT_OK, "runs loaded and parsed");
    if (st != RT_OK)
        return;
    rt_run_intern(b1, qb, pb, p1, rb, NULL, NULL);
    rt_run_intern(b2, qb, pb, p2, rb, NULL, NULL);
    int same = rt_strtab_count(qa) == rt_strtab_count(qb) && rt_strtab_count(pa) == rt_strtab_count(pb) &&
               rt_report_count(ra) == rt_report_count(rb);
    for (uint32_t id = 0; same && id < rt_strtab_count(pa); id++)
        same &= strcmp(rt_strtab_str(pa, id), rt_strtab_str(pb, id)) == 0;
    for (uint32_t id = 0; same && id < rt_strtab_count(qa); id++)
        same &= strcmp(rt_strtab_str(qa, id), rt_strtab_str(qb, id)) == 0;
    for (size_t i = 0; same && i < rt_report_count(ra); i++)
        same &= strcmp(rt_report_line(ra, i, NULL), rt_report_line(rb, i, NULL)) == 0;
    rt_run *x[2][2] = {{a1, a2}, {b1, b2}};
    for (int r = 0; same && r < 2; r++) {
        same &= rt_run_nqueries(x[0][r]) == rt_run_nqueries(x[1][r]);
        for (uint32_t q = 0; same && q < rt_strtab_count(qa); q++) {
            size_t n1, n2;
            const uint32_t *i1 = rt_run_ranking(x[0][r], q, &n1), *i2 = rt_run_ranking(x[1][r], q, &n2);
            same &= n1 == n2 && (!n1 || memcmp(i1, i2, n1 * 4) == 0);
        }
    }
    ok(same, "parsed in another order, interned in order: the same ids, rankings and report (%u pids)",
       rt_strtab_count(pb));
    ok(rt_strtab_find(pb, "17", 2) != rt_strtab_find(pb, "017", 3) && rt_strtab_find(pb, "x5", 2) != RT_NO_ID &&
       rt_strtab_find(pb, "123456789", 9) != RT_NO_ID,
       "decimal pids, 017, x5 and a 9-digit pid: each its own id");
    rt_run_free(&a1);
    rt_run_free(&a2);
    rt_run_free(&b1);
    rt_run_free(&b2);
    rt_run *c = NULL;   /* a parsed run freed without interning: nothing leaks (ASan) */
    ok(rt_run_parse(&c, p2, &o, &err) == RT_OK, "a parsed run can be dropped uninterned");
    rt_run_free(&c);
    rt_report_free(&ra);
    rt_report_free(&rb);
    rt_strtab_free(&qa);
    rt_strtab_free(&pa);
    rt_strtab_free(&qb);
    rt_strtab_free(&pb);
}

/* A string just under a large table's 4 MiB chunk, then more: each kept whole in a chunk that
 * holds it (a chunk of 4 MiB less its header once overflowed by such a string, and every later
 * string went past it; found by review, shown under ASan). */
static void test_long_string(void)
{
    rt_strtab *t = rt_strtab_new();
    char buf[32];
    for (int i = 0; i < 70000; i++)
        rt_strtab_intern(t, buf, (size_t)snprintf(buf, sizeof buf, "t%d", i));
    size_t n = ((size_t)4 << 20) - 10;
    char *big = malloc(n);
    memset(big, 'x', n);
    uint32_t id = rt_strtab_intern(t, big, n);
    int same = 1;
    for (int i = 0; i < 300000 && same; i++) {   /* 3 MB more: past the 4 MiB block if it had no room */
        int l = snprintf(buf, sizeof buf, "u%07d", i);
        uint32_t u = rt_strtab_intern(t, buf, (size_t)l);
        same = strcmp(rt_strtab_str(t, u), buf) == 0;
    }
    ok(same && rt_strtab_len(t, id) == n && memcmp(rt_strtab_str(t, id), big, n) == 0 &&
       rt_strtab_str(t, id)[n] == '\0' && rt_strtab_find(t, "t69999", 6) != RT_NO_ID,
       "a string of 4 MiB less 10 bytes in a large table, then 300,000 more: all kept");
    free(big);
    rt_strtab_free(&t);
}

int main(void)
{
    test_long_string();
    test_strtab();
    test_decimal();
    test_decimal_values();
    test_run_parse_intern();
    test_qrels();
    test_run();
    return tap_done();
}
