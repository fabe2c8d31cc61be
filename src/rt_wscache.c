/* rt_wscache — the workspace cache file: where it lives, its layout, validating and mapping it,
 * and writing it atomically (through rt_file). The structures' own images are their modules'
 * (rt_strtab, rt_qrels, rt_run); this file only places them.
 *
 * Layout (native byte order; a marker in the header rejects a file from a machine of the other):
 *   header     64 bytes, below
 *   collection 72 bytes: its stamp, whether it has one, how many judged pids it lacks (so a
 *              reopen need not look them up; a changed collection only makes that count
 *              looked up again, not the runs parsed again)
 *   stamps     ninputs × rt_stamp: the queries file (when the workspace has one), the qrels,
 *              each run, as they were when they were parsed
 *   sections   (5 + nruns) × {u64 offset, u64 length, u64 XXH3_64bits of its bytes}: qids, pids,
 *              qrels, report, evals, each run
 * The evals are each run's values against the base qrels for one set of measures and relevance
 * level (u64 key, nq, nm, nruns; per run value[nq × nm], defined[nq × nm], seen[nq]): a reopen
 * with those measures need not read a ranking; with others it evaluates, as without a cache.
 *   the sections, each 8-aligned, one after another to the end of the file
 * The header's meta_hash (XXH3) covers the header, collection record, stamps and section table;
 * each section's own checksum covers every byte of it, padding included, so every byte of the
 * file is covered by one of them.
 *
 * Why every section is verified at the restore, before any of its values is used: a damaged
 * cache must never change a number, and the modules' attach functions only check what an index
 * can reach (an id in range), not the values (a metric, a grade, a rank order). Checking later,
 * per ranking as it is first read (as rt_run checks its pids are known ids) or on a background
 * thread, was weighed and not chosen: damage found after the open has returned can no longer
 * send it back to the inputs, so the numbers already shown or about to be shown would have to
 * read as none, which changes them. The price is one pass over the whole file at every reopen,
 * where before only the small arrays and the rankings used were read: XXH3 runs at memory speed,
 * but a cold cache is read from disk (README, "Input formats", and tests/bench/PERF.md). The run
 * sections, most of the file, are split between two threads (the second takes the later half
 * of the runs; the first the small sections and the earlier half, then attaches the id tables),
 * so a reopen on two cores waits for about half of the hashing. A section that does not match
 * makes the whole cache unused: the inputs are parsed again and the load report says so in one
 * line. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_file.h"
#include "rt_hash.h"
#include "rt_image.h"
#include "rt_mapguard.h"
#include "rt_mem.h"
#include "rt_stamp.h"
#include "rt_wscache.h"

#include <pthread.h>
#include <xxhash.h>

#define WS_MAGIC "RTWSCACH"
#define WS_VERSION 5u   /* 2: the collection's stamp and the judged pids it lacks; 3: evals;
                            4: runs without their scores; 5: every section checksummed (XXH3) */
#define WS_ORDER_MARK 0x0102030405060708ULL
#define WS_EXT ".rtws"

enum { SEC_QIDS, SEC_PIDS, SEC_QRELS, SEC_REPORT, SEC_EVALS, SEC_RUNS };

typedef struct ws_header {
    char magic[8];
    uint32_t version, header_size;
    uint64_t order_mark;
    uint64_t key;          /* rt_wscache_key's hash: which workspace this is */
    uint64_t file_size;
    uint64_t ninputs, nruns;
    uint64_t meta_hash;    /* of header (this field 0), stamps and sections */
} ws_header;

typedef struct ws_coll {
    rt_stamp stamp;
    uint64_t present;      /* 1: the workspace has a collection, stamp is its */
    uint64_t missing;      /* judged pids not in it; UINT64_MAX: not counted */
} ws_coll;

_Static_assert(sizeof(ws_header) == 64, "the cache header is 64 bytes");
_Static_assert(sizeof(ws_coll) == 72, "the collection record is 72 bytes");
_Static_assert(sizeof(rt_stamp) == 56, "a stamp is 7 words");

typedef struct section {
    uint64_t off, len;
    uint64_t sum;          /* XXH3_64bits of the section's len bytes */
} section;

_Static_assert(sizeof(section) == 24, "a section entry is 3 words");

struct rt_wscache {
    char **inputs;          /* paths, in stamp order */
    rt_stamp *stamps;       /* as rt_wscache_begin found them */
    size_t ninputs, nruns;
    int has_queries;
    uint64_t key;
    char *side, *fallback;  /* beside the anchor; in the cache folder (may be NULL) */
    char *used;             /* the file restored from or written, or NULL */
    void *map;              /* the restored file, mapped privately (the strtabs write to it) */
    size_t map_len;
    const unsigned char *report;  /* the report section of the map */
    size_t report_len;
    ws_coll coll;           /* the collection as begin stamped it; missing: as restored or set */
    uint64_t background_min;   /* rt_tuning.cache_background_min */
    const unsigned char *evals;   /* the evals section of the map, or NULL */
    size_t evals_len;
};

static uint64_t fold(uint64_t h, const void *p, size_t n) { return rt_hash_mix(h ^ rt_hash_bytes(p, n)) + n; }

/* A file by its real path: the same workspace opened by another name (relative, absolute, through
 * a link to its folder) finds the same cache, rather than writing a second one of a gigabyte. The
 * replayed report then names the files as the open that wrote the cache did. */
static uint64_t fold_str(uint64_t h, const char *s)
{
    if (!s)
        return rt_hash_mix(h + 0x51);
    char *abs = realpath(s, NULL);
    const char *name = abs ? abs : s;
    h = fold(h, name, strlen(name) + 1);
    free(abs);
    return h;
}

static uint64_t key_hash(const rt_wscache_key *k)
{
    uint64_t h = rt_hash_mix(0x7274777363616368ULL);   /* not the version: a new version rewrites the file */
    h = fold_str(h, k->anchor);
    h = fold_str(h, k->queries);
    h = fold_str(h, k->qrels);
    for (size_t r = 0; r < k->nruns; r++) {
        h = fold_str(h, k->runs[r]);
        const char *name = k->names ? k->names[r] : NULL;
        h = name ? fold(h, name, strlen(name) + 1) : rt_hash_mix(h + 0x52);
    }
    uint64_t opts[2] = {(uint64_t)k->order, (uint64_t)k->strict};
    return fold(h, opts, sizeof opts);
}

rt_wscache *rt_wscache_begin(const rt_wscache_key *k)
{
    rt_wscache *c = rt_calloc(1, sizeof *c);
    const rt_tuning *t = rt_tuning_or_default(k->tuning);
    uint64_t cache_min = t->cache_min;
    c->background_min = t->cache_background_min;
    c->has_queries = k->queries != NULL;
    c->nruns = k->nruns;
    c->ninputs = (size_t)c->has_queries + 1 + k->nruns;
    c->inputs = rt_calloc(c->ninputs, sizeof *c->inputs);
    c->stamps = rt_calloc(c->ninputs, sizeof *c->stamps);
    size_t i = 0;
    if (k->queries)
        c->inputs[i++] = rt_strdup(k->queries);
    c->inputs[i++] = rt_strdup(k->qrels);
    for (size_t r = 0; r < k->nruns; r++)
        c->inputs[i++] = rt_strdup(k->runs[r]);
    /* sizes first, with stat alone: a pipe is never opened here (its writer could lose its only
     * reader), and a small workspace costs no sampling */
    uint64_t run_bytes = 0;
    for (i = 0; i < c->ninputs; i++) {
        struct stat st;
        if (strcmp(c->inputs[i], "-") == 0 || stat(c->inputs[i], &st) != 0 || !S_ISREG(st.st_mode)) {
            rt_wscache_free(&c);   /* standard input, a pipe, a missing file: nothing to stamp */
            return NULL;
        }
        if (i >= c->ninputs - k->nruns)
            run_bytes += (uint64_t)st.st_size;
    }
    rt_err e;
    for (i = 0; i < c->ninputs && run_bytes >= cache_min; i++)
        if (rt_stamp_file(c->inputs[i], &c->stamps[i], &e) != RT_OK)
            run_bytes = 0;   /* gone or changed kind meanwhile */
    if (run_bytes < cache_min || run_bytes == 0) {
        rt_wscache_free(&c);
        return NULL;
    }
    if (k->anchor) {   /* the collection: its own stamp, which decides only the judged count */
        struct stat st;
        c->coll.present = stat(k->anchor, &st) == 0 && S_ISREG(st.st_mode) &&
                          rt_stamp_file(k->anchor, &c->coll.stamp, &e) == RT_OK;
        if (!c->coll.present) {
            rt_wscache_free(&c);
            return NULL;
        }
    }
    c->coll.missing = UINT64_MAX;
    c->key = key_hash(k);
    char name[40];
    snprintf(name, sizeof name, ".%016llx" WS_EXT, (unsigned long long)c->key);
    const char *anchor = k->anchor ? k->anchor : k->qrels;
    c->side = rt_malloc(strlen(anchor) + sizeof name);
    strcpy(c->side, anchor);
    strcat(c->side, name);
    char *dir = rt_file_cache_dir("workspaces");
    if (dir) {
        c->fallback = rt_malloc(strlen(dir) + sizeof name + 1);
        sprintf(c->fallback, "%s/%s", dir, name + 1);
        free(dir);
    }
    return c;
}

const char *rt_wscache_path(const rt_wscache *c) { return c ? c->used : NULL; }

const void *rt_wscache_map(const rt_wscache *c, size_t *len)
{
    *len = c && c->map ? c->map_len : 0;
    return c ? c->map : NULL;
}

void rt_wscache_free(rt_wscache **cp)
{
    if (!cp || !*cp)
        return;
    rt_wscache *c = *cp;
    for (size_t i = 0; i < c->ninputs; i++)
        free(c->inputs[i]);
    free(c->inputs);
    free(c->stamps);
    free(c->side);
    free(c->fallback);
    free(c->used);
    if (c->map) {
        rt_mapguard_remove(c->map);
        munmap(c->map, c->map_len);
    }
    free(c);
    *cp = NULL;
}

/* ---- restoring -------------------------------------------------------------------------------- */

static size_t meta_len(size_t ninputs, size_t nruns)
{
    return sizeof(ws_header) + sizeof(ws_coll) + ninputs * sizeof(rt_stamp) + (SEC_RUNS + nruns) * sizeof(section);
}

static uint64_t meta_hash(const unsigned char *meta, size_t len)
{
    unsigned char *copy = rt_malloc(len);   /* a few KiB: the header, stamps and table */
    memcpy(copy, meta, len);
    memset(copy + offsetof(ws_header, meta_hash), 0, sizeof(uint64_t));
    uint64_t x = XXH3_64bits(copy, len);
    free(copy);
    return x;
}

/* Maps path when it is this workspace's cache with a valid header. 1, or 0 with *why set when
 * the file is there but not usable (NULL: there is none). */
static int map_file(rt_wscache *c, const char *path, char *why, size_t whylen)
{
    why[0] = '\0';
    /* never a cache through a link; a FIFO in its place is opened without waiting for a writer,
     * then refused as not a regular file */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    size_t mlen = meta_len(c->ninputs, c->nruns);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < mlen ||
        (uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        snprintf(why, whylen, "too short or not a regular file");
        return 0;
    }
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(why, whylen, "cannot map: %s", strerror(errno));
        return 0;
    }
    rt_mapguard_add(map, len, path);
    const ws_header *h = map;
    const ws_coll *coll = (const ws_coll *)(h + 1);
    const rt_stamp *stamps = (const rt_stamp *)(coll + 1);
    if (memcmp(h->magic, WS_MAGIC, 8) != 0 || h->version != WS_VERSION || h->header_size != sizeof *h ||
        h->order_mark != WS_ORDER_MARK || h->key != c->key || h->ninputs != c->ninputs ||
        h->nruns != c->nruns || h->file_size != len || h->meta_hash != meta_hash(map, mlen)) {
        snprintf(why, whylen, "not a cache of this workspace, of another version, or damaged");
    } else {
        for (size_t i = 0; i < c->ninputs && !why[0]; i++) {
            const char *d = rt_stamp_diff(&stamps[i], &c->stamps[i]);
            if (d)
                snprintf(why, whylen, "%s changed (%s)", c->inputs[i], d);
        }
    }
    if (why[0]) {
        rt_mapguard_remove(map);
        munmap(map, len);
        return 0;
    }
    c->map = map;
    c->map_len = len;
    if (coll->present == c->coll.present && (!c->coll.present || !rt_stamp_diff(&coll->stamp, &c->coll.stamp)))
        c->coll.missing = coll->missing;
    return 1;
}

static const section *sec_table(const rt_wscache *c)
{
    return (const section *)((const char *)c->map + sizeof(ws_header) + sizeof(ws_coll) +
                             c->ninputs * sizeof(rt_stamp));
}

/* The section s of the map, or NULL when it does not lie inside the file, 8-aligned. */
static void *sec(const rt_wscache *c, size_t s, size_t *len)
{
    const section *t = sec_table(c);
    uint64_t off = t[s].off, n = t[s].len;
    if ((off & 7) || off > c->map_len || n > c->map_len - off)
        return NULL;
    *len = (size_t)n;
    return (char *)c->map + off;
}

/* True when the report section holds whole lines: u64 count, then per line u64 kind, u64 length
 * and the text, padded. */
static int report_sane(const unsigned char *p, size_t len)
{
    rt_image_cur cur = {(unsigned char *)p, (unsigned char *)p + len, 0};
    const uint64_t *n = rt_image_take(&cur, 1, 8);
    for (uint64_t i = 0; n && i < *n && !cur.bad; i++) {
        const uint64_t *kl = rt_image_take(&cur, 2, 8);
        const char *text = kl ? rt_image_take(&cur, (size_t)kl[1], 1) : NULL;
        if (!text || kl[0] > RT_REPORT_WARNING || memchr(text, '\0', (size_t)kl[1]))
            return 0;
    }
    return n && !cur.bad && cur.p == cur.end;
}

static const char *sec_name(size_t s)
{
    static const char *const names[SEC_RUNS] = {"query ids", "passage ids", "qrels", "load report", "evaluations"};
    return s < SEC_RUNS ? names[s] : "run";
}

/* Sections [from, to) of the map checked against their checksums: SIZE_MAX when all match (and
 * lie inside the file, one after another from the table's end to the file's end: no byte
 * uncovered), else the first that does not. */
static size_t sums_check(const rt_wscache *c, size_t from, size_t to)
{
    const section *t = sec_table(c);
    for (size_t s = from; s < to; s++) {
        size_t n;
        const void *p = sec(c, s, &n);
        uint64_t end = s + 1 < SEC_RUNS + c->nruns ? t[s + 1].off : c->map_len;
        uint64_t start = s == 0 ? meta_len(c->ninputs, c->nruns) : t[s].off;
        if (!p || t[s].off != start || t[s].off + n != end || XXH3_64bits(p, n) != t[s].sum)
            return s;
    }
    return SIZE_MAX;
}

typedef struct sums_job {
    const rt_wscache *c;
    size_t from, to, bad;
} sums_job;

/* A checksum thread. Touches: reads the sections from..to of the cache's mapping; writes bad.
 * Never touches: the rest of the cache, which the opening thread checks meanwhile. */
static void *sums_thread(void *arg)
{
    sums_job *j = arg;
    j->bad = sums_check(j->c, j->from, j->to);
    return NULL;
}

int rt_wscache_restore(rt_wscache *c, rt_strtab **qids, rt_strtab **pids, rt_qrels **qrels,
                       rt_run **runs, rt_report *report)
{
    char why[1200], why2[1200];
    const char *path = c->side;
    if (!map_file(c, path, why, sizeof why) && c->fallback && map_file(c, c->fallback, why2, sizeof why2))
        path = c->fallback;
    else if (!c->map && !why[0] && c->fallback && why2[0]) {
        path = c->fallback;
        memcpy(why, why2, sizeof why);
    }
    if (!c->map) {
        if (why[0])
            rt_report_add(report, RT_REPORT_INFO, "%s: workspace cache not used: %s; the inputs are read again", path, why);
        return 0;
    }
    /* every checksum before a value is read; half the runs' on a second thread meanwhile (the id
     * tables' attach writes to their own sections only, which this thread has checked) */
    size_t half = SEC_RUNS + c->nruns / 2;   /* the runs are nearly all of it: half each */
    sums_job runs_job = {c, half, SEC_RUNS + c->nruns, SIZE_MAX};
    pthread_t th;
    int threaded = c->nruns > 0 && pthread_create(&th, NULL, sums_thread, &runs_job) == 0;
    size_t bad = sums_check(c, 0, half);
    if (!threaded)
        runs_job.bad = sums_check(c, half, SEC_RUNS + c->nruns);
    size_t len[SEC_RUNS];
    void *p[SEC_RUNS];
    for (size_t s = 0; s < SEC_RUNS; s++)
        p[s] = bad == SIZE_MAX ? sec(c, s, &len[s]) : NULL;
    rt_strtab *q = p[SEC_QIDS] ? rt_strtab_attach(p[SEC_QIDS], len[SEC_QIDS]) : NULL;
    rt_strtab *d = q && p[SEC_PIDS] ? rt_strtab_attach(p[SEC_PIDS], len[SEC_PIDS]) : NULL;
    rt_qrels *j = d && p[SEC_QRELS] ? rt_qrels_attach(p[SEC_QRELS], len[SEC_QRELS], c->inputs[c->has_queries],
                                                       rt_strtab_count(q), rt_strtab_count(d)) : NULL;
    int good = j && p[SEC_REPORT] && report_sane(p[SEC_REPORT], len[SEC_REPORT]);
    if (threaded)
        pthread_join(th, NULL);
    if (bad == SIZE_MAX)
        bad = runs_job.bad;
    good = good && bad == SIZE_MAX;
    size_t r = 0;
    for (; good && r < c->nruns; r++) {
        size_t n;
        void *x = sec(c, SEC_RUNS + r, &n);
        runs[r] = x ? rt_run_attach(x, n, c->inputs[c->ninputs - c->nruns + r], q, d) : NULL;
        good = runs[r] != NULL;
    }
    if (!good) {
        while (r > 0)
            rt_run_free(&runs[--r]);
        rt_qrels_free(&j);
        rt_strtab_free(&d);
        rt_strtab_free(&q);
        rt_mapguard_remove(c->map);
        munmap(c->map, c->map_len);
        c->map = NULL;
        if (bad != SIZE_MAX && bad >= SEC_RUNS)
            rt_report_add(report, RT_REPORT_WARNING, "%s: workspace cache damaged (the checksum of run %zu's "
                          "section does not match); the inputs are read again", path, bad - SEC_RUNS + 1);
        else if (bad != SIZE_MAX)
            rt_report_add(report, RT_REPORT_WARNING, "%s: workspace cache damaged (the checksum of its %s "
                          "does not match); the inputs are read again", path, sec_name(bad));
        else
            rt_report_add(report, RT_REPORT_WARNING, "%s: workspace cache damaged; the inputs are read again", path);
        return 0;
    }
    c->report = p[SEC_REPORT];
    c->report_len = len[SEC_REPORT];
    c->evals = p[SEC_EVALS];   /* its checksum matched; its sizes are checked when used */
    c->evals_len = c->evals ? len[SEC_EVALS] : 0;
    c->used = rt_strdup(path);
    *qids = q;
    *pids = d;
    *qrels = j;
    return 1;
}

void rt_wscache_replay(const rt_wscache *c, rt_report *report)
{
    rt_image_cur cur = {(unsigned char *)c->report, (unsigned char *)c->report + c->report_len, 0};
    const uint64_t *n = rt_image_take(&cur, 1, 8);
    for (uint64_t i = 0; i < *n; i++) {
        const uint64_t *kl = rt_image_take(&cur, 2, 8);
        const char *text = rt_image_take(&cur, (size_t)kl[1], 1);
        rt_report_add(report, (rt_report_kind)kl[0], "%.*s", (int)kl[1], text);
    }
    rt_report_add(report, RT_REPORT_INFO, "%s: workspace cache reused (the inputs are unchanged)", c->used);
}

/* ---- writing ---------------------------------------------------------------------------------- */

static size_t report_size(const rt_report *rep, size_t first, size_t last)
{
    size_t n = 8;
    for (size_t i = first; i < last; i++) {
        rt_report_kind kind;
        n += 16 + RT_IMAGE_PAD(strlen(rt_report_line(rep, i, &kind)));
    }
    return n;
}

static void report_write(const rt_report *rep, size_t first, size_t last, FILE *f)
{
    uint64_t n = last - first;
    fwrite(&n, sizeof n, 1, f);
    for (size_t i = first; i < last; i++) {
        rt_report_kind kind;
        const char *line = rt_report_line(rep, i, &kind);
        uint64_t kl[2] = {(uint64_t)kind, strlen(line)};
        fwrite(kl, sizeof kl, 1, f);
        rt_image_put(f, line, strlen(line));
    }
}

/* ---- the evals ---------------------------------------------------------------------------------- */

static size_t evals_size(const rt_ws_evals *e, size_t nruns)
{
    if (!e)
        return 4 * 8;
    size_t nq = e->nq, nm = e->nm;
    return 4 * 8 + nruns * (nq * nm * 8 + RT_IMAGE_PAD(nq * nm) + RT_IMAGE_PAD(nq));
}

static void evals_write(const rt_ws_evals *e, size_t nruns, FILE *f)
{
    uint64_t head[4] = {e ? e->key : 0, e ? e->nq : 0, e ? e->nm : 0, e ? nruns : 0};
    fwrite(head, sizeof head, 1, f);
    for (size_t r = 0; e && r < nruns; r++) {
        rt_image_put(f, e->base[r]->value, e->nq * e->nm * 8);
        rt_image_put(f, e->base[r]->defined, e->nq * e->nm);
        rt_image_put(f, e->base[r]->seen, e->nq);
    }
}

int rt_wscache_base(const rt_wscache *c, uint64_t key, size_t r, rt_eval_result *into)
{
    if (!c || !c->evals || c->evals_len < 4 * 8)
        return 0;
    rt_image_cur cur = {(unsigned char *)c->evals, (unsigned char *)c->evals + c->evals_len, 0};
    const uint64_t *head = rt_image_take(&cur, 4, 8);
    size_t nq = into->nq, nm = into->nm;
    if (head[0] != key || head[1] != nq || head[2] != nm || head[3] != c->nruns || r >= c->nruns ||
        c->evals_len != 4 * 8 + c->nruns * (nq * nm * 8 + RT_IMAGE_PAD(nq * nm) + RT_IMAGE_PAD(nq)))
        return 0;
    const unsigned char *p = c->evals + 4 * 8 + r * (nq * nm * 8 + RT_IMAGE_PAD(nq * nm) + RT_IMAGE_PAD(nq));
    memcpy(into->value, p, nq * nm * 8);
    memcpy(into->defined, p + nq * nm * 8, nq * nm);
    memcpy(into->seen, p + nq * nm * 8 + RT_IMAGE_PAD(nq * nm), nq);
    for (size_t i = 0; i < nq * nm; i++)   /* a flag is 0 or 1, as the evaluator wrote it */
        into->defined[i] = into->defined[i] != 0;
    for (size_t i = 0; i < nq; i++)
        into->seen[i] = into->seen[i] != 0;
    return 1;
}

typedef struct contents {
    const rt_strtab *qids, *pids;
    uint32_t nqids, npids;    /* their first ids: the tables as the open left them */
    const rt_qrels *qrels;
    rt_run *const *runs;
    const rt_report *report;
    size_t first, last;
    const rt_ws_evals *evals;
    const unsigned char *meta;
    size_t meta_len;
} contents;

/* A stream that passes what is written to out and hashes it on the way (XXH3), so that each
 * section's checksum is taken from the very bytes its module writes, without reading the file
 * back. */
typedef struct hash_sink {
    FILE *out;
    XXH3_state_t *st;
} hash_sink;

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    hash_sink *k = cookie;
    XXH3_64bits_update(k->st, buf, n);
    return fwrite(buf, 1, n, k->out) == n ? (ssize_t)n : -1;
}

/* Writes the cache w to dest: the meta first with the sections' checksums left 0, the sections
 * through a hashing stream, then the meta again with the checksums and its own hash. */
static rt_status write_to(const char *dest, const contents *w, size_t nruns, rt_err *err)
{
    struct stat sb;
    if (lstat(dest, &sb) == 0 && !S_ISREG(sb.st_mode))
        return rt_err_set(err, RT_EIO, "%s: not a regular file; left alone", dest);
    hash_sink k = {NULL, XXH3_createState()};
    if (!k.st)
        return rt_err_set(err, RT_EIO, "%s: no memory for its checksum", dest);
    rt_outfile *o;
    rt_status st = rt_outfile_open(&o, dest, err);
    if (st != RT_OK) {
        XXH3_freeState(k.st);
        return st;
    }
    FILE *f = rt_outfile_stream(o);
    k.out = f;
    (void)fchmod(fileno(f), 0644);
    unsigned char *meta = rt_malloc(w->meta_len);
    memcpy(meta, w->meta, w->meta_len);
    fwrite(meta, 1, w->meta_len, f);
    section *t = (section *)(meta + w->meta_len - (SEC_RUNS + nruns) * sizeof(section));
    cookie_io_functions_t io = {.write = sink_write};
    FILE *tee = fopencookie(&k, "w", io);
    for (size_t s = 0; tee && s < SEC_RUNS + nruns; s++) {
        XXH3_64bits_reset(k.st);
        if (s == SEC_QIDS)
            rt_strtab_image_write(w->qids, w->nqids, tee);
        else if (s == SEC_PIDS)
            rt_strtab_image_write(w->pids, w->npids, tee);
        else if (s == SEC_QRELS)
            rt_qrels_image_write(w->qrels, tee);
        else if (s == SEC_REPORT)
            report_write(w->report, w->first, w->last, tee);
        else if (s == SEC_EVALS)
            evals_write(w->evals, nruns, tee);
        else
            rt_run_image_write(w->runs[s - SEC_RUNS], tee);
        if (fflush(tee) != 0)
            break;
        t[s].sum = XXH3_64bits_digest(k.st);
    }
    int ok = tee && !ferror(tee);
    if (tee && fclose(tee) != 0)
        ok = 0;
    XXH3_freeState(k.st);
    ((ws_header *)meta)->meta_hash = meta_hash(meta, w->meta_len);
    if (!ok || fseek(f, 0, SEEK_SET) != 0 || fwrite(meta, 1, w->meta_len, f) != w->meta_len) {
        free(meta);
        rt_outfile_discard(&o);
        return rt_err_set(err, RT_EIO, "%s: cannot write: %s", dest, strerror(errno ? errno : EIO));
    }
    free(meta);
    return rt_outfile_commit(&o, err);   /* a short write shows as an error here */
}

int rt_wscache_judged_missing(const rt_wscache *c, size_t *missing)
{
    if (!c || c->coll.missing == UINT64_MAX)
        return 0;
    *missing = (size_t)c->coll.missing;
    return 1;
}

void rt_wscache_set_judged_missing(rt_wscache *c, size_t missing) { c->coll.missing = missing; }

/* Writes w beside the anchor, else in the cache folder: the file written, or NULL (e, e2 say why). */
static const char *write_any(const rt_wscache *c, const contents *w, rt_err *e, rt_err *e2)
{
    if (write_to(c->side, w, c->nruns, e) == RT_OK)
        return c->side;
    if (!c->fallback)
        return NULL;
    char *dir = rt_strndup(c->fallback, (size_t)(strrchr(c->fallback, '/') - c->fallback));
    rt_status st = rt_file_mkdirs(dir, 0700, e2);   /* private, as the XDG spec asks */
    if (st == RT_OK)
        st = write_to(c->fallback, w, c->nruns, e2);
    free(dir);
    return st == RT_OK ? c->fallback : NULL;
}

/* NULL when every input still looks as stamped at the open; else what differs ("gone" when it
 * cannot be stamped), and *which input. sampled: its content sample too (a read of 384 KiB a
 * file); else size, times and inode only (an fstat). */
static const char *input_changed(const rt_wscache *c, int sampled, size_t *which)
{
    for (size_t i = 0; i < c->ninputs; i++) {
        rt_stamp now;
        rt_err e;
        rt_status st = sampled ? rt_stamp_file(c->inputs[i], &now, &e) : rt_stamp_file_meta(c->inputs[i], &now, &e);
        if (st == RT_OK && !sampled)
            now.sample = c->stamps[i].sample;   /* not looked at */
        const char *d = st == RT_OK ? rt_stamp_diff(&c->stamps[i], &now) : "gone";
        if (d) {
            *which = i;
            return d;
        }
    }
    return NULL;
}

struct rt_wscache_job {
    const rt_wscache *c;
    contents w;
};

int rt_wscache_job_write(const rt_wscache_job *job)
{
    size_t changed;
    if (input_changed(job->c, 1, &changed))
        return 0;   /* changed while it was read: no cache (the next open reads the files) */
    rt_err e, e2;
    return write_any(job->c, &job->w, &e, &e2) != NULL;
}

long rt_wscache_save(rt_wscache *c, const rt_strtab *qids, uint32_t nqids, const rt_strtab *pids,
                     uint32_t npids, const rt_qrels *qrels, rt_run *const *runs, const rt_ws_evals *evals,
                     rt_report *report, size_t first, size_t last, rt_wscache_runner run, void *run_ctx)
{
    size_t changed;   /* read as it was stamped, or the cache would lie */
    const char *d = input_changed(c, 0, &changed);
    if (d) {
        rt_report_add(report, RT_REPORT_INFO, "workspace cache not written: %s changed while it was read (%s)",
                      c->inputs[changed], d);
        return 0;
    }
    size_t mlen = meta_len(c->ninputs, c->nruns);
    unsigned char *meta = rt_calloc(1, mlen);
    ws_header *h = (ws_header *)meta;
    memcpy(h->magic, WS_MAGIC, 8);
    h->version = WS_VERSION;
    h->header_size = sizeof *h;
    h->order_mark = WS_ORDER_MARK;
    h->key = c->key;
    h->ninputs = c->ninputs;
    h->nruns = c->nruns;
    memcpy(h + 1, &c->coll, sizeof c->coll);
    memcpy(meta + sizeof *h + sizeof c->coll, c->stamps, c->ninputs * sizeof *c->stamps);
    section *t = (section *)(meta + sizeof *h + sizeof c->coll + c->ninputs * sizeof *c->stamps);
    uint64_t off = mlen;
    for (size_t s = 0; s < SEC_RUNS + c->nruns; s++) {
        size_t n = s == SEC_QIDS ? rt_strtab_image_size(qids, nqids) : s == SEC_PIDS ? rt_strtab_image_size(pids, npids)
                 : s == SEC_QRELS ? rt_qrels_image_size(qrels) : s == SEC_REPORT ? report_size(report, first, last)
                 : s == SEC_EVALS ? evals_size(evals, c->nruns) : rt_run_image_size(runs[s - SEC_RUNS]);
        t[s] = (section){off, n, 0};   /* sum: by write_to */
        off += n;
    }
    h->file_size = off;   /* the checksums and meta_hash: by write_to, from the bytes it writes */
    rt_wscache_job job = {c, {qids, pids, nqids, npids, qrels, runs, report, first, last, evals, meta, mlen}};
    long pid = run && h->file_size >= c->background_min ? run(&job, run_ctx) : 0;
    if (pid > 0) {   /* the inputs' content samples are that process's to read again */
        rt_report_add(report, RT_REPORT_INFO, "workspace cache being written in the background "
                      "(process %ld; to %s, or the cache folder when that cannot be written; the "
                      "next open maps it)", pid, c->side);
        free(meta);
        return pid;
    }
    if ((d = input_changed(c, 1, &changed)) != NULL) {
        rt_report_add(report, RT_REPORT_INFO, "workspace cache not written: %s changed while it was read (%s)",
                      c->inputs[changed], d);
        free(meta);
        return 0;
    }
    rt_err e, e2;
    const char *dest = write_any(c, &job.w, &e, &e2);
    free(meta);
    if (dest) {
        free(c->used);
        c->used = rt_strdup(dest);
        rt_report_add(report, RT_REPORT_INFO, "%s: workspace cache written (the next open maps it)", dest);
    } else {
        rt_report_add(report, RT_REPORT_WARNING, "workspace cache not written: %s%s%s", e.msg,
                      c->fallback ? "; " : "", c->fallback ? e2.msg : "");
    }
    return 0;
}
