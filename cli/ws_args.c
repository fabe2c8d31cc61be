/* ws_args — parsing and opening a workspace named on the command line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rt_mem.h"
#include "rt_parse.h"
#include "ui.h"
#include "ws_args.h"

const char ws_args_help[] =
    "Workspace:\n"
    "      --demo              the bundled Chinese demo workspace (data/demo)\n"
    "      --queries F         queries: qid<TAB>text, or DuReader JSON lines\n"
    "      --collection F      passages: pid<TAB>text (mmap'd, indexed once)\n"
    "      --qrels F           judgments: TREC, TSV or DuReader JSON lines\n"
    "      --run [NAME=]F      a run (TREC, TSV or DuReader JSON); repeat for more runs\n"
    "  -m, --measures LIST     measures or preset for the metrics (default dureader)\n"
    "  -l, --level N           minimum relevant grade (default 1)\n"
    "      --order score|file  ranking order of runs with scores (default score)\n"
    "      --strict            duplicates in runs or qrels are errors\n"
    "Annotations:\n"
    "      --annotator NAME    whose journal to use (default: the workspace's, else the login)\n"
    "      --journal-dir DIR   where journals live (default: the workspace's journal_dir, else\n"
    "                          annotations/ beside the workspace file, else ./annotations)\n"
    "Leakage (the workbench's leakage view; see 'retriage leak --help'):\n"
    "      --train-queries F   training queries to check the queries against\n"
    "      --train-emb F, --test-emb F\n"
    "                          their embeddings (.npy, .fvecs, TSV); default: built-in lexical\n";

static const struct option ws_options[] = {
    {"demo", no_argument, 0, 'D'},          {"queries", required_argument, 0, 'Q'},
    {"collection", required_argument, 0, 'C'}, {"qrels", required_argument, 0, 'R'},
    {"run", required_argument, 0, 'U'},     {"measures", required_argument, 0, 'm'},
    {"level", required_argument, 0, 'l'},   {"order", required_argument, 0, 'O'},
    {"strict", no_argument, 0, 'S'},        {"annotator", required_argument, 0, 'A'},
    {"journal-dir", required_argument, 0, 'J'}, {"train-queries", required_argument, 0, 0x101},
    {"train-emb", required_argument, 0, 0x102}, {"test-emb", required_argument, 0, 0x103},
    {0, 0, 0, 0},
};

void ws_args_init(ws_args *w, const struct option *own)
{
    memset(w, 0, sizeof *w);
    w->spec.level = 1;
    size_t n = 0, m = sizeof ws_options / sizeof ws_options[0];
    while (own[n].name)
        n++;
    w->longopts = rt_calloc(n + m, sizeof *w->longopts);
    memcpy(w->longopts, own, n * sizeof *own);
    memcpy(w->longopts + n, ws_options, m * sizeof *ws_options);
}

void ws_args_free(ws_args *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->owned[i]);
    free(w->owned);
    free(w->paths);
    free(w->names);
    free(w->longopts);
}

static void add_run(ws_args *w, const char *arg)
{
    w->paths = rt_reallocarray(w->paths, w->n + 1, sizeof *w->paths);
    w->names = rt_reallocarray(w->names, w->n + 1, sizeof *w->names);
    w->owned = rt_reallocarray(w->owned, w->n + 1, sizeof *w->owned);
    w->paths[w->n] = cli_split_run(arg, &w->owned[w->n]);
    w->names[w->n] = w->owned[w->n];
    w->n++;
}

int ws_args_handle(ws_args *w, const char *cmd, int c, const char *arg)
{
    switch (c) {
    case 'D': w->demo = 1; return 1;
    case 'Q': w->spec.queries = arg; return 1;
    case 'C': w->spec.collection = arg; return 1;
    case 'R': w->spec.qrels = arg; return 1;
    case 'U': add_run(w, arg); return 1;
    case 'm': w->spec.measures = arg; return 1;
    case 'l': {
        int64_t v;
        if (!rt_parse_int_in(arg, INT32_MIN, INT32_MAX, &v))
            return cli_usage(cmd, "--level expects a whole number, not '%s'", arg), WS_ARGS_BAD;
        w->spec.level = (int32_t)v;
        return 1;
    }
    case 'S': w->spec.strict = 1; return 1;
    case 'A': w->annotator = arg; return 1;
    case 'J': w->journal_dir = arg; return 1;
    case 0x101: w->spec.train_queries = arg; return 1;
    case 0x102: w->spec.train_emb = arg; return 1;
    case 0x103: w->spec.test_emb = arg; return 1;
    case 'O':
        return cli_parse_order(cmd, arg, &w->spec.order) == CLI_OK ? 1 : WS_ARGS_BAD;
    default:
        return 0;
    }
}

int ws_args_finish(ws_args *w, const char *cmd, int argc, char **argv)
{
    if (optind < argc)
        w->workspace = argv[optind++];
    if (optind < argc)
        return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
    if (!w->demo && !w->workspace && !w->spec.qrels)
        return cli_usage(cmd, "give a WORKSPACE.json, --demo, or --qrels and --run");
    if (w->spec.qrels && !w->n)
        return cli_usage(cmd, "--qrels needs at least one --run");
    return CLI_OK;
}

static char *demo_path(void)
{
    const char *env = getenv("RETRIAGE_DEMO");
    const char *candidates[] = {env, RT_SRCDIR "/data/demo/workspace.json", RT_PKGDATADIR "/demo/workspace.json"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (candidates[i] && access(candidates[i], R_OK) == 0)
            return rt_strdup(candidates[i]);
    return NULL;
}

int ws_args_open(ws_args *w, int progress, int readonly, rt_workspace **ws, rt_session **sess)
{
    rt_err err;
    rt_status st;
    *ws = NULL;
    *sess = NULL;
    if (w->demo || w->workspace) {
        char *path = w->demo ? demo_path() : rt_strdup(w->workspace);
        if (!path) {
            fprintf(stderr, "retriage: the demo workspace was not found (set RETRIAGE_DEMO to data/demo/workspace.json)\n");
            return CLI_INPUT;
        }
        st = rt_workspace_open_json(ws, path, progress ? ui_progress : NULL, NULL, &err);
        free(path);
    } else {
        w->spec.run_paths = w->paths;
        w->spec.run_names = w->names;
        w->spec.nruns = w->n;
        st = rt_workspace_open(ws, &w->spec, progress ? ui_progress : NULL, NULL, &err);
    }
    if (st == RT_OK)
        st = rt_session_open(sess, *ws, w->journal_dir, w->annotator, readonly, &err);
    if (st != RT_OK) {
        if (progress)
            ui_progress_clear();
        rt_workspace_free(ws);
        return cli_fail(&err);
    }
    return CLI_OK;
}
