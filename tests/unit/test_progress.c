/* test_progress — the one progress type (rt_progress) as the loaders report through it: a
 * collection's index built, a run parsed, a workspace opened (its phases in order, each ending at
 * its total), always on the thread that called, even when the runs and the collection are read on
 * threads of their own. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_collection.h"
#include "rt_runstage.h"
#include "rt_workspace.h"
#include "synth_run.h"
#include "tap.h"

enum { MAXCALLS = 100000 };

/* Every call, in order. */
static struct {
    const char *phase[MAXCALLS];
    uint64_t done[MAXCALLS], total[MAXCALLS];
    size_t n;
    int elsewhere;   /* calls from a thread other than the one that opened */
    pthread_t opener;
} rec;

static void record(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    (void)ctx;
    rec.elsewhere += !pthread_equal(pthread_self(), rec.opener);
    if (rec.n < MAXCALLS) {
        rec.phase[rec.n] = phase;
        rec.done[rec.n] = done;
        rec.total[rec.n++] = total;
    }
}

static const rt_progress recorder = {record, NULL};

static void rec_start(void)
{
    rec.n = 0;
    rec.elsewhere = 0;
    rec.opener = pthread_self();
}

static uint64_t size_of(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

/* Within phase: done never decreases and never passes a known total. Returns the number of calls
 * of the phase, *last its last (index), or 0. */
static size_t phase_calls(const char *phase, int *monotonic, size_t *last)
{
    size_t n = 0;
    uint64_t prev = 0;
    *monotonic = 1;
    for (size_t i = 0; i < rec.n; i++) {
        if (strcmp(rec.phase[i], phase) != 0)
            continue;
        if (rec.done[i] < prev || (rec.total[i] && rec.done[i] > rec.total[i]))
            *monotonic = 0;
        prev = rec.done[i];
        *last = i;
        n++;
    }
    return n;
}

/* The phases in the order they came, each once (a phase that comes back after another is
 * written again): "qrels runs collection". */
static void phase_order(char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < rec.n; i++)
        if (i == 0 || strcmp(rec.phase[i], rec.phase[i - 1]) != 0)
            len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s", len ? " " : "", rec.phase[i]);
}

/* A collection of 50,000 passages, p0..p49999, in dir. Owned: the caller frees the path. */
static char *collection_in(const char *dir)
{
    size_t pl = strlen(dir) + 32;
    char *path = malloc(pl);
    snprintf(path, pl, "%s/collection.tsv", dir);
    FILE *f = fopen(path, "w");
    for (int i = 0; f && i < 50000; i++)
        fprintf(f, "p%d\tpassage %d of the collection\n", i, i);
    if (!f || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
    return path;
}

/* Its index, built by an open, removed: the next open builds it again. */
static void index_remove(const char *coll)
{
    char idx[4096];
    snprintf(idx, sizeof idx, "%s.rtidx", coll);
    unlink(idx);
}

static void test_collection(const char *coll)
{
    index_remove(coll);
    rec_start();
    rt_collection *c = NULL;
    rt_err err = {0};
    ok(rt_collection_open(&c, coll, &recorder, NULL, &err) == RT_OK, "a collection opens (%s)", err.msg);
    int mono;
    size_t last = 0, n = phase_calls("collection", &mono, &last);
    ok(n > 0 && n == rec.n, "building its index reports the phase \"collection\" (%zu calls of %zu)", n, rec.n);
    ok(mono, "its bytes never go back nor past the total");
    ok(n && rec.done[last] == rec.total[last] && rec.total[last] == size_of(coll),
       "it ends at the total, the file's size (%llu of %llu)", n ? (unsigned long long)rec.done[last] : 0ULL,
       (unsigned long long)size_of(coll));
    ok(!rec.elsewhere, "on the thread that opened it");
    rt_collection_close(&c);
    rec_start();
    rt_status st = rt_collection_open(&c, coll, &recorder, NULL, &err);
    ok(st == RT_OK && rec.n == 0, "opened again with its index: nothing built, nothing reported (%zu calls)", rec.n);
    rt_collection_close(&c);
}

static void test_run(const char *path)
{
    rec_start();
    uint64_t size = size_of(path), before = 1000;
    rt_run_opts o = {.progress = &recorder, .progress_phase = "run", .progress_before = before,
                     .progress_total = before + size};
    rt_run *run = NULL;
    rt_err err = {0};
    ok(rt_run_parse(&run, path, &o, &err) == RT_OK, "a run parses (%s)", err.msg);
    int mono;
    size_t last = 0, n = phase_calls("run", &mono, &last);
    ok(n >= 2 && n == rec.n, "reading it reports the phase it was given, every 8,192 lines (%zu calls)", n);
    ok(mono, "its bytes never go back nor past the total");
    int after = 1;
    for (size_t i = 0; i < rec.n; i++)
        after &= rec.done[i] > before && rec.total[i] == before + size;
    ok(after, "counted after the bytes before it, of the total given");
    rt_run_free(&run);
    /* counted only: a worker's read, which its opener shows from the counter */
    _Atomic uint64_t counted = 0;
    rt_run_opts w = {.progress_done = &counted};
    rec_start();
    rt_status st = rt_run_parse(&run, path, &w, &err);
    uint64_t c = atomic_load(&counted);
    ok(st == RT_OK && c > 0 && c <= size && rec.n == 0,
       "with a counter and no progress, its bytes are counted (%llu of %llu), nothing called (%zu calls)",
       (unsigned long long)c, (unsigned long long)size, rec.n);
    rt_run_free(&run);
}

/* A workspace open: the phases in order, the runs' and the collection's bytes ending at their
 * totals, all on the opening thread. */
static void test_workspace(const char *how, rt_ws_spec *spec, const char *coll, uint64_t runs_total, int threaded)
{
    index_remove(coll);
    rec_start();
    rt_workspace *ws = NULL;
    rt_err err = {0};
    ok(rt_workspace_open(&ws, spec, &recorder, &err) == RT_OK, "%s: opens (%s)", how, err.msg);
    char order[200];
    phase_order(order, sizeof order);
    ok(strcmp(order, "qrels runs collection") == 0, "%s: the phases in order, each once (%s)", how, order);
    int mono;
    size_t last = 0, n = phase_calls("runs", &mono, &last);
    /* on threads, the ticks come while the opener waits for a run: it may not have to */
    ok(n >= (threaded ? 1u : 2u) && mono, "%s: the runs' bytes reported (%zu calls), never going back", how, n);
    ok(n && rec.done[last] == runs_total && rec.total[last] == runs_total, "%s: ending at their total (%llu)", how,
       (unsigned long long)runs_total);
    n = phase_calls("collection", &mono, &last);
    ok(n >= 1 && mono, "%s: the collection's bytes reported (%zu calls), never going back", how, n);
    if (!threaded)   /* its thread may end before the opener looks: then only its start is seen */
        ok(n && rec.done[last] == size_of(coll) && rec.total[last] == size_of(coll),
           "%s: ending at its size (%llu)", how, (unsigned long long)size_of(coll));
    ok(!rec.elsewhere, "%s: every call on the opening thread (%d elsewhere)", how, rec.elsewhere);
    rt_workspace_free(&ws);
}

int main(void)
{
    char dir[] = "/tmp/rt_progress_XXXXXX";
    if (!mkdtemp(dir)) {
        perror(dir);
        return 2;
    }
    setenv("XDG_CACHE_HOME", dir, 1);   /* an index that cannot go beside the file goes here */
    char *coll = collection_in(dir);
    test_collection(coll);
    char *a = synth_run(1), *b = synth_run(2);
    const char *paths[2] = {tmp_file(a), tmp_file(b)};
    free(a);
    free(b);
    test_run(paths[0]);
    const char *qrels = tmp_file("q0 0 p7919 1\nq1 0 p15838 1\nq3 0 p104 1\n");
    rt_ws_spec spec = {.qrels = qrels, .run_paths = paths, .nruns = 2, .collection = coll, .measures = "RR@10",
                       .no_cache = 1};
    rt_tuning tuning = RT_TUNING_DEFAULTS;
    spec.tuning = &tuning;
    tuning.parallel_min = 99999999999ULL;   /* one by one, the collection too */
    uint64_t runs_total = size_of(paths[0]) + size_of(paths[1]);
    test_workspace("one by one", &spec, coll, runs_total, 0);
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        printf("# skipped: the runs are read on threads only with two cores or more\n");
    } else {
        tuning.parallel_min = 1;   /* the runs on workers, the collection on its thread */
        test_workspace("on threads", &spec, coll, runs_total, 1);
    }
    index_remove(coll);
    unlink(coll);
    free(coll);
    rmdir(dir);
    return tap_done();
}
