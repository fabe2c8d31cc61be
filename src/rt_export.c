/* rt_export — writing qrels, tags, breakdowns and metric tables from a session. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_breakdown.h"
#include "rt_export.h"
#include "rt_facets.h"
#include "rt_figure.h"
#include "rt_leakage.h"
#include "rt_mem.h"
#include "rt_names.h"
#include "rt_id.h"
#include "rt_file.h"
#include "rt_outguard.h"
#include "rt_leak.h"

const rt_name rt_export_whats[] = {
    {"qrels", RT_EXPORT_QRELS}, {"qrels-diff", RT_EXPORT_QRELS_DIFF}, {"tags", RT_EXPORT_TAGS},
    {"breakdown", RT_EXPORT_BREAKDOWN}, {"metrics", RT_EXPORT_METRICS},
    {"per-query", RT_EXPORT_PER_QUERY}, {"leakage", RT_EXPORT_LEAKAGE}, {"disputes", RT_EXPORT_DISPUTES},
    {"figure-delta", RT_EXPORT_FIG_DELTA}, {"figure-hist", RT_EXPORT_FIG_HIST},
    {"figure-before-after", RT_EXPORT_FIG_BEFORE_AFTER}, {"leak-pairs", RT_EXPORT_LEAK_PAIRS},
    {"leak-types", RT_EXPORT_LEAK_TYPES}, {NULL, 0},
};

int rt_export_what_parse(const char *name, rt_export_what *w)
{
    int v;
    return rt_name_value(rt_export_whats, name, &v) ? (*w = (rt_export_what)v, 1) : 0;
}

rt_status rt_export_format(rt_export_what what, const char *name, rt_table_format *fmt, rt_err *err)
{
    int qrels = what == RT_EXPORT_QRELS || what == RT_EXPORT_QRELS_DIFF;
    int figure = what >= RT_EXPORT_FIG_DELTA && what <= RT_EXPORT_FIG_BEFORE_AFTER;
    if (figure || (name && strcmp(name, "svg") == 0)) {
        if (!figure)
            return rt_err_set(err, RT_EUSAGE, "--format svg is for the figures (figure-delta, figure-hist, "
                              "figure-before-after)");
        if (name && strcmp(name, "svg") != 0)
            return rt_err_set(err, RT_EUSAGE, "the figures are written as svg");
        *fmt = RT_EXPORT_SVG;
        return RT_OK;
    }
    if (!name) {
        *fmt = qrels ? RT_EXPORT_TREC : RT_TABLE_TSV;
        return RT_OK;
    }
    if (strcmp(name, "trec") == 0) {
        if (!qrels)
            return rt_err_set(err, RT_EUSAGE, "--format trec is for qrels and qrels-diff");
        *fmt = RT_EXPORT_TREC;
        return RT_OK;
    }
    char valid[128];
    if (!rt_table_format_parse(name, fmt))
        return rt_err_set(err, RT_EUSAGE, "unknown format \"%s\" (trec, %s)", name,
                          rt_name_list(rt_table_formats, valid, sizeof valid));
    if (what == RT_EXPORT_QRELS)
        return rt_err_set(err, RT_EUSAGE, "qrels are written in TREC format (use qrels-diff for a table of changes)");
    if (what == RT_EXPORT_TAGS && *fmt != RT_TABLE_TSV && *fmt != RT_TABLE_JSON && *fmt != RT_TABLE_CSV)
        return rt_err_set(err, RT_EUSAGE, "tags are written as tsv, csv or json");
    return RT_OK;
}

/* ---- qrels ------------------------------------------------------------------------------- */

/* TREC qrels are split at blanks: an id holding one would not read back as written. Checks
 * every id the TREC output could name (base judgments and relabels) before anything is written. */
static rt_status trec_ids_ok(const rt_session *s, rt_err *err)
{
    const rt_workspace *ws = s->ws;
    const char *bad = NULL, *what = "";
    for (uint32_t i = 0; !bad && i < rt_qrels_nqueries(ws->qrels); i++) {
        uint32_t q = rt_qrels_qid(ws->qrels, i);
        size_t nj;
        const rt_judgment *j = rt_qrels_judgments(ws->qrels, i, &nj);
        if (!rt_id_trec_safe(rt_strtab_str(ws->qids, q)))
            bad = rt_strtab_str(ws->qids, q), what = "query id";
        for (size_t k = 0; !bad && k < nj; k++)
            if (!rt_id_trec_safe(rt_strtab_str(ws->pids, j[k].pid)))
                bad = rt_strtab_str(ws->pids, j[k].pid), what = "passage id";
    }
    for (uint32_t q = 0; !bad && q < rt_strtab_count(ws->qids); q++) {
        size_t nl;
        const rt_label *l = rt_annot_labels(s->annot, q, &nl);
        if (nl && !rt_id_trec_safe(rt_strtab_str(ws->qids, q)))
            bad = rt_strtab_str(ws->qids, q), what = "query id";
        for (size_t k = 0; !bad && k < nl; k++)
            if (!rt_id_trec_safe(rt_strtab_str(ws->pids, l[k].pid)))
                bad = rt_strtab_str(ws->pids, l[k].pid), what = "passage id";
    }
    if (!bad)
        return RT_OK;
    char shown[128];
    return rt_err_set(err, RT_EUSAGE, "%s \"%s\" contains a blank: a TREC line could not be read back "
                      "(export qrels-diff as --format tsv, csv or json instead)", what,
                      rt_id_show(bad, strlen(bad), shown, sizeof shown));
}

static int write_judgment(FILE *f, const rt_workspace *ws, uint32_t qid, uint32_t pid, int32_t g)
{
    return fprintf(f, "%s 0 %s %d\n", rt_strtab_str(ws->qids, qid), rt_strtab_str(ws->pids, pid), (int)g);
}

/* The current qrels: each base query's judgments with relabels applied and added, then queries
 * judged only by relabels (in id order). */
static void write_qrels(const rt_session *s, FILE *f)
{
    const rt_workspace *ws = s->ws;
    uint32_t nb = rt_qrels_nqueries(ws->qrels);
    for (uint32_t i = 0; i < nb; i++) {
        uint32_t qid = rt_qrels_qid(ws->qrels, i);
        size_t nj, nl;
        const rt_judgment *j = rt_qrels_judgments(ws->qrels, i, &nj);
        for (size_t k = 0; k < nj; k++) {
            const rt_label *l = rt_annot_label(s->annot, qid, j[k].pid);
            write_judgment(f, ws, qid, j[k].pid, l ? l->grade : j[k].grade);
        }
        const rt_label *l = rt_annot_labels(s->annot, qid, &nl);
        for (size_t k = 0; k < nl; k++)
            if (!rt_qrels_lookup(ws->qrels, i, l[k].pid, &(int32_t){0}))
                write_judgment(f, ws, qid, l[k].pid, l[k].grade);
    }
    for (uint32_t qid = 0; qid < rt_strtab_count(ws->qids); qid++) {
        size_t nl;
        const rt_label *l = rt_annot_labels(s->annot, qid, &nl);
        if (nl && rt_qrels_index(ws->qrels, qid) == RT_NO_ID)
            for (size_t k = 0; k < nl; k++)
                write_judgment(f, ws, qid, l[k].pid, l[k].grade);
    }
}

static void diff_rows(const rt_session *s, FILE *f, rt_table *t)
{
    const rt_workspace *ws = s->ws;
    for (uint32_t qid = 0; qid < rt_strtab_count(ws->qids); qid++) {
        size_t nl;
        const rt_label *l = rt_annot_labels(s->annot, qid, &nl);
        for (size_t k = 0; k < nl; k++) {
            int32_t base;
            int judged = rt_workspace_grade(ws, qid, l[k].pid, &base);
            if (judged && base == l[k].grade)
                continue;
            if (f) {
                write_judgment(f, ws, qid, l[k].pid, l[k].grade);
                continue;
            }
            char b[16], c[16], when[32];
            snprintf(b, sizeof b, "%d", (int)base);
            snprintf(c, sizeof c, "%d", (int)l[k].grade);
            rt_op_format_time(l[k].prov.time_ms, when, sizeof when);
            const char *row[] = {rt_strtab_str(ws->qids, qid), rt_strtab_str(ws->pids, l[k].pid),
                                 judged ? b : "", c, l[k].prov.author, when};
            rt_table_add(t, row);
        }
    }
}

/* ---- tags -------------------------------------------------------------------------------- */

static rt_table *tags_table(const rt_session *s)
{
    const rt_workspace *ws = s->ws;
    const rt_taxonomy *tax = ws->taxonomy;
    const char *h[] = {"qid", "pid", "group", "category", "note", "author", "time"};
    rt_table *t = rt_table_new(7, h);
    for (uint32_t qid = 0; qid < rt_strtab_count(ws->qids); qid++) {
        size_t n;
        const rt_tag *tg = rt_annot_tags(s->annot, qid, &n);
        for (size_t i = 0; i < n; i++) {
            char when[32];
            rt_op_format_time(tg[i].prov.time_ms, when, sizeof when);
            const char *pid = tg[i].pid == RT_NO_ID ? "-" : rt_strtab_str(ws->pids, tg[i].pid);
            const char *note = tg[i].note ? tg[i].note : "";
            const char *row[] = {rt_strtab_str(ws->qids, qid), pid, "", "", note, tg[i].prov.author, when};
            if (!tg[i].cats)
                rt_table_add(t, row);
            for (size_t c = 0; c < tax->ncats; c++)
                if (tg[i].cats >> c & 1) {
                    row[2] = tax->groups[tax->cats[c].group];
                    row[3] = tax->cats[c].id;
                    rt_table_add(t, row);
                }
        }
    }
    return t;
}

/* ---- metrics ----------------------------------------------------------------------------- */

static int in_scope(const rt_export_opts *o, uint32_t q)
{
    for (size_t i = 0; i < o->nqids; i++)
        if (o->qids[i] == q)
            return 1;
    return 0;
}

/* A measure's value as a cell: full precision (17 significant digits, as eval prints) in the
 * formats a program reads (TSV, CSV, JSON), rounded by rt_measure_format (4 decimals) in
 * Markdown and LaTeX, whose tables then say so. */
static void value_cell(const rt_export_opts *o, const rt_measure *m, double v, int signed_, char *buf, size_t n)
{
    if (rt_table_format_rounds(o->format))
        rt_measure_format(m, v, signed_, buf, n);
    else
        snprintf(buf, n, "%.17g", v == 0 ? 0.0 : v);   /* no "-0" */
}

static void note_rounding(const rt_export_opts *o, rt_table *t)
{
    if (t && rt_table_format_rounds(o->format))
        rt_table_note(t, "values rounded to 4 decimal places; TSV, CSV and JSON carry full precision");
}

/* Metrics per value of a facet (DuReader's per-question-type table): run, measure, the facet's
 * value, base, current, delta and the queries of the value. Queries without a value are "-". */
static rt_table *facet_table(const rt_session *s, const rt_export_opts *o)
{
    const rt_workspace *ws = s->ws;
    const rt_facets *fs = o->facets ? o->facets : ws->facets;
    const rt_facet *fc = &fs->f[o->by];
    const char *h[] = {"run", "measure", fc->name, "base", "current", "delta", "queries"};
    rt_table *t = rt_table_new(7, h);
    for (size_t c = 3; c < 7; c++)
        rt_table_number(t, c);
    double *bm = rt_calloc(ws->nm + 1, sizeof *bm), *cm = rt_calloc(ws->nm + 1, sizeof *cm);
    size_t *bn = rt_calloc(ws->nm + 1, sizeof *bn), *cn = rt_calloc(ws->nm + 1, sizeof *cn);
    uint32_t *sub = rt_calloc(ws->nq + 1, sizeof *sub);
    for (size_t r = 0; r < ws->nruns; r++)
        for (size_t v = 0; v <= fc->nv; v++) {   /* fc->nv: the queries without a value */
            size_t n = 0;
            for (size_t i = 0; i < ws->nq; i++) {
                uint32_t q = ws->qlist[i];
                size_t qv = rt_facet_value(fs, o->by, q);
                if ((v == fc->nv ? qv == (size_t)-1 : qv == v) && (!o->qids || in_scope(o, q)))
                    sub[n++] = q;
            }
            if (!n)
                continue;
            rt_live_means(s->live, r, sub, n, bm, bn, cm, cn);
            int judged = 0;   /* (a measure undefined on every query, MFR say, still has its row) */
            for (size_t i = 0; i < n && !judged; i++)
                judged = rt_live_is_judged(s->live, sub[i]);
            for (size_t m = 0; m < ws->nm; m++) {
                if (!judged && !cn[m] && !bn[m])
                    continue;   /* none of them judged */
                char b[32], c[32], d[32], q[32];
                value_cell(o, &ws->ms[m], bm[m], 0, b, sizeof b);
                value_cell(o, &ws->ms[m], cm[m], 0, c, sizeof c);
                value_cell(o, &ws->ms[m], cm[m] - bm[m], 1, d, sizeof d);
                snprintf(q, sizeof q, "%zu", cn[m]);
                const char *row[] = {rt_run_name(ws->runs[r].run), ws->ms[m].name, v == fc->nv ? "-" : fc->values[v],
                                     b, c, d, q};
                rt_table_add(t, row);
            }
        }
    free(sub);
    free(bm);
    free(cm);
    free(bn);
    free(cn);
    return t;
}

static rt_table *metrics_table(const rt_session *s, const rt_export_opts *o)
{
    if (o->split)
        return facet_table(s, o);
    const rt_workspace *ws = s->ws;
    const char *h[] = {"run", "measure", "base", "current", "delta", "queries"};
    rt_table *t = rt_table_new(6, h);
    for (size_t c = 2; c < 6; c++)
        rt_table_number(t, c);
    double *bm = rt_calloc(ws->nm + 1, sizeof *bm), *cm = rt_calloc(ws->nm + 1, sizeof *cm);
    size_t *bn = rt_calloc(ws->nm + 1, sizeof *bn), *cn = rt_calloc(ws->nm + 1, sizeof *cn);
    for (size_t r = 0; r < ws->nruns; r++) {
        rt_live_means(s->live, r, o->qids, o->nqids, bm, bn, cm, cn);
        for (size_t m = 0; m < ws->nm; m++) {
            char b[32], c[32], d[32], n[32];
            value_cell(o, &ws->ms[m], bm[m], 0, b, sizeof b);
            value_cell(o, &ws->ms[m], cm[m], 0, c, sizeof c);
            value_cell(o, &ws->ms[m], cm[m] - bm[m], 1, d, sizeof d);
            snprintf(n, sizeof n, "%zu", cn[m]);
            const char *row[] = {rt_run_name(ws->runs[r].run), ws->ms[m].name, b, c, d, n};
            rt_table_add(t, row);
        }
    }
    free(bm);
    free(cm);
    free(bn);
    free(cn);
    return t;
}

static rt_table *per_query_table(const rt_session *s, const rt_export_opts *o)
{
    const rt_workspace *ws = s->ws;
    size_t nc = 2 + ws->nm;
    const char **h = rt_calloc(nc, sizeof *h);
    h[0] = "run";
    h[1] = "qid";
    for (size_t m = 0; m < ws->nm; m++)
        h[2 + m] = ws->ms[m].name;
    rt_table *t = rt_table_new(nc, h);
    for (size_t c = 2; c < nc; c++)
        rt_table_number(t, c);
    size_t nq;
    const uint32_t *q = o->qids ? o->qids : rt_live_sorted(s->live, &nq);
    if (o->qids)
        nq = o->nqids;
    char (*cells)[32] = rt_calloc(ws->nm + 1, sizeof *cells);
    const char **row = rt_calloc(nc, sizeof *row);
    for (size_t r = 0; r < ws->nruns; r++)
        for (size_t i = 0; i < nq; i++) {
            double v;
            if (!rt_live_is_judged(s->live, q[i]))
                continue;   /* a query of the scope that nothing judges is not evaluated */
            row[0] = rt_run_name(ws->runs[r].run);
            row[1] = rt_strtab_str(ws->qids, q[i]);
            for (size_t m = 0; m < ws->nm; m++) {
                if (rt_live_value(s->live, r, q[i], m, &v))
                    value_cell(o, &ws->ms[m], v, 0, cells[m], sizeof cells[m]);
                else
                    cells[m][0] = 0;
                row[2 + m] = cells[m];
            }
            rt_table_add(t, row);
        }
    free(cells);
    free(row);
    free(h);
    return t;
}

/* The cosine of a reviewed pair among the candidates, or -2 when it is not one. */
static double cosine_of(const rt_leakage *l, uint32_t test, const char *train)
{
    for (size_t i = 0; l && i < l->ntest; i++)
        if (l->test_qid[i] == test)
            for (size_t p = l->first[i]; p < l->first[i + 1]; p++)
                if (strcmp(rt_leakage_train_qid(l, &l->pairs[p]), train) == 0)
                    return l->pairs[p].score;
    return -2;
}

static rt_table *leak_pairs_table(const rt_session *s, const rt_export_opts *o)
{
    const rt_workspace *ws = s->ws;
    const char *h[] = {"test_qid", "train_qid", "cosine", "type", "leak", "author", "time"};
    rt_table *t = rt_table_new(7, h);
    rt_table_number(t, 2);
    for (size_t i = 0; i < ws->nq; i++) {
        uint32_t q = ws->qlist[i];
        size_t n;
        const rt_leak_label *lb = rt_annot_leaks(s->annot, q, &n);
        for (size_t k = 0; k < n; k++) {
            char cos[32] = "", when[32];
            double c = cosine_of(o->leakage, q, lb[k].train);
            if (c > -2)
                snprintf(cos, sizeof cos, rt_table_format_rounds(o->format) ? "%.4f" : "%.17g", c);
            rt_op_format_time(lb[k].prov.time_ms, when, sizeof when);
            const char *row[] = {rt_strtab_str(ws->qids, q), lb[k].train, cos, lb[k].type,
                                 rt_leak_type_is_leak(lb[k].type) ? "yes" : "no", lb[k].prov.author, when};
            rt_table_add(t, row);
        }
    }
    return t;
}

static rt_table *leak_types_table(const rt_session *s, const rt_export_opts *o)
{
    const rt_workspace *ws = s->ws;
    size_t count[16] = {0}, total = 0, nt = 0;
    while (rt_leak_types[nt])
        nt++;
    for (size_t i = 0; i < ws->nq; i++) {
        size_t n;
        const rt_leak_label *lb = rt_annot_leaks(s->annot, ws->qlist[i], &n);
        for (size_t k = 0; k < n; k++)
            for (size_t j = 0; j < nt && j < 16; j++)
                if (strcmp(lb[k].type, rt_leak_types[j]) == 0) {
                    count[j]++;
                    total++;
                }
    }
    const char *h[] = {"type", "leak", "pairs", "share"};
    rt_table *t = rt_table_new(4, h);
    rt_table_number(t, 2);
    rt_table_number(t, 3);
    for (size_t j = 0; j < nt && j < 16; j++) {
        char c[32], sh[32];
        snprintf(c, sizeof c, "%zu", count[j]);
        snprintf(sh, sizeof sh, rt_table_format_rounds(o->format) ? "%.4f" : "%.17g",
                 total ? (double)count[j] / (double)total : 0.0);
        const char *row[] = {rt_leak_types[j], j < RT_LEAK_TYPES_LEAKING ? "yes" : "no", c, sh};
        rt_table_add(t, row);
    }
    char c[32];
    snprintf(c, sizeof c, "%zu", total);
    const char *row[] = {"all", "", c, total ? "1" : "0"};
    rt_table_add(t, row);
    return t;
}

static rt_table *leakage_table(const rt_session *s, const rt_export_opts *o)
{
    const rt_workspace *ws = s->ws;
    const char *h[] = {"run", "measure", "duplicated", "others", "duplicated_queries", "other_queries"};
    rt_table *t = rt_table_new(6, h);
    for (size_t c = 2; c < 6; c++)
        rt_table_number(t, c);
    double *in = rt_calloc(ws->nm + 1, sizeof *in), *out = rt_calloc(ws->nm + 1, sizeof *out);
    for (size_t r = 0; r < ws->nruns; r++) {
        size_t ni, no;
        rt_live_split(s->live, r, o->leaked, in, out, &ni, &no);
        for (size_t m = 0; m < ws->nm; m++) {
            char a[32], b[32], c[32], d[32];
            value_cell(o, &ws->ms[m], in[m], 0, a, sizeof a);
            value_cell(o, &ws->ms[m], out[m], 0, b, sizeof b);
            snprintf(c, sizeof c, "%zu", ni);
            snprintf(d, sizeof d, "%zu", no);
            const char *row[] = {rt_run_name(ws->runs[r].run), ws->ms[m].name, a, b, c, d};
            rt_table_add(t, row);
        }
    }
    free(in);
    free(out);
    return t;
}

/* ---- writing ----------------------------------------------------------------------------- */

rt_status rt_export_write(const rt_session *s, const rt_export_opts *o, FILE *out, rt_err *err)
{
    rt_table *t = NULL;
    if ((o->what == RT_EXPORT_QRELS || o->what == RT_EXPORT_QRELS_DIFF) && o->format == RT_EXPORT_TREC) {
        rt_status st = trec_ids_ok(s, err);
        if (st != RT_OK)
            return st;
    }
    switch (o->what) {
    case RT_EXPORT_QRELS:
        write_qrels(s, out);
        break;
    case RT_EXPORT_QRELS_DIFF:
        if (o->format == RT_EXPORT_TREC) {
            diff_rows(s, out, NULL);
            break;
        }
        {
            const char *h[] = {"qid", "pid", "base", "current", "author", "time"};
            t = rt_table_new(6, h);
            rt_table_number(t, 2);   /* the grades */
            rt_table_number(t, 3);
            diff_rows(s, NULL, t);
        }
        break;
    case RT_EXPORT_TAGS: t = tags_table(s); break;
    case RT_EXPORT_BREAKDOWN: {
        rt_breakdown *b = rt_breakdown_compute(s, o->k ? o->k : 5, o->qids, o->nqids);
        t = rt_breakdown_table(b, s, rt_table_format_rounds(o->format));
        rt_breakdown_free(&b);
        break;
    }
    case RT_EXPORT_METRICS:
        t = metrics_table(s, o);
        note_rounding(o, t);
        break;
    case RT_EXPORT_PER_QUERY:
        t = per_query_table(s, o);
        note_rounding(o, t);
        break;
    case RT_EXPORT_LEAKAGE:
        if (!o->leaked)
            return rt_err_set(err, RT_EUSAGE, "the leakage split needs the leaked queries");
        t = leakage_table(s, o);
        note_rounding(o, t);
        break;
    case RT_EXPORT_DISPUTES:
        if (!o->table)
            return rt_err_set(err, RT_EUSAGE, "the disputed pairs are the team's (export --team)");
        return rt_table_write(o->table, o->format, out, err);
    case RT_EXPORT_LEAK_PAIRS: t = leak_pairs_table(s, o); break;
    case RT_EXPORT_LEAK_TYPES: t = leak_types_table(s, o); break;
    case RT_EXPORT_FIG_DELTA:
    case RT_EXPORT_FIG_HIST:
    case RT_EXPORT_FIG_BEFORE_AFTER: {
        rt_figure *f = o->what == RT_EXPORT_FIG_DELTA  ? rt_figure_delta(s, o->fig_a, o->fig_b, o->fig_m)
                       : o->what == RT_EXPORT_FIG_HIST ? rt_figure_hist(s, o->fig_a, o->fig_m, 10)
                                                       : rt_figure_before_after(s, o->fig_m);
        rt_figure_svg(f, out);
        rt_figure_free(&f);
        return RT_OK;   /* a write error stays on the stream for the caller to name */
    }
    }
    rt_status st = RT_OK;
    if (t) {
        st = rt_table_write(t, o->format, out, err);
        rt_table_free(&t);
    }
    return st;
}

rt_status rt_export_file(const rt_session *s, const rt_export_opts *o, const char *path, const rt_outguard *g,
                         rt_err *err)
{
    if (!path || strcmp(path, "-") == 0) {
        rt_status st = rt_export_write(s, o, stdout, err);
        if (st == RT_OK && (fflush(stdout) != 0 || ferror(stdout)))
            st = rt_err_set(err, RT_EIO, "standard output: cannot write: %s", strerror(errno));
        return st;
    }
    rt_outfile *f;
    rt_outguard *own = NULL;
    if (!g) {
        g = own = rt_outguard_new();
        rt_outguard_add_session(own, s);
    }
    rt_status st = rt_outguard_open(&f, path, g, err);
    rt_outguard_free(&own);
    if (st != RT_OK)
        return st;
    st = rt_export_write(s, o, rt_outfile_stream(f), err);
    if (st != RT_OK) {
        rt_outfile_discard(&f);
        return st;
    }
    return rt_outfile_commit(&f, err);
}
