/* test_leak — the leakage search: exact search equals a brute-force cosine computed here (pairs,
 * scores, order, ties, threshold, k, zero rows, batching); approximate Faiss indexes keep most of
 * the exact neighbours on clustered data; Faiss errors become rt_err; and the built-in embedder
 * finds near-duplicates planted in synthetic short Chinese queries — the recall and the score gap
 * to unrelated queries are printed as TAP diagnostics. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "rt_faiss.h"
#include "rt_leak.h"
#include "rt_mem.h"
#include "rt_ngram.h"
#include "rt_strtab.h"
#include "synth_zh.h"
#include "tap.h"

static double gauss(synth_rng *r)
{
    double u = ((double)(synth_next(r) >> 11) + 0.5) / 9007199254740992.0;
    double v = (double)(synth_next(r) >> 11) / 9007199254740992.0;
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static rt_embed *random_embed(synth_rng *r, size_t n, size_t d)
{
    rt_embed *e = rt_embed_new(n, d);
    for (size_t i = 0; i < n * d; i++)
        e->x[i] = (float)gauss(r);
    return e;
}

typedef struct ref_pair {
    double score;
    uint32_t train;
} ref_pair;

/* The documented order: the score as reported (float), then the training row. */
static int cmp_ref(const void *pa, const void *pb)
{
    const ref_pair *a = pa, *b = pb;
    if ((float)a->score != (float)b->score)
        return (float)a->score > (float)b->score ? -1 : 1;
    return a->train < b->train ? -1 : a->train > b->train;
}

static double norm(const float *v, size_t d)
{
    double s = 0;
    for (size_t j = 0; j < d; j++)
        s += (double)v[j] * v[j];
    return sqrt(s);
}

/* The pairs rt_leak_search must return, by brute force: every cosine in double, zero rows
 * matching nothing, the best k at or above threshold, ties by training row. */
static rt_leak_pair *brute_force(const rt_embed *te, const rt_embed *tr, size_t k, double threshold,
                                 size_t *np)
{
    size_t d = te->d, n = 0;
    rt_leak_pair *out = rt_calloc(te->n * k + 1, sizeof *out);
    /* small k: the best so far, kept in cmp_ref order by insertion; large k: every candidate,
     * sorted (both give what a sort of every candidate gives) */
    int insert = k <= 64;
    ref_pair *best = rt_calloc((insert ? k : tr->n) + 1, sizeof *best);
    double *ntr = rt_calloc(tr->n + 1, sizeof *ntr);
    for (size_t j = 0; j < tr->n; j++)
        ntr[j] = norm(tr->x + j * d, d);
    for (size_t t = 0; t < te->n; t++) {
        double nt = norm(te->x + t * d, d);
        size_t m = 0;
        for (size_t j = 0; j < tr->n && nt > 0 && k > 0; j++) {
            double nj = ntr[j], dot = 0;
            for (size_t c = 0; c < d; c++)
                dot += (double)te->x[t * d + c] * tr->x[j * d + c];
            if (!(nj > 0 && dot / (nt * nj) >= threshold))
                continue;
            ref_pair p = {dot / (nt * nj), (uint32_t)j};
            if (!insert) {
                best[m++] = p;
                continue;
            }
            if (m == k && cmp_ref(&p, &best[k - 1]) >= 0)
                continue;
            size_t at = m < k ? m++ : k - 1;
            for (; at > 0 && cmp_ref(&p, &best[at - 1]) < 0; at--)
                best[at] = best[at - 1];
            best[at] = p;
        }
        if (!insert)
            qsort(best, m, sizeof *best, cmp_ref);
        for (size_t i = 0; i < m && i < k; i++)
            out[n++] = (rt_leak_pair){(uint32_t)t, best[i].train, (float)best[i].score};
    }
    free(ntr);
    free(best);
    *np = n;
    return out;
}

/* Compares got with the brute-force pairs: same pairs in the same order, scores within 1e-6. */
static void same_pairs(const rt_leak_pair *got, size_t ng, const rt_leak_pair *want, size_t nw,
                       const char *what)
{
    size_t bad = ng == nw ? ng : 0;
    for (size_t i = 0; i < ng && i < nw; i++)
        if (got[i].test != want[i].test || got[i].train != want[i].train ||
            fabs(got[i].score - want[i].score) > 1e-6) {
            bad = i;
            break;
        }
    if (!ok(ng == nw && bad == ng, "%s: %zu pairs equal brute force, in order", what, nw)) {
        printf("#   got %zu pairs, want %zu\n", ng, nw);
        if (bad < ng && bad < nw)
            printf("#   first difference at %zu: got (%u, %u, %.7f), want (%u, %u, %.7f)\n", bad,
                   got[bad].test, got[bad].train, got[bad].score, want[bad].test, want[bad].train,
                   want[bad].score);
    }
}

static void check_blocks(const rt_embed *te, const rt_embed *tr, size_t k, double threshold,
                         size_t batch, size_t train_batch, const char *what)
{
    rt_leak_opts o;
    rt_leak_opts_default(&o);
    o.k = k;
    o.batch = batch;
    o.train_batch = train_batch;
    rt_leak_pair *got = NULL;
    size_t ng = 0, nw = 0;
    rt_err err = {0};
    rt_status st = rt_leak_search(te, tr, &o, threshold, &got, &ng, &err);
    if (!ok(st == RT_OK, "%s: search succeeds", what))
        printf("#   %s\n", err.msg);
    rt_leak_pair *want = brute_force(te, tr, k, threshold, &nw);
    same_pairs(got, ng, want, nw, what);
    free(got);
    free(want);
}

static void check_flat(const rt_embed *te, const rt_embed *tr, size_t k, double threshold,
                       size_t batch, const char *what)
{
    check_blocks(te, tr, k, threshold, batch, 0, what);
}

static rt_embed *copy_embed(const rt_embed *e)
{
    rt_embed *c = rt_embed_new(e->n, e->d);
    memcpy(c->x, e->x, e->n * e->d * sizeof *e->x);
    return c;
}

/* The exact search keeps each test row's best k while the product goes on block by block, and
 * from then on looks only at training rows that may beat the k-th: small blocks and no
 * threshold make it prune many times, with ties at the k-th place spread over blocks. */
static void test_exact_blocks(void)
{
    synth_rng r = {29};
    rt_embed *tr = random_embed(&r, 2000, 16), *te = random_embed(&r, 150, 16);
    /* 30 scaled copies of training row 0, spread over the blocks, and test rows 0 and 1 equal
     * to it (row 1 scaled): a 31-way tie at the top. Training row 1999's copy tie is last. */
    for (size_t c = 0; c < 30; c++)
        for (size_t j = 0; j < 16; j++)
            tr->x[(1 + c * 66) * 16 + j] = tr->x[j] * (float)(0.5 + c % 4);
    for (size_t j = 0; j < 16; j++) {
        te->x[j] = tr->x[j];
        te->x[16 + j] = 7 * tr->x[j];
    }
    check_blocks(te, tr, 3, -1, 0, 37, "k 3, no threshold, training blocks of 37");
    check_blocks(te, tr, 10, -1, 16, 100, "k 10, no threshold, blocks of 16 × 100");
    check_blocks(te, tr, 40, 0.2, 0, 1, "k 40, threshold 0.2, training blocks of 1");
    check_blocks(te, tr, 1, 0.99, 0, 5000, "k 1, threshold 0.99, one block larger than the set");
    /* Test row 2 is e1; training rows 1000.. have cosines 0.9, 0.90001, 0.90002, …: each beats
     * the k-th best so far by less than float32 rounding slack, so a pruned row must still look
     * at products a little below its k-th. */
    memset(te->x + 2 * 16, 0, 16 * sizeof *te->x);
    te->x[2 * 16] = 1;
    for (size_t i = 0; i < 100; i++) {
        double c = 0.9 + 1e-5 * (double)i;
        memset(tr->x + (1000 + i) * 16, 0, 16 * sizeof *tr->x);
        tr->x[(1000 + i) * 16] = (float)c;
        tr->x[(1000 + i) * 16 + 1] = (float)sqrt(1 - c * c);
    }
    check_blocks(te, tr, 3, 0.5, 0, 64, "cosines rising by 1e-5, k 3");
    /* Thresholds equal to some pairs' cosines (as the brute force computes them): the float32
     * product may fall just below, and the pair must still be reported. */
    for (size_t p = 0; p < 3; p++) {
        size_t t = 20 + p, j = 300 + 7 * p;
        double dot = 0;
        for (size_t c = 0; c < 16; c++)
            dot += (double)te->x[t * 16 + c] * tr->x[j * 16 + c];
        double th = dot / (norm(te->x + t * 16, 16) * norm(tr->x + j * 16, 16));
        check_blocks(te, tr, 2000, th, 0, 0, "threshold equal to a pair's cosine");
    }
    /* In place (unit rows, one of them zero) rather than through normalised copies. */
    rt_embed *tru = copy_embed(tr), *teu = copy_embed(te);
    rt_err err = {0};
    ok(rt_embed_normalize(tru, "train", &err) == RT_OK && rt_embed_normalize(teu, "test", &err) == RT_OK,
       "normalised copies");
    memset(tru->x + 45 * 16, 0, 16 * sizeof *tru->x);
    memset(teu->x + 9 * 16, 0, 16 * sizeof *teu->x);
    check_blocks(teu, tru, 5, -1, 64, 128, "unit and zero rows, k 5, no threshold, blocks of 64 × 128");
    check_blocks(teu, tru, 2000, -2, 0, 300, "unit and zero rows, k = all, blocks of 300");
    /* A training row so short that its sum of squares underflows in float is not a zero row:
     * test row 11 has its direction, and finds it. */
    memcpy(teu->x + 11 * 16, tru->x + 46 * 16, 16 * sizeof *teu->x);
    for (size_t j = 0; j < 16; j++)
        tru->x[46 * 16 + j] *= 1e-25f;
    check_blocks(teu, tru, 5, 0.5, 0, 0, "a training row of length 1e-25");
    rt_embed_free(&tru);
    rt_embed_free(&teu);
    rt_embed_free(&tr);
    rt_embed_free(&te);
}

static void test_flat_equals_brute_force(void)
{
    synth_rng r = {7};
    rt_embed *tr = random_embed(&r, 3000, 24), *te = random_embed(&r, 300, 24);
    /* Test rows near training rows, so that high thresholds keep some pairs. */
    for (size_t t = 0; t < 100; t++)
        for (size_t j = 0; j < 24; j++)
            te->x[t * 24 + j] = tr->x[(t * 29) * 24 + j] * 3 + (float)(0.3 * gauss(&r));
    check_flat(te, tr, 10, 0.3, 0, "random, k 10, threshold 0.3");
    check_flat(te, tr, 5, 0.9, 0, "random, k 5, threshold 0.9");
    check_flat(te, tr, 20, -1, 64, "random, k 20, no threshold, batches of 64");
    check_flat(te, tr, 1, 0.5, 7, "random, k 1, batches of 7");
    /* Unit rows take another path into the index (added as they are, in one call). */
    rt_embed *tru = copy_embed(tr), *teu = copy_embed(te);
    rt_err err = {0};
    ok(rt_embed_normalize(tru, "train", &err) == RT_OK && rt_embed_normalize(teu, "test", &err) == RT_OK,
       "normalised copies");
    check_flat(teu, tru, 10, 0.3, 0, "unit rows, k 10, threshold 0.3");
    rt_embed_free(&tru);
    rt_embed_free(&teu);

    /* Ties: 40 copies of one training row (scaled: cosine ignores length) and a test row equal
     * to it. The tie group outgrows the k + margin candidates: the row is searched again. */
    for (size_t c = 0; c < 40; c++)
        for (size_t j = 0; j < 24; j++)
            tr->x[(100 + c * 71) * 24 + j] = tr->x[5 * 24 + j] * (float)(1 + c % 3);
    for (size_t j = 0; j < 24; j++)
        te->x[200 * 24 + j] = tr->x[5 * 24 + j];
    check_flat(te, tr, 10, 0.5, 0, "41 tied training rows, k 10");
    check_flat(te, tr, 50, 0.5, 0, "41 tied training rows, k 50");

    /* Zero rows have no direction and match nothing, even without a threshold. */
    memset(tr->x + 17 * 24, 0, 24 * sizeof *tr->x);
    memset(te->x + 3 * 24, 0, 24 * sizeof *te->x);
    check_flat(te, tr, 3000, -2, 0, "zero rows, k = all training rows, no threshold");
    rt_embed *small = random_embed(&r, 4, 24);
    check_flat(te, small, 10, -2, 0, "k larger than the training set");
    rt_embed_free(&small);
    rt_embed_free(&tr);
    rt_embed_free(&te);
}

/* ---- approximate indexes --------------------------------------------------------------------- */

/* n points around 64 random centres in d dimensions, close enough that clusters overlap. */
#define NOISE 1.0
static rt_embed *clustered(synth_rng *r, const rt_embed *centres, size_t n)
{
    size_t d = centres->d;
    rt_embed *e = rt_embed_new(n, d);
    for (size_t i = 0; i < n; i++) {
        const float *c = centres->x + synth_below(r, centres->n) * d;
        for (size_t j = 0; j < d; j++)
            e->x[i * d + j] = c[j] + (float)(NOISE * gauss(r));
    }
    return e;
}

/* Checks that spec (with params) finds at least bound of the exact top-10 pairs; returns the
 * share it found. */
static double check_recall(const rt_embed *te, const rt_embed *tr, const char *spec, const char *params,
                           double bound)
{
    rt_leak_opts o;
    rt_leak_opts_default(&o);
    o.k = 10;
    o.index_spec = spec;
    o.index_params = params;
    rt_leak_pair *got = NULL;
    size_t ng = 0, nw = 0;
    rt_err err = {0};
    rt_status st = rt_leak_search(te, tr, &o, -1, &got, &ng, &err);
    if (!ok(st == RT_OK, "%s (%s): search succeeds", spec, params ? params : "defaults"))
        printf("#   %s\n", err.msg);
    rt_leak_pair *want = brute_force(te, tr, 10, -1, &nw);
    /* Recall@10: the share of exact top-10 pairs that the index returned. */
    size_t hit = 0, g = 0;
    for (size_t w = 0; w < nw; w++) {
        while (g < ng && got[g].test < want[w].test)
            g++;
        for (size_t h = g; h < ng && got[h].test == want[w].test; h++)
            if (got[h].train == want[w].train) {
                hit++;
                break;
            }
    }
    double recall = nw ? (double)hit / (double)nw : 0;
    ok(recall >= bound, "%s (%s): recall@10 against exact search %.3f ≥ %.2f", spec,
       params ? params : "defaults", recall, bound);
    free(got);
    free(want);
    return recall;
}

static void test_factory_indexes(void)
{
    synth_rng r = {11};
    rt_embed *centres = random_embed(&r, 64, 32);
    rt_embed *tr = clustered(&r, centres, 2500), *te = clustered(&r, centres, 200);
    check_recall(te, tr, "Flat", NULL, 1.0);
    double r8 = check_recall(te, tr, "IVF32,Flat", "nprobe=8", 0.9);
    double r1 = check_recall(te, tr, "IVF32,Flat", "nprobe=1", 0.5);
    ok(r1 < r8, "the parameters reach the index: nprobe=1 finds less (%.3f) than nprobe=8 (%.3f)", r1, r8);
    check_recall(te, tr, "HNSW32", "efSearch=128", 0.9);
    check_recall(te, tr, "IVF32,SQ8", "nprobe=8", 0.8);
    rt_embed_free(&centres);
    rt_embed_free(&tr);
    rt_embed_free(&te);
}

static void expect_error(const rt_embed *te, const rt_embed *tr, const char *spec, const char *params,
                         size_t k, rt_status want, const char *needle, const char *what)
{
    rt_leak_opts o;
    rt_leak_opts_default(&o);
    o.index_spec = spec;
    o.index_params = params;
    o.k = k;
    rt_leak_pair *got = (rt_leak_pair *)1;
    size_t ng = 1;
    rt_err err = {0};
    rt_status st = rt_leak_search(te, tr, &o, 0.5, &got, &ng, &err);
    if (!ok(st == want && got == NULL && ng == 0 && strstr(err.msg, needle), "%s", what))
        printf("#   status %d: %s\n#   wanted: %s\n", (int)st, err.msg, needle);
    else
        printf("#   %s\n", err.msg);
}

static void test_errors(void)
{
    synth_rng r = {13};
    rt_embed *tr = random_embed(&r, 100, 16), *te = random_embed(&r, 10, 16), *te8 = random_embed(&r, 10, 8);
    expect_error(te, tr, "NoSuchIndex", NULL, 10, RT_EUSAGE, "Faiss: index 'NoSuchIndex':",
                 "a bad factory string is a usage error with Faiss's message");
    expect_error(te, tr, "IVF1024,Flat", NULL, 10, RT_EINPUT, "Faiss: training the index:",
                 "IVF with fewer training rows than centroids is an input error");
    expect_error(te, tr, "HNSW8", "nosuchparameter=3", 10, RT_EUSAGE, "Faiss: index parameters 'nosuchparameter=3':",
                 "a bad index parameter is a usage error");
    expect_error(te8, tr, NULL, NULL, 10, RT_EINPUT, "the test vectors have dimension 8, the training vectors 16",
                 "different dimensions");
    expect_error(te, tr, NULL, NULL, 0, RT_EUSAGE, "k must be at least 1", "k 0");

    rt_leak_pair *got = NULL;
    size_t ng = 0;
    rt_err err = {0};
    rt_status st = rt_leak_find(NULL, 10, NULL, 99, te, tr, NULL, &got, &ng, &err);
    ok(st == RT_EINPUT && strstr(err.msg, "100 training vectors for 99 training queries"),
       "rt_leak_find: row counts must match the texts");
    st = rt_leak_find(NULL, 10, NULL, 100, te, NULL, NULL, &got, &ng, &err);
    ok(st == RT_EUSAGE, "rt_leak_find: embeddings on one side only is a usage error");
    st = rt_leak_find(NULL, 10, NULL, 100, te, tr, NULL, &got, &ng, &err);
    ok(st == RT_OK && ng == 0, "rt_leak_find: random 16-d vectors never reach the default 0.91");
    free(got);
    rt_embed_free(&tr);
    rt_embed_free(&te);
    rt_embed_free(&te8);
}

/* ---- planted near-duplicates with the built-in embedder ------------------------------------- */

#define NTRAIN 2000
#define NFRESH 500

typedef struct planted {
    char *train[NTRAIN];
    char *test[NTRAIN + NFRESH];   /* test i < NTRAIN is an edit of train i; the rest are fresh */
} planted;

static void make_planted(planted *p)
{
    synth_rng r = {2022};
    rt_strtab *seen = rt_strtab_new();
    char buf[64], ed[96];
    for (size_t i = 0; i < NTRAIN + NFRESH;) {
        synth_query(&r, buf, sizeof buf);
        uint32_t before = rt_strtab_count(seen);
        rt_strtab_intern(seen, buf, strlen(buf));
        if (rt_strtab_count(seen) == before)
            continue;   /* distinct queries only: a repeat would be a true duplicate */
        if (i < NTRAIN) {
            p->train[i] = rt_strdup(buf);
            synth_edit_query(&r, buf, (synth_edit)(i % SYNTH_NEDITS), ed);
            p->test[i] = rt_strdup(ed);
        } else {
            p->test[i] = rt_strdup(buf);
        }
        i++;
    }
    rt_strtab_free(&seen);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(double *v, size_t n, double q)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[(size_t)(q * (double)(n - 1))];
}

/* Recall at the default threshold and k, per edit kind. */
static void planted_recall(const planted *p)
{
    rt_leak_pair *got = NULL;
    size_t ng = 0;
    rt_err err = {0};
    rt_status st = rt_leak_find((const char *const *)p->test, NTRAIN + NFRESH,
                                (const char *const *)p->train, NTRAIN, NULL, NULL, NULL, &got, &ng, &err);
    if (!ok(st == RT_OK, "built-in: rt_leak_find succeeds"))
        printf("#   %s\n", err.msg);
    size_t found[SYNTH_NEDITS] = {0}, total = 0, fresh_matched = 0;
    unsigned char *seen_fresh = rt_calloc(NFRESH, 1);
    for (size_t i = 0; i < ng; i++) {
        if (got[i].test < NTRAIN && got[i].train == got[i].test)
            found[got[i].test % SYNTH_NEDITS]++;
        else if (got[i].test >= NTRAIN && !seen_fresh[got[i].test - NTRAIN]++)
            fresh_matched++;
    }
    for (int e = 0; e < SYNTH_NEDITS; e++)
        total += found[e];
    double recall = (double)total / NTRAIN;
    printf("# planted edits found at the default threshold %.2f (k %d): %zu of %d = %.1f%%\n",
           RT_NGRAM_THRESHOLD, RT_LEAK_K, total, NTRAIN, 100 * recall);
    for (int e = 0; e < SYNTH_NEDITS; e++)
        printf("#   %-12s %zu of %d = %.1f%%\n", synth_edit_names[e], found[e], NTRAIN / SYNTH_NEDITS,
               100.0 * (double)found[e] / (NTRAIN / SYNTH_NEDITS));
    printf("# fresh test queries (not in train) with a match: %zu of %d = %.1f%%\n", fresh_matched,
           NFRESH, 100.0 * (double)fresh_matched / NFRESH);
    ok(recall >= 0.97, "built-in: planted recall %.3f ≥ 0.97", recall);
    ok(found[SYNTH_PUNCT] == NTRAIN / SYNTH_NEDITS && found[SYNTH_SPACE] == NTRAIN / SYNTH_NEDITS,
       "built-in: every added punctuation mark or space is found");
    ok(fresh_matched <= NFRESH / 20, "built-in: at most 5%% of fresh queries match anything (%zu)", fresh_matched);
    free(seen_fresh);
    free(got);
}

/* The score of each edited query with its source against its best unrelated training query. */
static void planted_gap(const planted *p)
{
    rt_leak_opts o;
    rt_leak_opts_default(&o);
    o.k = 2;
    o.threshold = -1;
    rt_leak_pair *got = NULL;
    size_t ng = 0;
    rt_err err = {0};
    rt_status st = rt_leak_find((const char *const *)p->test, NTRAIN, (const char *const *)p->train,
                                NTRAIN, NULL, NULL, &o, &got, &ng, &err);
    ok(st == RT_OK && ng == 2 * NTRAIN, "built-in: top 2 of every edited query");
    double *src = rt_calloc(NTRAIN, sizeof *src), *other = rt_calloc(NTRAIN, sizeof *other);
    double *edit_src[SYNTH_NEDITS];
    size_t nedit[SYNTH_NEDITS] = {0};
    for (int e = 0; e < SYNTH_NEDITS; e++)
        edit_src[e] = rt_calloc(NTRAIN, sizeof *edit_src[e]);
    for (size_t i = 0; i + 1 < ng; i += 2) {
        uint32_t t = got[i].test;
        const rt_leak_pair *a = &got[i], *b = &got[i + 1];
        /* When the source is not in the top 2, the best unrelated is the first. */
        src[t] = a->train == t ? a->score : b->train == t ? b->score : 0;
        other[t] = a->train == t ? b->score : a->score;
        edit_src[t % SYNTH_NEDITS][nedit[t % SYNTH_NEDITS]++] = src[t];
    }
    double med_src = quantile(src, NTRAIN, 0.5), p5_src = quantile(src, NTRAIN, 0.05);
    double med_other = quantile(other, NTRAIN, 0.5), p95_other = quantile(other, NTRAIN, 0.95),
           p99_other = quantile(other, NTRAIN, 0.99);
    printf("# cosine of an edited query with its source: median %.3f, 5th percentile %.3f\n", med_src, p5_src);
    for (int e = 0; e < SYNTH_NEDITS; e++)
        printf("#   %-12s min %.3f, median %.3f\n", synth_edit_names[e],
               quantile(edit_src[e], nedit[e], 0), quantile(edit_src[e], nedit[e], 0.5));
    printf("# its best unrelated training query: median %.3f, 95th percentile %.3f, 99th %.3f\n",
           med_other, p95_other, p99_other);
    ok(med_src - med_other >= 0.4, "built-in: median gap %.3f ≥ 0.4", med_src - med_other);
    ok(p5_src > p95_other, "built-in: 5th percentile of sources above the 95th of unrelated");
    for (int e = 0; e < SYNTH_NEDITS; e++)
        free(edit_src[e]);
    free(src);
    free(other);
    free(got);
}

static void test_planted(void)
{
    planted *p = rt_calloc(1, sizeof *p);
    make_planted(p);
    printf("# e.g. %s → %s, %s → %s, %s → %s\n", p->train[0], p->test[0], p->train[1], p->test[1],
           p->train[2], p->test[2]);
    planted_recall(p);
    planted_gap(p);
    for (size_t i = 0; i < NTRAIN; i++)
        free(p->train[i]);
    for (size_t i = 0; i < NTRAIN + NFRESH; i++)
        free(p->test[i]);
    free(p);
}

int main(void)
{
    rt_faiss_set_module(getenv("RETRIAGE_FAISS_MODULE"));   /* the build tree's, as the program does */
    test_flat_equals_brute_force();
    test_exact_blocks();
    test_factory_indexes();
    test_errors();
    test_planted();
    return tap_done();
}
