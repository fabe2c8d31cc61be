/* test_embed — embedding files: .npy (versions 1–3, dtype, order, shape, truncation), .fvecs
 * (truncation, inconsistent dimensions), TSV of floats (separators, id column, ragged rows),
 * NaN and infinity in each, format detection and override, alignment to queries by order and
 * by id, and normalisation. Every error must name the file and the place. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_embed.h"
#include "rt_mem.h"
#include "rt_npy.h"
#include "rt_queries.h"
#include "tap.h"

static char dir[64];

static char *path_in(const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = rt_malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static char *write_bytes(const char *name, const void *s, size_t len)
{
    char *p = path_in(name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(s, 1, len, f) != len || fclose(f) != 0) {
        printf("Bail out! cannot write %s: %s\n", p, strerror(errno));
        exit(1);
    }
    return p;
}

static char *write_str(const char *name, const char *s) { return write_bytes(name, s, strlen(s)); }

/* An .npy file of the given version and dictionary text (padded like NumPy's), then nbytes of
 * data. */
static char *write_npy(const char *name, int major, const char *dict, const void *data, size_t nbytes)
{
    size_t lenbytes = major == 1 ? 2 : 4, pre = 8 + lenbytes, dl = strlen(dict);
    size_t total = (pre + dl + 1 + 63) / 64 * 64;
    unsigned char *buf = rt_calloc(total + nbytes + 1, 1);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    size_t hl = total - pre;
    for (size_t i = 0; i < lenbytes; i++)
        buf[8 + i] = (unsigned char)(hl >> (8 * i));
    memcpy(buf + pre, dict, dl);
    memset(buf + pre + dl, ' ', total - pre - dl - 1);
    buf[total - 1] = '\n';
    if (nbytes)
        memcpy(buf + total, data, nbytes);
    char *p = write_bytes(name, buf, total + nbytes);
    free(buf);
    return p;
}

/* An .fvecs file: for each of n vectors, its dimension dims[i] and dims[i] floats from x. */
static char *write_fvecs(const char *name, size_t n, const int32_t *dims, const float *x, size_t cut)
{
    size_t len = 0, cap = 4096;
    unsigned char *buf = rt_malloc(cap);
    for (size_t i = 0; i < n; i++) {
        memcpy(buf + len, &dims[i], 4);
        len += 4;
        memcpy(buf + len, x, (size_t)dims[i] * 4);
        len += (size_t)dims[i] * 4;
        x += dims[i];
    }
    char *p = write_bytes(name, buf, len - cut);
    free(buf);
    return p;
}

static rt_embed *load_ok(const char *path, const rt_embed_opts *o, const char *what)
{
    rt_embed *e = NULL;
    rt_err err = {0};
    rt_status st = rt_embed_load(&e, path, o, &err);
    if (!ok(st == RT_OK && e, "%s: loads", what))
        printf("#   %s\n", err.msg);
    return e;
}

/* Loading path fails with RT_EINPUT, a message starting with the path and containing want. */
static void load_fails(const char *path, const rt_embed_opts *o, const char *want, const char *what)
{
    rt_embed *e = (rt_embed *)1;
    rt_err err = {0};
    rt_status st = rt_embed_load(&e, path, o, &err);
    int good = st == RT_EINPUT && e == NULL && strncmp(err.msg, path, strlen(path)) == 0 &&
               strstr(err.msg, want) != NULL;
    if (!ok(good, "%s: error", what))
        printf("#   status %d, message: %s\n#   wanted: %s\n", (int)st, err.msg, want);
}

static int rows_equal(const rt_embed *e, const float *want, size_t n, size_t d)
{
    return e && e->n == n && e->d == d && memcmp(e->x, want, n * d * sizeof *want) == 0;
}

static const float M3x4[12] = {1, 2, 3, 4, -0.5f, 0.25f, 1e-3f, 7, 0, 0, 0, 3.5f};

/* ---- .npy ------------------------------------------------------------------------------------ */

static void test_npy(void)
{
    char hdr[128];
    size_t hl = rt_npy_write_f32_header(hdr, sizeof hdr, 3, 4);
    ok(hl > 0 && hl % 64 == 0, "writer: header length is a multiple of 64 (%zu)", hl);
    unsigned char *buf = rt_malloc(hl + sizeof M3x4);
    memcpy(buf, hdr, hl);
    memcpy(buf + hl, M3x4, sizeof M3x4);
    char *p = write_bytes("w.npy", buf, hl + sizeof M3x4);
    rt_embed *e = load_ok(p, NULL, "npy v1 from the writer");
    ok(rows_equal(e, M3x4, 3, 4), "npy v1: values and shape round trip");
    ok(e && !e->ids && !e->lines, "npy: no ids, no lines");
    rt_embed_free(&e);
    ok(e == NULL, "free sets the pointer to NULL");
    free(p);
    free(buf);

    static const char *const good[] = {
        "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }",
        "{'shape': (3, 4), 'fortran_order': False, 'descr': '<f4'}",
        "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (3L, 4L)}",
    };
    for (int major = 1; major <= 3; major++)
        for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
            char name[32], what[64];
            snprintf(name, sizeof name, "g%d_%zu.npy", major, i);
            snprintf(what, sizeof what, "npy v%d.0, dictionary %zu", major, i);
            p = write_npy(name, major, good[i], M3x4, sizeof M3x4);
            e = load_ok(p, NULL, what);
            ok(rows_equal(e, M3x4, 3, 4), "%s: values", what);
            rt_embed_free(&e);
            free(p);
        }
}

static void npy_fails(const char *dict, const void *data, size_t n, const char *want, const char *what)
{
    char *p = write_npy("bad.npy", 1, dict, data, n);
    load_fails(p, NULL, want, what);
    free(p);
}

static void test_npy_errors(void)
{
    char *p = write_str("magic.npy", "\x93NUMPZ\x01\x00{}");
    load_fails(p, NULL, "not a .npy file", "npy: wrong magic");
    free(p);
    p = write_str("text.npy", "0.1\t0.2\n");
    load_fails(p, NULL, "not a .npy file", "npy: text under a .npy name");
    free(p);
    p = write_npy("v4.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4)}", M3x4, sizeof M3x4);
    FILE *f = fopen(p, "r+b");
    fseek(f, 6, SEEK_SET);
    fputc(4, f);
    fclose(f);
    load_fails(p, NULL, "version 4.0 is not 1.0, 2.0 or 3.0", "npy: version 4");
    free(p);
    p = write_bytes("short.npy", "\x93NUMPY\x01\x00\x76\x00{'descr'", 18);
    load_fails(p, NULL, "cut short", "npy: header cut short");
    free(p);

    double d8[12] = {0};
    npy_fails("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", d8, sizeof d8,
              "dtype '<f8' (float64: save x.astype(numpy.float32))", "npy: dtype float64");
    npy_fails("{'descr': '>f4', 'fortran_order': False, 'shape': (3, 4), }", M3x4, sizeof M3x4,
              "big-endian", "npy: big-endian float32");
    npy_fails("{'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }", M3x4, sizeof M3x4,
              "only little-endian float32 ('<f4')", "npy: dtype int32");
    npy_fails("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 4), }", M3x4, sizeof M3x4,
              "Fortran order", "npy: Fortran order");
    npy_fails("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 4), }", M3x4, sizeof M3x4,
              "3 dimensions: expected 2", "npy: 3-D");
    npy_fails("{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }", M3x4, sizeof M3x4,
              "1 dimension: expected 2", "npy: 1-D");
    npy_fails("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4), }", NULL, 0,
              "empty", "npy: no rows");
    npy_fails("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", M3x4, sizeof M3x4 - 6,
              "truncated: shape (3, 4) needs 48 bytes of data, the file holds 42 (row 2, counting "
              "from 0, is incomplete)", "npy: truncated");
    npy_fails("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }", M3x4, sizeof M3x4,
              "16 bytes after the data", "npy: trailing bytes");
    npy_fails("{'descr': '<f4', 'fortran_order': False}", M3x4, sizeof M3x4,
              "'descr', 'fortran_order' and 'shape' are all required", "npy: missing shape");
    npy_fails("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (3, 4)}", M3x4, sizeof M3x4,
              "cannot read the value of 'fortran_order'", "npy: bad boolean");

    float x[12];
    memcpy(x, M3x4, sizeof x);
    x[6] = NAN;
    npy_fails("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", x, sizeof x,
              "row 1 (counting from 0), component 2 is NaN", "npy: NaN");
    x[6] = 1;
    x[11] = -INFINITY;
    npy_fails("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", x, sizeof x,
              "row 2 (counting from 0), component 3 is infinite", "npy: infinity");
}

/* A matrix of 2 MiB (read into huge-page memory) loads exactly; NaN and infinity are found in
 * the groups of 64 the check tests at once, at their exact place, the first one reported. */
static void test_npy_large(void)
{
    size_t n = 1024, d = 512;
    float *x = rt_reallocarray(NULL, n * d, sizeof *x);
    for (size_t i = 0; i < n * d; i++)
        x[i] = (float)((i * 2654435761u) % 1000) / 64 - 7;
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1024, 512), }";
    char *p = write_npy("large.npy", 1, dict, x, n * d * sizeof *x);
    rt_embed *e = load_ok(p, NULL, "npy: 1024 x 512");
    ok(rows_equal(e, x, n, d), "npy: 1024 x 512: every value as written");
    rt_embed_free(&e);
    free(p);
    x[250 * 512 + 77] = NAN;        /* in the middle of a group of 64 */
    x[700 * 512 + 3] = INFINITY;    /* a later one is not the one reported */
    p = write_npy("large-nan.npy", 1, dict, x, n * d * sizeof *x);
    load_fails(p, NULL, "row 250 (counting from 0), component 77 is NaN", "npy: NaN in a large matrix");
    free(p);
    x[250 * 512 + 77] = 1;
    x[n * d - 1] = -INFINITY;       /* the last value */
    x[700 * 512 + 3] = 0;
    p = write_npy("large-inf.npy", 1, dict, x, n * d * sizeof *x);
    load_fails(p, NULL, "row 1023 (counting from 0), component 511 is infinite",
               "npy: infinity as the last value");
    free(p);
    free(x);
}

/* ---- .fvecs ---------------------------------------------------------------------------------- */

static void test_fvecs(void)
{
    const int32_t d4[3] = {4, 4, 4};
    char *p = write_fvecs("ok.fvecs", 3, d4, M3x4, 0);
    rt_embed *e = load_ok(p, NULL, "fvecs");
    ok(rows_equal(e, M3x4, 3, 4), "fvecs: values and shape");
    rt_embed_free(&e);
    free(p);

    p = write_fvecs("cut.fvecs", 3, d4, M3x4, 5);
    load_fails(p, NULL, "vector 2 (counting from 0) is truncated: 2 of its 4 components", "fvecs: truncated data");
    free(p);
    p = write_fvecs("cut2.fvecs", 3, d4, M3x4, 18);
    load_fails(p, NULL, "vector 2 (counting from 0) is truncated: 2 of 4 bytes of its dimension",
               "fvecs: truncated dimension");
    free(p);
    const int32_t mixed[3] = {4, 3, 5};
    p = write_fvecs("mixed.fvecs", 3, mixed, M3x4, 0);
    load_fails(p, NULL, "vector 1 (counting from 0) has dimension 3, vector 0 has 4", "fvecs: dimensions differ");
    free(p);
    const int32_t zero[1] = {0};
    p = write_fvecs("zero.fvecs", 1, zero, M3x4, 0);
    load_fails(p, NULL, "vector 0 has dimension 0: not an .fvecs file", "fvecs: dimension 0");
    free(p);
    p = write_str("empty.fvecs", "");
    load_fails(p, NULL, "empty file", "fvecs: empty");
    free(p);
    float x[12];
    memcpy(x, M3x4, sizeof x);
    x[4] = NAN;
    p = write_fvecs("nan.fvecs", 3, d4, x, 0);
    load_fails(p, NULL, "vector 1 (counting from 0), component 0 is NaN", "fvecs: NaN");
    free(p);
}

/* ---- TSV ------------------------------------------------------------------------------------- */

static void test_tsv(void)
{
    char *p = write_str("plain.tsv", "# a comment\n1\t2\t3\t4\r\n\n-0.5\t0.25\t1e-3\t7\r\n0\t0\t0\t3.5");
    rt_embed *e = load_ok(p, NULL, "tsv: tabs, comment, blank line, CRLF, no final newline");
    ok(rows_equal(e, M3x4, 3, 4), "tsv: values");
    ok(e && !e->ids && e->lines && e->lines[0] == 2 && e->lines[2] == 5, "tsv: rows remember their lines");
    rt_embed_free(&e);
    free(p);

    p = write_str("spaces.txt", "1.000000000000000000e+00 2.0 3 4\n  -5e-1 0.25 0.001 7\n0 0 0 3.5\n");
    e = load_ok(p, NULL, "tsv: numpy.savetxt spaces");
    ok(rows_equal(e, M3x4, 3, 4), "tsv: space-separated values");
    rt_embed_free(&e);
    free(p);

    p = write_str("ids.tsv", "q1\t1\t2\t3\t4\nq2\t-0.5\t0.25\t1e-3\t7\n文3\t0\t0\t0\t3.5\n");
    e = load_ok(p, NULL, "tsv: id column detected");
    ok(rows_equal(e, M3x4, 3, 4), "tsv with ids: values");
    ok(e && e->ids && rt_strtab_count(e->ids) == 3 && strcmp(rt_strtab_str(e->ids, 2), "文3") == 0,
       "tsv with ids: ids in row order");
    rt_embed_free(&e);
    free(p);

    p = write_str("numids.tsv", "101\t1\t2\t3\t4\n102\t-0.5\t0.25\t1e-3\t7\n103\t0\t0\t0\t3.5\n");
    e = load_ok(p, NULL, "tsv: numeric first column, auto");
    ok(e && e->d == 5 && !e->ids, "auto takes a numeric first column as a component");
    rt_embed_free(&e);
    rt_embed_opts yes = {.ids = RT_EMBED_IDS_YES};
    e = load_ok(p, &yes, "tsv: numeric ids with ids=yes");
    ok(rows_equal(e, M3x4, 3, 4) && e->ids && strcmp(rt_strtab_str(e->ids, 0), "101") == 0,
       "ids=yes: numeric ids");
    rt_embed_free(&e);
    free(p);

    p = write_str("noid.tsv", "q1\t1\t2\n");
    rt_embed_opts no = {.ids = RT_EMBED_IDS_NO};
    load_fails(p, &no, ":1: component 1: expected a number, found 'q1'", "ids=no: a word is not a number");
    free(p);
}

static void tsv_fails(const char *text, const char *want, const char *what)
{
    char *p = write_str("bad.tsv", text);
    load_fails(p, NULL, want, what);
    free(p);
}

static void test_tsv_errors(void)
{
    tsv_fails("1\t2\t3\n4\t5\n", "bad.tsv:2: expected 3 numbers (as on line 1), found 2", "tsv: ragged row");
    tsv_fails("q1\t1\t2\nq2\t1\t2\t3\n", "bad.tsv:2: expected an id and 2 numbers (as on line 1), found 3",
              "tsv: ragged row with ids");
    tsv_fails("1\t2\t3\n4\tnan\t6\n", "bad.tsv:2: component 2 is not a finite float32 ('nan')", "tsv: NaN");
    tsv_fails("1\t2\t3\n4\t5\t-inf\n", "bad.tsv:2: component 3 is not a finite float32 ('-inf')", "tsv: -inf");
    tsv_fails("1\t2\t1e39\n", "bad.tsv:1: component 3 is not a finite float32 ('1e39')", "tsv: float32 overflow");
    tsv_fails("1\t2\t3\n4\tfive\t6\n", "bad.tsv:2: component 2: expected a number, found 'five'", "tsv: a word");
    tsv_fails("q1\t1\t2\nq2\t3\t4\nq1\t5\t6\n", "bad.tsv:3: id 'q1' repeated (first on line 1)", "tsv: repeated id");
    tsv_fails("q1\n", "bad.tsv:1: expected an id, then numbers", "tsv: an id without numbers");
    tsv_fails("# only a comment\n\n", "no vectors found (empty file)", "tsv: empty");
}

/* ---- detection and override ------------------------------------------------------------------ */

static void test_detection(void)
{
    char hdr[128];
    size_t hl = rt_npy_write_f32_header(hdr, sizeof hdr, 3, 4);
    unsigned char buf[256];
    memcpy(buf, hdr, hl);
    memcpy(buf + hl, M3x4, sizeof M3x4);
    char *p = write_bytes("npy.bin", buf, hl + sizeof M3x4);
    rt_embed *e = load_ok(p, NULL, "detect .npy by magic");
    ok(rows_equal(e, M3x4, 3, 4), "detected npy: values");
    rt_embed_free(&e);
    free(p);
    const int32_t d4[3] = {4, 4, 4};
    p = write_fvecs("vecs.bin", 3, d4, M3x4, 0);
    e = load_ok(p, NULL, "detect .fvecs by its records");
    ok(rows_equal(e, M3x4, 3, 4), "detected fvecs: values");
    rt_embed_free(&e);
    free(p);
    p = write_str("text.bin", "1 2 3 4\n-0.5 0.25 0.001 7\n0 0 0 3.5\n");
    e = load_ok(p, NULL, "detect text");
    ok(rows_equal(e, M3x4, 3, 4), "detected text: values");
    rt_embed_free(&e);
    free(p);
    p = write_bytes("npy.txt", buf, hl + sizeof M3x4);
    rt_embed_opts npy = {.format = RT_EMBED_NPY};
    e = load_ok(p, &npy, "format=npy overrides a .txt name");
    ok(rows_equal(e, M3x4, 3, 4), "override: values");
    rt_embed_free(&e);
    free(p);

    rt_embed_format f;
    ok(rt_embed_format_parse("fvecs", &f) && f == RT_EMBED_FVECS && !rt_embed_format_parse("npz", &f),
       "format names parse");
    ok(strcmp(rt_embed_format_name(RT_EMBED_TSV), "tsv") == 0, "format names print");
    rt_embed_idcol ic;
    ok(rt_embed_idcol_parse("yes", &ic) && ic == RT_EMBED_IDS_YES && !rt_embed_idcol_parse("1", &ic),
       "id column options parse");
    p = path_in("missing.npy");
    load_fails(p, NULL, "cannot open", "a missing file");
    free(p);
}

/* ---- alignment and normalisation ------------------------------------------------------------- */

static void test_align(void)
{
    rt_err err = {0};
    const char *ids3[] = {"q1", "q2", "q3"}, *ids4[] = {"q1", "q2", "q3", "q4"};
    char *p = write_str("plain.tsv", "1\t2\n3\t4\n5\t6\n");
    rt_embed *e = load_ok(p, NULL, "align: plain rows");
    ok(e && rt_embed_align(e, ids3, 3, p, "q.tsv", &err) == RT_OK, "same count: rows taken in order");
    rt_status st = e ? rt_embed_align(e, ids4, 4, p, "q.tsv", &err) : RT_EINPUT;
    ok(st == RT_EINPUT && strstr(err.msg, "plain.tsv: 3 vectors for the 4 queries of q.tsv"),
       "count mismatch names both counts");
    printf("#   %s\n", err.msg);
    rt_embed_free(&e);
    free(p);

    p = write_str("keyed.tsv", "q3\t5\t6\nq1\t1\t2\nq2\t3\t4\n");
    e = load_ok(p, NULL, "align: keyed rows");
    const float want[6] = {1, 2, 3, 4, 5, 6};
    ok(e && rt_embed_align(e, ids3, 3, p, "q.tsv", &err) == RT_OK && rows_equal(e, want, 3, 2),
       "keyed rows follow the query order");
    ok(e && e->lines[0] == 2 && e->lines[2] == 1 && !e->ids, "lines follow the rows; ids are dropped");
    rt_embed_free(&e);
    e = load_ok(p, NULL, "align: keyed rows, a query missing");
    st = e ? rt_embed_align(e, ids4, 4, p, "q.tsv", &err) : RT_EINPUT;
    ok(st == RT_EINPUT && strstr(err.msg, "keyed.tsv: no vector for query 'q4' of q.tsv"), "missing id");
    rt_embed_free(&e);
    e = load_ok(p, NULL, "align: keyed rows, an extra id");
    const char *ids2[] = {"q1", "q2"};
    st = e ? rt_embed_align(e, ids2, 2, p, "q.tsv", &err) : RT_EINPUT;
    ok(st == RT_EINPUT && strstr(err.msg, "keyed.tsv:1: id 'q3' is not a query of q.tsv"), "extra id");
    rt_embed_free(&e);
    free(p);
}

static void test_normalize(void)
{
    rt_err err = {0};
    char *p = write_str("n.tsv", "3\t4\n-1\t0\n1e-20\t1e-20\n");
    rt_embed *e = load_ok(p, NULL, "normalise: load");
    ok(e && rt_embed_normalize(e, p, &err) == RT_OK, "normalise: ok");
    if (e) {
        is_dbl(e->x[0], 0.6, 1e-7, "3,4 → 0.6,0.8 (x)");
        is_dbl(e->x[1], 0.8, 1e-7, "3,4 → 0.6,0.8 (y)");
        is_dbl(e->x[2], -1, 0, "-1,0 stays");
        is_dbl(e->x[4], sqrt(0.5), 1e-7, "a tiny vector keeps its direction");
    }
    rt_embed_free(&e);
    free(p);
    p = write_str("z.tsv", "q1\t1\t2\nq2\t0\t-0\n");
    e = load_ok(p, NULL, "zero row: load");
    rt_status st = e ? rt_embed_normalize(e, p, &err) : RT_EINPUT;
    ok(st == RT_EINPUT && strstr(err.msg, "z.tsv: line 2, id 'q2' is a zero vector"), "a zero row is an error");
    printf("#   %s\n", err.msg);
    rt_embed_free(&e);
    free(p);
    e = rt_embed_new(2, 3);
    e->x[0] = 1;
    st = rt_embed_normalize(e, "m.npy", &err);
    ok(st == RT_EINPUT && strstr(err.msg, "m.npy: row 1 (counting from 0) is a zero vector"), "zero row in a binary file");
    rt_embed_free(&e);
}

static void test_load_queries(void)
{
    rt_err err = {0};
    char *qp = write_str("q.tsv", "a\t北京天气\nb\t上海天气\nc\t广州天气\n");
    rt_strtab *qids = rt_strtab_new();
    rt_queries *q = NULL;
    ok(rt_queries_load(&q, qp, RT_QUERIES_AUTO, qids, NULL, NULL, &err) == RT_OK, "queries load");
    char *ep = write_str("qe.tsv", "c\t0\t2\na\t3\t0\nb\t1\t1\n");
    rt_embed *e = NULL;
    rt_status st = rt_embed_load_queries(&e, ep, NULL, q, qids, qp, &err);
    ok(st == RT_OK && e && e->n == 3, "load_queries: keyed");
    if (e) {
        ok(e->x[0] == 1 && e->x[1] == 0 && e->x[5] == 1, "row 0 is a's, row 2 is c's, unit length");
        is_dbl(e->x[2], sqrt(0.5), 1e-7, "row 1 is b's, normalised");
    }
    rt_embed_free(&e);
    free(ep);
    ep = write_str("short.tsv", "0\t2\n3\t0\n");
    e = (rt_embed *)1;
    st = rt_embed_load_queries(&e, ep, NULL, q, qids, qp, &err);
    ok(st == RT_EINPUT && e == NULL && strstr(err.msg, "2 vectors for the 3 queries of"), "load_queries: count mismatch");
    free(ep);
    rt_queries_free(&q);
    rt_strtab_free(&qids);
    free(qp);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/rt-test-embed-XXXXXX");
    if (!mkdtemp(dir)) {
        printf("Bail out! mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    test_npy();
    test_npy_large();
    test_npy_errors();
    test_fvecs();
    test_tsv();
    test_tsv_errors();
    test_detection();
    test_align();
    test_normalize();
    test_load_queries();
    int rc = tap_done();
    if (rc == 0) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            printf("# could not remove %s\n", dir);
    } else {
        printf("# files kept in %s\n", dir);
    }
    return rc;
}
