/* cmd_agree — `retriage agree`: agreement between the annotators whose journals are in the
 * journal folder (or those named): per pair Cohen's kappa of relevance and of each error
 * category, over all Fleiss' kappa and Krippendorff's alpha. A table, or JSON shaped like the
 * agreement fixture's expected.json. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "rt_mem.h"
#include "rt_parse.h"
#include "rt_table.h"
#include "rt_team.h"
#include "ws_args.h"

static const char agree_usage[] =
    "Usage: retriage agree [WORKSPACE OPTIONS] [--annotators A,B,…] [--format F] [-o FILE]\n"
    "\n"
    "Agreement between annotators, from their journals in the journal folder (all of them, or\n"
    "those --annotators names). An annotator's judgment of a pair is their label of it; a tagged\n"
    "pair is one they gave at least one category.\n"
    "  per pair of annotators: the pairs both judged, observed agreement and Cohen's kappa of\n"
    "    relevance (grade >= level); in a graded workspace also linearly and quadratically\n"
    "    weighted kappa of the grades; the pairs both tagged and, per category, Cohen's kappa\n"
    "    of \"has this category\"\n"
    "  over all: Fleiss' kappa of relevance on the pairs judged by everyone who judges (one who\n"
    "    only tags is no rater of relevance), and Krippendorff's alpha (nominal grades) on\n"
    "    every judged pair, missing judgments allowed\n"
    "A kappa is undefined when chance agreement is total (both gave one label to everything)\n"
    "or there is nothing to compare: it is shown as undefined, with the reason, never as 0.\n"
    "\n"
    "      --annotators LIST   comma-separated annotator names (default: every journal)\n"
    "  -f, --format F          tsv (default), csv, json, md, latex\n"
    CLI_HELP_OUTPUT
    "  -h, --help              show this help\n"
    "\n"
    "Exit status: 0 ok, 1 usage error, 2 input error.\n"
    "\n";

static const struct option own_options[] = {
    {"annotators", required_argument, 0, 'a'}, {"format", required_argument, 0, 'f'},
    CLI_LONG_OUTPUT, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
};

typedef struct agree_args {
    char **names;
    size_t n;
    rt_table_format format;
} agree_args;

static int parse(int argc, char **argv, ws_args *w, agree_args *a)
{
    int c, v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:m:l:h", w->longopts, NULL)) != -1) {
        int h = ws_args_handle(w, "agree", c, optarg);
        if (h == 1)
            continue;
        if (h == WS_ARGS_BAD)
            return CLI_USAGE;
        switch (c) {
        case 'a':
            cli_split_names(optarg, &a->names, &a->n);
            if (!a->n)
                return cli_usage("agree", "--annotators needs at least one name");
            break;
        case 'f':
            if (cli_parse_name("agree", "format", rt_table_formats, optarg, &v) != CLI_OK)
                return CLI_USAGE;
            a->format = (rt_table_format)v;
            break;
        case 'h':
            fputs(agree_usage, stdout);
            fputs(ws_args_help, stdout);
            return -1;
        default: return cli_usage("agree", "unknown option");
        }
    }
    return ws_args_finish(w, "agree", argc, argv);
}

/* ---- JSON ------------------------------------------------------------------------------- */

/* key: the value, or null and key_why: the reason. */
static void put_kappa(cJSON *o, const char *key, const rt_agreement *k)
{
    if (k->defined) {
        cJSON_AddNumberToObject(o, key, k->value);
        return;
    }
    cJSON_AddNullToObject(o, key);
    char why[96];
    snprintf(why, sizeof why, "%s_why", key);
    cJSON_AddStringToObject(o, why, k->why ? k->why : "undefined");
}

/* JSON is UTF-8: names go in repaired (rt_utf8_repaired), as annotators are named after their
 * journals' file names and categories by the workspace file, neither checked to be UTF-8. */
static char *to_json(const rt_team *t, const rt_team_agreement *r)
{
    const rt_taxonomy *tax = t->ws->taxonomy;
    cJSON *doc = cJSON_CreateObject();
    cJSON *names = cJSON_AddArrayToObject(doc, "annotators");
    for (size_t i = 0; i < t->n; i++) {
        char *u = rt_utf8_repaired(t->m[i].name);
        cJSON_AddItemToArray(names, cJSON_CreateString(u));
        free(u);
    }
    cJSON_AddNumberToObject(doc, "level", t->ws->level);
    cJSON_AddBoolToObject(doc, "graded", t->ws->graded);
    cJSON *pairs = cJSON_AddArrayToObject(doc, "pairs");
    for (size_t i = 0; i < r->npairs; i++) {
        const rt_pair_agreement *p = &r->pairs[i];
        cJSON *o = cJSON_CreateObject();
        char *ua = rt_utf8_repaired(t->m[p->a].name), *ub = rt_utf8_repaired(t->m[p->b].name);
        cJSON_AddStringToObject(o, "a", ua);
        cJSON_AddStringToObject(o, "b", ub);
        free(ua);
        free(ub);
        cJSON_AddNumberToObject(o, "items", (double)p->relevance.items);
        if (p->relevance.items)
            cJSON_AddNumberToObject(o, "observed_agreement", p->relevance.observed);
        else
            cJSON_AddNullToObject(o, "observed_agreement");
        put_kappa(o, "relevance_kappa", &p->relevance);
        if (t->ws->graded) {
            put_kappa(o, "linear_kappa", &p->linear);
            put_kappa(o, "quadratic_kappa", &p->quadratic);
        }
        cJSON_AddNumberToObject(o, "tag_items", (double)p->tag_items);
        cJSON *cats = cJSON_AddObjectToObject(o, "category_kappa");
        cJSON *whys = NULL;
        for (size_t c = 0; c < r->ncats; c++) {
            char *id = rt_utf8_repaired(tax->cats[c].id);
            if (p->category[c].defined) {
                cJSON_AddNumberToObject(cats, id, p->category[c].value);
                free(id);
                continue;
            }
            cJSON_AddNullToObject(cats, id);
            if (!whys)
                whys = cJSON_AddObjectToObject(o, "category_kappa_why");
            cJSON_AddStringToObject(whys, id, p->category[c].why ? p->category[c].why : "undefined");
            free(id);
        }
        cJSON_AddItemToArray(pairs, o);
    }
    cJSON *f = cJSON_AddObjectToObject(doc, "fleiss");
    cJSON_AddNumberToObject(f, "items", (double)r->fleiss.items);
    put_kappa(f, "relevance_kappa", &r->fleiss);
    cJSON *k = cJSON_AddObjectToObject(doc, "krippendorff");
    cJSON_AddNumberToObject(k, "units", (double)r->units);
    put_kappa(k, "alpha", &r->alpha);
    char *s = cJSON_Print(doc);
    cJSON_Delete(doc);
    return s;
}

/* ---- tables ----------------------------------------------------------------------------- */

static void row(rt_table *tab, const char *a, const char *b, const char *what, size_t items, const rt_agreement *k)
{
    char n[32], v[40];
    snprintf(n, sizeof n, "%zu", items);
    if (k->defined)
        snprintf(v, sizeof v, "%.4f", k->value);
    const char *cells[] = {a, b, what, n, k->defined ? v : "undefined", k->defined ? "" : k->why ? k->why : ""};
    rt_table_add(tab, cells);
}

static rt_table *to_table(const rt_team *t, const rt_team_agreement *r)
{
    const rt_taxonomy *tax = t->ws->taxonomy;
    const char *h[] = {"a", "b", "figure", "items", "value", "note"};
    rt_table *tab = rt_table_new(6, h);
    rt_table_number(tab, 3);
    rt_table_number(tab, 4);
    for (size_t i = 0; i < r->npairs; i++) {
        const rt_pair_agreement *p = &r->pairs[i];
        const char *a = t->m[p->a].name, *b = t->m[p->b].name;
        rt_agreement obs = {.defined = p->relevance.items > 0, .value = p->relevance.observed,
                            .why = "no pair judged by both"};
        row(tab, a, b, "observed agreement", p->relevance.items, &obs);
        row(tab, a, b, "relevance kappa", p->relevance.items, &p->relevance);
        if (t->ws->graded) {
            row(tab, a, b, "linear kappa", p->linear.items, &p->linear);
            row(tab, a, b, "quadratic kappa", p->quadratic.items, &p->quadratic);
        }
        for (size_t c = 0; c < r->ncats; c++) {
            char what[160];
            snprintf(what, sizeof what, "kappa %s", tax->cats[c].id);
            row(tab, a, b, what, p->tag_items, &p->category[c]);
        }
    }
    row(tab, "all", "", "Fleiss kappa", r->fleiss.items, &r->fleiss);
    row(tab, "all", "", "Krippendorff alpha", r->units, &r->alpha);
    return tab;
}

typedef struct agree_out {
    const rt_team *t;
    const rt_team_agreement *r;
    rt_table_format fmt;
} agree_out;

static rt_status write_out(FILE *f, void *ctx, rt_err *err)
{
    const agree_out *o = ctx;
    if (o->fmt == RT_TABLE_JSON) {
        char *s = to_json(o->t, o->r);
        fputs(s, f);
        fputc('\n', f);
        cJSON_free(s);
        return RT_OK;
    }
    rt_table *tab = to_table(o->t, o->r);
    rt_status st = rt_table_write(tab, o->fmt, f, err);
    rt_table_free(&tab);
    return st;
}

int cmd_agree(int argc, char **argv)
{
    ws_args w;
    agree_args a = {.format = RT_TABLE_TSV};
    ws_args_init(&w, own_options);
    int rc = parse(argc, argv, &w, &a);
    rt_workspace *ws = NULL;
    rt_session *sess = NULL;
    rt_team *team = NULL;
    rt_team_agreement *r = NULL;
    rt_err err;
    if (rc == CLI_OK)
        rc = ws_args_open(&w, isatty(2), 1, &ws, &sess);
    if (rc == CLI_OK) {
        if (rt_team_open(&team, ws, sess, 0, sess->journal_dir, a.names, a.n, &err) != RT_OK ||
            rt_team_agreement_compute(team, &r, &err) != RT_OK)
            rc = cli_fail(&err);
        cli_print_warnings(ws->report);   /* the workspace's, and each journal's bad lines */
    }
    if (rc == CLI_OK) {
        agree_out o = {team, r, a.format};
        rt_outguard *g = ws_args_guard(&w, ws, sess);
        rc = cli_write_output(w.opts.output, write_out, &o, g);
        rt_outguard_free(&g);
    }
    rt_team_agreement_free(&r);
    rt_team_free(&team);
    rt_session_close(&sess);
    rt_workspace_free(&ws);
    ws_args_free(&w);
    for (size_t i = 0; i < a.n; i++)
        free(a.names[i]);
    free(a.names);
    return rc < 0 ? CLI_OK : rc;
}
