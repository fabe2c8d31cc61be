/* bench_steps — how long the workbench's steps take while a workspace comes in behind its first
 * screen: opens WORKSPACE.json as the workbench does on a terminal (runs and collection deferred,
 * no cache read), then settles it one call at a time, as the key loop does between keys (at once
 * while a run is half taken in, else after a millisecond), and prints the calls' times: median,
 * p99, p99.9, the five longest, and how many took longer than a frame (16 ms). A key typed
 * meanwhile waits at most one call. `make bench-steps` runs it on the workspace of `make
 * bench-scale`, its collection's index removed first (target 4 of issue 15 asks every key within
 * a frame). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_loader.h"
#include "rt_workspace.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_steps WORKSPACE.json\n");
        return 2;
    }
    rt_mem_init();
    rt_workspace *ws = NULL;
    rt_err err;
    double t0 = now_ms();
    if (rt_workspace_open_json(&ws, argv[1], RT_WS_NO_CACHE | RT_WS_DEFER_RUNS | RT_WS_DEFER_COLLECTION, NULL,
                               &err) != RT_OK) {
        fprintf(stderr, "bench_steps: %s\n", err.msg);
        return 1;
    }
    double opened = now_ms() - t0;
    size_t n = 0, cap = 1 << 16;
    double *t = rt_malloc(cap * sizeof *t);
    rt_load_event ev;
    while (rt_loader_runs_loading(ws, NULL, NULL) || rt_loader_collection_loading(ws, NULL, NULL)) {
        double s = now_ms();
        int got = rt_loader_poll(ws, 0, &ev);   /* one step, as the workbench takes between two keys */
        if (n == cap)
            t = rt_grow_array(t, n, cap *= 2, sizeof *t);
        t[n++] = now_ms() - s;
        if (got && ev.kind == RT_LOAD_FAILED) {
            fprintf(stderr, "bench_steps: %s\n", ev.err.msg);
            break;
        }
        if (!got && !rt_loader_busy(ws))
            usleep(1000);
    }
    double all = now_ms() - t0;
    qsort(t, n, sizeof *t, by_value);
    size_t over = 0;
    for (size_t i = 0; i < n; i++)
        over += t[i] > 16;
    printf("first screen's open %.0f ms; everything in after %.0f ms, in %zu settle calls\n", opened, all, n);
    printf("a call: median %.2f ms, p99 %.2f ms, p99.9 %.2f ms; longer than 16 ms: %zu\n", t[n / 2],
           t[n * 99 / 100], t[n * 999 / 1000], over);
    printf("the five longest:");
    for (size_t i = 0; i < 5 && i < n; i++)
        printf(" %.1f", t[n - 1 - i]);
    printf(" ms (with no cache, the collection thread writes the new index itself)\n");
    free(t);
    rt_workspace_free(&ws);
    return 0;
}
