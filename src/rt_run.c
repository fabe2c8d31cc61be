/* rt_run — a run held in memory for browsing: rt_runscan's queries with their pids interned. */
#include "config.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "rt_image.h"
#include "rt_mem.h"
#include "rt_names.h"
#include "rt_reader.h"
#include "rt_run.h"
#include "rt_runstage.h"
#include "rt_id.h"
#include "rt_path.h"

/* ---- a run held in memory ------------------------------------------------------------------ */

struct rt_run {
    char *path;
    rt_run_info info;
    rt_strtab *qids, *pids;
    uint32_t *qlist;          /* queries in order of first appearance */
    uint32_t nq, qcap;
    uint32_t *slot;           /* qid id → index in qlist, or RT_NO_ID; sized slot_len */
    size_t slot_len;
    size_t *start;            /* hits of query i are [start[i], start[i] + count[i]) */
    uint32_t *count;
    uint32_t *pid;            /* the ranking's order is all that is kept of the scores */
    size_t n, cap;
    /* A run read in two halves keeps the second half's pids where that half put them: entries
     * n0.. of the rankings are pid2[0..n - n0) (no ranking straddles). NULL: all in pid. */
    uint32_t *pid2;
    size_t n0;
    int mapped;               /* the arrays lie in a workspace cache's mapping (rt_run_attach) */
    _Atomic unsigned char *checked;   /* mapped: per query 0 not yet, 1 every pid known, 2 not */
    uint32_t npids;           /* mapped: the pid table's size when attached */
    /* Parsed, not yet interned (rt_run_parse → rt_run_intern): each query's qid is the string at
     * qtext + qoff[i] (qlen[i] bytes), and each pid[k] is the value of a decimal pid
     * (rt_strtab_decimal) or RAW_TEXT | j for the j-th other pid, at ptext + poff[j] (plen[j]). */
    int raw;
    char *qtext, *ptext;
    size_t qtext_len, qtext_cap, ptext_len, ptext_cap;
    size_t *qoff, *poff;
    uint32_t *qlen, *plen;
    size_t npt, npt_cap;
    size_t interned;          /* rt_run_intern_step: the pids interned so far */
};

#define RAW_TEXT 0x80000000u   /* above every value rt_strtab_decimal gives */

/* Where entry k of the rankings is. A run of empty rankings only (a JSON run's "q": []) has no
 * array: its rankings start at a word of nothing, never at a null pointer. */
static inline uint32_t *pid_at(const rt_run *run, size_t k)
{
    static uint32_t nothing[1];
    if (run->pid2 && k >= run->n0)
        return run->pid2 + (k - run->n0);
    return run->pid ? run->pid + k : nothing;
}

static void grow_text(char **text, size_t *len, size_t *cap, const char *s, size_t n, size_t *off)
{
    RT_GROW(*text, *cap, *len + n);
    if (n)   /* an empty text may come before any was kept: *text is NULL then */
        memcpy(*text + *len, s, n);
    *off = *len;
    *len += n;
}

/* Adds a query of n pids (its qid kept as text, interned later on the thread that owns the
 * namespaces); where its n pids go, or NULL when n is 0. */
static uint32_t *add_query(rt_run *run, const char *qid, size_t ql, size_t n)
{
    size_t cap = run->qcap;
    RT_GROW(run->qlist, run->qcap, (size_t)run->nq + 1);
    if (run->qcap != cap) {
        run->start = rt_reallocarray(run->start, run->qcap, sizeof *run->start);
        run->count = rt_reallocarray(run->count, run->qcap, sizeof *run->count);
        run->qoff = rt_reallocarray(run->qoff, run->qcap, sizeof *run->qoff);
        run->qlen = rt_reallocarray(run->qlen, run->qcap, sizeof *run->qlen);
    }
    grow_text(&run->qtext, &run->qtext_len, &run->qtext_cap, qid, ql, &run->qoff[run->nq]);
    run->qlen[run->nq] = (uint32_t)ql;
    run->start[run->nq] = run->n;
    run->count[run->nq] = (uint32_t)n;
    run->nq++;
    if (n == 0)   /* (a JSON run's empty ranking: no array may exist yet to point into) */
        return NULL;
    cap = run->cap;
    RT_GROW(run->pid, run->cap, run->n + n);
    if (run->cap != cap && run->cap >= (1u << 20))   /* a large run: its pids on huge pages */
        rt_advise_huge(run->pid, run->cap * sizeof *run->pid);
    uint32_t *pid = run->pid + run->n;
    run->n += n;
    return pid;
}

/* A query as the scan hands it over: a decimal pid kept as its value, any other as text. */
static rt_status parse_query(void *ctx, const char *qid, size_t ql, const rt_hit *h, size_t n,
                             rt_err *err)
{
    (void)err;
    rt_run *run = ctx;
    uint32_t *pid = add_query(run, qid, ql, n);
    for (size_t i = 0; i < n; i++) {
        if (rt_strtab_decimal_padded(h[i].pid, h[i].pid_len, &pid[i]))   /* RT_HIT_PAD */
            continue;
        size_t pcap = run->npt_cap;
        RT_GROW(run->poff, run->npt_cap, run->npt + 1);
        if (run->npt_cap != pcap)
            run->plen = rt_reallocarray(run->plen, run->npt_cap, sizeof *run->plen);
        grow_text(&run->ptext, &run->ptext_len, &run->ptext_cap, h[i].pid, h[i].pid_len, &run->poff[run->npt]);
        run->plen[run->npt] = h[i].pid_len;
        pid[i] = RAW_TEXT | (uint32_t)run->npt++;
    }
    return RT_OK;
}

/* A query whose pids are all decimals, as their values (rt_run_opts.values). */
static rt_status parse_values(void *ctx, const char *qid, size_t ql, const uint32_t *v, size_t n,
                              rt_err *err)
{
    (void)err;
    uint32_t *pid = add_query(ctx, qid, ql, n);
    if (n)
        memcpy(pid, v, n * sizeof *pid);
    return RT_OK;
}

static void parse_reset(void *ctx)
{
    rt_run *run = ctx;
    run->nq = 0;
    run->n = 0;
    run->qtext_len = 0;
    run->ptext_len = 0;
    run->npt = 0;
}

static void free_raw(rt_run *run)
{
    free(run->qtext);
    free(run->ptext);
    free(run->qoff);
    free(run->poff);
    free(run->qlen);
    free(run->plen);
    run->qtext = run->ptext = NULL;
    run->qoff = run->poff = NULL;
    run->qlen = run->plen = NULL;
    run->raw = 0;
}

/* A name given to a run (NAME=, the workspace file) follows the rule of names (rt_name_problem). */
static rt_status check_name(const rt_run_opts *opts, rt_err *err)
{
    const char *why = opts && opts->name ? rt_name_problem(opts->name) : NULL;
    char shown[80];
    if (!why)
        return RT_OK;
    return rt_err_set(err, RT_EUSAGE, "run name \"%s\": %s", rt_id_show(opts->name, strlen(opts->name), shown,
                      sizeof shown), why);
}

rt_status rt_run_parse(rt_run **out, const char *path, const rt_run_opts *opts, rt_err *err)
{
    *out = NULL;
    if (check_name(opts, err) != RT_OK)
        return RT_EUSAGE;
    rt_run *run = rt_calloc(1, sizeof *run);
    run->path = rt_strdup(path);
    run->raw = 1;
    static const rt_run_opts defaults = {0};
    rt_run_opts o = opts ? *opts : defaults;
    o.values = parse_values;
    rt_status st = rt_run_scan(path, &o, parse_query, parse_reset, run, &run->info, err);
    if (st != RT_OK) {
        rt_run_free(&run);
        return st;
    }
    *out = run;
    return RT_OK;
}

/* Appends the queries of b (the second half's parse) to a (the first's), its pids' texts
 * renumbered; 0 when a query is in both, which means the file is not grouped by query (a query
 * straddling the split is whole in a). */
static int join_halves(rt_run *a, rt_run *b)
{
    rt_strtab *seen = rt_strtab_new();
    int both = 0;
    for (uint32_t i = 0; i < a->nq; i++)
        rt_strtab_intern(seen, a->qtext + a->qoff[i], a->qlen[i]);
    for (uint32_t i = 0; i < b->nq && !both; i++)
        both = rt_strtab_find(seen, b->qtext + b->qoff[i], b->qlen[i]) != RT_NO_ID;
    rt_strtab_free(&seen);
    if (both)
        return 0;
    size_t n0 = a->n, npt0 = a->npt, pt0 = a->ptext_len;
    for (uint32_t i = 0; i < b->nq; i++) {
        size_t cap = a->qcap;
        RT_GROW(a->qlist, a->qcap, (size_t)a->nq + 1);
        if (a->qcap != cap) {
            a->start = rt_reallocarray(a->start, a->qcap, sizeof *a->start);
            a->count = rt_reallocarray(a->count, a->qcap, sizeof *a->count);
            a->qoff = rt_reallocarray(a->qoff, a->qcap, sizeof *a->qoff);
            a->qlen = rt_reallocarray(a->qlen, a->qcap, sizeof *a->qlen);
        }
        grow_text(&a->qtext, &a->qtext_len, &a->qtext_cap, b->qtext + b->qoff[i], b->qlen[i], &a->qoff[a->nq]);
        a->qlen[a->nq] = b->qlen[i];
        a->start[a->nq] = n0 + b->start[i];
        a->count[a->nq] = b->count[i];
        a->nq++;
    }
    if (b->npt)   /* its pids' texts follow a's */
        for (size_t k = 0; k < b->n; k++)
            if (b->pid[k] & RAW_TEXT)
                b->pid[k] = RAW_TEXT | (uint32_t)((b->pid[k] & ~RAW_TEXT) + npt0);
    /* b's pids stay where they are (a second segment): copying them would write as many fresh
     * pages as b frees */
    a->pid2 = b->pid;
    a->n0 = n0;
    b->pid = NULL;
    a->n += b->n;
    if (b->npt) {
        size_t off;
        grow_text(&a->ptext, &a->ptext_len, &a->ptext_cap, b->ptext, b->ptext_len, &off);
        RT_GROW(a->poff, a->npt_cap, a->npt + b->npt);
        a->plen = rt_reallocarray(a->plen, a->npt_cap, sizeof *a->plen);
        for (size_t j = 0; j < b->npt; j++) {
            a->poff[npt0 + j] = pt0 + b->poff[j];
            a->plen[npt0 + j] = b->plen[j];
        }
        a->npt += b->npt;
    }
    rt_run_info_join(&a->info, &b->info);
    return 1;
}

/* The halves' reading progress (rt_run_scan_halves: the first half reports both) added to the
 * caller's counter, which other runs read meanwhile may be counting into too: only what passes
 * the most this run has counted, so that a second read (the halves gathered, or the whole file
 * on one thread) never counts a byte twice. Not a progress shown: an rt_progress that counts,
 * called on this thread only (the worker's). */
typedef struct halves_done {
    _Atomic uint64_t *to;
    uint64_t added;   /* of this run, so far (one thread reports) */
} halves_done;

static void add_done(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    (void)phase, (void)total;
    halves_done *h = ctx;
    if (done > h->added) {
        atomic_fetch_add(h->to, done - h->added);
        h->added = done;
    }
}

rt_status rt_run_parse_halves(rt_run **out, const char *path, const rt_run_opts *opts, uint64_t min,
                              rt_err *err)
{
    *out = NULL;
    if (check_name(opts, err) != RT_OK)
        return RT_EUSAGE;
    static const rt_run_opts defaults = {0};
    rt_run_opts o = opts ? *opts : defaults;
    o.values = parse_values;
    struct stat sb;
    uint64_t mid = 0;
    if (o.format != RT_RUN_DUREADER && strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (uint64_t)sb.st_size >= min && (uint64_t)sb.st_size >= 2)
        mid = rt_run_split_offset(path, (uint64_t)sb.st_size);
    halves_done hd = {o.progress_done, 0};
    rt_progress counter = {add_done, &hd};
    if (o.progress_done) {   /* the halves count into one counter of their own: passed on from it */
        o.progress = &counter;
        o.progress_before = o.progress_total = 0;   /* the bytes of this file, as read */
        o.progress_done = NULL;
    }
    for (int gather = 0; mid && gather < 2; gather++) {
        rt_run *h[2];
        for (int k = 0; k < 2; k++) {
            h[k] = rt_calloc(1, sizeof *h[k]);
            h[k]->path = rt_strdup(path);
            h[k]->raw = 1;
        }
        void *ctx[2] = {h[0], h[1]};
        rt_run_info info[2];
        rt_err e;
        rt_status st = rt_run_scan_halves(path, &o, mid, gather, parse_query, ctx, info, &e);
        h[0]->info = info[0];
        h[1]->info = info[1];
        int ok = st == RT_OK && info[0].format == info[1].format &&
                 (info[0].has_scores == info[1].has_scores || info[1].lines == 0) && info[0].lines > 0 &&
                 join_halves(h[0], h[1]);
        rt_run_free(&h[1]);
        if (ok) {
            rt_run_info *x = &h[0]->info;
            if (o.name) {
                free(x->name);
                x->name = rt_strdup(o.name);
            } else if (!x->name) {
                x->name = rt_path_stem(path);
            }
            *out = h[0];
            return RT_OK;
        }
        rt_run_free(&h[0]);
        if (st != RT_OK && st != RT_RUN_NOT_GROUPED)
            break;   /* an input error: the one-thread read reports it with the file's line numbers */
    }
    /* Read again from the start, on this thread: into the shared counter only the bytes past those
     * the halves counted (it never goes back, nor counts a byte twice). */
    return rt_run_parse(out, path, hd.to ? &o : opts, err);
}

void rt_run_intern_begin(rt_run *run, rt_strtab *qids, rt_strtab *pids)
{
    run->qids = qids;
    run->pids = pids;
    run->interned = 0;
    for (uint32_t i = 0; i < run->nq; i++) {
        uint32_t q = rt_strtab_intern(qids, run->qtext + run->qoff[i], run->qlen[i]);
        run->slot = rt_grow_index(run->slot, &run->slot_len, q, sizeof *run->slot, 0xff);
        run->slot[q] = i;
        run->qlist[i] = q;
    }
}

int rt_run_intern_step(rt_run *run, size_t budget)
{
    /* the pids in file order: stretches of decimal values, and of others by their text */
    enum { BATCH = 4096 };   /* texts interned at once */
    const char *s[BATCH];
    size_t len[BATCH];
    size_t k = run->interned, stop = budget < run->n - k ? k + budget : run->n;
    while (k < stop) {
        size_t e = k, end = run->pid2 && k < run->n0 && run->n0 < stop ? run->n0 : stop;
        uint32_t *p = pid_at(run, k);   /* entries k..end, in one segment */
        if (p[0] & RAW_TEXT) {
            while (e < end && e - k < BATCH && (p[e - k] & RAW_TEXT)) {
                uint32_t j = p[e - k] & ~RAW_TEXT;
                s[e - k] = run->ptext + run->poff[j];
                len[e - k] = run->plen[j];
                e++;
            }
            rt_strtab_intern_many(run->pids, s, len, e - k, p);
        } else {   /* values up to the next text (RAW_TEXT is past every value) */
            size_t took = rt_strtab_intern_decimals(run->pids, p, end - k);
            if (!took) {   /* neither a value nor a text's mark: the array was overwritten */
                fprintf(stderr, "retriage: internal error: a run's pid %zu is neither a value nor a "
                        "text\n", k);
                abort();
            }
            e += took;
        }
        k = e;
    }
    run->interned = k;
    return k == run->n;
}

void rt_run_intern_finish(rt_run *run, const char *path, rt_report *report)
{
    free_raw(run);
    rt_report_add(report, RT_REPORT_INFO, "%s: run %s, %zu passages for %zu queries (%s)", path,
                  run->info.name, run->info.hits, run->info.queries,
                  rt_run_format_name(run->info.format));
    rt_run_report_duplicates(&run->info, path, report);
}

void rt_run_intern(rt_run *run, rt_strtab *qids, rt_strtab *pids, const char *path, rt_report *report,
                   void (*tick)(void *ctx), void *tick_ctx)
{
    enum { TICK = 1 << 18 };   /* pids interned between ticks, at most */
    rt_run_intern_begin(run, qids, pids);
    while (!rt_run_intern_step(run, TICK))
        if (tick)
            tick(tick_ctx);
    if (tick)
        tick(tick_ctx);
    rt_run_intern_finish(run, path, report);
}

rt_status rt_run_load(rt_run **out, const char *path, const rt_run_opts *opts, rt_strtab *qids,
                      rt_strtab *pids, rt_report *report, rt_err *err)
{
    rt_status st = rt_run_parse(out, path, opts, err);
    if (st == RT_OK)
        rt_run_intern(*out, qids, pids, path, report, NULL, NULL);
    return st;
}

void rt_run_free(rt_run **rp)
{
    if (!rp || !*rp)
        return;
    rt_run *run = *rp;
    rt_run_info_clear(&run->info);
    free_raw(run);
    free(run->path);
    free((void *)run->checked);
    if (!run->mapped) {
        free(run->qlist);
        free(run->slot);
        free(run->start);
        free(run->count);
        free(run->pid);
        free(run->pid2);
    }
    free(run);
    *rp = NULL;
}

const char *rt_run_name(const rt_run *run) { return run->info.name; }

size_t rt_run_warn_same_names(const char *const *names, size_t n, const char *how, rt_report *rep)
{
    size_t warned = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t k = 0; k < r; k++)
            if (strcmp(names[r], names[k]) == 0) {
                rt_report_add(rep, RT_REPORT_WARNING, "runs %zu and %zu are both named \"%s\"%s", k + 1, r + 1,
                              names[r], how);
                warned++;
                break;
            }
    return warned;
}
const char *rt_run_path(const rt_run *run) { return run->path; }
const rt_run_info *rt_run_get_info(const rt_run *run) { return &run->info; }
uint32_t rt_run_nqueries(const rt_run *run) { return run->nq; }
uint32_t rt_run_qid(const rt_run *run, uint32_t i)
{
    assert(i < run->nq);
    return run->qlist[i];
}

/* Whether every pid of mapped query i is a known id: checked at its first reading, not for all
 * rankings at the attach (every pid of every run, which a reopen would otherwise read). */
static int ranking_known(const rt_run *run, uint32_t i)
{
    unsigned char c = atomic_load_explicit(&run->checked[i], memory_order_relaxed);
    if (!c) {
        const uint32_t *p = pid_at(run, run->start[i]);
        uint32_t top = 0;
        for (uint32_t k = 0; k < run->count[i]; k++)
            top = p[k] > top ? p[k] : top;
        c = run->count[i] == 0 || top < run->npids ? 1 : 2;
        atomic_store_explicit(&run->checked[i], c, memory_order_relaxed);
    }
    return c == 1;
}

const uint32_t *rt_run_ranking(const rt_run *run, uint32_t qid, size_t *n)
{
    uint32_t i = qid < run->slot_len ? run->slot[qid] : RT_NO_ID;
    if (i != RT_NO_ID && run->checked && !ranking_known(run, i))
        i = RT_NO_ID;   /* a damaged cache: the ranking reads as none, never as unknown ids */
    if (i == RT_NO_ID) {
        *n = 0;
        return NULL;
    }
    *n = run->count[i];
    return pid_at(run, run->start[i]);
}

void rt_run_check_all(const rt_run *run, const atomic_int *stop)
{
    for (uint32_t i = 0; run->checked && i < run->nq && !atomic_load_explicit(stop, memory_order_relaxed); i++)
        (void)ranking_known(run, i);
}

static void will_need(const void *p, size_t bytes)
{
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095, b = ((uintptr_t)p + bytes + 4095) & ~(uintptr_t)4095;
    if (bytes)
        (void)madvise((void *)a, b - a, MADV_WILLNEED);   /* a hint: refused is fine */
}

void rt_run_populate(const rt_run *run)
{
#ifdef MADV_POPULATE_READ
    if (!run->mapped || !run->pid || !run->n)
        return;   /* parsed into memory: its pages are there */
    uintptr_t a = (uintptr_t)run->pid & ~(uintptr_t)4095;
    uintptr_t b = ((uintptr_t)(run->pid + run->n) + 4095) & ~(uintptr_t)4095;
    (void)madvise((void *)a, b - a, MADV_POPULATE_READ);   /* a hint: refused is fine */
#else
    (void)run;
#endif
}

void rt_run_prefetch(const rt_run *run, uint32_t qid)
{
    uint32_t i = qid < run->slot_len ? run->slot[qid] : RT_NO_ID;
    if (i == RT_NO_ID || !run->checked || run->start[i] > run->n || run->count[i] > run->n - run->start[i])
        return;   /* parsed into memory (not a mapped cache): nothing to read; or damaged */
    will_need(pid_at(run, run->start[i]), run->count[i] * sizeof *run->pid);
}

/* ---- the image (the workspace cache) --------------------------------------------------------
 * u64 head[HEAD] (below); the name; u32 qlist[nq]; u32 slot[slot_len]; u64 start[nq];
 * u32 count[nq]; u32 pid[n]; each section padded to 8 bytes. */

enum { H_NQ, H_SLOTS, H_N, H_FORMAT, H_SCORES, H_LINES, H_HITS, H_QUERIES, H_DUPS, H_FIRST_DUP,
       H_REGROUPED, H_PHYSICAL, H_NAME, HEAD };

size_t rt_run_image_size(const rt_run *run)
{
    size_t nq = run->nq;
    return HEAD * 8 + RT_IMAGE_PAD(strlen(run->info.name)) + RT_IMAGE_PAD(nq * 4) +
           RT_IMAGE_PAD(run->slot_len * 4) + nq * 8 + RT_IMAGE_PAD(nq * 4) + RT_IMAGE_PAD(run->n * 4);
}

int rt_run_image_write(const rt_run *run, FILE *f)
{
    const rt_run_info *i = &run->info;
    uint64_t head[HEAD] = {
        [H_NQ] = run->nq, [H_SLOTS] = run->slot_len, [H_N] = run->n, [H_FORMAT] = (uint64_t)i->format,
        [H_SCORES] = (uint64_t)i->has_scores, [H_LINES] = i->lines, [H_HITS] = i->hits,
        [H_QUERIES] = i->queries, [H_DUPS] = i->duplicates, [H_FIRST_DUP] = i->first_dup_line,
        [H_REGROUPED] = (uint64_t)i->regrouped, [H_PHYSICAL] = i->physical_lines,
        [H_NAME] = strlen(i->name)};
    rt_image_put(f, head, sizeof head);
    rt_image_put(f, i->name, head[H_NAME]);
    rt_image_put(f, run->qlist, (size_t)run->nq * 4);
    rt_image_put(f, run->slot, run->slot_len * 4);
    for (uint32_t q = 0; q < run->nq; q++) {
        uint64_t s = run->start[q];
        fwrite(&s, sizeof s, 1, f);
    }
    rt_image_put(f, run->count, (size_t)run->nq * 4);
    size_t n0 = run->pid2 ? run->n0 : run->n;
    if (n0)
        fwrite(run->pid, 4, n0, f);
    if (run->n > n0)
        fwrite(run->pid2, 4, run->n - n0, f);
    rt_image_pad(f, run->n * 4);
    return ferror(f) ? -1 : 0;
}

rt_run *rt_run_attach(void *mem, size_t len, const char *path, rt_strtab *qids, rt_strtab *pids)
{
    if (sizeof(size_t) != sizeof(uint64_t))   /* start[] is mapped as size_t */
        return NULL;
    rt_image_cur c = {mem, (unsigned char *)mem + len, (uintptr_t)mem & 7};
    const uint64_t *head = rt_image_take(&c, HEAD, 8);
    uint32_t nqids = rt_strtab_count(qids), npids = rt_strtab_count(pids);
    if (!head || head[H_NQ] > nqids || head[H_SLOTS] > len || head[H_N] > len || head[H_NAME] > len ||
        head[H_FORMAT] > RT_RUN_DUREADER)
        return NULL;
    size_t nq = (size_t)head[H_NQ], slot_len = (size_t)head[H_SLOTS], n = (size_t)head[H_N];
    const char *name = rt_image_take(&c, (size_t)head[H_NAME], 1);
    uint32_t *qlist = rt_image_take(&c, nq, 4), *slot = rt_image_take(&c, slot_len, 4);
    size_t *start = rt_image_take(&c, nq, 8);
    uint32_t *count = rt_image_take(&c, nq, 4), *pid = rt_image_take(&c, n, 4);
    if (c.bad || c.p != c.end || memchr(name, '\0', (size_t)head[H_NAME]))
        return NULL;
    /* what rt_run_ranking indexes with: queries and the slot index agree, every ranking lies in
     * the arrays; that its pids are known ids is checked where a ranking is first read */
    for (size_t q = 0; q < nq; q++)
        if (qlist[q] >= slot_len || slot[qlist[q]] != q || start[q] > n || count[q] > n - start[q])
            return NULL;
    for (size_t k = 0; k < slot_len; k++)
        if (slot[k] != RT_NO_ID && (slot[k] >= nq || qlist[slot[k]] != k))
            return NULL;
    rt_run *run = rt_calloc(1, sizeof *run);
    run->checked = rt_calloc(nq + 1, 1);
    run->npids = npids;
    run->path = rt_strdup(path);
    run->qids = qids;
    run->pids = pids;
    rt_run_info *i = &run->info;
    i->name = rt_strndup(name, (size_t)head[H_NAME]);
    i->format = (rt_run_format)head[H_FORMAT];
    i->has_scores = (int)head[H_SCORES];
    i->lines = (size_t)head[H_LINES];
    i->hits = (size_t)head[H_HITS];
    i->queries = (size_t)head[H_QUERIES];
    i->duplicates = (size_t)head[H_DUPS];
    i->first_dup_line = (size_t)head[H_FIRST_DUP];
    i->regrouped = (int)head[H_REGROUPED];
    i->physical_lines = (size_t)head[H_PHYSICAL];
    run->qlist = qlist;
    run->nq = run->qcap = (uint32_t)nq;
    run->slot = slot;
    run->slot_len = slot_len;
    run->start = start;
    run->count = count;
    run->pid = pid;
    run->n = run->cap = n;
    run->mapped = 1;
    return run;
}
