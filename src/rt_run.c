/* rt_run — a run held in memory for browsing: rt_runscan's queries with their pids interned. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_reader.h"
#include "rt_run.h"

/* ---- a run held in memory ------------------------------------------------------------------ */

struct rt_run {
    char *path;
    rt_run_info info;
    rt_strtab *qids, *pids;
    uint32_t *qlist;          /* queries in order of first appearance */
    uint32_t nq, qcap;
    uint32_t *slot;           /* qid id → index in qlist, or RT_NO_ID; sized slot_len */
    size_t slot_len;
    size_t *start;            /* hits of query i are [start[i], start[i] + count[i]) */
    uint32_t *count;
    uint32_t *pid;
    double *score;
    size_t n, cap;
};

static rt_status load_query(void *ctx, const char *qid, size_t ql, const rt_hit *h, size_t n,
                            rt_err *err)
{
    (void)err;
    rt_run *run = ctx;
    uint32_t q = rt_strtab_intern(run->qids, qid, ql);
    run->slot = rt_grow_index(run->slot, &run->slot_len, q, sizeof *run->slot, 0xff);
    size_t cap = run->qcap;
    RT_GROW(run->qlist, run->qcap, (size_t)run->nq + 1);
    if (run->qcap != cap) {
        run->start = rt_reallocarray(run->start, run->qcap, sizeof *run->start);
        run->count = rt_reallocarray(run->count, run->qcap, sizeof *run->count);
    }
    run->slot[q] = run->nq;
    run->qlist[run->nq] = q;
    run->start[run->nq] = run->n;
    run->count[run->nq] = (uint32_t)n;
    run->nq++;
    cap = run->cap;
    RT_GROW(run->pid, run->cap, run->n + n);
    if (run->cap != cap)
        run->score = rt_reallocarray(run->score, run->cap, sizeof *run->score);
    for (size_t i = 0; i < n; i++) {
        run->pid[run->n + i] = rt_strtab_intern(run->pids, h[i].pid, h[i].pid_len);
        run->score[run->n + i] = h[i].score;
    }
    run->n += n;
    return RT_OK;
}

static void load_reset(void *ctx)
{
    rt_run *run = ctx;
    for (uint32_t i = 0; i < run->nq; i++)
        run->slot[run->qlist[i]] = RT_NO_ID;
    run->nq = 0;
    run->n = 0;
}

rt_status rt_run_load(rt_run **out, const char *path, const rt_run_opts *opts, rt_strtab *qids,
                      rt_strtab *pids, rt_report *report, rt_err *err)
{
    *out = NULL;
    rt_run *run = rt_calloc(1, sizeof *run);
    run->path = rt_strdup(path);
    run->qids = qids;
    run->pids = pids;
    rt_status st = rt_run_scan(path, opts, load_query, load_reset, run, &run->info, err);
    if (st != RT_OK) {
        rt_run_free(&run);
        return st;
    }
    rt_report_add(report, RT_REPORT_INFO, "%s: run %s, %zu passages for %zu queries (%s)", path,
                  run->info.name, run->info.hits, run->info.queries,
                  rt_run_format_name(run->info.format));
    rt_run_report_duplicates(&run->info, path, report);
    *out = run;
    return RT_OK;
}

void rt_run_free(rt_run **rp)
{
    if (!rp || !*rp)
        return;
    rt_run *run = *rp;
    rt_run_info_clear(&run->info);
    free(run->path);
    free(run->qlist);
    free(run->slot);
    free(run->start);
    free(run->count);
    free(run->pid);
    free(run->score);
    free(run);
    *rp = NULL;
}

const char *rt_run_name(const rt_run *run) { return run->info.name; }
const char *rt_run_path(const rt_run *run) { return run->path; }
const rt_run_info *rt_run_get_info(const rt_run *run) { return &run->info; }
uint32_t rt_run_nqueries(const rt_run *run) { return run->nq; }
uint32_t rt_run_qid(const rt_run *run, uint32_t i) { return run->qlist[i]; }

const uint32_t *rt_run_ranking(const rt_run *run, uint32_t qid, size_t *n, const double **scores)
{
    uint32_t i = qid < run->slot_len ? run->slot[qid] : RT_NO_ID;
    if (i == RT_NO_ID) {
        *n = 0;
        if (scores)
            *scores = NULL;
        return NULL;
    }
    *n = run->count[i];
    if (scores)
        *scores = run->score + run->start[i];
    return run->pid + run->start[i];
}
