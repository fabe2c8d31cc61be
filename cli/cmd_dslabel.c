/* cmd_dslabel — `retriage dslabel`: DuReader-retrieval's Algorithm 1 (distant supervision) as a
 * command: a (query, passage) pair is positive when some contiguous span of the passage reaches
 * character F1 >= t against one of the query's human answers (rt_spanf1). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "rt_answers.h"
#include "rt_collection.h"
#include "rt_file.h"
#include "rt_outguard.h"
#include "rt_mem.h"
#include "rt_field.h"
#include "rt_num.h"
#include "rt_id.h"
#include "rt_pool.h"
#include "rt_reader.h"

static const char dslabel_help[] =
    "Usage: retriage dslabel --answers F --collection C (--pairs FILE | --run RUN... [--depth K])\n"
    "                        [--threshold T] [--with-f1] [-o OUT]\n"
    "\n"
    "Labels (query, passage) pairs by DuReader-retrieval's distant supervision (Algorithm 1): a\n"
    "pair is positive when a contiguous span of the passage has character F1 >= T against one of\n"
    "the query's answers. Passage and answers are normalised alike: lower-cased as Python's\n"
    "str.lower() does (a word-final capital sigma is the final one); whitespace and\n"
    "separators (Unicode Z*), control and format characters (C*) and punctuation (P*) dropped;\n"
    "each remaining character a token; F1 = 2*ov/(|span|+|answer|), ov the multiset overlap. The\n"
    "search is exact: its decision is that of trying every span.\n"
    "\n"
    "Options:\n"
    "      --answers F         the answers: DuReader JSON lines (question_id, answers) or TSV\n"
    "                          qid<TAB>answer, a line per answer\n"
    "      --collection C      the passages: pid<TAB>text (gzip or zstd too)\n"
    "      --pairs FILE        the pairs to label: qid<TAB>pid (or blank-separated) per line\n"
    "      --run RUN           a run (TREC, TSV, DuReader JSON; repeat for several): the pairs\n"
    "                          are each query's top K of every run, pooled\n"
    "  -k, --depth K           with --run: the depth (default 50)\n"
    "  -t, --threshold T       the F1 a span must reach, 0 < T <= 1 (default 0.5)\n"
    "      --with-f1           write a TSV of every pair: qid, pid, best F1, positive, the answer\n"
    "                          it matched (1-based) and the span's byte offsets in the passage\n"
    "                          [start, end); otherwise TREC qrels of the positives (grade 1)\n"
    CLI_HELP_OUTPUT
    "  -Q, --quiet             no summary on stderr\n"
    "  -h, --help              show this help\n"
    "\n"
    "A query without answers has no positives (counted in the summary); a pair whose passage\n"
    "the collection lacks is skipped and counted. With --with-f1 the best span is searched in\n"
    "full, a few sweeps of each passage (the decision alone stops at the first span reaching T).\n"
    "Exit status: 0 ok, 1 usage error, 2 input or output error.\n";

typedef struct ds_args {
    const char *answers, *collection, *pairs, *output;
    const char **runs;
    size_t nruns;
    size_t depth;
    double threshold;
    int with_f1, quiet;
} ds_args;

typedef struct ds_totals {
    size_t pairs, positives, missing, no_answers, queries;
} ds_totals;

static int parse(int argc, char **argv, ds_args *a)
{
    static const struct option opts[] = {
        CLI_LONG_OUTPUT, CLI_LONG_QUIET,
        {"answers", required_argument, 0, 'A'},   {"collection", required_argument, 0, 'C'},
        {"pairs", required_argument, 0, 'P'},     {"run", required_argument, 0, 'R'},
        {"depth", required_argument, 0, 'k'},     {"threshold", required_argument, 0, 't'},
        {"with-f1", no_argument, 0, 'F'},         {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    int c, rc = CLI_OK;
    cli_opts o;
    cli_opts_init(&o);
    optind = 1;
    while (rc == CLI_OK && (c = getopt_long(argc, argv, "k:t:o:Qh", opts, NULL)) != -1) {
        int h = cli_opts_handle(&o, "dslabel", c, optarg);
        if (h == CLI_OPTS_BAD)
            rc = CLI_USAGE;
        if (h != 0)
            continue;
        int64_t v;
        switch (c) {
        case 'A': a->answers = optarg; break;
        case 'C': a->collection = optarg; break;
        case 'P': a->pairs = optarg; break;
        case 'R':
            a->runs = rt_reallocarray(a->runs, a->nruns + 1, sizeof *a->runs);
            a->runs[a->nruns++] = optarg;
            break;
        case 'k':
            if (!rt_num_parse_int_in(optarg, 1, 1 << 30, &v))
                rc = cli_usage("dslabel", "--depth expects an integer >= 1, not '%s'", optarg);
            a->depth = (size_t)v;
            break;
        case 't': {
            char *end;
            errno = 0;
            a->threshold = strtod(optarg, &end);
            if (errno || *end || !(a->threshold > 0 && a->threshold <= 1))
                rc = cli_usage("dslabel", "--threshold expects a number in (0, 1], not '%s'", optarg);
            break;
        }
        case 'F': a->with_f1 = 1; break;
        case 'h':
            fputs(dslabel_help, stdout);
            rc = -1;
            break;
        default: rc = cli_usage("dslabel", "unknown option");
        }
    }
    a->output = o.output;
    a->quiet = o.quiet;
    cli_opts_free(&o);
    if (rc != CLI_OK)
        return rc;
    if (optind < argc)
        return cli_usage("dslabel", "unexpected argument '%s'", argv[optind]);
    if (!a->answers || !a->collection)
        return cli_usage("dslabel", "--answers and --collection are required");
    if (!a->pairs == !a->nruns)
        return cli_usage("dslabel", "give the pairs: --pairs FILE or --run RUN (not both)");
    return CLI_OK;
}

/* Labels one pair and writes its line. */
static void label(const ds_args *a, const rt_answers *ans, const rt_collection *coll, const char *q, size_t ql,
                  uint32_t qid, const char *pid, size_t pl, FILE *out, ds_totals *t)
{
    const char *text;
    size_t len;
    t->pairs++;
    if (!rt_collection_find(coll, pid, pl, &text, &len)) {
        t->missing++;
        return;
    }
    const rt_normtext *const *an;
    size_t na = qid == RT_NO_ID ? 0 : rt_answers_of(ans, qid, &an);
    rt_spanf1 s = {0, 0, 0, 0};
    if (na) {
        rt_normtext p;
        rt_normtext_make(&p, text, len);
        s = rt_spanf1_best_of(&p, an, na, a->with_f1 ? 0 : a->threshold);
        if (s.f1 > 0 && a->with_f1) {   /* the span in bytes of the passage */
            size_t from = p.off[s.from], to = p.off[s.to - 1] + p.len[s.to - 1];
            s.from = from;
            s.to = to;
        }
        rt_normtext_free(&p);
    }
    int pos = na && s.f1 >= a->threshold;
    t->positives += pos;
    if (a->with_f1) {
        if (na && s.f1 > 0)
            fprintf(out, "%.*s\t%.*s\t%.17g\t%d\t%zu\t%zu\t%zu\n", (int)ql, q, (int)pl, pid, s.f1, pos, s.answer + 1,
                    s.from, s.to);
        else
            fprintf(out, "%.*s\t%.*s\t%s\t0\t\t\t\n", (int)ql, q, (int)pl, pid, na ? "0" : "");
    } else if (pos) {
        fprintf(out, "%.*s 0 %.*s 1\n", (int)ql, q, (int)pl, pid);
    }
}

/* The pairs to label, gathered first so that two threads can label the two halves. */
typedef struct ds_pair {
    const char *q, *pid;   /* in strtabs (runs) or in the pair file's copy (pairs) */
    size_t ql, pl;
    uint32_t qid;
} ds_pair;

typedef struct ds_pairs {
    ds_pair *p;
    size_t n, cap;
} ds_pairs;

static void add_pair(ds_pairs *v, const char *q, size_t ql, uint32_t qid, const char *pid, size_t pl)
{
    RT_GROW(v->p, v->cap, v->n + 1);
    v->p[v->n++] = (ds_pair){q, pid, ql, pl, qid};
}

typedef struct ds_job {
    const ds_args *a;
    const rt_answers *ans;
    const rt_collection *coll;
    const ds_pair *p;
    size_t n;
    char *buf;   /* what the job writes (open_memstream) */
    size_t len;
    ds_totals t;
} ds_job;

static void *label_job(void *arg)
{
    ds_job *j = arg;
    FILE *f = open_memstream(&j->buf, &j->len);
    if (!f)
        return NULL;
    for (size_t i = 0; i < j->n; i++)
        label(j->a, j->ans, j->coll, j->p[i].q, j->p[i].ql, j->p[i].qid, j->p[i].pid, j->p[i].pl, f, &j->t);
    fclose(f);
    return NULL;
}

/* Labels the pairs on two threads (halves, written in order) and adds up their totals. */
static rt_status label_all(const ds_args *a, const rt_answers *ans, const rt_collection *coll, const ds_pairs *v,
                           FILE *out, ds_totals *t, rt_err *err)
{
    size_t half = v->n / 2;
    ds_job j[2] = {{a, ans, coll, v->p, half, NULL, 0, {0}}, {a, ans, coll, v->p + half, v->n - half, NULL, 0, {0}}};
    pthread_t th;
    int threaded = v->n > 64 && pthread_create(&th, NULL, label_job, &j[1]) == 0;
    label_job(&j[0]);
    if (threaded)
        pthread_join(th, NULL);
    else
        label_job(&j[1]);
    rt_status st = RT_OK;
    for (int k = 0; k < 2; k++) {
        if (!j[k].buf)
            st = rt_err_set(err, RT_EIO, "dslabel: out of memory");
        else if (j[k].len)
            fwrite(j[k].buf, 1, j[k].len, out);
        free(j[k].buf);
        t->pairs += j[k].t.pairs;
        t->positives += j[k].t.positives;
        t->missing += j[k].t.missing;
    }
    return st;
}

static rt_status from_pairs(const ds_args *a, const rt_answers *ans, const rt_collection *coll,
                            const rt_strtab *qids, FILE *out, ds_totals *t, rt_err *err)
{
    rt_reader *r;
    rt_status st = rt_reader_open(&r, a->pairs, err);
    if (st != RT_OK)
        return st;
    char *line;
    size_t len;
    int rc;
    ds_pairs v = {0};
    rt_strtab *ids = rt_strtab_new();   /* the pair file's ids, kept while the threads label */
    while ((rc = rt_reader_next(r, &line, &len, err)) == 1) {
        if (rt_field_line_skippable(line, len))
            continue;
        rt_field f[3];
        size_t n = memchr(line, '\t', len) ? rt_field_split_tab(line, len, f, 3) : rt_field_split_ws(line, len, f, 3);
        if (n != 2 || !f[0].len || !f[1].len) {
            st = rt_err_at(err, RT_EINPUT, a->pairs, rt_reader_lineno(r), "expected qid<TAB>pid");
            break;
        }
        st = rt_id_check_pair(a->pairs, rt_reader_lineno(r), f[0].s, f[0].len, f[1].s, f[1].len, err);
        if (st != RT_OK)   /* the ids are written out as they are */
            break;
        uint32_t qid = rt_strtab_find(qids, f[0].s, f[0].len);
        uint32_t qk = rt_strtab_intern(ids, f[0].s, f[0].len), pk = rt_strtab_intern(ids, f[1].s, f[1].len);
        add_pair(&v, NULL, qk, qid, NULL, pk);   /* ids for now: the table may still grow */
    }
    if (rc < 0 && st == RT_OK)
        st = RT_EINPUT;
    rt_reader_close(&r);
    for (size_t i = 0; st == RT_OK && i < v.n; i++) {
        uint32_t qk = (uint32_t)v.p[i].ql, pk = (uint32_t)v.p[i].pl;
        v.p[i] = (ds_pair){rt_strtab_str(ids, qk), rt_strtab_str(ids, pk), rt_strtab_len(ids, qk), rt_strtab_len(ids, pk),
                           v.p[i].qid};
    }
    if (st == RT_OK)
        st = label_all(a, ans, coll, &v, out, t, err);
    free(v.p);
    rt_strtab_free(&ids);
    return st;
}

static rt_status from_runs(const ds_args *a, const rt_answers *ans, const rt_collection *coll, rt_strtab *qids,
                           rt_report *rep, FILE *out, ds_totals *t, rt_err *err)
{
    rt_strtab *pids = rt_strtab_new();
    rt_run **runs = rt_calloc(a->nruns + 1, sizeof *runs);
    rt_status st = RT_OK;
    for (size_t r = 0; r < a->nruns && st == RT_OK; r++) {
        char *name;
        const char *path = cli_split_run(a->runs[r], &name);
        rt_run_opts o = {.order = RT_ORDER_SCORE, .name = name};
        st = rt_run_load(&runs[r], path, &o, qids, pids, rep, err);
        free(name);
    }
    if (st == RT_OK) {
        uint32_t *qs;
        size_t nq = rt_pool_queries((const rt_run *const *)runs, a->nruns, qids, NULL, &qs);
        rt_pool_entry *pool = NULL;
        size_t cap = 0;
        ds_pairs v = {0};
        for (size_t i = 0; i < nq; i++) {
            size_t n = rt_pool_query((const rt_run *const *)runs, a->nruns, qs[i], a->depth, pids, &pool, &cap);
            for (size_t k = 0; k < n; k++)
                add_pair(&v, rt_strtab_str(qids, qs[i]), rt_strtab_len(qids, qs[i]), qs[i],
                         rt_strtab_str(pids, pool[k].pid), rt_strtab_len(pids, pool[k].pid));
        }
        st = label_all(a, ans, coll, &v, out, t, err);
        free(v.p);
        free(pool);
        free(qs);
    }
    for (size_t r = 0; r < a->nruns; r++)
        rt_run_free(&runs[r]);
    free(runs);
    rt_strtab_free(&pids);
    return st;
}

int cmd_dslabel(int argc, char **argv)
{
    ds_args a = {.depth = 50, .threshold = 0.5};
    int rc = parse(argc, argv, &a);
    if (rc != CLI_OK) {
        free(a.runs);
        return rc < 0 ? CLI_OK : rc;
    }
    rt_err err;
    rt_strtab *qids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_answers *ans = NULL;
    rt_collection *coll = NULL;
    rt_outfile *of = NULL;
    ds_totals t = {0};
    rt_status st = rt_answers_load(&ans, a.answers, qids, 1, rep, &err);
    if (st == RT_OK)
        st = rt_collection_open(&coll, a.collection, NULL, rep, &err);
    if (st == RT_OK && a.output) {
        rt_outguard *g = rt_outguard_new();
        rt_outguard_add(g, a.answers, "the answers");
        rt_outguard_add(g, a.collection, "the collection");
        rt_outguard_add(g, a.pairs, "the pairs");
        for (size_t r = 0; r < a.nruns; r++) {
            char *name = NULL;
            rt_outguard_add(g, cli_split_run(a.runs[r], &name), "a run");
            free(name);
        }
        st = rt_outguard_open(&of, a.output, g, &err);
        rt_outguard_free(&g);
    }
    FILE *out = of ? rt_outfile_stream(of) : stdout;
    if (st == RT_OK && a.with_f1)
        fputs("qid\tpid\tf1\tpositive\tanswer\tspan_start\tspan_end\n", out);
    if (st == RT_OK)
        st = a.pairs ? from_pairs(&a, ans, coll, qids, out, &t, &err)
                     : from_runs(&a, ans, coll, qids, rep, out, &t, &err);
    if (st != RT_OK) {
        rc = cli_fail(&err);
    } else if (of) {
        if (rt_outfile_commit(&of, &err) != RT_OK)
            rc = cli_fail(&err);
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "retriage: standard output: cannot write: %s\n", strerror(errno));
        rc = CLI_INPUT;
    }
    if (rc == CLI_OK && !a.quiet) {
        cli_print_warnings(rep);
        for (uint32_t q = 0; q < rt_strtab_count(qids); q++)
            t.no_answers += rt_answers_lists(ans, q) && !rt_answers_of(ans, q, NULL);
        fprintf(stderr, "retriage: %zu pairs, %zu positive (F1 >= %g)%s%zu passages not in the collection; "
                "%zu queries of the answers file have no answer\n", t.pairs, t.positives, a.threshold,
                "; ", t.missing, t.no_answers);
    }
    rt_outfile_discard(&of);
    rt_collection_close(&coll);
    rt_answers_free(&ans);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    free(a.runs);
    return rc;
}
