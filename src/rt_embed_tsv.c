/* rt_embed_tsv — the text embedding loader: one vector a line, components separated by tabs
 * (or, in a file whose first vector line has no tab, by spaces, as numpy.savetxt writes them),
 * optionally after an id column. Blank lines and '#' comments are skipped. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_embed_load.h"
#include "rt_mem.h"
#include "rt_field.h"
#include "rt_num.h"
#include "rt_id.h"
#include "rt_reader.h"

typedef struct tsv_state {
    const char *path;
    rt_embed *e;
    size_t cap;          /* rows allocated */
    int tabs;            /* split at tabs (else at blanks) */
    int has_id;
    size_t first_line;   /* the line that fixed d */
    rt_field *f;         /* fields of the current line */
    size_t fcap;
} tsv_state;

static size_t split(tsv_state *s, const char *line, size_t len)
{
    for (;;) {
        size_t nf = s->tabs ? rt_field_split_tab(line, len, s->f, s->fcap)
                            : rt_field_split_ws(line, len, s->f, s->fcap);
        if (nf <= s->fcap)
            return nf;
        s->fcap = nf;
        s->f = rt_reallocarray(s->f, s->fcap, sizeof *s->f);
    }
}

/* The first vector line fixes the separator, whether there is an id column, and d. */
static rt_status first_line(tsv_state *s, rt_embed_idcol ids, const char *line, size_t len,
                            size_t no, rt_err *err)
{
    s->tabs = memchr(line, '\t', len) != NULL;
    size_t nf = split(s, line, len);
    double v;
    s->has_id = ids == RT_EMBED_IDS_YES ||
                (ids == RT_EMBED_IDS_AUTO && rt_num_parse_double(s->f[0].s, s->f[0].len, &v) == RT_NUM_BAD);
    if (nf <= (size_t)s->has_id)
        return rt_err_at(err, RT_EINPUT, s->path, no, "expected %snumbers",
                         s->has_id ? "an id, then " : "");
    s->e->d = nf - (size_t)s->has_id;
    if (s->e->d > RT_EMBED_MAX_DIM)
        return rt_err_at(err, RT_EINPUT, s->path, no,
                         "%zu numbers on a line is implausible (at most %u)",
                         s->e->d, RT_EMBED_MAX_DIM);
    s->first_line = no;
    if (s->has_id)
        s->e->ids = rt_strtab_new();
    return RT_OK;
}

static rt_status add_id(tsv_state *s, const rt_field *id, size_t no, rt_err *err)
{
    rt_embed *e = s->e;
    const char *why = rt_id_problem(id->s, id->len);
    if (why)
        return rt_err_at(err, RT_EINPUT, s->path, no, "bad id: %s", why);
    uint32_t k = rt_strtab_intern(e->ids, id->s, id->len);
    if (k != e->n) {
        char show[96];
        return rt_err_at(err, RT_EINPUT, s->path, no, "id '%s' repeated (first on line %zu)",
                         rt_id_show(id->s, id->len, show, sizeof show), e->lines[k]);
    }
    return RT_OK;
}

static rt_status parse_row(tsv_state *s, const char *line, size_t len, size_t no, rt_err *err)
{
    rt_embed *e = s->e;
    size_t nf = split(s, line, len);
    if (nf != e->d + (size_t)s->has_id)
        return rt_err_at(err, RT_EINPUT, s->path, no,
                         "expected %s%zu numbers (as on line %zu), found %zu",
                         s->has_id ? "an id and " : "", e->d, s->first_line, nf - (size_t)s->has_id);
    if (s->has_id) {
        rt_status st = add_id(s, &s->f[0], no, err);
        if (st != RT_OK)
            return st;
    }
    if (e->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        e->x = rt_reallocarray(e->x, s->cap, e->d * sizeof *e->x);
        e->lines = rt_reallocarray(e->lines, s->cap, sizeof *e->lines);
    }
    float *row = e->x + e->n * e->d;
    for (size_t j = 0; j < e->d; j++) {
        const rt_field *fl = &s->f[j + (size_t)s->has_id];
        double v = 0;
        rt_num_status ns = rt_num_parse_double(fl->s, fl->len, &v);
        char show[96];
        if (ns == RT_NUM_BAD)
            return rt_err_at(err, RT_EINPUT, s->path, no, "component %zu: expected a number, found '%s'",
                             j + 1, rt_id_show(fl->s, fl->len, show, sizeof show));
        row[j] = (float)v;
        if (ns == RT_NUM_NONFINITE || !isfinite(row[j]))
            return rt_err_at(err, RT_EINPUT, s->path, no, "component %zu is not a finite float32 ('%s')",
                             j + 1, rt_id_show(fl->s, fl->len, show, sizeof show));
    }
    e->lines[e->n++] = no;
    return RT_OK;
}

rt_status rt_embed_load_tsv(rt_embed **out, const char *path, rt_embed_idcol ids, rt_err *err)
{
    *out = NULL;
    rt_reader *r;
    rt_status st = rt_reader_open(&r, path, err);
    if (st != RT_OK)
        return st;
    tsv_state s = {.path = path, .e = rt_calloc(1, sizeof *s.e), .fcap = 64};
    s.f = rt_reallocarray(NULL, s.fcap, sizeof *s.f);
    char *line;
    size_t len;
    int rc = 0;
    while (st == RT_OK && (rc = rt_reader_next(r, &line, &len, err)) == 1) {
        size_t no = rt_reader_lineno(r);
        if (rt_field_line_skippable(line, len))
            continue;
        if (s.e->d == 0)
            st = first_line(&s, ids, line, len, no, err);
        if (st == RT_OK)
            st = parse_row(&s, line, len, no, err);
    }
    if (st == RT_OK && rc < 0)
        st = RT_EINPUT;
    if (st == RT_OK && s.e->n == 0)
        st = rt_err_at(err, RT_EINPUT, path, 0, "no vectors found (empty file)");
    rt_reader_close(&r);
    free(s.f);
    if (st != RT_OK)
        rt_embed_free(&s.e);
    *out = s.e;
    return st;
}
