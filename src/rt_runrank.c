/* rt_runrank — ranking one query of a run (DESIGN.md §5): by score, highest first, ties by pid
 * descending in byte order as trec_eval orders them (or in file order), later copies of a pid
 * dropped, then handed to the scan's callback. A radix sort of the scores as integers; the ties
 * among equal scores sorted apart. */
#include "config.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_num.h"
#include "rt_reader.h"
#include "rt_runscan_impl.h"

/* A hit's place in the ranking: its score as an integer that orders like the score, highest
 * first (an unsigned compare), and its index among the query's pending hits. */
typedef struct rank_key {
    uint64_t k;
    uint32_t i;
} rank_key;

static uint64_t score_key(double d)
{
    d += 0.0;   /* -0 ties with 0, as the scores compare */
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    b = b >> 63 ? ~b : b | (UINT64_C(1) << 63);   /* ascending with the double */
    return ~b;
}

/* Negative when pending a ranks above b among hits of the same score: the larger pid first
 * (trec_eval), then the earlier line (of duplicates, the first copy is kept). */
static int tie_cmp(const scan *s, const pending *a, const pending *b)
{
    size_t n = a->pid_len < b->pid_len ? a->pid_len : b->pid_len;
    int c;
    if (s->tie_dec) {   /* values: compared as the texts they were read from */
        char x[16], y[16];
        rt_num_format_u32(x, (uint32_t)a->pid_off);
        rt_num_format_u32(y, (uint32_t)b->pid_off);
        c = memcmp(y, x, n);
    } else {
        c = memcmp(s->arena + b->pid_off, s->arena + a->pid_off, n);
    }
    if (c)
        return c;
    if (a->pid_len != b->pid_len)
        return a->pid_len > b->pid_len ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Sorts keys[0..n) by k with a least-significant-digit radix sort: branch-free, linear, and a
 * byte that all keys share costs no pass. tmp holds n keys. */
static void radix_sort(rank_key *keys, rank_key *tmp, size_t n)
{
    static _Thread_local uint32_t count[8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 8; d++)
            count[d][(keys[i].k >> (8 * d)) & 255]++;
    rank_key *from = keys, *to = tmp;
    for (int d = 0; d < 8; d++) {
        uint32_t *c = count[d];
        if (c[(keys[0].k >> (8 * d)) & 255] == n)
            continue;
        uint32_t sum = 0;
        for (int b = 0; b < 256; b++) {
            uint32_t x = c[b];
            c[b] = sum;
            sum += x;
        }
        for (size_t i = 0; i < n; i++)
            to[c[(from[i].k >> (8 * d)) & 255]++] = from[i];
        rank_key *x = from;
        from = to;
        to = x;
    }
    if (from != keys)
        memcpy(keys, from, n * sizeof *keys);
}

/* For qsort on a long run of one score: the scan and the hits the keys index. */
static _Thread_local const scan *tie_scan;
static _Thread_local const pending *tie_p;

static int tie_qsort_cmp(const void *x, const void *y)
{
    const rank_key *a = x, *b = y;
    return tie_cmp(tie_scan, &tie_p[a->i], &tie_p[b->i]);
}

/* Sorts keys[0..n) by k: spread into about 2n buckets by the bits under the keys' common
 * range (one counting pass and one move, as scores tend to be spread evenly), then each bucket
 * by insertion, or by radix_sort when a bucket holds many (scores bunched together). tmp holds
 * n keys. */
static void bucket_sort(rank_key *keys, rank_key *tmp, size_t n)
{
    enum { MAX_BITS = 12 };
    static _Thread_local uint32_t count[(1 << MAX_BITS) + 1];
    uint64_t lo = keys[0].k, hi = lo;
    for (size_t i = 1; i < n; i++) {
        lo = keys[i].k < lo ? keys[i].k : lo;
        hi = keys[i].k > hi ? keys[i].k : hi;
    }
    int want = 1;
    while (want < MAX_BITS && ((size_t)1 << want) < 2 * n)
        want++;
    uint64_t range = hi - lo;
    int bits = range ? 64 - __builtin_clzll(range) : 0;
    int shift = bits > want ? bits - want : 0;
    size_t nb = (size_t)(range >> shift) + 1;
    memset(count, 0, (nb + 1) * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[((keys[i].k - lo) >> shift) + 1]++;
    for (size_t b = 0; b < nb; b++)
        count[b + 1] += count[b];
    for (size_t i = 0; i < n; i++)
        tmp[count[(keys[i].k - lo) >> shift]++] = keys[i];
    /* count[b] is now the end of bucket b */
    for (size_t b = 0, a = 0; b < nb; a = count[b++]) {
        size_t m = count[b] - a;
        if (m > 32) {
            radix_sort(tmp + a, keys + a, m);
            continue;
        }
        for (size_t i = a + 1; i < a + m; i++) {
            rank_key x = tmp[i];
            size_t j = i;
            while (j > a && tmp[j - 1].k > x.k) {
                tmp[j] = tmp[j - 1];
                j--;
            }
            tmp[j] = x;
        }
    }
    memcpy(keys, tmp, n * sizeof *keys);
}

/* Orders each run of equal scores in keys[0..n) (indices into p) by tie_cmp. */
static void order_ties(const scan *s, const pending *p, rank_key *keys, size_t n)
{
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        while (b < n && keys[b].k == keys[a].k)
            b++;
        if (b - a > 32) {
            tie_scan = s;
            tie_p = p;
            qsort(keys + a, b - a, sizeof *keys, tie_qsort_cmp);
        } else {
            for (size_t i = a + 1; i < b; i++) {
                rank_key x = keys[i];
                size_t j = i;
                while (j > a && tie_cmp(s, &p[keys[j - 1].i], &p[x.i]) > 0) {
                    keys[j] = keys[j - 1];
                    j--;
                }
                keys[j] = x;
            }
        }
        a = b;
    }
}

/* Puts the indices of pending p[0..n) into s->keys in rank order: score descending, then
 * tie_cmp. Runs are nearly always written in rank order already (then only ties move); anything
 * else is bucket sorted. */
static void rank_pending(scan *s, const pending *p, size_t n)
{
    rank_key *keys = s->keys;
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        keys[i] = (rank_key){score_key(p[i].score), (uint32_t)i};
        sorted &= i == 0 || keys[i].k >= keys[i - 1].k;
    }
    if (!sorted)
        bucket_sort(keys, keys + n, n);
    order_ties(s, p, keys, n);
}

/* Whether a pid occurs twice among p[0..n), in file order (the pending entries read in
 * sequence, where the set in rank order reads them at random); s->set (cap slots) left dirty. */
static int has_duplicate(scan *s, const pending *p, size_t n, size_t cap)
{
    for (size_t i = 0; i < n; i++) {
        const pending *x = &p[i];
        size_t j = x->hash & (cap - 1);
        uint64_t tag = x->hash >> 32 << 32;
        while (s->set[j]) {
            if ((s->set[j] >> 32 << 32) == tag) {
                const pending *o = &p[(uint32_t)s->set[j] - 1];
                if (o->hash == x->hash && o->pid_len == x->pid_len &&
                    memcmp(s->arena + o->pid_off, s->arena + x->pid_off, x->pid_len) == 0)
                    return 1;
            }
            j = (j + 1) & (cap - 1);
        }
        s->set[j] = tag | (uint32_t)(i + 1);
    }
    return 0;
}

/* Makes s->set an empty set for n entries, at most a quarter full (a probe seldom passes
 * another); its slot count. */
static size_t clear_set(scan *s, size_t n)
{
    size_t cap = 16;
    while (cap < 4 * n)
        cap *= 2;
    if (cap > s->set_cap) {
        s->set = rt_reallocarray(s->set, cap, sizeof *s->set);
        s->set_cap = cap;
    }
    memset(s->set, 0, cap * sizeof *s->set);
    return cap;
}

rt_status rt_runscan_emit(scan *s, const char *qid, size_t qid_len, const pending *p, size_t n, rt_err *err)
{
    assert(n <= UINT32_MAX);   /* a rank key holds the hit's index in 32 bits */
    RT_GROW(s->hits, s->hcap, n ? n : 1);
    RT_GROW(s->keys, s->kcap, 2 * n + 1);
    int ranked = s->opts.order == RT_ORDER_SCORE && s->info->has_scores;
    if (ranked)
        rank_pending(s, p, n);
    /* Each slot: the hash's top 32 bits, then the index into hits + 1 (0: empty), so that a
     * probe past another pid seldom reads its hit. */
    size_t cap = clear_set(s, n);
    rt_hit *h = s->hits;
    size_t out = 0;
    if (ranked && !has_duplicate(s, p, n, cap)) {   /* nearly always: no set in rank order */
        for (size_t i = 0; i < n; i++) {
            const pending *x = &p[s->keys[i].i];
            h[i] = (rt_hit){s->arena + x->pid_off, x->pid_len, x->score, x->hash, x->line};
        }
        s->info->queries++;
        s->info->hits += n;
        return s->fn(s->ctx, qid, qid_len, h, n, err);
    }
    memset(s->set, 0, cap * sizeof *s->set);
    for (size_t i = 0; i < n; i++) {
        const pending *x = &p[ranked ? s->keys[i].i : i];
        const char *pid = s->arena + x->pid_off;
        size_t j = x->hash & (cap - 1);
        uint64_t tag = x->hash >> 32 << 32;
        int dup = 0;
        while (s->set[j]) {
            if ((s->set[j] >> 32 << 32) == tag) {
                const rt_hit *o = &h[(uint32_t)s->set[j] - 1];
                if (o->hash == x->hash && o->pid_len == x->pid_len && memcmp(o->pid, pid, o->pid_len) == 0) {
                    dup = 1;
                    break;
                }
            }
            j = (j + 1) & (cap - 1);
        }
        if (dup) {
            if (s->opts.strict)
                return rt_err_at(err, RT_EINPUT, s->path, x->line,
                                 "passage %.*s retrieved twice for query %.*s (strict mode)",
                                 (int)x->pid_len, pid, (int)qid_len, qid);
            if (!s->info->duplicates || x->line < s->info->first_dup_line)
                s->info->first_dup_line = x->line;
            s->info->duplicates++;
            continue;
        }
        h[out] = (rt_hit){pid, x->pid_len, x->score, x->hash, x->line};
        s->set[j] = tag | (uint32_t)++out;
    }
    s->info->queries++;
    s->info->hits += out;
    return s->fn(s->ctx, qid, qid_len, h, out, err);
}

void rt_runscan_spell_entries(scan *s, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        pending *e = &s->p[i];
        char buf[16];
        size_t len = rt_num_format_u32(buf, (uint32_t)e->pid_off);
        RT_GROW(s->arena, s->acap, s->alen + len + RT_HIT_PAD);
        memcpy(s->arena + s->alen, buf, len);
        e->pid_off = s->alen;
        e->pid_len = (uint32_t)len;
        e->hash = rt_run_pid_hash(s->arena + s->alen, len);
        s->alen += len;
    }
}

/* rt_runscan_emit for a decimal block, s->p[from..from + n): the values in rank order to opts.values. A pid
 * twice (rare) is rt_runscan_emit's to drop or report, with the block's texts spelled out. */
static rt_status emit_values(scan *s, const char *qid, size_t qid_len, size_t from, size_t n,
                             rt_err *err)
{
    const pending *p = s->p + from;
    /* A set of the values, at most a quarter full, whose slots hold the block's stamp above the
     * value + 1: a slot of an earlier block's stamp is empty, so it is cleared only when it grows
     * or the stamp wraps. */
    size_t cap = 16;
    while (cap < 4 * n)
        cap *= 2;
    if (cap > s->vset_cap || ++s->vstamp == 0) {
        if (cap > s->vset_cap) {
            s->vset = rt_reallocarray(s->vset, cap, sizeof *s->vset);
            s->vset_cap = cap;
        }
        memset(s->vset, 0, s->vset_cap * sizeof *s->vset);
        s->vstamp = 1;
    }
    cap = s->vset_cap;
    uint64_t stamp = (uint64_t)s->vstamp << 32;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = p[i].pid_off + 1;
        size_t j = (size_t)((v * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (cap - 1);
        for (; (s->vset[j] & ~UINT64_C(0xFFFFFFFF)) == stamp; j = (j + 1) & (cap - 1))
            if (s->vset[j] == (stamp | v)) {
                rt_runscan_spell_entries(s, from, from + n);
                s->dec = 0;
                return rt_runscan_emit(s, qid, qid_len, s->p + from, n, err);
            }
        s->vset[j] = stamp | v;
    }
    RT_GROW(s->vals, s->vcap, n ? n : 1);
    if (s->opts.order == RT_ORDER_SCORE && s->info->has_scores) {
        RT_GROW(s->keys, s->kcap, 2 * n + 1);
        s->tie_dec = 1;
        rank_pending(s, p, n);
        s->tie_dec = 0;
        for (size_t i = 0; i < n; i++)
            s->vals[i] = (uint32_t)p[s->keys[i].i].pid_off;
    } else {
        for (size_t i = 0; i < n; i++)
            s->vals[i] = (uint32_t)p[i].pid_off;
    }
    s->info->queries++;
    s->info->hits += n;
    return s->opts.values(s->ctx, qid, qid_len, s->vals, n, err);
}

rt_status rt_runscan_flush(scan *s, rt_err *err)
{
    assert(s->held_np <= s->np && s->held_alen <= s->alen);   /* the held block lies below the open one */
    if (!s->open)
        return RT_OK;
    s->open = 0;
    rt_strtab_intern(s->seen, s->qid, s->qid_len);
    if (s->hold_first && !s->held) {
        s->held = 1;
        s->held_np = s->np;
        s->held_alen = s->alen;
        s->held_qid = rt_strndup(s->qid, s->qid_len);
        s->held_qid_len = s->qid_len;
        s->held_dec = s->dec;
        return RT_OK;
    }
    rt_status st = s->dec ? emit_values(s, s->qid, s->qid_len, s->held_np, s->np - s->held_np, err)
                          : rt_runscan_emit(s, s->qid, s->qid_len, s->p + s->held_np, s->np - s->held_np, err);
    s->np = s->held_np;
    s->alen = s->held_alen;
    return st;
}
