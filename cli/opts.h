/* opts — the options several commands share, declared, described and parsed in one place:
 * -m/--measures, --preset, -l/--level, --order, --strict, --qrels-format, --run-format,
 * --queries-format, -o/--output, -Q/--quiet. A command puts the CLI_LONG_* entries it takes in its
 * struct option array and the CLI_HELP_* lines in its help, and hands every getopt code to
 * cli_opts_handle before its own switch. ws_args (the workspace options) uses it the same way. */
#ifndef RT_CLI_OPTS_H
#define RT_CLI_OPTS_H

#include <getopt.h>
#include <stdint.h>

#include "rt_qrels.h"
#include "rt_queries.h"
#include "rt_runscan.h"

/* getopt codes: the short letters where an option has one, else 0x200 and up (commands keep
 * their own codes below 0x200). */
enum {
    CLI_OPT_MEASURES = 'm',
    CLI_OPT_LEVEL = 'l',
    CLI_OPT_OUTPUT = 'o',
    CLI_OPT_QUIET = 'Q',
    CLI_OPT_PRESET = 0x200,
    CLI_OPT_ORDER,
    CLI_OPT_STRICT,
    CLI_OPT_QRELS_FORMAT,
    CLI_OPT_RUN_FORMAT,
    CLI_OPT_QUERIES_FORMAT,
};

#define CLI_LONG_MEASURES {"measures", required_argument, 0, CLI_OPT_MEASURES}
#define CLI_LONG_PRESET {"preset", required_argument, 0, CLI_OPT_PRESET}
#define CLI_LONG_LEVEL {"level", required_argument, 0, CLI_OPT_LEVEL}
#define CLI_LONG_ORDER {"order", required_argument, 0, CLI_OPT_ORDER}
#define CLI_LONG_STRICT {"strict", no_argument, 0, CLI_OPT_STRICT}
#define CLI_LONG_QRELS_FORMAT {"qrels-format", required_argument, 0, CLI_OPT_QRELS_FORMAT}
#define CLI_LONG_RUN_FORMAT {"run-format", required_argument, 0, CLI_OPT_RUN_FORMAT}
#define CLI_LONG_QUERIES_FORMAT {"queries-format", required_argument, 0, CLI_OPT_QUERIES_FORMAT}
#define CLI_LONG_OUTPUT {"output", required_argument, 0, CLI_OPT_OUTPUT}
#define CLI_LONG_QUIET {"quiet", no_argument, 0, CLI_OPT_QUIET}

/* Their help lines (options in column 3, descriptions in column 25). */
#define CLI_HELP_MEASURES \
    "  -m, --measures LIST     comma-separated measures, or a preset name (repeatable):\n" \
    "                          RR[@k] P@k R[@k] Success@k AP[@k] AP_min nDCG[@k] Rprec MFR[@k]\n" \
    "                          NumRet NumRel NumRelRet Judged@k; trec_eval names also work (recip_rank,\n" \
    "                          P_10…); default dureader\n"
#define CLI_HELP_PRESET \
    "      --preset NAME       dureader (RR@10,Success@1,Success@50; the default),\n" \
    "                          trec (AP,RR,P@10,nDCG@10,R@1000), dbqa (RR,Success@1,AP_min)\n"
#define CLI_HELP_LEVEL \
    "  -l, --level N           minimum grade that counts as relevant (default 1; not for nDCG)\n"
#define CLI_HELP_ORDER \
    "      --order ORDER       how runs with scores are ranked: score (default; score descending,\n" \
    "                          ties by pid descending, as trec_eval) or file (the order of the\n" \
    "                          lines in the run file)\n"
#define CLI_HELP_STRICT \
    "      --strict            a duplicate passage in a query or judgment is an error\n"
#define CLI_HELP_QRELS_FORMAT \
    "      --qrels-format F    auto (default), trec, tsv, dureader\n"
#define CLI_HELP_RUN_FORMAT \
    "      --run-format F      auto (default), trec, tsv, dureader\n"
#define CLI_HELP_QUERIES_FORMAT \
    "      --queries-format F  auto (default), tsv, dureader\n"
#define CLI_HELP_OUTPUT \
    "  -o, --output F          write to F, replaced only when complete (a device or pipe is\n" \
    "                          written in place; a symbolic link is refused), not stdout;\n" \
    "                          never over an input, a journal, a lock or a cache (exit 2)\n"
#define CLI_HELP_QUIET \
    "  -Q, --quiet             do not print load warnings to stderr\n"

typedef struct cli_opts {
    char *measures;        /* every -m and --preset, joined with commas; NULL: none given */
    int32_t level;         /* 1 unless -l */
    rt_order order;
    int strict;
    rt_qrels_format qrels_format;
    rt_run_format run_format;
    rt_queries_format queries_format;
    const char *output;    /* -o; NULL: standard output */
    int quiet;
} cli_opts;

void cli_opts_init(cli_opts *o);
void cli_opts_free(cli_opts *o);

/* Handles getopt code c with its argument for command cmd: 1 when it was a shared option, 0 when
 * it is the command's own, CLI_OPTS_BAD (after saying why, listing the valid values) when its
 * value is wrong. */
#define CLI_OPTS_BAD (-2)
int cli_opts_handle(cli_opts *o, const char *cmd, int c, const char *arg);

/* The run options the shared ones give (format, order, strict). */
rt_run_opts cli_opts_run(const cli_opts *o);

#endif
