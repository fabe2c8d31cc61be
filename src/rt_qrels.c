/* rt_qrels — loading judgments into per-query arrays sorted by pid id (binary-searched). */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_image.h"
#include "rt_mem.h"
#include "rt_names.h"
#include "rt_field.h"
#include "rt_num.h"
#include "rt_id.h"
#include "rt_json.h"
#include "rt_qrels.h"
#include "rt_reader.h"

typedef struct raw {
    uint32_t qi;    /* index among judged queries */
    uint32_t pid;
    int32_t grade;
    uint32_t seq;   /* input order, so that the first of duplicates wins */
    size_t line;
} raw;

struct rt_qrels {
    char *path;
    rt_qrels_format format;
    uint32_t *qids;          /* judged query i → qid id */
    uint32_t nq, qcap;
    uint32_t *index;         /* qid id → judged index, or RT_NO_ID; sized idx_len */
    size_t idx_len;
    uint32_t *start;         /* judgments of query i are j[start[i] .. start[i+1]) */
    rt_judgment *j;
    size_t nj;
    int mapped;              /* the arrays lie in a workspace cache's mapping (rt_qrels_attach) */
    uint64_t *judged;        /* bit pid: some query judges pid (most run pids are unjudged: a */
    size_t judged_words;     /* lookup of one of them is one bit test, not a search) */
};

static void mark_judged(rt_qrels *q)
{
    uint32_t top = 0;
    for (size_t k = 0; k < q->nj; k++)
        top = q->j[k].pid > top ? q->j[k].pid : top;
    q->judged_words = q->nj ? top / 64 + 1 : 0;
    q->judged = rt_calloc(q->judged_words ? q->judged_words : 1, sizeof *q->judged);
    for (size_t k = 0; k < q->nj; k++)
        q->judged[q->j[k].pid / 64] |= (uint64_t)1 << (q->j[k].pid % 64);
}

typedef struct loader {
    rt_qrels *q;
    rt_strtab *qids, *pids;
    raw *raws;
    size_t nraw, cap;
    const char *path;
    size_t tsv_cols;   /* 2 or 3, fixed by the first TSV line */
} loader;

const rt_name rt_qrels_formats[] = {
    {"auto", RT_QRELS_AUTO}, {"trec", RT_QRELS_TREC}, {"tsv", RT_QRELS_TSV},
    {"dureader", RT_QRELS_DUREADER}, {NULL, 0},
};

int rt_qrels_format_parse(const char *name, rt_qrels_format *fmt)
{
    int v;
    return rt_name_value(rt_qrels_formats, name, &v) ? (*fmt = (rt_qrels_format)v, 1) : 0;
}

const char *rt_qrels_format_name(rt_qrels_format fmt) { return rt_name_of(rt_qrels_formats, (int)fmt); }

static uint32_t query_index(loader *L, uint32_t qid)
{
    rt_qrels *q = L->q;
    q->index = rt_grow_index(q->index, &q->idx_len, qid, sizeof *q->index, 0xff);
    if (q->index[qid] == RT_NO_ID) {
        RT_GROW(q->qids, q->qcap, (size_t)q->nq + 1);
        q->qids[q->nq] = qid;
        q->index[qid] = q->nq++;
    }
    return q->index[qid];
}

static rt_status add(loader *L, const char *qs, size_t ql, const char *ps, size_t pl,
                     int32_t grade, size_t line, rt_err *err)
{
    rt_status st = rt_id_check_pair(L->path, line, qs, ql, ps, pl, err);
    if (st != RT_OK)
        return st;
    uint32_t qi = query_index(L, rt_strtab_intern(L->qids, qs, ql));
    RT_GROW(L->raws, L->cap, L->nraw + 1);
    L->raws[L->nraw] = (raw){qi, rt_strtab_intern(L->pids, ps, pl), grade, (uint32_t)L->nraw, line};
    L->nraw++;
    return RT_OK;
}

/* How many record lines detection reads: enough to see a file's shape, bounded for big files.
 * A later line that does not fit the format chosen is an error naming its line, as always. */
#define DETECT_LINES 10000

static int is_grade(const rt_field *f)
{
    int32_t g;
    return rt_num_parse_int32(f->s, f->len, &g) == RT_NUM_OK;
}

/* The lines detection has read, kept for the loader: the input is read once, so standard input
 * and pipes load like files. */
typedef struct held {
    char *text;                 /* the lines, each NUL-terminated */
    size_t used, cap;
    size_t *at, *len, *no;      /* each line's start in text, length and line number */
    size_t n, ncap;
} held;

static void hold(held *h, const char *line, size_t len, size_t no)
{
    if (h->n == h->ncap) {
        h->ncap = h->ncap ? 2 * h->ncap : 256;
        h->at = rt_reallocarray(h->at, h->ncap, sizeof *h->at);
        h->len = rt_reallocarray(h->len, h->ncap, sizeof *h->len);
        h->no = rt_reallocarray(h->no, h->ncap, sizeof *h->no);
    }
    RT_GROW(h->text, h->cap, h->used + len + 1);
    memcpy(h->text + h->used, line, len);
    h->text[h->used + len] = 0;
    h->at[h->n] = h->used;
    h->len[h->n] = len;
    h->no[h->n++] = no;
    h->used += len + 1;
}

static void held_free(held *h)
{
    free(h->text);
    free(h->at);
    free(h->len);
    free(h->no);
}

/* Chooses the format in which every one of the first DETECT_LINES record lines of r parses:
 * DuReader JSON when they start with '{'; TSV (qid<TAB>pid[<TAB>grade], one column count
 * throughout) when every line reads as TSV; else TREC (qid iter pid grade, any blanks) when every
 * line reads as TREC. A file both ways (ids with spaces between tabs, "q 1<TAB>p1<TAB>1") is read
 * as TSV, since tabs are deliberate, and *ambiguous is set so the load report can say so. When no
 * format fits every line, the first line's shape decides and the loader names the line that
 * breaks it; AUTO (with *bad = 1) when even the first line fits none. Every line read is kept in
 * h; *rc is rt_reader_next's last result (-1: err says why the reading stopped). */
static rt_qrels_format detect(rt_reader *r, held *h, int *rc, int *ambiguous, size_t *bad, rt_err *err)
{
    *ambiguous = 0;
    *bad = 0;
    char *line;
    size_t len, seen = 0, tsv_cols = 0, first_not_tsv = 0, first_not_trec = 0;
    int first_shape = 0;   /* the first line's column counts: 1 TREC, 2 TSV */
    int json = -1;
    *rc = 1;
    while (seen < DETECT_LINES && (*rc = rt_reader_next(r, &line, &len, err)) == 1) {
        size_t no = rt_reader_lineno(r);
        hold(h, line, len, no);
        if (rt_field_line_skippable(line, len))
            continue;
        if (json < 0)
            json = rt_field_line_first(line, len) == '{';
        if (json)
            break;
        rt_field f[5];
        size_t nt = rt_field_split_tab(line, len, f, 5), nw0 = rt_field_split_ws(line, len, f, 5);
        if (!seen++)
            first_shape = nw0 == 4 ? 1 : nt == 2 || nt == 3 ? 2 : 0;
        nt = rt_field_split_tab(line, len, f, 5);
        if (!tsv_cols && (nt == 2 || nt == 3))
            tsv_cols = nt;
        if (!first_not_tsv && (nt != tsv_cols || (nt == 3 && !is_grade(&f[2]))))
            first_not_tsv = no;
        size_t nw = rt_field_split_ws(line, len, f, 5);
        if (!first_not_trec && (nw != 4 || !is_grade(&f[3])))
            first_not_trec = no;
        if (first_not_tsv && first_not_trec)
            break;
    }
    if (json > 0)
        return RT_QRELS_DUREADER;
    if (!seen)
        return RT_QRELS_TREC;   /* no record: the loader says the file is empty */
    if (!first_not_tsv) {
        *ambiguous = !first_not_trec;
        return RT_QRELS_TSV;
    }
    if (!first_not_trec)
        return RT_QRELS_TREC;
    if (first_shape)   /* the loader names the first line that breaks the first line's format */
        return first_shape == 1 ? RT_QRELS_TREC : RT_QRELS_TSV;
    *bad = first_not_tsv < first_not_trec ? first_not_tsv : first_not_trec;
    return RT_QRELS_AUTO;
}

static rt_status parse_grade(loader *L, const rt_field *f, size_t line, int32_t *g, rt_err *err)
{
    if (rt_num_parse_int32(f->s, f->len, g) != RT_NUM_OK)
        return rt_err_at(err, RT_EINPUT, L->path, line,
                         "expected an integer relevance grade, found \"%.*s\"",
                         (int)(f->len > 40 ? 40 : f->len), f->s);
    return RT_OK;
}

static rt_status parse_text_line(loader *L, rt_qrels_format fmt, const char *line, size_t len,
                                 size_t lineno, rt_err *err)
{
    rt_field f[5];
    int32_t grade = 1;
    if (fmt == RT_QRELS_TREC) {
        size_t n = rt_field_split_ws(line, len, f, 5);
        if (n != 4)
            return rt_err_at(err, RT_EINPUT, L->path, lineno,
                             "expected 4 columns (qid iter pid grade), found %zu", n);
        rt_status st = parse_grade(L, &f[3], lineno, &grade, err);
        if (st != RT_OK)
            return st;
        return add(L, f[0].s, f[0].len, f[2].s, f[2].len, grade, lineno, err);
    }
    size_t n = rt_field_split_tab(line, len, f, 5);
    if (!L->tsv_cols && (n == 2 || n == 3))
        L->tsv_cols = n;
    if (n != L->tsv_cols)
        return rt_err_at(err, RT_EINPUT, L->path, lineno,
                         L->tsv_cols == 3 ? "expected 3 tab-separated columns (qid, pid, grade) like line 1, found %zu"
                         : L->tsv_cols == 2 ? "expected 2 tab-separated columns (qid, pid) like line 1, found %zu"
                                            : "expected 2 or 3 tab-separated columns (qid, pid[, grade]), found %zu", n);
    if (n == 3) {
        rt_status st = parse_grade(L, &f[2], lineno, &grade, err);
        if (st != RT_OK)
            return st;
    }
    return add(L, f[0].s, f[0].len, f[1].s, f[1].len, grade, lineno, err);
}

/* A JSON id may be a string or an integer. Writes it to buf and returns its length, or -1. */
static rt_status parse_json_line(loader *L, const char *line, size_t len, size_t lineno, rt_err *err)
{
    if (rt_json_check_nul(L->path, lineno, line, len, err) != RT_OK)
        return RT_EINPUT;
    cJSON *o = cJSON_ParseWithLength(line, len);
    if (!o || !cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return rt_err_at(err, RT_EINPUT, L->path, lineno, "expected a JSON object per line");
    }
    rt_status st = RT_OK;
    char qb[32], pb[32];
    const char *qs, *ps;
    int ql = rt_json_id(cJSON_GetObjectItemCaseSensitive(o, "question_id"), qb, sizeof qb, &qs);
    const cJSON *ans = cJSON_GetObjectItemCaseSensitive(o, "answer_paragraphs");
    if (ql < 0)
        st = rt_err_at(err, RT_EINPUT, L->path, lineno, "expected a \"question_id\" string");
    else if (!cJSON_IsArray(ans))
        st = rt_err_at(err, RT_EINPUT, L->path, lineno, "expected an \"answer_paragraphs\" array");
    const cJSON *a;
    if (st == RT_OK) {
        cJSON_ArrayForEach(a, ans) {
            int pl = rt_json_id(cJSON_GetObjectItemCaseSensitive(a, "paragraph_id"), pb, sizeof pb, &ps);
            if (pl < 0) {
                st = rt_err_at(err, RT_EINPUT, L->path, lineno,
                               "expected {\"paragraph_id\": …} in \"answer_paragraphs\"");
                break;
            }
            st = add(L, qs, (size_t)ql, ps, (size_t)pl, 1, lineno, err);
            if (st != RT_OK)
                break;
        }
    }
    /* A question listed with no answer paragraph is still a judged query (with nothing relevant). */
    if (st == RT_OK && cJSON_GetArraySize(ans) == 0)
        query_index(L, rt_strtab_intern(L->qids, qs, (size_t)ql));
    cJSON_Delete(o);
    return st;
}

static int raw_cmp(const void *a, const void *b)
{
    const raw *x = a, *y = b;
    if (x->qi != y->qi)
        return x->qi < y->qi ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static rt_status finish(loader *L, const rt_load_opts *opts, rt_report *rep, rt_err *err)
{
    rt_qrels *q = L->q;
    if (L->nraw)   /* raws is NULL when every question had an empty answer list */
        qsort(L->raws, L->nraw, sizeof *L->raws, raw_cmp);
    q->j = rt_reallocarray(NULL, L->nraw ? L->nraw : 1, sizeof *q->j);
    q->start = rt_calloc((size_t)q->nq + 1, sizeof *q->start);
    size_t dups = 0, first_dup = 0, conflicting = 0;
    for (size_t i = 0; i < L->nraw; i++) {
        const raw *r = &L->raws[i];
        if (i > 0 && r->qi == L->raws[i - 1].qi && r->pid == L->raws[i - 1].pid) {
            if (opts && opts->strict)
                return rt_err_at(err, RT_EINPUT, L->path, r->line,
                                 "duplicate judgment for query %s, passage %s (strict mode)",
                                 rt_strtab_str(L->qids, q->qids[r->qi]), rt_strtab_str(L->pids, r->pid));
            if (!dups || r->line < first_dup)
                first_dup = r->line;
            dups++;
            if (r->grade != q->j[q->nj - 1].grade)
                conflicting++;
            continue;
        }
        q->j[q->nj++] = (rt_judgment){r->pid, r->grade};
        q->start[r->qi + 1] = (uint32_t)q->nj;
    }
    for (uint32_t i = 1; i <= q->nq; i++)
        if (q->start[i] < q->start[i - 1])
            q->start[i] = q->start[i - 1];
    mark_judged(q);
    rt_report_add(rep, RT_REPORT_INFO, "%s: %zu judgments for %u queries (%s)", L->path, q->nj,
                  q->nq, rt_qrels_format_name(q->format));
    if (dups)
        rt_report_add(rep, RT_REPORT_WARNING,
                      "%s:%zu: %zu duplicate judgments dropped, the first of each kept (%zu with a different grade)",
                      L->path, first_dup, dups, conflicting);
    return RT_OK;
}

/* Detects the format of r's content (the lines read kept in h; *rc as detect leaves it, and stop
 * why its reading stopped) and says an ambiguous one in rep; sets L->q->format. */
static rt_status detect_format(loader *L, rt_reader *r, held *h, int *rc, rt_err *stop, rt_report *rep,
                               rt_err *err)
{
    int ambiguous;
    size_t bad;
    rt_qrels_format fmt = detect(r, h, rc, &ambiguous, &bad, stop);
    if (*rc < 0 && fmt == RT_QRELS_AUTO && !bad)
        return rt_err_set(err, RT_EINPUT, "%s", stop->msg);
    if (fmt == RT_QRELS_AUTO)
        return rt_err_at(err, RT_EINPUT, L->path, bad,
                         "cannot tell the qrels format: expected \"qid iter pid grade\" or "
                         "\"qid<TAB>pid[<TAB>grade]\" on every line, or DuReader JSON lines");
    if (ambiguous)
        rt_report_add(rep, RT_REPORT_WARNING, "%s: every line reads both as TSV (qid<TAB>pid<TAB>grade) "
                      "and as TREC qrels with other ids; read as TSV (give --qrels-format trec if "
                      "that is wrong)", L->path);
    L->q->format = fmt;
    return RT_OK;
}

static rt_status load_line(loader *L, rt_qrels_format fmt, const char *line, size_t len, size_t no, rt_err *err)
{
    /* JSON lines have no comments: there only blank lines are skipped. */
    if (fmt == RT_QRELS_DUREADER ? rt_field_line_first(line, len) == 0 : rt_field_line_skippable(line, len))
        return RT_OK;
    return fmt == RT_QRELS_DUREADER ? parse_json_line(L, line, len, no, err)
                                    : parse_text_line(L, fmt, line, len, no, err);
}

static rt_status load_lines(loader *L, rt_qrels_format fmt, rt_report *rep, rt_err *err)
{
    rt_reader *r;
    rt_status st = rt_reader_open(&r, L->path, err);
    if (st != RT_OK)
        return st;
    held h = {0};
    int rc = 1;
    rt_err stop;   /* why detection's reading stopped (rc < 0): said after the lines it read */
    rt_err_clear(&stop);
    if (fmt == RT_QRELS_AUTO && (st = detect_format(L, r, &h, &rc, &stop, rep, err)) == RT_OK)
        fmt = L->q->format;
    for (size_t i = 0; st == RT_OK && i < h.n; i++)
        st = load_line(L, fmt, h.text + h.at[i], h.len[i], h.no[i], err);
    held_free(&h);
    if (st == RT_OK && rc < 0)
        st = rt_err_set(err, RT_EINPUT, "%s", stop.msg);
    char *line;
    size_t len;
    while (st == RT_OK && rc == 1 && (rc = rt_reader_next(r, &line, &len, err)) == 1)
        st = load_line(L, fmt, line, len, rt_reader_lineno(r), err);
    if (st == RT_OK && rc < 0)
        st = RT_EINPUT;
    if (st == RT_OK && L->nraw == 0 && L->q->nq == 0)
        st = rt_err_at(err, RT_EINPUT, L->path, 0, "no judgments found (empty qrels file)");
    rt_reader_close(&r);
    return st;
}

rt_status rt_qrels_load(rt_qrels **out, const char *path, rt_qrels_format fmt,
                        rt_strtab *qids, rt_strtab *pids, const rt_load_opts *opts,
                        rt_report *rep, rt_err *err)
{
    *out = NULL;
    loader L = {.q = rt_calloc(1, sizeof(rt_qrels)), .qids = qids, .pids = pids, .path = path};
    L.q->path = rt_strdup(path);
    L.q->format = fmt;
    rt_status st = load_lines(&L, fmt, rep, err);
    if (st == RT_OK)
        st = finish(&L, opts, rep, err);
    free(L.raws);
    if (st != RT_OK) {
        rt_qrels_free(&L.q);
        return st;
    }
    *out = L.q;
    return RT_OK;
}

void rt_qrels_free(rt_qrels **qp)
{
    if (!qp || !*qp)
        return;
    rt_qrels *q = *qp;
    free(q->path);
    free(q->judged);
    if (!q->mapped) {
        free(q->qids);
        free(q->index);
        free(q->start);
        free(q->j);
    }
    free(q);
    *qp = NULL;
}

rt_qrels_format rt_qrels_format_of(const rt_qrels *q) { return q->format; }
const char *rt_qrels_path(const rt_qrels *q) { return q->path; }
uint32_t rt_qrels_nqueries(const rt_qrels *q) { return q->nq; }
uint32_t rt_qrels_qid(const rt_qrels *q, uint32_t i) { return q->qids[i]; }
size_t rt_qrels_njudgments(const rt_qrels *q) { return q->nj; }

uint32_t rt_qrels_index(const rt_qrels *q, uint32_t qid)
{
    return qid < q->idx_len ? q->index[qid] : RT_NO_ID;
}

const rt_judgment *rt_qrels_judgments(const rt_qrels *q, uint32_t i, size_t *n)
{
    *n = q->start[i + 1] - q->start[i];
    return q->j + q->start[i];
}

int rt_qrels_lookup(const rt_qrels *q, uint32_t i, uint32_t pid, int32_t *grade)
{
    if (pid / 64 >= q->judged_words || !(q->judged[pid / 64] >> (pid % 64) & 1))
        return 0;
    size_t lo = q->start[i], hi = q->start[i + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (q->j[mid].pid < pid)
            lo = mid + 1;
        else if (q->j[mid].pid > pid)
            hi = mid;
        else {
            *grade = q->j[mid].grade;
            return 1;
        }
    }
    return 0;
}

/* ---- the image (the workspace cache) --------------------------------------------------------
 * u64 format, nq, idx_len, nj; u32 qids[nq]; u32 index[idx_len]; u32 start[nq + 1];
 * rt_judgment j[nj]; each section padded to 8 bytes. */

size_t rt_qrels_image_size(const rt_qrels *q)
{
    return 4 * 8 + RT_IMAGE_PAD((size_t)q->nq * 4) + RT_IMAGE_PAD(q->idx_len * 4) +
           RT_IMAGE_PAD(((size_t)q->nq + 1) * 4) + RT_IMAGE_PAD(q->nj * sizeof *q->j);
}

int rt_qrels_image_write(const rt_qrels *q, FILE *f)
{
    uint64_t head[4] = {(uint64_t)q->format, q->nq, q->idx_len, q->nj};
    rt_image_put(f, head, sizeof head);
    rt_image_put(f, q->qids, (size_t)q->nq * 4);
    rt_image_put(f, q->index, q->idx_len * 4);
    rt_image_put(f, q->start, ((size_t)q->nq + 1) * 4);
    rt_image_put(f, q->j, q->nj * sizeof *q->j);
    return ferror(f) ? -1 : 0;
}

rt_qrels *rt_qrels_attach(void *mem, size_t len, const char *path, uint32_t nqids, uint32_t npids)
{
    rt_image_cur c = {mem, (unsigned char *)mem + len, (uintptr_t)mem & 7};
    const uint64_t *head = rt_image_take(&c, 4, 8);
    if (!head || head[0] > RT_QRELS_DUREADER || head[1] > nqids || head[2] > len || head[3] > len)
        return NULL;
    size_t nq = (size_t)head[1], idx_len = (size_t)head[2], nj = (size_t)head[3];
    uint32_t *qids = rt_image_take(&c, nq, 4), *index = rt_image_take(&c, idx_len, 4);
    uint32_t *start = rt_image_take(&c, nq + 1, 4);
    rt_judgment *j = rt_image_take(&c, nj, sizeof *j);
    if (c.bad || c.p != c.end || start[0] != 0 || start[nq] != nj)
        return NULL;
    /* what lookups index with: judged queries and the qid index agree, the judgments of each
     * query lie in range and are sorted by pid (binary search), every pid is a known id */
    for (size_t i = 0; i < nq; i++)
        if (qids[i] >= idx_len || index[qids[i]] != i || start[i + 1] < start[i])
            return NULL;
    for (size_t k = 0; k < idx_len; k++)
        if (index[k] != RT_NO_ID && (index[k] >= nq || qids[index[k]] != k))
            return NULL;
    for (size_t i = 0; i < nq; i++)
        for (size_t k = start[i]; k < start[i + 1]; k++)
            if (j[k].pid >= npids || (k > start[i] && j[k].pid <= j[k - 1].pid))
                return NULL;
    rt_qrels *q = rt_calloc(1, sizeof *q);
    q->path = rt_strdup(path);
    q->format = (rt_qrels_format)head[0];
    q->qids = qids;
    q->nq = q->qcap = (uint32_t)nq;
    q->index = index;
    q->idx_len = idx_len;
    q->start = start;
    q->j = j;
    q->nj = nj;
    q->mapped = 1;
    mark_judged(q);
    return q;
}

/* ---- building qrels from another source ----------------------------------------------------- */

struct rt_qrels_builder {
    loader L;
};

rt_qrels_builder *rt_qrels_builder_new(const char *name, rt_strtab *qids, rt_strtab *pids)
{
    rt_qrels_builder *b = rt_calloc(1, sizeof *b);
    b->L.q = rt_calloc(1, sizeof(rt_qrels));
    b->L.q->path = rt_strdup(name);
    b->L.q->format = RT_QRELS_AUTO;
    b->L.qids = qids;
    b->L.pids = pids;
    b->L.path = b->L.q->path;
    return b;
}

rt_status rt_qrels_builder_add(rt_qrels_builder *b, const char *qid, size_t qid_len,
                               const char *pid, size_t pid_len, int32_t grade, size_t line,
                               rt_err *err)
{
    return add(&b->L, qid, qid_len, pid, pid_len, grade, line, err);
}

rt_status rt_qrels_builder_finish(rt_qrels_builder **bp, const rt_load_opts *opts,
                                  rt_report *report, rt_qrels **out, rt_err *err)
{
    rt_qrels_builder *b = *bp;
    *out = NULL;
    rt_status st = finish(&b->L, opts, report, err);
    free(b->L.raws);
    if (st == RT_OK)
        *out = b->L.q;
    else
        rt_qrels_free(&b->L.q);
    free(b);
    *bp = NULL;
    return st;
}
