/* rt_embed_bin — the binary embedding loaders: NumPy .npy and .fvecs. Both read straight into
 * the matrix (no second copy of a file that may be gigabytes) after checking that the file's
 * size is exactly what its header promises, so a truncated file is caught before any reading. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rt_embed_load.h"
#include "rt_mem.h"
#include "rt_npy.h"

/* Opens a regular file for binary reading and gets its size. */
static rt_status open_bin(const char *path, FILE **f, long long *size, rt_err *err)
{
    struct stat st;
    *f = fopen(path, "rb");
    if (!*f)
        return rt_err_at(err, RT_EINPUT, path, 0, "cannot open: %s", strerror(errno));
    if (fstat(fileno(*f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(*f);
        *f = NULL;
        return rt_err_at(err, RT_EINPUT, path, 0, "not a regular file");
    }
    *size = (long long)st.st_size;
    return RT_OK;
}

long long rt_embed_file_head(const char *path, unsigned char *buf, size_t cap, size_t *got)
{
    FILE *f;
    long long size;
    *got = 0;
    if (open_bin(path, &f, &size, NULL) != RT_OK)
        return -1;
    *got = fread(buf, 1, cap, f);
    fclose(f);
    return size;
}

/* The files are little-endian; a big-endian host swaps each 4-byte word after reading. */
static void from_le32(void *p, size_t nwords)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    unsigned char *b = p;
    for (size_t i = 0; i < nwords; i++, b += 4) {
        unsigned char t0 = b[0], t1 = b[1];
        b[0] = b[3];
        b[1] = b[2];
        b[2] = t1;
        b[3] = t0;
    }
#else
    (void)p;
    (void)nwords;
#endif
}

/* The index of the first NaN or infinity among x[0..n), or n. Whole groups of 64 are tested
 * without a branch per value (the exponent bits all set), which the compiler can vectorise: a pass
 * at memory speed. */
static size_t first_nonfinite(const float *x, size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint32_t bad = 0;
        for (size_t u = 0; u < 64; u++) {
            uint32_t b;
            memcpy(&b, x + i + u, sizeof b);
            bad |= (b & 0x7f800000u) == 0x7f800000u;
        }
        if (bad)
            break;
    }
    for (; i < n; i++)
        if (!isfinite(x[i]))
            return i;
    return n;
}

/* NaN and infinity have no direction to compare; a model that wrote them is broken. */
static rt_status check_finite(const rt_embed *e, const char *path, const char *row_word, rt_err *err)
{
    size_t i = first_nonfinite(e->x, e->n * e->d);
    if (i < e->n * e->d)
        return rt_err_at(err, RT_EINPUT, path, 0, "%s %zu (counting from 0), component %zu is %s",
                         row_word, i / e->d, i % e->d, isnan(e->x[i]) ? "NaN" : "infinite");
    return RT_OK;
}

/* ---- .npy ------------------------------------------------------------------------------------ */

static rt_status read_npy_header(FILE *f, const char *path, rt_npy_header *h, rt_err *err)
{
    size_t cap = 4096, need = 0;
    unsigned char *buf = rt_malloc(cap);
    size_t got = fread(buf, 1, cap, f);
    rt_status st = rt_npy_parse(buf, got, path, h, &need, err);
    if (st != RT_OK && need > got && got == cap) {   /* a long header: read the rest and retry */
        buf = rt_realloc(buf, need);
        got += fread(buf + got, 1, need - got, f);
        st = rt_npy_parse(buf, got, path, h, NULL, err);
    }
    free(buf);
    return st;
}

static rt_status check_npy_header(const rt_npy_header *h, const char *path, rt_err *err)
{
    if (strcmp(h->descr, "<f4") != 0) {
        const char *hint = strcmp(h->descr, "<f8") == 0   ? " (float64: save x.astype(numpy.float32))"
                           : strcmp(h->descr, "<f2") == 0 ? " (float16: save x.astype(numpy.float32))"
                           : strcmp(h->descr, ">f4") == 0 ? " (big-endian float32: save x.astype('<f4'))"
                                                          : "";
        return rt_err_at(err, RT_EINPUT, path, 0,
                         "dtype '%s'%s: only little-endian float32 ('<f4') is read",
                         h->descr, hint);
    }
    if (h->fortran_order)
        return rt_err_at(err, RT_EINPUT, path, 0,
                         "the array is in Fortran order: save numpy.ascontiguousarray(x) (C order)");
    if (h->ndim != 2)
        return rt_err_at(err, RT_EINPUT, path, 0,
                         "the array has %zu dimension%s: expected 2, (vectors, dimension)", h->ndim,
                         h->ndim == 1 ? "" : "s");
    if (h->shape[0] == 0 || h->shape[1] == 0)
        return rt_err_at(err, RT_EINPUT, path, 0, "the array is empty (shape (%zu, %zu))", h->shape[0],
                         h->shape[1]);
    if (h->shape[1] > RT_EMBED_MAX_DIM)
        return rt_err_at(err, RT_EINPUT, path, 0, "dimension %zu is implausible (at most %u)",
                         h->shape[1], RT_EMBED_MAX_DIM);
    return RT_OK;
}

static rt_status check_size(long long size, size_t offset, size_t n, size_t d, const char *path,
                            rt_err *err)
{
    if (n > (SIZE_MAX - offset) / 4 / d)
        return rt_err_at(err, RT_EINPUT, path, 0, "shape (%zu, %zu) is too large", n, d);
    unsigned long long want = offset + (unsigned long long)n * d * 4;
    if ((unsigned long long)size < want) {
        unsigned long long have = (unsigned long long)size - offset;
        return rt_err_at(err, RT_EINPUT, path, 0,
                         "truncated: shape (%zu, %zu) needs %llu bytes of data, the file holds %llu "
                         "(row %llu, counting from 0, is incomplete)",
                         n, d, want - offset, have, have / (4ULL * d));
    }
    if ((unsigned long long)size > want)
        return rt_err_at(err, RT_EINPUT, path, 0, "%llu bytes after the data of shape (%zu, %zu)",
                         (unsigned long long)size - want, n, d);
    return RT_OK;
}

rt_status rt_embed_load_npy(rt_embed **out, const char *path, rt_err *err)
{
    FILE *f;
    long long size;
    rt_npy_header h;
    rt_status st = open_bin(path, &f, &size, err);
    if (st != RT_OK)
        return st;
    st = read_npy_header(f, path, &h, err);
    if (st == RT_OK)
        st = check_npy_header(&h, path, err);
    if (st == RT_OK)
        st = check_size(size, h.data_offset, h.shape[0], h.shape[1], path, err);
    rt_embed *e = NULL;
    if (st == RT_OK) {
        e = rt_embed_new_unset(h.shape[0], h.shape[1]);
        if (fseek(f, (long)h.data_offset, SEEK_SET) != 0 ||
            fread(e->x, sizeof *e->x, e->n * e->d, f) != e->n * e->d)
            st = rt_err_at(err, RT_EINPUT, path, 0, "read error: %s", strerror(errno));
    }
    fclose(f);
    if (st == RT_OK) {
        from_le32(e->x, e->n * e->d);
        st = check_finite(e, path, "row", err);
    }
    if (st != RT_OK)
        rt_embed_free(&e);
    *out = e;
    return st;
}

/* ---- .fvecs ---------------------------------------------------------------------------------- */

static rt_status read_dim(FILE *f, size_t vec, const char *path, int32_t *d, rt_err *err)
{
    unsigned char b[4];
    size_t got = fread(b, 1, 4, f);
    if (got != 4)
        return rt_err_at(err, RT_EINPUT, path, 0,
                         "vector %zu (counting from 0) is truncated: %zu of 4 bytes of its dimension",
                         vec, got);
    *d = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
    return RT_OK;
}

static rt_status read_fvecs(FILE *f, rt_embed *e, const char *path, rt_err *err)
{
    for (size_t i = 0; i < e->n; i++) {
        int32_t d;
        rt_status st = read_dim(f, i, path, &d, err);
        if (st != RT_OK)
            return st;
        if ((size_t)d != e->d || d < 0)
            return rt_err_at(err, RT_EINPUT, path, 0,
                             "vector %zu (counting from 0) has dimension %d, vector 0 has %zu", i,
                             (int)d, e->d);
        size_t got = fread(e->x + i * e->d, sizeof *e->x, e->d, f);
        if (got != e->d)
            return rt_err_at(err, RT_EINPUT, path, 0,
                             "vector %zu (counting from 0) is truncated: %zu of its %zu components",
                             i, got, e->d);
    }
    return RT_OK;
}

rt_status rt_embed_load_fvecs(rt_embed **out, const char *path, rt_err *err)
{
    FILE *f;
    long long size;
    int32_t d = 0;
    *out = NULL;
    rt_status st = open_bin(path, &f, &size, err);
    if (st != RT_OK)
        return st;
    if (size == 0)
        st = rt_err_at(err, RT_EINPUT, path, 0, "empty file: no vectors");
    else
        st = read_dim(f, 0, path, &d, err);
    if (st == RT_OK && (d < 1 || (uint32_t)d > RT_EMBED_MAX_DIM))
        st = rt_err_at(err, RT_EINPUT, path, 0,
                       "vector 0 has dimension %d: not an .fvecs file (int32 d, then d float32)",
                       (int)d);
    rt_embed *e = NULL;
    if (st == RT_OK) {
        /* A partial last record counts as a vector, so that reading it reports the truncation. */
        long long rec = 4 + 4 * (long long)d;
        e = rt_embed_new_unset((size_t)((size + rec - 1) / rec), (size_t)d);
        rewind(f);
        st = read_fvecs(f, e, path, err);
    }
    fclose(f);
    if (st == RT_OK) {
        from_le32(e->x, e->n * e->d);
        st = check_finite(e, path, "vector", err);
    }
    if (st != RT_OK)
        rt_embed_free(&e);
    *out = e;
    return st;
}
