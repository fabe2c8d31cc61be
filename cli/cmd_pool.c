/* cmd_pool — `retriage pool`: TREC depth-k pooling of runs, printed per query in
 * reciprocal-rank-fusion order as a TREC run (which loads back as a run) or as TSV, optionally
 * checked against qrels to list what is left to judge. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "rt_mem.h"
#include "rt_file.h"
#include "rt_outguard.h"
#include "rt_num.h"
#include "rt_id.h"
#include "rt_pool.h"

static const char pool_help[] =
    "Usage: retriage pool --depth K [OPTIONS] [NAME=]RUN...\n"
    "\n"
    "Pools the top K passages of each RUN per query (TREC depth-K pooling) and prints each\n"
    "query's pool in reciprocal-rank-fusion order: a passage scores the sum, over the runs that\n"
    "rank it within their top K, of 1/(60 + rank); ties go to the better best rank, then to the\n"
    "passage id in byte order. Queries come in order of first appearance in the runs.\n"
    "\n"
    "Options:\n"
    "  -k, --depth K           pool depth, K >= 1 (required)\n"
    "      --format FMT        trec (default): qid Q0 pid rank rrf retriage-pool-dK, a TREC run\n"
    "                          tsv: qid pid rrf_rank rrf best_rank nruns [grade], with a header\n"
    "      --qrels F           count the pooled passages F judges; TSV gets a grade column (empty\n"
    "                          when unjudged)\n"
    "      --unjudged          with --qrels: print only the passages F does not judge (ranks stay\n"
    "                          those of the whole pool)\n"
    "      --qrels-queries     with --qrels: pool only the queries F judges\n"
    "      --rrf-k N           the RRF constant (default 60)\n"
    CLI_HELP_OUTPUT
    CLI_HELP_ORDER
    CLI_HELP_STRICT
    CLI_HELP_QRELS_FORMAT
    CLI_HELP_RUN_FORMAT
    "  -Q, --quiet             no load warnings and no summary on stderr\n"
    "  -h, --help              show this help\n"
    "\n"
    "A run is named by NAME=, else by its TREC tag, else by its file's stem. The summary on\n"
    "stderr gives the queries, the pool size (total and mean per query) and, with --qrels, how\n"
    "many pooled passages are judged. Reloading the TREC output by score reorders passages of\n"
    "equal rrf (trec_eval breaks ties by pid descending); 'retriage eval --order file' keeps the\n"
    "pool order.\n"
    "Exit status: 0 ok, 1 usage error, 2 input or output error.\n";

typedef enum pool_format { POOL_TREC, POOL_TSV } pool_format;

typedef struct pool_args {
    rt_pool_opts po;
    pool_format format;
    const char *qrels_path, *output;
    int unjudged, qrels_queries, quiet;
    rt_qrels_format qfmt;
    rt_run_opts ropts;
    int first_run;
} pool_args;

typedef struct pool_totals {
    size_t queries, pooled, judged;
} pool_totals;

static int parse_count(const char *opt, const char *arg, int32_t min, int32_t *out)
{
    if (rt_num_parse_int32(arg, strlen(arg), out) != RT_NUM_OK || *out < min)
        return cli_usage("pool", "%s expects an integer >= %d, not '%s'", opt, (int)min, arg);
    return CLI_OK;
}

static int parse_args(int argc, char **argv, pool_args *a)
{
    static const struct option opts[] = {
        CLI_LONG_OUTPUT, CLI_LONG_ORDER, CLI_LONG_STRICT, CLI_LONG_QRELS_FORMAT,
        CLI_LONG_RUN_FORMAT, CLI_LONG_QUIET,
        {"depth", required_argument, 0, 'k'},     {"format", required_argument, 0, 'F'},
        {"qrels", required_argument, 0, 'R'},     {"unjudged", no_argument, 0, 'u'},
        {"qrels-queries", no_argument, 0, 'J'},   {"rrf-k", required_argument, 0, 'K'},
        {"help", no_argument, 0, 'h'},            {0, 0, 0, 0},
    };
    static const rt_name formats[] = {{"trec", POOL_TREC}, {"tsv", POOL_TSV}, {NULL, 0}};
    int c, fv, have_depth = 0, rc = CLI_OK;
    int32_t v;
    cli_opts o;
    cli_opts_init(&o);
    optind = 1;
    while (rc == CLI_OK && (c = getopt_long(argc, argv, "k:o:Qh", opts, NULL)) != -1) {
        int h = cli_opts_handle(&o, "pool", c, optarg);
        if (h == CLI_OPTS_BAD)
            rc = CLI_USAGE;
        if (h != 0)
            continue;
        switch (c) {
        case 'k':
            rc = parse_count("--depth", optarg, 1, &v);
            a->po.depth = (size_t)v;
            have_depth = 1;
            break;
        case 'K':
            rc = parse_count("--rrf-k", optarg, 0, &v);
            a->po.rrf_k = (unsigned)v;
            break;
        case 'F':
            rc = cli_parse_name("pool", "format", formats, optarg, &fv);
            a->format = fv;
            break;
        case 'R': a->qrels_path = optarg; break;
        case 'u': a->unjudged = 1; break;
        case 'J': a->qrels_queries = 1; break;
        case 'h':
            fputs(pool_help, stdout);
            rc = -1;
            break;
        default:
            rc = cli_usage("pool", "unknown option");
        }
    }
    a->output = o.output;
    a->quiet = o.quiet;
    a->qfmt = o.qrels_format;
    a->ropts = cli_opts_run(&o);
    cli_opts_free(&o);
    if (rc != CLI_OK)
        return rc;
    if (!have_depth)
        return cli_usage("pool", "--depth K is required");
    if ((a->unjudged || a->qrels_queries) && !a->qrels_path)
        return cli_usage("pool", "%s needs --qrels", a->unjudged ? "--unjudged" : "--qrels-queries");
    if (optind >= argc)
        return cli_usage("pool", "expected at least one RUN");
    a->first_run = optind;
    return CLI_OK;
}

/* Loads [NAME=]PATH (see cli_split_run). */
static rt_status load_run(const char *arg, const pool_args *a, rt_strtab *qids, rt_strtab *pids,
                          rt_report *rep, rt_run **out, rt_err *err)
{
    rt_run_opts o = a->ropts;
    char *name;
    const char *path = cli_split_run(arg, &name);
    o.name = name;
    rt_status st = rt_run_load(out, path, &o, qids, pids, rep, err);
    free(name);
    return st;
}

/* The shortest decimal that reads back as the same double, so that equal and unequal scores
 * stay so in the output. */
static const char *exact(double v, char *buf, size_t n)
{
    for (int prec = 15; prec < 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return buf;
    }
    snprintf(buf, n, "%.17g", v);
    return buf;
}

/* A TREC pool is split at blanks when read back: refuse ids that hold one (TSV keeps them). */
static rt_status trec_safe(const rt_run *run, const rt_strtab *qids, const rt_strtab *pids, rt_err *err)
{
    uint32_t nq = rt_run_nqueries(run);
    for (uint32_t i = 0; i < nq; i++) {
        uint32_t q = rt_run_qid(run, i);
        const char *qs = rt_strtab_str(qids, q);
        size_t n;
        const uint32_t *p = rt_run_ranking(run, q, &n);
        const char *bad = !rt_id_trec_safe(qs) ? qs : NULL;
        for (size_t k = 0; !bad && k < n; k++)
            if (!rt_id_trec_safe(rt_strtab_str(pids, p[k])))
                bad = rt_strtab_str(pids, p[k]);
        if (bad) {
            char shown[128];
            return rt_err_set(err, RT_EUSAGE, "%s: id \"%s\" contains a blank: a TREC pool could not be "
                              "read back (use --format tsv)", rt_run_name(run), rt_id_show(bad, strlen(bad), shown, sizeof shown));
        }
    }
    return RT_OK;
}

static void write_pool(FILE *out, const pool_args *a, const rt_run *const *runs, size_t nruns,
                       const rt_qrels *qrels, const rt_strtab *qids, const rt_strtab *pids,
                       pool_totals *t)
{
    uint32_t *queries = NULL;
    size_t nq = rt_pool_queries(runs, nruns, qids, a->qrels_queries ? qrels : NULL, &queries);
    rt_pool_entry *e = NULL;
    size_t cap = 0;
    char num[40];
    if (a->format == POOL_TSV)
        fprintf(out, "qid\tpid\trrf_rank\trrf\tbest_rank\tnruns%s\n", qrels ? "\tgrade" : "");
    for (size_t i = 0; i < nq; i++) {
        const char *qid = rt_strtab_str(qids, queries[i]);
        uint32_t qi = qrels ? rt_qrels_index(qrels, queries[i]) : RT_NO_ID;
        size_t n = rt_pool_query_opts(runs, nruns, queries[i], &a->po, pids, &e, &cap);
        t->pooled += n;
        for (size_t r = 0; r < n; r++) {
            int32_t grade = 0;
            int judged = qi != RT_NO_ID && rt_qrels_lookup(qrels, qi, e[r].pid, &grade);
            t->judged += judged != 0;
            if (a->unjudged && judged)
                continue;
            const char *pid = rt_strtab_str(pids, e[r].pid);
            exact(e[r].rrf, num, sizeof num);
            if (a->format == POOL_TREC) {
                fprintf(out, "%s Q0 %s %zu %s retriage-pool-d%zu\n", qid, pid, r + 1, num, a->po.depth);
                continue;
            }
            fprintf(out, "%s\t%s\t%zu\t%s\t%u\t%u", qid, pid, r + 1, num, e[r].best_rank, e[r].nruns);
            if (qrels && judged)
                fprintf(out, "\t%d\n", (int)grade);
            else
                fputs(qrels ? "\t\n" : "\n", out);
        }
    }
    t->queries = nq;
    free(e);
    free(queries);
}

static void print_summary(const pool_args *a, const rt_run *const *runs, size_t nruns,
                          const pool_totals *t, int with_qrels)
{
    fprintf(stderr, "retriage pool: depth %zu, %zu run%s (", a->po.depth, nruns, nruns == 1 ? "" : "s");
    for (size_t r = 0; r < nruns; r++)
        fprintf(stderr, "%s%s", r ? ", " : "", rt_run_name(runs[r]));
    fprintf(stderr, "): %zu queries, %zu pooled passages (%.2f per query)", t->queries, t->pooled,
            t->queries ? (double)t->pooled / (double)t->queries : 0.0);
    if (with_qrels)
        fprintf(stderr, ", %zu judged, %zu unjudged", t->judged, t->pooled - t->judged);
    fputc('\n', stderr);
}

int cmd_pool(int argc, char **argv)
{
    pool_args a = {.po = {.rrf_k = RT_POOL_RRF_K}};
    int rc = parse_args(argc, argv, &a);
    if (rc == CLI_OK)
        rc = cli_stdin_once_runs("pool", a.qrels_path, "--qrels", argv + a.first_run, (size_t)(argc - a.first_run), "RUN");
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    rt_err err;
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_qrels *qrels = NULL;
    rt_outfile *of = NULL;
    size_t nruns = (size_t)(argc - a.first_run);
    rt_run **runs = rt_calloc(nruns, sizeof *runs);
    rt_load_opts lo = {.strict = a.ropts.strict};
    rt_status st = RT_OK;
    for (size_t r = 0; st == RT_OK && r < nruns; r++)
        st = load_run(argv[a.first_run + (int)r], &a, qids, pids, rep, &runs[r], &err);
    if (st == RT_OK && a.qrels_path)
        st = rt_qrels_load(&qrels, a.qrels_path, a.qfmt, qids, pids, &lo, rep, &err);
    for (size_t r = 0; st == RT_OK && a.format == POOL_TREC && r < nruns; r++)
        st = trec_safe(runs[r], qids, pids, &err);
    if (st == RT_OK && a.output) {   /* never over a run or the qrels it pools */
        rt_outguard *g = rt_outguard_new();
        for (size_t r = 0; r < nruns; r++)
            rt_outguard_add(g, rt_run_path(runs[r]), "a run");
        rt_outguard_add(g, a.qrels_path, "the qrels");
        st = rt_outguard_open(&of, a.output, g, &err);
        rt_outguard_free(&g);
    }
    if (st != RT_OK) {
        rc = cli_fail(&err);
        goto out;
    }
    if (!a.quiet)
        cli_print_warnings(rep);
    pool_totals t = {0};
    FILE *out = of ? rt_outfile_stream(of) : stdout;
    write_pool(out, &a, (const rt_run *const *)runs, nruns, qrels, qids, pids, &t);
    if (of) {
        if (rt_outfile_commit(&of, &err) != RT_OK)
            rc = cli_fail(&err);
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "retriage: standard output: cannot write: %s\n", strerror(errno));
        rc = CLI_INPUT;
    }
    if (rc == CLI_OK && !a.quiet)
        print_summary(&a, (const rt_run *const *)runs, nruns, &t, qrels != NULL);
out:
    rt_outfile_discard(&of);
    for (size_t r = 0; r < nruns; r++)
        rt_run_free(&runs[r]);
    free(runs);
    rt_qrels_free(&qrels);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return rc;
}
