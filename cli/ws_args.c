/* ws_args — parsing and opening a workspace named on the command line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opts.h"
#include "rt_mem.h"
#include "rt_wskey.h"
#include "progress.h"
#include "tuning.h"
#include "ws_args.h"

const char ws_args_help[] =
    "Workspace:\n"
    "      --demo              the bundled Chinese demo workspace (data/demo)\n"
    "      --queries F         queries: qid<TAB>text, or DuReader JSON lines\n"
    "      --collection F      passages: pid<TAB>text (mmap'd, indexed once)\n"
    "      --qrels F           judgments: TREC, TSV or DuReader JSON lines\n"
    "      --run [NAME=]F      a run (TREC, TSV or DuReader JSON); repeat for more runs\n"
    "      --facets F          query facets: TSV with a header qid<TAB>NAME… (metrics by facet)\n"
    "      --answers F         the queries' human answers (DuReader JSON lines, or TSV\n"
    "                          qid<TAB>answer): the distant-supervision hint, and DuReader's\n"
    "                          question_type / fact_or_opinion facets\n"
    "      --dbqa F            an NLPCC DBQA file (question<TAB>sentence<TAB>label) instead of\n"
    "                          --queries, --collection and --qrels; each --run is then a score\n"
    "                          file aligned with it (ranked as eval --dbqa ranks it)\n"
    "      --no-cache          read every input again even when the workspace cache (the\n"
    "                          parsed qrels and runs, FILE.HASH.rtws beside the collection) is\n"
    "                          fresh; the cache is then neither used nor written\n"
    CLI_HELP_MEASURES
    CLI_HELP_LEVEL
    CLI_HELP_ORDER
    CLI_HELP_STRICT
    "  A WORKSPACE.json or --demo names its own inputs, measures, level, order and\n"
    "  strictness: the options above, but for --no-cache, are refused beside it.\n"
    "Annotations:\n"
    "      --annotator NAME    whose journal to use (default: the workspace's, else the login)\n"
    "      --journal-dir DIR   where journals live (default: the workspace's journal_dir, else\n"
    "                          annotations/ beside the workspace file; for inputs given by\n"
    "                          flags, a folder of their own under\n"
    "                          ${XDG_STATE_HOME:-~/.local/state}/retriage/journals/ keyed by\n"
    "                          their absolute paths: the load report (L) names it)\n"
    "Leakage (the workbench's leakage view; see 'retriage leak --help'):\n"
    "      --train-queries F   training queries to check the queries against\n"
    "      --train-emb F, --test-emb F\n"
    "                          their embeddings (.npy, .fvecs, TSV); default: built-in lexical\n";

enum {
    WS_DEMO = 0x100, WS_QUERIES, WS_COLLECTION, WS_QRELS, WS_RUN, WS_ANNOTATOR, WS_JOURNAL_DIR,
    WS_TRAIN_QUERIES, WS_TRAIN_EMB, WS_TEST_EMB, WS_FACETS, WS_DBQA, WS_ANSWERS, WS_NO_CACHE,
};

static const struct option ws_options[] = {
    {"demo", no_argument, 0, WS_DEMO},
    {"queries", required_argument, 0, WS_QUERIES},
    {"collection", required_argument, 0, WS_COLLECTION},
    {"qrels", required_argument, 0, WS_QRELS},
    {"run", required_argument, 0, WS_RUN},
    CLI_LONG_MEASURES, CLI_LONG_LEVEL, CLI_LONG_ORDER, CLI_LONG_STRICT,
    {"annotator", required_argument, 0, WS_ANNOTATOR},
    {"journal-dir", required_argument, 0, WS_JOURNAL_DIR},
    {"train-queries", required_argument, 0, WS_TRAIN_QUERIES},
    {"train-emb", required_argument, 0, WS_TRAIN_EMB},
    {"test-emb", required_argument, 0, WS_TEST_EMB},
    {"facets", required_argument, 0, WS_FACETS},
    {"dbqa", required_argument, 0, WS_DBQA},
    {"answers", required_argument, 0, WS_ANSWERS},
    {"no-cache", no_argument, 0, WS_NO_CACHE},
    {0, 0, 0, 0},
};

void ws_args_init(ws_args *w, const struct option *own)
{
    memset(w, 0, sizeof *w);
    cli_opts_init(&w->opts);
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
    free(w->keyed_dir);
    free(w->paths);
    free(w->names);
    free(w->longopts);
    cli_opts_free(&w->opts);
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

/* The name of option c when it describes a workspace given by flags (its inputs, measures,
 * level, order, strictness): what a WORKSPACE.json names itself. NULL for any other. */
static const char *spec_flag(int c)
{
    switch (c) {
    case CLI_OPT_MEASURES: return "-m";
    case CLI_OPT_PRESET: return "--preset";
    case CLI_OPT_LEVEL: return "-l";
    case CLI_OPT_ORDER: return "--order";
    case CLI_OPT_STRICT: return "--strict";
    case WS_QUERIES: return "--queries";
    case WS_COLLECTION: return "--collection";
    case WS_QRELS: return "--qrels";
    case WS_RUN: return "--run";
    case WS_TRAIN_QUERIES: return "--train-queries";
    case WS_TRAIN_EMB: return "--train-emb";
    case WS_TEST_EMB: return "--test-emb";
    case WS_FACETS: return "--facets";
    case WS_DBQA: return "--dbqa";
    case WS_ANSWERS: return "--answers";
    default: return NULL;
    }
}

int ws_args_handle(ws_args *w, const char *cmd, int c, const char *arg)
{
    if (!w->spec_flag)
        w->spec_flag = spec_flag(c);
    int h = cli_opts_handle(&w->opts, cmd, c, arg);
    if (h != 0)
        return h == CLI_OPTS_BAD ? WS_ARGS_BAD : 1;
    switch (c) {
    case WS_DEMO: w->demo = 1; return 1;
    case WS_QUERIES: w->spec.queries = arg; return 1;
    case WS_COLLECTION: w->spec.collection = arg; return 1;
    case WS_QRELS: w->spec.qrels = arg; return 1;
    case WS_RUN: add_run(w, arg); return 1;
    case WS_ANNOTATOR: w->annotator = arg; return 1;
    case WS_JOURNAL_DIR: w->journal_dir = arg; return 1;
    case WS_TRAIN_QUERIES: w->spec.train_queries = arg; return 1;
    case WS_TRAIN_EMB: w->spec.train_emb = arg; return 1;
    case WS_TEST_EMB: w->spec.test_emb = arg; return 1;
    case WS_FACETS: w->spec.facets = arg; return 1;
    case WS_DBQA: w->spec.dbqa = arg; return 1;
    case WS_ANSWERS: w->spec.answers = arg; return 1;
    case WS_NO_CACHE: w->spec.no_cache = 1; return 1;
    default: return 0;
    }
}

/* Refuses standard input named by two of the inputs given as flags. */
static int stdin_once(const ws_args *w, const char *cmd)
{
    const rt_ws_spec *s = &w->spec;
    const char *one[] = {s->queries, s->collection, s->qrels, s->dbqa, s->facets, s->answers,
                         s->train_queries, s->train_emb, s->test_emb};
    const char *what[] = {"--queries", "--collection", "--qrels", "--dbqa", "--facets", "--answers",
                          "--train-queries", "--train-emb", "--test-emb"};
    size_t k = sizeof one / sizeof one[0];
    const char **paths = rt_calloc(k + w->n, sizeof *paths), **whats = rt_calloc(k + w->n, sizeof *whats);
    for (size_t i = 0; i < k + w->n; i++) {
        paths[i] = i < k ? one[i] : w->paths[i - k];
        whats[i] = i < k ? what[i] : "--run";
    }
    int rc = cli_stdin_once(cmd, paths, whats, k + w->n);
    free(paths);
    free(whats);
    return rc;
}

int ws_args_finish(ws_args *w, const char *cmd, int argc, char **argv)
{
    w->spec.measures = w->opts.measures;
    w->spec.level = w->opts.level;
    w->spec.order = w->opts.order;
    w->spec.strict = w->opts.strict;
    if (optind < argc)
        w->workspace = argv[optind++];
    if (optind < argc)
        return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
    if ((w->demo || w->workspace) && w->spec_flag)   /* it would be ignored: the file says */
        return cli_usage(cmd, "%s describes a workspace given by flags; a WORKSPACE.json (or --demo) names "
                         "its own inputs, measures, level, order and strictness: set them in the file",
                         w->spec_flag);
    if (!w->demo && !w->workspace && !w->spec.qrels && !w->spec.dbqa)
        return cli_usage(cmd, "give a WORKSPACE.json, --demo, --qrels and --run, or --dbqa and --run");
    if (w->spec.qrels && !w->n)
        return cli_usage(cmd, "--qrels needs at least one --run");
    if (w->spec.dbqa && !w->n)
        return cli_usage(cmd, "--dbqa needs at least one --run (a score file aligned with it)");
    if (w->spec.dbqa && (w->spec.qrels || w->spec.queries || w->spec.collection))
        return cli_usage(cmd, "--dbqa holds the queries, passages and labels: no --queries, --collection or --qrels with it");
    return stdin_once(w, cmd);
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

/* Whether ./annotations/ANNOTATOR.jsonl (where retriage kept the journal of a workspace given by
 * flags before the folder was keyed to its inputs) holds operations for ws: one naming a query ws
 * has, or any while runs are still being read (which may name it). Read without the lock, into a
 * report of its own (nothing of it reaches ws's). */
static int old_journal_fits(rt_workspace *ws, const char *annotator)
{
    rt_journal *j = NULL;
    rt_op *ops = NULL;
    size_t n = 0, fits = 0;
    rt_err e;
    rt_report *scratch = rt_report_new();
    if (rt_journal_open_readonly(&j, "annotations", annotator, &ops, &n, scratch, &e) == RT_OK) {
        int loading = rt_loader_runs_loading(ws, NULL, NULL);
        for (size_t i = 0; i < n; i++) {
            const char *q = ops[i].qid ? ops[i].qid : ops[i].qids && ops[i].nqids ? ops[i].qids[0] : NULL;
            fits += loading || (q && rt_strtab_find(ws->qids, q, strlen(q)) != RT_NO_ID);
            rt_op_clear(&ops[i]);
        }
        free(ops);
        rt_journal_close(&j);
    }
    rt_report_free(&scratch);
    return fits > 0;
}

/* The journal folder of a workspace given by flags, without --journal-dir: its own, keyed by its
 * inputs (rt_wskey); but a journal an older retriage left in ./annotations for these inputs, when
 * the keyed folder has none, is kept in use (never silently abandoned) and the load report says
 * how to move it. Owned: the caller frees it. */
static char *flags_journal_dir(ws_args *w, rt_workspace *ws)
{
    char *keyed = rt_wskey_journal_dir(&w->spec);
    if (!keyed)   /* no home folder: where it always was */
        return rt_strdup("annotations");
    char *who = w->annotator ? rt_strdup(w->annotator) : rt_session_default_annotator(ws);
    char *mine = rt_malloc(strlen(keyed) + strlen(who) + 8), old[512];
    sprintf(mine, "%s/%s.jsonl", keyed, who);
    snprintf(old, sizeof old, "annotations/%s.jsonl", who);
    if (access(mine, F_OK) != 0 && !rt_journal_name_problem(who) && access(old, F_OK) == 0 &&
        old_journal_fits(ws, who)) {
        rt_report_add(ws->report, RT_REPORT_WARNING, "%s: this workspace's journal from an older retriage, in the "
                      "current directory: still used; to find it from any directory, move the folder's journals to "
                      "%s/ (or keep giving --journal-dir annotations)", old, keyed);
        free(keyed);
        keyed = rt_strdup("annotations");
    }
    free(mine);
    free(who);
    return keyed;
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
        rt_ws_config *c;
        st = rt_wsconfig_read(&c, path, &err);
        free(path);
        if (st == RT_OK) {
            c->spec.no_cache = w->spec.no_cache;
            c->spec.defer_collection = w->spec.defer_collection;
            c->spec.defer_runs = w->spec.defer_runs;
            c->spec.tuning = cli_tuning();
            st = rt_workspace_open_config(ws, c, progress ? &cli_progress : NULL, &err);
            rt_wsconfig_free(&c);
        }
    } else {
        w->spec.run_paths = w->paths;
        w->spec.run_names = w->names;
        w->spec.nruns = w->n;
        w->spec.tuning = cli_tuning();
        st = rt_workspace_open(ws, &w->spec, progress ? &cli_progress : NULL, &err);
    }
    if (progress)
        cli_progress_clear();
    if (st == RT_OK && !w->journal_dir && !w->demo && !w->workspace) {
        w->keyed_dir = flags_journal_dir(w, *ws);
        w->journal_dir = w->keyed_dir;   /* the guard names it too */
    }
    if (st == RT_OK)
        st = rt_session_open(sess, *ws, w->journal_dir, w->annotator, readonly, &err);
    if (st != RT_OK) {
        rt_workspace_free(ws);
        return cli_fail(&err);
    }
    return CLI_OK;
}

rt_outguard *ws_args_guard(const ws_args *w, const rt_workspace *ws, const rt_session *sess)
{
    rt_outguard *g = rt_outguard_new();
    const rt_ws_spec *s = &w->spec;
    rt_outguard_add(g, w->workspace, "the workspace file");
    rt_outguard_add(g, s->queries, "the queries");
    rt_outguard_add(g, s->collection, "the collection");
    rt_outguard_add(g, s->qrels, "the base qrels");
    rt_outguard_add(g, s->facets, "the facets");
    rt_outguard_add(g, s->answers, "the answers");
    rt_outguard_add(g, s->dbqa, "the DBQA file");
    rt_outguard_add(g, s->train_queries, "the training queries");
    rt_outguard_add(g, s->train_emb, "the training embeddings");
    rt_outguard_add(g, s->test_emb, "the test embeddings");
    for (size_t r = 0; r < w->n; r++)
        rt_outguard_add(g, w->paths[r], "a run");
    rt_outguard_add_journal_dir(g, w->journal_dir);
    rt_outguard_add_workspace(g, ws);
    rt_outguard_add_session(g, sess);
    return g;
}
