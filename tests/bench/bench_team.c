/* bench_team — a team of annotators at the size issue 11 sets: A annotators × P judged pairs
 * each (default 5 × 100,000), over a synthetic workspace (Q queries × depth D, one run). It
 * writes the journals (labels with ~15% disagreement, and categories on a fifth of the pairs),
 * then prints:
 *
 *   1. `retriage agree`'s core: opening the team (replaying every journal) and computing every
 *      pairwise Cohen's kappa, per-category kappas, Fleiss and Krippendorff — wall time;
 *   2. the disagreement view opening: the team open and every pair decided (rt_team_decide);
 *   3. picking up another annotator's append: rt_team_refresh when nothing changed (what every
 *      key and every 250 ms tick costs in the workbench) and right after one append;
 *   4. the journals' size.
 *
 * The whole command (workspace load included) is timed by bench_team.sh with the rusage tool.
 * Usage: bench_team [--annotators A] [--pairs P] [--queries Q] [--dir DIR] [--keep] [--generate-only] */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_file.h"
#include "rt_journal.h"
#include "rt_rng.h"
#include "rt_session.h"
#include "rt_team.h"
#include "rt_workspace.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put(const char *path, FILE **f)
{
    *f = fopen(path, "w");
    if (!*f) {
        perror(path);
        exit(2);
    }
}

/* The workspace: Q queries, each with depth pids ranked by one run; qrels: the first of each
 * query's passages relevant. */
static void make_workspace(const char *dir, size_t nq, size_t depth)
{
    char path[1024];
    FILE *q, *r, *j;
    snprintf(path, sizeof path, "%s/queries.tsv", dir);
    put(path, &q);
    snprintf(path, sizeof path, "%s/run.trec", dir);
    put(path, &r);
    snprintf(path, sizeof path, "%s/qrels.trec", dir);
    put(path, &j);
    for (size_t i = 0; i < nq; i++) {
        fprintf(q, "q%06zu\tquery number %zu\n", i, i);
        fprintf(j, "q%06zu 0 p%06zu-%03d 1\n", i, i, 0);
        for (size_t k = 0; k < depth; k++)
            fprintf(r, "q%06zu Q0 p%06zu-%03zu %zu %zu bench\n", i, i, k, k + 1, depth - k);
    }
    fclose(q);
    fclose(r);
    fclose(j);
}

static rt_workspace *open_ws(const char *dir)
{
    char q[1024], r[1024], j[1024];
    snprintf(q, sizeof q, "%s/queries.tsv", dir);
    snprintf(r, sizeof r, "%s/run.trec", dir);
    snprintf(j, sizeof j, "%s/qrels.trec", dir);
    const char *runs[] = {r};
    rt_ws_spec spec = {.name = "bench", .queries = q, .qrels = j, .run_paths = runs, .nruns = 1, .level = 1};
    rt_workspace *ws = NULL;
    rt_err err;
    if (rt_workspace_open(&ws, &spec, NULL, &err) != RT_OK) {
        fprintf(stderr, "bench_team: %s\n", err.msg);
        exit(2);
    }
    return ws;
}

/* Each annotator judges the same P pairs: the truth is "first passage relevant"; each flips a
 * grade with probability 0.05 + 0.03·a, and tags a fifth of the non-relevant pairs. */
static void make_journals(rt_workspace *ws, const char *jdir, size_t na, size_t np, size_t depth)
{
    const char *cats[] = {"entity", "numeral", "modifier", "syntactic", "typo", "overlap", "other"};
    for (size_t a = 0; a < na; a++) {
        char who[32];
        snprintf(who, sizeof who, "ann%zu", a + 1);
        rt_session *s;
        rt_err err;
        if (rt_session_open(&s, ws, jdir, who, 0, &err) != RT_OK) {
            fprintf(stderr, "bench_team: %s\n", err.msg);
            exit(2);
        }
        uint64_t st = 0x5eed + a;
        size_t cap = np + np / 4 + 1, n = 0;
        rt_op *ops = calloc(cap, sizeof *ops);
        char q[32], p[32];
        for (size_t i = 0; i < np; i++) {
            size_t qi = i / depth, k = i % depth;
            snprintf(q, sizeof q, "q%06zu", qi);
            snprintf(p, sizeof p, "p%06zu-%03zu", qi, k);
            int g = k == 0;
            if (rt_rng_below(&st, 1000) < 50 + 30 * a)
                g = !g;
            ops[n++] = (rt_op){.kind = RT_OP_LABEL, .qid = strdup(q), .pid = strdup(p), .has_grade = 1, .grade = g,
                               .via = strdup("bench")};
            if (!g && rt_rng_below(&st, 5) == 0)
                ops[n++] = (rt_op){.kind = RT_OP_TAG, .qid = strdup(q), .pid = strdup(p),
                                   .cat = strdup(cats[rt_rng_below(&st, 7)]), .via = strdup("bench")};
        }
        size_t kept;
        if (rt_session_import(s, ops, n, 0, &kept, &err) != RT_OK) {
            fprintf(stderr, "bench_team: %s\n", err.msg);
            exit(2);
        }
        for (size_t i = 0; i < n; i++)
            rt_op_clear(&ops[i]);
        free(ops);
        rt_session_close(&s);
    }
}

int main(int argc, char **argv)
{
    size_t na = 5, np = 100000, depth = 50;
    const char *dir = NULL;
    int keep = 0, gen_only = 0;
    static const struct option opts[] = {
        {"annotators", required_argument, 0, 'a'}, {"pairs", required_argument, 0, 'p'},
        {"dir", required_argument, 0, 'd'},        {"keep", no_argument, 0, 'k'},
        {"generate-only", no_argument, 0, 'g'},    {0, 0, 0, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
        switch (c) {
        case 'a': na = strtoul(optarg, NULL, 10); break;
        case 'p': np = strtoul(optarg, NULL, 10); break;
        case 'd': dir = optarg; break;
        case 'k': keep = 1; break;
        case 'g': gen_only = keep = 1; break;
        default: return 2;
        }
    char tmpl[512];
    if (!dir) {
        snprintf(tmpl, sizeof tmpl, "%s/bench_team_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(tmpl)) {
            perror("mkdtemp");
            return 2;
        }
        dir = tmpl;
    } else {
        mkdir(dir, 0777);
    }
    size_t nq = (np + depth - 1) / depth;
    char jdir[600];
    snprintf(jdir, sizeof jdir, "%s/j", dir);
    double t0 = now_s();
    make_workspace(dir, nq, depth);
    rt_workspace *ws = open_ws(dir);
    struct stat sb;
    if (stat(jdir, &sb) != 0)
        make_journals(ws, jdir, na, np, depth);
    printf("bench_team: %zu annotators x %zu judged pairs (%zu queries x depth %zu) in %s; made in %.1f s\n", na, np,
           nq, depth, dir, now_s() - t0);
    if (gen_only) {
        rt_workspace_free(&ws);
        return 0;
    }
    rt_err err;
    rt_team *t;
    t0 = now_s();
    if (rt_team_open(&t, ws, NULL, 0, jdir, NULL, 0, &err) != RT_OK) {
        fprintf(stderr, "bench_team: %s\n", err.msg);
        return 2;
    }
    double open_s = now_s() - t0;
    rt_team_agreement *ag;
    t0 = now_s();
    rt_team_agreement_compute(t, &ag, &err);
    double agree_s = now_s() - t0;
    printf("agree core: team open (replay %zu journals) %.3f s + agreement %.3f s = %.3f s (target < 1 s with load)\n",
           t->n, open_s, agree_s, open_s + agree_s);
    printf("  e.g. %s/%s: %zu pairs, kappa %.4f; Fleiss %.4f on %zu; Krippendorff %.4f on %zu\n", t->m[0].name,
           t->m[1].name, ag->pairs[0].relevance.items, ag->pairs[0].relevance.value, ag->fleiss.value, ag->fleiss.items,
           ag->alpha.value, ag->units);
    rt_team_agreement_free(&ag);
    t0 = now_s();
    rt_team_decisions *d = rt_team_decide(t, NULL);
    double decide_s = now_s() - t0;
    printf("disagreement view opens: team open %.1f ms + decide %.1f ms = %.1f ms (%zu pairs, %zu disputed; target < 100 ms)\n",
           open_s * 1e3, decide_s * 1e3, (open_s + decide_s) * 1e3, d->n, d->disputed);
    rt_team_decisions_free(&d);
    int changed = 0;
    size_t reps = 10000;
    t0 = now_s();
    for (size_t i = 0; i < reps; i++)
        rt_team_refresh(t, &changed, &err);
    double idle_us = (now_s() - t0) / (double)reps * 1e6;
    printf("pick-up, nothing changed: %.2f us a poll (%zu journals; the workbench polls on every key and every 250 ms; "
           "target < 1 ms a key)\n", idle_us, t->n);
    /* another annotator appends one judgment */
    rt_session *s;
    rt_session_open(&s, ws, jdir, t->m[0].name, 0, &err);
    rt_change ch;
    uint32_t q0 = rt_strtab_find(ws->qids, "q000000", 7), p1 = rt_session_pid(s, "p000000-001");
    const rt_label *had = rt_annot_label(s->annot, q0, p1);
    t0 = now_s();
    if (rt_session_judge(s, q0, p1, had && had->grade ? 0 : 1, &ch, &err) != RT_OK)
        fprintf(stderr, "bench_team: %s\n", err.msg);
    double append_ms = (now_s() - t0) * 1e3;
    t0 = now_s();
    rt_team_refresh(t, &changed, &err);
    double pick_ms = (now_s() - t0) * 1e3;
    printf("pick-up after an append: durable append %.2f ms, refresh %.2f ms (changed %d): on screen within 250 ms + "
           "%.2f ms (target < 1 s)\n", append_ms, pick_ms, changed, pick_ms);
    rt_session_close(&s);
    rt_team_free(&t);
    rt_workspace_free(&ws);
    if (!keep) {
        char cmd[1400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "bench_team: could not remove %s\n", dir);
    }
    return 0;
}
