/* cli — what the subcommands share: exit statuses from errors, usage messages, load warnings,
 * and the run and order arguments that several commands take. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rt_mem.h"

int cli_fail(const rt_err *err)
{
    fprintf(stderr, "retriage: %s\n", err->msg);
    return err->status == RT_EUSAGE ? CLI_USAGE : CLI_INPUT;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "retriage %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'retriage %s --help'.\n", cmd);
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

int cli_parse_order(const char *cmd, const char *arg, rt_order *order)
{
    if (strcmp(arg, "score") == 0)
        *order = RT_ORDER_SCORE;
    else if (strcmp(arg, "file") == 0)
        *order = RT_ORDER_FILE;
    else
        return cli_usage(cmd, "--order is 'score' or 'file', not '%s'", arg);
    return CLI_OK;
}
