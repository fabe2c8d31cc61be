/* test_wswriter — the workspace cache's writer process (forked by the loader, rt_loader.c; its
 * writing is rt_wscache's) is fork-safe: it finishes, leaving a cache and an index a reopen maps,
 * while other threads of the process are allocating, opening and closing streams, and holding a
 * run job's mutex at the moment of the fork. Only the forking thread goes on in a child: a lock
 * another thread held then stays held in the child for ever, so a child that needed one would
 * never end, and the deadline below fails the test. Twenty forks, each with the threads busy.
 * And the loader forks only when none of its own threads runs: with its collection's thread
 * still running, the cache is written in-process. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_loadjobs.h"
#include "rt_loadpriv.h"
#include "rt_workspace.h"
#include "tap.h"
#include "ws_fixture.h"

#define FORKS 20
#define DEADLINE 60.0   /* seconds a writer may take on a loaded machine before the test fails */

static atomic_int stop_busy;
static atomic_ulong busy_rounds;

/* A thread that allocates without pause: blocks of many sizes kept and freed at random (several
 * of malloc's bins, and its top), and now and then a stream opened and closed (the list of
 * streams' lock, which the writer's own streams take too). */
static void *busy_alloc(void *arg)
{
    void *keep[64] = {0};
    unsigned x = (unsigned)(size_t)arg;
    while (!atomic_load(&stop_busy)) {
        x = x * 1103515245u + 12345u;
        size_t i = (x >> 8) % 64, n = 16 + (x >> 12) % 300000;
        free(keep[i]);
        keep[i] = malloc(n);
        if (keep[i])
            memset(keep[i], (int)x, n < 256 ? n : 256);
        if ((x & 31) == 0) {
            FILE *f = fmemopen(NULL, 128, "w+");
            if (f)
                fclose(f);
        }
        atomic_fetch_add(&busy_rounds, 1);
    }
    for (size_t i = 0; i < 64; i++)
        free(keep[i]);
    return NULL;
}

/* A thread that holds mu until told to let it go, as a run worker of another workspace holds its
 * job's mutex. */
typedef struct holder {
    pthread_mutex_t *mu;
    atomic_int held, release;
} holder;

static void *hold_mutex(void *arg)
{
    holder *h = arg;
    pthread_mutex_lock(h->mu);
    atomic_store(&h->held, 1);
    while (!atomic_load(&h->release))
        nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
    pthread_mutex_unlock(h->mu);
    return NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The writer's exit status once it has ended (reaped here); -1 when it did not end within
 * DEADLINE seconds (it is killed then), -2 when it is not this process's child. */
static int writer_status(pid_t pid)
{
    double end = now() + DEADLINE;
    for (;;) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (r < 0)
            return -2;
        if (now() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            return -1;
        }
        nanosleep(&(struct timespec){0, 2 * 1000 * 1000}, NULL);
    }
}

/* The process id the report names as the cache's writer, or 0. */
static pid_t writer_pid(const rt_workspace *ws)
{
    static const char said[] = "workspace cache being written in the background (process ";
    for (size_t i = 0; ws && i < rt_report_count(ws->report); i++) {
        rt_report_kind kind;
        const char *p = strstr(rt_report_line(ws->report, i, &kind), said);
        if (p)
            return (pid_t)atol(p + sizeof said - 1);
    }
    return 0;
}

static rt_workspace *open_ws(rt_ws_spec *spec, int defer_collection)
{
    spec->defer_collection = defer_collection;
    spec->tuning = &tuning;
    rt_workspace *ws = NULL;
    rt_err err = {0};
    if (rt_workspace_open(&ws, spec, NULL, &err) != RT_OK)
        printf("# open: %s\n", err.msg);
    return ws;
}

int main(void)
{
    fixture_dir("rt_wswriter");
    const char *runs[2];
    rt_ws_spec spec = two_run_spec(runs);
    char release[128], coll_go[128];
    snprintf(release, sizeof release, "%s/writer-go", dir);
    snprintf(coll_go, sizeof coll_go, "%s/collection-go", dir);

    spec.no_cache = 1;   /* the reference: parsed, no cache */
    rt_workspace *ref = open_ws(&spec, 0);
    spec.no_cache = 0;
    ok(ref != NULL, "the reference opens");
    remove_derived();

    /* the lock another loader's run worker may hold: a job of the same runs, its mutex held */
    rt_ws_spec other = spec;
    rt_runsjob *j = rt_runsjob_start(&other, 0, 0);
    holder h = {.mu = j ? &j->mu : NULL};
    pthread_t hth;
    int holding = j && pthread_create(&hth, NULL, hold_mutex, &h) == 0;
    for (int i = 0; holding && i < 10000 && !atomic_load(&h.held); i++)
        nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
    ok(holding && atomic_load(&h.held), "another run job's mutex is held by a thread of its own");

    tuning.cache_background_min = 0;   /* this small workspace's cache takes the large ones' path */
    tuning.cache_writer_wait = release;
    int background = 0, held = 0, ended = 0, reused = 0, busy_at_fork = 0;
    for (int k = 0; k < FORKS; k++) {
        remove_derived();
        unlink(release);
        atomic_store(&stop_busy, 0);
        pthread_t busy[2];
        int nbusy = 0;
        for (int t = 0; t < 2; t++)
            nbusy += pthread_create(&busy[nbusy], NULL, busy_alloc, (void *)(size_t)(k * 2 + t + 1)) == 0;
        unsigned long before = atomic_load(&busy_rounds);
        for (int i = 0; i < 10000 && nbusy && atomic_load(&busy_rounds) - before < 1000; i++)
            nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);   /* they are under way */
        rt_workspace *ws = open_ws(&spec, 0);   /* forks its writer at its end */
        unsigned long during = atomic_load(&busy_rounds);
        pid_t pid = writer_pid(ws);
        background += pid > 0;
        held += pid > 0 && caches() == 0 && indexes() == 0;   /* it waits for release */
        FILE *go = fopen(release, "w");
        if (go)
            fclose(go);
        int st = pid > 0 ? writer_status(pid) : -3;
        /* after the fork too: they go on (waited for, at most 10 s: a thread that never moves
         * again is a lock the fork left held) */
        for (int i = 0; i < 10000 && nbusy && atomic_load(&busy_rounds) <= during; i++)
            nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
        atomic_store(&stop_busy, 1);
        busy_at_fork += nbusy == 2 && during > before && atomic_load(&busy_rounds) > during;
        for (int t = 0; t < nbusy; t++)
            pthread_join(busy[t], NULL);
        if (st != 0)
            printf("# fork %d: writer %ld ended with %d (-1: not within %.0f s)\n", k, (long)pid, st, DEADLINE);
        ended += st == 0 && caches() == 1 && indexes() == 1;
        rt_workspace_free(&ws);
        rt_workspace *re = open_ws(&spec, 0);
        reused += re && report_has(re, "workspace cache reused") && report_has(re, "index reused") &&
                  same_values(re, ref);
        rt_workspace_free(&re);
    }
    is_int(background, FORKS, "each open forks the cache's writer (the report names its process)");
    is_int(held, FORKS, "each writer waits for rt_tuning.cache_writer_wait before it writes");
    is_int(busy_at_fork, FORKS, "two other threads allocate and open streams before, during and after each fork");
    is_int(ended, FORKS, "each writer ends by itself, within %.0f s, having written the index and the cache", DEADLINE);
    is_int(reused, FORKS, "each reopen maps that cache and index, with every value of the parse");
    atomic_store(&h.release, 1);
    if (holding)
        pthread_join(hth, NULL);
    rt_runsjob_finish(&j);
    remove_derived();

    /* the loader forks only when none of its threads runs: a cache saved while its collection's
     * thread is still held (a state no open reaches: it saves after joining it) is written here */
    tuning.collection_wait = coll_go;
    unlink(coll_go);
    rt_workspace *ws = open_ws(&spec, 1);
    ok(ws && rt_loader_collection_loading(ws, NULL, NULL), "a deferred open: the collection's thread is held");
    /* a script waits for everything, the runs first: the collection works beside them from then on */
    int behind = ws && ws->loader->coll && !atomic_load(&ws->loader->coll->job->hurry);
    if (ws)
        rt_loader_hurry(ws);
    ok(behind && ws->loader->coll && atomic_load(&ws->loader->coll->job->hurry) && rt_loader_collection_loading(ws, NULL, NULL),
       "rt_loader_hurry: the collection's thread, behind the runs until then, no longer yields to them (still held)");
    if (ws)
        rt_loader_save_cache(ws, rt_strtab_count(ws->qids), rt_strtab_count(ws->pids), 0);
    ok(ws && !writer_pid(ws) && report_has(ws, "workspace cache written (the next open maps it)") && caches() == 1,
       "with that thread running, the cache is written in-process, no process forked");
    FILE *go = fopen(coll_go, "w");
    if (go)
        fclose(go);
    unlink(release);
    rt_err err = {0};
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 1 && ws->collection, "the collection comes in");
    pid_t pid = writer_pid(ws);
    ok(pid > 0, "then, its thread joined, the writer is forked (process %ld)", (long)pid);
    go = fopen(release, "w");
    if (go)
        fclose(go);
    ok(pid > 0 && writer_status(pid) == 0 && indexes() == 1, "and it ends, having written the index");
    rt_workspace_free(&ws);
    tuning.collection_wait = NULL;
    tuning.cache_writer_wait = NULL;
    remove_derived();
    unlink(release);
    unlink(coll_go);

    rt_workspace_free(&ref);
    unlink(spec.collection);
    unlink(spec.qrels);
    unlink(runs[0]);
    unlink(runs[1]);
    rmdir(dir);
    return tap_done();
}
