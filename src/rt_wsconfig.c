/* rt_wsconfig — a workspace JSON file read into a spec: every key checked against its type and
 * range (errors name the file), every path made relative to the file's folder, every string
 * copied so that the spec outlives the JSON. Nothing is opened here. */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_journal.h"
#include "rt_json.h"
#include "rt_leak.h"
#include "rt_measure.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_path.h"
#include "rt_reader.h"
#include "rt_wsconfig.h"

static const char *json_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static rt_status bad_key(rt_err *err, const char *path, const char *key, const char *want)
{
    return rt_err_at(err, RT_EINPUT, path, 0, "\"%s\" must be %s", key, want);
}

/* An optional integer member of o in [min, max]: *v is left alone when the member is absent;
 * 2.7, 1e10 or a string is an error naming the key and the range (as the flags' are). */
static rt_status json_int(const cJSON *o, const char *key, int64_t min, int64_t max, int64_t *v,
                          const char *path, rt_err *err)
{
    const char *dot = strchr(key, '.');   /* "leakage.k": shown whole, looked up as "k" */
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, dot ? dot + 1 : key);
    if (!x)
        return RT_OK;
    if (cJSON_IsNumber(x) && rt_num_int_value_in(x->valuedouble, min, max, v))
        return RT_OK;
    return rt_err_at(err, RT_EINPUT, path, 0, "\"%s\" must be a whole number from %lld to %lld",
                     key, (long long)min, (long long)max);
}

/* The JSON text of the file, for the line of a bad value in messages. */
typedef struct json_text {
    const char *s;
    size_t len;
} json_text;

/* One element (index k, or -1: the whole string) of "measures", parsed as eval -m parses a list;
 * an error names the file and the line. */
static rt_status check_measures(const char *list, long k, const char *path, const json_text *t, rt_err *err)
{
    rt_measure *ms = NULL;
    size_t n = 0;
    rt_err me;
    rt_status st = rt_measure_list_parse(list, &ms, &n, &me);
    free(ms);
    if (st == RT_OK)
        return RT_OK;
    size_t line = rt_json_member_line(t->s, t->len, "measures", k);
    if (k < 0)
        return rt_err_at(err, RT_EINPUT, path, line, "\"measures\": %s", me.msg);
    return rt_err_at(err, RT_EINPUT, path, line, "\"measures\" element %ld: %s", k + 1, me.msg);
}

/* "measures": a comma-separated list (or preset), or an array of them. */
static rt_status check_measure_list(const cJSON *o, const char *path, const json_text *t, rt_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "measures");
    if (cJSON_IsString(v))
        return check_measures(v->valuestring, -1, path, t, err);
    if (!cJSON_IsArray(v))
        return RT_OK;   /* absent or null (other types: check_types) */
    if (cJSON_GetArraySize(v) == 0)
        return rt_err_at(err, RT_EINPUT, path, rt_json_member_line(t->s, t->len, "measures", -1),
                         "\"measures\" must name at least one measure");
    long k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
        if (!cJSON_IsString(e))
            return rt_err_at(err, RT_EINPUT, path, rt_json_member_line(t->s, t->len, "measures", k),
                             "\"measures\" element %ld must be a measure name (a string, as -m takes)", k + 1);
        rt_status st = check_measures(e->valuestring, k++, path, t, err);
        if (st != RT_OK)
            return st;
    }
    return RT_OK;
}

/* The measures and the annotator, checked here so that the error names the file they are in. */
static rt_status check_values(const cJSON *o, const char *path, const json_text *t, rt_err *err)
{
    rt_status mst = check_measure_list(o, path, t, err);
    if (mst != RT_OK)
        return mst;
    const char *who = json_str(o, "annotator");
    const char *why = who && who[0] ? rt_journal_name_problem(who) : NULL;   /* "": the default */
    if (why)
        return rt_err_at(err, RT_EINPUT, path, 0, "\"annotator\" cannot name a journal: %s", why);
    int order;
    char valid[64], want[80];
    if (json_str(o, "order") && !rt_name_value(rt_orders, json_str(o, "order"), &order)) {
        snprintf(want, sizeof want, "one of %s", rt_name_list(rt_orders, valid, sizeof valid));
        return bad_key(err, path, "order", want);
    }
    return RT_OK;
}

static rt_status check_types(const cJSON *o, const char *path, const json_text *t, rt_err *err)
{
    static const char *strings[] = {"name", "queries", "collection", "qrels",
                                    "order", "journal_dir", "annotator", "facets", "dbqa", "answers"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, strings[i]);
        if (v && !cJSON_IsString(v) && !cJSON_IsNull(v))
            return bad_key(err, path, strings[i], "a string");
    }
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "measures");
    if (m && !cJSON_IsString(m) && !cJSON_IsArray(m) && !cJSON_IsNull(m))
        return rt_err_at(err, RT_EINPUT, path, rt_json_member_line(t->s, t->len, "measures", -1),
                         "\"measures\" must be a string (\"RR@10,nDCG@10\" or a preset) or an array of them");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "runs");
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
        return bad_key(err, path, "runs", "a non-empty array of paths or {\"name\", \"path\"} objects");
    if (!json_str(o, "qrels") && !json_str(o, "dbqa"))
        return bad_key(err, path, "qrels", "the path of the qrels file (or \"dbqa\": an NLPCC DBQA file)");
    if (json_str(o, "dbqa") && (json_str(o, "queries") || json_str(o, "collection") || json_str(o, "qrels")))
        return rt_err_at(err, RT_EINPUT, path, 0, "\"dbqa\" holds the queries, passages and labels: no "
                         "\"queries\", \"collection\" or \"qrels\" with it");
    return check_values(o, path, t, err);
}

/* The file's JSON object (*out, freed with cJSON_Delete) and its text (*buf, *len: freed with free,
 * for the lines of messages). */
static rt_status read_object(cJSON **out, const char *path, char **buf, size_t *len, rt_err *err)
{
    *out = NULL;
    rt_status st = rt_read_file(path, buf, len, err);
    if (st == RT_OK && (st = rt_json_check_nul(path, 1, *buf, *len, err)) != RT_OK) {
        free(*buf);
        *buf = NULL;
    }
    if (st != RT_OK)
        return st;
    *out = cJSON_ParseWithLength(*buf, *len);
    if (cJSON_IsObject(*out))
        return RT_OK;
    cJSON_Delete(*out);
    *out = NULL;
    free(*buf);
    *buf = NULL;
    return rt_err_at(err, RT_EINPUT, path, 0, "expected a JSON object describing the workspace");
}


/* A copy of s (NULL stays NULL) that the config owns. */
static const char *keep(rt_ws_config *c, const char *s)
{
    if (!s)
        return NULL;
    c->owned = rt_reallocarray(c->owned, c->nowned + 1, sizeof *c->owned);
    return c->owned[c->nowned++] = rt_strdup(s);
}

/* s resolved against dir, owned by the config; NULL stays NULL. */
static const char *keep_path(rt_ws_config *c, const char *dir, const char *s)
{
    if (!s)
        return NULL;
    char *p = rt_path_join(dir, s);
    const char *kept = keep(c, p);
    free(p);
    return kept;
}

static rt_status read_runs(rt_ws_config *c, const cJSON *o, const char *dir, rt_err *err)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(o, "runs"), *r;
    size_t nr = (size_t)cJSON_GetArraySize(runs), k = 0;
    c->spec.run_paths = rt_calloc(nr + 1, sizeof *c->spec.run_paths);
    c->spec.run_names = rt_calloc(nr + 1, sizeof *c->spec.run_names);
    c->spec.nruns = nr;
    cJSON_ArrayForEach(r, runs) {
        const char *p = cJSON_IsString(r) ? r->valuestring : json_str(r, "path");
        if (!p)
            return bad_key(err, c->path, "runs", "an array of paths or {\"name\", \"path\"} objects");
        c->spec.run_names[k] = keep(c, cJSON_IsObject(r) ? json_str(r, "name") : NULL);
        c->spec.run_paths[k++] = keep_path(c, dir, p);
    }
    return RT_OK;
}

static rt_status read_leakage(rt_ws_config *c, const cJSON *o, const char *dir, rt_err *err)
{
    const cJSON *lk = cJSON_GetObjectItemCaseSensitive(o, "leakage");
    if (!lk)
        return RT_OK;
    if (!cJSON_IsObject(lk))
        return bad_key(err, c->path, "leakage", "an object");
    const char *lkeys[] = {"train_queries", "train_embeddings", "test_embeddings"};
    const char **to[] = {&c->spec.train_queries, &c->spec.train_emb, &c->spec.test_emb};
    for (size_t i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(lk, lkeys[i]);
        if (v && !cJSON_IsString(v))
            return bad_key(err, c->path, lkeys[i], "a path");
        if (v)
            *to[i] = keep_path(c, dir, v->valuestring);
    }
    const cJSON *lt = cJSON_GetObjectItemCaseSensitive(lk, "threshold");
    const cJSON *li = cJSON_GetObjectItemCaseSensitive(lk, "index");
    if (li && !cJSON_IsString(li))
        return bad_key(err, c->path, "leakage.index", "a Faiss index factory string");
    if (lt && (!cJSON_IsNumber(lt) || !(lt->valuedouble >= -1 && lt->valuedouble <= 1)))
        return bad_key(err, c->path, "leakage.threshold", "a cosine from -1 to 1");
    c->spec.leak_index = keep(c, cJSON_IsString(li) ? li->valuestring : NULL);
    c->spec.leak_threshold = cJSON_IsNumber(lt) ? lt->valuedouble : 0;
    c->spec.leak_threshold_set = cJSON_IsNumber(lt);
    return RT_OK;
}

/* The leakage check's sizes: checked after the level, as they always were. */
static rt_status read_leak_sizes(rt_ws_config *c, const cJSON *o, rt_err *err)
{
    const cJSON *lk = cJSON_GetObjectItemCaseSensitive(o, "leakage");
    int64_t leak_k = 0, leak_dim = 0;
    rt_status st = RT_OK;
    if (lk)
        st = json_int(lk, "leakage.k", 1, RT_LEAK_MAX_K, &leak_k, c->path, err);
    if (lk && st == RT_OK)
        st = json_int(lk, "leakage.dim", 1, RT_LEAK_MAX_DIM, &leak_dim, c->path, err);
    c->spec.leak_k = (size_t)leak_k;
    c->spec.leak_dim = (size_t)leak_dim;
    return st;
}

/* "measures" as the comma list the spec carries: the string, or the array's elements joined
 * (each checked already: check_measure_list). Owned by the config; NULL when absent. */
static const char *measure_list(rt_ws_config *c, const cJSON *o)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "measures"), *e;
    if (!cJSON_IsArray(v))
        return keep(c, json_str(o, "measures"));
    size_t n = 1;
    cJSON_ArrayForEach(e, v)
        n += strlen(e->valuestring) + 1;
    char *joined = rt_calloc(n, 1);
    cJSON_ArrayForEach(e, v) {
        if (joined[0])
            strcat(joined, ",");
        strcat(joined, e->valuestring);
    }
    const char *kept = keep(c, joined);
    free(joined);
    return kept;
}

/* The keys besides the runs and the leakage check (their types already checked). */
static rt_status read_scalars(rt_ws_config *c, const cJSON *o, const char *dir, rt_err *err)
{
    rt_ws_spec *s = &c->spec;
    s->name = keep(c, json_str(o, "name"));
    s->queries = keep_path(c, dir, json_str(o, "queries"));
    s->collection = keep_path(c, dir, json_str(o, "collection"));
    s->qrels = keep_path(c, dir, json_str(o, "qrels"));
    s->journal_dir = keep_path(c, dir, json_str(o, "journal_dir"));
    s->facets = keep_path(c, dir, json_str(o, "facets"));
    s->dbqa = keep_path(c, dir, json_str(o, "dbqa"));
    s->answers = keep_path(c, dir, json_str(o, "answers"));
    s->measures = measure_list(c, o);
    s->annotator = keep(c, json_str(o, "annotator"));
    s->graded = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "graded"));
    s->strict = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "strict"));
    int order = RT_ORDER_SCORE;
    if (json_str(o, "order"))
        rt_name_value(rt_orders, json_str(o, "order"), &order);   /* checked by check_types */
    s->order = (rt_order)order;
    c->named = json_str(o, "name") != NULL;
    int64_t level = 1;
    rt_status st = json_int(o, "level", INT32_MIN, INT32_MAX, &level, c->path, err);
    s->level = (int32_t)level;
    return st;
}

rt_status rt_wsconfig_read(rt_ws_config **out, const char *path, rt_err *err)
{
    *out = NULL;
    cJSON *o;
    char *text;
    size_t tlen;
    rt_status st = read_object(&o, path, &text, &tlen, err);
    if (st != RT_OK)
        return st;
    rt_ws_config *c = rt_calloc(1, sizeof *c);
    c->path = rt_strdup(path);
    json_text t = {text, tlen};
    st = check_types(o, path, &t, err);
    free(text);
    const cJSON *tj = cJSON_GetObjectItemCaseSensitive(o, "taxonomy");
    if (st == RT_OK && tj)
        st = rt_taxonomy_from_json(&c->taxonomy, tj, path, err);
    char *dir = rt_path_dir(path);
    if (st == RT_OK)
        st = read_runs(c, o, dir, err);
    if (st == RT_OK)
        st = read_leakage(c, o, dir, err);
    if (st == RT_OK)
        st = read_scalars(c, o, dir, err);
    if (st == RT_OK)
        st = read_leak_sizes(c, o, err);
    free(dir);
    cJSON_Delete(o);
    if (st != RT_OK)
        rt_wsconfig_free(&c);
    *out = c;
    return st;
}

void rt_wsconfig_free(rt_ws_config **cp)
{
    rt_ws_config *c = cp ? *cp : NULL;
    if (!c)
        return;
    for (size_t i = 0; i < c->nowned; i++)
        free(c->owned[i]);
    free(c->owned);
    free(c->spec.run_paths);
    free(c->spec.run_names);
    rt_taxonomy_free(&c->taxonomy);
    free(c->path);
    free(c);
    *cp = NULL;
}
