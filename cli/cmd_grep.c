/* cmd_grep — `retriage grep`: the passages of a whole collection whose text holds every word given
 * (rt_search), a line each: pid and the text around the first word's first match. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "opts.h"
#include "rt_search.h"

static const char grep_help[] =
    "Usage: retriage grep --collection F [--format tsv|json] [-o OUT] WORD...\n"
    "\n"
    "Lists the passages of the whole collection F (pid<TAB>text; gzip or zstd too) whose text holds\n"
    "every WORD: ASCII letters in either case, any other character as it is, so Chinese words need\n"
    "no spaces around them. A plain file is searched on two threads. Each passage found, in the\n"
    "file's order:\n"
    "  tsv (default)  pid<TAB>snippet, the snippet the text around the first WORD's first match\n"
    "                 (at most 160 bytes, whole characters; tabs and line breaks in it as spaces)\n"
    "  json           {\"words\": [...], \"matches\": [{\"pid\", \"snippet\", \"at\"}...]}, at being\n"
    "                 the match's byte offset in the passage text\n"
    "\n"
    "Options:\n"
    "      --collection F      the collection to search\n"
    "      --format FMT        tsv (default) or json\n"
    CLI_HELP_OUTPUT
    "  -h, --help              show this help\n"
    "\n"
    "Nothing found is no error: no line (tsv) or no match (json).\n"
    "Exit status: 0 ok, 1 usage error, 2 input or output error.\n";

typedef enum grep_format { GREP_TSV, GREP_JSON } grep_format;

typedef struct grep_args {
    const char *collection, *output;
    grep_format format;
    const char *const *words;
    size_t nwords;
} grep_args;

static int parse_args(int argc, char **argv, grep_args *a)
{
    static const struct option opts[] = {
        CLI_LONG_OUTPUT,
        {"collection", required_argument, 0, 'C'}, {"format", required_argument, 0, 'F'},
        {"help", no_argument, 0, 'h'},             {0, 0, 0, 0},
    };
    static const rt_name formats[] = {{"tsv", GREP_TSV}, {"json", GREP_JSON}, {NULL, 0}};
    int c, fv, rc = CLI_OK;
    cli_opts o;
    cli_opts_init(&o);
    optind = 1;
    while (rc == CLI_OK && (c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        int h = cli_opts_handle(&o, "grep", c, optarg);
        if (h == CLI_OPTS_BAD)
            rc = CLI_USAGE;
        if (h != 0)
            continue;
        switch (c) {
        case 'C': a->collection = optarg; break;
        case 'F':
            rc = cli_parse_name("grep", "format", formats, optarg, &fv);
            a->format = fv;
            break;
        case 'h':
            fputs(grep_help, stdout);
            rc = -1;
            break;
        default:
            rc = cli_usage("grep", "unknown option");
        }
    }
    a->output = o.output;
    cli_opts_free(&o);
    if (rc != CLI_OK)
        return rc;
    if (!a->collection)
        return cli_usage("grep", "--collection F is required");
    if (optind >= argc)
        return cli_usage("grep", "expected at least one WORD");
    if (argc - optind > RT_SEARCH_MAX_WORDS)
        return cli_usage("grep", "at most %d words", RT_SEARCH_MAX_WORDS);
    for (int i = optind; i < argc; i++)
        if (!argv[i][0])
            return cli_usage("grep", "an empty WORD matches everything: leave it out");
    a->words = (const char *const *)argv + optind;
    a->nwords = (size_t)(argc - optind);
    return CLI_OK;
}

/* Writes len bytes at s with tabs and line breaks as spaces: a snippet stays one TSV field. */
static void put_field(FILE *f, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        fputc(s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ? ' ' : s[i], f);
}

typedef struct grep_out {
    const grep_args *a;
    const rt_search_result *r;
} grep_out;

static rt_status write_json(FILE *f, const grep_args *a, const rt_search_result *r, rt_err *err)
{
    cJSON *root = cJSON_CreateObject(), *words = cJSON_AddArrayToObject(root, "words"),
          *m = cJSON_AddArrayToObject(root, "matches");
    for (size_t k = 0; k < a->nwords; k++)
        cJSON_AddItemToArray(words, cJSON_CreateString(a->words[k]));
    for (size_t i = 0; i < r->n; i++) {
        const rt_search_hit *h = &r->hits[i];
        char *pid = strndup(r->arena + h->pid, h->pid_len), *snip = strndup(r->arena + h->snip, h->snip_len);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "pid", pid);
        cJSON_AddStringToObject(o, "snippet", snip);
        cJSON_AddNumberToObject(o, "at", h->text_at);
        cJSON_AddItemToArray(m, o);
        free(pid);
        free(snip);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        return rt_err_set(err, RT_EIO, "out of memory writing JSON");
    fputs(text, f);
    fputc('\n', f);
    free(text);
    return RT_OK;
}

static rt_status write_out(FILE *f, void *ctx, rt_err *err)
{
    const grep_out *g = ctx;
    if (g->a->format == GREP_JSON)
        return write_json(f, g->a, g->r, err);
    for (size_t i = 0; i < g->r->n; i++) {
        const rt_search_hit *h = &g->r->hits[i];
        put_field(f, g->r->arena + h->pid, h->pid_len);
        fputc('\t', f);
        put_field(f, g->r->arena + h->snip, h->snip_len);
        fputc('\n', f);
    }
    return RT_OK;
}

int cmd_grep(int argc, char **argv)
{
    grep_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    rt_err err;
    rt_search_result r;
    if (rt_search_file(a.collection, a.words, a.nwords, &r, &err) != RT_OK)
        return cli_fail(&err);
    rt_outguard *g = rt_outguard_new();
    rt_outguard_add(g, a.collection, "the collection");
    grep_out go = {&a, &r};
    rc = cli_write_output(a.output, write_out, &go, g);
    rt_outguard_free(&g);
    rt_search_result_free(&r);
    return rc;
}
