/* rt_embed — embedding matrices (n rows × d float32, row-major, owned) made by the user's own
 * model: loaded from .npy, .fvecs or TSV of floats, aligned to a query file (rows in its order,
 * or keyed by ids), and L2-normalised so that inner product is cosine similarity. */
#ifndef RT_EMBED_H
#define RT_EMBED_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_queries.h"
#include "rt_strtab.h"

typedef struct rt_embed {
    size_t n, d;
    float *x;          /* n * d floats; row i starts at x + i * d */
    rt_strtab *ids;    /* row ids (row i has id i) from a TSV id column, or NULL */
    size_t *lines;     /* the file line of each row (TSV), for messages; or NULL */
} rt_embed;

typedef enum rt_embed_format {
    RT_EMBED_AUTO = 0, /* from the extension (.npy, .fvecs, .tsv/.txt), else from the content */
    RT_EMBED_NPY,      /* NumPy .npy: dtype '<f4', C order, shape (n, d) */
    RT_EMBED_FVECS,    /* each vector: int32 d, then d float32 (little-endian) */
    RT_EMBED_TSV,      /* one vector a line: floats separated by tabs (or, without tabs, spaces) */
} rt_embed_format;

typedef enum rt_embed_idcol {
    RT_EMBED_IDS_AUTO = 0, /* TSV: the first column is an id when it is not a number on the
                              first line */
    RT_EMBED_IDS_YES,      /* TSV: the first column is always an id (for numeric qids) */
    RT_EMBED_IDS_NO,       /* TSV: every column is a component */
} rt_embed_idcol;

typedef struct rt_embed_opts {
    rt_embed_format format;
    rt_embed_idcol ids;
} rt_embed_opts;

/* A zeroed n × d matrix without ids. Owned: the caller frees it with rt_embed_free. */
rt_embed *rt_embed_new(size_t n, size_t d);
/* Frees e and its ids, and sets *e to NULL. */
void rt_embed_free(rt_embed **e);

/* The names of the values (rt_names). */
extern const rt_name rt_embed_formats[], rt_embed_idcols[];

/* Parses "auto", "npy", "fvecs", "tsv"; returns 0 when unknown. */
int rt_embed_format_parse(const char *name, rt_embed_format *fmt);
/* The name of fmt, or "?". Borrowed: a static string, valid for the life of the program. */
const char *rt_embed_format_name(rt_embed_format fmt);
/* Parses "auto", "yes", "no"; returns 0 when unknown. */
int rt_embed_idcol_parse(const char *name, rt_embed_idcol *ids);

/* Loads path (o may be NULL: auto-detected, ids auto) into a new matrix *out. Every component
 * must be finite and every row must have the same dimension d ≥ 1; an empty file, a truncated
 * one, a wrong .npy dtype (only '<f4'), Fortran order or a shape that is not 2-D are errors
 * (RT_EINPUT) naming the file, and the line (TSV), the vector (.fvecs) or the row (.npy, counted
 * from 0). A repeated id is an error. Rows are not normalised. */
rt_status rt_embed_load(rt_embed **out, const char *path, const rt_embed_opts *o, rt_err *err);

/* Makes row i of e the vector of ids[i], for i < n. When e has ids, rows are looked up by id:
 * an id of ids without a row, or a row whose id is not in ids, is an error; otherwise e must
 * have exactly n rows (the order is taken as given). path names e's file and queries the file
 * the ids come from, for messages. */
rt_status rt_embed_align(rt_embed *e, const char *const *ids, size_t n, const char *path,
                         const char *queries, rt_err *err);

/* Scales every row to unit L2 norm. A zero row cannot be given a direction, so it is an error
 * naming the row (its line and id when known). path names e's file for messages. */
rt_status rt_embed_normalize(rt_embed *e, const char *path, rt_err *err);

/* rt_embed_load, then rt_embed_align to the queries of q in file order (their qids are looked up
 * in qids, the table q was loaded with), then rt_embed_normalize: row i of *out is the unit
 * vector of the i-th query of queries_path. */
rt_status rt_embed_load_queries(rt_embed **out, const char *path, const rt_embed_opts *o,
                                const rt_queries *q, const rt_strtab *qids,
                                const char *queries_path, rt_err *err);

#endif
