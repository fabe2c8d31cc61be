/* cli — the command-line front: subcommands that do retriage's work without a screen.
 * Each returns the process exit status: 0 ok, 1 usage error, 2 input error. */
#ifndef RT_CLI_H
#define RT_CLI_H

#include "rt_err.h"

enum { CLI_OK = 0, CLI_USAGE = 1, CLI_INPUT = 2 };

int cmd_eval(int argc, char **argv);
int cmd_leak(int argc, char **argv);
int cmd_open(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_pool(int argc, char **argv);

/* Prints "retriage: MESSAGE" to stderr and returns the exit status for err's status. */
int cli_fail(const rt_err *err);

/* Prints a usage error and a pointer to --help; returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
