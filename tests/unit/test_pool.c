/* test_pool — depth-k pools: the union of the runs' top k, reciprocal-rank-fusion order and its
 * tie order (best rank, then pid bytes, not intern order), depths beyond the rankings and depth 1,
 * queries some runs lack, independence from the order of the runs, the queries to pool, and a
 * randomised comparison with a direct computation (plus the time per call, as a diagnostic). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_pool.h"
#include "tap.h"

static rt_strtab *qids, *pids;

/* Loads a run written as TSV qid<TAB>pid<TAB>rank lines (ranked in file order). */
static rt_run *load(const char *text)
{
    rt_run *run = NULL;
    rt_err err;
    rt_run_opts o = {.format = RT_RUN_AUTO};
    if (rt_run_load(&run, tmp_file(text), &o, qids, pids, NULL, &err) != RT_OK) {
        printf("# %s\n", err.msg);
        exit(2);
    }
    return run;
}

static uint32_t qid_of(const char *s) { return rt_strtab_find(qids, s, strlen(s)); }

/* The pool as "pid pid …", for comparing orders at a glance. */
static const char *pool_str(const rt_pool_entry *e, size_t n)
{
    static char buf[1024];
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? " " : "",
                                rt_strtab_str(pids, e[i].pid));
    return buf;
}

static const rt_pool_entry *find(const rt_pool_entry *e, size_t n, const char *pid)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(rt_strtab_str(pids, e[i].pid), pid) == 0)
            return &e[i];
    return NULL;
}

/* q1: A = a b c d, B = c a e, C = f; q2: A = x y, B = y z (C lacks q2); q3 only in B.
 * C is loaded first, so f is interned before c although "c" < "f" in byte order. */
static rt_run *A, *B, *C;

static void test_small(void)
{
    C = load("q1\tf\t1\n");
    A = load("q1\ta\t1\nq1\tb\t2\nq1\tc\t3\nq1\td\t4\nq2\tx\t1\nq2\ty\t2\n");
    B = load("q3\tw\t1\nq2\ty\t1\nq2\tz\t2\nq1\tc\t1\nq1\ta\t2\nq1\te\t3\n");
    ok(rt_strtab_find(pids, "f", 1) < rt_strtab_find(pids, "c", 1),
       "f is interned before c (so byte order and intern order differ)");
    const rt_run *runs[] = {A, B, C};
    rt_pool_entry *e = NULL;
    size_t cap = 0, n;
    const double k = RT_POOL_RRF_K;

    n = rt_pool_query(runs, 3, qid_of("q1"), 2, pids, &e, &cap);
    is_int(n, 4, "depth 2: the union of a b | c a | f has 4 passages");
    is_str(pool_str(e, n), "a c f b", "depth 2: RRF order; c and f tie (1/61, best rank 1): byte order");
    const rt_pool_entry *a = find(e, n, "a");
    ok(a && a->rrf == 1 / (k + 1) + 1 / (k + 2), "a: rrf = 1/61 + 1/62 exactly");
    ok(a && a->best_rank == 1 && a->nruns == 2 && a->runs == 3, "a: best rank 1, 2 runs, runs A and B");
    const rt_pool_entry *f = find(e, n, "f");
    ok(f && f->rrf == 1 / (k + 1) && f->best_rank == 1 && f->nruns == 1 && f->runs == 4,
       "f: 1/61, best rank 1, pooled by run C only");
    const rt_pool_entry *b = find(e, n, "b");
    ok(b && b->rrf == 1 / (k + 2) && b->best_rank == 2 && b->nruns == 1 && b->runs == 1,
       "b: 1/62, best rank 2, pooled by run A only");
    ok(!find(e, n, "d") && !find(e, n, "e"), "depth 2: passages ranked 3rd or lower are not pooled");

    n = rt_pool_query(runs, 3, qid_of("q1"), 100, pids, &e, &cap);
    is_int(n, 6, "depth beyond every ranking: all 6 retrieved passages");
    is_str(pool_str(e, n), "a c f b e d", "depth 100: 1/61+1/62 > 1/61+1/63 > 1/61 > 1/62 > 1/63 > 1/64");
    const rt_pool_entry *c = find(e, n, "c");
    ok(c && c->rrf == 1 / (k + 1) + 1 / (k + 3) && c->best_rank == 1 && c->nruns == 2,
       "c: ranks 3 (A) and 1 (B) sum to 1/61 + 1/63, best rank 1");

    n = rt_pool_query(runs, 3, qid_of("q1"), 1, pids, &e, &cap);
    is_str(pool_str(e, n), "a c f", "depth 1: each run's first passage; all tie at 1/61, byte order");
    ok(e[0].nruns == 1 && e[1].nruns == 1 && e[2].nruns == 1, "depth 1: each pooled by one run");

    n = rt_pool_query(runs, 3, qid_of("q2"), 10, pids, &e, &cap);
    is_str(pool_str(e, n), "y x z", "q2 (absent from run C): y (2nd + 1st) before x and z");
    ok(e[0].nruns == 2 && e[0].rrf == 1 / (k + 1) + 1 / (k + 2) && e[0].runs == 3,
       "q2: y pooled by A and B");

    n = rt_pool_query(runs, 3, qid_of("q3"), 10, pids, &e, &cap);
    is_str(pool_str(e, n), "w", "q3: only in run B");
    size_t cap_before = cap;
    rt_pool_entry *buf_before = e;
    n = rt_pool_query(runs, 3, qid_of("q1"), 0, pids, &e, &cap);
    is_int(n, 0, "depth 0 pools nothing");
    n = rt_pool_query(runs, 3, rt_strtab_intern(qids, "nowhere", 7), 10, pids, &e, &cap);
    is_int(n, 0, "a query no run has: an empty pool");
    ok(e == buf_before && cap == cap_before, "empty pools leave the buffer alone");
    n = rt_pool_query(runs, 0, qid_of("q1"), 10, pids, &e, &cap);
    is_int(n, 0, "no runs: an empty pool");

    /* The order of the runs changes only the bits of the run mask. */
    rt_pool_entry *e2 = NULL;
    size_t cap2 = 0;
    const rt_run *perm[] = {C, B, A};
    n = rt_pool_query(runs, 3, qid_of("q1"), 3, pids, &e, &cap);
    size_t n2 = rt_pool_query(perm, 3, qid_of("q1"), 3, pids, &e2, &cap2);
    int same = n == n2;
    for (size_t i = 0; same && i < n; i++)
        same = e[i].pid == e2[i].pid && e[i].rrf == e2[i].rrf && e[i].best_rank == e2[i].best_rank &&
               e[i].nruns == e2[i].nruns;
    ok(same, "runs in another order: the same pool, bit-equal rrf");
    const rt_pool_entry *a2 = find(e2, n2, "a");
    ok(a2 && a2->runs == 6, "runs in another order: the mask follows the positions (B=1, A=2)");
    free(e2);
    free(e);
}

/* RRF with the constant 0: 1/2 + 1/2 == 1/1 exactly, so the tie goes to the better best rank. */
static void test_tie_best_rank(void)
{
    rt_run *R1 = load("t\tq\t1\nt\tp\t2\n");
    rt_run *R2 = load("t\ts\t1\nt\tp\t2\n");
    rt_run *R3 = load("t\tr\t1\n");
    const rt_run *runs[] = {R1, R2, R3};
    rt_pool_entry *e = NULL;
    size_t cap = 0;
    rt_pool_opts o = {.depth = 2, .rrf_k = 0};
    size_t n = rt_pool_query_opts(runs, 3, qid_of("t"), &o, pids, &e, &cap);
    /* q, s, r: 1/1 at rank 1 each; p: 1/2 + 1/2 = 1 at best rank 2 → last among equals. */
    is_str(pool_str(e, n), "q r s p", "rrf_k 0: equal rrf 1.0; best rank 1 first (byte order), p (best 2) last");
    ok(e[3].rrf == 1.0 && e[3].nruns == 2 && e[3].best_rank == 2, "p: rrf 1/2 + 1/2 = 1, two runs, best rank 2");
    free(e);
    rt_run_free(&R1);
    rt_run_free(&R2);
    rt_run_free(&R3);
}

/* Ties between pids whose bytes differ beyond ASCII: byte order, not code points or intern order. */
static void test_tie_bytes(void)
{
    rt_run *R1 = load("u\t文\t1\n");
    rt_run *R2 = load("u\tz\t1\n");
    rt_run *R3 = load("u\tZ\t1\n");
    const rt_run *runs[] = {R1, R2, R3};
    rt_pool_entry *e = NULL;
    size_t cap = 0;
    size_t n = rt_pool_query(runs, 3, qid_of("u"), 5, pids, &e, &cap);
    is_str(pool_str(e, n), "Z z 文", "ties ordered by unsigned bytes: Z (0x5a) z (0x7a) 文 (0xe6…)");
    free(e);
    rt_run_free(&R1);
    rt_run_free(&R2);
    rt_run_free(&R3);
}

static void test_queries(void)
{
    const rt_run *runs[] = {A, B, C};
    uint32_t *q = NULL;
    size_t n = rt_pool_queries(runs, 3, qids, NULL, &q);
    int good = n == 3 && q[0] == qid_of("q1") && q[1] == qid_of("q2") && q[2] == qid_of("q3");
    ok(good, "queries: A's order (q1 q2), then B's new one (q3)");
    free(q);
    const rt_run *rev[] = {B, A};
    n = rt_pool_queries(rev, 2, qids, NULL, &q);
    good = n == 3 && q[0] == qid_of("q3") && q[1] == qid_of("q2") && q[2] == qid_of("q1");
    ok(good, "queries: B first gives B's order (q3 q2 q1)");
    free(q);

    rt_qrels *qr = NULL;
    rt_err err;
    rt_load_opts lo = {0};
    rt_status st = rt_qrels_load(&qr, tmp_file("q9 0 a 1\nq3 0 w 0\nq2 0 x 1\n"), RT_QRELS_AUTO,
                                 qids, pids, &lo, NULL, &err);
    ok(st == RT_OK, "qrels load");
    n = rt_pool_queries(runs, 3, qids, qr, &q);
    good = n == 2 && q[0] == qid_of("q2") && q[1] == qid_of("q3");
    ok(good, "queries restricted to qrels: q2 q3 in run order; q9 (in no run) and q1 (unjudged) left out");
    free(q);
    n = rt_pool_queries(runs, 0, qids, qr, &q);
    ok(n == 0 && q != NULL, "no runs: no queries, and a pointer the caller can free");
    free(q);
    rt_qrels_free(&qr);
}

/* ---- randomised: against a direct computation -------------------------------------------------- */

static unsigned long long rng = 88172645463325252ULL;
static unsigned next_rand(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Writes nruns runs of nq queries, each ranking len of npid passages (no duplicates). */
static void random_runs(rt_run **runs, size_t nruns, int nq, int len, unsigned npid)
{
    char *text = rt_malloc((size_t)nq * (size_t)len * 32 + 1);
    unsigned *perm = rt_malloc(npid * sizeof *perm);
    for (size_t r = 0; r < nruns; r++) {
        size_t off = 0;
        for (int q = 0; q < nq; q++) {
            for (unsigned i = 0; i < npid; i++)
                perm[i] = i;
            for (int i = 0; i < len; i++) {
                unsigned j = (unsigned)i + next_rand(npid - (unsigned)i);
                unsigned t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
                off += (size_t)sprintf(text + off, "r%d\tp%u\t%d\n", q, perm[i], i + 1);
            }
        }
        runs[r] = load(text);
    }
    free(perm);
    free(text);
}

static int pool_less(const rt_pool_entry *a, const rt_pool_entry *b)
{
    if (a->rrf != b->rrf)
        return a->rrf > b->rrf;
    if (a->best_rank != b->best_rank)
        return a->best_rank < b->best_rank;
    return strcmp(rt_strtab_str(pids, a->pid), rt_strtab_str(pids, b->pid)) < 0;
}

/* Checks one pool against a direct computation: each pooled pid's figures from the rankings, the
 * order strict in pool order, and the size equal to the number of distinct top-depth pids. */
static int check_direct(rt_run *const *runs, size_t nruns, uint32_t qid, size_t depth,
                        const rt_pool_entry *e, size_t n)
{
    size_t distinct = 0;
    for (size_t r = 0; r < nruns; r++) {
        size_t len;
        const uint32_t *p = rt_run_ranking(runs[r], qid, &len);
        for (size_t i = 0; i < len && i < depth; i++) {
            int earlier = 0;
            for (size_t s = 0; s < r && !earlier; s++) {
                size_t l2;
                const uint32_t *p2 = rt_run_ranking(runs[s], qid, &l2);
                for (size_t j = 0; j < l2 && j < depth; j++)
                    earlier |= p2[j] == p[i];
            }
            distinct += !earlier;
        }
    }
    if (distinct != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        double rrf = 0;
        uint32_t best = UINT32_MAX, nr = 0;
        uint64_t mask = 0;
        for (size_t r = 0; r < nruns; r++) {
            size_t len;
            const uint32_t *p = rt_run_ranking(runs[r], qid, &len);
            for (size_t j = 0; j < len && j < depth; j++)
                if (p[j] == e[i].pid) {
                    rrf += 1.0 / (RT_POOL_RRF_K + j + 1.0);
                    best = (uint32_t)j + 1 < best ? (uint32_t)j + 1 : best;
                    nr++;
                    mask |= (uint64_t)1 << r;
                }
        }
        if (fabs(rrf - e[i].rrf) > 1e-15 || best != e[i].best_rank || nr != e[i].nruns ||
            mask != e[i].runs)
            return 0;
        if (i > 0 && !pool_less(&e[i - 1], &e[i]))
            return 0;
    }
    return 1;
}

static void test_random(void)
{
    enum { NRUNS = 10, NQ = 20, LEN = 120 };
    rt_run *runs[NRUNS];
    random_runs(runs, NRUNS, NQ, LEN, 400);
    rt_pool_entry *e = NULL;
    size_t cap = 0;
    const size_t depths[] = {1, 5, 100, 1000};
    int good = 1;
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++)
        for (int q = 0; q < NQ; q++) {
            char qs[16];
            snprintf(qs, sizeof qs, "r%d", q);
            uint32_t qid = qid_of(qs);
            size_t n = rt_pool_query((const rt_run *const *)runs, NRUNS, qid, depths[d], pids, &e, &cap);
            if (!check_direct(runs, NRUNS, qid, depths[d], e, n)) {
                printf("# query %s depth %zu differs from the direct computation\n", qs, depths[d]);
                good = 0;
            }
        }
    ok(good, "10 random runs, 20 queries, depths 1, 5, 100, 1000: equal to the direct computation");

    /* The judging mode rebuilds a pool on each query change, into the buffer of the last one:
     * the same query gives the same pool every time, whatever was built in between. */
    size_t n7 = rt_pool_query((const rt_run *const *)runs, NRUNS, qid_of("r7"), 100, pids, &e, &cap);
    rt_pool_entry *first = malloc((n7 + 1) * sizeof *first);
    memcpy(first, e, n7 * sizeof *e);
    int same = n7 > 0;
    for (int i = 0; i < 50 && same; i++) {
        char qs[16];
        snprintf(qs, sizeof qs, "r%d", i % NQ);
        rt_pool_query((const rt_run *const *)runs, NRUNS, qid_of(qs), 1 + (size_t)i * 20, pids, &e, &cap);
        size_t n = rt_pool_query((const rt_run *const *)runs, NRUNS, qid_of("r7"), 100, pids, &e, &cap);
        same = n == n7;
        for (size_t k = 0; same && k < n; k++)   /* field by field: padding bytes are not data */
            same = e[k].pid == first[k].pid && e[k].rrf == first[k].rrf && e[k].best_rank == first[k].best_rank &&
                   e[k].nruns == first[k].nruns && e[k].runs == first[k].runs;
    }
    ok(same, "rebuilding a pool after others gives the same %zu entries in the same order", n7);
    free(first);
    free(e);
    for (int r = 0; r < NRUNS; r++)
        rt_run_free(&runs[r]);
}

int main(void)
{
    qids = rt_strtab_new();
    pids = rt_strtab_new();
    test_small();
    test_tie_best_rank();
    test_tie_bytes();
    test_queries();
    test_random();
    rt_run_free(&A);
    rt_run_free(&B);
    rt_run_free(&C);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return tap_done();
}
