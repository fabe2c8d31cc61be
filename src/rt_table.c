/* rt_table — writing a table in each export format, with each format's escaping. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_names.h"
#include "rt_num.h"
#include "rt_table.h"
#include "rt_text.h"

struct rt_table {
    size_t ncols, nrows, cap;
    char **head;
    char **cells;   /* row-major */
    char *note;     /* rt_table_note, or NULL */
    unsigned char *number;   /* ncols flags: rt_table_number */
};

rt_table *rt_table_new(size_t ncols, const char *const *headers)
{
    rt_table *t = rt_calloc(1, sizeof *t);
    t->ncols = ncols;
    t->head = rt_calloc(ncols, sizeof *t->head);
    t->number = rt_calloc(ncols ? ncols : 1, 1);
    for (size_t c = 0; c < ncols; c++)
        t->head[c] = rt_strdup(headers[c]);
    return t;
}

void rt_table_free(rt_table **tp)
{
    if (!tp || !*tp)
        return;
    rt_table *t = *tp;
    for (size_t c = 0; c < t->ncols; c++)
        free(t->head[c]);
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->head);
    free(t->cells);
    free(t->note);
    free(t->number);
    free(t);
    *tp = NULL;
}

void rt_table_add(rt_table *t, const char *const *cells)
{
    RT_GROW(t->cells, t->cap, (t->nrows + 1) * t->ncols);
    for (size_t c = 0; c < t->ncols; c++)
        t->cells[t->nrows * t->ncols + c] = rt_strdup(cells[c] ? cells[c] : "");
    t->nrows++;
}

void rt_table_number(rt_table *t, size_t col)
{
    if (col < t->ncols)
        t->number[col] = 1;
}

const rt_name rt_table_formats[] = {
    {"tsv", RT_TABLE_TSV}, {"csv", RT_TABLE_CSV}, {"json", RT_TABLE_JSON}, {"md", RT_TABLE_MD},
    {"markdown", RT_TABLE_MD}, {"latex", RT_TABLE_LATEX}, {"tex", RT_TABLE_LATEX}, {NULL, 0},
};

int rt_table_format_parse(const char *name, rt_table_format *fmt)
{
    int v;
    return rt_name_value(rt_table_formats, name, &v) ? (*fmt = (rt_table_format)v, 1) : 0;
}

/* Where the JSON number in s starts (after a leading '+', which JSON does not allow), or NULL
 * when s is not a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
 * Stricter than rt_num_parse_double on purpose: "inf", "0x1p3" or "007" must stay strings. */
static const char *json_number(const char *s)
{
    const char *start = *s == '+' ? s + 1 : s, *p = start;
    if (*p == '-' && start == s)
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return NULL;
    if (*p == '.') {
        if (!(*++p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p ? NULL : start;
}

static int numeric_column(const rt_table *t, size_t c)
{
    if (!t->number[c] || !t->nrows)
        return 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (!json_number(t->cells[r * t->ncols + c]))
            return 0;
    return 1;
}

/* Whether a Markdown or LaTeX column is set right-aligned: its cells are numbers, perhaps
 * marked (a significance '*') or "undefined", and at least one is a number. */
static int right_column(const rt_table *t, size_t c)
{
    int any = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *s = t->cells[r * t->ncols + c];
        if (strcmp(s, "undefined") == 0)
            continue;
        size_t len = strlen(s);
        while (len && s[len - 1] == '*')
            len--;
        char buf[64];
        if (len == 0 || len >= sizeof buf)
            return 0;
        memcpy(buf, s, len);
        buf[len] = 0;
        if (!json_number(buf))
            return 0;
        any = 1;
    }
    return any;
}

/* Text for a TSV cell: tabs and line ends would break the row, so they become spaces. */
static void put_tsv(const char *s, FILE *f)
{
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void put_csv(const char *s, FILE *f)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void rt_table_put_cell(const char *s, rt_table_format fmt, FILE *f)
{
    if (fmt == RT_TABLE_TSV)
        put_tsv(s, f);
    else
        put_csv(s, f);
}

void rt_json_put_string(const char *s, FILE *f)
{
    fputc('"', f);
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t k = rt_text_decode(s + i, len - i, &cp);
        if (cp == RT_TEXT_INVALID)
            fputs("\\ufffd", f);   /* JSON is UTF-8: a byte that is not stays out */
        else if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
            fprintf(f, "\\u%04x", (unsigned)cp);   /* controls, C1 included, never raw */
        else
            fwrite(s + i, 1, k, f);
        i += k;
    }
    fputc('"', f);
}

static void put_md(const char *s, FILE *f)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s == '\n' || *s == '\t' ? ' ' : *s, f);
    }
}

static void put_latex(const char *s, FILE *f)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': case '%': case '$': case '#': case '_': case '{': case '}':
            fprintf(f, "\\%c", *s);
            break;
        case '~': fputs("\\textasciitilde{}", f); break;
        case '^': fputs("\\textasciicircum{}", f); break;
        case '\\': fputs("\\textbackslash{}", f); break;
        case '\n': case '\t': fputc(' ', f); break;
        default: fputc(*s, f);
        }
    }
}

void rt_table_note(rt_table *t, const char *note)
{
    free(t->note);
    t->note = rt_strdup(note);
    for (char *c = t->note; *c; c++)   /* one comment line, which no "-->" can close early */
        if (*c == '\n' || *c == '\r' || (*c == '-' && c[1] == '-'))
            *c = ' ';
}

int rt_table_format_rounds(rt_table_format fmt)
{
    return fmt == RT_TABLE_MD || fmt == RT_TABLE_LATEX;
}

rt_status rt_table_write(const rt_table *t, rt_table_format fmt, FILE *f, rt_err *err)
{
    size_t nc = t->ncols;
    unsigned char *num = rt_calloc(nc ? nc : 1, 1), *right = rt_calloc(nc ? nc : 1, 1);
    for (size_t c = 0; c < nc; c++) {
        num[c] = (unsigned char)numeric_column(t, c);
        right[c] = (unsigned char)right_column(t, c);
    }
    switch (fmt) {
    case RT_TABLE_TSV:
    case RT_TABLE_CSV:
        for (size_t r = 0; r <= t->nrows; r++)
            for (size_t c = 0; c < nc; c++) {
                const char *s = r ? t->cells[(r - 1) * nc + c] : t->head[c];
                if (fmt == RT_TABLE_TSV)
                    put_tsv(s, f);
                else
                    put_csv(s, f);
                fputc(c + 1 < nc ? (fmt == RT_TABLE_TSV ? '\t' : ',') : '\n', f);
            }
        break;
    case RT_TABLE_JSON:
        fputs("[", f);
        for (size_t r = 0; r < t->nrows; r++) {
            fputs(r ? ",\n  {" : "\n  {", f);
            for (size_t c = 0; c < nc; c++) {
                if (c)
                    fputs(", ", f);
                rt_json_put_string(t->head[c], f);
                fputs(": ", f);
                if (num[c])
                    fputs(json_number(t->cells[r * nc + c]), f);
                else
                    rt_json_put_string(t->cells[r * nc + c], f);
            }
            fputs("}", f);
        }
        fputs(t->nrows ? "\n]\n" : "]\n", f);
        break;
    case RT_TABLE_MD:
        for (size_t c = 0; c < nc; c++) {
            fputs("| ", f);
            put_md(t->head[c], f);
            fputs(" ", f);
        }
        fputs("|\n", f);
        for (size_t c = 0; c < nc; c++)
            fputs(right[c] ? "|---:" : "|---", f);
        fputs("|\n", f);
        for (size_t r = 0; r < t->nrows; r++) {
            for (size_t c = 0; c < nc; c++) {
                fputs("| ", f);
                put_md(t->cells[r * nc + c], f);
                fputs(" ", f);
            }
            fputs("|\n", f);
        }
        if (t->note)
            fprintf(f, "\n<!-- %s -->\n", t->note);
        break;
    case RT_TABLE_LATEX:
        if (t->note)
            fprintf(f, "%% %s\n", t->note);
        fputs("\\begin{tabular}{", f);
        for (size_t c = 0; c < nc; c++)
            fputc(right[c] ? 'r' : 'l', f);
        fputs("}\n\\toprule\n", f);
        for (size_t c = 0; c < nc; c++) {
            put_latex(t->head[c], f);
            fputs(c + 1 < nc ? " & " : " \\\\\n", f);
        }
        fputs("\\midrule\n", f);
        for (size_t r = 0; r < t->nrows; r++)
            for (size_t c = 0; c < nc; c++) {
                put_latex(t->cells[r * nc + c], f);
                fputs(c + 1 < nc ? " & " : " \\\\\n", f);
            }
        fputs("\\bottomrule\n\\end{tabular}\n", f);
        break;
    }
    free(num);
    free(right);
    (void)err;
    return RT_OK;
}
