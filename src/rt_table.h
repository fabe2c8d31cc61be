/* rt_table — a small table of text cells written as TSV, CSV, JSON (array of objects),
 * Markdown or LaTeX (booktabs), for every table retriage exports. */
#ifndef RT_TABLE_H
#define RT_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "rt_err.h"
#include "rt_names.h"

typedef enum rt_table_format {
    RT_TABLE_TSV = 0,
    RT_TABLE_CSV,
    RT_TABLE_JSON,
    RT_TABLE_MD,
    RT_TABLE_LATEX,
} rt_table_format;

typedef struct rt_table rt_table;

/* A table with ncols columns titled by headers (copied). Owned: the caller frees it with
 * rt_table_free. */
rt_table *rt_table_new(size_t ncols, const char *const *headers);
void rt_table_free(rt_table **t);

/* Appends a row of ncols cells (copied). In Markdown and LaTeX a column whose cells are numbers
 * is right-aligned. */
void rt_table_add(rt_table *t, const char *const *cells);

/* Declares column col a measure (a count, a share, a value): JSON writes its cells as numbers
 * when every one of them is a number in JSON's grammar. Every other column is text and JSON
 * writes it as strings whatever it holds, so an id ("007", "+5", a 19-digit qid) keeps its
 * spelling: a column's type is said by the code that builds it, never guessed from its cells. */
void rt_table_number(rt_table *t, size_t col);

/* A note about the whole table (e.g. "values rounded to 4 decimal places"): written as a comment
 * where the format has one (Markdown <!-- -->, LaTeX %), never into TSV, CSV or JSON. */
void rt_table_note(rt_table *t, const char *note);

/* True for the formats meant to be read by a person (Markdown, LaTeX), which round values. */
int rt_table_format_rounds(rt_table_format fmt);

/* The names of the values (rt_names). */
extern const rt_name rt_table_formats[];

/* Parses "tsv", "csv", "json", "md" / "markdown", "latex" / "tex"; returns 0 when unknown. */
int rt_table_format_parse(const char *name, rt_table_format *fmt);

/* Writes s as a JSON string literal (quotes, backslashes and control characters escaped). */
void rt_json_put_string(const char *s, FILE *f);

/* Writes the table to out. A write error is left on the stream (ferror) for the caller, who
 * knows the file's name, to report with its reason: rt_outfile_commit for a file, a flush of
 * standard output otherwise. Returns RT_OK (err is kept for errors of its own to come). */
rt_status rt_table_write(const rt_table *t, rt_table_format fmt, FILE *out, rt_err *err);

/* Writes one cell's text as rt_table_write does for fmt (RT_TABLE_TSV: tabs and line ends become
 * spaces; RT_TABLE_CSV: quoted when needed): for a writer that streams rows itself. */
void rt_table_put_cell(const char *s, rt_table_format fmt, FILE *f);

#endif
