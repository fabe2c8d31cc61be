/* cmd_eval — `retriage eval`: evaluates runs against qrels and prints the values as TSV (one
 * value a line), JSON, or a runs × measures table in Markdown, LaTeX or CSV. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "progress.h"
#include "opts.h"
#include "rt_dbqa.h"
#include "rt_eval.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_utf8.h"
#include "rt_table.h"

static const char eval_help[] =
    "Usage: retriage eval [OPTIONS] QRELS [NAME=]RUN...\n"
    "       retriage eval [OPTIONS] --dbqa FILE [NAME=]SCORES...\n"
    "\n"
    "Evaluates each RUN against QRELS. The mean is over the queries of QRELS: a judged query\n"
    "missing from a run scores 0; run queries without judgments are ignored (trec_eval -c).\n"
    "NAME= names a run (else its TREC tag or file name). '-' reads QRELS, FILE or one RUN or\n"
    "SCORES file from standard input (once: '-' given twice is refused).\n"
    "\n"
    "Options:\n"
    CLI_HELP_MEASURES
    CLI_HELP_PRESET
    CLI_HELP_LEVEL
    "  -q, --per-query         also print each query's values (TSV and JSON)\n"
    CLI_HELP_ORDER
    CLI_HELP_STRICT
    "      --format FMT        tsv (default), json, md, latex, csv\n"
    CLI_HELP_QRELS_FORMAT
    CLI_HELP_RUN_FORMAT
    "      --dbqa FILE         NLPCC DBQA file (question<TAB>sentence<TAB>label): its labels are\n"
    "                          the qrels, and each SCORES file holds one score per line of FILE\n"
    "                          (ties keep file order); the default measures become the dbqa preset\n"
    CLI_HELP_QUIET
    "  -h, --help              show this help\n"
    "\n"
    "TSV output: run<TAB>measure<TAB>qid<TAB>value, qid 'all' for the mean; values with 17\n"
    "significant digits. MFR is averaged over the queries that retrieved a relevant passage;\n"
    "their number follows as the measure 'MFR.queries'.\n"
    "Exit status: 0 ok, 1 usage error, 2 input error.\n";

typedef struct eval_args {
    rt_measure *ms;
    size_t nm;
    int32_t level;
    int per_query, quiet;
    rt_table_format format;
    rt_qrels_format qfmt;
    rt_run_opts ropts;
    const char *dbqa;
} eval_args;

static void put_tsv_value(const char *run, const char *measure, const char *qid, double v)
{
    printf("%s\t%s\t%s\t%.17g\n", run, measure, qid, v);
}

/* The per-query lines of queries [from, to) (in sorted order) of one run, formatted into buf:
 * exactly what put_tsv_value prints for them. */
typedef struct tsv_part {
    const rt_eval_result *x;
    const eval_args *a;
    const rt_strtab *qids;
    const rt_qrels *q;
    const uint32_t *order;
    size_t from, to;
    char *buf;
    size_t len, cap;
} tsv_part;

static void *format_part(void *arg)
{
    tsv_part *p = arg;
    const rt_eval_result *x = p->x;
    size_t nm = p->a->nm;
    p->cap = 4096;   /* never NULL: an empty part is still written (nothing) through fwrite */
    p->buf = rt_malloc(p->cap);
    size_t run_len = strlen(x->name);
    for (size_t k = p->from; k < p->to; k++) {
        uint32_t i = p->order[k];
        uint32_t qs = rt_qrels_qid(p->q, i);
        const char *qid = rt_strtab_str(p->qids, qs);
        size_t qid_len = rt_strtab_len(p->qids, qs);
        for (size_t m = 0; m < nm; m++) {
            if (!x->defined[i * nm + m])
                continue;
            const char *mname = p->a->ms[m].name;
            size_t mlen = strlen(mname), need = run_len + mlen + qid_len + RT_NUM_G17_MAX + 4;
            if (p->cap - p->len < need) {
                p->cap = p->cap * 2 + need;
                p->buf = rt_realloc(p->buf, p->cap);
            }
            char *o = p->buf + p->len;   /* run<TAB>measure<TAB>qid<TAB>value, as put_tsv_value */
            memcpy(o, x->name, run_len);
            o += run_len;
            *o++ = '\t';
            memcpy(o, mname, mlen);
            o += mlen;
            *o++ = '\t';
            memcpy(o, qid, qid_len);
            o += qid_len;
            *o++ = '\t';
            o += rt_num_format_g17(o, x->value[i * nm + m]);
            *o++ = '\n';
            p->len = (size_t)(o - p->buf);
        }
    }
    return NULL;
}

/* A run's per-query lines: tens of thousands of exact doubles (%.17g, rt_num_format_g17) were a tenth
 * of eval's time on 6,000 queries with printf, so a large run's are formatted in two halves on two
 * threads. */
static void print_tsv_queries(const rt_eval *ev, const rt_eval_result *x, const eval_args *a)
{
    tsv_part p[2];
    size_t half = x->nq / 2;
    for (int h = 0; h < 2; h++)
        p[h] = (tsv_part){x, a, rt_eval_qids(ev), rt_eval_qrels(ev), rt_eval_sorted_queries(ev),
                          h ? half : 0, h ? x->nq : half, NULL, 0, 0};
    pthread_t th;
    int two = x->nq * a->nm >= 4096 && pthread_create(&th, NULL, format_part, &p[1]) == 0;
    format_part(&p[0]);
    if (two)
        pthread_join(th, NULL);
    else
        format_part(&p[1]);
    for (int h = 0; h < 2; h++) {
        fwrite(p[h].buf, 1, p[h].len, stdout);
        free(p[h].buf);
    }
}

static void print_tsv(const rt_eval *ev, rt_eval_result *const *res, size_t nr, const eval_args *a)
{
    for (size_t r = 0; r < nr; r++) {
        const rt_eval_result *x = res[r];
        if (a->per_query)
            print_tsv_queries(ev, x, a);
        for (size_t m = 0; m < a->nm; m++) {
            put_tsv_value(x->name, a->ms[m].name, "all", x->mean[m]);
            if (rt_measure_is_partial(&a->ms[m]))
                printf("%s\t%s.queries\tall\t%zu\n", x->name, a->ms[m].name, x->n_defined[m]);
        }
    }
}

/* The whole evaluation as one JSON document, built with cJSON (which escapes every string and
 * writes each double so that it reads back as the same double). */
static void print_json(const rt_eval *ev, rt_eval_result *const *res, size_t nr, const eval_args *a)
{
    const rt_qrels *q = rt_eval_qrels(ev);
    const rt_strtab *qids = rt_eval_qids(ev);
    const uint32_t *order = rt_eval_sorted_queries(ev);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "level", a->level);
    cJSON_AddStringToObject(doc, "order", a->ropts.order == RT_ORDER_FILE ? "file" : "score");
    cJSON_AddNumberToObject(doc, "queries", rt_qrels_nqueries(q));
    cJSON *ms = cJSON_AddArrayToObject(doc, "measures");
    for (size_t m = 0; m < a->nm; m++)
        cJSON_AddItemToArray(ms, cJSON_CreateString(a->ms[m].name));
    cJSON *runs = cJSON_AddArrayToObject(doc, "runs");
    for (size_t r = 0; r < nr; r++) {
        const rt_eval_result *x = res[r];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(runs, o);
        char *name = rt_utf8_repaired(x->name);   /* JSON is UTF-8; a run tag may not be */
        cJSON_AddStringToObject(o, "run", name);
        free(name);
        cJSON_AddStringToObject(o, "format", rt_run_format_name(x->info.format));
        cJSON_AddNumberToObject(o, "duplicates_dropped", (double)x->info.duplicates);
        cJSON_AddNumberToObject(o, "queries_not_in_qrels", (double)x->queries_not_in_qrels);
        cJSON_AddNumberToObject(o, "qrels_queries_missing", (double)x->qrels_queries_missing);
        cJSON *mean = cJSON_AddObjectToObject(o, "mean"), *def = cJSON_AddObjectToObject(o, "queries_defined");
        for (size_t m = 0; m < a->nm; m++) {
            cJSON_AddNumberToObject(mean, a->ms[m].name, x->mean[m]);
            cJSON_AddNumberToObject(def, a->ms[m].name, (double)x->n_defined[m]);
        }
        if (!a->per_query)
            continue;
        cJSON *pq = cJSON_AddObjectToObject(o, "per_query");
        for (size_t k = 0; k < x->nq; k++) {
            uint32_t i = order[k];
            cJSON *v = cJSON_AddObjectToObject(pq, rt_strtab_str(qids, rt_qrels_qid(q, i)));
            for (size_t m = 0; m < a->nm; m++)
                if (x->defined[i * a->nm + m])
                    cJSON_AddNumberToObject(v, a->ms[m].name, x->value[i * a->nm + m]);
        }
    }
    char *text = cJSON_PrintUnformatted(doc);
    fputs(text, stdout);
    fputc('\n', stdout);
    cJSON_free(text);
    cJSON_Delete(doc);
}

static int print_table(rt_eval_result *const *res, size_t nr, const eval_args *a)
{
    const char **head = rt_calloc(a->nm + 1, sizeof *head);
    head[0] = "run";
    for (size_t m = 0; m < a->nm; m++)
        head[m + 1] = a->ms[m].name;
    rt_table *t = rt_table_new(a->nm + 1, head);
    for (size_t m = 0; m < a->nm; m++)
        rt_table_number(t, m + 1);
    char (*cells)[48] = rt_calloc(a->nm + 1, sizeof *cells);
    const char **row = rt_calloc(a->nm + 1, sizeof *row);
    for (size_t r = 0; r < nr; r++) {
        row[0] = res[r]->name;
        for (size_t m = 0; m < a->nm; m++) {
            double v = res[r]->mean[m];
            if (rt_measure_is_partial(&a->ms[m]))
                snprintf(cells[m + 1], sizeof cells[0], "%.2f (n=%zu)", v, res[r]->n_defined[m]);
            else
                rt_measure_format(&a->ms[m], v, 0, cells[m + 1], sizeof cells[0]);
            row[m + 1] = cells[m + 1];
        }
        rt_table_add(t, row);
    }
    rt_err err;
    rt_status st = rt_table_write(t, a->format, stdout, &err);
    rt_table_free(&t);
    free(cells);
    free(row);
    free(head);
    return st == RT_OK ? CLI_OK : cli_fail(&err);
}

static int parse_args(int argc, char **argv, eval_args *a, int *first_file)
{
    static const struct option opts[] = {
        CLI_LONG_MEASURES, CLI_LONG_PRESET, CLI_LONG_LEVEL, CLI_LONG_ORDER, CLI_LONG_STRICT,
        CLI_LONG_QRELS_FORMAT, CLI_LONG_RUN_FORMAT, CLI_LONG_QUIET,
        {"per-query", no_argument, 0, 'q'},    {"format", required_argument, 0, 'F'},
        {"dbqa", required_argument, 0, 'D'},   {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    rt_err err;
    cli_opts o;
    int c, rc = CLI_OK;
    cli_opts_init(&o);
    optind = 1;
    while (rc == CLI_OK && (c = getopt_long(argc, argv, "m:l:qQh", opts, NULL)) != -1) {
        int h = cli_opts_handle(&o, "eval", c, optarg), v;
        if (h == CLI_OPTS_BAD)
            rc = CLI_USAGE;
        if (h != 0)
            continue;
        switch (c) {
        case 'q': a->per_query = 1; break;
        case 'D': a->dbqa = optarg; break;
        case 'F':
            if (cli_parse_name("eval", "format", rt_table_formats, optarg, &v) != CLI_OK)
                rc = CLI_USAGE;
            a->format = (rt_table_format)v;
            break;
        case 'h':
            fputs(eval_help, stdout);
            rc = -1;
            break;
        default:
            rc = cli_usage("eval", "unknown option");
        }
    }
    a->level = o.level;
    a->quiet = o.quiet;
    a->qfmt = o.qrels_format;
    a->ropts = cli_opts_run(&o);
    if (rc == CLI_OK && !a->dbqa && argc - optind < 2)
        rc = cli_usage("eval", "expected QRELS and at least one RUN");
    if (rc == CLI_OK && a->dbqa && argc - optind < 1)
        rc = cli_usage("eval", "expected at least one SCORES file after --dbqa FILE");
    if (rc == CLI_OK) {
        const char *list = o.measures ? o.measures : a->dbqa ? "dbqa" : "dureader";
        if (rt_measure_list_parse(list, &a->ms, &a->nm, &err) != RT_OK)
            rc = cli_fail(&err);
    }
    cli_opts_free(&o);
    *first_file = optind;
    return rc;
}

int cmd_eval(int argc, char **argv)
{
    eval_args a = {.level = 1};
    int first = 0;
    int rc = parse_args(argc, argv, &a, &first);
    if (rc != CLI_OK || first == 0) {
        free(a.ms);
        return rc < 0 ? CLI_OK : rc;
    }
    rt_err err;
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_qrels *qrels = NULL;
    rt_dbqa *dbqa = NULL;
    const rt_qrels *judged;
    rt_eval *ev = NULL;
    int run0 = a.dbqa ? first : first + 1;
    size_t nr = (size_t)(argc - run0);
    rt_eval_result **res = rt_calloc(nr, sizeof *res);
    rt_load_opts lo = {.strict = a.ropts.strict};
    if ((rc = cli_stdin_once_runs("eval", a.dbqa ? a.dbqa : argv[first], a.dbqa ? "--dbqa FILE" : "QRELS",
                                  argv + run0, nr, a.dbqa ? "SCORES" : "RUN")) != CLI_OK)
        goto out;
    rt_status st = a.dbqa ? rt_dbqa_load(&dbqa, a.dbqa, qids, pids, &lo, rep, &err)
                          : rt_qrels_load(&qrels, argv[first], a.qfmt, qids, pids, &lo, rep, &err);
    if (st != RT_OK) {
        rc = cli_fail(&err);
        goto out;
    }
    judged = dbqa ? rt_dbqa_qrels(dbqa) : qrels;
    if (!a.quiet)
        cli_print_warnings(rep);
    ev = rt_eval_new(judged, qids, pids, a.ms, a.nm, a.level);
    for (size_t r = 0; r < nr; r++) {
        char *name = NULL;   /* [NAME=]RUN, as pool and the workbench take it */
        const char *path = cli_split_run(argv[run0 + (int)r], &name);
        rt_run_opts ro = a.ropts;
        ro.name = name;
        struct stat sb;
        if (isatty(2) && strcmp(path, "-") != 0 && stat(path, &sb) == 0) {   /* a long read shows progress */
            ro.progress = &cli_progress;   /* on a terminal after half a second */
            ro.progress_phase = "run";
            ro.progress_total = (uint64_t)sb.st_size;
        }
        st = dbqa ? rt_dbqa_eval_scores(dbqa, ev, path, name, &res[r], &err)
                  : rt_eval_file(ev, path, &ro, &res[r], &err);
        if (ro.progress)
            cli_progress_clear();
        free(name);
        if (st != RT_OK) {
            rc = cli_fail(&err);
            goto out;
        }
        if (!a.quiet) {
            rt_report *w = rt_report_new();
            rt_eval_report(res[r], path, w);
            cli_print_warnings(w);
            rt_report_free(&w);
        }
    }
    if (!a.quiet) {   /* two runs of one name read as one */
        const char **names = rt_calloc(nr + 1, sizeof *names);
        for (size_t r = 0; r < nr; r++)
            names[r] = res[r]->name;
        rt_report *w = rt_report_new();
        rt_run_warn_same_names(names, nr, CLI_SAME_NAMES_HOW, w);
        cli_print_warnings(w);
        rt_report_free(&w);
        free(names);
    }
    if (a.format == RT_TABLE_TSV)
        print_tsv(ev, res, nr, &a);
    else if (a.format == RT_TABLE_JSON)
        print_json(ev, res, nr, &a);
    else
        rc = print_table(res, nr, &a);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "retriage: standard output: cannot write: %s\n", strerror(errno));
        rc = CLI_INPUT;
    }
out:
    for (size_t r = 0; r < nr; r++)
        rt_eval_result_free(&res[r]);
    free(res);
    rt_eval_free(&ev);
    rt_qrels_free(&qrels);
    rt_dbqa_free(&dbqa);
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    free(a.ms);
    return rc;
}
