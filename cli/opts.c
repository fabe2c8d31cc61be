/* opts — parsing the options several commands share (see opts.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "rt_measure.h"
#include "rt_mem.h"
#include "rt_num.h"

void cli_opts_init(cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->level = 1;
    o->order = RT_ORDER_SCORE;
}

void cli_opts_free(cli_opts *o)
{
    free(o->measures);
    o->measures = NULL;
}

static void add_measures(cli_opts *o, const char *list)
{
    size_t had = o->measures ? strlen(o->measures) : 0, n = strlen(list);
    o->measures = rt_realloc(o->measures, had + 1 + n + 1);
    if (had)
        o->measures[had++] = ',';
    memcpy(o->measures + had, list, n + 1);
}

/* A name from table into *value; CLI_OPTS_BAD after listing the valid names. */
static int name(const char *cmd, const char *what, const rt_name *table, const char *arg, int *value)
{
    return cli_parse_name(cmd, what, table, arg, value) == CLI_OK ? 1 : CLI_OPTS_BAD;
}

static int preset(cli_opts *o, const char *cmd, const char *arg)
{
    if (!rt_measure_preset(arg)) {
        char valid[128] = "";
        for (size_t i = 0; rt_measure_preset_names[i]; i++) {
            if (i)
                strncat(valid, ", ", sizeof valid - strlen(valid) - 1);
            strncat(valid, rt_measure_preset_names[i], sizeof valid - strlen(valid) - 1);
        }
        cli_usage(cmd, "unknown preset '%s' (%s)", arg, valid);
        return CLI_OPTS_BAD;
    }
    add_measures(o, arg);
    return 1;
}

int cli_opts_handle(cli_opts *o, const char *cmd, int c, const char *arg)
{
    int v, rc;
    int64_t level;
    switch (c) {
    case CLI_OPT_MEASURES: add_measures(o, arg); return 1;
    case CLI_OPT_PRESET: return preset(o, cmd, arg);
    case CLI_OPT_LEVEL:
        if (!rt_num_parse_int_in(arg, INT32_MIN, INT32_MAX, &level)) {
            cli_usage(cmd, "--level expects a whole number, not '%s'", arg);
            return CLI_OPTS_BAD;
        }
        o->level = (int32_t)level;
        return 1;
    case CLI_OPT_ORDER:
        if ((rc = name(cmd, "--order", rt_orders, arg, &v)) == 1)
            o->order = (rt_order)v;
        return rc;
    case CLI_OPT_STRICT: o->strict = 1; return 1;
    case CLI_OPT_QRELS_FORMAT:
        if ((rc = name(cmd, "qrels format", rt_qrels_formats, arg, &v)) == 1)
            o->qrels_format = (rt_qrels_format)v;
        return rc;
    case CLI_OPT_RUN_FORMAT:
        if ((rc = name(cmd, "run format", rt_run_formats, arg, &v)) == 1)
            o->run_format = (rt_run_format)v;
        return rc;
    case CLI_OPT_QUERIES_FORMAT:
        if ((rc = name(cmd, "queries format", rt_queries_formats, arg, &v)) == 1)
            o->queries_format = (rt_queries_format)v;
        return rc;
    case CLI_OPT_OUTPUT: o->output = arg; return 1;
    case CLI_OPT_QUIET: o->quiet = 1; return 1;
    default: return 0;
    }
}

rt_run_opts cli_opts_run(const cli_opts *o)
{
    rt_run_opts r = {0};
    r.format = o->run_format;
    r.order = o->order;
    r.strict = o->strict;
    return r;
}
