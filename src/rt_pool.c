/* rt_pool — depth-k pools in reciprocal-rank-fusion order. A call merges the runs' top-k hits
 * through a hash table on pid, then merge-sorts the merged entries into pool order. Both the
 * table and the sort's scratch live in the upper half of the caller's buffer, so that rebuilding
 * a pool on every query change (the judging mode) allocates nothing once the buffer is grown. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_pool.h"

/* Pool order: a total order, since distinct pids have distinct strings. */
static int before(const rt_pool_entry *a, const rt_pool_entry *b, const rt_strtab *pids)
{
    if (a->rrf != b->rrf)
        return a->rrf > b->rrf;
    if (a->best_rank != b->best_rank)
        return a->best_rank < b->best_rank;
    return strcmp(rt_strtab_str(pids, a->pid), rt_strtab_str(pids, b->pid)) < 0;
}

/* Sorts a[0, n) into pool order with tmp[0, n) as scratch; returns whichever holds the result. */
static rt_pool_entry *sort_pool(rt_pool_entry *a, rt_pool_entry *tmp, size_t n, const rt_strtab *pids)
{
    enum { RUN = 8 };
    for (size_t lo = 0; lo < n; lo += RUN) {  /* insertion sort of short runs */
        size_t hi = lo + RUN < n ? lo + RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            rt_pool_entry x = a[i];
            size_t j = i;
            for (; j > lo && before(&x, &a[j - 1], pids); j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
    }
    for (size_t width = RUN; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = before(&a[j], &a[i], pids) ? a[j++] : a[i++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        rt_pool_entry *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

size_t rt_pool_query_opts(const rt_run *const *runs, size_t nruns, uint32_t qid,
                          const rt_pool_opts *opts, const rt_strtab *pids, rt_pool_entry **out,
                          size_t *cap)
{
    size_t depth = opts->depth, need = 0, longest = 0;
    for (size_t r = 0; r < nruns; r++) {
        size_t n;
        rt_run_ranking(runs[r], qid, &n);
        n = n < depth ? n : depth;
        need += n;
        longest = n > longest ? n : longest;
    }
    if (need == 0)
        return 0;
    RT_GROW(*out, *cap, 2 * need);
    rt_pool_entry *a = *out;
    /* The upper half (need entries, 8 * need uint32s) holds a table of 2 * need to 4 * need slots
     * of entry index + 1, 0 for empty. */
    uint32_t *slot = (uint32_t *)(void *)(a + need);
    size_t nslots = 2;
    unsigned shift = 63;
    while (nslots < 2 * need) {
        nslots *= 2;
        shift--;
    }
    memset(slot, 0, nslots * sizeof *slot);
    /* Rank-major: each passage meets its ranks best first, so best_rank is the first one seen
     * and rrf is summed largest term first whatever the order of the runs. */
    size_t n = 0;
    for (size_t i = 0; i < longest; i++) {
        uint32_t rank = (uint32_t)i + 1;
        double term = 1.0 / ((double)opts->rrf_k + rank);
        for (size_t r = 0; r < nruns; r++) {
            size_t len;
            const uint32_t *pid = rt_run_ranking(runs[r], qid, &len);
            if (i >= len)
                continue;
            uint64_t bit = r < RT_POOL_MASK_RUNS ? (uint64_t)1 << r : 0;
            size_t h = (size_t)(((uint64_t)pid[i] * 0x9e3779b97f4a7c15ULL) >> shift);
            while (slot[h] && a[slot[h] - 1].pid != pid[i])
                h = (h + 1) & (nslots - 1);
            if (slot[h]) {
                rt_pool_entry *e = &a[slot[h] - 1];
                e->rrf += term;
                e->nruns++;
                e->runs |= bit;
            } else {
                a[n] = (rt_pool_entry){.pid = pid[i], .rrf = term, .best_rank = rank, .nruns = 1,
                                       .runs = bit};
                slot[h] = (uint32_t)++n;
            }
        }
    }
    rt_pool_entry *sorted = sort_pool(a, a + need, n, pids);
    if (sorted != a)
        memcpy(a, sorted, n * sizeof *a);
    return n;
}

size_t rt_pool_query(const rt_run *const *runs, size_t nruns, uint32_t qid, size_t depth,
                     const rt_strtab *pids, rt_pool_entry **out, size_t *cap)
{
    rt_pool_opts o = {.depth = depth, .rrf_k = RT_POOL_RRF_K};
    return rt_pool_query_opts(runs, nruns, qid, &o, pids, out, cap);
}

size_t rt_pool_queries(const rt_run *const *runs, size_t nruns, const rt_strtab *qids,
                       const rt_qrels *qrels, uint32_t **out)
{
    size_t total = 0;
    for (size_t r = 0; r < nruns; r++)
        total += rt_run_nqueries(runs[r]);
    uint32_t *list = rt_malloc((total ? total : 1) * sizeof *list);
    unsigned char *seen = rt_calloc(rt_strtab_count(qids), 1);
    size_t n = 0;
    for (size_t r = 0; r < nruns; r++)
        for (uint32_t i = 0; i < rt_run_nqueries(runs[r]); i++) {
            uint32_t q = rt_run_qid(runs[r], i);
            if (seen[q])
                continue;
            seen[q] = 1;
            if (!qrels || rt_qrels_index(qrels, q) != RT_NO_ID)
                list[n++] = q;
        }
    free(seen);
    *out = list;
    return n;
}
