/* rt_figure — figures from the live metrics, and their SVG (see rt_figure.h). */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_figure.h"
#include "rt_live.h"
#include "rt_mem.h"
#include "rt_text.h"

const char *const rt_figure_kinds[] = {"figure-delta", "figure-hist", "figure-before-after", NULL};

/* A new string, printf-style. */
static char *fmt_new(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *fmt_new(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = rt_malloc(n > 0 ? (size_t)n + 1 : 1);
    s[0] = '\0';
    va_start(ap, fmt);
    if (n > 0)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static rt_figure *fig_new(rt_figure_kind kind, size_t n)
{
    rt_figure *f = rt_calloc(1, sizeof *f);
    f->kind = kind;
    f->n = n;
    f->value = rt_calloc(n + 1, sizeof *f->value);
    f->value2 = rt_calloc(n + 1, sizeof *f->value2);
    f->label = rt_calloc(n + 1, sizeof *f->label);
    return f;
}

void rt_figure_free(rt_figure **fp)
{
    if (!fp || !*fp)
        return;
    for (size_t i = 0; i < (*fp)->n; i++)
        free((*fp)->label[i]);
    free((*fp)->label);
    free((*fp)->value);
    free((*fp)->value2);
    free((*fp)->title);
    free((*fp)->ylabel);
    free(*fp);
    *fp = NULL;
}

typedef struct qd {
    double d;
    uint32_t q;
} qd;

static int by_delta_desc(const void *x, const void *y)
{
    const qd *a = x, *b = y;
    return a->d > b->d ? -1 : a->d < b->d ? 1 : (a->q > b->q) - (a->q < b->q);
}

rt_figure *rt_figure_delta(const rt_session *s, size_t a, size_t b, size_t m)
{
    size_t nq;
    const uint32_t *qs = rt_live_sorted(s->live, &nq);
    qd *v = rt_calloc(nq + 1, sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < nq; i++) {
        double x = 0, y = 0;
        int dx = rt_live_value(s->live, a, qs[i], m, &x), dy = rt_live_value(s->live, b, qs[i], m, &y);
        if (dx && dy)
            v[n++] = (qd){x - y, qs[i]};
    }
    qsort(v, n, sizeof *v, by_delta_desc);
    rt_figure *f = fig_new(RT_FIG_DELTA, n);
    for (size_t i = 0; i < n; i++) {
        f->value[i] = v[i].d;
        f->label[i] = rt_strdup(rt_strtab_str(s->ws->qids, v[i].q));
    }
    f->title = fmt_new("%s − %s, %s per query (%zu queries, sorted)",
             rt_run_name(s->ws->runs[a].run), rt_run_name(s->ws->runs[b].run), s->ws->ms[m].name, n);
    f->ylabel = fmt_new("Δ %s", s->ws->ms[m].name);
    free(v);
    return f;
}

rt_figure *rt_figure_hist(const rt_session *s, size_t r, size_t m, size_t bins)
{
    size_t nq;
    const uint32_t *qs = rt_live_sorted(s->live, &nq);
    double lo = 0, hi = 1;
    if (rt_measure_is_sum(&s->ws->ms[m]) || s->ws->ms[m].kind == RT_M_MFR) {
        lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < nq; i++) {
            double x;
            if (rt_live_value(s->live, r, qs[i], m, &x)) {
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
        }
        if (!(lo <= hi))
            lo = 0, hi = 1;
        if (hi == lo)
            hi = lo + 1;
    }
    bins = bins ? bins : 10;
    rt_figure *f = fig_new(RT_FIG_HIST, bins);
    f->lo = lo;
    f->width = (hi - lo) / (double)bins;
    size_t total = 0;
    for (size_t i = 0; i < nq; i++) {
        double x;
        if (!rt_live_value(s->live, r, qs[i], m, &x))
            continue;
        size_t k = (size_t)((x - lo) / f->width);
        f->value[k < bins ? k : bins - 1]++;   /* the top edge goes in the last bin */
        total++;
    }
    for (size_t k = 0; k < bins; k++) {
        char l[64];
        snprintf(l, sizeof l, "%.2f", lo + (double)k * f->width);
        f->label[k] = rt_strdup(l);
    }
    f->title = fmt_new("%s: %s per query (%zu queries)", rt_run_name(s->ws->runs[r].run),
             s->ws->ms[m].name, total);
    f->ylabel = fmt_new("queries");
    return f;
}

rt_figure *rt_figure_before_after(const rt_session *s, size_t m)
{
    const rt_workspace *ws = s->ws;
    rt_figure *f = fig_new(RT_FIG_BEFORE_AFTER, ws->nruns);
    double *bm = rt_calloc(ws->nm + 1, sizeof *bm), *cm = rt_calloc(ws->nm + 1, sizeof *cm);
    size_t *bn = rt_calloc(ws->nm + 1, sizeof *bn), *cn = rt_calloc(ws->nm + 1, sizeof *cn);
    for (size_t r = 0; r < ws->nruns; r++) {
        rt_live_means(s->live, r, NULL, 0, bm, bn, cm, cn);
        f->value[r] = bn[m] ? bm[m] : NAN;   /* no query to average: not a mean of 0 */
        f->value2[r] = cn[m] ? cm[m] : NAN;
        f->label[r] = rt_strdup(rt_run_name(ws->runs[r].run));
    }
    free(bm);
    free(cm);
    free(bn);
    free(cn);
    f->title = fmt_new("%s before and after the relabels", ws->ms[m].name);
    f->ylabel = fmt_new("%s", ws->ms[m].name);
    return f;
}

/* ---- SVG --------------------------------------------------------------------------------- */

/* Run and measure names come from the inputs: an SVG is XML, which must be UTF-8 and has no
 * place for control characters, U+FFFE or U+FFFF. */
static void xml_text(const char *s, FILE *out)
{
    for (size_t len = strlen(s), i = 0; i < len;) {
        uint32_t cp;
        size_t k = rt_text_decode(s + i, len - i, &cp);
        if (cp == '<')
            fputs("&lt;", out);
        else if (cp == '>')
            fputs("&gt;", out);
        else if (cp == '&')
            fputs("&amp;", out);
        else if (cp == '"')
            fputs("&quot;", out);
        else if (cp < 0x20 || cp == 0x7f)
            fputc(' ', out);
        else if (cp == RT_TEXT_INVALID || cp == 0xFFFE || cp == 0xFFFF)
            fputs("\xEF\xBF\xBD", out);   /* U+FFFD */
        else
            fwrite(s + i, 1, k, out);
        i += k;
    }
}

/* The layout: a plot area of at least PW × PH; margins around it for the title and legend (top),
 * the y axis's numbers and label (left) and the rotated x labels (bottom, and right when the last
 * ones reach past the plot), grown to hold the longest label. */
#define PW 630.0
#define PH 310.0
#define L 70.0    /* left margin: the y axis, its numbers and its label */
#define FONT 10.0 /* the x labels' size */

/* A label's width in px at font size FONT: half a size a column (a CJK character takes two). */
static double text_px(const char *s) { return (double)rt_text_width(s, strlen(s)) * FONT * 0.6; }

/* Ticks at round values: a step of 1, 2, 2.5 or 5 × 10^k giving about five intervals over
 * [lo, hi] (whole numbers only when integers is set), and the axis's ends widened to multiples
 * of it. */
static double nice_step(double lo, double hi, int integers, double *axis_lo, double *axis_hi)
{
    double raw = (hi - lo) / 5, p = pow(10, floor(log10(raw))), step = 10 * p;
    static const double m[] = {1, 2, 2.5, 5};
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++)
        if (m[k] * p >= raw) {
            step = m[k] * p;
            break;
        }
    if (integers && step < 1)
        step = 1;
    if (integers && step == 2.5)
        step = 5;   /* (2.5 is a whole step only from 25 on) */
    *axis_lo = floor(lo / step + 1e-9) * step;
    *axis_hi = ceil(hi / step - 1e-9) * step;
    return step;
}

void rt_figure_svg(const rt_figure *f, FILE *out)
{
    double lo = 0, hi = 0;
    for (size_t i = 0; i < f->n; i++) {
        lo = fmin(lo, fmin(f->value[i], f->kind == RT_FIG_BEFORE_AFTER ? f->value2[i] : 0));
        hi = fmax(hi, fmax(f->value[i], f->kind == RT_FIG_BEFORE_AFTER ? f->value2[i] : 0));
    }
    if (hi == lo)
        hi = lo + 1;
    int counts = f->kind == RT_FIG_HIST, pairs = f->kind == RT_FIG_BEFORE_AFTER;
    double step = nice_step(lo, hi, counts, &lo, &hi);
    /* the x labels shown (every one when they fit, else a few), rotated 45°: a label of w px
     * reaches w·0.71 down and right of its start */
    size_t every = f->n ? (f->n + 29) / 30 : 1;
    double pw = PW, ph = PH, slot = f->n ? pw / (double)f->n : pw, reach = 0, right = 0;
    for (size_t i = 0; i < f->n; i += every) {
        double d = text_px(f->label[i]) * 0.71 + FONT;
        reach = fmax(reach, d);
        right = fmax(right, slot * ((double)i + 0.5) + d - pw);
    }
    double T = pairs ? 58.0 : 40.0;   /* the title; the legend's own row above the plot */
    double B = 24 + reach, R = fmax(20.0, right + 10), W = L + pw + R, H = T + ph + B;
    W = fmax(W, (double)rt_text_width(f->title, strlen(f->title)) * 14 * 0.6 + 20);   /* the title, whole */
    double scale = ph / (hi - lo), zero = T + hi * scale;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                 "font-family=\"Noto Sans CJK SC, Source Han Sans SC, WenQuanYi Micro Hei, sans-serif\" font-size=\"12\">\n",
                 W, H, W, H);
    fputs("<title>", out);
    xml_text(f->title, out);
    fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", out);
    fprintf(out, "<text x=\"%.1f\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">", W / 2);
    xml_text(f->title, out);
    fputs("</text>\n", out);
    /* axes, ticks and the zero line */
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", L, T, L, T + ph);
    for (int k = 0; lo + step * k <= hi + step * 1e-6; k++) {
        double v = lo + step * k, y = zero - v * scale;
        if (fabs(v) < step * 1e-9)
            v = 0;   /* not -0, nor 1e-17 */
        fprintf(out, "<line class=\"tick\" data-value=\"%.10g\" x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
                     "stroke=\"#ccc\"/><text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\">%.10g</text>\n",
                v, L, y, L + pw, y, L - 6, y + 4, v);
    }
    fprintf(out, "<line class=\"zero\" x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"black\"/>\n", L, zero,
            L + pw, zero);
    fprintf(out, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">", T + ph / 2,
            T + ph / 2);
    xml_text(f->ylabel, out);
    fputs("</text>\n", out);
    /* the bars */
    double bw = slot * (pairs ? 0.38 : 0.8);
    for (size_t i = 0; i < f->n; i++)
        for (int s = 0; s <= pairs; s++) {
            double v = s ? f->value2[i] : f->value[i];
            double x = L + slot * (double)i + (pairs ? slot * 0.1 + (double)s * bw : slot * 0.1);
            if (isnan(v)) {
                fprintf(out, "<text class=\"undefined\" x=\"%.2f\" y=\"%.2f\" transform=\"rotate(-90 %.2f %.2f)\" "
                             "font-size=\"10\">undefined</text>\n", x + bw / 2 + 3, zero - 4, x + bw / 2 + 3, zero - 4);
                continue;
            }
            double y = v >= 0 ? zero - v * scale : zero, h = fabs(v) * scale;
            const char *fill = pairs ? (s ? "#d95f02" : "#7570b3") : v >= 0 ? "#1b9e77" : "#d95f02";
            fprintf(out, "<rect class=\"bar\" data-value=\"%.17g\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                         "fill=\"%s\"><title>", v, x, y, bw, h, fill);
            xml_text(f->label[i], out);
            fprintf(out, counts ? ": %.0f</title></rect>\n" : ": %.4g</title></rect>\n", v);
        }
    for (size_t i = 0; i < f->n; i += every) {
        double x = L + slot * ((double)i + 0.5);
        fprintf(out, "<text class=\"xlabel\" x=\"%.2f\" y=\"%.1f\" transform=\"rotate(45 %.2f %.1f)\" "
                     "font-size=\"%.0f\">", x, T + ph + 14, x, T + ph + 14, FONT);
        xml_text(f->label[i], out);
        fputs("</text>\n", out);
    }
    if (pairs)   /* in its own row between the title and the plot: never over a bar */
        fprintf(out, "<g class=\"legend\"><rect x=\"%.1f\" y=\"32\" width=\"10\" height=\"10\" fill=\"#7570b3\"/>"
                     "<text x=\"%.1f\" y=\"41\">base qrels</text><rect x=\"%.1f\" y=\"32\" width=\"10\" height=\"10\" "
                     "fill=\"#d95f02\"/><text x=\"%.1f\" y=\"41\">after relabels</text></g>\n",
                L + pw - 200, L + pw - 186, L + pw - 100, L + pw - 86);
    fputs("</svg>\n", out);
}
