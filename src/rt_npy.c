/* rt_npy — reading and writing .npy headers. The dictionary is a Python literal written by
 * NumPy's own repr; this reads that subset (quoted strings, True/False, tuples of integers) and
 * rejects anything else with a message, rather than evaluating Python. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rt_npy.h"

static const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* A cursor over the dictionary text. */
typedef struct cur {
    const char *s, *end;
} cur;

static void skip_blanks(cur *c)
{
    while (c->s < c->end && (*c->s == ' ' || *c->s == '\t' || *c->s == '\n' || *c->s == '\r'))
        c->s++;
}

static int eat(cur *c, char ch)
{
    skip_blanks(c);
    if (c->s < c->end && *c->s == ch) {
        c->s++;
        return 1;
    }
    return 0;
}

/* A quoted string without escapes (NumPy writes none in these keys and dtype strings). */
static int read_string(cur *c, char *out, size_t cap)
{
    skip_blanks(c);
    if (c->s >= c->end || (*c->s != '\'' && *c->s != '"'))
        return 0;
    char q = *c->s++;
    size_t n = 0;
    while (c->s < c->end && *c->s != q && *c->s != '\\') {
        if (n + 1 < cap)
            out[n++] = *c->s;
        c->s++;
    }
    out[n] = '\0';
    if (c->s >= c->end || *c->s != q)
        return 0;
    c->s++;
    return 1;
}

static int read_word(cur *c, const char *w)
{
    size_t n = strlen(w);
    skip_blanks(c);
    if ((size_t)(c->end - c->s) >= n && memcmp(c->s, w, n) == 0) {
        c->s += n;
        return 1;
    }
    return 0;
}

static int read_size(cur *c, size_t *v)
{
    skip_blanks(c);
    if (c->s >= c->end || *c->s < '0' || *c->s > '9')
        return 0;
    size_t x = 0;
    while (c->s < c->end && *c->s >= '0' && *c->s <= '9') {
        unsigned dg = (unsigned)(*c->s++ - '0');
        if (x > (SIZE_MAX - dg) / 10)
            return 0;
        x = x * 10 + dg;
    }
    if (c->s < c->end && *c->s == 'L')   /* Python 2 longs, in files written long ago */
        c->s++;
    *v = x;
    return 1;
}

/* A tuple of sizes: "()", "(3,)", "(3, 4)", with an optional trailing comma. */
static int read_shape(cur *c, rt_npy_header *h)
{
    if (!eat(c, '('))
        return 0;
    h->ndim = 0;
    while (!eat(c, ')')) {
        size_t v;
        if (h->ndim == RT_NPY_MAX_DIMS || !read_size(c, &v))
            return 0;
        h->shape[h->ndim++] = v;
        if (!eat(c, ',')) {
            if (!eat(c, ')'))
                return 0;
            break;
        }
    }
    return 1;
}

static rt_status parse_dict(cur *c, const char *path, rt_npy_header *h, rt_err *err)
{
    int seen_descr = 0, seen_order = 0, seen_shape = 0;
    if (!eat(c, '{'))
        return rt_err_at(err, RT_EINPUT, path, 0, "bad .npy header: expected a '{' dictionary");
    while (!eat(c, '}')) {
        char key[32];
        if (!read_string(c, key, sizeof key) || !eat(c, ':'))
            return rt_err_at(err, RT_EINPUT, path, 0, "bad .npy header: expected 'key': value");
        int okv;
        if (strcmp(key, "descr") == 0)
            okv = seen_descr = read_string(c, h->descr, sizeof h->descr);
        else if (strcmp(key, "fortran_order") == 0) {
            h->fortran_order = read_word(c, "True");
            okv = seen_order = h->fortran_order || read_word(c, "False");
        } else if (strcmp(key, "shape") == 0)
            okv = seen_shape = read_shape(c, h);
        else
            return rt_err_at(err, RT_EINPUT, path, 0, "bad .npy header: unknown key '%s'", key);
        if (!okv)
            return rt_err_at(err, RT_EINPUT, path, 0,
                             "bad .npy header: cannot read the value of '%s'", key);
        if (!eat(c, ',')) {
            if (!eat(c, '}'))
                return rt_err_at(err, RT_EINPUT, path, 0, "bad .npy header: expected ',' or '}'");
            break;
        }
    }
    if (!seen_descr || !seen_order || !seen_shape)
        return rt_err_at(err, RT_EINPUT, path, 0,
                         "bad .npy header: 'descr', 'fortran_order' and 'shape' are all required");
    return RT_OK;
}

static size_t le_read(const unsigned char *p, size_t nbytes)
{
    size_t v = 0;
    for (size_t i = nbytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

rt_status rt_npy_parse(const unsigned char *buf, size_t len, const char *path, rt_npy_header *h,
                       size_t *need, rt_err *err)
{
    memset(h, 0, sizeof *h);
    if (len < 8 || memcmp(buf, magic, sizeof magic) != 0)
        return rt_err_at(err, RT_EINPUT, path, 0, "not a .npy file (it does not start with \\x93NUMPY)");
    h->major = buf[6];
    h->minor = buf[7];
    if (h->major < 1 || h->major > 3)
        return rt_err_at(err, RT_EINPUT, path, 0, ".npy format version %d.%d is not 1.0, 2.0 or 3.0",
                         h->major, h->minor);
    /* Version 1 has a 2-byte dictionary length; 2 and 3 a 4-byte one (3 allows UTF-8 in it). */
    size_t lenbytes = h->major == 1 ? 2 : 4;
    if (len < 8 + lenbytes)
        return rt_err_at(err, RT_EINPUT, path, 0, ".npy header is cut short");
    size_t dict_len = le_read(buf + 8, lenbytes);
    if (dict_len > RT_NPY_MAX_HEADER)
        return rt_err_at(err, RT_EINPUT, path, 0, ".npy header length %zu is implausible", dict_len);
    h->data_offset = 8 + lenbytes + dict_len;
    if (need)
        *need = h->data_offset;
    if (len < h->data_offset)
        return rt_err_at(err, RT_EINPUT, path, 0, ".npy header is cut short (%zu of %zu bytes)", len,
                         h->data_offset);
    cur c = {(const char *)buf + 8 + lenbytes, (const char *)buf + h->data_offset};
    rt_status st = parse_dict(&c, path, h, err);
    if (st != RT_OK)
        return st;
    skip_blanks(&c);
    if (c.s != c.end)
        return rt_err_at(err, RT_EINPUT, path, 0, "bad .npy header: text after the dictionary");
    return RT_OK;
}

size_t rt_npy_write_f32_header(char *buf, size_t cap, size_t n, size_t d)
{
    char dict[96];
    int dl = snprintf(dict, sizeof dict,
                      "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %zu), }", n, d);
    if (dl < 0 || (size_t)dl >= sizeof dict)
        return 0;
    /* magic (6) + version (2) + length (2) + dictionary + padding + '\n' ≡ 0 (mod 64) */
    size_t total = (10 + (size_t)dl + 1 + 63) / 64 * 64;
    if (total > cap || total - 10 > UINT16_MAX)
        return 0;
    memcpy(buf, magic, sizeof magic);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (char)((total - 10) & 0xff);
    buf[9] = (char)((total - 10) >> 8);
    memcpy(buf + 10, dict, (size_t)dl);
    memset(buf + 10 + dl, ' ', total - 10 - (size_t)dl - 1);
    buf[total - 1] = '\n';
    return total;
}
