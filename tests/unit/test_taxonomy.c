/* test_taxonomy — the error taxonomy (rt_taxonomy): the default one of DESIGN.md §7, lookups by
 * id, name, number and key, and the workspace's own taxonomy with its errors. */
#include "config.h"

#include <cjson/cJSON.h>

#include "rt_taxonomy.h"
#include "tap.h"

static rt_status from(const char *json, rt_taxonomy **t, rt_err *err)
{
    cJSON *j = cJSON_Parse(json);
    rt_status st = rt_taxonomy_from_json(t, j, "ws.json", err);
    cJSON_Delete(j);
    return st;
}

int main(void)
{
    rt_taxonomy *t = rt_taxonomy_default();
    static const char *ids[] = {"entity", "numeral", "modifier", "syntactic", "typo", "overlap", "false-negative", "other"};
    is_int(t->ncats, 8, "eight categories");
    is_int(t->ngroups, 4, "four groups");
    int keys = 1;
    for (size_t i = 0; i < 8; i++)
        keys &= strcmp(t->cats[i].id, ids[i]) == 0 && t->cats[i].key == (char)('1' + i);
    ok(keys, "ids in order, keys 1-8");
    ok(t->cats[6].relabel && !t->cats[0].relabel, "only false negative offers a relabel");
    is_int(rt_taxonomy_find(t, "numeral"), 1, "by id");
    is_int(rt_taxonomy_find(t, "entity mismatch"), 0, "by name");
    is_int(rt_taxonomy_find(t, "8"), 7, "by number (1-based)");
    ok(rt_taxonomy_find(t, "0") == (size_t)-1 && rt_taxonomy_find(t, "9") == (size_t)-1 &&
       rt_taxonomy_find(t, "-1") == (size_t)-1 && rt_taxonomy_find(t, "99999999999") == (size_t)-1 &&
       rt_taxonomy_find(t, "") == (size_t)-1 && rt_taxonomy_find(t, "nonsense") == (size_t)-1,
       "0, 9, -1, an overflow, empty and unknown names find nothing");
    is_int(rt_taxonomy_by_key(t, '7'), 6, "key 7 is false negative");
    ok(rt_taxonomy_by_key(t, '9') == (size_t)-1 && rt_taxonomy_by_key(t, '0') == (size_t)-1, "keys 9 and 0 are free");
    ok(rt_taxonomy_group_mask(t, 0) == 7ull, "the first group holds categories 0-2");
    rt_taxonomy_free(&t);
    ok(t == NULL, "free sets the pointer to NULL");

    rt_err err;
    ok(from("[{\"group\": \"G\", \"categories\": [{\"name\": \"x one\", \"id\": \"x\", \"key\": \"0\", \"relabel\": true},"
            " {\"name\": \"y\"}]}]", &t, &err) == RT_OK, "a workspace taxonomy (%s)", err.msg);
    ok(t && t->ncats == 2 && rt_taxonomy_by_key(t, '0') == 0 && t->cats[0].relabel && rt_taxonomy_find(t, "y") == 1,
       "its categories, key 0 and the relabel flag");
    rt_taxonomy_free(&t);
    static const struct { const char *json, *want, *name; } bad[] = {
        {"[]", "non-empty array", "empty"},
        {"{}", "non-empty array", "not an array"},
        {"[{\"group\": \"G\", \"categories\": []}]", "non-empty \"categories\"", "a group without categories"},
        {"[{\"group\": \"G\", \"categories\": [{\"id\": \"x\"}]}]", "needs a \"name\"", "a category without a name"},
        {"[{\"group\": \"G\", \"categories\": [{\"name\": \"a\", \"id\": \"x\"}, {\"name\": \"b\", \"id\": \"x\"}]}]", "repeats",
         "a repeated id"},
        {"[{\"group\": \"G\", \"categories\": [{\"name\": \"a\", \"key\": \"1\"}, {\"name\": \"b\", \"key\": \"1\"}]}]", "repeats",
         "a repeated key"},
        {"[{\"group\": \"G\", \"categories\": [{\"name\": \"a\", \"key\": \"12\"}]}]", "one digit", "a two-digit key"},
        {"[{\"group\": \"G\", \"categories\": [{\"name\": \"a\", \"key\": 1}]}]", "one digit", "a numeric key"},
        {"[{\"group\": \"G\", \"categories\": [{\"name\": \"a\", \"id\": \"two words\"}]}]", "must be a word", "an id with a space"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rt_status st = from(bad[i].json, &t, &err);
        ok(st == RT_EINPUT && strstr(err.msg, bad[i].want) && strstr(err.msg, "ws.json"), "refused: %s (%s)",
           bad[i].name, err.msg);
        ok(t == NULL, "refused: %s: nothing left", bad[i].name);
    }
    char many[4096] = "[{\"group\": \"G\", \"categories\": [";
    for (int i = 0; i < 65; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%s{\"name\": \"c%d\"}", i ? ", " : "", i);
    strcat(many, "]}]");
    ok(from(many, &t, &err) == RT_EINPUT && strstr(err.msg, "at most"), "65 categories are too many (%s)", err.msg);
    return tap_done();
}
