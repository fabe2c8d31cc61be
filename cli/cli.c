/* cli — what the subcommands share: exit statuses from errors, usage messages, load warnings,
 * and the run arguments that several commands take (the shared options are in opts.c). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rt_file.h"
#include "rt_mem.h"
#include "rt_safeout.h"

const cli_command cli_commands[] = {
    {"agree", cmd_agree, "agreement between annotators (Cohen, Fleiss, Krippendorff) from their journals",
     "retriage agree --help"},
    {"compare", cmd_compare, "significance of the differences between runs, corrected (t, Wilcoxon, randomization, bootstrap)",
     "retriage compare --help"},
    {"dslabel", cmd_dslabel, "label pairs by answer-span F1 (DuReader-retrieval's distant supervision)",
     "retriage dslabel --help"},
    {"eval", cmd_eval, "evaluate runs against qrels (RR@10, Success@k, nDCG@k, AP, …)",
     "retriage eval --help"},
    {"export", cmd_export, "write current qrels, relabels, tags, breakdowns, metric tables",
     "retriage export --help"},
    {"grep", cmd_grep, "the passages of a whole collection that hold every word given",
     "retriage grep --help"},
    {"import", cmd_import, "judgments or tags made elsewhere into annotators' journals (all or nothing)",
     "retriage import --help"},
    {"leak", cmd_leak, "find training queries that near-duplicate test queries (train–test leakage)",
     "retriage leak --help"},
    {"package", cmd_package, "split the pairs to judge into packages assigned to annotators",
     "retriage package --help"},
    {"pool", cmd_pool, "depth-k pool of runs per query, in reciprocal-rank-fusion order",
     "retriage pool --help"},
    {"review-report", cmd_review_report, "per package: progress, reviewers' accuracy, pass or revise",
     "retriage review-report --help"},
    {"open", NULL, "the workbench (no command word: 'retriage WORKSPACE.json')", "retriage --help-open"},
    {NULL, NULL, NULL, NULL},
};

static const cli_command *command(const char *name)
{
    for (const cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

int cli_fail(const rt_err *err)
{
    fprintf(stderr, "retriage: %s\n", err->msg);
    return err->status == RT_EUSAGE ? CLI_USAGE : CLI_INPUT;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    const cli_command *c = command(cmd);
    if (c && c->run)
        fprintf(stderr, "retriage %s: ", cmd);
    else
        fprintf(stderr, "retriage: ");   /* the workbench has no command word */
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s'.\n", c ? c->help : "retriage --help");
    return CLI_USAGE;
}

void cli_print_warnings(const rt_report *rep)
{
    for (size_t i = 0; i < rt_report_count(rep); i++) {
        rt_report_kind k;
        const char *line = rt_report_line(rep, i, &k);
        if (k == RT_REPORT_WARNING)
            fprintf(stderr, "retriage: warning: %s\n", line);
    }
}

const char *cli_split_run(const char *arg, char **name)
{
    const char *eq = strchr(arg, '=');
    *name = NULL;
    if (!eq || eq == arg || access(arg, F_OK) == 0)
        return arg;
    *name = rt_strndup(arg, (size_t)(eq - arg));
    return eq + 1;
}

int cli_stdin_once(const char *cmd, const char *const *paths, const char *const *what, size_t n)
{
    size_t first = n;
    for (size_t i = 0; i < n; i++) {
        if (!paths[i] || strcmp(paths[i], "-") != 0)
            continue;
        if (first == n) {
            first = i;
            continue;
        }
        if (strcmp(what[first], what[i]) == 0)
            return cli_usage(cmd, "'-' (standard input) is given as %s twice: standard input can be read "
                             "only once; give the other as a file", what[i]);
        return cli_usage(cmd, "'-' (standard input) is given as both %s and %s: standard input can be "
                         "read only once; give the other as a file", what[first], what[i]);
    }
    return CLI_OK;
}

int cli_stdin_once_runs(const char *cmd, const char *judged, const char *judged_what, char *const *runs, size_t n,
                        const char *run_what)
{
    const char **paths = rt_calloc(n + 1, sizeof *paths), **what = rt_calloc(n + 1, sizeof *what);
    paths[0] = judged;
    what[0] = judged_what;
    for (size_t r = 0; r < n; r++) {
        char *name;
        paths[r + 1] = cli_split_run(runs[r], &name);
        what[r + 1] = run_what;
        free(name);
    }
    int rc = cli_stdin_once(cmd, paths, what, n + 1);
    free(paths);
    free(what);
    return rc;
}

int cli_parse_name(const char *cmd, const char *what, const rt_name *table, const char *arg, int *value)
{
    char valid[256];
    if (rt_name_value(table, arg, value))
        return CLI_OK;
    return cli_usage(cmd, "unknown %s '%s' (%s)", what, arg, rt_name_list(table, valid, sizeof valid));
}

void cli_split_names(const char *list, char ***names, size_t *n)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len) {
            *names = rt_reallocarray(*names, *n + 1, sizeof **names);
            (*names)[(*n)++] = rt_strndup(p, len);
        }
        p += len + (p[len] == ',');
    }
}

FILE *cli_safe_stream(FILE *old, int fd, int mode)
{
    FILE *f = rt_safeout_open(fd);
    if (!f)
        return old;
    setvbuf(f, NULL, mode, 0);
    return f;
}

int cli_write_output(const char *path, rt_status (*fn)(FILE *f, void *ctx, rt_err *err), void *ctx,
                     const rt_outguard *g)
{
    rt_err err;
    rt_status st;
    if (!path || strcmp(path, "-") == 0) {
        st = fn(stdout, ctx, &err);
        if (st == RT_OK && (fflush(stdout) != 0 || ferror(stdout)))
            st = rt_err_set(&err, RT_EIO, "standard output: cannot write: %s", strerror(errno));
    } else {
        rt_outfile *f;
        st = rt_outguard_open(&f, path, g, &err);
        if (st == RT_OK && (st = fn(rt_outfile_stream(f), ctx, &err)) != RT_OK)
            rt_outfile_discard(&f);
        else if (st == RT_OK)
            st = rt_outfile_commit(&f, &err);
    }
    return st == RT_OK ? CLI_OK : cli_fail(&err);
}

typedef struct table_out {
    const rt_table *t;
    rt_table_format fmt;
} table_out;

static rt_status put_table(FILE *f, void *ctx, rt_err *err)
{
    const table_out *o = ctx;
    return rt_table_write(o->t, o->fmt, f, err);
}

int cli_write_table(const char *path, const rt_table *t, rt_table_format fmt, const rt_outguard *g)
{
    table_out o = {t, fmt};
    return cli_write_output(path, put_table, &o, g);
}
