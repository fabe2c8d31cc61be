/* rt_runjson — DuReader JSON runs ({"qid": ["pid", …], …}): the document read whole, each pid a
 * hit in file order, with the line of each key found for messages. */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_id.h"
#include "rt_json.h"
#include "rt_mem.h"
#include "rt_reader.h"
#include "rt_runscan_impl.h"

static size_t line_of(const char *buf, const char *at)
{
    size_t n = 1;
    for (const char *p = buf; p < at; p++)
        n += *p == '\n';
    return n;
}

/* Finds where things are in a JSON run, for messages: cJSON keeps no positions, so the text is
 * walked forward string by string alongside the parsed document (keys and values come in
 * document order). locate returns the line of the next string token — the next key when key is
 * set (a string followed by ':'), else the next string value — and moves past it. */
typedef struct locator {
    const char *cur, *end;
    size_t line;
} locator;

static size_t locate(locator *l, int key)
{
    const char *p = l->cur;
    while (p < l->end) {
        if (*p == '\n')
            l->line++;
        if (*p++ != '"')
            continue;
        size_t start_line = l->line;
        while (p < l->end && *p != '"') {       /* the string's body, escapes skipped */
            if (*p == '\\' && p + 1 < l->end)
                p++;
            else if (*p == '\n')
                l->line++;
            p++;
        }
        if (p < l->end)
            p++;
        const char *after = p;
        while (after < l->end && (*after == ' ' || *after == '\t' || *after == '\r' || *after == '\n'))
            after++;
        int is_key = after < l->end && *after == ':';
        if (is_key == key) {
            l->cur = p;
            return start_line;
        }
    }
    l->cur = l->end;
    return l->line;
}

rt_status rt_runscan_json(scan *s, rt_err *err)
{
    char *buf;
    size_t len;
    rt_status st = rt_read_file(s->path, &buf, &len, err);
    if (st != RT_OK)
        return st;
    st = rt_json_check_nul(s->path, 1, buf, len, err);
    if (st != RT_OK) {
        free(buf);
        return st;
    }
    const char *end = NULL;
    errno = 0;
    cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (!root && errno == ENOMEM) {   /* cJSON says only "failed": malloc said why */
        free(buf);
        return rt_err_at(err, RT_EINPUT, s->path, 0, "the JSON document (%zu bytes) does not fit in memory "
                         "once parsed", len);
    }
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        size_t line = at && at >= buf && at <= buf + len ? line_of(buf, at) : 0;
        free(buf);
        return rt_err_at(err, RT_EINPUT, s->path, line, "invalid JSON (expected {\"qid\": [\"pid\", …]})");
    }
    if (!cJSON_IsObject(root)) {
        st = rt_err_at(err, RT_EINPUT, s->path, 1, "expected a JSON object {\"qid\": [\"pid\", …]}");
        goto out;
    }
    s->info->has_scores = 0;
    locator loc = {buf, buf + len, 1};
    const cJSON *q, *p;
    cJSON_ArrayForEach(q, root) {
        size_t qline = locate(&loc, 1);
        char shown[80];
        const char *why = rt_id_problem(q->string, strlen(q->string));
        if (why) {   /* checked here too: an empty ranking adds no hit that would check it */
            st = rt_err_at(err, RT_EINPUT, s->path, qline, "bad query id: %s", why);
            goto out;
        }
        rt_id_show(q->string, strlen(q->string), shown, sizeof shown);
        if (!cJSON_IsArray(q)) {
            st = rt_err_at(err, RT_EINPUT, s->path, qline, "query \"%s\": expected an array of passage ids",
                           shown);
            goto out;
        }
        size_t rank = 0;
        cJSON_ArrayForEach(p, q) {
            char nb[32];
            int64_t num;
            const char *pid = nb;
            size_t pl;
            size_t pline = loc.line;
            if (cJSON_IsString(p)) {
                pid = p->valuestring;
                pl = strlen(pid);
                pline = locate(&loc, 0);
            } else if (cJSON_IsNumber(p) &&
                       rt_num_int_value_in(p->valuedouble, -RT_JSON_INT_MAX, RT_JSON_INT_MAX, &num)) {
                pl = (size_t)snprintf(nb, sizeof nb, "%lld", (long long)num);
            } else {
                st = rt_err_at(err, RT_EINPUT, s->path, pline,
                               "query \"%s\", rank %zu: expected a passage id string", shown, rank + 1);
                goto out;
            }
            rank++;
            st = rt_runscan_add_hit(s, q->string, strlen(q->string), pid, pl, -(double)rank, pline, err);
            if (st != RT_OK)
                goto out;
        }
        if (rank == 0) {
            /* An empty list is a query that retrieved nothing. */
            rt_strtab_intern(s->seen, q->string, strlen(q->string));
        }
    }
out:
    cJSON_Delete(root);
    free(buf);
    return st;
}
