/* cmd_agree — `retriage agree`: agreement between the annotators whose journals are in the
 * journal folder (or those named): per pair Cohen's kappa of relevance and of each error
 * category, over all Fleiss' kappa and Krippendorff's alpha. A table, or JSON shaped like the
 * agreement fixture's expected.json, both written by the core (rt_team_agreement_write). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rt_table.h"
#include "rt_team.h"
#include "ws_args.h"

static const char agree_usage[] =
    "Usage: retriage agree [WORKSPACE OPTIONS] [--annotators A,B,…] [--format F] [-o FILE]\n"
    "\n"
    "Agreement between annotators, from their journals in the journal folder (all of them, or\n"
    "those --annotators names). An annotator's judgment of a pair is their label of it; a tagged\n"
    "pair is one they gave at least one category.\n"
    "  per pair of annotators: the pairs both judged, observed agreement and Cohen's kappa of\n"
    "    relevance (grade >= level); in a graded workspace also linearly and quadratically\n"
    "    weighted kappa of the grades; the pairs both tagged and, per category, Cohen's kappa\n"
    "    of \"has this category\"\n"
    "  over all: Fleiss' kappa of relevance on the pairs judged by everyone who judges (one who\n"
    "    only tags is no rater of relevance), and Krippendorff's alpha (nominal grades) on\n"
    "    every judged pair, missing judgments allowed\n"
    "A kappa is undefined when chance agreement is total (both gave one label to everything)\n"
    "or there is nothing to compare: it is shown as undefined, with the reason, never as 0.\n"
    "\n"
    "      --annotators LIST   comma-separated annotator names (default: every journal)\n"
    "  -f, --format F          tsv (default), csv, json, md, latex\n"
    CLI_HELP_OUTPUT
    "  -h, --help              show this help\n"
    "\n"
    "Exit status: 0 ok, 1 usage error, 2 input error.\n"
    "\n";

static const struct option own_options[] = {
    {"annotators", required_argument, 0, 'a'}, {"format", required_argument, 0, 'f'},
    CLI_LONG_OUTPUT, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
};

typedef struct agree_args {
    char **names;
    size_t n;
    rt_table_format format;
} agree_args;

static int parse(int argc, char **argv, ws_args *w, agree_args *a)
{
    int c, v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:m:l:h", w->longopts, NULL)) != -1) {
        int h = ws_args_handle(w, "agree", c, optarg);
        if (h == 1)
            continue;
        if (h == WS_ARGS_BAD)
            return CLI_USAGE;
        switch (c) {
        case 'a':
            cli_split_names(optarg, &a->names, &a->n);
            if (!a->n)
                return cli_usage("agree", "--annotators needs at least one name");
            break;
        case 'f':
            if (cli_parse_name("agree", "format", rt_table_formats, optarg, &v) != CLI_OK)
                return CLI_USAGE;
            a->format = (rt_table_format)v;
            break;
        case 'h':
            fputs(agree_usage, stdout);
            fputs(ws_args_help, stdout);
            return -1;
        default: return cli_usage("agree", "unknown option");
        }
    }
    return ws_args_finish(w, "agree", argc, argv);
}

typedef struct agree_out {
    const rt_team *t;
    const rt_team_agreement *r;   /* the overall figures; the pairs are worked out one at a time */
    rt_table_format fmt;
} agree_out;

static rt_status write_out(FILE *f, void *ctx, rt_err *err)
{
    const agree_out *o = ctx;
    return rt_team_agreement_write(f, o->t, o->r, o->fmt, err);
}

int cmd_agree(int argc, char **argv)
{
    ws_args w;
    agree_args a = {.format = RT_TABLE_TSV};
    ws_args_init(&w, own_options);
    int rc = parse(argc, argv, &w, &a);
    rt_workspace *ws = NULL;
    rt_session *sess = NULL;
    rt_team *team = NULL;
    rt_team_agreement *r = NULL;
    rt_err err;
    if (rc == CLI_OK)
        rc = ws_args_open(&w, isatty(2), 1, &ws, &sess);
    if (rc == CLI_OK) {
        if (rt_team_open(&team, ws, sess, 0, sess->journal_dir, a.names, a.n, &err) != RT_OK ||
            rt_team_agreement_overall(team, &r, &err) != RT_OK)
            rc = cli_fail(&err);
        else if (r->npairs > RT_TEAM_AGREEMENT_TABLE_PAIRS && (a.format == RT_TABLE_MD || a.format == RT_TABLE_LATEX))
            rc = cli_usage("agree", "%zu pairs of annotators are too many for a %s table (at most %d, laid out "
                           "whole): use --format tsv, csv or json", r->npairs,
                           a.format == RT_TABLE_MD ? "Markdown" : "LaTeX", RT_TEAM_AGREEMENT_TABLE_PAIRS);
        cli_print_warnings(ws->report);   /* the workspace's, and each journal's bad lines */
    }
    if (rc == CLI_OK) {
        agree_out o = {team, r, a.format};
        rt_outguard *g = ws_args_guard(&w, ws, sess);
        rc = cli_write_output(w.opts.output, write_out, &o, g);
        rt_outguard_free(&g);
    }
    rt_team_agreement_free(&r);
    rt_team_free(&team);
    rt_session_close(&sess);
    rt_workspace_free(&ws);
    ws_args_free(&w);
    for (size_t i = 0; i < a.n; i++)
        free(a.names[i]);
    free(a.names);
    return rc < 0 ? CLI_OK : rc;
}
