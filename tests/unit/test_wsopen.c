/* test_wsopen — the progress a workspace open reports while it reads its runs: within a run, not
 * only once a run is in (one by one, and on threads), never going back, and ending at the total.
 * The values must not depend on it: the runs read on threads rank as those read one by one. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_workspace.h"
#include "synth_run.h"
#include "tap.h"

enum { MAXCALLS = 100000 };
static struct {
    uint64_t done[MAXCALLS], total[MAXCALLS];
    size_t n;
} calls;

static void record(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    (void)ctx;
    if (strcmp(phase, "runs") == 0 && calls.n < MAXCALLS) {
        calls.done[calls.n] = done;
        calls.total[calls.n++] = total;
    }
}

static uint64_t size_of(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

/* Opens the workspace with the progress recorded; checks what was reported. */
static rt_workspace *open_recorded(const char *how, const rt_ws_spec *spec, const uint64_t *sizes)
{
    calls.n = 0;
    rt_workspace *ws = NULL;
    rt_err err = {0};
    ok(rt_workspace_open(&ws, spec, &(rt_progress){record, NULL}, &err) == RT_OK, "%s: opens (%s)", how, err.msg);
    uint64_t total = sizes[0] + sizes[1];
    int back = 0, inside = 0, totals = 1;
    for (size_t i = 0; i < calls.n; i++) {
        back |= i && calls.done[i] < calls.done[i - 1];
        totals &= calls.total[i] == total;
        /* not 0, and not where a run ends: reported while a run was being read or interned */
        inside |= calls.done[i] > 0 && calls.done[i] != sizes[0] && calls.done[i] != total;
    }
    ok(calls.n >= 2, "%s: the runs' progress is reported (%zu times)", how, calls.n);
    ok(totals, "%s: of the runs' bytes (%llu)", how, (unsigned long long)total);
    ok(!back, "%s: it never goes back", how);
    ok(inside, "%s: it moves within a run, not only once a run is in", how);
    ok(calls.n && calls.done[calls.n - 1] == total, "%s: it ends at the total", how);
    return ws;
}

/* The report's keys: a line goes after every line of its key or a lower one, so that lines added
 * late (a deferred run's, the collection's) land where a waiting open puts them. */
static void test_report_keys(void)
{
    rt_report *r = rt_report_new();
    rt_report_add(r, RT_REPORT_INFO, "qrels");
    rt_report_set_key(r, 5);
    rt_report_add(r, RT_REPORT_INFO, "cross-check");
    uint32_t old = rt_report_set_key(r, 2);   /* a run taken in later */
    rt_report_add(r, RT_REPORT_WARNING, "run b");
    rt_report_add(r, RT_REPORT_INFO, "run b, second line");
    ok(old == 5, "setting a key returns the one it replaces");
    rt_report_set_key(r, 1);
    rt_report_add(r, RT_REPORT_INFO, "run a");
    rt_report_set_key(r, 9);
    rt_report_add(r, RT_REPORT_INFO, "session");
    const char *want[] = {"qrels", "run a", "run b", "run b, second line", "cross-check", "session"};
    int same = rt_report_count(r) == 6;
    for (size_t i = 0; same && i < 6; i++)
        same = strcmp(rt_report_line(r, i, NULL), want[i]) == 0;
    ok(same, "lines are in the order of their keys, then of their adding");
    ok(rt_report_warnings(r) == 1 && rt_report_key_start(r, 2) == 2 && rt_report_key_start(r, 3) == 4 &&
       rt_report_key_start(r, 10) == 6, "the first line of a key is found, warnings still counted");
    rt_report_free(&r);
}

int main(void)
{
    test_report_keys();
    char *a = synth_run(1), *b = synth_run(2);
    const char *paths[2] = {tmp_file(a), tmp_file(b)};
    free(a);
    free(b);
    const char *qrels = tmp_file("q0 0 7919 1\nq1 0 15838 1\nq3 0 104729 1\n");
    uint64_t sizes[2] = {size_of(paths[0]), size_of(paths[1])};
    rt_ws_spec spec = {.qrels = qrels, .run_paths = paths, .nruns = 2, .measures = "RR@10,R@50",
                       .no_cache = 1};
    rt_tuning tuning = RT_TUNING_DEFAULTS;
    spec.tuning = &tuning;

    tuning.parallel_min = 99999999999ULL;   /* one by one */
    rt_workspace *one = open_recorded("one by one", &spec, sizes);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 2) {
        printf("# skipped: the runs are read on threads only with two cores or more (%ld)\n", cpus);
    } else {
        tuning.parallel_min = 1;   /* on threads */
        rt_workspace *th = open_recorded("on threads", &spec, sizes);
        int same = one && th && one->nruns == th->nruns;
        for (size_t r = 0; same && r < one->nruns; r++)
            for (uint32_t q = 0; same && q < rt_strtab_count(one->qids); q++) {
                size_t n1, n2;
                const uint32_t *p1 = rt_run_ranking(one->runs[r].run, q, &n1);
                const uint32_t *p2 = rt_run_ranking(th->runs[r].run, q, &n2);
                same = n1 == n2 && (n1 == 0 || memcmp(p1, p2, n1 * sizeof *p1) == 0);
            }
        ok(same, "the runs read on threads rank as those read one by one");
        rt_workspace_free(&th);
    }
    rt_workspace_free(&one);
    return tap_done();
}
