/* fuzz_wscache — the workspace cache reader (rt_wscache): a .rtws file in the place of a small
 * workspace's cache, opened with the workspace. The first input byte picks how it is placed:
 *   0  as it is: the header, key, stamps and checksums must all hold, or the inputs are read;
 *   1  resealed: its key, input stamps and checksums set to what this workspace expects (the
 *      layout is src/rt_wscache.c's), so that the fuzzer reaches the sections' readers behind the
 *      checksums, as a forged cache would: every id, range and size in them must still be checked.
 * Either way the open must succeed (from the cache or the inputs) and never read out of bounds.
 * Seeds (tests/fuzz/seeds/wscache/) are caches of the same shape written by retriage, mode 1. */
#include "config.h"

#include <stdint.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "fuzz.h"
#include "rt_workspace.h"

enum { HEADER = 64, COLL = 72, STAMP = 56, SECTION = 24, FIXED_SECTIONS = 5 };
enum { AT_KEY = 24, AT_SIZE = 32, AT_NINPUTS = 40, AT_NRUNS = 48, AT_HASH = 56 };

static char ws_path[256], cache_path[512];
static uint8_t *tmpl;   /* the cache this workspace writes: its key and stamps */
static size_t tmpl_len;

/* The workspace of ws_path with a cache for its small runs, written here, not by a child. */
static rt_status open_tuned(rt_workspace **w, rt_err *err)
{
    static rt_tuning t = RT_TUNING_DEFAULTS;
    t.cache_min = 0;
    t.cache_background_min = 1000000000;
    rt_ws_config *c;
    rt_status st = rt_wsconfig_read(&c, ws_path, err);
    if (st == RT_OK) {
        c->spec.tuning = &t;
        st = rt_workspace_open_config(w, c, NULL, err);
        rt_wsconfig_free(&c);
    }
    return st;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Writes the workspace's inputs and opens it once, so that it writes its cache; keeps that file. */
static void setup(void)
{
    static const char q[] = "q1\tquery one\nq2\tquery two\nq3\tthree\n",
                      qr[] = "q1 0 p1 1\nq1 0 p3 2\nq2 0 p2 0\nq3 0 p9 1\n",
                      r[] = "q1 Q0 p1 1 2.5 r\nq1 Q0 p2 2 2 r\nq2 Q0 p2 1 2 r\nq2 Q0 p4 2 1 r\nq9 Q0 p1 1 1 r\n",
                      c[] = "p1\tpassage one\np2\ttwo\np3\tthree\np4\tfour\n";
    fuzz_file("q.tsv", (const uint8_t *)q, sizeof q - 1);
    fuzz_file("qrels", (const uint8_t *)qr, sizeof qr - 1);
    fuzz_file("run", (const uint8_t *)r, sizeof r - 1);
    fuzz_file("c.tsv", (const uint8_t *)c, sizeof c - 1);
    static const char ws[] = "{\"queries\": \"q.tsv\", \"collection\": \"c.tsv\", \"qrels\": \"qrels\", "
                             "\"runs\": [\"run\"], \"measures\": \"RR@10,AP,nDCG@10\"}";
    snprintf(ws_path, sizeof ws_path, "%s", fuzz_file("ws.json", (const uint8_t *)ws, sizeof ws - 1));
    rt_workspace *w = NULL;
    rt_err err;
    if (open_tuned(&w, &err) != RT_OK)
        abort();
    rt_workspace_free(&w);
    DIR *d = opendir(fuzz_tmp());
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".rtws") == 0)
            snprintf(cache_path, sizeof cache_path, "%s/%s", fuzz_tmp(), e->d_name);
    }
    if (d)
        closedir(d);
    FILE *f = cache_path[0] ? fopen(cache_path, "rb") : NULL;
    if (!f)
        abort();   /* the workspace wrote no cache: the target would test nothing */
    fseek(f, 0, SEEK_END);
    tmpl_len = (size_t)ftell(f);
    rewind(f);
    tmpl = malloc(tmpl_len);
    if (!tmpl || fread(tmpl, 1, tmpl_len, f) != tmpl_len)
        abort();
    fclose(f);
}

/* The input made to pass every check but the sections' own: the template's header (its key, its
 * counts), collection record and stamps; the input's section table and sections, each section
 * that lies inside the file given its checksum; the file size and header hash set last. */
static void reseal(uint8_t *b, size_t n)
{
    uint64_t ninputs = get64(tmpl + AT_NINPUTS), nruns = get64(tmpl + AT_NRUNS);
    size_t fixed = HEADER + COLL + ninputs * STAMP, meta = fixed + (FIXED_SECTIONS + nruns) * SECTION;
    if (n < meta)
        return;
    memcpy(b, tmpl, fixed);
    put64(b + AT_SIZE, n);
    for (size_t s = 0; s < FIXED_SECTIONS + nruns; s++) {
        uint8_t *t = b + fixed + s * SECTION;
        uint64_t off = get64(t), len = get64(t + 8);
        if (off <= n && len <= n - off)
            put64(t + 16, XXH3_64bits(b + off, len));
    }
    put64(b + AT_HASH, 0);
    put64(b + AT_HASH, XXH3_64bits(b, meta));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (!tmpl)
        setup();
    unsigned mode = fuzz_pick(&data, &n, 2);
    uint8_t *b = malloc(n ? n : 1);
    if (!b)
        return 0;
    memcpy(b, data, n);
    if (mode == 1)
        reseal(b, n);
    FILE *f = fopen(cache_path, "wb");
    if (!f || (n && fwrite(b, 1, n, f) != n) || fclose(f) != 0)
        abort();
    free(b);
    rt_workspace *w = NULL;
    rt_err err;
    if (open_tuned(&w, &err) != RT_OK)
        abort();   /* a damaged cache is never an error: the inputs are read instead */
    rt_workspace_free(&w);
    return 0;
}
