/* rt_runscan — reading a run file (rt_runscan.h): the driver of a scan, whole or from a byte range,
 * grouped by query or gathering scattered lines, and two halves read in parallel and joined. The
 * line scanner is rt_runlines.c, the JSON one rt_runjson.c, the ranking rt_runrank.c. */
#include "config.h"

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
#include "rt_path.h"
#include "rt_reader.h"
#include "rt_report.h"
#include "rt_runscan_impl.h"
#include "rt_strtab.h"

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
        st = rt_runscan_emit(s, qid, ql, sorted + start[q], start[q + 1] - start[q], err);
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
    free(s->vset);
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
    rt_status st = s.fmt == RT_RUN_DUREADER ? rt_runscan_json(&s, err) : rt_runscan_lines(&s, err);
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
        st = s.fmt == RT_RUN_DUREADER ? rt_runscan_json(&s, err) : rt_runscan_lines(&s, err);
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

/* The second half's thread. Touches: its half (scan state, status, error). Never touches: the
 * first half or the caller's tables, until joined. */
static void *read_half(void *arg)
{
    half *h = arg;
    h->st = rt_runscan_lines(&h->s, &h->err);
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
            rt_status st = rt_runscan_flush(a, err);
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
            rt_runscan_spell_entries(a, 0, a->np);
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
            rt_runscan_spell_entries(a, from, a->np);
        b->held = 0;
    }
    return rt_runscan_flush(a, err);
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
        if (h[k].s.opts.progress) {   /* both count the bytes they read; the first (this thread) reports */
            h[k].s.opts.progress_done = &done;
            if (k == 1)
                h[k].s.opts.progress = NULL;
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
    /* a window at a time up to 1 MiB past the middle; a small buffer, as lines are short (a large
     * one is a fresh mapping, its pages faulted in for each run) */
    enum { WIN = 16 << 10, MAX = 1 << 20 };
    char buf[WIN];
    uint64_t at = size / 2, result = 0;
    for (uint64_t from = at; from < at + MAX && from < size; from += WIN) {
        ssize_t n = pread(fd, buf, WIN, (off_t)from);
        if (n <= 0)
            break;
        const char *nl = memchr(buf, '\n', (size_t)n);
        if (nl) {
            if (from + (uint64_t)(nl - buf) + 1 < size)   /* the start of the line after the middle */
                result = from + (uint64_t)(nl - buf) + 1;
            break;
        }
    }
    close(fd);
    return result;
}
