/* rt_answers — loading answers files (DuReader JSON lines or TSV). */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_answers.h"
#include "rt_mem.h"
#include "rt_field.h"
#include "rt_utf8.h"
#include "rt_id.h"
#include "rt_json.h"
#include "rt_reader.h"

typedef struct qanswers {
    char **text;
    rt_normtext *norm;
    const rt_normtext **ptr;   /* pointers into norm, for rt_answers_of */
    size_t n;
    int listed;
} qanswers;

struct rt_answers {
    char *path;
    qanswers *q;     /* by qid */
    size_t nq;
};

void rt_answers_free(rt_answers **ap)
{
    if (!ap || !*ap)
        return;
    rt_answers *a = *ap;
    for (size_t i = 0; i < a->nq; i++) {
        for (size_t k = 0; k < a->q[i].n; k++) {
            free(a->q[i].text[k]);
            rt_normtext_free(&a->q[i].norm[k]);
        }
        free(a->q[i].text);
        free(a->q[i].norm);
        free(a->q[i].ptr);
    }
    free(a->q);
    free(a->path);
    free(a);
    *ap = NULL;
}

static qanswers *slot(rt_answers *a, uint32_t qid)
{
    if (qid >= a->nq) {
        size_t n = a->nq ? a->nq : 64;
        while (n <= qid)
            n *= 2;
        a->q = rt_reallocarray(a->q, n, sizeof *a->q);
        memset(a->q + a->nq, 0, (n - a->nq) * sizeof *a->q);
        a->nq = n;
    }
    a->q[qid].listed = 1;
    return &a->q[qid];
}

static void add(rt_answers *a, uint32_t qid, const char *s, size_t len)
{
    qanswers *q = slot(a, qid);
    q->text = rt_reallocarray(q->text, q->n + 1, sizeof *q->text);
    q->norm = rt_reallocarray(q->norm, q->n + 1, sizeof *q->norm);
    q->text[q->n] = rt_strndup(s, len);
    rt_normtext_make(&q->norm[q->n], s, len);
    rt_normtext_prepare(&q->norm[q->n]);
    q->n++;
}

typedef struct counts {
    size_t unknown, empty;
    char first_unknown[64];
} counts;

/* The qid of a line, interned or found; RT_NO_ID when unknown (counted). */
static uint32_t qid_of(rt_strtab *qids, int intern, const char *q, size_t ql, counts *c)
{
    uint32_t id = intern ? rt_strtab_intern(qids, q, ql) : rt_strtab_find(qids, q, ql);
    if (id == RT_NO_ID && c->unknown++ == 0)
        snprintf(c->first_unknown, sizeof c->first_unknown, "%.*s", (int)(ql > 60 ? 60 : ql), q);
    return id;
}

static rt_status json_line(rt_answers *a, const char *path, size_t no, const char *line, size_t len,
                           rt_strtab *qids, int intern, counts *c, rt_err *err)
{
    if (rt_json_check_nul(path, no, line, len, err) != RT_OK)
        return RT_EINPUT;
    cJSON *o = cJSON_ParseWithLength(line, len);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "question_id");
    const cJSON *ans = cJSON_GetObjectItemCaseSensitive(o, "answers");
    char num[32];
    const char *q = NULL;
    if (rt_json_id(id, num, sizeof num, &q) <= 0)
        q = NULL;
    rt_status st = RT_OK;
    if (!cJSON_IsObject(o))
        st = rt_err_at(err, RT_EINPUT, path, no, "expected a JSON object per line");
    else if (!q || !q[0])
        st = rt_err_at(err, RT_EINPUT, path, no, "expected a \"question_id\"");
    else if (rt_id_problem(q, strlen(q)))
        st = rt_err_at(err, RT_EINPUT, path, no, "bad query id: %s", rt_id_problem(q, strlen(q)));
    else if (ans && !cJSON_IsArray(ans))
        st = rt_err_at(err, RT_EINPUT, path, no, "\"answers\" must be an array of strings");
    const cJSON *x;
    if (st == RT_OK)
        cJSON_ArrayForEach(x, ans) {
            if (!cJSON_IsString(x)) {
                st = rt_err_at(err, RT_EINPUT, path, no, "\"answers\" must be an array of strings");
                break;
            }
            if (!rt_utf8_valid(x->valuestring, strlen(x->valuestring))) {   /* cJSON passes any byte */
                st = rt_err_at(err, RT_EINPUT, path, no, "the answer is not valid UTF-8");
                break;
            }
        }
    if (st == RT_OK) {
        uint32_t qid = qid_of(qids, intern, q, strlen(q), c);
        if (qid != RT_NO_ID) {
            slot(a, qid);
            cJSON_ArrayForEach(x, ans) {
                if (!x->valuestring[0])
                    c->empty++;
                else
                    add(a, qid, x->valuestring, strlen(x->valuestring));
            }
        }
    }
    cJSON_Delete(o);
    return st;
}

rt_status rt_answers_load(rt_answers **out, const char *path, rt_strtab *qids, int intern, rt_report *rep,
                          rt_err *err)
{
    *out = NULL;
    rt_reader *r;
    rt_status st = rt_reader_open(&r, path, err);
    if (st != RT_OK)
        return st;
    rt_answers *a = rt_calloc(1, sizeof *a);
    a->path = rt_strdup(path);
    counts c = {0};
    int json = -1, rc;
    size_t lines = 0, total = 0;
    char *line;
    size_t len;
    while (st == RT_OK && (rc = rt_reader_next(r, &line, &len, err)) == 1) {
        size_t no = rt_reader_lineno(r);
        if (rt_field_line_skippable(line, len))
            continue;
        if (json < 0)
            json = line[strspn(line, " \t")] == '{';
        lines++;
        if (json) {
            st = json_line(a, path, no, line, len, qids, intern, &c, err);
            continue;
        }
        rt_field f[3];
        if (rt_field_split_tab(line, len, f, 3) != 2 || !f[0].len) {
            st = rt_err_at(err, RT_EINPUT, path, no, "expected qid<TAB>answer (or DuReader JSON lines)");
            break;
        }
        const char *why = rt_id_problem(f[0].s, f[0].len);
        if (why) {
            st = rt_err_at(err, RT_EINPUT, path, no, "bad query id: %s", why);
            break;
        }
        if (!rt_utf8_valid(f[1].s, f[1].len)) {
            st = rt_err_at(err, RT_EINPUT, path, no, "the answer is not valid UTF-8");
            break;
        }
        uint32_t qid = qid_of(qids, intern, f[0].s, f[0].len, &c);
        if (qid == RT_NO_ID)
            continue;
        if (!f[1].len)
            c.empty++, slot(a, qid);
        else
            add(a, qid, f[1].s, f[1].len);
    }
    if (rc < 0 && st == RT_OK)
        st = RT_EINPUT;
    rt_reader_close(&r);
    if (st != RT_OK) {
        rt_answers_free(&a);
        return st;
    }
    size_t listed = 0;
    for (size_t i = 0; i < a->nq; i++) {
        listed += a->q[i].listed;
        total += a->q[i].n;
        a->q[i].ptr = rt_calloc(a->q[i].n + 1, sizeof *a->q[i].ptr);
        for (size_t k = 0; k < a->q[i].n; k++)
            a->q[i].ptr[k] = &a->q[i].norm[k];
    }
    rt_report_add(rep, RT_REPORT_INFO, "%s: %zu answers for %zu queries", path, total, listed);
    if (c.unknown)
        rt_report_add(rep, RT_REPORT_WARNING, "%s: %zu lines name queries the workspace does not have (first: %s); "
                      "ignored", path, c.unknown, c.first_unknown);
    if (c.empty)
        rt_report_add(rep, RT_REPORT_WARNING, "%s: %zu empty answers ignored", path, c.empty);
    *out = a;
    return RT_OK;
}

size_t rt_answers_of(const rt_answers *a, uint32_t qid, const rt_normtext *const **norm)
{
    if (!a || qid >= a->nq || !a->q[qid].n) {
        if (norm)
            *norm = NULL;
        return 0;
    }
    if (norm)
        *norm = a->q[qid].ptr;
    return a->q[qid].n;
}

const char *rt_answers_text(const rt_answers *a, uint32_t qid, size_t k)
{
    return a && qid < a->nq && k < a->q[qid].n ? a->q[qid].text[k] : NULL;
}

int rt_answers_lists(const rt_answers *a, uint32_t qid) { return a && qid < a->nq && a->q[qid].listed; }

const char *rt_answers_path(const rt_answers *a) { return a ? a->path : NULL; }
