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

int cmd_export(int argc, char **argv)
{
    ws_args w;
    export_args e = {.k = 5};
    ws_args_init(&w, own_options);
    int rc = parse(argc, argv, &w, &e);
    rt_export_opts o = {.k = (size_t)e.k};
    rt_err err;
    int what;
    if (rc == CLI_OK && (rc = cli_parse_name("export", "--what", rt_export_whats, e.what, &what)) == CLI_OK)
        o.what = (rt_export_what)what;
    if (rc == CLI_OK && rt_export_format(o.what, e.format, &o.format, &err) != RT_OK)
        rc = cli_usage("export", "%s", err.msg);
    if (rc < 0) {
        ws_args_free(&w);
        return CLI_OK;
    }
    if (rc == CLI_OK && e.nnames && !e.team)
        rc = cli_usage("export", "--annotators goes with --team");
    if (rc == CLI_OK && e.by && o.what != RT_EXPORT_METRICS)
        rc = cli_usage("export", "--by splits --what metrics");
    if (rc == CLI_OK && o.what == RT_EXPORT_DISPUTES && !e.team)
        rc = cli_usage("export", "the disputed pairs are the team's: add --team");
    rt_workspace *ws = NULL;
    rt_session *sess = NULL, *team_sess = NULL;
    rt_team *team = NULL;
    rt_team_decisions *dec = NULL;
    rt_table *disputes = NULL;
    if (rc == CLI_OK)
        rc = ws_args_open(&w, isatty(2), 1, &ws, &sess);
    if (rc == CLI_OK && e.team) {
        if (rt_team_open(&team, ws, sess, 0, sess->journal_dir, e.names, e.nnames, &err) != RT_OK) {
            rc = cli_fail(&err);
        } else {
            dec = rt_team_decide(team, ws->report);
            team_sess = rt_team_session(team, dec);
            fprintf(stderr, "retriage: team of %zu: %zu pairs with a team grade (%zu agreed, %zu adjudicated); "
                    "%zu pairs decided differently, %zu of them unresolved (they keep their base judgment)\n",
                    team->n, dec->agreed + dec->adjudicated, dec->agreed, dec->adjudicated, dec->disputed,
                    dec->unresolved);
            if (o.what == RT_EXPORT_DISPUTES)
                o.table = disputes = rt_team_disputes_table(team, dec);
        }
    }
    rt_leakage *cands = NULL;
    if (rc == CLI_OK && o.what == RT_EXPORT_LEAK_PAIRS && ws->leak.train_queries) {
        /* the cosine of each reviewed pair, when the check finds it a candidate */
        if (rt_leakage_find(&cands, ws, &err) != RT_OK)
            rc = cli_fail(&err);
        o.leakage = cands;
    }
    if (rc == CLI_OK && o.what >= RT_EXPORT_FIG_DELTA && o.what <= RT_EXPORT_FIG_BEFORE_AFTER) {   /* the figure's runs and measure */
        o.fig_a = 0;
        o.fig_b = ws->nruns > 1 ? 1 : 0;
        o.fig_m = 0;
        char a[256] = "", b[256] = "";
        if (e.runs) {
            const char *comma = strchr(e.runs, ',');
            snprintf(a, sizeof a, "%.*s", comma ? (int)(comma - e.runs) : (int)strlen(e.runs), e.runs);
            if (comma)
                snprintf(b, sizeof b, "%s", comma + 1);
        }
        if (a[0] && (o.fig_a = rt_workspace_find_run(ws, a)) == (size_t)-1)
            rc = cli_usage("export", "--runs: no run %s", a);
        if (rc == CLI_OK && b[0] && (o.fig_b = rt_workspace_find_run(ws, b)) == (size_t)-1)
            rc = cli_usage("export", "--runs: no run %s", b);
        if (rc == CLI_OK && o.what == RT_EXPORT_FIG_DELTA && o.fig_a == o.fig_b)
            rc = cli_usage("export", "figure-delta compares two runs: --runs A,B");
        for (size_t m = 0; rc == CLI_OK && e.measure && m <= ws->nm; m++) {
            if (m == ws->nm) {
                rc = cli_usage("export", "--measure: the workspace has no measure %s", e.measure);
                break;
            }
            if (strcasecmp(ws->ms[m].name, e.measure) == 0) {
                o.fig_m = m;
                break;
            }
        }
    }
    rt_facets *leak_facet = NULL;
    if (rc == CLI_OK && e.by && !strcmp(e.by, "leaked") && rt_facets_find(ws->facets, "leaked") == (size_t)-1) {
        /* DuReader-retrieval's Table 6 as a facet: the leaked test queries and the others */
        unsigned char *mask = NULL;
        rc = leaked_mask(team_sess ? team_sess : sess, e.candidates, &mask);
        if (rc == CLI_OK) {
            leak_facet = rt_facets_from_mask("leaked", "duplicated", "others", mask, rt_strtab_count(ws->qids));
            o.facets = leak_facet;
        }
        free(mask);
    }
    if (rc == CLI_OK && e.by) {
        o.by = rt_facets_find(o.facets ? o.facets : ws->facets, e.by);
        o.split = 1;
        if (o.by == (size_t)-1) {
            char list[512] = "";
            for (size_t k = 0; ws->facets && k < ws->facets->n; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", ws->facets->f[k].name);
            rc = ws->facets ? cli_usage("export", "no facet %s (%s)", e.by, list)
                            : cli_usage("export", "--by %s: the workspace has no facets (\"facets\" in it, or --facets F)", e.by);
        }
    }
    if (rc == CLI_OK) {
        rt_session *src = team_sess ? team_sess : sess;
        const rt_qset *set = e.set ? rt_annot_set(sess->annot, e.set) : NULL;
        if (e.set && !set) {
            fprintf(stderr, "retriage: no query set named \"%s\" in %s\n", e.set,
                    rt_journal_path(sess->journal));
            rc = CLI_INPUT;
        } else {
            if (set) {
                o.qids = set->qids;
                o.nqids = set->n;
            }
            cli_print_warnings(ws->report);
            unsigned char *mask = NULL;
            if (o.what == RT_EXPORT_LEAKAGE)
                rc = leaked_mask(src, e.candidates, &mask);
            o.leaked = mask;
            rt_outguard *g = ws_args_guard(&w, ws, sess);
            if (rc == CLI_OK && rt_export_file(src, &o, w.opts.output, g, &err) != RT_OK)
                rc = cli_fail(&err);
            rt_outguard_free(&g);
            free(mask);
        }
    }
    rt_facets_free(&leak_facet);
    rt_leakage_free(&cands);
    rt_table_free(&disputes);
    rt_session_close(&team_sess);
    rt_team_decisions_free(&dec);
    rt_team_free(&team);
    rt_session_close(&sess);
    rt_workspace_free(&ws);
    for (size_t i = 0; i < e.nnames; i++)
        free(e.names[i]);
    free(e.names);
    ws_args_free(&w);
    return rc;
}
