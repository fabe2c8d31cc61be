/* rt_taxonomy — the default error taxonomy and the workspace's replacement for it. */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_num.h"
#include "rt_taxonomy.h"

static size_t add_group(rt_taxonomy *t, const char *name)
{
    t->groups = rt_reallocarray(t->groups, t->ngroups + 1, sizeof *t->groups);
    t->groups[t->ngroups] = rt_strdup(name);
    return t->ngroups++;
}

static void add_cat(rt_taxonomy *t, size_t g, const char *id, const char *name, char key, int relabel)
{
    rt_category *c = &t->cats[t->ncats++];
    c->id = rt_strdup(id);
    c->name = rt_strdup(name);
    c->key = key;
    c->relabel = relabel;
    c->group = g;
}

rt_taxonomy *rt_taxonomy_default(void)
{
    rt_taxonomy *t = rt_calloc(1, sizeof *t);
    size_t g = add_group(t, "Salient phrase mismatch");
    add_cat(t, g, "entity", "entity mismatch", '1', 0);
    add_cat(t, g, "numeral", "numeral mismatch", '2', 0);
    add_cat(t, g, "modifier", "modifier mismatch", '3', 0);
    g = add_group(t, "Syntactic mismatch");
    add_cat(t, g, "syntactic", "syntactic mismatch", '4', 0);
    g = add_group(t, "Other challenges");
    add_cat(t, g, "typo", "robustness on typos", '5', 0);
    add_cat(t, g, "overlap", "over-sensitivity on term overlap", '6', 0);
    g = add_group(t, "Others");
    add_cat(t, g, "false-negative", "false negative", '7', 1);
    add_cat(t, g, "other", "other", '8', 0);
    return t;
}

void rt_taxonomy_free(rt_taxonomy **tp)
{
    if (!tp || !*tp)
        return;
    rt_taxonomy *t = *tp;
    for (size_t i = 0; i < t->ngroups; i++)
        free(t->groups[i]);
    free(t->groups);
    for (size_t i = 0; i < t->ncats; i++) {
        free(t->cats[i].id);
        free(t->cats[i].name);
    }
    free(t);
    *tp = NULL;
}

static rt_status bad(rt_taxonomy **t, rt_err *err, const char *path, const char *what)
{
    rt_taxonomy_free(t);
    return rt_err_at(err, RT_EINPUT, path, 0, "\"taxonomy\": %s", what);
}

/* One category object of group g. */
static rt_status add_json_cat(rt_taxonomy *t, size_t g, const cJSON *c, const char *path, rt_err *err)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "name");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(c, "key");
    const cJSON *rl = cJSON_GetObjectItemCaseSensitive(c, "relabel");
    if (!cJSON_IsString(name) || !name->valuestring[0])
        return rt_err_at(err, RT_EINPUT, path, 0, "\"taxonomy\": every category needs a \"name\"");
    if (id && (!cJSON_IsString(id) || !id->valuestring[0] || strpbrk(id->valuestring, " \t\n")))
        return rt_err_at(err, RT_EINPUT, path, 0, "\"taxonomy\": category \"%s\": \"id\" must be a word",
                         name->valuestring);
    char k = 0;
    if (key) {
        const char *s = cJSON_IsString(key) ? key->valuestring : "";
        if (strlen(s) != 1 || s[0] < '0' || s[0] > '9')
            return rt_err_at(err, RT_EINPUT, path, 0, "\"taxonomy\": category \"%s\": \"key\" must be one digit",
                             name->valuestring);
        k = s[0];
    }
    const char *cid = id ? id->valuestring : name->valuestring;
    if (rt_taxonomy_find(t, cid) != (size_t)-1 || (k && rt_taxonomy_by_key(t, k) != (size_t)-1))
        return rt_err_at(err, RT_EINPUT, path, 0, "\"taxonomy\": category \"%s\" repeats an id or a key", cid);
    if (t->ncats == RT_TAX_MAX)
        return rt_err_at(err, RT_EINPUT, path, 0, "\"taxonomy\": at most %d categories", RT_TAX_MAX);
    add_cat(t, g, cid, name->valuestring, k, cJSON_IsTrue(rl));
    return RT_OK;
}

rt_status rt_taxonomy_from_json(rt_taxonomy **out, const void *json, const char *path, rt_err *err)
{
    const cJSON *a = json;
    *out = rt_calloc(1, sizeof **out);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) == 0)
        return bad(out, err, path, "must be a non-empty array of {\"group\", \"categories\"}");
    const cJSON *g;
    cJSON_ArrayForEach(g, a) {
        const cJSON *gn = cJSON_GetObjectItemCaseSensitive(g, "group");
        const cJSON *cs = cJSON_GetObjectItemCaseSensitive(g, "categories");
        if (!cJSON_IsString(gn) || !cJSON_IsArray(cs) || cJSON_GetArraySize(cs) == 0)
            return bad(out, err, path, "each group needs a \"group\" name and a non-empty \"categories\" array");
        size_t gi = add_group(*out, gn->valuestring);
        const cJSON *c;
        cJSON_ArrayForEach(c, cs) {
            rt_status st = add_json_cat(*out, gi, c, path, err);
            if (st != RT_OK) {
                rt_taxonomy_free(out);
                return st;
            }
        }
    }
    return RT_OK;
}

size_t rt_taxonomy_find(const rt_taxonomy *t, const char *id)
{
    for (size_t i = 0; i < t->ncats; i++)
        if (strcmp(t->cats[i].id, id) == 0)
            return i;
    for (size_t i = 0; i < t->ncats; i++)
        if (strcmp(t->cats[i].name, id) == 0)
            return i;
    int64_t n;
    if (rt_num_parse_int_in(id, 1, (int64_t)t->ncats, &n))
        return (size_t)n - 1;
    return (size_t)-1;
}

size_t rt_taxonomy_by_key(const rt_taxonomy *t, int key)
{
    for (size_t i = 0; i < t->ncats; i++)
        if (t->cats[i].key && t->cats[i].key == key)
            return i;
    return (size_t)-1;
}

unsigned long long rt_taxonomy_group_mask(const rt_taxonomy *t, size_t g)
{
    unsigned long long m = 0;
    for (size_t i = 0; i < t->ncats; i++)
        if (t->cats[i].group == g)
            m |= 1ull << i;
    return m;
}
