/* ws_fixture.h — what the deferred-open unit tests share (test_wsdefer, test_wsruns): a mkdtemp
 * folder (dir) and inputs written into it, the workspace caches and indexes an open leaves there,
 * and checks of a workspace's report and values. Header-only; each program uses what it needs
 * (the rest is marked unused). */
#ifndef RT_WS_FIXTURE_H
#define RT_WS_FIXTURE_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_loader.h"
#include "rt_workspace.h"

static char dir[64];
/* The tuning every open of these tests carries (rt_ws_spec.tuning): set by fixture_dir, changed
 * by a test where it needs another number. */
static rt_tuning tuning = RT_TUNING_DEFAULTS;

/* Makes the folder, /tmp/NAME_XXXXXX (exits 2 when it cannot), the cache folder of the opens,
 * and sets what makes small inputs take the large ones' paths: the collection and the runs read
 * on threads, a workspace cache for small runs. */
static __attribute__((unused)) void fixture_dir(const char *name)
{
    snprintf(dir, sizeof dir, "/tmp/%s_XXXXXX", name);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(2);
    }
    setenv("XDG_CACHE_HOME", dir, 1);
    tuning.parallel_min = 1;
    tuning.cache_min = 0;
}

/* A step of taking in (rt_loader_poll with no budget), the events it brought drained: 1 when a run
 * or the collection came in, -1 when something could not be read (err says why), 0 otherwise. */
static __attribute__((unused)) int step(rt_workspace *ws, rt_err *err)
{
    rt_load_event ev;
    int rc = 0;
    if (!rt_loader_poll(ws, 0, &ev))
        return 0;
    do {
        if (ev.kind == RT_LOAD_FAILED) {
            *err = ev.err;
            rc = -1;
        } else if (rc == 0 && (ev.kind == RT_LOAD_RUN_READY || ev.kind == RT_LOAD_COLLECTION_READY)) {
            rc = 1;
        }
    } while (rt_loader_queued(ws) && rt_loader_poll(ws, 0, &ev));
    return rc;
}

/* The kinds of the events queued, drained, as letters: R a run in (then its index), D the runs
 * done, C the collection in, F a failure (then r or c), E the end. */
static __attribute__((unused)) const char *drain(rt_workspace *ws)
{
    static char seq[64];
    size_t n = 0;
    rt_load_event ev;
    while (rt_loader_queued(ws) && rt_loader_poll(ws, 0, &ev) && n + 3 < sizeof seq) {
        seq[n++] = "RDCFE"[ev.kind];
        if (ev.kind == RT_LOAD_RUN_READY)
            seq[n++] = (char)('0' + ev.run % 10);
        if (ev.kind == RT_LOAD_FAILED)
            seq[n++] = ev.collection ? 'c' : 'r';
    }
    seq[n] = '\0';
    return seq;
}

/* The path of name in dir, written with text first unless text is NULL (exits 2 on failure). */
static __attribute__((unused)) const char *in_dir(const char *name, const char *text)
{
    static char paths[16][256];
    static int n;
    char *p = paths[n++ % 16];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    if (text) {
        FILE *f = fopen(p, "w");
        if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
            perror(p);
            exit(2);
        }
    }
    return p;
}

/* The workspace both test_wsdefer and test_wswriter open: a collection of three passages,
 * qrels judging one passage it lacks (p9), two runs; the spec names them (its paths are
 * in_dir's: at most 16 live at once). */
static __attribute__((unused)) rt_ws_spec two_run_spec(const char **runs)
{
    const char *coll = in_dir("collection.tsv", "p1\tthe first passage\np2\tthe second\np3\tthe third\n");
    const char *qrels = in_dir("qrels.trec", "q1 0 p1 1\nq1 0 p9 1\nq2 0 p3 1\n");
    runs[0] = in_dir("a.trec", "q1 Q0 p2 1 3 a\nq1 Q0 p1 2 2 a\nq2 Q0 p3 1 5 a\n");
    runs[1] = in_dir("b.trec", "q1 Q0 p1 1 3 b\nq2 Q0 p2 1 5 b\nq2 Q0 p3 2 4 b\n");
    return (rt_ws_spec){.collection = coll, .qrels = qrels, .run_paths = runs, .nruns = 2,
                        .measures = "RR@10,R@50,P@1"};
}

/* The files in dir whose names end in ext (and are longer than it). */
static __attribute__((unused)) int files_ending(const char *ext)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t k = strlen(ext);
    int n = 0;
    while (d && (e = readdir(d)) != NULL)
        n += strlen(e->d_name) > k && strcmp(e->d_name + strlen(e->d_name) - k, ext) == 0;
    if (d)
        closedir(d);
    return n;
}

/* The workspace caches (*.rtws) in dir. */
static __attribute__((unused)) int caches(void) { return files_ending(".rtws"); }

/* The collection indexes (*.rtidx) in dir. */
static __attribute__((unused)) int indexes(void) { return files_ending(".rtidx"); }

/* Removes the caches and indexes an open wrote in dir. */
static __attribute__((unused)) void remove_derived(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".rtws") || strstr(e->d_name, ".rtidx")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
}

static __attribute__((unused)) int report_has(const rt_workspace *ws, const char *text)
{
    for (size_t i = 0; i < rt_report_count(ws->report); i++) {
        rt_report_kind kind;
        if (strstr(rt_report_line(ws->report, i, &kind), text))
            return 1;
    }
    return 0;
}

/* Whether every run's name, every per-query value and mean is the same in a and b. */
static __attribute__((unused)) int same_values(const rt_workspace *a, const rt_workspace *b)
{
    if (!a || !b || a->nruns != b->nruns || a->nm != b->nm)
        return 0;
    for (size_t r = 0; r < a->nruns; r++) {
        const rt_eval_result *x = a->runs[r].base, *y = b->runs[r].base;
        if (strcmp(rt_run_name(a->runs[r].run), rt_run_name(b->runs[r].run)) != 0 || x->nq != y->nq ||
            memcmp(x->value, y->value, x->nq * x->nm * sizeof *x->value) != 0 ||
            memcmp(x->defined, y->defined, x->nq * x->nm) != 0 ||
            memcmp(x->mean, y->mean, x->nm * sizeof *x->mean) != 0)
            return 0;
    }
    return 1;
}

#endif
