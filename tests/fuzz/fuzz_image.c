/* fuzz_image — the images of the workspace cache (rt_strtab, rt_qrels, rt_run) damaged at will:
 * a valid image of a small table, qrels or run is built, then patched with the input (pairs of a
 * 16-bit offset and a byte), cut to a length the input picks, and attached. Whatever attaches must
 * keep the invariants the rest of retriage relies on: every string is NUL-terminated at its
 * length (that is where it is read up to), every ranking read holds known pids only, every judgment lies in the judged queries'
 * ranges; and nothing reads outside the image (ASan). The first byte picks the kind. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "rt_qrels.h"
#include "rt_run.h"
#include "rt_strtab.h"

static unsigned char *image(int kind, rt_strtab *qids, rt_strtab *pids, size_t *len)
{
    char *mem = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&mem, &n);
    rt_err err;
    if (kind == 0) {
        rt_strtab *t = rt_strtab_new();
        char s[40];
        for (int i = 0; i < 90; i++)
            rt_strtab_intern(t, s, (size_t)snprintf(s, sizeof s, i % 4 ? "p%d" : "passage-%d-long", i));
        rt_strtab_image_write(t, UINT32_MAX, f);
        rt_strtab_free(&t);
    } else {
        char path[] = "/tmp/rtfuzz-image-XXXXXX";
        int fd = mkstemp(path);
        FILE *in = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!in)
            abort();
        for (int q = 0; q < 6; q++)
            for (int k = 0; k < 7; k++)
                fprintf(in, kind == 1 ? "q%d 0 p%d %d\n" : "q%d Q0 p%d %d %d.5 sys\n", q, (q * 7 + k * 3) % 20,
                        kind == 1 ? k % 3 : k + 1, 20 - k);
        fclose(in);
        if (kind == 1) {
            rt_qrels *q;
            if (rt_qrels_load(&q, path, RT_QRELS_AUTO, qids, pids, NULL, NULL, &err) != RT_OK)
                abort();
            rt_qrels_image_write(q, f);
            rt_qrels_free(&q);
        } else {
            rt_run *r;
            rt_run_opts o = {0};
            if (rt_run_load(&r, path, &o, qids, pids, NULL, &err) != RT_OK)
                abort();
            rt_run_image_write(r, f);
            rt_run_free(&r);
        }
        unlink(path);
    }
    fclose(f);
    *len = n;
    return (unsigned char *)mem;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (n < 3)
        return 0;
    int kind = data[0] % 3;
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    size_t len;
    unsigned char *img = image(kind, qids, pids, &len);
    /* the cut: data[1..2] as a length to drop from the end, 0 most of the time */
    size_t cut = data[1] < 200 ? 0 : (size_t)data[2] % (len + 1);
    len -= cut;
    unsigned char *buf = aligned_alloc(8, len / 8 * 8 + 8);
    memcpy(buf, img, len);
    free(img);
    for (size_t i = 3; i + 3 <= n; i += 3) {
        size_t at = ((size_t)data[i] | (size_t)data[i + 1] << 8) % (len ? len : 1);
        if (len)
            buf[at] = data[i + 2];
    }
    if (kind == 0) {
        rt_strtab *t = rt_strtab_attach(buf, len);
        for (uint32_t id = 0; t && id < rt_strtab_count(t); id++) {
            const char *s = rt_strtab_str(t, id);
            if (s[rt_strtab_len(t, id)] != '\0')
                abort();   /* a string is NUL-terminated at its length (a damaged one may hold
                              another NUL before: shorter on screen, never read past its end) */
            (void)rt_strtab_find(t, s, rt_strtab_len(t, id));
        }
        for (int i = 0; t && i < 200; i++) {   /* enough new strings to rehash */
            char s[16];
            uint32_t id = rt_strtab_intern(t, s, (size_t)snprintf(s, sizeof s, "new%d", i));
            if (rt_strtab_find(t, s, strlen(s)) != id)
                abort();
        }
        rt_strtab_free(&t);
    } else if (kind == 1) {
        rt_qrels *q = rt_qrels_attach(buf, len, "qrels", rt_strtab_count(qids), rt_strtab_count(pids));
        for (uint32_t i = 0; q && i < rt_qrels_nqueries(q); i++) {
            size_t nj;
            const rt_judgment *j = rt_qrels_judgments(q, i, &nj);
            if (rt_qrels_qid(q, i) >= rt_strtab_count(qids) || rt_qrels_index(q, rt_qrels_qid(q, i)) != i)
                abort();
            for (size_t k = 0; k < nj; k++) {
                int32_t g;
                if (j[k].pid >= rt_strtab_count(pids) || !rt_qrels_lookup(q, i, j[k].pid, &g))
                    abort();
            }
        }
        rt_qrels_free(&q);
    } else {
        rt_run *r = rt_run_attach(buf, len, "run", qids, pids);
        for (uint32_t qid = 0; r && qid < rt_strtab_count(qids) + 2; qid++) {
            size_t nh;
            const uint32_t *p = rt_run_ranking(r, qid, &nh);
            for (size_t k = 0; p && k < nh; k++)
                if (p[k] >= rt_strtab_count(pids))
                    abort();   /* a ranking read holds known pids only */
        }
        for (uint32_t i = 0; r && i < rt_run_nqueries(r); i++)
            if (rt_run_qid(r, i) >= rt_strtab_count(qids))
                abort();
        rt_run_free(&r);
    }
    free(buf);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return 0;
}
