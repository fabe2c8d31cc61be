/* cmd_compare — `retriage compare`: are the differences between runs real? For each measure and
 * pair of runs (or run against a baseline): means, mean difference, t-test, Wilcoxon,
 * randomization and bootstrap, effect size, wins / ties / losses, p-values corrected per measure
 * (rt_compare). A row per comparison (TSV, CSV, JSON) or the paper's table (Markdown, LaTeX). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "opts.h"
#include "rt_compare.h"
#include "rt_eval.h"
#include "rt_facets.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_utf8.h"
#include "rt_table.h"
#include "rt_workspace.h"
#include "tuning.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char compare_help[] =
    "Usage: retriage compare [OPTIONS] QRELS RUN RUN...\n"
    "       retriage compare [OPTIONS] --workspace WORKSPACE.json | --demo\n"
    "\n"
    "Compares runs over the evaluation's queries (those of QRELS; a judged query a run misses scores\n"
    "0), paired by qid: for each measure and each pair of runs (or each run against --baseline) both\n"
    "means, the mean difference, the paired t-test, the Wilcoxon signed-rank test, a paired sign-flip\n"
    "randomization test, a percentile bootstrap 95% interval of the difference, the effect size d_z\n"
    "and wins / ties / losses; the chosen test's p-values are adjusted over the comparisons of one\n"
    "measure. Monte Carlo tests are reproducible from the seed, which the output states.\n"
    "\n"
    "Options:\n"
    CLI_HELP_MEASURES
    CLI_HELP_PRESET
    CLI_HELP_LEVEL
    "      --baseline RUN      compare each run with RUN only (a name, or a 1-based position)\n"
    "      --test T            ttest (default), wilcoxon, randomization, bootstrap: the test whose\n"
    "                          p is corrected and decides significance\n"
    "      --samples N         randomization and bootstrap samples (default " STR(RT_COMPARE_SAMPLES) ")\n"
    "      --seed S            their seed (default " STR(RT_COMPARE_SEED) ")\n"
    "      --correction C      none, bonferroni, holm (default), bh\n"
    "      --alpha A           significance level (default 0.05)\n"
    "      --format F          tsv (default), csv, json: a row per comparison; md, latex: the\n"
    "                          paper's table, means marked * when significantly different from the\n"
    "                          baseline (the first run unless --baseline), with a footnote\n"
    "      --facet NAME=VALUE  only the queries whose facet NAME is VALUE (the workspace's facets,\n"
    "                          or --facets F: TSV with a header qid<TAB>NAME…)\n"
    "      --facets F          query facets (for QRELS RUN..., or instead of the workspace's)\n"
    "      --workspace F       the workspace's qrels, runs and measures instead of QRELS RUN...\n"
    "      --demo              the bundled demo workspace\n"
    CLI_HELP_ORDER
    CLI_HELP_STRICT
    CLI_HELP_QRELS_FORMAT
    CLI_HELP_RUN_FORMAT
    CLI_HELP_OUTPUT
    CLI_HELP_QUIET
    "  -h, --help              show this help\n"
    "\n"
    "A test that cannot be computed (fewer than two queries, every difference the same) is reported\n"
    "as 'undefined' with the reason (JSON: null and a *_why member), never as NaN and never\n"
    "significant (md, latex: an n/a line under the footnote). A Monte Carlo p is never below\n"
    "1/(samples+1).\n"
    "Exit status: 0 ok, 1 usage error, 2 input error.\n";

typedef struct compare_args {
    rt_compare_opts o;
    rt_table_format format;
    const char *baseline, *workspace, *facet, *facets;
    int demo;
    cli_opts c;
    int first;
} compare_args;

static int parse(int argc, char **argv, compare_args *a)
{
    static const struct option opts[] = {
        CLI_LONG_MEASURES, CLI_LONG_PRESET, CLI_LONG_LEVEL, CLI_LONG_ORDER, CLI_LONG_STRICT,
        CLI_LONG_QRELS_FORMAT, CLI_LONG_RUN_FORMAT, CLI_LONG_OUTPUT, CLI_LONG_QUIET,
        {"baseline", required_argument, 0, 'b'}, {"test", required_argument, 0, 't'},
        {"samples", required_argument, 0, 'n'},  {"seed", required_argument, 0, 's'},
        {"correction", required_argument, 0, 'c'}, {"alpha", required_argument, 0, 'a'},
        {"format", required_argument, 0, 'F'},   {"workspace", required_argument, 0, 'W'},
        {"demo", no_argument, 0, 'D'},           {"help", no_argument, 0, 'h'},
        {"facet", required_argument, 0, 'G'},    {"facets", required_argument, 0, 'H'},
        {0, 0, 0, 0},
    };
    int c, v, rc = CLI_OK;
    int64_t x;
    optind = 1;
    while (rc == CLI_OK && (c = getopt_long(argc, argv, "m:l:o:Qh", opts, NULL)) != -1) {
        int h = cli_opts_handle(&a->c, "compare", c, optarg);
        if (h == CLI_OPTS_BAD)
            return CLI_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'b': a->baseline = optarg; break;
        case 't':
            rc = cli_parse_name("compare", "--test", rt_test_kinds, optarg, &v);
            a->o.test = (rt_test_kind)v;
            break;
        case 'c':
            rc = cli_parse_name("compare", "--correction", rt_corrections, optarg, &v);
            a->o.correction = (rt_correction)v;
            break;
        case 'F':
            rc = cli_parse_name("compare", "format", rt_table_formats, optarg, &v);
            a->format = (rt_table_format)v;
            break;
        case 'n':
            if (!rt_num_parse_int_in(optarg, 1, 100000000, &x))
                rc = cli_usage("compare", "--samples expects a whole number from 1 to 100000000, not '%s'", optarg);
            a->o.samples = (size_t)x;
            break;
        case 's':
            if (!rt_num_parse_int_in(optarg, 0, INT64_MAX, &x))
                rc = cli_usage("compare", "--seed expects a whole number, not '%s'", optarg);
            a->o.seed = (uint64_t)x;
            break;
        case 'a':
            if (rt_num_parse_double(optarg, strlen(optarg), &a->o.alpha) != RT_NUM_OK ||
                !(a->o.alpha > 0 && a->o.alpha < 1))
                rc = cli_usage("compare", "--alpha expects a number between 0 and 1, not '%s'", optarg);
            break;
        case 'W': a->workspace = optarg; break;
        case 'G': a->facet = optarg; break;
        case 'H': a->facets = optarg; break;
        case 'D': a->demo = 1; break;
        case 'h':
            fputs(compare_help, stdout);
            return -1;
        default: return cli_usage("compare", "unknown option");
        }
    }
    if (rc != CLI_OK)
        return rc;
    a->first = optind;
    if ((a->workspace || a->demo) && optind < argc)
        return cli_usage("compare", "give either a workspace or QRELS RUN..., not both");
    if (!a->workspace && !a->demo && argc - optind < 3)
        return cli_usage("compare", "expected QRELS and at least two RUNs (or --workspace F)");
    return CLI_OK;
}

/* ---- the runs' per-query values ---------------------------------------------------------- */

typedef struct evaluated {
    rt_workspace *ws;           /* a workspace's, or */
    rt_strtab *qids, *pids;     /* the files' */
    rt_qrels *qrels;
    rt_eval *ev;
    rt_eval_result **res;
    size_t nr, nq, nm;
    const rt_measure *ms;
    rt_measure *own_ms;
    const char **names;
    rt_facets *own_facets;
    const rt_facets *facets;
    double *agg;                /* [r * nm + m]: run r's figure of measure m over the compared queries */
    size_t *agg_n;              /* the queries it is over (0: undefined) */
} evaluated;

static void evaluated_free(evaluated *e)
{
    for (size_t r = 0; e->res && r < e->nr; r++)
        if (!e->ws || e->ev)
            rt_eval_result_free(&e->res[r]);   /* not the workspace's own base results */
    free(e->res);
    free(e->names);
    rt_eval_free(&e->ev);
    rt_qrels_free(&e->qrels);
    rt_strtab_free(&e->qids);
    rt_strtab_free(&e->pids);
    free(e->own_ms);
    free(e->agg);
    free(e->agg_n);
    rt_facets_free(&e->own_facets);
    rt_workspace_free(&e->ws);
}

/* --facets F, read against the evaluation's query ids. */
static int load_facets(const compare_args *a, const rt_strtab *qids, evaluated *e)
{
    rt_err err;
    rt_report *frep = rt_report_new();
    rt_status st = rt_facets_load(&e->own_facets, a->facets, qids, frep, &err);
    if (st == RT_OK && !a->c.quiet)
        cli_print_warnings(frep);
    rt_report_free(&frep);
    if (st != RT_OK)
        return cli_fail(&err);
    e->facets = e->own_facets;
    return CLI_OK;
}

static int from_files(compare_args *a, int argc, char **argv, evaluated *e)
{
    int rc = cli_stdin_once_runs("compare", argv[a->first], "QRELS", argv + a->first + 1, (size_t)(argc - a->first - 1), "RUN");
    if (rc != CLI_OK)
        return rc;
    rt_err err;
    rt_report *rep = rt_report_new();
    rt_load_opts lo = {.strict = a->c.strict};
    rt_run_opts ro = cli_opts_run(&a->c);
    e->qids = rt_strtab_new();
    e->pids = rt_strtab_new();
    if (rt_measure_list_parse(a->c.measures ? a->c.measures : "dureader", &e->own_ms, &e->nm, &err) != RT_OK ||
        rt_qrels_load(&e->qrels, argv[a->first], a->c.qrels_format, e->qids, e->pids, &lo, rep, &err) != RT_OK) {
        rt_report_free(&rep);
        return cli_fail(&err);
    }
    if (!a->c.quiet)
        cli_print_warnings(rep);
    rt_report_free(&rep);
    e->ms = e->own_ms;
    e->ev = rt_eval_new(e->qrels, e->qids, e->pids, e->own_ms, e->nm, a->c.level);
    e->nr = (size_t)(argc - a->first - 1);
    e->res = rt_calloc(e->nr, sizeof *e->res);
    e->names = rt_calloc(e->nr, sizeof *e->names);
    for (size_t r = 0; r < e->nr; r++) {
        char *name;
        const char *path = cli_split_run(argv[a->first + 1 + (int)r], &name);
        ro.name = name;
        rt_status st = rt_eval_file(e->ev, path, &ro, &e->res[r], &err);
        free(name);
        if (st != RT_OK)
            return cli_fail(&err);
        e->names[r] = e->res[r]->name;
        if (!a->c.quiet) {   /* as eval says it: judged queries the run misses score 0, and so on */
            rt_report *w = rt_report_new();
            rt_eval_report(e->res[r], path, w);
            cli_print_warnings(w);
            rt_report_free(&w);
        }
    }
    if (!a->c.quiet) {   /* rows and --baseline could not tell them apart */
        rt_report *w = rt_report_new();
        rt_run_warn_same_names((const char *const *)e->names, e->nr, CLI_SAME_NAMES_HOW, w);
        cli_print_warnings(w);
        rt_report_free(&w);
    }
    e->nq = rt_qrels_nqueries(e->qrels);
    return a->facets ? load_facets(a, e->qids, e) : CLI_OK;
}

static int from_workspace(compare_args *a, evaluated *e)
{
    rt_err err;
    const char *path = a->workspace;
    char demo[1024];
    if (a->demo) {
        const char *env = getenv("RETRIAGE_DEMO");
        snprintf(demo, sizeof demo, "%s", env ? env : RT_SRCDIR "/data/demo/workspace.json");
        path = demo;
    }
    rt_ws_config *c;
    rt_status st = rt_wsconfig_read(&c, path, &err);
    if (st == RT_OK) {
        c->spec.tuning = cli_tuning();
        st = rt_workspace_open_config(&e->ws, c, NULL, &err);
        rt_wsconfig_free(&c);
    }
    if (st != RT_OK)
        return cli_fail(&err);
    if (!a->c.quiet)
        cli_print_warnings(e->ws->report);
    if (a->c.measures) {   /* other measures than the workspace's: evaluate again */
        if (rt_measure_list_parse(a->c.measures, &e->own_ms, &e->nm, &err) != RT_OK)
            return cli_fail(&err);
        e->ms = e->own_ms;
        e->ev = rt_eval_new(e->ws->qrels, e->ws->qids, e->ws->pids, e->own_ms, e->nm, e->ws->level);
    } else {
        e->ms = e->ws->ms;
        e->nm = e->ws->nm;
    }
    e->nr = e->ws->nruns;
    e->res = rt_calloc(e->nr + 1, sizeof *e->res);
    e->names = rt_calloc(e->nr + 1, sizeof *e->names);
    for (size_t r = 0; r < e->nr; r++) {
        e->res[r] = e->ev ? rt_workspace_eval_run(e->ws, e->ev, r) : e->ws->runs[r].base;
        e->names[r] = rt_run_name(e->ws->runs[r].run);
    }
    if (e->nr < 2)
        return cli_usage("compare", "the workspace has %zu run: a comparison needs two", e->nr);
    e->nq = rt_qrels_nqueries(e->ws->qrels);
    e->facets = e->ws->facets;
    return a->facets ? load_facets(a, e->ws->qids, e) : CLI_OK;   /* --facets F: instead of the workspace's */
}

/* --facet NAME=VALUE: keep[i] for the evaluation's queries of that value; CLI_OK or a usage error. */
static int facet_subset(const compare_args *a, const evaluated *e, const rt_qrels *qrels, unsigned char *keep, size_t *n)
{
    const char *eq = strchr(a->facet, '=');
    if (!eq || eq == a->facet)
        return cli_usage("compare", "--facet expects NAME=VALUE, not '%s'", a->facet);
    if (!e->facets)
        return cli_usage("compare", "--facet: no facets (the workspace's \"facets\", or --facets F)");
    char *name = rt_strndup(a->facet, (size_t)(eq - a->facet));   /* a facet name of any length */
    size_t k = rt_facets_find(e->facets, name);
    size_t v = k == (size_t)-1 ? (size_t)-1 : rt_facet_value_index(e->facets, k, eq + 1);
    if (k == (size_t)-1 || v == (size_t)-1) {
        int rc = cli_usage("compare", k == (size_t)-1 ? "no facet %s" : "facet %s has no value %s", name, eq + 1);
        free(name);
        return rc;
    }
    free(name);
    *n = 0;
    for (size_t i = 0; i < e->nq; i++)
        *n += keep[i] = rt_facet_value(e->facets, k, rt_qrels_qid(qrels, (uint32_t)i)) == v;
    return CLI_OK;
}

/* Each run's figure of each measure over the compared queries (all, or keep[i]), as eval
 * aggregates it. */
static void aggregate(evaluated *e, const unsigned char *keep)
{
    uint32_t *rows = rt_calloc(e->nq + 1, sizeof *rows);
    size_t nrows = 0;
    for (size_t i = 0; i < e->nq; i++)
        if (!keep || keep[i])
            rows[nrows++] = (uint32_t)i;
    e->agg = rt_calloc(e->nr * e->nm + 1, sizeof *e->agg);
    e->agg_n = rt_calloc(e->nr * e->nm + 1, sizeof *e->agg_n);
    for (size_t r = 0; r < e->nr; r++)
        for (size_t m = 0; m < e->nm; m++)
            e->agg[r * e->nm + m] = rt_measure_aggregate(&e->ms[m], e->res[r]->value, e->res[r]->defined, e->nm, m,
                                                         rows, nrows, &e->agg_n[r * e->nm + m]);
    free(rows);
}

/* ---- output -------------------------------------------------------------------------------- */

static void num(char *buf, size_t n, int defined, double v)
{
    if (defined)
        snprintf(buf, n, "%.17g", v);
    else
        snprintf(buf, n, "undefined");
}

static rt_table *rows_table(const evaluated *e, const compare_args *a, const rt_comparison *c, size_t n)
{
    const char *h[] = {"measure", "a", "b", "queries", "mean_a", "mean_b", "mean_diff", "t", "p_ttest",
                       "p_wilcoxon", "p_randomization", "bootstrap_lo", "bootstrap_hi", "effect_size", "wins", "ties",
                       "losses", "test", "p", "correction", "p_adjusted", "significant", "samples", "seed", "dropped"};
    rt_table *t = rt_table_new(25, h);
    for (size_t col = 3; col < 25; col++)   /* measure, a and b name things; test, correction, significant are words */
        if (col != 17 && col != 19 && col != 21)
            rt_table_number(t, col);
    for (size_t i = 0; i < n; i++) {
        char v[25][64];
        const rt_comparison *x = &c[i];
        snprintf(v[3], 64, "%zu", x->queries);
        num(v[4], 64, x->queries > 0, x->mean_a);
        num(v[5], 64, x->queries > 0, x->mean_b);
        num(v[6], 64, x->queries > 0, x->mean_diff);
        num(v[7], 64, x->ttest.defined, x->ttest.stat);
        num(v[8], 64, x->ttest.defined, x->ttest.p);
        num(v[9], 64, x->wilcoxon.defined, x->wilcoxon.p);
        num(v[10], 64, x->randomization.defined, x->randomization.p);
        num(v[11], 64, x->has_boot, x->boot_lo);
        num(v[12], 64, x->has_boot, x->boot_hi);
        num(v[13], 64, x->has_effect, x->effect);
        snprintf(v[14], 64, "%zu", x->wins);
        snprintf(v[15], 64, "%zu", x->ties);
        snprintf(v[16], 64, "%zu", x->losses);
        num(v[18], 64, x->has_p, x->p);
        num(v[19 + 1], 64, x->has_p, x->p_adj);
        snprintf(v[22], 64, "%zu", a->o.samples);
        snprintf(v[23], 64, "%llu", (unsigned long long)a->o.seed);
        snprintf(v[24], 64, "%zu", x->dropped);
        const char *row[] = {e->ms[x->measure].name, e->names[x->a], e->names[x->b], v[3], v[4], v[5], v[6], v[7],
                             v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16],
                             rt_name_of(rt_test_kinds, (int)a->o.test), v[18],
                             rt_name_of(rt_corrections, (int)a->o.correction), v[20],
                             x->significant ? "yes" : "no", v[22], v[23], v[24]};
        rt_table_add(t, row);
    }
    return t;
}

static void put_test(cJSON *o, const char *key, const rt_test *t)
{
    if (t->defined) {
        cJSON_AddNumberToObject(o, key, t->p);
        return;
    }
    char why[64];
    cJSON_AddNullToObject(o, key);
    snprintf(why, sizeof why, "%s_why", key);
    cJSON_AddStringToObject(o, why, t->why ? t->why : "undefined");
}

/* Adds s to o under key with each invalid UTF-8 byte replaced by U+FFFD. */
static void add_utf8(cJSON *o, const char *key, const char *s)
{
    char *u = rt_utf8_repaired(s);
    cJSON_AddStringToObject(o, key, u);
    free(u);
}

static char *to_json(const evaluated *e, const compare_args *a, const rt_comparison *c, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        const rt_comparison *x = &c[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "measure", e->ms[x->measure].name);
        add_utf8(o, "a", e->names[x->a]);   /* JSON is UTF-8; a run tag may not be */
        add_utf8(o, "b", e->names[x->b]);
        cJSON_AddNumberToObject(o, "queries", (double)x->queries);
        cJSON_AddNumberToObject(o, "dropped", (double)x->dropped);
        if (x->queries) {
            cJSON_AddNumberToObject(o, "mean_a", x->mean_a);
            cJSON_AddNumberToObject(o, "mean_b", x->mean_b);
            cJSON_AddNumberToObject(o, "mean_diff", x->mean_diff);
        } else {   /* as TSV's "undefined": no query, no mean */
            cJSON_AddNullToObject(o, "mean_a");
            cJSON_AddNullToObject(o, "mean_b");
            cJSON_AddNullToObject(o, "mean_diff");
        }
        if (x->ttest.defined)
            cJSON_AddNumberToObject(o, "t", x->ttest.stat);
        else
            cJSON_AddNullToObject(o, "t");
        put_test(o, "p_ttest", &x->ttest);
        put_test(o, "p_wilcoxon", &x->wilcoxon);
        put_test(o, "p_randomization", &x->randomization);
        if (x->has_boot) {
            cJSON *b = cJSON_AddArrayToObject(o, "bootstrap95");
            cJSON_AddItemToArray(b, cJSON_CreateNumber(x->boot_lo));
            cJSON_AddItemToArray(b, cJSON_CreateNumber(x->boot_hi));
        } else {
            cJSON_AddNullToObject(o, "bootstrap95");
        }
        put_test(o, "p_bootstrap", &x->boot);
        if (x->has_effect)
            cJSON_AddNumberToObject(o, "effect_size", x->effect);
        else
            cJSON_AddNullToObject(o, "effect_size");
        cJSON_AddNumberToObject(o, "p_ttest_bonferroni", x->p_ttest_adj[0]);
        cJSON_AddNumberToObject(o, "p_ttest_holm", x->p_ttest_adj[1]);
        cJSON_AddNumberToObject(o, "p_ttest_bh", x->p_ttest_adj[2]);
        cJSON_AddNumberToObject(o, "wins", (double)x->wins);
        cJSON_AddNumberToObject(o, "ties", (double)x->ties);
        cJSON_AddNumberToObject(o, "losses", (double)x->losses);
        cJSON_AddStringToObject(o, "test", rt_name_of(rt_test_kinds, (int)a->o.test));
        cJSON_AddStringToObject(o, "correction", rt_name_of(rt_corrections, (int)a->o.correction));
        cJSON_AddNumberToObject(o, "alpha", a->o.alpha);
        cJSON_AddNumberToObject(o, "samples", (double)a->o.samples);
        cJSON_AddNumberToObject(o, "seed", (double)a->o.seed);
        if (x->has_p) {
            cJSON_AddNumberToObject(o, "p", x->p);
            cJSON_AddNumberToObject(o, "p_adjusted", x->p_adj);
        } else {
            cJSON_AddNullToObject(o, "p");
            cJSON_AddNullToObject(o, "p_adjusted");
            cJSON_AddStringToObject(o, "p_why", x->why ? x->why : "undefined");
        }
        cJSON_AddBoolToObject(o, "significant", x->significant);
        cJSON_AddItemToArray(arr, o);
    }
    char *s = cJSON_Print(arr);
    cJSON_Delete(arr);
    return s;
}

/* The paper's table: runs × measures, each mean marked * when significantly different from the
 * baseline; the baseline's row says so. */
static rt_table *paper_table(const evaluated *e, const compare_args *a, const rt_comparison *c, size_t n)
{
    const char **h = rt_calloc(e->nm + 1, sizeof *h);
    h[0] = "run";
    for (size_t m = 0; m < e->nm; m++)
        h[m + 1] = e->ms[m].name;
    rt_table *t = rt_table_new(e->nm + 1, h);
    for (size_t m = 0; m < e->nm; m++)
        rt_table_number(t, m + 1);
    char (*cells)[96] = rt_calloc(e->nm + 1, sizeof *cells);
    const char **row = rt_calloc(e->nm + 1, sizeof *row);
    for (size_t r = 0; r < e->nr; r++) {
        size_t nl = strlen(e->names[r]) + sizeof " (baseline)";   /* a name of any length, whole */
        char *name = rt_malloc(nl);
        snprintf(name, nl, "%s%s", e->names[r], r == a->o.baseline ? " (baseline)" : "");
        row[0] = name;
        for (size_t m = 0; m < e->nm; m++) {
            int sig = 0;
            for (size_t i = 0; i < n; i++)
                if (c[i].measure == m && c[i].a == r && c[i].b == a->o.baseline)
                    sig = c[i].significant;
            /* each run's own figure over the compared queries (a facet's, say), as eval gives it:
             * not a comparison's paired mean, which leaves out the queries the other run lacks */
            if (e->agg_n[r * e->nm + m])
                rt_measure_format(&e->ms[m], e->agg[r * e->nm + m], 0, cells[m + 1], sizeof cells[0] - 2);
            else
                snprintf(cells[m + 1], sizeof cells[0] - 2, "undefined");
            if (sig)
                strcat(cells[m + 1], "*");
            row[m + 1] = cells[m + 1];
        }
        rt_table_add(t, row);
        free(name);
    }
    free(cells);
    free(row);
    free(h);
    return t;
}

typedef struct out_ctx {
    const evaluated *e;
    const compare_args *a;
    const rt_comparison *c;
    size_t n;
} out_ctx;

static rt_status write_out(FILE *f, void *ctx, rt_err *err)
{
    const out_ctx *x = ctx;
    if (x->a->format == RT_TABLE_JSON) {
        char *s = to_json(x->e, x->a, x->c, x->n);
        fputs(s, f);
        fputc('\n', f);
        cJSON_free(s);
        return RT_OK;
    }
    int paper = x->a->format == RT_TABLE_MD || x->a->format == RT_TABLE_LATEX;
    rt_table *t = paper ? paper_table(x->e, x->a, x->c, x->n) : rows_table(x->e, x->a, x->c, x->n);
    rt_status st = rt_table_write(t, x->a->format, f, err);
    rt_table_free(&t);
    if (st == RT_OK && paper) {
        const char *test = rt_name_of(rt_test_kinds, (int)x->a->o.test);
        const char *corr = rt_name_of(rt_corrections, (int)x->a->o.correction);
        char extra[128] = "";
        if (x->a->o.test == RT_TEST_RANDOMIZATION || x->a->o.test == RT_TEST_BOOTSTRAP)
            snprintf(extra, sizeof extra, ", %zu samples, seed %llu", x->a->o.samples, (unsigned long long)x->a->o.seed);
        char *base = rt_strdup(x->e->names[x->a->o.baseline]);
        for (char *p = base; *p; p++)   /* one line: a file name's newline would end LaTeX's comment */
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        fprintf(f, "%s* significantly different from %s: %s test%s, %s correction over the runs of each measure, "
                "alpha %g; %zu queries%s\n", x->a->format == RT_TABLE_LATEX ? "% " : "\n",
                base, test, extra, corr, x->a->o.alpha, x->e->nq,
                x->a->format == RT_TABLE_LATEX ? "" : ".");
        /* a comparison whose test could not be computed is unmarked for that reason, not because
         * the runs agree: said under the table, with the first reason */
        size_t undefined = 0;
        const char *why = NULL;
        for (size_t i = 0; i < x->n; i++)
            if (x->c[i].b == x->a->o.baseline && !x->c[i].has_p) {
                undefined++;
                why = why ? why : x->c[i].why;
            }
        if (undefined)
            fprintf(f, "%sn/a: %zu of the comparisons with %s have no %s p and are not marked (%s)%s\n",
                    x->a->format == RT_TABLE_LATEX ? "% " : "", undefined, base, test, why ? why : "undefined",
                    x->a->format == RT_TABLE_LATEX ? "" : ".");
        free(base);
    }
    return st;
}

static int find_run(const evaluated *e, const char *name, size_t *r)
{
    for (size_t i = 0; i < e->nr; i++)
        if (strcmp(e->names[i], name) == 0) {
            *r = i;
            return 1;
        }
    int64_t k;
    if (rt_num_parse_int_in(name, 1, (int64_t)e->nr, &k)) {
        *r = (size_t)k - 1;
        return 1;
    }
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    compare_args a = {.o = {.test = RT_TEST_TTEST, .correction = RT_CORRECT_HOLM, .alpha = RT_COMPARE_ALPHA,
                            .samples = RT_COMPARE_SAMPLES, .seed = RT_COMPARE_SEED, .baseline = (size_t)-1}};
    cli_opts_init(&a.c);
    int rc = parse(argc, argv, &a);
    evaluated e = {0};
    if (rc == CLI_OK)
        rc = a.workspace || a.demo ? from_workspace(&a, &e) : from_files(&a, argc, argv, &e);
    if (rc == CLI_OK && a.baseline && !find_run(&e, a.baseline, &a.o.baseline)) {
        char list[512] = "";
        for (size_t r = 0; r < e.nr; r++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", r ? ", " : "", e.names[r]);
        rc = cli_usage("compare", "unknown baseline '%s' (%s)", a.baseline, list);
    }
    if (rc == CLI_OK && (a.format == RT_TABLE_MD || a.format == RT_TABLE_LATEX) && a.o.baseline == (size_t)-1)
        a.o.baseline = 0;   /* the paper's table marks runs against one baseline */
    rt_comparison *c = NULL;
    size_t n = 0;
    rt_err err;
    unsigned char *keep = NULL;
    size_t nkeep = e.nq;
    if (rc == CLI_OK && a.facet) {
        keep = rt_calloc(e.nq + 1, 1);
        rc = facet_subset(&a, &e, e.ws ? e.ws->qrels : e.qrels, keep, &nkeep);
    }
    if (rc == CLI_OK) {
        const double **vals = rt_calloc(e.nr, sizeof *vals);
        const unsigned char **def = rt_calloc(e.nr, sizeof *def);
        double **sv = rt_calloc(e.nr, sizeof *sv);
        unsigned char **sd = rt_calloc(e.nr, sizeof *sd);
        for (size_t r = 0; r < e.nr; r++) {
            vals[r] = e.res[r]->value;
            def[r] = e.res[r]->defined;
            if (!keep)
                continue;   /* --facet: the queries of the value only */
            sv[r] = rt_calloc(nkeep * e.nm + 1, sizeof **sv);
            sd[r] = rt_calloc(nkeep * e.nm + 1, 1);
            for (size_t i = 0, k = 0; i < e.nq; i++)
                if (keep[i]) {
                    memcpy(sv[r] + k * e.nm, vals[r] + i * e.nm, e.nm * sizeof **sv);
                    memcpy(sd[r] + k * e.nm, def[r] + i * e.nm, e.nm);
                    k++;
                }
            vals[r] = sv[r];
            def[r] = sd[r];
        }
        aggregate(&e, keep);
        if (rt_compare_runs(vals, def, e.nr, nkeep, e.nm, &a.o, &c, &n, &err) != RT_OK)
            rc = cli_fail(&err);
        for (size_t r = 0; r < e.nr; r++) {
            free(sv[r]);
            free(sd[r]);
        }
        free(sv);
        free(sd);
        free(vals);
        free(def);
        if (keep)
            e.nq = nkeep;   /* the footnote's query count */
    }
    free(keep);
    if (rc == CLI_OK && !a.c.quiet) {
        size_t undefined = 0, dropped = 0;
        const char *why = NULL;   /* the first undefined comparison's reason */
        for (size_t i = 0; i < n; i++) {
            undefined += !c[i].has_p;
            if (!c[i].has_p && !why)
                why = c[i].why;
            dropped = c[i].dropped > dropped ? c[i].dropped : dropped;
        }
        if (undefined)
            fprintf(stderr, "retriage: warning: %zu comparisons have no %s p (e.g. %s)\n", undefined,
                    rt_name_of(rt_test_kinds, (int)a.o.test), why ? why : "see the table");
        if (dropped)
            fprintf(stderr, "retriage: warning: up to %zu queries left out of a comparison: the measure is "
                    "undefined there for a run\n", dropped);
    }
    if (rc == CLI_OK) {
        out_ctx ctx = {&e, &a, c, n};
        rt_outguard *g = rt_outguard_new();   /* never over the workspace, qrels or runs it reads */
        rt_outguard_add_workspace(g, e.ws);
        rt_outguard_add(g, a.workspace, "the workspace file");
        rt_outguard_add(g, a.facets, "the facets");
        for (int i = a.first; i < argc && !e.ws; i++) {
            char *name = NULL;
            rt_outguard_add(g, cli_split_run(argv[i], &name), i == a.first ? "the qrels" : "a run");
            free(name);
        }
        rc = cli_write_output(a.c.output, write_out, &ctx, g);
        rt_outguard_free(&g);
    }
    free(c);
    evaluated_free(&e);
    cli_opts_free(&a.c);
    return rc < 0 ? CLI_OK : rc;
}
