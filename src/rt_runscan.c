/* rt_runscan — reading a run file: detecting its format, the TREC/TSV line scanner and the
 * DuReader JSON scanner, ranking each query (score, then pid descending) and dropping duplicate
 * pids, whole or from a byte range (the parallel read), streamed query by query. */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_names.h"
#include "rt_field.h"
#include "rt_num.h"
#include "rt_id.h"
#include "rt_json.h"
#include "rt_reader.h"
#include "rt_report.h"
#include "rt_runscan.h"
#include "rt_strtab.h"
#include "rt_path.h"

#define RESTART ((rt_status)100)

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RT_RUNSCAN_LITTLE_ENDIAN 1
#else
#define RT_RUNSCAN_LITTLE_ENDIAN 0
#endif

typedef struct pending {
    size_t pid_off;      /* into the arena; in a decimal block (scan.dec), the pid's value */
    uint32_t pid_len;
    uint32_t qslot;      /* gather mode: the query's scan-local id */
    double score;
    uint64_t hash;
    size_t line;
} pending;

typedef struct scan {
    const char *path;
    rt_run_opts opts;
    rt_run_format fmt;
    int tsv_cols;            /* 3 or 4 once known */
    rt_run_query_fn fn;
    void *ctx;
    rt_run_info *info;
    int gather;              /* collect everything, emit at the end */
    uint64_t start, end;     /* the part of the file to read (0, 0: all of it) */

    char *qid;               /* current block's qid */
    size_t qid_len, qid_cap;
    int open;                /* a block has lines not yet emitted */
    int unterminated;        /* the line at hand is the last and has no line end */
    /* Reading halves (rt_run_scan_halves): the first half holds its last block back, the second
     * its first, p[0..held_np) with pids in arena[0..held_alen), for the query may straddle. */
    int hold_first, hold_last, held;
    size_t held_np, held_alen;
    char *held_qid;
    size_t held_qid_len;
    pending *p;
    size_t np, pcap;
    char *arena;
    size_t alen, acap;
    rt_strtab *seen;         /* qids whose block has been emitted (stream) or seen (gather) */
    /* The block at hand keeps its pids as values (opts.values; every pid so far a decimal):
     * pending.pid_off is the value, nothing is in the arena and hash is 0. held_dec: the same
     * for the held block. tie_dec: the block being ranked is such a block. */
    int dec, held_dec, tie_dec;
    uint32_t *vals;          /* a decimal block's values in rank order, handed to opts.values */
    size_t vcap;

    rt_hit *hits;            /* the ranked block handed to fn */
    size_t hcap;
    uint64_t *set;           /* duplicate detection (emit) */
    size_t set_cap;
    struct rank_key *keys;   /* ranking: 2 per hit (the radix sort's second half) */
    size_t kcap;
} scan;

void rt_run_info_clear(rt_run_info *info)
{
    free(info->name);
    memset(info, 0, sizeof *info);
}

void rt_run_info_join(rt_run_info *x, const rt_run_info *y)
{
    if (!x->duplicates && y->duplicates)
        x->first_dup_line = y->first_dup_line + x->physical_lines;
    x->duplicates += y->duplicates;
    x->lines += y->lines;
    x->hits += y->hits;
    x->queries += y->queries;
    x->physical_lines += y->physical_lines;
}

const rt_name rt_run_formats[] = {
    {"auto", RT_RUN_AUTO}, {"trec", RT_RUN_TREC}, {"tsv", RT_RUN_TSV},
    {"dureader", RT_RUN_DUREADER}, {NULL, 0},
};

const rt_name rt_orders[] = {{"score", RT_ORDER_SCORE}, {"file", RT_ORDER_FILE}, {NULL, 0}};

void rt_run_report_duplicates(const rt_run_info *info, const char *path, rt_report *report)
{
    if (info->duplicates)
        rt_report_add(report, RT_REPORT_WARNING,
                      "%s:%zu: %zu duplicate passages dropped (the best-ranked copy kept)", path,
                      info->first_dup_line, info->duplicates);
}

int rt_run_format_parse(const char *name, rt_run_format *fmt)
{
    int v;
    return rt_name_value(rt_run_formats, name, &v) ? (*fmt = (rt_run_format)v, 1) : 0;
}

const char *rt_run_format_name(rt_run_format fmt) { return rt_name_of(rt_run_formats, (int)fmt); }

/* ---- ranking one query --------------------------------------------------------------------- */

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

/* Ranks pending entries p[0..n) of query qid, drops later copies of a pid (under strict, an
 * error) and hands the hits to the callback, all in one pass over the ranking. */
static rt_status emit(scan *s, const char *qid, size_t qid_len, const pending *p, size_t n,
                      rt_err *err)
{
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

/* Gives the decimal block's entries s->p[from..to) their pids' texts in the arena and their
 * hashes: the block as the text path would have read it. */
static void spell_entries(scan *s, size_t from, size_t to)
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

/* emit for a decimal block, s->p[from..from + n): the values in rank order to opts.values. A pid
 * twice (rare) is emit's to drop or report, with the block's texts spelled out. */
static rt_status emit_values(scan *s, const char *qid, size_t qid_len, size_t from, size_t n,
                             rt_err *err)
{
    const pending *p = s->p + from;
    size_t cap = clear_set(s, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = p[i].pid_off + 1;
        size_t j = (size_t)((v * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (cap - 1);
        for (; s->set[j]; j = (j + 1) & (cap - 1))
            if (s->set[j] == v) {
                spell_entries(s, from, from + n);
                s->dec = 0;
                return emit(s, qid, qid_len, s->p + from, n, err);
            }
        s->set[j] = v;
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

/* Emits the current block (the lines of one query since the last), or holds it when it is the
 * first of a part that may continue a query of the part before (see rt_run_scan_halves). */
static rt_status flush_block(scan *s, rt_err *err)
{
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
                          : emit(s, s->qid, s->qid_len, s->p + s->held_np, s->np - s->held_np, err);
    s->np = s->held_np;
    s->alen = s->held_alen;
    return st;
}

/* ---- collecting lines ---------------------------------------------------------------------- */

/* Whether the len bytes at a and b are equal, for ids: two loads and a shift when len ≤ 8 and
 * both are readable 8 bytes from their start (a linebuf field; s->qid, kept at least 8 long). */
static inline int same_short(const char *a, const char *b, size_t len)
{
    if (len == 0 || len > 8)
        return memcmp(a, b, len) == 0;
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    x ^= y;
#if RT_RUNSCAN_LITTLE_ENDIAN
    return (x << (64 - 8 * len)) == 0;
#else
    return (x >> (64 - 8 * len)) == 0;
#endif
}

/* add_hit for ids known to be good. padded: qid and pid are in a linebuf (PAD readable bytes
 * follow), so short ones are compared and copied a word at a time. */
static inline rt_status add_checked(scan *s, const char *qid, size_t ql, const char *pid, size_t pl,
                                    double score, size_t line, int padded, rt_err *err)
{
    rt_status st;
    uint32_t qslot = 0;
    if (s->gather) {
        qslot = rt_strtab_intern(s->seen, qid, ql);
    } else if (ql != s->qid_len || !(padded ? same_short(qid, s->qid, ql) : memcmp(qid, s->qid, ql) == 0)) {
        if ((st = flush_block(s, err)) != RT_OK)
            return st;
        if (rt_strtab_find(s->seen, qid, ql) != RT_NO_ID)
            return RESTART;
        RT_GROW(s->qid, s->qid_cap, ql + 8);
        memcpy(s->qid, qid, ql);
        s->qid_len = ql;
        s->open = 1;
        s->dec = s->opts.values != NULL;
    }
    if (s->dec) {   /* the block's pids as values while every one is a decimal */
        uint32_t v;
        if (padded ? rt_strtab_decimal_padded(pid, pl, &v) : rt_strtab_decimal(pid, pl, &v)) {
            RT_GROW(s->p, s->pcap, s->np + 1);
            s->p[s->np++] = (pending){v, (uint32_t)pl, 0, score, 0, line};
            s->info->lines++;
            return RT_OK;
        }
        spell_entries(s, s->held_np, s->np);
        s->dec = 0;
    }
    RT_GROW(s->arena, s->acap, s->alen + pl + RT_HIT_PAD);
    if (padded && pl <= 32)
        memcpy(s->arena + s->alen, pid, 32);   /* the bytes past pl are overwritten by the next */
    else
        memcpy(s->arena + s->alen, pid, pl);
    RT_GROW(s->p, s->pcap, s->np + 1);
    uint64_t hash = padded ? rt_run_pid_hash_padded(pid, pl) : rt_run_pid_hash(pid, pl);
    s->p[s->np++] = (pending){s->alen, (uint32_t)pl, qslot, score, hash, line};
    s->alen += pl;
    s->info->lines++;
    return RT_OK;
}

static rt_status add_hit(scan *s, const char *qid, size_t ql, const char *pid, size_t pl,
                         double score, size_t line, rt_err *err)
{
    rt_status st = rt_id_check_pair(s->path, line, qid, ql, pid, pl, err);
    return st != RT_OK ? st : add_checked(s, qid, ql, pid, pl, score, line, 0, err);
}

static rt_run_format detect(const char *line, size_t len)
{
    if (rt_field_line_first(line, len) == '{')
        return RT_RUN_DUREADER;
    rt_field f[8];
    size_t nt = rt_field_split_tab(line, len, f, 8);
    size_t nw = rt_field_split_ws(line, len, f, 8);
    if ((nt == 3 || nt == 4) && nw == nt)
        return RT_RUN_TSV;
    if (nw >= 6)
        return RT_RUN_TREC;
    return RT_RUN_AUTO;
}

static rt_status bad_line(scan *s, size_t no, const char *what, size_t found, rt_err *err)
{
    const char *tail = s->unterminated ? " (last line, no newline: truncated file?)" : "";
    return rt_err_at(err, RT_EINPUT, s->path, no, "expected %s, found %zu%s", what, found, tail);
}

static rt_status parse_score(scan *s, const rt_field *f, size_t no, double *score, rt_err *err)
{
    rt_num_status ns = rt_num_parse_double(f->s, f->len, score);
    if (ns == RT_NUM_NONFINITE)
        return rt_err_at(err, RT_EINPUT, s->path, no, "score \"%.*s\" is not a finite number",
                         (int)(f->len > 40 ? 40 : f->len), f->s);
    if (ns != RT_NUM_OK)
        return rt_err_at(err, RT_EINPUT, s->path, no, "expected a numeric score, found \"%.*s\"",
                         (int)(f->len > 40 ? 40 : f->len), f->s);
    return RT_OK;
}

static rt_status parse_line(scan *s, const char *line, size_t len, size_t no, rt_err *err)
{
    rt_field f[7];
    double score = 0;
    rt_status st;
    if (s->fmt == RT_RUN_TREC) {
        size_t n = rt_field_split_ws(line, len, f, 7);
        if (n < 6)
            return bad_line(s, no, "6 columns (qid Q0 pid rank score tag)", n, err);
        if ((st = parse_score(s, &f[4], no, &score, err)) != RT_OK)
            return st;
        if (!s->info->name)
            s->info->name = rt_strndup(f[5].s, f[5].len);
        return add_hit(s, f[0].s, f[0].len, f[2].s, f[2].len, score, no, err);
    }
    size_t n = rt_field_split_tab(line, len, f, 5);
    if (!s->tsv_cols && (n == 3 || n == 4)) {
        s->tsv_cols = (int)n;
        s->info->has_scores = n == 4;
    }
    if (n != (size_t)s->tsv_cols)
        return bad_line(s, no, s->tsv_cols == 4 ? "4 tab-separated columns (qid, pid, rank, score)"
                                                     : "3 tab-separated columns (qid, pid, rank)", n, err);
    int32_t rank;
    if (rt_num_parse_int32(f[2].s, f[2].len, &rank) != RT_NUM_OK)
        return rt_err_at(err, RT_EINPUT, s->path, no, "expected an integer rank, found \"%.*s\"",
                         (int)(f[2].len > 40 ? 40 : f[2].len), f[2].s);
    if (n == 4 && (st = parse_score(s, &f[3], no, &score, err)) != RT_OK)
        return st;
    if (n == 3)
        score = -(double)s->info->lines;
    return add_hit(s, f[0].s, f[0].len, f[1].s, f[1].len, score, no, err);
}

/* ---- reading lines ------------------------------------------------------------------------- */

/* Lines are read from a buffer of their own (not rt_reader_next) so that one pass over a line's
 * bytes finds its end, its fields, and whether it is plain ASCII: the common TREC line then
 * goes straight to add_checked. Any other line takes the general path, with the reader's
 * semantics: a BOM stripped from the file's first line, "\r\n" ends, a NUL byte an error, a
 * last line without a line end. */
enum { CHUNK = 256 << 10, PAD = 128 };
#define NO_END ((size_t)-2)
#define NOT_PLAIN ((size_t)-1)

typedef struct linebuf {
    char *buf;               /* cap bytes, then PAD readable bytes for rt_field_classify64 */
    size_t cap, pos, have;
    int eof;
} linebuf;

/* The line at p (avail bytes, readable 64 beyond): sets *len (without "\n" or "\r\n") and *next
 * (the bytes to the next line) and returns its field count but at most LINE_FIELDS, filling f,
 * when it is plain ASCII; NOT_PLAIN (f untouched) for any other line; NO_END when no
 * '\n' is among the avail bytes. line_at_long reads lines of any length; line_at takes the usual
 * one, within 64 bytes, in one step. */
enum { LINE_FIELDS = 6 };

static size_t line_at_long(const char *p, size_t avail, rt_field f[LINE_FIELDS], size_t *len,
                           size_t *next)
{
    const size_t max = LINE_FIELDS;
    size_t starts = 0, ends = 0;
    uint64_t prev_nb = 0;
    for (size_t base = 0; base < avail; base += 64) {
        uint64_t blank, nl, bad = rt_field_classify64(p + base, &blank, &nl);
        size_t lim = avail - base;
        if (lim < 64)
            nl &= (UINT64_C(1) << lim) - 1;
        size_t e = nl ? (size_t)__builtin_ctzll(nl) : 64, cr = 0;
        uint64_t in = nl ? (UINT64_C(1) << e) - 1 : ~UINT64_C(0);   /* the line's bytes here */
        if (e > 0 && e < 64 && ((bad >> (e - 1)) & 1) && p[base + e - 1] == '\r') {
            cr = 1;
            in >>= 1;
        }
        if (bad & in) {
            const char *q = memchr(p + base, '\n', lim);
            if (!q)
                return NO_END;
            size_t l = (size_t)(q - p);
            *next = l + 1;
            *len = l && p[l - 1] == '\r' ? l - 1 : l;
            return NOT_PLAIN;
        }
        if (!nl && lim <= 64)
            return NO_END;
        blank |= ~in;
        uint64_t nb = ~blank;
        uint64_t st = nb & ~((nb << 1) | prev_nb), en = blank & ((nb << 1) | prev_nb);
        for (; st; st &= st - 1, starts++)
            if (starts < max)
                f[starts].s = p + base + (size_t)__builtin_ctzll(st);
        for (; en; en &= en - 1, ends++)
            if (ends < max)
                f[ends].len = (size_t)(p + base + (size_t)__builtin_ctzll(en) - f[ends].s);
        if (nl) {
            *len = base + e - cr;
            *next = base + e + 1;
            return starts < max ? starts : max;
        }
        prev_nb = nb >> 63;
    }
    return NO_END;
}

/* The field whose start and end are the lowest bits of starts and ends. */
static inline rt_field field_of(const char *p, uint64_t starts, uint64_t ends)
{
    size_t a = (size_t)__builtin_ctzll(starts);
    return (rt_field){p + a, (size_t)__builtin_ctzll(ends) - a};
}

static inline size_t line_at(const char *p, size_t avail, rt_field f[LINE_FIELDS], size_t *len,
                             size_t *next)
{
    uint64_t blank, nl, bad = rt_field_classify64(p, &blank, &nl);
    if (avail < 64)
        nl &= (UINT64_C(1) << avail) - 1;
    if (!nl)
        return line_at_long(p, avail, f, len, next);
    size_t e = (size_t)__builtin_ctzll(nl), cr = 0;
    uint64_t in = (UINT64_C(1) << e) - 1;
    if (e > 0 && ((bad >> (e - 1)) & 1) && p[e - 1] == '\r') {
        cr = 1;
        in >>= 1;
    }
    if (bad & in)
        return line_at_long(p, avail, f, len, next);
    uint64_t nb = ~blank & in;
    uint64_t st = nb & ~(nb << 1), en = ~nb & (nb << 1);   /* field starts; ends (exclusive) */
    *len = e - cr;
    *next = e + 1;
    /* Six fields or more, the usual TREC line: each start and end by its rank among the bits. */
    uint64_t s1 = st & (st - 1), s2 = s1 & (s1 - 1), s3 = s2 & (s2 - 1), s4 = s3 & (s3 - 1);
    uint64_t s5 = s4 & (s4 - 1);
    if (s5) {
        uint64_t e1 = en & (en - 1), e2 = e1 & (e1 - 1), e3 = e2 & (e2 - 1), e4 = e3 & (e3 - 1);
        uint64_t e5 = e4 & (e4 - 1);
        f[0] = field_of(p, st, en);
        f[1] = field_of(p, s1, e1);
        f[2] = field_of(p, s2, e2);
        f[3] = field_of(p, s3, e3);
        f[4] = field_of(p, s4, e4);
        f[5] = field_of(p, s5, e5);
        return LINE_FIELDS;
    }
    size_t k = 0;
    for (; st; k++, st &= st - 1, en &= en - 1) {
        size_t a = (size_t)__builtin_ctzll(st);
        f[k] = (rt_field){p + a, (size_t)__builtin_ctzll(en) - a};
    }
    return k;
}

/* Keeps the unread bytes, makes room (a line longer than the buffer doubles it), reads more:
 * 1, 0 at the end, -1 on an error. */
static int refill(linebuf *b, rt_reader *r, const char *path, size_t lineno, rt_err *err)
{
    if (b->pos) {
        memmove(b->buf, b->buf + b->pos, b->have - b->pos);
        b->have -= b->pos;
        b->pos = 0;
    }
    if (b->have == b->cap) {   /* as rt_reader: a line over the limit, or memory refused, is an error */
        if (b->cap >= rt_input_max()) {
            rt_input_max_error(err, path, lineno + 1, "a line");
            return -1;
        }
        size_t cap = b->cap * 2 > rt_input_max() ? rt_input_max() : b->cap * 2;
        char *buf = realloc(b->buf, cap + PAD);
        if (!buf) {
            rt_err_at(err, RT_EINPUT, path, lineno + 1, "a line of more than %zu bytes does not fit in memory",
                      b->cap);
            return -1;
        }
        b->buf = buf;
        b->cap = cap;
        memset(b->buf + b->have, 0, b->cap + PAD - b->have);   /* rt_field_classify64 reads it */
    }
    rt_reader_set_lineno(r, lineno);   /* no line end is left unread: a truncation is in line lineno + 1 */
    ssize_t n = rt_reader_read(r, b->buf + b->have, b->cap - b->have, err);
    if (n > 0)
        b->have += (size_t)n;
    return n < 0 ? -1 : n > 0;
}

/* The common TREC line, plain with six or more fields and a score rt_num_parse_double reads, in
 * one pass and with no id checks (a plain id has nothing to check): 1 when done (status in
 * *st), 0 for the general path, which reports what is wrong. */
static int trec_plain(scan *s, const rt_field *f, size_t no, rt_status *st, rt_err *err)
{
    double score;   /* the line is in a linebuf: PAD readable bytes follow it */
    if (rt_num_parse_double_padded(f[4].s, f[4].len, &score) != RT_NUM_OK)
        return 0;
    if (!s->info->name)
        s->info->name = rt_strndup(f[5].s, f[5].len);
    s->info->has_scores = 1;
    *st = add_checked(s, f[0].s, f[0].len, f[2].s, f[2].len, score, no, 1, err);
    return 1;
}

/* Any line, as rt_reader_next would return it and then by format. */
static rt_status general_line(scan *s, char *line, size_t len, size_t no, rt_err *err)
{
    line[len] = '\0';   /* was '\r' or '\n' (or the end's padding) */
    if (no == 1 && s->start == 0 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
        line += 3;
        len -= 3;
    }
    const char *z = memchr(line, 0, len);
    if (z)
        return rt_err_at(err, RT_EINPUT, s->path, no, "a NUL byte at column %zu: not a text file",
                         (size_t)(z - line) + 1);
    if (rt_field_line_skippable(line, len))
        return RT_OK;
    if (s->fmt == RT_RUN_AUTO) {
        s->fmt = detect(line, len);
        if (s->fmt == RT_RUN_AUTO)
            return rt_err_at(err, RT_EINPUT, s->path, no,
                             "cannot tell the run format: expected \"qid Q0 pid rank score tag\", "
                             "\"qid<TAB>pid<TAB>rank[<TAB>score]\" or a DuReader JSON object");
        if (s->fmt == RT_RUN_DUREADER)
            return RESTART;   /* one JSON document: read as a whole */
    }
    if (s->fmt == RT_RUN_TREC)
        s->info->has_scores = 1;
    return parse_line(s, line, len, no, err);
}

static void report_progress(scan *s, rt_reader *r, uint64_t *counted)
{
    uint64_t at = rt_reader_offset(r) - s->start, done = at;
    if (s->opts.progress_done) {   /* the parts add up what they read */
        done = atomic_fetch_add(s->opts.progress_done, at - *counted) + (at - *counted);
        *counted = at;
    }
    if (s->opts.progress_caller)
        s->opts.progress(s->opts.progress_ctx, done, s->opts.progress_total);
}

static rt_status scan_lines(scan *s, rt_err *err)
{
    rt_reader *r;
    rt_status st = rt_reader_open_range(&r, s->path, s->start, s->end, err);
    if (st != RT_OK)
        return st;
    linebuf b = {rt_calloc(1, CHUNK + PAD), CHUNK, 0, 0, 0};
    size_t no = 0;
    uint64_t counted = 0;
    while (st == RT_OK) {
        rt_field f[LINE_FIELDS];
        size_t len, next;
        size_t n = b.pos < b.have ? line_at(b.buf + b.pos, b.have - b.pos, f, &len, &next) : NO_END;
        if (n == NO_END) {
            if (b.eof)
                break;
            int rc = refill(&b, r, s->path, no, err);
            if (rc < 0) {
                st = RT_EINPUT;
            } else if (rc == 0) {
                b.eof = 1;
                if (b.pos < b.have) {   /* a last line without a line end: given one */
                    b.buf[b.have++] = '\n';
                    s->unterminated = 1;
                }
            }
            continue;
        }
        char *line = b.buf + b.pos;
        b.pos += next;
        no++;
        if (s->opts.progress && (no & 8191) == 0)
            report_progress(s, r, &counted);
        if (n != NOT_PLAIN && (n == 0 || f[0].s[0] == '#'))
            continue;   /* blank or comment */
        if (s->fmt == RT_RUN_TREC && n != NOT_PLAIN && n >= 6 && trec_plain(s, f, no, &st, err))
            continue;
        st = general_line(s, line, len, no, err);
    }
    s->info->physical_lines = no;
    free(b.buf);
    rt_reader_close(&r);
    if (st == RT_OK && !s->gather && !s->hold_last)
        st = flush_block(s, err);
    return st;
}

/* ---- DuReader JSON ------------------------------------------------------------------------- */

static size_t line_of(const char *buf, const char *at)
{
    size_t n = 1;
    for (const char *p = buf; p < at; p++)
        n += *p == '\n';
    return n;
}

/* Finds where things are in a JSON run, for messages: cJSON keeps no positions, so the text is
 * walked forward string by string alongside the parsed document (keys and values come in
 * document order). locate returns the line of the next string token — the next key when key is
 * set (a string followed by ':'), else the next string value — and moves past it. */
typedef struct locator {
    const char *cur, *end;
    size_t line;
} locator;

static size_t locate(locator *l, int key)
{
    const char *p = l->cur;
    while (p < l->end) {
        if (*p == '\n')
            l->line++;
        if (*p++ != '"')
            continue;
        size_t start_line = l->line;
        while (p < l->end && *p != '"') {       /* the string's body, escapes skipped */
            if (*p == '\\' && p + 1 < l->end)
                p++;
            else if (*p == '\n')
                l->line++;
            p++;
        }
        if (p < l->end)
            p++;
        const char *after = p;
        while (after < l->end && (*after == ' ' || *after == '\t' || *after == '\r' || *after == '\n'))
            after++;
        int is_key = after < l->end && *after == ':';
        if (is_key == key) {
            l->cur = p;
            return start_line;
        }
    }
    l->cur = l->end;
    return l->line;
}

static rt_status scan_json(scan *s, rt_err *err)
{
    char *buf;
    size_t len;
    rt_status st = rt_read_file(s->path, &buf, &len, err);
    if (st != RT_OK)
        return st;
    st = rt_json_check_nul(s->path, 1, buf, len, err);
    if (st != RT_OK) {
        free(buf);
        return st;
    }
    const char *end = NULL;
    errno = 0;
    cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (!root && errno == ENOMEM) {   /* cJSON says only "failed": malloc said why */
        free(buf);
        return rt_err_at(err, RT_EINPUT, s->path, 0, "the JSON document (%zu bytes) does not fit in memory "
                         "once parsed", len);
    }
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        size_t line = at && at >= buf && at <= buf + len ? line_of(buf, at) : 0;
        free(buf);
        return rt_err_at(err, RT_EINPUT, s->path, line, "invalid JSON (expected {\"qid\": [\"pid\", …]})");
    }
    if (!cJSON_IsObject(root)) {
        st = rt_err_at(err, RT_EINPUT, s->path, 1, "expected a JSON object {\"qid\": [\"pid\", …]}");
        goto out;
    }
    s->info->has_scores = 0;
    locator loc = {buf, buf + len, 1};
    const cJSON *q, *p;
    cJSON_ArrayForEach(q, root) {
        size_t qline = locate(&loc, 1);
        char shown[80];
        const char *why = rt_id_problem(q->string, strlen(q->string));
        if (why) {   /* checked here too: an empty ranking adds no hit that would check it */
            st = rt_err_at(err, RT_EINPUT, s->path, qline, "bad query id: %s", why);
            goto out;
        }
        rt_id_show(q->string, strlen(q->string), shown, sizeof shown);
        if (!cJSON_IsArray(q)) {
            st = rt_err_at(err, RT_EINPUT, s->path, qline, "query \"%s\": expected an array of passage ids",
                           shown);
            goto out;
        }
        size_t rank = 0;
        cJSON_ArrayForEach(p, q) {
            char nb[32];
            int64_t num;
            const char *pid = nb;
            size_t pl;
            size_t pline = loc.line;
            if (cJSON_IsString(p)) {
                pid = p->valuestring;
                pl = strlen(pid);
                pline = locate(&loc, 0);
            } else if (cJSON_IsNumber(p) &&
                       rt_num_int_value_in(p->valuedouble, -RT_JSON_INT_MAX, RT_JSON_INT_MAX, &num)) {
                pl = (size_t)snprintf(nb, sizeof nb, "%lld", (long long)num);
            } else {
                st = rt_err_at(err, RT_EINPUT, s->path, pline,
                               "query \"%s\", rank %zu: expected a passage id string", shown, rank + 1);
                goto out;
            }
            rank++;
            st = add_hit(s, q->string, strlen(q->string), pid, pl, -(double)rank, pline, err);
            if (st != RT_OK)
                goto out;
        }
        if (rank == 0) {
            /* An empty list is a query that retrieved nothing. */
            rt_strtab_intern(s->seen, q->string, strlen(q->string));
        }
    }
out:
    cJSON_Delete(root);
    free(buf);
    return st;
}

/* ---- gather mode: group scattered lines by query ------------------------------------------ */

static rt_status emit_gathered(scan *s, rt_err *err)
{
    uint32_t nq = rt_strtab_count(s->seen);
    size_t *start = rt_calloc((size_t)nq + 1, sizeof *start);
    for (size_t i = 0; i < s->np; i++)
        start[s->p[i].qslot + 1]++;
    for (uint32_t q = 0; q < nq; q++)
        start[q + 1] += start[q];
    pending *sorted = rt_reallocarray(NULL, s->np ? s->np : 1, sizeof *sorted);
    size_t *fill = rt_reallocarray(NULL, nq ? nq : 1, sizeof *fill);
    memcpy(fill, start, nq * sizeof *fill);
    for (size_t i = 0; i < s->np; i++)
        sorted[fill[s->p[i].qslot]++] = s->p[i];
    rt_status st = RT_OK;
    for (uint32_t q = 0; q < nq && st == RT_OK; q++) {
        const char *qid = rt_strtab_str(s->seen, q);
        size_t ql = rt_strtab_len(s->seen, q);
        RT_GROW(s->qid, s->qid_cap, ql + 1);
        memcpy(s->qid, qid, ql);
        s->qid_len = ql;
        st = emit(s, qid, ql, sorted + start[q], start[q + 1] - start[q], err);
    }
    free(sorted);
    free(fill);
    free(start);
    return st;
}

static void scan_reset(scan *s, int gather)
{
    s->gather = gather;
    s->np = s->alen = s->qid_len = 0;
    s->open = 0;
    s->dec = s->held_dec = 0;
    s->tsv_cols = 0;
    rt_strtab_free(&s->seen);
    s->seen = rt_strtab_new();
    char *name = s->info->name;
    rt_run_format fmt = s->info->format;
    memset(s->info, 0, sizeof *s->info);
    s->info->name = name;
    s->info->format = fmt;
}

/* Frees what a scan allocated (not its info). */
static void scan_release(scan *s)
{
    free(s->qid);
    free(s->p);
    free(s->arena);
    free(s->hits);
    free(s->set);
    free(s->keys);
    free(s->vals);
    free(s->held_qid);
    rt_strtab_free(&s->seen);
}

rt_status rt_run_scan(const char *path, const rt_run_opts *opts, rt_run_query_fn fn,
                      rt_run_reset_fn reset, void *ctx, rt_run_info *info, rt_err *err)
{
    static const rt_run_opts defaults = {0};
    memset(info, 0, sizeof *info);
    scan s = {.path = path, .opts = opts ? *opts : defaults, .fn = fn, .ctx = ctx, .info = info};
    s.fmt = s.opts.format;
    scan_reset(&s, s.fmt == RT_RUN_DUREADER);
    rt_status st = s.fmt == RT_RUN_DUREADER ? scan_json(&s, err) : scan_lines(&s, err);
    struct stat sb;
    if (st == RESTART && (strcmp(path, "-") == 0 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)))
        /* it would be read again, and a pipe cannot be: said so, rather than an empty second pass */
        st = rt_err_at(err, RT_EINPUT, path, info->physical_lines, "a query's lines come again after "
                       "other queries' (not grouped by query), which means reading the run twice, and "
                       "a pipe cannot be read twice: save it to a file first, or group its lines");
    if (st == RESTART) {
        if (reset && s.fmt != RT_RUN_DUREADER)
            reset(ctx);
        scan_reset(&s, 1);
        info->regrouped = s.fmt != RT_RUN_DUREADER;
        st = s.fmt == RT_RUN_DUREADER ? scan_json(&s, err) : scan_lines(&s, err);
    }
    if (st == RT_OK && s.gather)
        st = emit_gathered(&s, err);
    if (st == RT_OK && info->lines == 0 && info->queries == 0)
        st = rt_err_at(err, RT_EINPUT, path, 0, "no ranked passages found (empty run file)");
    info->format = s.fmt;
    if (!info->name || s.opts.name) {
        free(info->name);
        info->name = s.opts.name ? rt_strdup(s.opts.name) : rt_path_stem(path);
    }
    scan_release(&s);
    if (st != RT_OK)
        rt_run_info_clear(info);
    return st;
}

/* ---- two halves in parallel --------------------------------------------------------------- */

typedef struct half {
    scan s;
    rt_status st;
    rt_err err;
} half;

static void *read_half(void *arg)
{
    half *h = arg;
    h->st = scan_lines(&h->s, &h->err);
    if (h->st == RESTART)
        h->st = RT_RUN_NOT_GROUPED;
    return NULL;
}

/* After both halves: the query at the end of the first and the one at the start of the second
 * are one query when their qids are equal (its lines straddle the split): the second's lines,
 * numbered on from the first's, join the first's and it is emitted once. Otherwise the first's
 * is emitted, then the second's (its lines numbered on in the same way), both by the first half,
 * so that the first half's queries and then the second's are in the file's order. */
static rt_status join_halves(scan *a, scan *b, rt_err *err)
{
    if (b->held) {   /* the second half's first query, handed over by the first after its own: */
        int same = a->open && a->qid_len == b->held_qid_len && memcmp(a->qid, b->held_qid, a->qid_len) == 0;
        if (a->fmt != b->fmt || a->info->has_scores != b->info->has_scores)
            return RT_RUN_NOT_GROUPED;   /* the halves read differently: the caller reads it whole */
        if (!same) {   /* it starts on the split: the first's last query first, then it (file order) */
            rt_status st = flush_block(a, err);
            if (st != RT_OK)
                return st;
            if (rt_strtab_find(a->seen, b->held_qid, b->held_qid_len) != RT_NO_ID)
                return RT_RUN_NOT_GROUPED;   /* in both halves */
            RT_GROW(a->qid, a->qid_cap, b->held_qid_len + 8);
            memcpy(a->qid, b->held_qid, b->held_qid_len);
            a->qid_len = b->held_qid_len;
            a->open = 1;
            a->dec = b->held_dec;
        } else if (a->dec && !b->held_dec) {   /* one query, values and texts: all texts */
            spell_entries(a, 0, a->np);
            a->dec = 0;
        }
        size_t from = a->np;
        for (size_t i = 0; i < b->held_np; i++) {
            pending e = b->p[i];
            if (!b->held_dec) {
                RT_GROW(a->arena, a->acap, a->alen + e.pid_len + RT_HIT_PAD);
                memcpy(a->arena + a->alen, b->arena + e.pid_off, e.pid_len);
                e.pid_off = a->alen;
                a->alen += e.pid_len;
            }
            e.line += a->info->physical_lines;
            RT_GROW(a->p, a->pcap, a->np + 1);
            a->p[a->np++] = e;
        }
        if (b->held_dec && !a->dec)   /* texts, then values: all texts */
            spell_entries(a, from, a->np);
        b->held = 0;
    }
    return flush_block(a, err);
}

/* After both halves read in gather mode: the second's lines (its queries interned into the
 * first's, its lines numbered on) join the first's, and all queries are emitted by the first. */
static rt_status join_gathered(scan *a, scan *b, rt_err *err)
{
    if (b->np && (a->fmt != b->fmt || a->info->has_scores != b->info->has_scores))
        return RT_RUN_NOT_GROUPED;   /* the halves read differently: the caller reads it whole */
    uint32_t nq = rt_strtab_count(b->seen);
    uint32_t *slot = rt_reallocarray(NULL, nq ? nq : 1, sizeof *slot);
    for (uint32_t q = 0; q < nq; q++)
        slot[q] = rt_strtab_intern(a->seen, rt_strtab_str(b->seen, q), rt_strtab_len(b->seen, q));
    RT_GROW(a->arena, a->acap, a->alen + b->alen + RT_HIT_PAD);
    if (b->alen)   /* a half that read no passage id may have no arena at all */
        memcpy(a->arena + a->alen, b->arena, b->alen);
    RT_GROW(a->p, a->pcap, a->np + b->np + 1);
    for (size_t i = 0; i < b->np; i++) {
        pending e = b->p[i];
        e.pid_off += a->alen;
        e.line += a->info->physical_lines;
        e.qslot = slot[e.qslot];
        a->p[a->np++] = e;
    }
    a->alen += b->alen;
    free(slot);
    if (!a->info->has_scores)
        a->info->has_scores = b->info->has_scores;
    return emit_gathered(a, err);
}

rt_status rt_run_scan_halves(const char *path, const rt_run_opts *opts, uint64_t mid, int gather,
                             rt_run_query_fn fn, void *ctx[2], rt_run_info info[2], rt_err *err)
{
    static const rt_run_opts defaults = {0};
    half *h = rt_calloc(2, sizeof *h);
    _Atomic uint64_t done = 0;
    for (int k = 0; k < 2; k++) {
        memset(&info[k], 0, sizeof info[k]);
        h[k].s = (scan){.path = path, .opts = opts ? *opts : defaults, .fn = fn, .ctx = ctx[k],
                        .info = &info[k], .start = k ? mid : 0, .end = k ? 0 : mid,
                        .hold_first = k == 1 && !gather, .hold_last = k == 0 && !gather};
        h[k].s.fmt = h[k].s.opts.format;
        if (h[k].s.opts.progress) {   /* both count the bytes they read; the first reports */
            h[k].s.opts.progress_done = &done;
            h[k].s.opts.progress_caller = h[k].s.opts.progress_caller && k == 0;
        }
        scan_reset(&h[k].s, gather);
    }
    rt_status st = RT_OK;
    if (h[0].s.fmt == RT_RUN_DUREADER) {
        st = RT_RUN_NOT_GROUPED;
    } else {
        pthread_t t;
        int threaded = pthread_create(&t, NULL, read_half, &h[1]) == 0;
        read_half(&h[0]);
        if (threaded)
            pthread_join(t, NULL);
        else
            read_half(&h[1]);
        st = h[0].st != RT_OK ? h[0].st : h[1].st;
        *err = h[0].st != RT_OK ? h[0].err : h[1].err;
        if (st == RT_OK)
            st = gather ? join_gathered(&h[0].s, &h[1].s, err) : join_halves(&h[0].s, &h[1].s, err);
        if (gather)
            info[0].regrouped = 1;
    }
    for (int k = 0; k < 2; k++) {
        info[k].format = h[k].s.fmt;
        scan_release(&h[k].s);
    }
    free(h);
    return st;
}

uint64_t rt_run_split_offset(const char *path, uint64_t size)
{
    if (size < 64 || rt_file_codec(path) != RT_CODEC_NONE)
        return 0;   /* a compressed file is read in one piece */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    enum { WIN = 1 << 20 };
    char *buf = rt_malloc(WIN);
    uint64_t at = size / 2, result = 0;
    ssize_t n = pread(fd, buf, WIN, (off_t)at);
    const char *nl = n > 0 ? memchr(buf, '\n', (size_t)n) : NULL;
    if (nl && at + (uint64_t)(nl - buf) + 1 < size)   /* the start of the line after the middle */
        result = at + (uint64_t)(nl - buf) + 1;
    free(buf);
    close(fd);
    return result;
}
