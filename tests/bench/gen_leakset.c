/* gen_leakset — writes a synthetic leakage-check set shaped like a query log against a test set:
 * NTRAIN distinct short Chinese training queries and NTEST test queries, half of them one edit
 * away from a training query (tests/unit/synth_zh.h), the rest fresh; and random float32
 * embeddings of dimension DIM for both (standard normal, so no pair reaches a real threshold),
 * as .npy. Deterministic.
 *
 * Usage: gen_leakset DIR [NTRAIN [NTEST [DIM]]]
 *   writes DIR/train.tsv, DIR/test.tsv, DIR/train.npy, DIR/test.npy, and DIR/planted.tsv
 *   (test_qid, train_qid, edit: which training query each edited test query came from) */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_npy.h"
#include "rt_strtab.h"
#include "synth_zh.h"

static FILE *create(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "gen_leakset: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return f;
}

static void finish(FILE *f, const char *name)
{
    if (ferror(f) || fclose(f) != 0) {
        fprintf(stderr, "gen_leakset: error writing %s\n", name);
        exit(1);
    }
}

/* Distinct queries: a repeat would be a true duplicate, not an edit. */
static char **queries(synth_rng *r, size_t n, rt_strtab *seen)
{
    char **q = calloc(n, sizeof *q), buf[64];
    for (size_t i = 0; i < n;) {
        synth_query(r, buf, sizeof buf);
        uint32_t before = rt_strtab_count(seen);
        rt_strtab_intern(seen, buf, strlen(buf));
        if (rt_strtab_count(seen) > before)
            q[i++] = strdup(buf);
    }
    return q;
}

static void write_texts(const char *dir, size_t ntrain, size_t ntest)
{
    synth_rng r = {20220615};
    rt_strtab *seen = rt_strtab_new();
    char **train = queries(&r, ntrain, seen), **fresh = queries(&r, ntest, seen), ed[96];
    FILE *f = create(dir, "train.tsv");
    for (size_t i = 0; i < ntrain; i++)
        fprintf(f, "tr%06zu\t%s\n", i, train[i]);
    finish(f, "train.tsv");
    f = create(dir, "test.tsv");
    FILE *truth = create(dir, "planted.tsv");
    for (size_t i = 0; i < ntest; i++) {
        if (i % 2 == 0) {
            size_t src = synth_below(&r, ntrain);
            synth_edit e = (synth_edit)(i / 2 % SYNTH_NEDITS);
            synth_edit_query(&r, train[src], e, ed);
            fprintf(f, "te%05zu\t%s\n", i, ed);
            fprintf(truth, "te%05zu\ttr%06zu\t%s\n", i, src, synth_edit_names[e]);
        } else {
            fprintf(f, "te%05zu\t%s\n", i, fresh[i]);
        }
    }
    finish(f, "test.tsv");
    finish(truth, "planted.tsv");
    for (size_t i = 0; i < ntrain; i++)
        free(train[i]);
    for (size_t i = 0; i < ntest; i++)
        free(fresh[i]);
    free(train);
    free(fresh);
    rt_strtab_free(&seen);
}

static void write_npy(const char *dir, const char *name, size_t n, size_t d, synth_rng *r)
{
    char hdr[128];
    size_t hl = rt_npy_write_f32_header(hdr, sizeof hdr, n, d);
    FILE *f = create(dir, name);
    fwrite(hdr, 1, hl, f);
    float *row = malloc(d * sizeof *row);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < d; j++) {
            double u = ((double)(synth_next(r) >> 11) + 0.5) / 9007199254740992.0;
            double v = (double)(synth_next(r) >> 11) / 9007199254740992.0;
            row[j] = (float)(sqrt(-2 * log(u)) * cos(2 * M_PI * v));
        }
        fwrite(row, sizeof *row, d, f);   /* little-endian hosts: the bytes are '<f4' */
    }
    free(row);
    finish(f, name);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "Usage: gen_leakset DIR [NTRAIN [NTEST [DIM]]]\n");
        return 2;
    }
    size_t ntrain = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
    size_t ntest = argc > 3 ? strtoul(argv[3], NULL, 10) : 6000;
    size_t dim = argc > 4 ? strtoul(argv[4], NULL, 10) : 768;
    write_texts(argv[1], ntrain, ntest);
    synth_rng r = {768};
    write_npy(argv[1], "train.npy", ntrain, dim, &r);
    write_npy(argv[1], "test.npy", ntest, dim, &r);
    return 0;
}
