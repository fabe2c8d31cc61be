/* cli — the command-line front: subcommands that do retriage's work without a screen.
 * Each returns the process exit status: 0 ok, 1 usage error, 2 input error. */
#ifndef RT_CLI_H
#define RT_CLI_H

#include <stdio.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_outguard.h"
#include "rt_report.h"
#include "rt_run.h"
#include "rt_table.h"

enum { CLI_OK = 0, CLI_USAGE = 1, CLI_INPUT = 2 };

/* The subcommands: dispatch, the usage text and every "Try '…'" hint come from this table. run
 * NULL: not a command word (the workbench opens without one), listed for its help hint. */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const char *help;      /* how to get its options */
} cli_command;

extern const cli_command cli_commands[];

int cmd_agree(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_leak(int argc, char **argv);
int cmd_package(int argc, char **argv);
int cmd_review_report(int argc, char **argv);
int cmd_open(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_pool(int argc, char **argv);
int cmd_grep(int argc, char **argv);
int cmd_dslabel(int argc, char **argv);

/* Puts fd's stream (old: stdout or stderr) behind a terminal-safe filter (rt_safeout) with
 * buffering mode; returns the new stream, or old when none could be opened. Owned: the new
 * stream lives for the process (main makes it stdout or stderr; exit flushes and closes it). */
FILE *cli_safe_stream(FILE *old, int fd, int mode);

/* Prints "retriage: MESSAGE" to stderr and returns the exit status for err's status. */
int cli_fail(const rt_err *err);

/* Prints a usage error and a pointer to --help; returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints the warnings of a load report to stderr, one "retriage: warning: …" line each. */
void cli_print_warnings(const rt_report *rep);

/* What the warning of runs read under one name (rt_run_warn_same_names) tells the user to do. */
#define CLI_SAME_NAMES_HOW " (their TREC tag or file name): name them with NAME=RUN"

/* Splits a run argument [NAME=]PATH: returns the path (Borrowed: it points into arg) and sets
 * *name to a new copy of NAME (caller frees), or to NULL when there is none. NAME= counts only when the whole argument is
 * not an existing file (paths may contain '='). */
const char *cli_split_run(const char *arg, char **name);

/* Refuses standard input ("-") named by more than one of the n input paths (NULL: none given),
 * what[i] naming each ("QRELS", "RUN", "--qrels"): a stream can be read only once, and the second
 * reader would find it empty. CLI_OK, or CLI_USAGE after saying which two. */
int cli_stdin_once(const char *cmd, const char *const *paths, const char *const *what, size_t n);

/* cli_stdin_once over judgments (judged, NULL when none) and n [NAME=]RUN arguments. */
int cli_stdin_once_runs(const char *cmd, const char *judged, const char *judged_what, char *const *runs, size_t n,
                        const char *run_what);

/* Looks arg up in a name table (rt_names): CLI_OK and *value, or CLI_USAGE after saying
 * "unknown WHAT 'arg' (a, b, …)" with the table's names. */
int cli_parse_name(const char *cmd, const char *what, const rt_name *table, const char *arg, int *value);

/* Writes through fn to path (NULL or "-": standard output; a file by the -o policy of rt_file:
 * replaced only when complete, and never one of the protected files g, borrowed, may be NULL:
 * rt_outguard); CLI_OK, or the exit status after saying why, naming the file (or "standard
 * output") and the reason. */
int cli_write_output(const char *path, rt_status (*fn)(FILE *f, void *ctx, rt_err *err), void *ctx,
                     const struct rt_outguard *g);
/* The same for a table in format fmt. */
int cli_write_table(const char *path, const rt_table *t, rt_table_format fmt, const struct rt_outguard *g);

/* Appends the comma-separated names of list (empty ones skipped) to *names / *n, as new strings. */
void cli_split_names(const char *list, char ***names, size_t *n);

#endif
