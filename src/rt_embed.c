/* rt_embed — the embedding matrix, choosing a loader, alignment to queries and normalisation.
 * The loaders themselves are in rt_embed_bin.c (.npy, .fvecs) and rt_embed_tsv.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rt_embed.h"
#include "rt_embed_load.h"
#include "rt_mem.h"
#include "rt_names.h"

rt_embed *rt_embed_new(size_t n, size_t d)
{
    rt_embed *e = rt_calloc(1, sizeof *e);
    e->n = n;
    e->d = d;
    e->x = rt_calloc(n * d > 0 ? n * d : 1, sizeof *e->x);
    return e;
}

/* Matrices of 2 MiB and more are aligned to 2 MiB and offered transparent huge pages: a file is
 * then read in a fault per 2 MiB instead of one per 4 KiB, and the matrix product walks fewer
 * TLB entries. */
#define HUGE_PAGE ((size_t)2 << 20)

rt_embed *rt_embed_new_unset(size_t n, size_t d)
{
    rt_embed *e = rt_calloc(1, sizeof *e);
    e->n = n;
    e->d = d;
    size_t count = n * d > 0 ? n * d : 1;
    void *p = NULL;
    if (count >= HUGE_PAGE / sizeof *e->x && count <= SIZE_MAX / sizeof *e->x &&
        posix_memalign(&p, HUGE_PAGE, count * sizeof *e->x) == 0) {
#ifdef MADV_HUGEPAGE
        madvise(p, count * sizeof *e->x, MADV_HUGEPAGE);   /* only advice: failure is harmless */
#endif
        e->x = p;
    } else
        e->x = rt_reallocarray(NULL, count, sizeof *e->x);
    return e;
}

void rt_embed_free(rt_embed **ep)
{
    if (!ep || !*ep)
        return;
    rt_embed *e = *ep;
    free(e->x);
    free(e->lines);
    rt_strtab_free(&e->ids);
    free(e);
    *ep = NULL;
}

const rt_name rt_embed_formats[] = {
    {"auto", RT_EMBED_AUTO}, {"npy", RT_EMBED_NPY}, {"fvecs", RT_EMBED_FVECS}, {"tsv", RT_EMBED_TSV},
    {NULL, 0},
};

const rt_name rt_embed_idcols[] = {
    {"auto", RT_EMBED_IDS_AUTO}, {"yes", RT_EMBED_IDS_YES}, {"no", RT_EMBED_IDS_NO}, {NULL, 0},
};

int rt_embed_format_parse(const char *name, rt_embed_format *fmt)
{
    int v;
    return rt_name_value(rt_embed_formats, name, &v) ? (*fmt = (rt_embed_format)v, 1) : 0;
}

const char *rt_embed_format_name(rt_embed_format fmt) { return rt_name_of(rt_embed_formats, (int)fmt); }

int rt_embed_idcol_parse(const char *name, rt_embed_idcol *ids)
{
    int v;
    return rt_name_value(rt_embed_idcols, name, &v) ? (*ids = (rt_embed_idcol)v, 1) : 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* The extension decides when it names a format; otherwise the first bytes do: the .npy magic, or
 * a plausible little-endian int32 dimension that divides the file into whole .fvecs records
 * (text starts with a digit, sign or letter, which reads as a huge int32). */
static rt_embed_format detect(const char *path)
{
    if (ends_with(path, ".npy"))
        return RT_EMBED_NPY;
    if (ends_with(path, ".fvecs"))
        return RT_EMBED_FVECS;
    if (ends_with(path, ".tsv") || ends_with(path, ".txt") || ends_with(path, ".csv"))
        return RT_EMBED_TSV;
    unsigned char head[8] = {0};
    size_t got = 0;
    long long size = rt_embed_file_head(path, head, sizeof head, &got);
    if (got >= 6 && memcmp(head, "\x93NUMPY", 6) == 0)
        return RT_EMBED_NPY;
    if (got >= 4 && size > 0) {
        uint32_t d = (uint32_t)head[0] | (uint32_t)head[1] << 8 | (uint32_t)head[2] << 16 |
                     (uint32_t)head[3] << 24;
        if (d >= 1 && d <= RT_EMBED_MAX_DIM && size % (4 + 4 * (long long)d) == 0)
            return RT_EMBED_FVECS;
    }
    return RT_EMBED_TSV;
}

rt_status rt_embed_load(rt_embed **out, const char *path, const rt_embed_opts *o, rt_err *err)
{
    *out = NULL;
    rt_embed_format fmt = o ? o->format : RT_EMBED_AUTO;
    if (fmt == RT_EMBED_AUTO)
        fmt = detect(path);
    switch (fmt) {
    case RT_EMBED_NPY: return rt_embed_load_npy(out, path, err);
    case RT_EMBED_FVECS: return rt_embed_load_fvecs(out, path, err);
    default: return rt_embed_load_tsv(out, path, o ? o->ids : RT_EMBED_IDS_AUTO, err);
    }
}

/* Where row r came from, for messages: "line L" (TSV) or "row r" (binary, counted from 0),
 * and its id when it has one. */
static const char *row_name(const rt_embed *e, size_t r, char *buf, size_t cap)
{
    int n = e->lines ? snprintf(buf, cap, "line %zu", e->lines[r])
                     : snprintf(buf, cap, "row %zu (counting from 0)", r);
    if (e->ids && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, ", id '%s'", rt_strtab_str(e->ids, (uint32_t)r));
    return buf;
}

/* Copies rows src[0..n) of e into a new matrix of n rows that replaces e's. */
static void permute(rt_embed *e, const uint32_t *src, size_t n)
{
    float *x = rt_reallocarray(NULL, n * e->d > 0 ? n * e->d : 1, sizeof *x);
    size_t *lines = e->lines ? rt_reallocarray(NULL, n ? n : 1, sizeof *lines) : NULL;
    for (size_t i = 0; i < n; i++) {
        memcpy(x + i * e->d, e->x + (size_t)src[i] * e->d, e->d * sizeof *x);
        if (lines)
            lines[i] = e->lines[src[i]];
    }
    free(e->x);
    free(e->lines);
    e->x = x;
    e->lines = lines;
    e->n = n;
    rt_strtab_free(&e->ids);
}

static rt_status align_by_id(rt_embed *e, const char *const *ids, size_t n, const char *path,
                             const char *queries, rt_err *err)
{
    uint32_t *src = rt_reallocarray(NULL, n ? n : 1, sizeof *src);
    unsigned char *used = rt_calloc(e->n ? e->n : 1, 1);
    rt_status st = RT_OK;
    for (size_t i = 0; i < n && st == RT_OK; i++) {
        src[i] = rt_strtab_find(e->ids, ids[i], strlen(ids[i]));
        if (src[i] == RT_NO_ID)
            st = rt_err_at(err, RT_EINPUT, path, 0, "no vector for query '%s' of %s", ids[i], queries);
        else
            used[src[i]] = 1;
    }
    for (size_t r = 0; r < e->n && st == RT_OK; r++)
        if (!used[r])
            st = rt_err_at(err, RT_EINPUT, path, e->lines ? e->lines[r] : 0,
                           "id '%s' is not a query of %s", rt_strtab_str(e->ids, (uint32_t)r), queries);
    if (st == RT_OK)
        permute(e, src, n);
    free(src);
    free(used);
    return st;
}

rt_status rt_embed_align(rt_embed *e, const char *const *ids, size_t n, const char *path,
                         const char *queries, rt_err *err)
{
    if (e->ids)
        return align_by_id(e, ids, n, path, queries, err);
    if (e->n != n)
        return rt_err_at(err, RT_EINPUT, path, 0,
                         "%zu vectors for the %zu queries of %s: give one vector per query in the "
                         "query file's order, or key them by qid in a TSV id column",
                         e->n, n, queries);
    return RT_OK;
}

rt_status rt_embed_normalize(rt_embed *e, const char *path, rt_err *err)
{
    for (size_t r = 0; r < e->n; r++) {
        float *v = e->x + r * e->d;
        double ss = 0;
        for (size_t j = 0; j < e->d; j++)
            ss += (double)v[j] * v[j];
        if (!(ss > 0)) {
            char where[160];
            return rt_err_at(err, RT_EINPUT, path, 0,
                             "%s is a zero vector, which has no direction (cosine is undefined)",
                             row_name(e, r, where, sizeof where));
        }
        double inv = 1.0 / sqrt(ss);
        for (size_t j = 0; j < e->d; j++)
            v[j] = (float)(v[j] * inv);
    }
    return RT_OK;
}

rt_status rt_embed_load_queries(rt_embed **out, const char *path, const rt_embed_opts *o,
                                const rt_queries *q, const rt_strtab *qids,
                                const char *queries_path, rt_err *err)
{
    rt_status st = rt_embed_load(out, path, o, err);
    if (st != RT_OK)
        return st;
    size_t n = rt_queries_count(q);
    const char **ids = rt_reallocarray(NULL, n ? n : 1, sizeof *ids);
    for (size_t i = 0; i < n; i++)
        ids[i] = rt_strtab_str(qids, rt_queries_qid(q, (uint32_t)i));
    st = rt_embed_align(*out, ids, n, path, queries_path, err);
    free(ids);
    if (st == RT_OK)
        st = rt_embed_normalize(*out, path, err);
    if (st != RT_OK)
        rt_embed_free(out);
    return st;
}
