/* rt_workspace — opening a workspace: reading its JSON description, loading each input with
 * progress, evaluating each run once against the base qrels, and listing every known query. */
#include "config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include "rt_answers.h"
#include "rt_dbqa.h"
#include "rt_facets.h"
#include "rt_file.h"
#include "rt_hash.h"
#include "rt_journal.h"
#include "rt_leak.h"
#include "rt_mem.h"
#include "rt_field.h"
#include "rt_num.h"
#include "rt_json.h"
#include "rt_reader.h"
#include "rt_warm.h"
#include "rt_workspace.h"
#include "rt_wscache.h"
#include "rt_thread.h"
#include "rt_path.h"

typedef struct progress_bridge {
    rt_ws_progress_fn fn;
    void *ctx;
} progress_bridge;

static void collection_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_bridge *b = ctx;
    b->fn(b->ctx, "collection", done, total);
}

/* A phase that reads one file: its size as the total (the bytes are known when it is read). */
static void phase(rt_ws_progress_fn fn, void *ctx, const char *what)
{
    if (fn)
        fn(ctx, what, 0, 0);
}

static uint64_t file_size(const char *path)
{
    struct stat sb;
    return path && strcmp(path, "-") != 0 && stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

static void add_query(rt_workspace *ws, unsigned char **seen, size_t *seen_len, uint32_t qid)
{
    *seen = rt_grow_index(*seen, seen_len, qid, 1, 0);
    if ((*seen)[qid])
        return;
    (*seen)[qid] = 1;
    ws->qlist = rt_reallocarray(ws->qlist, ws->nq + 1, sizeof *ws->qlist);
    ws->qlist[ws->nq++] = qid;
}

static void list_queries(rt_workspace *ws)
{
    unsigned char *seen = NULL;
    size_t seen_len = 0;
    if (ws->queries)
        for (uint32_t i = 0; i < rt_queries_count(ws->queries); i++)
            add_query(ws, &seen, &seen_len, rt_queries_qid(ws->queries, i));
    for (uint32_t i = 0; i < rt_qrels_nqueries(ws->qrels); i++)
        add_query(ws, &seen, &seen_len, rt_qrels_qid(ws->qrels, i));
    for (size_t r = 0; r < ws->nruns; r++)
        for (uint32_t i = 0; i < rt_run_nqueries(ws->runs[r].run); i++)
            add_query(ws, &seen, &seen_len, rt_run_qid(ws->runs[r].run, i));
    free(seen);
}

/* Warns about ids that do not line up between the inputs. */
static void cross_check(rt_workspace *ws)
{
    const char **names = rt_calloc(ws->nruns + 1, sizeof *names);   /* told apart on screen */
    for (size_t r = 0; r < ws->nruns; r++)
        names[r] = rt_run_name(ws->runs[r].run);
    rt_run_warn_same_names(names, ws->nruns, ": name them (--run NAME=PATH, or {\"name\", \"path\"} in the "
                           "workspace file)", ws->report);
    free(names);
    if (ws->queries) {
        size_t unknown = 0;
        for (uint32_t i = 0; i < rt_qrels_nqueries(ws->qrels); i++)
            unknown += !rt_queries_text(ws->queries, rt_qrels_qid(ws->qrels, i));
        if (unknown)
            rt_report_add(ws->report, RT_REPORT_WARNING,
                          "%zu judged queries are not in the queries file", unknown);
        for (size_t r = 0; r < ws->nruns; r++) {
            const rt_run *run = ws->runs[r].run;
            unknown = 0;
            for (uint32_t i = 0; i < rt_run_nqueries(run); i++)
                unknown += !rt_queries_text(ws->queries, rt_run_qid(run, i));
            if (unknown)
                rt_report_add(ws->report, RT_REPORT_WARNING,
                              "run %s: %zu queries are not in the queries file", rt_run_name(run), unknown);
        }
    }
    if (ws->queries) {
        size_t unjudged = 0;
        for (uint32_t i = 0; i < rt_queries_count(ws->queries); i++)
            unjudged += rt_qrels_index(ws->qrels, rt_queries_qid(ws->queries, i)) == RT_NO_ID;
        if (unjudged)
            rt_report_add(ws->report, RT_REPORT_WARNING,
                          "%zu queries have no judgments (browsable, not averaged)", unjudged);
    }
    for (size_t r = 0; r < ws->nruns; r++) {
        const rt_eval_result *b = ws->runs[r].base;
        if (b->qrels_queries_missing)
            rt_report_add(ws->report, RT_REPORT_WARNING,
                          "run %s: %zu judged queries are not ranked (they score 0)",
                          rt_run_name(ws->runs[r].run), b->qrels_queries_missing);
    }
}

/* Warns about judged passages the collection lacks (when there is one). */
static void check_judged(rt_workspace *ws)
{
    if (ws->collection) {
        /* Only judged passages are checked: looking up every run pid would touch pages all over
         * a multi-gigabyte collection at every open. A run pid that is missing shows as [pid]. */
        size_t nj = rt_qrels_njudgments(ws->qrels), dummy;
        const rt_judgment *j = nj ? rt_qrels_judgments(ws->qrels, 0, &dummy) : NULL;
        const char **pids = rt_reallocarray(NULL, nj ? nj : 1, sizeof *pids);
        size_t *lens = rt_reallocarray(NULL, nj ? nj : 1, sizeof *lens);
        for (size_t k = 0; k < nj; k++) {
            pids[k] = rt_strtab_str(ws->pids, j[k].pid);
            lens[k] = rt_strtab_len(ws->pids, j[k].pid);
        }
        /* from the index alone: no collection page read; counted once per cache */
        size_t missing;
        if (!rt_wscache_judged_missing(ws->cache, &missing)) {
            missing = rt_collection_count_missing(ws->collection, pids, lens, nj);
            if (ws->cache)
                rt_wscache_set_judged_missing(ws->cache, missing);
        }
        free(pids);
        free(lens);
        if (missing)
            rt_report_add(ws->report, RT_REPORT_WARNING,
                          "%zu judged passages are not in the collection", missing);
    }
}

/* Evaluates an in-memory run against the base qrels with evaluator ev. */
static rt_eval_result *eval_run_with(const rt_workspace *ws, const rt_eval *ev, const rt_run *run)
{
    rt_eval_result *r = rt_eval_begin(ev, rt_run_name(run));
    for (uint32_t i = 0; i < rt_qrels_nqueries(ws->qrels); i++) {
        size_t n;
        const uint32_t *pids = rt_run_ranking(run, rt_qrels_qid(ws->qrels, i), &n);
        if (!pids)
            continue;
        rt_eval_ranking(ev, r, i, pids, n);
    }
    rt_eval_end(ev, r);
    return r;
}

static rt_eval_result *eval_run(const rt_workspace *ws, const rt_run *run) { return eval_run_with(ws, ws->eval, run); }

/* What the base evaluation depends on besides the inputs: the measures and the relevance level. */
static uint64_t evals_key(const rt_workspace *ws)
{
    uint64_t h = rt_hash_mix((uint64_t)ws->level + 0x9e37);
    for (size_t m = 0; m < ws->nm; m++)
        h = rt_hash_mix(h ^ rt_hash_bytes(ws->ms[m].name, strlen(ws->ms[m].name))) + m;
    return h;
}

rt_eval_result *rt_workspace_eval_run(const rt_workspace *ws, const rt_eval *ev, size_t r)
{
    return eval_run_with(ws, ev, ws->runs[r].run);
}

static rt_status open_spec(rt_workspace **out, const rt_ws_spec *s, rt_ws_progress_fn progress,
                           void *ctx, rt_err *err);

/* Whether an answers file is DuReader's JSON lines (its first non-blank character is '{'). */
static int answers_are_json(const char *path)
{
    rt_reader *r;
    rt_err e;
    if (rt_reader_open(&r, path, &e) != RT_OK)
        return 0;
    char *line;
    size_t len;
    int json = 0;
    while (rt_reader_next(r, &line, &len, &e) == 1)
        if (!rt_field_line_skippable(line, len)) {
            json = line[strspn(line, " \t")] == '{';
            break;
        }
    rt_reader_close(&r);
    return json;
}

/* An NLPCC DBQA file with score files: written once more (each open) as TSV/TREC inputs into
 * the cache folder (rt_dbqa_write_workspace), then opened like any workspace with order "file". */
static rt_status open_dbqa(rt_workspace **out, const rt_ws_spec *s, rt_ws_progress_fn progress, void *ctx,
                           rt_err *err)
{
    if (s->nruns == 0)
        return rt_err_set(err, RT_EUSAGE, "--dbqa needs at least one score file (--run)");
    if (s->qrels || s->queries || s->collection)
        return rt_err_set(err, RT_EUSAGE, "--dbqa holds the queries, passages and labels: no --queries, "
                          "--collection or --qrels with it");
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_load_opts lo = {.strict = s->strict};
    rt_dbqa *d = NULL;
    rt_dbqa_files files = {0};
    char *dir = NULL;
    rt_status st = rt_dbqa_load(&d, s->dbqa, qids, pids, &lo, rep, err);
    if (st == RT_OK) {
        char *abs = realpath(s->dbqa, NULL), sub[64];
        const char *key = abs ? abs : s->dbqa;
        snprintf(sub, sizeof sub, "dbqa/%016llx", (unsigned long long)rt_hash_bytes(key, strlen(key)));
        free(abs);
        if (!(dir = rt_file_cache_dir(sub)))
            st = rt_err_set(err, RT_EIO, "%s: no cache folder to write its workspace in (neither XDG_CACHE_HOME "
                            "nor HOME is an absolute path)", s->dbqa);
    }
    if (st == RT_OK)
        st = rt_dbqa_write_workspace(d, dir, s->run_paths, s->nruns, &files, err);
    if (st == RT_OK) {
        rt_ws_spec w = *s;
        const char **names = rt_calloc(s->nruns + 1, sizeof *names);
        char **stems = rt_calloc(s->nruns + 1, sizeof *stems);
        for (size_t r = 0; r < s->nruns; r++)   /* a score file's run is named after it */
            names[r] = s->run_names && s->run_names[r] ? s->run_names[r] : (stems[r] = rt_path_stem(s->run_paths[r]));
        const char *slash = strrchr(s->dbqa, '/');
        w.dbqa = NULL;
        w.name = s->name ? s->name : slash ? slash + 1 : s->dbqa;
        w.queries = files.queries;
        w.collection = files.collection;
        w.qrels = files.qrels;
        w.run_paths = (const char **)files.runs;
        w.run_names = names;
        w.order = RT_ORDER_FILE;
        w.measures = s->measures ? s->measures : "dbqa";
        st = open_spec(out, &w, progress, ctx, err);
        for (size_t r = 0; r < s->nruns; r++)
            free(stems[r]);
        free(stems);
        free(names);
    }
    rt_dbqa_files_free(&files);
    free(dir);
    rt_dbqa_free(&d);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return st;
}

rt_status rt_workspace_open(rt_workspace **out, const rt_ws_spec *s, rt_ws_progress_fn progress,
                            void *ctx, rt_err *err)
{
    *out = NULL;
    return s->dbqa ? open_dbqa(out, s, progress, ctx, err) : open_spec(out, s, progress, ctx, err);
}

/* The collection opened on a thread of its own while the runs are parsed: a first open indexes
 * it, a pass over gigabytes that needs nothing from the runs. Its report lines are kept apart and
 * appended after the runs', where a sequential open puts them. */
typedef struct coll_job {
    char *path;
    rt_collection *c;
    rt_report *report;
    rt_status st;
    rt_err err;
    _Atomic uint64_t done, total;   /* its progress, shown by the main thread once the runs are in */
    _Atomic int finished;
    int behind;        /* deferred: it yields the processors and the disk to the runs */
    int save;          /* no workspace cache, whose writer process would write the index: it does */
    _Atomic long tid;  /* behind: its thread id, to hurry it when waited for */
    _Atomic int hurry; /* waited for: back to the normal classes */
} coll_job;

/* A collection still being indexed when the open returned (rt_ws_spec.defer_collection): its
 * thread, and what the open would have done with it, done by rt_workspace_settle instead: the
 * judged-pid check, and the workspace cache with the report lines first..last and the evals of
 * key ekey (the cache waits for the check, whose count it keeps). Their report lines go where the
 * open would have put them: the collection's at last, the check's and the cache's at checked. The
 * cache holds the ids as the open left them, the first nqids and npids: the journals, replayed
 * meanwhile, may have added some. */
typedef struct rt_ws_pending {
    coll_job *job;
    pthread_t th;
    size_t first, last, checked;
    uint64_t ekey;
    uint32_t nqids, npids;
} rt_ws_pending;

static void coll_job_free(coll_job **jp)
{
    coll_job *j = *jp;
    if (!j)
        return;
    rt_collection_close(&j->c);
    rt_report_free(&j->report);
    free(j->path);
    free(j);
    *jp = NULL;
}

static void coll_progress(void *ctx, uint64_t done, uint64_t total)
{
    coll_job *j = ctx;
    atomic_store(&j->total, total);
    atomic_store(&j->done, done);
}

static void *coll_thread(void *arg)
{
    coll_job *j = arg;
    if (j->behind)   /* the first screen waits for the runs, not for it */
        atomic_store(&j->tid, rt_thread_idle_priority());
    if (j->behind && atomic_load(&j->hurry))   /* waited for before it had a thread id */
        rt_thread_normal_priority(atomic_load(&j->tid));
    rt_file_test_hold("RETRIAGE_COLLECTION_WAIT");
    /* an index it builds is written by the cache's writer process when there is a cache; without
     * one, here, so that no step of the opening thread (a key, in the workbench) waits for it */
    j->st = rt_collection_open_unsaved(&j->c, j->path, coll_progress, j, j->report, &j->err);
    if (j->st == RT_OK && j->save)
        rt_collection_save(j->c, j->report);
    atomic_store(&j->finished, 1);
    return NULL;
}

/* Starts the thread that opens the collection of s (job and th set), and writes its index when save;
 * 0 when it could not be made. */
static int coll_start(coll_job **job, pthread_t *th, const rt_ws_spec *s, int save)
{
    *job = rt_calloc(1, sizeof **job);
    (*job)->path = rt_strdup(s->collection);
    (*job)->report = rt_report_new();
    (*job)->behind = s->defer_collection;
    (*job)->save = save;
    if (pthread_create(th, NULL, coll_thread, *job) == 0)
        return 1;
    coll_job_free(job);
    return 0;
}

/* RETRIAGE_PARALLEL_MIN, as eval's two-part reading: the bytes from which a workspace's files are
 * read on threads (64 MiB by default). */
static uint64_t parallel_min(void)
{
    const char *e = getenv("RETRIAGE_PARALLEL_MIN");
    char *end;
    unsigned long long min = e && *e ? strtoull(e, &end, 10) : 64ULL << 20;
    if (e && *e && *end)
        min = 64ULL << 20;
    return min;
}

/* In the cache's writer process: the collection index built by this open, before the cache. */
static void save_index(void *ctx) { rt_collection_save(ctx, NULL); }

/* Whether a collection is large enough to be opened on its own thread: by the work it takes, for a
 * compressed one 4 bytes a byte (text compresses 2-3 times, DuReader's Chinese 2.5 with gzip, and
 * it is read twice: decompressed, then indexed). */
static int coll_threaded(const char *path)
{
    uint64_t size = file_size(path);
    if (rt_file_codec(path) != RT_CODEC_NONE)
        size = size > UINT64_MAX / 4 ? UINT64_MAX : size * 4;
    return size >= parallel_min();
}

/* The runs parsed on worker threads (one per core) and interned on the opening thread in the
 * workspace's order, so that every id is what a sequential open gives. Workers stay at most
 * RUNS_AHEAD runs past the last interned: a parsed run's other-than-decimal pids are held as text
 * until then. */
enum { RUNS_AHEAD = 4 };
typedef struct runs_job {
    const rt_ws_spec *s;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next;       /* the next run a worker takes */
    size_t interned;   /* runs interned so far */
    int stop;          /* a run failed: no more are taken */
    rt_run **parsed;
    rt_status *st;
    rt_err *err;
    unsigned char *done;
    int count;                /* the workers count the bytes they read into read */
    _Atomic uint64_t read;
    pthread_t th[8];
    size_t started;
    int hold;          /* one worker at a time until the first run is interned (a deferred open's
                          first screen waits for it: it is read on two threads, rt_run_parse_halves,
                          then interned while one worker reads the next) */
    size_t busy;       /* workers parsing a run */
    int go_on;         /* a run that fails does not stop the others (a deferred open's, once its
                          first screen is up: the workbench goes on without that run) */
} runs_job;

static void runs_finish(runs_job **jp);

/* A worker's reading progress is only counted (into runs_job.read): the opening thread shows it
 * while it waits, so that the line moves within a run, not once a run. */
static void count_only(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx, (void)done, (void)total;
}

/* While the opening thread interns a run: what the workers have read meanwhile. */
typedef struct runs_tick {
    rt_ws_progress_fn fn;
    void *ctx;
    _Atomic uint64_t *read;
    uint64_t total;
} runs_tick;

static void tick_read(void *ctx)
{
    runs_tick *t = ctx;
    uint64_t read = atomic_load(t->read);
    t->fn(t->ctx, "runs", read < t->total ? read : t->total, t->total);
}

/* Runs read one by one: the bytes of the runs before this one, plus this one's. */
typedef struct runs_bridge {
    rt_ws_progress_fn fn;
    void *ctx;
    uint64_t before, total;
} runs_bridge;

static void runs_progress(void *ctx, uint64_t done, uint64_t total)
{
    runs_bridge *b = ctx;
    (void)total;
    uint64_t d = b->before + done;
    b->fn(b->ctx, "runs", d < b->total ? d : b->total, b->total);
}

static void *runs_worker(void *arg)
{
    runs_job *j = arg;
    int behind = 0;
    pthread_mutex_lock(&j->mu);
    for (;;) {
        size_t r = j->next;
        if (j->stop || r >= j->s->nruns)
            break;
        if (r >= j->interned + RUNS_AHEAD || (j->hold && j->busy)) {
            pthread_cond_wait(&j->cv, &j->mu);
            continue;
        }
        j->next++;
        j->busy++;
        /* the first run, alone, is read on two threads; so is the last, for the thread whose
         * runs are all read has nothing else to do (a whole run left to one thread kept a core
         * idle for up to half a second at the end of a ten-run open) */
        int halves = j->hold || r + 1 == j->s->nruns;
        pthread_mutex_unlock(&j->mu);
        if (j->go_on && !halves && !behind) {   /* deferred, after the first run: the keys first */
            rt_thread_behind_ui_priority();
            behind = 1;
        }
        const rt_ws_spec *s = j->s;
        rt_run_opts ro = {.order = s->order, .strict = s->strict,
                          .name = s->run_names ? s->run_names[r] : NULL};
        if (j->count)
            ro.progress = count_only, ro.progress_done = &j->read;
        rt_status st = halves ? rt_run_parse_halves(&j->parsed[r], s->run_paths[r], &ro, parallel_min(), &j->err[r])
                              : rt_run_parse(&j->parsed[r], s->run_paths[r], &ro, &j->err[r]);
        pthread_mutex_lock(&j->mu);
        j->st[r] = st;
        j->done[r] = 1;
        j->busy--;
        pthread_cond_broadcast(&j->cv);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* How many threads parse runs: the cores, at most one per run; 0 for a workspace whose runs
 * are below RETRIAGE_PARALLEL_MIN (or of one run), read on the opening thread. */
static size_t runs_threads(const rt_ws_spec *s)
{
    uint64_t total = 0;
    for (size_t r = 0; r < s->nruns; r++)
        total += file_size(s->run_paths[r]);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (s->nruns < 2 || total < parallel_min() || cpus < 2)
        return 0;
    size_t n = cpus > 8 ? 8 : (size_t)cpus;
    return n < s->nruns ? n : s->nruns;
}

/* Starts the workers that parse the runs of s (which must outlive them), or returns NULL when
 * the runs are read one by one on the opening thread (runs_threads 0, or no thread could be made).
 * count: the workers count the bytes they read, for a progress line; hold: runs_job.hold. */
static runs_job *runs_start(const rt_ws_spec *s, int count, int hold)
{
    size_t nth = runs_threads(s);
    if (!nth)
        return NULL;
    runs_job *j = rt_calloc(1, sizeof *j);
    j->s = s;
    j->count = count;
    j->hold = hold;
    j->go_on = hold;   /* deferred: a later run that fails is left out, the others still come */
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    j->parsed = rt_calloc(s->nruns, sizeof *j->parsed);
    j->st = rt_calloc(s->nruns, sizeof *j->st);
    j->err = rt_calloc(s->nruns, sizeof *j->err);
    j->done = rt_calloc(s->nruns, 1);
    while (j->started < nth && pthread_create(&j->th[j->started], NULL, runs_worker, j) == 0)
        j->started++;
    if (!j->started) {
        runs_finish(&j);
        return NULL;
    }
    return j;
}

/* Stops the workers (those waiting to run ahead, after a failure or a free), joins them and frees
 * the job with every run parsed and not taken. */
static void runs_finish(runs_job **jp)
{
    runs_job *j = *jp;
    if (!j)
        return;
    pthread_mutex_lock(&j->mu);
    j->stop = 1;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    for (size_t t = 0; t < j->started; t++)
        pthread_join(j->th[t], NULL);
    for (size_t r = 0; r < j->s->nruns; r++)
        rt_run_free(&j->parsed[r]);
    free(j->parsed);
    free(j->st);
    free(j->err);
    free(j->done);
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->mu);
    free(j);
    *jp = NULL;
}

/* Whether run r has been parsed by a worker (it can be taken without waiting). */
static int runs_ready(runs_job *j, size_t r)
{
    pthread_mutex_lock(&j->mu);
    int done = j->done[r];
    pthread_mutex_unlock(&j->mu);
    return done;
}

/* Run r of s, parsed: from a worker of j, waiting for it (with progress, ticking), or parsed
 * here when j is NULL. before and total: the bytes of the runs before r and of all, for progress. */
static rt_status runs_fetch(const rt_ws_spec *s, runs_job *j, size_t r, uint64_t before, uint64_t total,
                            rt_ws_progress_fn progress, void *ctx, rt_run **out, rt_err *err)
{
    rt_run *run = NULL;
    rt_status st;
    if (j) {
        pthread_mutex_lock(&j->mu);
        while (!j->done[r]) {
            if (!progress) {
                pthread_cond_wait(&j->cv, &j->mu);
                continue;
            }
            /* what the workers have read, ten times a second: a run of 250 MB takes a second */
            runs_tick rt = {progress, ctx, &j->read, total};
            pthread_mutex_unlock(&j->mu);
            tick_read(&rt);
            pthread_mutex_lock(&j->mu);
            if (j->done[r])
                break;
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 100 * 1000 * 1000;
            if (until.tv_nsec >= 1000 * 1000 * 1000)
                until.tv_sec++, until.tv_nsec -= 1000 * 1000 * 1000;
            pthread_cond_timedwait(&j->cv, &j->mu, &until);
        }
        pthread_mutex_unlock(&j->mu);
        run = j->parsed[r];
        j->parsed[r] = NULL;
        if ((st = j->st[r]) != RT_OK)
            *err = j->err[r];
    } else {
        if (progress)
            progress(ctx, "runs", before, total);
        rt_run_opts ro = {.order = s->order, .strict = s->strict,
                          .name = s->run_names ? s->run_names[r] : NULL};
        runs_bridge rb = {progress, ctx, before, total};
        if (progress)
            ro.progress = runs_progress, ro.progress_ctx = &rb, ro.progress_caller = 1;
        st = rt_run_parse(&run, s->run_paths[r], &ro, err);
    }
    *out = st == RT_OK ? run : NULL;
    if (st != RT_OK)
        rt_run_free(&run);
    return st;
}

/* Run r is in ws (st RT_OK) or failed: the job's workers are told (the next may go on). */
static void runs_taken(runs_job *j, size_t r, rt_status st)
{
    if (!j)
        return;
    pthread_mutex_lock(&j->mu);
    j->interned = r + 1;
    j->hold = 0;
    j->stop |= st != RT_OK && !j->go_on;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

/* Takes run r of s into ws (ws->nruns must be r): fetched, then interned on this thread, so that
 * every id is what a sequential open gives. */
static rt_status runs_take(rt_workspace *ws, const rt_ws_spec *s, runs_job *j, size_t r, uint64_t before,
                           uint64_t total, rt_ws_progress_fn progress, void *ctx, rt_err *err)
{
    rt_run *run;
    rt_status st = runs_fetch(s, j, r, before, total, progress, ctx, &run, err);
    if (st == RT_OK) {
        runs_tick rt = {progress, ctx, j ? &j->read : NULL, total};
        rt_run_intern_ticking(run, ws->qids, ws->pids, s->run_paths[r], ws->report,
                              j && progress ? tick_read : NULL, &rt);
        ws->runs[ws->nruns++].run = run;   /* after a deferred run that failed: r is further on */
    }
    runs_taken(j, r, st);
    return st;
}

/* Loads every run into ws (in order; ws->nruns counts those loaded): on threads when it pays,
 * else one by one. Stops at the first run (in order) that fails. */
static rt_status load_runs(rt_workspace *ws, const rt_ws_spec *s, rt_ws_progress_fn progress, void *ctx,
                           rt_err *err)
{
    uint64_t total = 0, done = 0;   /* the runs' bytes, and of those before the one read */
    for (size_t r = 0; r < s->nruns; r++)
        total += file_size(s->run_paths[r]);
    runs_job *j = runs_start(s, progress != NULL, 0);
    rt_status st = RT_OK;
    for (size_t r = 0; r < s->nruns && st == RT_OK; r++) {
        st = runs_take(ws, s, j, r, done, total, progress, ctx, err);
        done += file_size(s->run_paths[r]);
    }
    if (st == RT_OK && progress)
        progress(ctx, "runs", done, total);
    runs_finish(&j);
    return st;
}

/* The runs still being parsed when the open returned (rt_ws_spec.defer_runs): the first is in,
 * the workers go on with the others, and rt_workspace_settle takes each in, in order, on the thread
 * that uses the workspace (ids are interned there, as a sequential open does). What the open would
 * have done once every run was in is done then: the cross-check, and the judged-pid check and the
 * workspace cache (or, with a collection still being indexed, its pending record updated so that
 * they follow it). Report lines go where a waiting open puts them: a run's at at (the cache keeps
 * first..at), the cross-check's at after (past the lines of a collection opened meanwhile). */
typedef struct rt_ws_runs {
    runs_job *j;
    rt_ws_spec s;              /* the job's own: copies of the paths and names, order, strictness */
    size_t first, at, after;
    uint64_t ekey;
    size_t next;               /* the next run of s to take in (ws->nruns fewer when one failed) */
    rt_run *taking;            /* run next, being interned a step per settle call (not yet in ws) */
    size_t taking_n0;          /* the report's length when it was fetched */
    rt_eval_result *base;      /* then its evaluation, begun (NULL: still interning) */
    uint32_t evaluated;        /* the judged queries evaluated so far */
} rt_ws_runs;

static void runs_pending_free(rt_ws_runs **pp)
{
    rt_ws_runs *p = *pp;
    if (!p)
        return;
    rt_run_free(&p->taking);
    rt_eval_result_free(&p->base);
    runs_finish(&p->j);
    for (size_t r = 0; r < p->s.nruns; r++) {
        free((char *)p->s.run_paths[r]);
        if (p->s.run_names)
            free((char *)p->s.run_names[r]);
    }
    free(p->s.run_paths);
    free(p->s.run_names);
    free(p);
    *pp = NULL;
}

/* Starts parsing the runs of s on workers (ws->runs_pending is set; the first run is taken in by
 * runs_take, after the queries and the qrels, and the open then returns without waiting for the
 * others). Does nothing (ws->runs_pending NULL) when the runs would not be read on threads. */
static void runs_defer(rt_workspace *ws, const rt_ws_spec *s, rt_ws_progress_fn progress)
{
    if (!runs_threads(s))
        return;
    rt_ws_runs *p = rt_calloc(1, sizeof *p);
    const char **paths = rt_calloc(s->nruns + 1, sizeof *paths);
    const char **names = s->run_names ? rt_calloc(s->nruns + 1, sizeof *names) : NULL;
    for (size_t r = 0; r < s->nruns; r++) {
        paths[r] = rt_strdup(s->run_paths[r]);
        if (names)
            names[r] = s->run_names[r] ? rt_strdup(s->run_names[r]) : NULL;
    }
    p->s = (rt_ws_spec){.run_paths = paths, .run_names = names, .nruns = s->nruns, .order = s->order,
                        .strict = s->strict};
    if (!(p->j = runs_start(&p->s, progress != NULL, 1)))
        runs_pending_free(&p);
    ws->runs_pending = p;
}

static void save_cache(rt_workspace *ws, uint32_t nqids, uint32_t npids, size_t first, size_t last,
                       uint64_t ekey);

/* Every deferred run is in (or one failed): what the open would have done next. */
static void runs_done(rt_workspace *ws)
{
    rt_ws_runs *p = ws->runs_pending;
    runs_finish(&p->j);
    ws->runs_pending = NULL;
    size_t n0 = rt_report_count(ws->report);
    cross_check(ws);
    if (ws->pending) {   /* the collection is taken in next, as after a waiting open's runs */
        rt_report_move_tail(ws->report, n0, p->after);
        ws->pending->first = p->first;
        ws->pending->last = p->at;
        ws->pending->checked = p->after + (rt_report_count(ws->report) - n0);
        ws->pending->ekey = p->ekey;
        ws->pending->nqids = rt_strtab_count(ws->qids);
        ws->pending->npids = rt_strtab_count(ws->pids);
    } else {   /* the collection is in (or failed, or there is none): the rest of the open */
        check_judged(ws);
        if (ws->cache && !ws->runs_failed && !ws->collection_failed)
            save_cache(ws, rt_strtab_count(ws->qids), rt_strtab_count(ws->pids), p->first, p->at, p->ekey);
        rt_collection_save(ws->collection, ws->report);
        rt_report_move_tail(ws->report, n0, p->after);
    }
    runs_pending_free(&p);
}

/* Pids interned per settle call that does not wait: a few milliseconds, so that the workbench
 * handles a key between two steps (a whole run of 7 million pids took about 0.1 s; 65,536
 * pids take 1-3 ms, beside the threads reading the next runs).
 * RETRIAGE_SETTLE_STEP sets another number (the tests take runs in a few pids at a time). */
static size_t settle_step(void)
{
    const char *e = getenv("RETRIAGE_SETTLE_STEP");
    char *end;
    unsigned long long v = e ? strtoull(e, &end, 10) : 0;
    return e && *e && !*end && v > 0 ? (size_t)v : (size_t)1 << 16;
}

/* Takes the next deferred run in: when it is parsed, a step at a time (settle_step pids a call;
 * the whole run when waiting for it with wait). Returns 1 when one was taken, 0 when it is still
 * being parsed or only a step was taken, -1 when it could not be read (it is left out, the others
 * still come; err and the report say why). */
static int runs_settle(rt_workspace *ws, int wait, rt_err *err)
{
    rt_ws_runs *p = ws->runs_pending;
    size_t r = p->next;
    rt_status st = RT_OK;
    if (!p->taking) {
        if (!wait && !runs_ready(p->j, r))
            return 0;
        p->taking_n0 = rt_report_count(ws->report);
        rt_run *run;
        st = runs_fetch(&p->s, p->j, r, 0, 0, NULL, NULL, &run, err);
        if (st == RT_OK) {
            rt_run_intern_begin(run, ws->qids, ws->pids);
            p->taking = run;
        }
    }
    if (p->taking && !p->base) {   /* a step, or every step when waited for */
        if (!rt_run_intern_step(p->taking, wait ? SIZE_MAX : settle_step()))
            return 0;
        rt_run_intern_finish(p->taking, p->s.run_paths[r], ws->report);
        p->base = rt_eval_begin(ws->eval, rt_run_name(p->taking));
        p->evaluated = 0;   /* and a step of it now: a run of few queries is in at once */
    }
    if (p->taking) {   /* evaluated a step of queries at a time (7,000 at once took 10-25 ms) */
        uint32_t nq = rt_qrels_nqueries(ws->qrels);
        size_t step = settle_step() / 64 ? settle_step() / 64 : 1;   /* about as long as a pid step */
        uint32_t stop = wait || nq - p->evaluated <= step ? nq : p->evaluated + (uint32_t)step;
        for (; p->evaluated < stop; p->evaluated++) {
            size_t n;
            const uint32_t *pids = rt_run_ranking(p->taking, rt_qrels_qid(ws->qrels, p->evaluated), &n);
            if (pids)
                rt_eval_ranking(ws->eval, p->base, p->evaluated, pids, n);
        }
        if (p->evaluated < nq)
            return 0;
        rt_eval_end(ws->eval, p->base);
        ws->runs[ws->nruns].run = p->taking;   /* after a deferred run that failed: r is further on */
        ws->runs[ws->nruns++].base = p->base;
        p->taking = NULL;
        p->base = NULL;
    }
    runs_taken(p->j, r, st);
    size_t n0 = p->taking_n0;
    p->next++;
    if (st != RT_OK) {
        ws->runs_failed++;
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s (that run is not shown)", err->msg);
    } else {
        ws->nq = 0;   /* the queries only this run ranks come last */
        list_queries(ws);
    }
    size_t k = rt_report_count(ws->report) - n0;
    rt_report_move_tail(ws->report, n0, p->at);
    p->at += k;
    p->after += k;
    if (p->next == p->s.nruns)
        runs_done(ws);
    return st == RT_OK ? 1 : -1;
}

int rt_workspace_runs_busy(const rt_workspace *ws)
{
    return ws->runs_pending && ws->runs_pending->taking;
}

void rt_workspace_abandon(rt_workspace *ws)
{
    if (ws->runs_pending) {   /* its workers stop after the run they read, or never (a pipe) */
        runs_job *j = ws->runs_pending->j;
        pthread_mutex_lock(&j->mu);
        j->stop = 1;
        pthread_cond_broadcast(&j->cv);
        pthread_mutex_unlock(&j->mu);
        for (size_t t = 0; t < j->started; t++)   /* never joined now: nothing is left waiting for */
            pthread_detach(j->th[t]);             /* them (ThreadSanitizer: no thread leak) */
        ws->runs_pending = NULL;   /* the job and what it read go with the process */
    }
    if (ws->pending) {   /* its thread only builds an index in memory */
        atomic_store(&ws->pending->job->hurry, 1);
        pthread_detach(ws->pending->th);
        ws->pending = NULL;
    }
}

int rt_workspace_runs_loading(const rt_workspace *ws, size_t *in, size_t *total)
{
    if (!ws->runs_pending)
        return 0;
    *in = ws->runs_pending->next;
    *total = ws->runs_pending->s.nruns;
    return 1;
}

/* Appends the lines of from to to, kinds kept. */
static void append_report(rt_report *to, const rt_report *from)
{
    for (size_t i = 0; i < rt_report_count(from); i++) {
        rt_report_kind kind;
        const char *line = rt_report_line(from, i, &kind);
        rt_report_add(to, kind, "%s", line);
    }
}

/* Writes the workspace cache of a parse: its first nqids and npids ids, qrels, runs, the evals of
 * key ekey and the report lines first..last; a built collection index goes to the cache's writer
 * process. */
static void save_cache(rt_workspace *ws, uint32_t nqids, uint32_t npids, size_t first, size_t last,
                       uint64_t ekey)
{
    rt_eval_result **base = rt_calloc(ws->nruns + 1, sizeof *base);
    rt_run **runs = rt_calloc(ws->nruns + 1, sizeof *runs);
    for (size_t r = 0; r < ws->nruns; r++) {
        base[r] = ws->runs[r].base;
        runs[r] = ws->runs[r].run;
    }
    rt_ws_evals ev = {ekey, rt_qrels_nqueries(ws->qrels), ws->nm, base};
    long writer = rt_wscache_save(ws->cache, ws->qids, nqids, ws->pids, npids, ws->qrels, runs, &ev,
                                  ws->report, first, last, save_index, ws->collection);
    if (writer > 0)
        rt_collection_saved_by(ws->collection, writer, ws->report);
    free(runs);
    free(base);
}

static rt_status open_spec(rt_workspace **out, const rt_ws_spec *s, rt_ws_progress_fn progress,
                           void *ctx, rt_err *err)
{
    *out = NULL;
    if (!s->qrels)
        return rt_err_set(err, RT_EUSAGE, "a workspace needs qrels");
    if (s->nruns == 0)
        return rt_err_set(err, RT_EUSAGE, "a workspace needs at least one run");
    rt_workspace *ws = rt_calloc(1, sizeof *ws);
    /* unnamed: a workspace given by flags is called after its qrels file */
    const char *slash = strrchr(s->qrels, '/');
    ws->name = rt_strdup(s->name ? s->name : slash ? slash + 1 : s->qrels);
    ws->qids = rt_strtab_new();
    ws->pids = rt_strtab_new();
    ws->report = rt_report_new();
    ws->taxonomy = rt_taxonomy_default();
    ws->leak.train_queries = s->train_queries ? rt_strdup(s->train_queries) : NULL;
    ws->leak.train_emb = s->train_emb ? rt_strdup(s->train_emb) : NULL;
    ws->leak.test_emb = s->test_emb ? rt_strdup(s->test_emb) : NULL;
    ws->leak.queries_path = s->queries ? rt_strdup(s->queries) : NULL;
    ws->leak.index = s->leak_index ? rt_strdup(s->leak_index) : NULL;
    ws->leak.threshold = s->leak_threshold_set ? s->leak_threshold : NAN;
    ws->leak.k = s->leak_k;
    ws->leak.dim = s->leak_dim;
    ws->level = s->level;
    ws->graded = s->graded;
    ws->journal_dir = s->journal_dir ? rt_strdup(s->journal_dir) : NULL;
    ws->annotator = s->annotator ? rt_strdup(s->annotator) : NULL;
    rt_load_opts lo = {.strict = s->strict};
    rt_status st = rt_measure_list_parse(s->measures ? s->measures : "dureader", &ws->ms, &ws->nm, err);
    /* the parsed ids, qrels and runs from the workspace cache when it is there and fresh */
    rt_wscache_key key = {.anchor = s->collection, .queries = s->queries, .qrels = s->qrels,
                          .runs = s->run_paths, .names = s->run_names, .nruns = s->nruns,
                          .order = (int)s->order, .strict = s->strict};
    ws->runs = rt_calloc(s->nruns, sizeof *ws->runs);
    rt_run **runs = rt_calloc(s->nruns, sizeof *runs);
    int cached = 0;
    if (st == RT_OK && !s->no_cache && (ws->cache = rt_wscache_begin(&key)) != NULL) {
        phase(progress, ctx, "cache");
        rt_strtab *qids, *pids;
        if ((cached = rt_wscache_restore(ws->cache, &qids, &pids, &ws->qrels, runs, ws->report))) {
            rt_strtab_free(&ws->qids);
            rt_strtab_free(&ws->pids);
            ws->qids = qids;
            ws->pids = pids;
        }
    }
    coll_job *job = NULL;
    pthread_t coll_th;
    int threaded = st == RT_OK && s->collection && !cached && coll_threaded(s->collection);
    /* With the runs deferred too, the first screen waits for the first run only, and reading the
     * collection meanwhile would slow its reading (a disk scheduler seldom honours the idle I/O
     * class): the collection is started once that run is in. */
    int coll_later = threaded && s->defer_runs && s->defer_collection && runs_threads(s);
    if (threaded && !coll_later)
        threaded = coll_start(&job, &coll_th, s, !ws->cache);
    if (st == RT_OK && !cached && s->defer_runs)   /* the first run is read while the qrels are */
        runs_defer(ws, s, progress);
    if (st == RT_OK && s->queries) {
        phase(progress, ctx, "queries");
        st = rt_queries_load(&ws->queries, s->queries, RT_QUERIES_AUTO, ws->qids, &lo, ws->report, err);
    }
    size_t first = rt_report_count(ws->report);   /* the lines a cache keeps start here */
    if (st == RT_OK && cached) {
        for (size_t r = 0; r < s->nruns; r++)
            ws->runs[ws->nruns++].run = runs[r];
        rt_wscache_replay(ws->cache, ws->report);
    } else if (st == RT_OK) {
        phase(progress, ctx, "qrels");
        st = rt_qrels_load(&ws->qrels, s->qrels, RT_QRELS_AUTO, ws->qids, ws->pids, &lo, ws->report, err);
    }
    if (st == RT_OK && ws->runs_pending) {
        uint64_t total = 0;
        for (size_t r = 0; r < s->nruns; r++)
            total += file_size(s->run_paths[r]);
        st = runs_take(ws, &ws->runs_pending->s, ws->runs_pending->j, 0, 0, total, progress, ctx, err);
        ws->runs_pending->next = 1;
    }
    if (st == RT_OK && !cached && !ws->runs_pending)
        st = load_runs(ws, s, progress, ctx, err);
    if (coll_later)
        threaded = st == RT_OK && coll_start(&job, &coll_th, s, !ws->cache);
    size_t last = rt_report_count(ws->report);   /* the qrels' and runs' lines end here */
    rt_ws_runs *rp = ws->runs_pending;
    if (rp)
        rp->first = first, rp->at = last;
    if (threaded && st == RT_OK && s->defer_collection) {   /* rt_workspace_settle takes it */
        ws->pending = rt_calloc(1, sizeof *ws->pending);
        *ws->pending = (rt_ws_pending){job, coll_th, first, last, 0, 0, 0, 0};
    } else if (threaded) {
        phase(progress, ctx, "collection");
        while (!atomic_load(&job->finished)) {
            if (progress)
                progress(ctx, "collection", atomic_load(&job->done), atomic_load(&job->total));
            nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
        }
        pthread_join(coll_th, NULL);
        ws->collection = job->c;
        job->c = NULL;
        if (st != RT_OK)   /* a failed open writes no cache: the index is written now */
            rt_collection_save(ws->collection, job->report);
        append_report(ws->report, job->report);
        if (st == RT_OK && job->st != RT_OK) {   /* a run's error first, as in a sequential open */
            st = job->st;
            *err = job->err;
        }
        coll_job_free(&job);
    } else if (st == RT_OK && s->collection) {
        progress_bridge b = {progress, ctx};
        st = rt_collection_open(&ws->collection, s->collection, progress ? collection_progress : NULL,
                                &b, ws->report, err);
    }
    if (rp)   /* a deferred run's cross-check goes past the collection's lines */
        rp->after = rt_report_count(ws->report);
    if (st != RT_OK) {
        free(runs);
        rt_workspace_free(&ws);
        return st;
    }
    ws->eval = rt_eval_new(ws->qrels, ws->qids, ws->pids, ws->ms, ws->nm, ws->level);
    uint64_t ekey = evals_key(ws);
    for (size_t r = 0; r < ws->nruns; r++) {
        rt_eval_result *b = rt_eval_begin(ws->eval, rt_run_name(ws->runs[r].run));
        if (cached && rt_wscache_base(ws->cache, ekey, r, b)) {
            rt_eval_end(ws->eval, b);   /* the values as evaluated when the cache was written */
            ws->runs[r].base = b;
        } else {
            rt_eval_result_free(&b);
            ws->runs[r].base = eval_run(ws, ws->runs[r].run);
        }
    }
    list_queries(ws);
    if (rp) {   /* the rest once every run is in (runs_done) */
        rp->ekey = ekey;
        free(runs);
        goto extras;
    }
    cross_check(ws);
    check_judged(ws);
    if (ws->pending) {
        ws->pending->checked = rt_report_count(ws->report);
        ws->pending->ekey = ekey;
        ws->pending->nqids = rt_strtab_count(ws->qids);
        ws->pending->npids = rt_strtab_count(ws->pids);
    }
    else if (ws->cache && !cached)   /* last: it keeps the evals and the count check_judged made */
        save_cache(ws, rt_strtab_count(ws->qids), rt_strtab_count(ws->pids), first, last, ekey);
    rt_collection_save(ws->collection, ws->report);   /* built, and no writer took it: here */
    free(runs);
extras:
    if (s->facets && (st = rt_facets_load(&ws->facets, s->facets, ws->qids, ws->report, err)) != RT_OK) {
        rt_workspace_free(&ws);
        return st;
    }
    if (s->answers) {
        st = rt_answers_load(&ws->answers, s->answers, ws->qids, 0, ws->report, err);
        /* DuReader's answers carry question_type and fact_or_opinion: query facets, unless the
         * workspace names its own */
        if (st == RT_OK && !s->facets && answers_are_json(s->answers))
            st = rt_facets_load(&ws->facets, s->answers, ws->qids, NULL, err);
        if (st != RT_OK) {
            rt_workspace_free(&ws);
            return st;
        }
    }
    *out = ws;
    return RT_OK;
}

static const char *json_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static rt_status bad_key(rt_err *err, const char *path, const char *key, const char *want)
{
    return rt_err_at(err, RT_EINPUT, path, 0, "\"%s\" must be %s", key, want);
}

/* An optional integer member of o in [min, max]: *v is left alone when the member is absent;
 * 2.7, 1e10 or a string is an error naming the key and the range (as the flags' are). */
static rt_status json_int(const cJSON *o, const char *key, int64_t min, int64_t max, int64_t *v,
                          const char *path, rt_err *err)
{
    const char *dot = strchr(key, '.');   /* "leakage.k": shown whole, looked up as "k" */
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, dot ? dot + 1 : key);
    if (!x)
        return RT_OK;
    if (cJSON_IsNumber(x) && rt_num_int_value_in(x->valuedouble, min, max, v))
        return RT_OK;
    return rt_err_at(err, RT_EINPUT, path, 0, "\"%s\" must be a whole number from %lld to %lld",
                     key, (long long)min, (long long)max);
}

static rt_status check_types(const cJSON *o, const char *path, rt_err *err)
{
    static const char *strings[] = {"name", "queries", "collection", "qrels", "measures",
                                    "order", "journal_dir", "annotator", "facets", "dbqa", "answers"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, strings[i]);
        if (v && !cJSON_IsString(v) && !cJSON_IsNull(v))
            return bad_key(err, path, strings[i], "a string");
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "runs");
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
        return bad_key(err, path, "runs", "a non-empty array of paths or {\"name\", \"path\"} objects");
    if (!json_str(o, "qrels") && !json_str(o, "dbqa"))
        return bad_key(err, path, "qrels", "the path of the qrels file (or \"dbqa\": an NLPCC DBQA file)");
    if (json_str(o, "dbqa") && (json_str(o, "queries") || json_str(o, "collection") || json_str(o, "qrels")))
        return rt_err_at(err, RT_EINPUT, path, 0, "\"dbqa\" holds the queries, passages and labels: no "
                         "\"queries\", \"collection\" or \"qrels\" with it");
    const char *ms = json_str(o, "measures");
    if (ms) {   /* checked here, so that the error names the file it is in */
        rt_measure *list = NULL;
        size_t n = 0;
        rt_err me;
        rt_status st = rt_measure_list_parse(ms, &list, &n, &me);
        free(list);
        if (st != RT_OK)
            return rt_err_at(err, RT_EINPUT, path, 0, "\"measures\": %s", me.msg);
    }
    const char *who = json_str(o, "annotator");
    const char *why = who && who[0] ? rt_journal_name_problem(who) : NULL;   /* "": the default */
    if (why)   /* here, so that the error names the file it is in */
        return rt_err_at(err, RT_EINPUT, path, 0, "\"annotator\" cannot name a journal: %s", why);
    int order;
    char valid[64], want[80];
    if (json_str(o, "order") && !rt_name_value(rt_orders, json_str(o, "order"), &order)) {
        snprintf(want, sizeof want, "one of %s", rt_name_list(rt_orders, valid, sizeof valid));
        return bad_key(err, path, "order", want);
    }
    return RT_OK;
}

rt_status rt_workspace_open_json(rt_workspace **out, const char *path, unsigned flags,
                                 rt_ws_progress_fn progress, void *ctx, rt_err *err)
{
    *out = NULL;
    char *buf;
    size_t len;
    rt_status st = rt_read_file(path, &buf, &len, err);
    if (st == RT_OK && (st = rt_json_check_nul(path, 1, buf, len, err)) != RT_OK)
        free(buf);
    if (st != RT_OK)
        return st;
    cJSON *o = cJSON_ParseWithLength(buf, len);
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        free(buf);
        return rt_err_at(err, RT_EINPUT, path, 0, "expected a JSON object describing the workspace");
    }
    free(buf);
    if ((st = check_types(o, path, err)) != RT_OK) {
        cJSON_Delete(o);
        return st;
    }
    rt_taxonomy *tax = NULL;
    const cJSON *tj = cJSON_GetObjectItemCaseSensitive(o, "taxonomy");
    if (tj && (st = rt_taxonomy_from_json(&tax, tj, path, err)) != RT_OK) {
        cJSON_Delete(o);
        return st;
    }
    char *dir = rt_path_dir(path);
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(o, "runs");
    size_t nr = (size_t)cJSON_GetArraySize(runs), k = 0;
    const char **paths = rt_calloc(nr, sizeof *paths), **names = rt_calloc(nr, sizeof *names);
    char **owned = rt_calloc(nr + 4, sizeof *owned);
    const cJSON *r;
    cJSON_ArrayForEach(r, runs) {
        const char *p = cJSON_IsString(r) ? r->valuestring : json_str(r, "path");
        if (!p) {
            st = bad_key(err, path, "runs", "an array of paths or {\"name\", \"path\"} objects");
            break;
        }
        names[k] = cJSON_IsObject(r) ? json_str(r, "name") : NULL;
        owned[k] = rt_path_join(dir, p);
        paths[k] = owned[k];
        k++;
    }
    const char *keys[] = {"queries", "collection", "qrels", "journal_dir", "facets", "dbqa", "answers"};
    char *resolved[7] = {0};
    for (size_t i = 0; i < 7; i++)
        if (json_str(o, keys[i]))
            resolved[i] = rt_path_join(dir, json_str(o, keys[i]));
    const cJSON *lk = cJSON_GetObjectItemCaseSensitive(o, "leakage");
    const char *lkeys[] = {"train_queries", "train_embeddings", "test_embeddings"};
    char *lres[3] = {0};
    if (lk && !cJSON_IsObject(lk))
        st = bad_key(err, path, "leakage", "an object");
    for (size_t i = 0; i < 3 && lk && st == RT_OK; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(lk, lkeys[i]);
        if (v && !cJSON_IsString(v))
            st = bad_key(err, path, lkeys[i], "a path");
        else if (v)
            lres[i] = rt_path_join(dir, v->valuestring);
    }
    const cJSON *lt = lk ? cJSON_GetObjectItemCaseSensitive(lk, "threshold") : NULL;
    const cJSON *li = lk ? cJSON_GetObjectItemCaseSensitive(lk, "index") : NULL;
    if (st == RT_OK && li && !cJSON_IsString(li))
        st = bad_key(err, path, "leakage.index", "a Faiss index factory string");
    if (st == RT_OK && lt && (!cJSON_IsNumber(lt) || !(lt->valuedouble >= -1 && lt->valuedouble <= 1)))
        st = bad_key(err, path, "leakage.threshold", "a cosine from -1 to 1");
    int64_t level = 1, leak_k = 0, leak_dim = 0;
    if (st == RT_OK)
        st = json_int(o, "level", INT32_MIN, INT32_MAX, &level, path, err);
    if (st == RT_OK && lk)
        st = json_int(lk, "leakage.k", 1, RT_LEAK_MAX_K, &leak_k, path, err);
    if (st == RT_OK && lk)
        st = json_int(lk, "leakage.dim", 1, RT_LEAK_MAX_DIM, &leak_dim, path, err);
    const cJSON *graded = cJSON_GetObjectItemCaseSensitive(o, "graded");
    const cJSON *strict = cJSON_GetObjectItemCaseSensitive(o, "strict");
    int order = RT_ORDER_SCORE;
    if (json_str(o, "order"))
        rt_name_value(rt_orders, json_str(o, "order"), &order);   /* checked above */
    rt_ws_spec s = {
        .name = json_str(o, "name"), .queries = resolved[0], .collection = resolved[1],
        .qrels = resolved[2], .run_paths = paths, .run_names = names, .nruns = nr,
        .measures = json_str(o, "measures"), .level = (int32_t)level,
        .graded = cJSON_IsTrue(graded), .order = (rt_order)order,
        .strict = cJSON_IsTrue(strict), .journal_dir = resolved[3], .annotator = json_str(o, "annotator"),
        .train_queries = lres[0], .train_emb = lres[1], .test_emb = lres[2],
        .leak_index = cJSON_IsString(li) ? li->valuestring : NULL,
        .leak_threshold = cJSON_IsNumber(lt) ? lt->valuedouble : 0, .leak_threshold_set = cJSON_IsNumber(lt),
        .leak_k = (size_t)leak_k, .leak_dim = (size_t)leak_dim, .facets = resolved[4], .dbqa = resolved[5],
        .answers = resolved[6], .no_cache = (flags & RT_WS_NO_CACHE) != 0,
        .defer_collection = (flags & RT_WS_DEFER_COLLECTION) != 0,
        .defer_runs = (flags & RT_WS_DEFER_RUNS) != 0,
    };
    if (st == RT_OK)
        st = rt_workspace_open(out, &s, progress, ctx, err);
    if (st == RT_OK) {
        (*out)->path = rt_strdup(path);
        if (!json_str(o, "name")) {   /* unnamed: called after its file */
            free((*out)->name);
            (*out)->name = rt_path_stem(path);
        }
        if (tax) {
            rt_taxonomy_free(&(*out)->taxonomy);
            (*out)->taxonomy = tax;
            tax = NULL;
        }
    }
    rt_taxonomy_free(&tax);
    for (size_t i = 0; i < nr; i++)
        free(owned[i]);
    for (size_t i = 0; i < 7; i++)
        free(resolved[i]);
    for (size_t i = 0; i < 3; i++)
        free(lres[i]);
    free(owned);
    free(paths);
    free(names);
    free(dir);
    cJSON_Delete(o);
    return st;
}

/* After the index and the cache are in: the runs checked, then the collection read into the page
 * cache (the passages a key shows then wait for no disk read). */
static void check_runs_then_collection(void *ctx, const atomic_int *stop)
{
    const rt_workspace *ws = ctx;
    for (size_t r = 0; r < ws->nruns; r++)
        rt_run_check_all(ws->runs[r].run, stop);
    rt_collection_warm(ws->collection, stop);
}

void rt_workspace_warm(rt_workspace *ws)
{
    rt_warm_region reg[2];
    size_t n = 0;
    if (ws->warm_asked || ws->runs_pending)   /* it reads every run: once they are all in */
        return;
    ws->warm_asked = 1;
    /* the index first: each passage the compare view shows costs a few of its pages (on a cold
     * disk, key replays had 5-6 keys over a frame this way, 14 the other way round, 21-24 without) */
    if (ws->collection && (reg[n].p = rt_collection_index_map(ws->collection, &reg[n].len)) != NULL)
        n++;
    if ((reg[n].p = rt_wscache_map(ws->cache, &reg[n].len)) != NULL)
        n++;
    if (n)
        ws->warm = rt_warm_start(reg, n, check_runs_then_collection, ws);
}

void rt_workspace_free(rt_workspace **wp)
{
    if (!wp || !*wp)
        return;
    rt_workspace *ws = *wp;
    rt_warm_stop(&ws->warm);   /* first: it reads the runs and the mappings */
    runs_pending_free(&ws->runs_pending);   /* its workers read only the files */
    if (ws->pending) {   /* a collection still being indexed: its thread reads only the file */
        atomic_store(&ws->pending->job->hurry, 1);
        rt_thread_normal_priority(atomic_load(&ws->pending->job->tid));
        pthread_join(ws->pending->th, NULL);
        coll_job_free(&ws->pending->job);
        free(ws->pending);
    }
    for (size_t r = 0; r < ws->nruns; r++) {
        rt_run_free(&ws->runs[r].run);
        rt_eval_result_free(&ws->runs[r].base);
    }
    free(ws->runs);
    rt_eval_free(&ws->eval);
    rt_queries_free(&ws->queries);
    rt_collection_close(&ws->collection);
    rt_qrels_free(&ws->qrels);
    rt_strtab_free(&ws->qids);
    rt_strtab_free(&ws->pids);
    rt_report_free(&ws->report);
    rt_wscache_free(&ws->cache);   /* after everything restored from it */
    rt_taxonomy_free(&ws->taxonomy);
    rt_facets_free(&ws->facets);
    rt_answers_free(&ws->answers);
    free(ws->leak.train_queries);
    free(ws->leak.train_emb);
    free(ws->leak.test_emb);
    free(ws->leak.queries_path);
    free(ws->leak.index);
    free(ws->ms);
    free(ws->qlist);
    free(ws->path);
    free(ws->name);
    free(ws->journal_dir);
    free(ws->annotator);
    free(ws);
    *wp = NULL;
}

int rt_workspace_settle(rt_workspace *ws, int wait, rt_err *err)
{
    int taken = 0;
    if (wait && wait != RT_SETTLE_RUNS && ws->pending && !atomic_load(&ws->pending->job->finished)) {
        /* everything is waited for (a script, a command): the collection is no longer behind the
         * runs but beside them, so that both cores stay busy to the end rather than one finishing
         * the index alone once the runs are in */
        atomic_store(&ws->pending->job->hurry, 1);
        rt_thread_normal_priority(atomic_load(&ws->pending->job->tid));
    }
    while (ws->runs_pending) {   /* the runs first: with wait, the collection's part follows them */
        int rc = runs_settle(ws, wait, err);
        if (rc < 0)
            return -1;
        taken |= rc;
        if (rc == 0 || !wait)   /* one run a call: the screen shows each */
            break;
    }
    if (wait == RT_SETTLE_RUNS)
        return taken;
    rt_ws_pending *p = ws->pending;
    if (!p || (!wait && !atomic_load(&p->job->finished)))
        return taken;
    if (!atomic_load(&p->job->finished)) {   /* waited for now: no longer behind other work */
        atomic_store(&p->job->hurry, 1);
        rt_thread_normal_priority(atomic_load(&p->job->tid));
    }
    pthread_join(p->th, NULL);
    ws->pending = NULL;
    coll_job *j = p->job;
    int rc = 1;
    rt_ws_runs *rp = ws->runs_pending;
    if (rp && j->st == RT_OK) {
        /* indexed before the last run is in: its passages show now; the judged-pid check and the
         * cache follow the runs (runs_done). Its lines go after the runs' so far (those of the
         * runs still to come go before them), the cross-check's after them. */
        size_t n0 = rt_report_count(ws->report);
        append_report(ws->report, j->report);
        size_t k = rt_report_count(ws->report) - n0;
        rt_report_move_tail(ws->report, n0, rp->at);
        rp->after += k;
        ws->collection = j->c;
        j->c = NULL;
    } else if (j->st != RT_OK) {   /* the open would have failed: the workbench goes on without passages */
        *err = j->err;
        ws->collection_failed = 1;
        append_report(ws->report, j->report);
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s (passages are not shown)", j->err.msg);
        rc = -1;
    } else {   /* as open_spec does when it waits for the collection, in its report's order */
        size_t n0 = rt_report_count(ws->report);
        append_report(ws->report, j->report);
        size_t k = rt_report_count(ws->report) - n0;
        rt_report_move_tail(ws->report, n0, p->last);
        ws->collection = j->c;
        j->c = NULL;
        size_t n1 = rt_report_count(ws->report);
        check_judged(ws);
        if (ws->cache && !ws->runs_failed)   /* the ids as the open left them: the journals may have added some since */
            save_cache(ws, p->nqids, p->npids, p->first, p->last, p->ekey);
        rt_collection_save(ws->collection, ws->report);   /* no writer took it: here */
        rt_report_move_tail(ws->report, n1, p->checked + k);
    }
    coll_job_free(&j);
    free(p);
    return rc;
}

int rt_workspace_collection_loading(const rt_workspace *ws, uint64_t *done, uint64_t *total)
{
    if (!ws->pending)
        return 0;
    *done = atomic_load(&ws->pending->job->done);
    *total = atomic_load(&ws->pending->job->total);
    return 1;
}

const char *rt_workspace_query_text(const rt_workspace *ws, uint32_t qid)
{
    return ws->queries ? rt_queries_text(ws->queries, qid) : NULL;
}

int rt_workspace_passage(const rt_workspace *ws, uint32_t pid, const char **text, size_t *len)
{
    if (!ws->collection)
        return 0;
    return rt_collection_find(ws->collection, rt_strtab_str(ws->pids, pid), rt_strtab_len(ws->pids, pid),
                              text, len);
}

void rt_workspace_prefetch(const rt_workspace *ws, const uint32_t *pids, size_t n, size_t bytes)
{
    if (!ws->collection || n == 0)
        return;
    const char **s = rt_reallocarray(NULL, n, sizeof *s);
    size_t *l = rt_reallocarray(NULL, n, sizeof *l);
    for (size_t k = 0; k < n; k++) {
        s[k] = rt_strtab_str(ws->pids, pids[k]);
        l[k] = rt_strtab_len(ws->pids, pids[k]);
    }
    rt_collection_prefetch(ws->collection, s, l, n, bytes);
    free(s);
    free(l);
}

int rt_workspace_grade(const rt_workspace *ws, uint32_t qid, uint32_t pid, int32_t *grade)
{
    uint32_t i = rt_qrels_index(ws->qrels, qid);
    return i != RT_NO_ID && rt_qrels_lookup(ws->qrels, i, pid, grade);
}

size_t rt_workspace_rank_of(const rt_workspace *ws, size_t r, uint32_t qid, uint32_t pid)
{
    size_t n;
    const uint32_t *p = rt_run_ranking(ws->runs[r].run, qid, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i] == pid)
            return i + 1;
    return 0;
}

size_t rt_workspace_find_run(const rt_workspace *ws, const char *name)
{
    for (size_t r = 0; r < ws->nruns; r++)
        if (strcmp(rt_run_name(ws->runs[r].run), name) == 0)
            return r;
    int64_t n;
    if (rt_num_parse_int_in(name, 1, (int64_t)ws->nruns, &n))
        return (size_t)n - 1;
    return (size_t)-1;
}
