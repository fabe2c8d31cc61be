/* rt_queries — loading query texts. */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_names.h"
#include "rt_num.h"
#include "rt_utf8.h"
#include "rt_id.h"
#include "rt_json.h"
#include "rt_queries.h"
#include "rt_reader.h"

struct rt_queries {
    rt_strtab *qids;
    uint32_t *order;     /* qids in file order */
    uint32_t n, cap;
    char **text;         /* by qid id; sized text_len */
    size_t text_len;
};

rt_queries *rt_queries_new(rt_strtab *qids)
{
    rt_queries *q = rt_calloc(1, sizeof *q);
    q->qids = qids;
    return q;
}

void rt_queries_free(rt_queries **qp)
{
    if (!qp || !*qp)
        return;
    rt_queries *q = *qp;
    for (size_t i = 0; i < q->text_len; i++)
        free(q->text[i]);
    free(q->text);
    free(q->order);
    free(q);
    *qp = NULL;
}

const rt_name rt_queries_formats[] = {
    {"auto", RT_QUERIES_AUTO}, {"tsv", RT_QUERIES_TSV}, {"dureader", RT_QUERIES_DUREADER}, {NULL, 0},
};

int rt_queries_format_parse(const char *name, rt_queries_format *fmt)
{
    int v;
    return rt_name_value(rt_queries_formats, name, &v) ? (*fmt = (rt_queries_format)v, 1) : 0;
}

static int has(const rt_queries *q, uint32_t id) { return id < q->text_len && q->text[id]; }

uint32_t rt_queries_add(rt_queries *q, const char *qid, size_t ql, const char *text, size_t tl)
{
    uint32_t id = rt_strtab_intern(q->qids, qid, ql);
    if (has(q, id))
        return id;
    q->text = rt_grow_index(q->text, &q->text_len, id, sizeof *q->text, 0);
    q->text[id] = rt_strndup(text, tl);
    RT_GROW(q->order, q->cap, (size_t)q->n + 1);
    q->order[q->n++] = id;
    return id;
}

static rt_status add_checked(rt_queries *q, const char *path, size_t line, const char *qid,
                             size_t ql, const char *text, size_t tl, const rt_load_opts *opts,
                             size_t *dups, size_t *first_dup, rt_err *err)
{
    const char *why = rt_id_problem(qid, ql);
    if (why)
        return rt_err_at(err, RT_EINPUT, path, line, "bad query id: %s", why);
    size_t bad = rt_utf8_invalid_at(text, tl);
    if (bad < tl)
        return rt_err_at(err, RT_EINPUT, path, line, "query text is not valid UTF-8 (byte %zu)", bad + 1);
    uint32_t id = rt_strtab_find(q->qids, qid, ql);
    if (id != RT_NO_ID && has(q, id)) {
        if (opts && opts->strict)
            return rt_err_at(err, RT_EINPUT, path, line, "query %.*s listed twice (strict mode)",
                             (int)ql, qid);
        if (!(*dups)++)
            *first_dup = line;
        return RT_OK;
    }
    rt_queries_add(q, qid, ql, text, tl);
    return RT_OK;
}

static rt_status parse_json(rt_queries *q, const char *path, size_t no, const char *line,
                            size_t len, const rt_load_opts *opts, size_t *dups, size_t *fd,
                            rt_err *err)
{
    if (rt_json_check_nul(path, no, line, len, err) != RT_OK)
        return RT_EINPUT;
    cJSON *o = cJSON_ParseWithLength(line, len);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "question_id");
    const cJSON *tx = cJSON_GetObjectItemCaseSensitive(o, "question");
    rt_status st;
    char nb[32];
    int64_t num;
    if (!cJSON_IsObject(o))
        st = rt_err_at(err, RT_EINPUT, path, no, "expected a JSON object per line");
    else if (!cJSON_IsString(tx))
        st = rt_err_at(err, RT_EINPUT, path, no, "expected a \"question\" string");
    else if (cJSON_IsString(id))
        st = add_checked(q, path, no, id->valuestring, strlen(id->valuestring), tx->valuestring,
                         strlen(tx->valuestring), opts, dups, fd, err);
    else if (cJSON_IsNumber(id) && rt_num_int_value_in(id->valuedouble, -RT_JSON_INT_MAX, RT_JSON_INT_MAX, &num)) {
        int n = snprintf(nb, sizeof nb, "%lld", (long long)num);
        st = add_checked(q, path, no, nb, (size_t)n, tx->valuestring, strlen(tx->valuestring), opts,
                         dups, fd, err);
    } else
        st = rt_err_at(err, RT_EINPUT, path, no, "expected a \"question_id\" string or integer");
    cJSON_Delete(o);
    return st;
}

rt_status rt_queries_load(rt_queries **out, const char *path, rt_queries_format fmt,
                          rt_strtab *qids, const rt_load_opts *opts, rt_report *report,
                          rt_err *err)
{
    *out = NULL;
    rt_reader *r;
    rt_status st = rt_reader_open(&r, path, err);
    if (st != RT_OK)
        return st;
    rt_queries *q = rt_queries_new(qids);
    size_t dups = 0, first_dup = 0;
    char *line;
    size_t len;
    int rc;
    while ((rc = rt_reader_next(r, &line, &len, err)) == 1) {
        size_t no = rt_reader_lineno(r), i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len)
            continue;
        if (fmt == RT_QUERIES_AUTO)
            fmt = line[i] == '{' ? RT_QUERIES_DUREADER : RT_QUERIES_TSV;
        if (fmt == RT_QUERIES_DUREADER) {
            st = parse_json(q, path, no, line, len, opts, &dups, &first_dup, err);
        } else {
            char *tab = memchr(line, '\t', len);
            if (!tab) {
                st = rt_err_at(err, RT_EINPUT, path, no, "expected qid<TAB>text");
                break;
            }
            size_t ql = (size_t)(tab - line);
            st = add_checked(q, path, no, line, ql, tab + 1, len - ql - 1, opts, &dups, &first_dup, err);
        }
        if (st != RT_OK)
            break;
    }
    if (rc < 0)
        st = RT_EINPUT;
    rt_reader_close(&r);
    if (st == RT_OK && q->n == 0)
        st = rt_err_at(err, RT_EINPUT, path, 0, "no queries found (empty file)");
    if (st != RT_OK) {
        rt_queries_free(&q);
        return st;
    }
    rt_report_add(report, RT_REPORT_INFO, "%s: %u queries", path, q->n);
    if (dups)
        rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: %zu repeated query ids ignored (first text kept)",
                      path, first_dup, dups);
    *out = q;
    return RT_OK;
}

uint32_t rt_queries_count(const rt_queries *q) { return q->n; }
uint32_t rt_queries_qid(const rt_queries *q, uint32_t i) { return q->order[i]; }
const char *rt_queries_text(const rt_queries *q, uint32_t qid) { return has(q, qid) ? q->text[qid] : NULL; }
