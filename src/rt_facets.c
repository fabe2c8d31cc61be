/* rt_facets — loading query facets (see rt_facets.h). */
#include "config.h"

#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rt_facets.h"
#include "rt_mem.h"
#include "rt_field.h"
#include "rt_id.h"
#include "rt_json.h"
#include "rt_reader.h"


void rt_facets_free(rt_facets **fp)
{
    if (!fp || !*fp)
        return;
    rt_facets *f = *fp;
    for (size_t k = 0; k < f->n; k++) {
        free(f->f[k].name);
        for (size_t v = 0; v < f->f[k].nv; v++)
            free(f->f[k].values[v]);
        free(f->f[k].values);
        free(f->f[k].of);
    }
    free(f->f);
    free(f->path);
    free(f);
    *fp = NULL;
}

static size_t value_of(rt_facet *fc, const char *s, size_t len)
{
    for (size_t v = 0; v < fc->nv; v++)
        if (strlen(fc->values[v]) == len && memcmp(fc->values[v], s, len) == 0)
            return v;
    fc->values = rt_reallocarray(fc->values, fc->nv + 1, sizeof *fc->values);
    fc->values[fc->nv] = rt_strndup(s, len);
    return fc->nv++;
}

/* DuReader's JSON lines (the answers file, or queries that carry them): question_id,
 * question_type, fact_or_opinion. */
static const char *const dureader_facets[] = {"question_type", "fact_or_opinion"};

/* The queries a file has given, so that a second line for one is an error even when the first
 * gave it no value. */
typedef struct given {
    unsigned char *q;
    size_t n;
} given;

static int given_twice(given *g, uint32_t q)
{
    g->q = rt_grow_index(g->q, &g->n, q, sizeof *g->q, 0);
    if (g->q[q])
        return 1;
    g->q[q] = 1;
    return 0;
}

/* A query may have several lines (its answers spread over them, say); they must not give a facet
 * two different values. */
static rt_status dureader_line(rt_facets *f, const char *path, size_t no, const char *line, size_t len,
                               const rt_strtab *qids, size_t *unknown, rt_err *err)
{
    if (rt_json_check_nul(path, no, line, len, err) != RT_OK)
        return RT_EINPUT;
    cJSON *o = cJSON_ParseWithLength(line, len);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "question_id");
    char num[32];
    const char *q = NULL;
    if (rt_json_id(id, num, sizeof num, &q) <= 0)
        q = NULL;
    if (!cJSON_IsObject(o) || !q) {
        cJSON_Delete(o);
        return rt_err_at(err, RT_EINPUT, path, no, "a DuReader line needs \"question_id\" (and question_type, "
                         "fact_or_opinion)");
    }
    uint32_t qid = rt_strtab_find(qids, q, strlen(q));
    if (qid == RT_NO_ID)
        (*unknown)++;
    rt_status st = RT_OK;
    for (size_t k = 0; k < f->n && qid != RT_NO_ID && st == RT_OK; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, dureader_facets[k]);
        rt_facet *fc = &f->f[k];
        fc->of = rt_grow_index(fc->of, &fc->nof, qid, sizeof *fc->of, 0);
        if (!cJSON_IsString(v) || !v->valuestring[0])
            continue;
        uint32_t was = fc->of[qid];
        fc->of[qid] = (uint32_t)value_of(fc, v->valuestring, strlen(v->valuestring)) + 1;
        if (was && was != fc->of[qid])
            st = rt_err_at(err, RT_EINPUT, path, no, "query %s is given twice, with %s %s and %s", q, fc->name,
                           fc->values[was - 1], v->valuestring);
    }
    cJSON_Delete(o);
    return st;
}

rt_status rt_facets_load(rt_facets **out, const char *path, const rt_strtab *qids, rt_report *rep, rt_err *err)
{
    *out = NULL;
    rt_reader *r;
    rt_status st = rt_reader_open(&r, path, err);
    if (st != RT_OK)
        return st;
    int json = -1;   /* decided by the first line */
    rt_facets *f = rt_calloc(1, sizeof *f);
    f->path = rt_strdup(path);
    char *line;
    size_t len, unknown = 0;
    int rc;
    rt_field *fl = NULL;   /* a line's fields: as many as the header has (a spreadsheet's hundreds) */
    size_t flcap = 0;
    given g = {0};
    while (st == RT_OK && (rc = rt_reader_next(r, &line, &len, err)) == 1) {
        size_t no = rt_reader_lineno(r);
        if (rt_field_line_skippable(line, len))
            continue;
        if (json < 0 && (json = line[strspn(line, " \t")] == '{')) {
            f->n = 2;
            f->f = rt_calloc(f->n, sizeof *f->f);
            for (size_t k = 0; k < f->n; k++)
                f->f[k].name = rt_strdup(dureader_facets[k]);
        }
        if (json) {
            st = dureader_line(f, path, no, line, len, qids, &unknown, err);
            continue;
        }
        size_t nf = rt_field_split_tab_all(line, len, &fl, &flcap);
        if (nf == (size_t)-1 || (!f->n && nf > 1 && !(f->f = calloc(nf - 1, sizeof *f->f)))) {
            st = rt_err_at(err, RT_EINPUT, path, no, "the fields of this line do not fit in memory");
            break;
        }
        if (!f->n) {   /* the header */
            if (nf < 2 || fl[0].len != 3 || memcmp(fl[0].s, "qid", 3) != 0) {
                st = rt_err_at(err, RT_EINPUT, path, no, "a facets file starts with a header: qid<TAB>NAME…");
                break;
            }
            f->n = nf - 1;
            for (size_t k = 0; k < f->n; k++)
                f->f[k].name = rt_strndup(fl[k + 1].s, fl[k + 1].len);
            for (size_t k = 0; k < f->n && st == RT_OK; k++)   /* --by NAME must name one facet */
                if (!f->f[k].name[0] || rt_facets_find(f, f->f[k].name) != k)
                    st = rt_err_at(err, RT_EINPUT, path, no, f->f[k].name[0] ? "facet %s is named twice in the header"
                                   : "a facet without a name in the header%s", f->f[k].name);
            continue;
        }
        if (nf != f->n + 1) {
            st = rt_err_at(err, RT_EINPUT, path, no, "%zu tab-separated fields; the header has %zu", nf, f->n + 1);
            break;
        }
        const char *why = rt_id_problem(fl[0].s, fl[0].len);
        if (why) {
            st = rt_err_at(err, RT_EINPUT, path, no, "bad query id: %s", why);
            break;
        }
        uint32_t q = rt_strtab_find(qids, fl[0].s, fl[0].len);
        if (q == RT_NO_ID) {
            unknown++;
            continue;
        }
        if (given_twice(&g, q)) {
            st = rt_err_at(err, RT_EINPUT, path, no, "query %.*s is given twice", (int)fl[0].len, fl[0].s);
            break;
        }
        for (size_t k = 0; k < f->n; k++) {
            rt_facet *fc = &f->f[k];
            fc->of = rt_grow_index(fc->of, &fc->nof, q, sizeof *fc->of, 0);
            if (fl[k + 1].len)
                fc->of[q] = (uint32_t)value_of(fc, fl[k + 1].s, fl[k + 1].len) + 1;
        }
    }
    if (st == RT_OK && rc < 0)
        st = RT_EINPUT;
    if (st == RT_OK && !f->n)
        st = rt_err_set(err, RT_EINPUT, "%s: no header line (qid<TAB>NAME…)", path);
    rt_reader_close(&r);
    free(g.q);
    free(fl);
    if (st != RT_OK) {
        rt_facets_free(&f);
        return st;
    }
    if (unknown && rep)
        rt_report_add(rep, RT_REPORT_WARNING, "%s: %zu queries the workspace does not know (ignored)", path, unknown);
    *out = f;
    return RT_OK;
}

size_t rt_facets_find(const rt_facets *f, const char *name)
{
    for (size_t k = 0; f && k < f->n; k++)
        if (strcmp(f->f[k].name, name) == 0)
            return k;
    return (size_t)-1;
}

size_t rt_facet_value(const rt_facets *f, size_t k, uint32_t qid)
{
    const rt_facet *fc = &f->f[k];
    return qid < fc->nof && fc->of[qid] ? fc->of[qid] - 1 : (size_t)-1;
}

size_t rt_facet_value_index(const rt_facets *f, size_t k, const char *value)
{
    for (size_t v = 0; v < f->f[k].nv; v++)
        if (strcmp(f->f[k].values[v], value) == 0)
            return v;
    return (size_t)-1;
}

rt_facets *rt_facets_from_mask(const char *name, const char *yes, const char *no, const unsigned char *mask, size_t n)
{
    rt_facets *f = rt_calloc(1, sizeof *f);
    f->n = 1;
    f->f = rt_calloc(1, sizeof *f->f);
    rt_facet *fc = &f->f[0];
    fc->name = rt_strdup(name);
    fc->nv = 2;
    fc->values = rt_calloc(2, sizeof *fc->values);
    fc->values[0] = rt_strdup(yes);
    fc->values[1] = rt_strdup(no);
    fc->nof = n;
    fc->of = rt_calloc(n + 1, sizeof *fc->of);
    for (size_t q = 0; q < n; q++)
        fc->of[q] = mask[q] ? 1 : 2;
    return f;
}
