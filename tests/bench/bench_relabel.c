/* bench_relabel — what a relabel costs on a large workspace (DESIGN §6 and §10: the metrics are
 * current after every relabel; every change is durable before the screen shows it):
 *
 *   1. "relabel → every run's metrics current": the core path the UI takes for a relabel
 *      (rt_session_check, rt_annot_apply, rt_live_update on an operation by ids) without the
 *      journal, so that the fsync is not in it; timed per relabel, and rt_live_update alone;
 *   2. one durable operation: rt_journal_append (write + fsync) on the temporary folder's
 *      filesystem, rt_session_do (an operation by name: resolve + check + append + apply +
 *      update) and rt_session_relabel (by ids, as the UI does it) end to end.
 *
 * It builds a synthetic workspace of R runs × Q queries × depth D (qrels: 3 relevant and 2
 * judged non-relevant per query) in a temporary folder, opens it with rt_workspace_open and
 * rt_session_open (journal in the same folder), and at the end checks that the incrementally
 * kept means equal a from-scratch evaluation of the same relabels (rt_live_new).
 *
 * Usage: bench_relabel [--runs R] [--queries Q] [--depth D] [--relabels N] [--appends M]
 *                      [--measures LIST] [--dir DIR] [--keep]
 *        defaults: 10 runs, 4000 queries, depth 50, 2000 relabels, 500 appends, dureader,
 *        a new folder under $TMPDIR (or /tmp), removed at the end unless --keep. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "rt_hash.h"
#include "rt_journal.h"
#include "rt_live.h"
#include "rt_session.h"
#include "rt_workspace.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
    rng_state += 0x9E3779B97F4A7C15ULL;
    return rt_hash_mix(rng_state);
}
static double rnd01(void) { return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Prints median, p90, p99 and max of v[0..n) (sorted in place), in µs. */
static void report(const char *what, double *v, size_t n)
{
    if (!n)
        return;
    qsort(v, n, sizeof *v, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    printf("  %-44s n=%-5zu median %9.1f  p90 %9.1f  p99 %9.1f  max %9.1f  mean %9.1f µs\n", what, n,
           v[n / 2], v[(size_t)(0.90 * (double)(n - 1))], v[(size_t)(0.99 * (double)(n - 1))], v[n - 1],
           sum / (double)n);
}

static const char *fs_name(const char *path)
{
    struct statfs sf;
    if (statfs(path, &sf) != 0)
        return "unknown";
    switch ((unsigned long)sf.f_type) {
    case 0xEF53UL: return "ext2/3/4";
    case 0x01021994UL: return "tmpfs";
    case 0x58465342UL: return "xfs";
    case 0x9123683EUL: return "btrfs";
    case 0x794C7630UL: return "overlayfs";
    case 0x2FC12FC1UL: return "zfs";
    case 0x6969UL: return "nfs";
    case 0x65735546UL: return "fuse";
    default: {
        static char buf[32];
        snprintf(buf, sizeof buf, "f_type 0x%lx", (unsigned long)sf.f_type);
        return buf;
    }
    }
}

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench_relabel: %s: %s\n", what, msg);
    exit(1);
}

/* ---- the synthetic workspace ---------------------------------------------------------------- */

#define POOL 80   /* candidates per query that the runs draw from */

static char *path_in(const char *dir, const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    if (!p)
        die("malloc", strerror(errno));
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* Query q's candidate i: pid "p<q>_<i>"; candidates 0–2 are relevant, 3–4 judged 0. */
static void generate(const char *dir, size_t nruns, size_t nq, size_t depth)
{
    char *qp = path_in(dir, "qrels.trec");
    FILE *f = fopen(qp, "w");
    if (!f)
        die(qp, strerror(errno));
    for (size_t q = 0; q < nq; q++)
        for (int i = 0; i < 5; i++)
            fprintf(f, "q%05zu 0 p%05zu_%02d %d\n", q, q, i, i < 3);
    if (fclose(f) != 0)
        die(qp, strerror(errno));
    free(qp);
    size_t *order = malloc(POOL * sizeof *order);
    double *score = malloc(POOL * sizeof *score);
    for (size_t r = 0; r < nruns; r++) {
        char name[32];
        snprintf(name, sizeof name, "run%02zu.trec", r + 1);
        char *rp = path_in(dir, name);
        f = fopen(rp, "w");
        if (!f)
            die(rp, strerror(errno));
        double skill = 0.4 + 0.1 * (double)r;   /* later runs rank relevant passages higher */
        for (size_t q = 0; q < nq; q++) {
            for (size_t i = 0; i < POOL; i++) {
                order[i] = i;
                score[i] = rnd01() + (i < 3 ? skill * rnd01() : 0.0);
            }
            /* the top `depth` by score: a partial selection sort is enough for 80 */
            for (size_t k = 0; k < depth && k < POOL; k++) {
                size_t best = k;
                for (size_t i = k + 1; i < POOL; i++)
                    if (score[order[i]] > score[order[best]])
                        best = i;
                size_t t = order[k];
                order[k] = order[best];
                order[best] = t;
                fprintf(f, "q%05zu Q0 p%05zu_%02zu %zu %.6f run%02zu\n", q, q, order[k], k + 1,
                        score[order[k]], r + 1);
            }
        }
        if (fclose(f) != 0)
            die(rp, strerror(errno));
        free(rp);
    }
    free(order);
    free(score);
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = path_in(dir, e->d_name);
        struct stat sb;
        if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            remove_tree(p);
        else
            unlink(p);
        free(p);
    }
    closedir(d);
    rmdir(dir);
}

/* ---- the benchmark ----------------------------------------------------------------------------- */

/* A relabel of a random pair from a random query's rankings: the current grade flipped; by ids
 * (what the workbench hands the session), and by name too when names is set (a typed change). */
static void pick(const rt_session *s, rt_op *op, int names)
{
    const rt_workspace *ws = s->ws;
    for (;;) {
        uint32_t qid = ws->qlist[rnd() % ws->nq];
        size_t r = rnd() % ws->nruns, n;
        const uint32_t *p = rt_run_ranking(ws->runs[r].run, qid, &n);
        if (!n)
            continue;
        uint32_t pid = p[rnd() % n];
        int32_t g = 0;
        int judged = rt_session_grade(s, qid, pid, &g, NULL);
        memset(op, 0, sizeof *op);
        op->kind = RT_OP_LABEL;
        op->by_id = !names;
        op->id.qid = qid;
        op->id.pid = pid;
        op->qid = names ? strdup(rt_strtab_str(ws->qids, qid)) : NULL;
        op->pid = names ? strdup(rt_strtab_str(ws->pids, pid)) : NULL;
        op->has_grade = 1;
        op->grade = judged && g > 0 ? 0 : 1;
        return;
    }
}

int main(int argc, char **argv)
{
    size_t nruns = 10, nq = 4000, depth = 50, nrel = 2000, napp = 500;
    const char *measures = "dureader", *dir_arg = NULL;
    int keep = 0;
    static const struct option opts[] = {
        {"runs", required_argument, 0, 'r'}, {"queries", required_argument, 0, 'q'},
        {"depth", required_argument, 0, 'd'}, {"relabels", required_argument, 0, 'n'},
        {"appends", required_argument, 0, 'a'}, {"measures", required_argument, 0, 'm'},
        {"dir", required_argument, 0, 'D'}, {"keep", no_argument, 0, 'k'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "r:q:d:n:a:m:D:k", opts, NULL)) != -1) {
        switch (c) {
        case 'r': nruns = strtoul(optarg, NULL, 10); break;
        case 'q': nq = strtoul(optarg, NULL, 10); break;
        case 'd': depth = strtoul(optarg, NULL, 10); break;
        case 'n': nrel = strtoul(optarg, NULL, 10); break;
        case 'a': napp = strtoul(optarg, NULL, 10); break;
        case 'm': measures = optarg; break;
        case 'D': dir_arg = optarg; break;
        case 'k': keep = 1; break;
        default:
            fprintf(stderr, "usage: bench_relabel [--runs R] [--queries Q] [--depth D] [--relabels N] "
                            "[--appends M] [--measures LIST] [--dir DIR] [--keep]\n");
            return 1;
        }
    }
    if (!nruns || nruns > 99 || !nq || nq > 99999 || !depth || depth > POOL)
        die("arguments", "runs 1-99, queries 1-99999, depth 1-80");

    char tmpl[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(tmpl, sizeof tmpl, "%s/bench-relabel-XXXXXX", dir_arg ? dir_arg : tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(tmpl))
        die(tmpl, strerror(errno));
    const char *dir = tmpl;
    printf("bench_relabel: %zu runs × %zu queries × depth %zu, measures %s\n", nruns, nq, depth, measures);
    printf("  folder %s (%s)\n", dir, fs_name(dir));

    double t0 = now_us();
    generate(dir, nruns, nq, depth);
    double t1 = now_us();
    printf("  generated in %.2f s\n", (t1 - t0) * 1e-6);

    const char **paths = calloc(nruns, sizeof *paths), **names = calloc(nruns, sizeof *names);
    for (size_t r = 0; r < nruns; r++) {
        char name[32];
        snprintf(name, sizeof name, "run%02zu.trec", r + 1);
        paths[r] = path_in(dir, name);
    }
    char *qrels = path_in(dir, "qrels.trec");
    rt_ws_spec spec = {.name = "bench", .qrels = qrels, .run_paths = paths, .run_names = names,
                       .nruns = nruns, .measures = measures, .level = 1, .order = RT_ORDER_SCORE};
    rt_workspace *ws;
    rt_err err;
    if (rt_workspace_open(&ws, &spec, NULL, &err) != RT_OK)
        die("rt_workspace_open", err.msg);
    double t2 = now_us();
    rt_session *s;
    if (rt_session_open(&s, ws, dir, "bench", 0, &err) != RT_OK)
        die("rt_session_open", err.msg);
    if (rt_session_readonly(s))
        die("rt_session_open", rt_session_readonly(s));
    double t3 = now_us();
    printf("  workspace opened in %.2f s (%zu judged queries, %zu measures); session in %.1f ms\n",
           (t2 - t1) * 1e-6, rt_live_nqueries(s->live), ws->nm, (t3 - t2) * 1e-3);

    /* 1. relabel → all runs' metrics current, without the journal */
    double *total = malloc((nrel + 1) * sizeof *total), *live = malloc((nrel + 1) * sizeof *live);
    double *apply = malloc((nrel + 1) * sizeof *apply);
    uint64_t seq = 1u << 30;   /* stamps of our own: these operations never reach the journal */
    for (size_t i = 0; i < nrel; i++) {
        rt_op op;
        pick(s, &op, 0);
        op.author = strdup("bench");
        double a = now_us();
        if (rt_session_check(s, &op, &err) != RT_OK)
            die("rt_session_check", err.msg);
        op.seq = seq++;
        op.time_ms = rt_op_now_ms();
        if (rt_annot_apply(s->annot, &op, NULL, &err) != RT_OK)
            die("rt_annot_apply", err.msg);
        double b = now_us();
        rt_live_update(s->live, op.id.qid);
        double e = now_us();
        total[i] = e - a;
        apply[i] = b - a;
        live[i] = e - b;
        rt_op_clear(&op);
    }
    printf("\n1. relabel → every run's metrics current (%zu runs, no journal):\n", nruns);
    report("check + apply + rt_live_update", total, nrel);
    report("  of which rt_live_update", live, nrel);
    report("  of which check + rt_annot_apply", apply, nrel);

    /* the incremental means equal a from-scratch evaluation of the same state */
    rt_live *fresh = rt_live_new(ws, s->annot);
    double maxdiff = 0;
    size_t differ = 0;
    for (size_t r = 0; r < nruns; r++)
        for (size_t m = 0; m < ws->nm; m++) {
            double d = fabs(rt_live_mean(s->live, r)[m] - rt_live_mean(fresh, r)[m]);
            maxdiff = d > maxdiff ? d : maxdiff;
            differ += rt_live_mean(s->live, r)[m] != rt_live_mean(fresh, r)[m] ||
                      rt_live_n_defined(s->live, r)[m] != rt_live_n_defined(fresh, r)[m];
        }
    printf("  after %zu relabels, incremental vs from-scratch means: %zu of %zu differ, max |diff| %.3g\n",
           nrel, differ, nruns * ws->nm, maxdiff);
    rt_live_free(&fresh);

    /* 2. one durable operation: rt_journal_append (write + fsync) */
    rt_journal *j;
    rt_op *old;
    size_t nold;
    rt_report *rep = rt_report_new();
    if (rt_journal_open(&j, dir, "appends", &old, &nold, rep, &err) != RT_OK)
        die("rt_journal_open", err.msg);
    free(old);
    rt_op_names tables = {ws->qids, ws->pids, ws->taxonomy};
    rt_journal_set_names(j, &tables);
    double *app = malloc((napp + 1) * sizeof *app);
    for (size_t i = 0; i < napp; i++) {
        rt_op op;
        pick(s, &op, 0);
        op.author = strdup("bench");
        double a = now_us();
        if (rt_journal_append(j, &op, &err) != RT_OK)
            die("rt_journal_append", err.msg);
        app[i] = now_us() - a;
        rt_op_clear(&op);
    }
    rt_journal_close(&j);
    rt_report_free(&rep);
    printf("\n2. one durable operation on %s (%s):\n", dir, fs_name(dir));
    report("rt_journal_append (write + fsync)", app, napp);

    /* and the whole of it: by name (rt_session_do: scripts, imports), and by ids as the UI does it */
    size_t ndo = napp < 200 ? napp : 200;
    double *sdo = malloc((ndo + 1) * sizeof *sdo), *sid = malloc((ndo + 1) * sizeof *sid);
    for (size_t i = 0; i < ndo; i++) {
        rt_op op;
        pick(s, &op, 1);
        double a = now_us();
        if (rt_session_do(s, &op, &err) != RT_OK)
            die("rt_session_do", err.msg);
        sdo[i] = now_us() - a;
        rt_op_clear(&op);
    }
    report("rt_session_do (check+append+apply+update)", sdo, ndo);
    for (size_t i = 0; i < ndo; i++) {
        rt_op op;
        pick(s, &op, 0);
        rt_change ch;
        double a = now_us();
        if (rt_session_relabel(s, op.id.qid, op.id.pid, 1, op.grade, &ch, &err) != RT_OK)
            die("rt_session_relabel", err.msg);
        sid[i] = now_us() - a;
        rt_op_clear(&op);
    }
    report("rt_session_relabel (the same, by ids)", sid, ndo);

    rt_session_close(&s);
    rt_workspace_free(&ws);
    for (size_t r = 0; r < nruns; r++)
        free((char *)paths[r]);
    free(paths);
    free(names);
    free(qrels);
    free(total);
    free(live);
    free(apply);
    free(app);
    free(sdo);
    free(sid);
    if (keep)
        printf("\nkept %s\n", dir);
    else
        remove_tree(dir);
    return differ ? 2 : 0;
}
