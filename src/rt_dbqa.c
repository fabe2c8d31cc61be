/* rt_dbqa — loading NLPCC DBQA files and evaluating aligned score files. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_dbqa.h"
#include "rt_file.h"
#include "rt_mem.h"
#include "rt_field.h"
#include "rt_num.h"
#include "rt_utf8.h"
#include "rt_reader.h"
#include "rt_path.h"

typedef struct cand {
    uint32_t q;       /* question number, 0-based */
    uint32_t pid;
    char *sentence;
    int32_t label;
} cand;

struct rt_dbqa {
    rt_strtab *pids;
    rt_strtab *questions;   /* question text → number */
    uint32_t *per_q;        /* candidates seen per question */
    uint32_t pq_cap;
    rt_queries *queries;
    rt_qrels *qrels;
    cand *c;
    size_t n, cap;
    char *path;
};

void rt_dbqa_free(rt_dbqa **dp)
{
    if (!dp || !*dp)
        return;
    rt_dbqa *d = *dp;
    for (size_t i = 0; i < d->n; i++)
        free(d->c[i].sentence);
    free(d->c);
    free(d->per_q);
    free(d->path);
    rt_strtab_free(&d->questions);
    rt_queries_free(&d->queries);
    rt_qrels_free(&d->qrels);
    free(d);
    *dp = NULL;
}

static rt_status add_line(rt_dbqa *d, rt_qrels_builder *b, const char *line, size_t len,
                          size_t no, rt_err *err)
{
    rt_field f[4];
    size_t n = rt_field_split_tab(line, len, f, 4);
    if (n != 3)
        return rt_err_at(err, RT_EINPUT, d->path, no,
                         "expected 3 tab-separated columns (question, sentence, label), found %zu", n);
    int32_t label;
    if (rt_num_parse_int32(f[2].s, f[2].len, &label) != RT_NUM_OK)
        return rt_err_at(err, RT_EINPUT, d->path, no, "expected an integer label, found \"%.*s\"",
                         (int)(f[2].len > 40 ? 40 : f[2].len), f[2].s);
    if (f[0].len == 0)
        return rt_err_at(err, RT_EINPUT, d->path, no, "empty question");
    for (int k = 0; k < 2; k++)
        if (!rt_utf8_valid(f[k].s, f[k].len))
            return rt_err_at(err, RT_EINPUT, d->path, no, "text is not valid UTF-8");
    uint32_t q = rt_strtab_intern(d->questions, f[0].s, f[0].len);
    char qid[24], pid[48];
    int ql = snprintf(qid, sizeof qid, "q%u", q + 1);
    if (q >= d->pq_cap) {
        uint32_t cap = d->pq_cap ? d->pq_cap * 2 : 64;
        d->per_q = rt_reallocarray(d->per_q, cap, sizeof *d->per_q);
        memset(d->per_q + d->pq_cap, 0, (cap - d->pq_cap) * sizeof *d->per_q);
        d->pq_cap = cap;
    }
    if (d->per_q[q] == 0)
        rt_queries_add(d->queries, qid, (size_t)ql, f[0].s, f[0].len);
    int pl = snprintf(pid, sizeof pid, "q%u-%u", q + 1, ++d->per_q[q]);
    rt_status st = rt_qrels_builder_add(b, qid, (size_t)ql, pid, (size_t)pl, label, no, err);
    if (st != RT_OK)
        return st;
    RT_GROW(d->c, d->cap, d->n + 1);
    d->c[d->n++] = (cand){q, rt_strtab_intern(d->pids, pid, (size_t)pl), rt_strndup(f[1].s, f[1].len), label};
    return RT_OK;
}

rt_status rt_dbqa_load(rt_dbqa **out, const char *path, rt_strtab *qids, rt_strtab *pids,
                       const rt_load_opts *opts, rt_report *report, rt_err *err)
{
    *out = NULL;
    rt_reader *r;
    rt_status st = rt_reader_open(&r, path, err);
    if (st != RT_OK)
        return st;
    rt_dbqa *d = rt_calloc(1, sizeof *d);
    d->pids = pids;
    d->path = rt_strdup(path);
    d->questions = rt_strtab_new();
    d->queries = rt_queries_new(qids);
    rt_qrels_builder *b = rt_qrels_builder_new(path, qids, pids);
    char *line;
    size_t len;
    int rc;
    while ((rc = rt_reader_next(r, &line, &len, err)) == 1) {
        if (len == 0)
            continue;
        if ((st = add_line(d, b, line, len, rt_reader_lineno(r), err)) != RT_OK)
            break;
    }
    if (rc < 0)
        st = RT_EINPUT;
    rt_reader_close(&r);
    if (st == RT_OK && d->n == 0)
        st = rt_err_at(err, RT_EINPUT, path, 0, "no question lines found (empty file)");
    if (st == RT_OK)
        st = rt_qrels_builder_finish(&b, opts, report, &d->qrels, err);
    else {
        rt_qrels *dummy = NULL;
        rt_err ignore;
        rt_qrels_builder_finish(&b, NULL, NULL, &dummy, &ignore);
        rt_qrels_free(&dummy);
    }
    if (st != RT_OK) {
        rt_dbqa_free(&d);
        return st;
    }
    *out = d;
    return RT_OK;
}

const rt_queries *rt_dbqa_queries(const rt_dbqa *d) { return d->queries; }
const rt_qrels *rt_dbqa_qrels(const rt_dbqa *d) { return d->qrels; }
size_t rt_dbqa_count(const rt_dbqa *d) { return d->n; }
uint32_t rt_dbqa_pid(const rt_dbqa *d, size_t i) { return d->c[i].pid; }
const char *rt_dbqa_sentence(const rt_dbqa *d, size_t i) { return d->c[i].sentence; }

typedef struct scored {
    uint32_t q;
    size_t line;      /* index in the DBQA file: the tie-break */
    double score;
} scored;

static int scored_cmp(const void *x, const void *y)
{
    const scored *a = x, *b = y;
    if (a->q != b->q)
        return a->q < b->q ? -1 : 1;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static rt_status read_scores(const rt_dbqa *d, const char *path, scored *s, rt_err *err)
{
    rt_reader *r;
    rt_status st = rt_reader_open(&r, path, err);
    if (st != RT_OK)
        return st;
    size_t n = 0;
    char *line;
    size_t len;
    int rc;
    while ((rc = rt_reader_next(r, &line, &len, err)) == 1) {
        size_t no = rt_reader_lineno(r);
        rt_field f[2];
        if (rt_field_split_ws(line, len, f, 2) != 1) {
            st = rt_err_at(err, RT_EINPUT, path, no, "expected one score per line");
            break;
        }
        if (n == d->n) {
            st = rt_err_at(err, RT_EINPUT, path, no, "more scores than the %zu lines of %s", d->n, d->path);
            break;
        }
        rt_num_status ns = rt_num_parse_double(f[0].s, f[0].len, &s[n].score);
        if (ns != RT_NUM_OK) {
            st = rt_err_at(err, RT_EINPUT, path, no, ns == RT_NUM_NONFINITE ? "score is not finite"
                                                                            : "expected a numeric score");
            break;
        }
        s[n].q = d->c[n].q;
        s[n].line = n;
        n++;
    }
    if (rc < 0)
        st = RT_EINPUT;
    if (st == RT_OK && n != d->n)
        st = rt_err_at(err, RT_EINPUT, path, rt_reader_lineno(r) + 1, "the file ends after %zu scores, for the %zu lines of %s",
                       n, d->n, d->path);
    rt_reader_close(&r);
    return st;
}

rt_status rt_dbqa_eval_scores(const rt_dbqa *d, const rt_eval *ev, const char *scores_path, const char *name,
                              rt_eval_result **out, rt_err *err)
{
    *out = NULL;
    scored *s = rt_reallocarray(NULL, d->n, sizeof *s);
    rt_status st = read_scores(d, scores_path, s, err);
    if (st != RT_OK) {
        free(s);
        return st;
    }
    qsort(s, d->n, sizeof *s, scored_cmp);
    char *stem = name ? NULL : rt_path_stem(scores_path);
    rt_eval_result *r = rt_eval_begin(ev, name ? name : stem);
    free(stem);
    rt_hit *h = rt_reallocarray(NULL, d->n, sizeof *h);
    for (size_t i = 0; i < d->n;) {
        size_t j = i;
        for (; j < d->n && s[j].q == s[i].q; j++) {
            uint32_t pid = d->c[s[j].line].pid;
            const char *p = rt_strtab_str(d->pids, pid);
            size_t pl = rt_strtab_len(d->pids, pid);
            h[j - i] = (rt_hit){p, (uint32_t)pl, s[j].score, rt_run_pid_hash(p, pl), s[j].line + 1};
        }
        char qid[24];
        int ql = snprintf(qid, sizeof qid, "q%u", s[i].q + 1);
        rt_eval_add(ev, r, qid, (size_t)ql, h, j - i);
        r->info.hits += j - i;
        r->info.queries++;
        i = j;
    }
    r->info.lines = d->n;
    r->info.has_scores = 1;
    rt_eval_end(ev, r);
    free(h);
    free(s);
    *out = r;
    return RT_OK;
}

/* ---- as a workspace ----------------------------------------------------------------------- */

static rt_status write_file(const char *path, rt_status (*fill)(FILE *f, const void *ctx), const void *ctx,
                            rt_err *err)
{
    rt_outfile *o;
    rt_status st = rt_outfile_open(&o, path, err);
    if (st != RT_OK)
        return st;
    st = fill(rt_outfile_stream(o), ctx);
    if (st != RT_OK) {
        rt_outfile_discard(&o);
        return rt_err_set(err, st, "%s: cannot write", path);
    }
    return rt_outfile_commit(&o, err);
}

static rt_status fill_queries(FILE *f, const void *ctx)
{
    const rt_dbqa *d = ctx;   /* question N is the N-th distinct question of the file */
    for (uint32_t q = 0; q < rt_strtab_count(d->questions); q++)
        fprintf(f, "q%u\t%s\n", q + 1, rt_strtab_str(d->questions, q));
    return RT_OK;
}

static rt_status fill_collection(FILE *f, const void *ctx)
{
    const rt_dbqa *d = ctx;
    for (size_t i = 0; i < d->n; i++)
        fprintf(f, "%s\t%s\n", rt_strtab_str(d->pids, d->c[i].pid), d->c[i].sentence);
    return RT_OK;
}

static rt_status fill_qrels(FILE *f, const void *ctx)
{
    const rt_dbqa *d = ctx;
    for (size_t i = 0; i < d->n; i++)
        fprintf(f, "q%u 0 %s %d\n", d->c[i].q + 1, rt_strtab_str(d->pids, d->c[i].pid), (int)d->c[i].label);
    return RT_OK;
}

typedef struct run_ctx {
    const rt_dbqa *d;
    const scored *s;
} run_ctx;

static rt_status fill_run(FILE *f, const void *ctx)
{
    const run_ctx *r = ctx;
    for (size_t i = 0, rank = 1; i < r->d->n; i++) {
        rank = i > 0 && r->s[i].q == r->s[i - 1].q ? rank + 1 : 1;
        fprintf(f, "q%u Q0 %s %zu %.17g dbqa\n", r->s[i].q + 1, rt_strtab_str(r->d->pids, r->d->c[r->s[i].line].pid),
                rank, r->s[i].score);
    }
    return RT_OK;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = rt_malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

rt_status rt_dbqa_write_workspace(const rt_dbqa *d, const char *dir, const char *const *scores, size_t nscores,
                                  rt_dbqa_files *out, rt_err *err)
{
    memset(out, 0, sizeof *out);
    rt_status st = rt_file_mkdirs(dir, 0777, err);
    if (st != RT_OK)
        return st;
    out->queries = join(dir, "queries.tsv");
    out->collection = join(dir, "collection.tsv");
    out->qrels = join(dir, "qrels.trec");
    out->runs = rt_calloc(nscores + 1, sizeof *out->runs);
    out->nruns = nscores;
    if ((st = write_file(out->queries, fill_queries, d, err)) != RT_OK ||
        (st = write_file(out->collection, fill_collection, d, err)) != RT_OK ||
        (st = write_file(out->qrels, fill_qrels, d, err)) != RT_OK)
        return st;
    scored *s = rt_reallocarray(NULL, d->n + 1, sizeof *s);
    for (size_t k = 0; k < nscores && st == RT_OK; k++) {
        if ((st = read_scores(d, scores[k], s, err)) != RT_OK)
            break;
        qsort(s, d->n, sizeof *s, scored_cmp);
        char name[32];
        snprintf(name, sizeof name, "run%zu.trec", k + 1);
        out->runs[k] = join(dir, name);
        run_ctx r = {d, s};
        st = write_file(out->runs[k], fill_run, &r, err);
    }
    free(s);
    return st;
}

void rt_dbqa_files_free(rt_dbqa_files *f)
{
    free(f->queries);
    free(f->collection);
    free(f->qrels);
    for (size_t k = 0; k < f->nruns; k++)
        free(f->runs[k]);
    free(f->runs);
    memset(f, 0, sizeof *f);
}
