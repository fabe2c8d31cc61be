/* cmd_export — `retriage export`: writes the current qrels, the relabels, the tags, the
 * category breakdown, the base / current metric table or per-query metrics of a workspace and
 * its annotator's journal, without a screen. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>

#include "cli.h"
#include "rt_export.h"
#include "rt_facets.h"
#include "rt_leakage.h"
#include "rt_num.h"
#include "rt_team.h"
#include "ws_args.h"

static const char export_usage[] =
    "Usage: retriage export [WORKSPACE OPTIONS] --what WHAT [--format F] [-o FILE]\n"
    "\n"
    "Writes what the annotations make of a workspace. WHAT is one of:\n"
    "  qrels       the current qrels (base with relabels applied), TREC format\n"
    "  qrels-diff  only the relabels that change the base (trec, or a table with base,\n"
    "              current, author and time)\n"
    "  tags        one row per tagged pair (or query, pid -) and category, with notes\n"
    "  breakdown   tagged items per category and group, overall and per run's top k\n"
    "  metrics     per run and measure: base, current and delta\n"
    "  per-query   per run and judged query: the current value of each measure\n"
    "  leakage     per run and measure: the leaked (\"Duplicated\") test queries vs the others\n"
    "  figure-delta, figure-hist, figure-before-after\n"
    "              SVG figures (--format svg, the default for them): the per-query difference of\n"
    "              two runs sorted (--runs A,B; default the first two), a histogram of a run's\n"
    "              values (--runs A), every run's mean before and after the relabels; of\n"
    "              --measure NAME (default the workspace's first)\n"
    "  disputes    with --team: the pairs the annotators decided differently, each one's\n"
    "              decision, who adjudicated it, resolved or not\n"
    "  leak-pairs  each reviewed leakage pair: test qid, train qid, cosine (when it is a\n"
    "              candidate of the workspace's leakage check), type, leak or not, who, when\n"
    "  leak-types  reviewed pairs per reformulation type (Fröbe et al.'s table): count, share\n"
    "\n"
    "With --team the annotations are the team's, from every journal of the journal folder (or\n"
    "those --annotators names): a pair's adjudication (the latest, when several annotators\n"
    "adjudicated it) decides what it covers, otherwise the common decision of everyone who judged\n"
    "or tagged it; a pair still in disagreement keeps its base judgment and no categories, and is\n"
    "counted on stderr and listed by --what disputes.\n"
    "\n"
    "Options:\n"
    "  -w, --what WHAT         what to write (required)\n"
    "  -f, --format F          trec (qrels), tsv (default for tables), csv, json, md, latex; svg\n"
    CLI_HELP_OUTPUT
    "  -k, --top K             breakdown: count pairs in each run's top K (default 5)\n"
    "      --set NAME          breakdown, metrics, per-query: only the queries of set NAME\n"
    "      --leaked HOW        leakage: 'reviewed' (default: pairs a reviewer typed as a leak)\n"
    "                          or 'candidates' (every candidate above the threshold)\n"
    "      --by FACET          metrics: split every run's means by the values of a query facet\n"
    "                          (the workspace's \"facets\", or --facets F), with query counts;\n"
    "                          --by leaked: the leaked (\"duplicated\") test queries and the others\n"
    "      --team              the team's decisions instead of one annotator's\n"
    "      --annotators LIST   with --team: these annotators (comma-separated), not every journal\n"
    "  -h, --help              show this help\n"
    "\n";

static const struct option own_options[] = {
    {"what", required_argument, 0, 'w'}, {"format", required_argument, 0, 'f'},
    CLI_LONG_OUTPUT, {"top", required_argument, 0, 'k'},
    {"set", required_argument, 0, 'T'}, {"leaked", required_argument, 0, 'L'},
    {"team", no_argument, 0, 'E'}, {"annotators", required_argument, 0, 'a'},
    {"by", required_argument, 0, 'B'}, {"runs", required_argument, 0, 'N'},
    {"measure", required_argument, 0, 'M'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
};

typedef struct export_args {
    const char *what, *format, *set;
    int candidates;            /* --leaked candidates */
    long k;
    int team;
    const char *by;            /* --by FACET */
    const char *runs, *measure;   /* figures: --runs A[,B], --measure NAME */
    char **names;              /* --annotators */
    size_t nnames;
} export_args;

static int parse(int argc, char **argv, ws_args *w, export_args *e)
{
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "w:f:o:k:m:l:h", w->longopts, NULL)) != -1) {
        int h = ws_args_handle(w, "export", c, optarg);
        if (h == 1)
            continue;
        if (h == WS_ARGS_BAD)
            return CLI_USAGE;
        switch (c) {
        case 'w': e->what = optarg; break;
        case 'f': e->format = optarg; break;
        case 'T': e->set = optarg; break;
        case 'E': e->team = 1; break;
        case 'B': e->by = optarg; break;
        case 'N': e->runs = optarg; break;
        case 'M': e->measure = optarg; break;
        case 'a': cli_split_names(optarg, &e->names, &e->nnames); break;
        case 'L': {
            static const rt_name hows[] = {{"reviewed", 0}, {"candidates", 1}, {NULL, 0}};
            if (cli_parse_name("export", "--leaked", hows, optarg, &e->candidates) != CLI_OK)
                return CLI_USAGE;
            break;
        }
        case 'k': {
            int64_t k;
            if (!rt_num_parse_int_in(optarg, 1, INT32_MAX, &k))
                return cli_usage("export", "--top expects a whole number from 1 to %d, not '%s'",
                                 INT32_MAX, optarg);
            e->k = (long)k;
            break;
        }
        case 'h':
            fputs(export_usage, stdout);
            fputs(ws_args_help, stdout);
            return -1;
        default: return cli_usage("export", "unknown option");
        }
    }
    char valid[256];
    if (!e->what)
        return cli_usage("export", "--what is required (%s)", rt_name_list(rt_export_whats, valid, sizeof valid));
    return ws_args_finish(w, "export", argc, argv);
}

/* The leaked test queries: typed as leaks by the reviewer, and with candidates every query
 * that has a candidate (which runs the search). */
static int leaked_mask(const rt_session *s, int candidates, unsigned char **mask)
{
    rt_err err;
    rt_leakage *l = NULL;
    if (candidates && rt_leakage_find(&l, s->ws, &err) != RT_OK)
        return cli_fail(&err);
    *mask = rt_leakage_mask(s, l, candidates, NULL);
    rt_leakage_free(&l);
    return CLI_OK;
}

/* What one export holds open: the workspace and session, the team's when --team, and what the
 * export borrows from them (disputes, leakage candidates, the leaked facet). */
typedef struct export_run {
    rt_export_opts o;
    rt_workspace *ws;
    rt_session *sess, *team_sess;
    rt_team *team;
    rt_team_decisions *dec;
    rt_table *disputes;
    rt_leakage *cands;
    rt_facets *leak_facet;
} export_run;

/* --what and --format into x->o, and the options that go only with some of them. Returns
 * CLI_OK, a usage error, or -1 when --help was asked. */
static int check_args(int rc, const export_args *e, export_run *x)
{
    rt_err err;
    int what;
    if (rc == CLI_OK && (rc = cli_parse_name("export", "--what", rt_export_whats, e->what, &what)) == CLI_OK)
        x->o.what = (rt_export_what)what;
    if (rc == CLI_OK && rt_export_format(x->o.what, e->format, &x->o.format, &err) != RT_OK)
        rc = cli_usage("export", "%s", err.msg);
    if (rc == CLI_OK && e->nnames && !e->team)
        rc = cli_usage("export", "--annotators goes with --team");
    if (rc == CLI_OK && e->by && x->o.what != RT_EXPORT_METRICS)
        rc = cli_usage("export", "--by splits --what metrics");
    if (rc == CLI_OK && x->o.what == RT_EXPORT_DISPUTES && !e->team)
        rc = cli_usage("export", "the disputed pairs are the team's: add --team");
    return rc;
}

/* --team: the team's decisions and the read-only session over them, said in one line. */
static int open_team(const export_args *e, export_run *x)
{
    rt_err err;
    if (rt_team_open(&x->team, x->ws, x->sess, 0, x->sess->journal_dir, e->names, e->nnames, &err) != RT_OK)
        return cli_fail(&err);
    rt_team_decisions *dec = x->dec = rt_team_decide(x->team, x->ws->report);
    x->team_sess = rt_team_session(x->team, dec);
    fprintf(stderr, "retriage: team of %zu: %zu pairs with a team grade (%zu agreed, %zu adjudicated); "
            "%zu pairs decided differently, %zu of them unresolved (they keep their base judgment)\n",
            x->team->n, dec->agreed + dec->adjudicated, dec->agreed, dec->adjudicated, dec->disputed,
            dec->unresolved);
    if (x->o.what == RT_EXPORT_DISPUTES)
        x->o.table = x->disputes = rt_team_disputes_table(x->team, dec);
    return CLI_OK;
}

/* A figure's runs (--runs A[,B]; the first two by default) and measure (--measure; the first). */
static int figure_choice(const export_args *e, export_run *x)
{
    const rt_workspace *ws = x->ws;
    rt_export_opts *o = &x->o;
    o->fig_a = 0;
    o->fig_b = ws->nruns > 1 ? 1 : 0;
    o->fig_m = 0;
    char a[256] = "", b[256] = "";
    if (e->runs) {
        const char *comma = strchr(e->runs, ',');
        snprintf(a, sizeof a, "%.*s", comma ? (int)(comma - e->runs) : (int)strlen(e->runs), e->runs);
        if (comma)
            snprintf(b, sizeof b, "%s", comma + 1);
    }
    if (a[0] && (o->fig_a = rt_workspace_find_run(ws, a)) == (size_t)-1)
        return cli_usage("export", "--runs: no run %s", a);
    if (b[0] && (o->fig_b = rt_workspace_find_run(ws, b)) == (size_t)-1)
        return cli_usage("export", "--runs: no run %s", b);
    if (o->what == RT_EXPORT_FIG_DELTA && o->fig_a == o->fig_b)
        return cli_usage("export", "figure-delta compares two runs: --runs A,B");
    for (size_t m = 0; e->measure && m <= ws->nm; m++) {
        if (m == ws->nm)
            return cli_usage("export", "--measure: the workspace has no measure %s", e->measure);
        if (strcasecmp(ws->ms[m].name, e->measure) == 0) {
            o->fig_m = m;
            break;
        }
    }
    return CLI_OK;
}

/* --by FACET: the facet to split the metrics by; "leaked", when the workspace has no such facet,
 * is DuReader-retrieval's Table 6: the leaked test queries and the others. */
static int by_facet(const export_args *e, export_run *x)
{
    const rt_workspace *ws = x->ws;
    if (!strcmp(e->by, "leaked") && rt_facets_find(ws->facets, "leaked") == (size_t)-1) {
        unsigned char *mask = NULL;
        int rc = leaked_mask(x->team_sess ? x->team_sess : x->sess, e->candidates, &mask);
        if (rc == CLI_OK) {
            x->leak_facet = rt_facets_from_mask("leaked", "duplicated", "others", mask, rt_strtab_count(ws->qids));
            x->o.facets = x->leak_facet;
        }
        free(mask);
        if (rc != CLI_OK)
            return rc;
    }
    x->o.by = rt_facets_find(x->o.facets ? x->o.facets : ws->facets, e->by);
    x->o.split = 1;
    if (x->o.by != (size_t)-1)
        return CLI_OK;
    char list[512] = "";
    for (size_t k = 0; ws->facets && k < ws->facets->n; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", ws->facets->f[k].name);
    if (ws->facets)
        return cli_usage("export", "no facet %s (%s)", e->by, list);
    return cli_usage("export", "--by %s: the workspace has no facets (\"facets\" in it, or --facets F)", e->by);
}

/* Writes the export: of the query set --set names when given, from the team's session with --team. */
static int write_export(const export_args *e, const ws_args *w, export_run *x)
{
    rt_err err;
    rt_session *src = x->team_sess ? x->team_sess : x->sess;
    const rt_qset *set = e->set ? rt_annot_set(x->sess->annot, e->set) : NULL;
    if (e->set && !set) {
        fprintf(stderr, "retriage: no query set named \"%s\" in %s\n", e->set, rt_journal_path(x->sess->journal));
        return CLI_INPUT;
    }
    if (set) {
        x->o.qids = set->qids;
        x->o.nqids = set->n;
    }
    cli_print_warnings(x->ws->report);
    unsigned char *mask = NULL;
    int rc = CLI_OK;
    if (x->o.what == RT_EXPORT_LEAKAGE)
        rc = leaked_mask(src, e->candidates, &mask);
    x->o.leaked = mask;
    rt_outguard *g = ws_args_guard(w, x->ws, x->sess);
    if (rc == CLI_OK && rt_export_file(src, &x->o, w->opts.output, g, &err) != RT_OK)
        rc = cli_fail(&err);
    rt_outguard_free(&g);
    free(mask);
    x->o.leaked = NULL;
    return rc;
}

static void export_run_free(export_run *x)
{
    rt_facets_free(&x->leak_facet);
    rt_leakage_free(&x->cands);
    rt_table_free(&x->disputes);
    rt_session_close(&x->team_sess);
    rt_team_decisions_free(&x->dec);
    rt_team_free(&x->team);
    rt_session_close(&x->sess);
    rt_workspace_free(&x->ws);
}

int cmd_export(int argc, char **argv)
{
    ws_args w;
    export_args e = {.k = 5};
    ws_args_init(&w, own_options);
    export_run x = {.ws = NULL};
    int rc = check_args(parse(argc, argv, &w, &e), &e, &x);
    x.o.k = (size_t)e.k;
    if (rc < 0) {
        ws_args_free(&w);
        return CLI_OK;
    }
    if (rc == CLI_OK)
        rc = ws_args_open(&w, isatty(2), 1, &x.ws, &x.sess);
    if (rc == CLI_OK && e.team)
        rc = open_team(&e, &x);
    if (rc == CLI_OK && x.o.what == RT_EXPORT_LEAK_PAIRS && x.ws->leak.train_queries) {
        rt_err err;   /* the cosine of each reviewed pair, when the check finds it a candidate */
        if (rt_leakage_find(&x.cands, x.ws, &err) != RT_OK)
            rc = cli_fail(&err);
        x.o.leakage = x.cands;
    }
    if (rc == CLI_OK && x.o.what >= RT_EXPORT_FIG_DELTA && x.o.what <= RT_EXPORT_FIG_BEFORE_AFTER)
        rc = figure_choice(&e, &x);
    if (rc == CLI_OK && e.by)
        rc = by_facet(&e, &x);
    if (rc == CLI_OK)
        rc = write_export(&e, &w, &x);
    export_run_free(&x);
    for (size_t i = 0; i < e.nnames; i++)
        free(e.names[i]);
    free(e.names);
    ws_args_free(&w);
    return rc;
}
