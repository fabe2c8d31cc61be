/* cmd_open — `retriage [WORKSPACE.json | --demo | --qrels F --run F …]`: opens the workbench
 * on a workspace file, the bundled demo, or an implicit workspace built from flags. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rt_mem.h"
#include "rt_workspace.h"
#include "ui.h"

static const char open_help[] =
    "Usage: retriage [OPTIONS] WORKSPACE.json\n"
    "       retriage [OPTIONS] --demo\n"
    "       retriage [OPTIONS] --qrels F --run [NAME=]F [--run …] [--queries F] [--collection F]\n"
    "\n"
    "Opens the workbench: the query list, runs side by side, passages, metrics.\n"
    "\n"
    "Workspace:\n"
    "      --demo              the bundled Chinese demo workspace (data/demo)\n"
    "      --queries F         queries: qid<TAB>text, or DuReader JSON lines\n"
    "      --collection F      passages: pid<TAB>text (mmap'd, indexed once)\n"
    "      --qrels F           judgments: TREC, TSV or DuReader JSON lines\n"
    "      --run [NAME=]F      a run (TREC, TSV or DuReader JSON); repeat for more runs\n"
    "  -m, --measures LIST     measures or preset for the metrics panel (default dureader)\n"
    "  -l, --level N           minimum relevant grade (default 1)\n"
    "      --order score|file  ranking order of runs with scores (default score)\n"
    "      --strict            duplicates in runs or qrels are errors\n"
    "Headless:\n"
    "      --script FILE       replay keys and :commands from FILE without a terminal\n"
    "      --size COLSxROWS    screen size in script mode (default 80x24)\n"
    "      --key-times FILE    script mode: write each key's handling time in µs\n"
    "  -h, --help              show this help\n"
    "\n"
    "In the workbench, ? lists the keys and : runs commands. Exit status: 0 ok, 1 usage error,\n"
    "2 input or script error.\n";

static char *demo_path(void)
{
    const char *env = getenv("RETRIAGE_DEMO");
    const char *candidates[] = {env, RT_SRCDIR "/data/demo/workspace.json", RT_PKGDATADIR "/demo/workspace.json"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (candidates[i] && access(candidates[i], R_OK) == 0)
            return rt_strdup(candidates[i]);
    return NULL;
}

typedef struct open_args {
    rt_ws_spec spec;
    const char **paths, **names;
    char **owned;
    size_t n;
    ui_opts ui;
    int demo;
    const char *workspace;
} open_args;

static int add_run(open_args *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    o->paths = rt_reallocarray(o->paths, o->n + 1, sizeof *o->paths);
    o->names = rt_reallocarray(o->names, o->n + 1, sizeof *o->names);
    o->owned = rt_reallocarray(o->owned, o->n + 1, sizeof *o->owned);
    if (eq && eq != arg && access(arg, F_OK) != 0) {
        o->owned[o->n] = rt_strndup(arg, (size_t)(eq - arg));
        o->names[o->n] = o->owned[o->n];
        o->paths[o->n] = eq + 1;
    } else {
        o->owned[o->n] = NULL;
        o->names[o->n] = NULL;
        o->paths[o->n] = arg;
    }
    o->n++;
    return 0;
}

static int parse(int argc, char **argv, open_args *o)
{
    static const struct option opts[] = {
        {"demo", no_argument, 0, 'D'},          {"queries", required_argument, 0, 'Q'},
        {"collection", required_argument, 0, 'C'}, {"qrels", required_argument, 0, 'R'},
        {"run", required_argument, 0, 'U'},     {"measures", required_argument, 0, 'm'},
        {"level", required_argument, 0, 'l'},   {"order", required_argument, 0, 'O'},
        {"strict", no_argument, 0, 'S'},        {"script", required_argument, 0, 's'},
        {"size", required_argument, 0, 'z'},    {"key-times", required_argument, 0, 'k'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:l:h", opts, NULL)) != -1) {
        switch (c) {
        case 'D': o->demo = 1; break;
        case 'Q': o->spec.queries = optarg; break;
        case 'C': o->spec.collection = optarg; break;
        case 'R': o->spec.qrels = optarg; break;
        case 'U': add_run(o, optarg); break;
        case 'm': o->spec.measures = optarg; break;
        case 'l': o->spec.level = atoi(optarg); break;
        case 'S': o->spec.strict = 1; break;
        case 'O':
            if (strcmp(optarg, "score") && strcmp(optarg, "file"))
                return cli_usage("open", "--order is 'score' or 'file'");
            o->spec.order = strcmp(optarg, "file") == 0 ? RT_ORDER_FILE : RT_ORDER_SCORE;
            break;
        case 's': o->ui.script = optarg; break;
        case 'k': o->ui.key_times = optarg; break;
        case 'z':
            if (sscanf(optarg, "%dx%d", &o->ui.cols, &o->ui.rows) != 2 || o->ui.cols < 1 ||
                o->ui.rows < 1 || o->ui.cols > 1000 || o->ui.rows > 1000)
                return cli_usage("open", "--size expects COLSxROWS, e.g. 120x40");
            break;
        case 'h': fputs(open_help, stdout); return -1;
        default: return cli_usage("open", "unknown option");
        }
    }
    if (optind < argc)
        o->workspace = argv[optind++];
    if (optind < argc)
        return cli_usage("open", "unexpected argument '%s'", argv[optind]);
    if (!o->demo && !o->workspace && !o->spec.qrels)
        return cli_usage("open", "give a WORKSPACE.json, --demo, or --qrels and --run");
    if (o->spec.qrels && !o->n)
        return cli_usage("open", "--qrels needs at least one --run");
    return CLI_OK;
}

int cmd_open(int argc, char **argv)
{
    open_args o = {.spec = {.level = 1}, .ui = {.cols = 80, .rows = 24}};
    int rc = parse(argc, argv, &o);
    if (rc != CLI_OK) {
        rc = rc < 0 ? CLI_OK : rc;
        goto out;
    }
    rt_err err;
    rt_workspace *ws = NULL;
    int show = !o.ui.script && isatty(2);
    rt_status st;
    if (o.demo || o.workspace) {
        char *path = o.demo ? demo_path() : rt_strdup(o.workspace);
        if (!path) {
            fprintf(stderr, "retriage: the demo workspace was not found (set RETRIAGE_DEMO to data/demo/workspace.json)\n");
            rc = CLI_INPUT;
            goto out;
        }
        st = rt_workspace_open_json(&ws, path, show ? ui_progress : NULL, NULL, &err);
        free(path);
    } else {
        o.spec.run_paths = o.paths;
        o.spec.run_names = o.names;
        o.spec.nruns = o.n;
        st = rt_workspace_open(&ws, &o.spec, show ? ui_progress : NULL, NULL, &err);
    }
    if (st != RT_OK) {
        if (show)
            fputs("\r\033[K", stderr);
        rc = cli_fail(&err);
        goto out;
    }
    rc = ui_run(ws, &o.ui);
    rt_workspace_free(&ws);
out:
    for (size_t i = 0; i < o.n; i++)
        free(o.owned[i]);
    free(o.owned);
    free(o.paths);
    free(o.names);
    return rc;
}
