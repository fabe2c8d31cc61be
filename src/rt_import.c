/* rt_import — reads judgments and tags made elsewhere into operations, checking every line:
 * the header's columns are found by name among any number of them (a spreadsheet export may have
 * hundreds), and the fields of a line are walked, never copied into an array of fixed size. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_import.h"
#include "rt_journal.h"
#include "rt_mem.h"
#include "rt_field.h"
#include "rt_num.h"
#include "rt_id.h"
#include "rt_reader.h"

/* The columns of a TSV header: the index of each name, -1 when absent; n columns in all. */
typedef struct columns {
    long annotator, qid, pid, value;
    size_t n;
} columns;

/* The field that starts at *pos of the len bytes at line (tab-separated) into f; *pos moves past
 * it and its tab. 0 when the line has no field left. */
static int next_field(const char *line, size_t len, size_t *pos, int *done, rt_field *f)
{
    if (*done)
        return 0;
    const char *t = memchr(line + *pos, '\t', len - *pos);
    size_t e = t ? (size_t)(t - line) : len;
    *f = (rt_field){line + *pos, e - *pos};
    *pos = e + 1;
    *done = !t;
    return 1;
}

static int field_is(const rt_field *f, const char *name)
{
    return f->len == strlen(name) && memcmp(f->s, name, f->len) == 0;
}

/* Reads a header line into c: 1 when it names the columns the file needs, 0 when it is no such
 * header, -1 (err set) when it names a column twice. */
static int header(const char *line, size_t len, int tags, columns *c, const char *path, size_t no,
                  rt_err *err)
{
    const char *value = tags ? "category" : "grade";
    *c = (columns){-1, -1, -1, -1, 0};
    size_t pos = 0;
    int done = 0;
    rt_field f;
    for (long i = 0; next_field(line, len, &pos, &done, &f); i++) {
        long *slot = field_is(&f, "annotator") ? &c->annotator
                     : field_is(&f, "qid")     ? &c->qid
                     : field_is(&f, "pid")     ? &c->pid
                     : field_is(&f, value)     ? &c->value
                                                 : NULL;
        if (slot && *slot >= 0) {
            rt_err_at(err, RT_EINPUT, path, no, "the header has two \"%.*s\" columns (%ld and %ld)",
                      (int)f.len, f.s, *slot + 1, i + 1);
            return -1;
        }
        if (slot)
            *slot = i;
        c->n++;
    }
    return c->qid >= 0 && c->pid >= 0 && c->value >= 0;
}

/* The category written as s (len bytes): by id or name; else the digit of a category's key, as
 * the legend shows it; a number by position only in a taxonomy that gives no keys. */
static size_t find_category(const rt_taxonomy *tax, const char *s, size_t len)
{
    for (size_t i = 0; i < tax->ncats; i++)
        if ((strlen(tax->cats[i].id) == len && memcmp(tax->cats[i].id, s, len) == 0) ||
            (strlen(tax->cats[i].name) == len && memcmp(tax->cats[i].name, s, len) == 0))
            return i;
    if (len == 1 && s[0] >= '0' && s[0] <= '9') {
        size_t c = rt_taxonomy_by_key(tax, s[0]);
        if (c != (size_t)-1)
            return c;
    }
    for (size_t i = 0; i < tax->ncats; i++)
        if (tax->cats[i].key)
            return (size_t)-1;   /* keys are what a number means here */
    char *name = rt_strndup(s, len);
    size_t c = rt_taxonomy_find(tax, name);
    free(name);
    return c;
}

static rt_status add(rt_import *im, const char *path, size_t line, int tags, const rt_taxonomy *tax,
                     const char *who, const rt_field *q, const rt_field *p, const rt_field *v, rt_err *err)
{
    char shown[80];
    if (!who)
        return rt_err_at(err, RT_EUSAGE, path, line, "no annotator: the file has no annotator column (give --annotator NAME)");
    const char *why = rt_journal_name_problem(who);
    if (why)
        return rt_err_at(err, RT_EINPUT, path, line, "annotator \"%s\" cannot name a journal: %s",
                         rt_id_show(who, strlen(who), shown, sizeof shown), why);
    rt_status st = rt_id_check_pair(path, line, q->s, q->len, p->s, p->len, err);
    if (st != RT_OK)
        return st;
    int query_tag = tags && p->len == 1 && p->s[0] == '-';   /* as 'export --what tags' writes one */
    rt_op op = {.kind = tags ? RT_OP_TAG : RT_OP_LABEL, .qid = rt_strndup(q->s, q->len),
                .pid = query_tag ? NULL : rt_strndup(p->s, p->len)};
    if (tags) {
        size_t c = find_category(tax, v->s, v->len);
        if (c == (size_t)-1) {
            rt_op_clear(&op);
            return rt_err_at(err, RT_EINPUT, path, line, "unknown category \"%s\"",
                             rt_id_show(v->s, v->len, shown, sizeof shown));
        }
        op.cat = rt_strdup(tax->cats[c].id);
    } else if (rt_num_parse_int32(v->s, v->len, &op.grade) != RT_NUM_OK) {
        rt_op_clear(&op);
        return rt_err_at(err, RT_EINPUT, path, line, "the grade must be a whole number");
    } else {
        op.has_grade = 1;
    }
    size_t need = strlen(path) + 48;
    op.via = rt_malloc(need);
    snprintf(op.via, need, "import %s:%zu", path, line);
    RT_GROW(im->e, im->cap, im->n + 1);
    im->e[im->n++] = (rt_import_entry){rt_strdup(who), op};
    return RT_OK;
}

/* A data line of a file with a header. */
static rt_status table_line(rt_import *im, const char *path, size_t no, int tags, const rt_taxonomy *tax,
                            const char *annotator, const columns *col, const char *line, size_t len,
                            rt_err *err)
{
    rt_field f, q = {0}, p = {0}, v = {0}, a = {0};
    size_t pos = 0, n = 0;
    int done = 0;
    for (; next_field(line, len, &pos, &done, &f); n++) {
        long i = (long)n;
        if (i == col->qid)
            q = f;
        else if (i == col->pid)
            p = f;
        else if (i == col->value)
            v = f;
        else if (i == col->annotator)
            a = f;
    }
    if (n != col->n)
        return rt_err_at(err, RT_EINPUT, path, no, "%zu tab-separated fields; the header has %zu", n, col->n);
    if (col->annotator < 0)
        return add(im, path, no, tags, tax, annotator, &q, &p, &v, err);
    if (a.len == 0)   /* the column is there; this line's cell is not filled in */
        return rt_err_at(err, RT_EINPUT, path, no, "the annotator cell (column %ld) is empty",
                         col->annotator + 1);
    char *who = rt_strndup(a.s, a.len);
    rt_status st = add(im, path, no, tags, tax, who, &q, &p, &v, err);
    free(who);
    return st;
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

rt_status rt_import_read(rt_import *im, const char *path, int tags, const rt_taxonomy *tax,
                         const char *annotator, rt_err *err)
{
    if (tags && !tax)
        return rt_err_set(err, RT_EINPUT, "%s: tags need a taxonomy", path);
    rt_reader *r;
    rt_status st = rt_reader_open(&r, path, err);
    if (st != RT_OK)
        return st;
    size_t was = im->n;
    char *line;
    size_t len;
    int rc, first = 1, trec = 0;
    columns col = {0};
    while (st == RT_OK && (rc = rt_reader_next(r, &line, &len, err)) == 1) {
        size_t no = rt_reader_lineno(r);
        /* '#' comments only where no header says what the lines are: after a header, a line
         * is data, and an annotator may be called "#lead" */
        if (first || trec ? rt_field_line_skippable(line, len) : blank(line, len))
            continue;
        if (first) {
            first = 0;
            int h = header(line, len, tags, &col, path, no, err);
            if (h < 0) {
                st = RT_EINPUT;
                break;
            }
            if (h)
                continue;
            if (col.qid >= 0 && col.pid >= 0) {   /* a header, of the other kind of file */
                st = rt_err_at(err, RT_EINPUT, path, no, "the header has no \"%s\" column (%s)",
                               tags ? "category" : "grade",
                               tags ? "judgments are imported with --judgments" : "tags are imported with --tags");
                break;
            }
            if (tags) {
                st = rt_err_at(err, RT_EINPUT, path, no, "a tags file starts with a header line: "
                               "[annotator<TAB>]qid<TAB>pid<TAB>category");
                break;
            }
            trec = 1;
        }
        if (trec) {
            rt_field f[4];   /* rt_field_split_ws keeps at most 4 and counts them all */
            size_t nf = rt_field_split_ws(line, len, f, 4);
            if (nf != 4) {
                st = rt_err_at(err, RT_EINPUT, path, no, "expected a header line (annotator qid pid grade) "
                               "or TREC qrels (qid iteration pid grade), got %zu fields", nf);
                break;
            }
            st = add(im, path, no, tags, tax, annotator, &f[0], &f[2], &f[3], err);
            continue;
        }
        st = table_line(im, path, no, tags, tax, annotator, &col, line, len, err);
    }
    if (st == RT_OK && rc < 0)
        st = RT_EINPUT;
    if (st == RT_OK && first)
        st = rt_err_set(err, RT_EINPUT, "%s: nothing to import (the file is empty)", path);
    rt_reader_close(&r);
    if (st != RT_OK) {   /* nothing of a file that failed */
        for (size_t i = was; i < im->n; i++) {
            rt_op_clear(&im->e[i].op);
            free(im->e[i].annotator);
        }
        im->n = was;
    }
    return st;
}

static int entry_cmp(const void *x, const void *y)
{
    const rt_import_entry *a = x, *b = y;
    int c = strcmp(a->annotator, b->annotator);
    if (!c)
        c = (int)a->op.kind - (int)b->op.kind;
    if (!c)
        c = strcmp(a->op.qid, b->op.qid);
    if (!c)
        c = strcmp(a->op.pid ? a->op.pid : "", b->op.pid ? b->op.pid : "");
    if (!c && a->op.cat)
        c = strcmp(a->op.cat, b->op.cat);
    return c;
}

/* (Stable file order is not needed: a repeated line is either the same decision, dropped, or a
 * conflict, refused.) */
rt_status rt_import_dedupe(rt_import *im, rt_err *err)
{
    if (im->n > 1)
        qsort(im->e, im->n, sizeof *im->e, entry_cmp);
    size_t k = 0;
    for (size_t i = 0; i < im->n; i++) {
        if (k && entry_cmp(&im->e[k - 1], &im->e[i]) == 0) {
            const rt_op *a = &im->e[k - 1].op, *b = &im->e[i].op;
            if (a->kind == RT_OP_LABEL && a->grade != b->grade) {
                char who[80], qs[80], ps[80];
                rt_id_show(im->e[i].annotator, strlen(im->e[i].annotator), who, sizeof who);
                rt_id_show(b->qid, strlen(b->qid), qs, sizeof qs);
                rt_id_show(b->pid, strlen(b->pid), ps, sizeof ps);
                rt_err_set(err, RT_EINPUT, "%s: %s judged %s %s as %d, and as %d at %s", b->via + 7, who, qs,
                           ps, (int)b->grade, (int)a->grade, a->via + 7);
                /* each entry once in [0, n) again, for rt_import_clear */
                memmove(&im->e[k], &im->e[i], (im->n - i) * sizeof *im->e);
                im->n = k + (im->n - i);
                return RT_EINPUT;
            }
            rt_op_clear(&im->e[i].op);
            free(im->e[i].annotator);
            continue;
        }
        im->e[k++] = im->e[i];
    }
    im->n = k;
    return RT_OK;
}

void rt_import_clear(rt_import *im)
{
    for (size_t i = 0; i < im->n; i++) {
        rt_op_clear(&im->e[i].op);
        free(im->e[i].annotator);
    }
    free(im->e);
    *im = (rt_import){0};
}
