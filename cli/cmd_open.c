/* cmd_open — `retriage [WORKSPACE.json | --demo | --qrels F --run F …]`: opens the workbench
 * on a workspace file, the bundled demo, or an implicit workspace built from flags, with the
 * annotator's journal. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rt_num.h"
#include "ui.h"
#include "ws_args.h"

static const char open_usage[] =
    "Usage: retriage [OPTIONS] WORKSPACE.json\n"
    "       retriage [OPTIONS] --demo\n"
    "       retriage [OPTIONS] --qrels F --run [NAME=]F [--run …] [--queries F] [--collection F]\n"
    "\n"
    "Opens the workbench: the query list, runs side by side, passages, metrics, tagging,\n"
    "relabelling, judging pools and the category breakdown. Every change is appended to the\n"
    "annotator's journal (DIR/NAME.jsonl) and on disk before the screen shows it.\n"
    "\n";

static const char open_help_tail[] =
    "View state:\n"
    "      --fresh             do not restore the last view (measure, sort, filter, delta pair,\n"
    "                          contrast, query, run and view), which is kept per workspace and\n"
    "                          annotator in the journal folder when the workbench ends\n"
    "Team:\n"
    "      --annotators LIST   the team in the agreement and disagreement views (A, Q):\n"
    "                          these annotators' journals (default: every journal of the folder)\n"
    "Mouse:\n"
    "      --no-mouse          leave the mouse to the terminal (selecting text); by default a\n"
    "                          click focuses a row or cell, a double click opens it, a click on\n"
    "                          a list header sorts by that column, the wheel scrolls\n"
    "      --mouse             script mode: obey <Click X Y>, <DoubleClick X Y>, <WheelUp X Y>\n"
    "                          and <WheelDown X Y> lines (off otherwise)\n"
    "Headless:\n"
    "      --script FILE       replay keys and :commands from FILE without a terminal\n"
    "      --size COLSxROWS    screen size in script mode (default 80x24)\n"
    "      --echo              script mode: print each status message on standard output\n"
    "      --key-times FILE    script mode: write each key's handling time in µs\n"
    "  -h, --help              show this help\n"
    "\n"
    "In the workbench, ? lists the keys and : runs commands. Exit status: 0 ok, 1 usage error,\n"
    "2 input or script error (a change already so, e.g. :label to the current grade, is none:\n"
    "it is said, nothing is journalled, and the script goes on).\n";

static const struct option own_options[] = {
    {"script", required_argument, 0, 's'}, {"size", required_argument, 0, 'z'},
    {"key-times", required_argument, 0, 'k'}, {"echo", no_argument, 0, 'E'},
    {"annotators", required_argument, 0, 'a'}, {"help", no_argument, 0, 'h'},
    {"mouse", no_argument, 0, 'M'}, {"no-mouse", no_argument, 0, 'N'}, {"fresh", no_argument, 0, 'F'}, {0, 0, 0, 0},
};

/* "COLSxROWS", each from 1 to 1000. */
static int parse_size(const char *s, int *cols, int *rows)
{
    char c[32], r[32];
    const char *x = strchr(s, 'x');
    if (!x || (size_t)(x - s) >= sizeof c || strlen(x + 1) >= sizeof r)
        return -1;
    memcpy(c, s, (size_t)(x - s));
    c[x - s] = 0;
    strcpy(r, x + 1);
    int64_t cv, rv;
    if (!rt_num_parse_int_in(c, 1, 1000, &cv) || !rt_num_parse_int_in(r, 1, 1000, &rv))
        return -1;
    *cols = (int)cv;
    *rows = (int)rv;
    return 0;
}

static int parse(int argc, char **argv, ws_args *w, ui_opts *ui)
{
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:l:h", w->longopts, NULL)) != -1) {
        int h = ws_args_handle(w, "open", c, optarg);
        if (h == 1)
            continue;
        if (h == WS_ARGS_BAD)
            return CLI_USAGE;
        switch (c) {
        case 's': ui->script = optarg; break;
        case 'k': ui->key_times = optarg; break;
        case 'E': ui->echo = 1; break;
        case 'M': ui->mouse = 1; break;
        case 'N': ui->mouse = 0; ui->no_mouse = 1; break;
        case 'F': ui->fresh = 1; break;
        case 'a': cli_split_names(optarg, &ui->annotators, &ui->nannotators); break;
        case 'z':
            if (parse_size(optarg, &ui->cols, &ui->rows) != 0)
                return cli_usage("open", "--size expects COLSxROWS (1 to 1000 each), e.g. 120x40");
            break;
        case 'h':
            fputs(open_usage, stdout);
            fputs(ws_args_help, stdout);
            fputs(open_help_tail, stdout);
            return -1;
        default: return cli_usage("open", "unknown option");
        }
    }
    return ws_args_finish(w, "open", argc, argv);
}

int cmd_open(int argc, char **argv)
{
    ws_args w;
    ui_opts ui = {.cols = 80, .rows = 24};
    ws_args_init(&w, own_options);
    int rc = parse(argc, argv, &w, &ui);
    if (rc != CLI_OK) {
        for (size_t i = 0; i < ui.nannotators; i++)
            free(ui.annotators[i]);
        free(ui.annotators);
        ws_args_free(&w);
        return rc < 0 ? CLI_OK : rc;
    }
    /* Script mode draws to no terminal: standard output carries only --echo's status messages,
     * which quote names from the inputs, so on a terminal it is filtered like a command's. */
    if (ui.script && isatty(1))
        stdout = cli_safe_stream(stdout, 1, _IOLBF);
    rt_workspace *ws;
    rt_session *sess;
    w.spec.defer_collection = 1;   /* the first screen needs no passage: a new index is built behind it */
    w.spec.defer_runs = 1;         /* nor every run: it shows once the first is in, the others come in after */
    rc = ws_args_open(&w, !ui.script && isatty(2), 0, &ws, &sess);
    if (rc == CLI_OK) {
        rc = ui_run(sess, &ui);
        rt_session_close(&sess);
        rt_workspace_free(&ws);
    }
    for (size_t i = 0; i < ui.nannotators; i++)
        free(ui.annotators[i]);
    free(ui.annotators);
    ws_args_free(&w);
    return rc;
}
