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
#include "rt_utf8.h"
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

/* A pair's figures as a JSON object (new; cJSON_Delete). JSON is UTF-8: names go in repaired
 * (rt_utf8_repaired), as annotators are named after their journals' file names and categories by
 * the workspace file, neither checked to be UTF-8. */
static cJSON *pair_json(const rt_team *t, const rt_pair_agreement *p)
{
    const rt_taxonomy *tax = t->ws->taxonomy;
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
    for (size_t c = 0; c < tax->ncats; c++) {
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
    return o;
}

/* Writes the item as "\t\"key\":\tVALUE" (VALUE cJSON's formatted text, one level in). */
static void put_member(FILE *f, const char *key, cJSON *item, int last)
{
    char *s = cJSON_Print(item);
    fprintf(f, "\t\"%s\":\t", key);
    for (const char *c = s; *c; c++) {
        fputc(*c, f);
        if (*c == '\n')
            fputc('\t', f);
    }
    fputs(last ? "\n" : ",\n", f);
    cJSON_free(s);
    cJSON_Delete(item);
}

/* ---- tables ----------------------------------------------------------------------------- */

/* Where rows go: a table (Markdown, LaTeX: their columns are laid out over every row), or
 * straight to f (TSV, CSV: a row at a time, so that a thousand annotators' half a million pairs
 * are never held). */
typedef struct sink {
    rt_table *tab;
    FILE *f;
    rt_table_format fmt;
} sink;

static void put_row(sink *k, const char *const *cells, size_t n)
{
    if (k->tab) {
        rt_table_add(k->tab, cells);
        return;
    }
    for (size_t c = 0; c < n; c++) {
        rt_table_put_cell(cells[c], k->fmt, k->f);
        fputc(c + 1 < n ? (k->fmt == RT_TABLE_TSV ? '\t' : ',') : '\n', k->f);
    }
}

static void row(sink *k, const char *a, const char *b, const char *what, size_t items, const rt_agreement *g)
{
    char n[32], v[40];
    snprintf(n, sizeof n, "%zu", items);
    if (g->defined)
        snprintf(v, sizeof v, "%.4f", g->value);
    const char *cells[] = {a, b, what, n, g->defined ? v : "undefined", g->defined ? "" : g->why ? g->why : ""};
    put_row(k, cells, 6);
}

static void pair_rows(sink *k, const rt_team *t, const rt_pair_agreement *p)
{
    const rt_taxonomy *tax = t->ws->taxonomy;
    const char *a = t->m[p->a].name, *b = t->m[p->b].name;
    rt_agreement obs = {.defined = p->relevance.items > 0, .value = p->relevance.observed,
                        .why = "no pair judged by both"};
    row(k, a, b, "observed agreement", p->relevance.items, &obs);
    row(k, a, b, "relevance kappa", p->relevance.items, &p->relevance);
    if (t->ws->graded) {
        row(k, a, b, "linear kappa", p->linear.items, &p->linear);
        row(k, a, b, "quadratic kappa", p->quadratic.items, &p->quadratic);
    }
    for (size_t c = 0; c < tax->ncats; c++) {
        char what[160];
        snprintf(what, sizeof what, "kappa %s", tax->cats[c].id);
        row(k, a, b, what, p->tag_items, &p->category[c]);
    }
}

/* Markdown and LaTeX are laid out over the whole table: so many pairs are refused for them, not
 * held (the other formats are written as the pairs are worked out). */
#define AGREE_TABLE_PAIRS 5000

typedef struct agree_out {
    const rt_team *t;
    const rt_team_agreement *r;   /* the overall figures; the pairs are worked out one at a time */
    rt_table_format fmt;
} agree_out;

/* Calls fn for every pair of raters in order, each worked out, written and dropped in turn. */
static void each_pair(const rt_team *t, void (*fn)(const rt_team *, const rt_pair_agreement *, void *), void *ctx)
{
    for (size_t a = 0; a < t->n; a++)
        for (size_t b = a + 1; b < t->n && rt_team_rater(t, a); b++) {
            if (!rt_team_rater(t, b))
                continue;
            rt_pair_agreement p;
            rt_team_pair_agreement(t, a, b, &p);
            fn(t, &p, ctx);
            rt_pair_agreement_clear(&p);
        }
}

static void rows_of_pair(const rt_team *t, const rt_pair_agreement *p, void *ctx) { pair_rows(ctx, t, p); }

struct json_ctx {
    FILE *f;
    size_t done;
};

static void json_of_pair(const rt_team *t, const rt_pair_agreement *p, void *ctx)
{
    struct json_ctx *j = ctx;
    cJSON *o = pair_json(t, p);
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    fputs(j->done++ ? ", " : "", j->f);
    for (const char *c = s; *c; c++) {   /* one level in, as cJSON would have set it */
        fputc(*c, j->f);
        if (*c == '\n')
            fputc('\t', j->f);
    }
    cJSON_free(s);
}

/* The JSON document, written as the pairs are worked out (shaped as the agreement fixture's
 * expected.json: annotators, level, graded, pairs, fleiss, krippendorff). */
static rt_status write_json(FILE *f, const rt_team *t, const rt_team_agreement *r, rt_err *err)
{
    fputs("{\n", f);
    cJSON *names = cJSON_CreateArray();
    for (size_t i = 0; i < t->n; i++) {
        char *u = rt_utf8_repaired(t->m[i].name);
        cJSON_AddItemToArray(names, cJSON_CreateString(u));
        free(u);
    }
    put_member(f, "annotators", names, 0);
    put_member(f, "level", cJSON_CreateNumber(t->ws->level), 0);
    put_member(f, "graded", cJSON_CreateBool(t->ws->graded), 0);
    fputs("\t\"pairs\":\t[", f);
    struct json_ctx j = {f, 0};
    each_pair(t, json_of_pair, &j);
    fputs("],\n", f);
    cJSON *fl = cJSON_CreateObject();
    cJSON_AddNumberToObject(fl, "items", (double)r->fleiss.items);
    put_kappa(fl, "relevance_kappa", &r->fleiss);
    put_member(f, "fleiss", fl, 0);
    cJSON *k = cJSON_CreateObject();
    cJSON_AddNumberToObject(k, "units", (double)r->units);
    put_kappa(k, "alpha", &r->alpha);
    put_member(f, "krippendorff", k, 1);
    fputs("}\n", f);
    return ferror(f) ? rt_err_set(err, RT_EIO, "cannot write: %s", strerror(errno)) : RT_OK;
}

static rt_status write_out(FILE *f, void *ctx, rt_err *err)
{
    const agree_out *o = ctx;
    if (o->fmt == RT_TABLE_JSON)
        return write_json(f, o->t, o->r, err);
    const char *h[] = {"a", "b", "figure", "items", "value", "note"};
    sink k = {.f = f, .fmt = o->fmt};
    int whole = o->fmt != RT_TABLE_TSV && o->fmt != RT_TABLE_CSV;
    if (whole) {
        k.tab = rt_table_new(6, h);
        rt_table_number(k.tab, 3);   /* items and value: numbers (right-aligned, not ids) */
        rt_table_number(k.tab, 4);
    } else
        put_row(&k, h, 6);
    each_pair(o->t, rows_of_pair, &k);
    row(&k, "all", "", "Fleiss kappa", o->r->fleiss.items, &o->r->fleiss);
    row(&k, "all", "", "Krippendorff alpha", o->r->units, &o->r->alpha);
    rt_status st = RT_OK;
    if (whole)
        st = rt_table_write(k.tab, o->fmt, f, err);
    else if (ferror(f))
        st = rt_err_set(err, RT_EIO, "cannot write: %s", strerror(errno));
    rt_table_free(&k.tab);
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
            rt_team_agreement_overall(team, &r, &err) != RT_OK)
            rc = cli_fail(&err);
        else if (r->npairs > AGREE_TABLE_PAIRS && (a.format == RT_TABLE_MD || a.format == RT_TABLE_LATEX))
            rc = cli_usage("agree", "%zu pairs of annotators are too many for a %s table (at most %d, laid out "
                           "whole): use --format tsv, csv or json", r->npairs,
                           a.format == RT_TABLE_MD ? "Markdown" : "LaTeX", AGREE_TABLE_PAIRS);
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
