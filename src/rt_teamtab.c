/* rt_teamtab — the team's figures written out: the agreement between annotators (a table, or JSON
 * shaped like the agreement fixture's expected.json) and the disputes left (a table). The
 * workbench shows them, `retriage agree` and `retriage export --what disputes` write them; both
 * take them from here. Declared in rt_team.h. */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rt_mem.h"
#include "rt_table.h"
#include "rt_team.h"
#include "rt_utf8.h"

/* ---- the agreement as JSON ------------------------------------------------------------------------------- */

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

/* ---- the agreement as a table ----------------------------------------------------------------------------- */

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

rt_status rt_team_agreement_write(FILE *f, const rt_team *t, const rt_team_agreement *r, rt_table_format fmt,
                                  rt_err *err)
{
    if (fmt == RT_TABLE_JSON)
        return write_json(f, t, r, err);
    const char *h[] = {"a", "b", "figure", "items", "value", "note"};
    sink k = {.f = f, .fmt = fmt};
    int whole = fmt != RT_TABLE_TSV && fmt != RT_TABLE_CSV;
    if (whole) {
        k.tab = rt_table_new(6, h);
        rt_table_number(k.tab, 3);   /* items and value: numbers (right-aligned, not ids) */
        rt_table_number(k.tab, 4);
    } else
        put_row(&k, h, 6);
    each_pair(t, rows_of_pair, &k);
    row(&k, "all", "", "Fleiss kappa", r->fleiss.items, &r->fleiss);
    row(&k, "all", "", "Krippendorff alpha", r->units, &r->alpha);
    rt_status st = RT_OK;
    if (whole)
        st = rt_table_write(k.tab, fmt, f, err);
    else if (ferror(f))
        st = rt_err_set(err, RT_EIO, "cannot write: %s", strerror(errno));
    rt_table_free(&k.tab);
    return st;
}

/* ---- the disputes ------------------------------------------------------------------------ */

static const rt_annot *A(const rt_team *t, size_t i) { return t->m[i].s->annot; }

/* A member's decision on a pair as text: "1", "0 entity,typo", "-" when none. */
static void decision_text(const rt_team *t, size_t m, uint32_t q, uint32_t p, char *buf, size_t n)
{
    const rt_label *l = rt_annot_label(A(t, m), q, p);
    const rt_tag *tg = rt_annot_tag(A(t, m), q, p);
    size_t o = (size_t)snprintf(buf, n, "%s", "");
    if (l)
        o += (size_t)snprintf(buf + o, n - o, "%d", (int)l->grade);
    for (size_t c = 0, k = 0; tg && c < t->ws->taxonomy->ncats && o < n; c++)
        if (tg->cats >> c & 1)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", k++ ? "," : l ? " " : "", t->ws->taxonomy->cats[c].id);
    if (!buf[0])
        snprintf(buf, n, "-");
}

rt_table *rt_team_disputes_table(const rt_team *t, const rt_team_decisions *d)
{
    size_t nc = 5 + t->n;
    const char **h = rt_calloc(nc, sizeof *h);
    h[0] = "qid";
    h[1] = "pid";
    h[2] = "differ";
    for (size_t m = 0; m < t->n; m++)
        h[3 + m] = t->m[m].name;
    h[3 + t->n] = "adjudicated_by";
    h[4 + t->n] = "status";
    assert(rt_team_decisions_current(t, d));
    rt_table *tab = rt_table_new(nc, h);
    char (*cells)[256] = rt_calloc(t->n + 1, sizeof *cells);
    const char **row = rt_calloc(nc, sizeof *row);
    for (size_t i = 0; i < d->n; i++) {
        const rt_team_pair *p = &d->p[i];
        if (!p->differ)
            continue;
        row[0] = rt_strtab_str(t->ws->qids, p->qid);
        row[1] = rt_strtab_str(t->ws->pids, p->pid);
        row[2] = p->differ == (RT_DIFFER_GRADE | RT_DIFFER_CATS) ? "grade,categories"
                 : p->differ == RT_DIFFER_GRADE                    ? "grade"
                                                                   : "categories";
        for (size_t m = 0; m < t->n; m++) {
            decision_text(t, m, p->qid, p->pid, cells[m], sizeof cells[m]);
            row[3 + m] = cells[m];
        }
        row[3 + t->n] = p->has_adj ? t->m[p->adj_member].name : "";
        row[4 + t->n] = p->unresolved ? "unresolved" : "resolved";
        rt_table_add(tab, row);
    }
    free(cells);
    free(row);
    free(h);
    return tab;
}
