/* rt_op — the operation an annotator's change is, and its one JSON line: writing, and parsing
 * with every field checked, so that what the journal wrote reads back as the same operation. */
#include "config.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_mem.h"
#include "rt_op.h"
#include "rt_json.h"
#include "rt_reader.h"

static const char *const kind_names[RT_OP_KIND_COUNT] = {"label", "tag", "untag", "note", "leak", "set",
                                                         "adjudicate", "package", "review"};

const char *rt_op_kind_name(rt_op_kind k) { return k < RT_OP_KIND_COUNT ? kind_names[k] : "?"; }

void rt_op_clear(rt_op *op)
{
    free(op->author);
    free(op->qid);
    free(op->pid);
    free(op->cat);
    free(op->text);
    free(op->train);
    free(op->via);
    free(op->name);
    for (size_t i = 0; i < op->nqids; i++) {   /* an op made by ids has no text lists */
        free(op->qids ? op->qids[i] : NULL);
        free(op->pids ? op->pids[i] : NULL);
    }
    free(op->qids);
    free(op->pids);
    free(op->id.qids);
    free(op->id.pids);
    for (size_t i = 0; i < op->ncats; i++)
        free(op->cats[i]);
    free(op->cats);
    for (size_t i = 0; i < op->nsettles; i++)
        free(op->settles[i]);
    free(op->settles);
    memset(op, 0, sizeof *op);
}

static char *dup_or_null(const char *s) { return s ? rt_strdup(s) : NULL; }

/* A copy of the n ids at v (room for n + 1), or NULL when v is. */
static uint32_t *dup_ids(const uint32_t *v, size_t n)
{
    if (!v)
        return NULL;
    uint32_t *c = rt_calloc(n + 1, sizeof *c);
    memcpy(c, v, n * sizeof *c);
    return c;
}

void rt_op_copy(rt_op *d, const rt_op *s)
{
    *d = *s;
    d->author = dup_or_null(s->author);
    d->qid = dup_or_null(s->qid);
    d->pid = dup_or_null(s->pid);
    d->cat = dup_or_null(s->cat);
    d->text = dup_or_null(s->text);
    d->train = dup_or_null(s->train);
    d->via = dup_or_null(s->via);
    d->name = dup_or_null(s->name);
    d->qids = s->qids ? rt_calloc(s->nqids + 1, sizeof *d->qids) : NULL;
    d->pids = s->pids ? rt_calloc(s->nqids + 1, sizeof *d->pids) : NULL;
    for (size_t i = 0; i < s->nqids; i++) {
        if (s->qids)
            d->qids[i] = rt_strdup(s->qids[i]);
        if (s->pids)
            d->pids[i] = rt_strdup(s->pids[i]);
    }
    d->id.qids = dup_ids(s->id.qids, s->nqids);
    d->id.pids = dup_ids(s->id.pids, s->nqids);
    d->cats = s->ncats ? rt_calloc(s->ncats, sizeof *d->cats) : NULL;
    for (size_t i = 0; i < s->ncats; i++)
        d->cats[i] = rt_strdup(s->cats[i]);
    d->settles = s->nsettles ? rt_calloc(s->nsettles, sizeof *d->settles) : NULL;
    for (size_t i = 0; i < s->nsettles; i++)
        d->settles[i] = rt_strdup(s->settles[i]);
}

int64_t rt_op_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void rt_op_format_time(int64_t t, char *buf, size_t len)
{
    /* floor division: 1969-12-31T23:59:59.500Z is -500 ms, not "-1 s and -500 ms" */
    int64_t sec = t / 1000, ms = t % 1000;
    if (ms < 0) {
        ms += 1000;
        sec -= 1;
    }
    time_t s = (time_t)sec;
    struct tm tm;
    if (!gmtime_r(&s, &tm) || tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999) {
        snprintf(buf, len, "0000-01-01T00:00:00.000Z");   /* unreachable for parsed or clock times */
        return;
    }
    snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)ms);
}

/* n digits at s as a number, or -1. */
static int digits(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* Exactly YYYY-MM-DDTHH:MM:SS.mmmZ (what rt_op_format_time writes), fields in range. */
static int parse_time(const char *s, int64_t *t)
{
    if (strlen(s) != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
        s[16] != ':' || s[19] != '.' || s[23] != 'Z')
        return 0;
    int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2), h = digits(s + 11, 2);
    int mi = digits(s + 14, 2), se = digits(s + 17, 2), ms = digits(s + 20, 3);
    if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
        se < 0 || se > 60 || ms < 0)
        return 0;
    struct tm tm = {.tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = h,
                    .tm_min = mi, .tm_sec = se};
    *t = (int64_t)timegm(&tm) * 1000 + ms;
    return 1;
}

/* A whole number written as digits: cJSON writes numbers through a double (%.15g, then %.17g),
 * which is no way to keep a sequence number. */
static void add_uint(cJSON *o, const char *key, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    cJSON_AddRawToObject(o, key, buf);
}

char *rt_op_to_json(const rt_op *op)
{
    char when[32];
    rt_op_format_time(op->time_ms, when, sizeof when);
    cJSON *o = cJSON_CreateObject();
    add_uint(o, "seq", op->seq);
    cJSON_AddStringToObject(o, "time", when);
    cJSON_AddStringToObject(o, "author", op->author ? op->author : "");
    cJSON_AddStringToObject(o, "op", rt_op_kind_name(op->kind));
    if (op->name)
        cJSON_AddStringToObject(o, "name", op->name);
    if (op->qid)
        cJSON_AddStringToObject(o, "qid", op->qid);
    if (op->kind != RT_OP_SET && op->kind != RT_OP_LEAK && op->kind != RT_OP_PACKAGE) {
        if (op->pid)
            cJSON_AddStringToObject(o, "pid", op->pid);
        else
            cJSON_AddNullToObject(o, "pid");
    }
    if (op->train)
        cJSON_AddStringToObject(o, "train", op->train);
    if (op->kind == RT_OP_LABEL || op->kind == RT_OP_ADJUDICATE) {
        if (op->has_grade)
            cJSON_AddNumberToObject(o, "grade", op->grade);
        else
            cJSON_AddNullToObject(o, "grade");
    }
    if (op->cat)
        cJSON_AddStringToObject(o, "cat", op->cat);
    if (op->text)
        cJSON_AddStringToObject(o, "text", op->text);
    if (op->kind == RT_OP_SET) {
        if (op->has_list) {
            cJSON *a = cJSON_AddArrayToObject(o, "qids");
            for (size_t i = 0; i < op->nqids; i++)
                cJSON_AddItemToArray(a, cJSON_CreateString(op->qids[i]));
        } else {
            cJSON_AddNullToObject(o, "qids");
        }
    }
    if (op->kind == RT_OP_ADJUDICATE) {
        cJSON *c = op->has_cats ? cJSON_AddArrayToObject(o, "cats") : cJSON_AddNullToObject(o, "cats");
        for (size_t i = 0; op->has_cats && i < op->ncats; i++)
            cJSON_AddItemToArray(c, cJSON_CreateString(op->cats[i]));
        cJSON *st = cJSON_AddArrayToObject(o, "settles");
        for (size_t i = 0; i < op->nsettles; i++)
            cJSON_AddItemToArray(st, cJSON_CreateString(op->settles[i]));
    }
    if (op->kind == RT_OP_PACKAGE) {
        cJSON *ps = op->has_list ? cJSON_AddArrayToObject(o, "pairs") : cJSON_AddNullToObject(o, "pairs");
        for (size_t i = 0; op->has_list && i < op->nqids; i++) {
            cJSON *pair = cJSON_CreateArray();
            cJSON_AddItemToArray(pair, cJSON_CreateString(op->qids[i]));
            cJSON_AddItemToArray(pair, cJSON_CreateString(op->pids[i]));
            cJSON_AddItemToArray(ps, pair);
        }
        add_uint(o, "seed", op->seed);
        add_uint(o, "sample", op->sample);
    }
    if (op->undo)
        add_uint(o, "undo", op->undo);
    if (op->redo)
        add_uint(o, "redo", op->redo);
    if (op->via)
        cJSON_AddStringToObject(o, "via", op->via);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    size_t n = strlen(s);
    char *line = rt_malloc(n + 2);
    memcpy(line, s, n);
    line[n] = '\n';
    line[n + 1] = 0;
    cJSON_free(s);
    return line;
}

/* The string of id in t, or NULL when t has no such id. */
static const char *name_of(const rt_strtab *t, uint32_t id)
{
    return id < rt_strtab_count(t) ? rt_strtab_str(t, id) : NULL;
}

char *rt_op_to_json_names(const rt_op *op, const rt_op_names *names)
{
    if (!op->by_id || !names)
        return rt_op_to_json(op);
    /* A view of op whose text form borrows the tables' strings where op has none of its own: the
     * one writer then writes both alike. */
    rt_op v = *op;
    const char **qids = NULL, **pids = NULL, **cats = NULL;
    char *line = NULL;
    int ok = 1;
    if (!v.qid && op->id.qid != RT_NO_ID)
        ok &= (v.qid = (char *)name_of(names->qids, op->id.qid)) != NULL;
    if (!v.pid && op->id.pid != RT_NO_ID)
        ok &= (v.pid = (char *)name_of(names->pids, op->id.pid)) != NULL;
    if (!v.cat && (op->kind == RT_OP_TAG || op->kind == RT_OP_UNTAG))
        ok &= op->id.cat < names->tax->ncats && (v.cat = names->tax->cats[op->id.cat].id) != NULL;
    if (!v.qids && op->id.qids) {
        qids = rt_calloc(op->nqids + 1, sizeof *qids);
        for (size_t i = 0; i < op->nqids; i++)
            ok &= (qids[i] = name_of(names->qids, op->id.qids[i])) != NULL;
        v.qids = (char **)qids;
    }
    if (!v.pids && op->id.pids) {
        pids = rt_calloc(op->nqids + 1, sizeof *pids);
        for (size_t i = 0; i < op->nqids; i++)
            ok &= (pids[i] = name_of(names->pids, op->id.pids[i])) != NULL;
        v.pids = (char **)pids;
    }
    if (!v.cats && op->kind == RT_OP_ADJUDICATE && op->has_cats) {   /* in taxonomy order */
        cats = rt_calloc(names->tax->ncats + 1, sizeof *cats);
        v.ncats = 0;
        for (size_t c = 0; c < names->tax->ncats; c++)
            if (op->id.cats >> c & 1)
                cats[v.ncats++] = names->tax->cats[c].id;
        ok &= names->tax->ncats >= 64 || op->id.cats >> names->tax->ncats == 0;
        v.cats = (char **)cats;
    }
    if (ok)
        line = rt_op_to_json(&v);
    free(qids);
    free(pids);
    free(cats);
    return line;
}

/* ---- parsing ----------------------------------------------------------------------------- */

/* cJSON_GetObjectItemCaseSensitive (the first member named key), comparing the first byte before
 * the rest: a journal line is looked up some fifteen times, and replaying a team's journals
 * parses millions of lines. */
static const cJSON *member(const cJSON *o, const char *key)
{
    for (const cJSON *x = o ? o->child : NULL; x; x = x->next)
        if (x->string && x->string[0] == key[0] && strcmp(x->string, key) == 0)
            return x;
    return NULL;
}

static int get_uint(const cJSON *o, const char *key, uint64_t *v)
{
    const cJSON *x = member(o, key);
    if (!x) {
        *v = 0;
        return 1;
    }
    double d = x->valuedouble;
    if (!cJSON_IsNumber(x) || d < 1 || d > 9007199254740992.0 || floor(d) != d)
        return 0;
    *v = (uint64_t)d;
    return 1;
}

/* A whole number from 0 to 2^53 (absent: 0). */
static int get_count(const cJSON *o, const char *key, uint64_t *v)
{
    const cJSON *x = member(o, key);
    *v = 0;
    if (!x)
        return 1;
    double d = x->valuedouble;
    if (!cJSON_IsNumber(x) || d < 0 || d > 9007199254740992.0 || floor(d) != d)
        return 0;
    *v = (uint64_t)d;
    return 1;
}

/* A string member: 1 and a copy when present, 0 when absent or null (allowed when opt), -1 when
 * of another type. */
static int get_str(const cJSON *o, const char *key, char **out)
{
    const cJSON *x = member(o, key);
    *out = NULL;
    if (!x || cJSON_IsNull(x))
        return 0;
    if (!cJSON_IsString(x))
        return -1;
    *out = rt_strdup(x->valuestring);
    return 1;
}

static rt_status need(rt_op *op, rt_err *err, int ok, const char *what)
{
    if (ok)
        return RT_OK;
    rt_op_clear(op);
    return rt_err_set(err, RT_EINPUT, "%s", what);
}

/* An array of strings into *list / *n; 1, 0 when it is absent or null, -1 when malformed. */
static int get_strings(const cJSON *o, const char *key, char ***list, size_t *n)
{
    const cJSON *a = member(o, key), *x;
    if (!a || cJSON_IsNull(a))
        return 0;
    if (!cJSON_IsArray(a))
        return -1;
    cJSON_ArrayForEach(x, a) {
        if (!cJSON_IsString(x))
            return -1;
        *list = rt_reallocarray(*list, *n + 1, sizeof **list);
        (*list)[(*n)++] = rt_strdup(x->valuestring);
    }
    return 1;
}

static rt_status parse_grade(rt_op *op, const cJSON *o, rt_err *err, int must)
{
    const cJSON *g = member(o, "grade");
    if (cJSON_IsNumber(g)) {
        if (floor(g->valuedouble) != g->valuedouble || fabs(g->valuedouble) > 1e6)
            return need(op, err, 0, "\"grade\" must be an integer");
        op->grade = (int32_t)g->valuedouble;
        op->has_grade = 1;
    } else if (!cJSON_IsNull(g) && (must || g)) {
        return need(op, err, 0, must ? "a label needs \"grade\" (an integer, or null for the base)"
                                     : "\"grade\" must be an integer or null");
    }
    return RT_OK;
}

static rt_status parse_adjudicate(rt_op *op, const cJSON *o, rt_err *err, int have_pair)
{
    if (!have_pair)
        return need(op, err, 0, "an adjudication needs \"qid\" and \"pid\"");
    rt_status st = parse_grade(op, o, err, 0);
    if (st != RT_OK)
        return st;
    int c = get_strings(o, "cats", &op->cats, &op->ncats);
    int s = get_strings(o, "settles", &op->settles, &op->nsettles);
    if (c < 0 || s < 0)
        return need(op, err, 0, "\"cats\" and \"settles\" must be arrays of strings");
    op->has_cats = c > 0;
    return RT_OK;
}

static rt_status parse_package(rt_op *op, const cJSON *o, rt_err *err, int named)
{
    const cJSON *a = member(o, "pairs"), *x;
    if (!named || (!cJSON_IsArray(a) && !cJSON_IsNull(a)))
        return need(op, err, 0, "a package needs \"name\", \"text\" (its annotator) and \"pairs\" (an array or null)");
    op->has_list = cJSON_IsArray(a);
    cJSON_ArrayForEach(x, a) {
        const cJSON *q = cJSON_GetArrayItem(x, 0), *p = cJSON_GetArrayItem(x, 1);
        if (!cJSON_IsArray(x) || cJSON_GetArraySize(x) != 2 || !cJSON_IsString(q) || !cJSON_IsString(p))
            return need(op, err, 0, "\"pairs\" must hold [qid, pid] arrays");
        op->qids = rt_reallocarray(op->qids, op->nqids + 1, sizeof *op->qids);
        op->pids = rt_reallocarray(op->pids, op->nqids + 1, sizeof *op->pids);
        op->qids[op->nqids] = rt_strdup(q->valuestring);
        op->pids[op->nqids++] = rt_strdup(p->valuestring);
    }
    uint64_t n = 0;
    if (!get_count(o, "seed", &op->seed) || !get_count(o, "sample", &n) || n > 1000000)
        return need(op, err, 0, "\"seed\" and \"sample\" must be whole numbers (sample at most 1,000,000)");
    op->sample = (uint32_t)n;
    return RT_OK;
}

static rt_status parse_fields(rt_op *op, const cJSON *o, rt_err *err)
{
    int q = get_str(o, "qid", &op->qid), p = get_str(o, "pid", &op->pid);
    int c = get_str(o, "cat", &op->cat), t = get_str(o, "text", &op->text);
    int tr = get_str(o, "train", &op->train), nm = get_str(o, "name", &op->name);
    int v = get_str(o, "via", &op->via);
    if (q < 0 || p < 0 || c < 0 || t < 0 || tr < 0 || nm < 0 || v < 0)
        return need(op, err, 0, "a member that should be a string is not");
    if (op->kind == RT_OP_SET || op->kind == RT_OP_LEAK || op->kind == RT_OP_PACKAGE) {
        free(op->pid);   /* these kinds name no passage: a "pid" there means nothing and is not */
        op->pid = NULL;  /* written back, so it is not kept either (found by fuzz_journal_line) */
    }
    switch (op->kind) {
    case RT_OP_LABEL: {
        rt_status st = parse_grade(op, o, err, 1);
        return st != RT_OK ? st : need(op, err, q > 0 && p > 0, "a label needs \"qid\" and \"pid\"");
    }
    case RT_OP_TAG:
    case RT_OP_UNTAG:
        return need(op, err, q > 0 && c > 0, "a tag needs \"qid\" and \"cat\"");
    case RT_OP_NOTE:
        return need(op, err, q > 0 && t > 0, "a note needs \"qid\" and \"text\"");
    case RT_OP_LEAK:
        return need(op, err, q > 0 && tr > 0 && t > 0, "a leak label needs \"qid\", \"train\" and \"text\"");
    case RT_OP_SET: {
        const cJSON *a = member(o, "qids");
        if (nm <= 0 || (!cJSON_IsArray(a) && !cJSON_IsNull(a)))
            return need(op, err, 0, "a query set needs \"name\" and \"qids\" (an array or null)");
        op->has_list = cJSON_IsArray(a);
        const cJSON *x;
        cJSON_ArrayForEach(x, a) {
            if (!cJSON_IsString(x))
                return need(op, err, 0, "\"qids\" must hold strings");
            op->qids = rt_reallocarray(op->qids, op->nqids + 1, sizeof *op->qids);
            op->qids[op->nqids++] = rt_strdup(x->valuestring);
        }
        return RT_OK;
    }
    case RT_OP_ADJUDICATE:
        return parse_adjudicate(op, o, err, q > 0 && p > 0);
    case RT_OP_PACKAGE:
        return parse_package(op, o, err, nm > 0 && t > 0);
    case RT_OP_REVIEW:
        return need(op, err, nm > 0 && q > 0 && p > 0 && t > 0, "a review needs \"name\", \"qid\", \"pid\" and \"text\"");
    default:
        return need(op, err, 0, "unknown operation");
    }
}

/* ---- the fast path: labels and tags as rt_op_to_json writes them ------------------------- */

typedef struct cursor {
    const char *p, *end;
} cursor;

static int lit(cursor *c, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
        return 0;
    c->p += n;
    return 1;
}

/* A string without escapes or control characters (what needs neither, as the writer writes it):
 * its bytes into a new string. */
static char *plain_str(cursor *c)
{
    if (c->p >= c->end || *c->p != '"')
        return NULL;
    const char *s = ++c->p;
    while (c->p < c->end && *c->p != '"') {
        if ((unsigned char)*c->p < 0x20 || *c->p == '\\')
            return NULL;
        c->p++;
    }
    if (c->p >= c->end)
        return NULL;
    return rt_strndup(s, (size_t)(c->p++ - s));
}

/* Digits without a leading zero, at most 2^53 (min 1 when positive is set). */
static int plain_uint(cursor *c, uint64_t *v, int positive)
{
    const char *s = c->p;
    uint64_t x = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && c->p - s < 17)
        x = x * 10 + (uint64_t)(*c->p++ - '0');
    size_t n = (size_t)(c->p - s);
    if (!n || (n > 1 && *s == '0') || (c->p < c->end && *c->p >= '0' && *c->p <= '9') ||
        x > 9007199254740992ull || (positive && !x))
        return 0;
    *v = x;
    return 1;
}

/* 1 and *op when line is a label or tag operation exactly as rt_op_to_json writes it (strings
 * without escapes); 0 (op cleared) otherwise, for the general parser to decide. */
static int parse_plain(rt_op *op, const char *line, size_t len)
{
    cursor c = {line, line + len};
    uint64_t v;
    char when[32];
    memset(op, 0, sizeof *op);
    if (!lit(&c, "{\"seq\":") || !plain_uint(&c, &op->seq, 1) || !lit(&c, ",\"time\":\"") || c.end - c.p < 26 ||
        c.p[24] != '"')
        goto no;
    memcpy(when, c.p, 24);
    when[24] = 0;
    c.p += 25;
    if (!parse_time(when, &op->time_ms) || !lit(&c, ",\"author\":") || !(op->author = plain_str(&c)))
        goto no;
    if (lit(&c, ",\"op\":\"label\""))
        op->kind = RT_OP_LABEL;
    else if (lit(&c, ",\"op\":\"tag\""))
        op->kind = RT_OP_TAG;
    else if (lit(&c, ",\"op\":\"untag\""))
        op->kind = RT_OP_UNTAG;
    else
        goto no;
    if (!lit(&c, ",\"qid\":") || !(op->qid = plain_str(&c)) || !lit(&c, ",\"pid\":"))
        goto no;
    if (!lit(&c, "null") && !(op->pid = plain_str(&c)))
        goto no;
    if (op->kind == RT_OP_LABEL) {
        if (!op->pid || !lit(&c, ",\"grade\":"))
            goto no;
        if (!lit(&c, "null")) {
            int neg = lit(&c, "-");
            if (!plain_uint(&c, &v, 0) || v > 1000000 || (neg && !v))
                goto no;
            op->grade = neg ? -(int32_t)v : (int32_t)v;
            op->has_grade = 1;
        }
    } else if (!lit(&c, ",\"cat\":") || !(op->cat = plain_str(&c))) {
        goto no;
    }
    if (lit(&c, ",\"undo\":") && !plain_uint(&c, &op->undo, 1))
        goto no;
    if (lit(&c, ",\"redo\":") && !plain_uint(&c, &op->redo, 1))
        goto no;
    if (lit(&c, ",\"via\":") && !(op->via = plain_str(&c)))
        goto no;
    if (!lit(&c, "}") || c.p != c.end)
        goto no;
    return 1;
no:
    rt_op_clear(op);
    return 0;
}

rt_status rt_op_from_json(rt_op *op, const char *line, size_t len, rt_err *err)
{
    if (len > rt_input_max()) {   /* cJSON would copy it all again, for one operation */
        memset(op, 0, sizeof *op);
        return rt_err_set(err, RT_EINPUT, "a line larger than the limit of %zu bytes", rt_input_max());
    }
    if (parse_plain(op, line, len))
        return RT_OK;
    return rt_op_from_json_full(op, line, len, err);
}

rt_status rt_op_from_json_full(rt_op *op, const char *line, size_t len, rt_err *err)
{
    memset(op, 0, sizeof *op);
    if (memchr(line, 0, len))
        return rt_err_set(err, RT_EINPUT, "NUL bytes (a torn or zero-filled write)");
    if (rt_json_nul_at(line, len) != len)   /* "q1\u0000x" would be read as "q1" */
        return rt_err_set(err, RT_EINPUT, "a JSON string holds \\u0000: ids and texts cannot hold U+0000");
    cJSON *o = cJSON_ParseWithLength(line, len);
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return rt_err_set(err, RT_EINPUT, "not a JSON object");
    }
    rt_status st = RT_OK;
    const cJSON *kind = member(o, "op");
    const cJSON *when = member(o, "time");
    op->kind = RT_OP_KIND_COUNT;
    for (int k = 0; cJSON_IsString(kind) && k < RT_OP_KIND_COUNT; k++)
        if (strcmp(kind->valuestring, kind_names[k]) == 0)
            op->kind = (rt_op_kind)k;
    if (op->kind == RT_OP_KIND_COUNT)
        st = rt_err_set(err, RT_EINPUT, "no known \"op\"");
    else if (!get_uint(o, "seq", &op->seq) || op->seq == 0)
        st = rt_err_set(err, RT_EINPUT, "\"seq\" must be a positive integer");
    else if (!cJSON_IsString(when) || !parse_time(when->valuestring, &op->time_ms))
        st = rt_err_set(err, RT_EINPUT, "\"time\" must look like 2026-11-21T10:11:12.345Z");
    else if (get_str(o, "author", &op->author) < 0)
        st = rt_err_set(err, RT_EINPUT, "\"author\" must be a string");
    else if (!get_uint(o, "undo", &op->undo) || !get_uint(o, "redo", &op->redo))
        st = rt_err_set(err, RT_EINPUT, "\"undo\" and \"redo\" must be sequence numbers");
    else
        st = parse_fields(op, o, err);
    cJSON_Delete(o);
    if (st != RT_OK)
        rt_op_clear(op);
    return st;
}
