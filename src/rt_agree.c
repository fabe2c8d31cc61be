/* rt_agree — kappas and alpha, in double, summed in a fixed order so results are reproducible. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rt_agree.h"
#include "rt_mem.h"

static rt_agreement undefined(const char *why, size_t items)
{
    return (rt_agreement){.defined = 0, .why = why, .items = items};
}

rt_agreement rt_kappa_cohen(const int *a, const int *b, size_t n, int nlabels, rt_kappa_weights w)
{
    if (n == 0)
        return undefined("no item was labelled by both", 0);
    size_t k = (size_t)nlabels;
    double *conf = rt_calloc(k * k + 1, sizeof *conf);
    int *pos = rt_malloc((k + 1) * sizeof *pos);
    for (size_t c = 0; c < k; c++)
        pos[c] = -1;
    size_t agree = 0;
    for (size_t i = 0; i < n; i++) {
        conf[(size_t)a[i] * k + (size_t)b[i]] += 1;
        pos[a[i]] = pos[b[i]] = 0;
        agree += a[i] == b[i];
    }
    /* the labels in use, in order: their positions give the weights */
    int used = 0;
    for (size_t c = 0; c < k; c++)
        if (pos[c] == 0)
            pos[c] = used++;
    double *rows = rt_calloc(k + 1, sizeof *rows), *cols = rt_calloc(k + 1, sizeof *cols);
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            rows[i] += conf[i * k + j];
            cols[j] += conf[i * k + j];
        }
    double num = 0, den = 0;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            if (pos[i] < 0 || pos[j] < 0)
                continue;
            double d = (double)(pos[i] - pos[j]), wt;
            if (w == RT_KAPPA_LINEAR)
                wt = d < 0 ? -d : d;
            else if (w == RT_KAPPA_QUADRATIC)
                wt = d * d;
            else
                wt = i == j ? 0 : 1;
            num += wt * conf[i * k + j];
            den += wt * rows[i] * cols[j] / (double)n;
        }
    free(conf);
    free(pos);
    free(rows);
    free(cols);
    rt_agreement r = {.items = n, .observed = (double)agree / (double)n};
    if (den == 0) {
        r.why = "both annotators gave every item the same label (chance agreement is total)";
        return r;
    }
    r.defined = 1;
    r.value = 1 - num / den;
    return r;
}

rt_agreement rt_kappa_fleiss(const int *counts, size_t n, int nlabels)
{
    if (n == 0)
        return undefined("no item was labelled by all the annotators", 0);
    size_t k = (size_t)nlabels;
    long m = 0;
    for (size_t c = 0; c < k; c++)
        m += counts[c];
    if (m < 2)
        return undefined("fewer than two annotators per item", n);
    double *p = rt_calloc(k + 1, sizeof *p), pbar = 0;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t c = 0; c < k; c++) {
            double x = counts[i * k + c];
            p[c] += x;
            s += x * x;
        }
        pbar += (s - (double)m) / ((double)m * (double)(m - 1));
    }
    pbar /= (double)n;
    double pe = 0;
    for (size_t c = 0; c < k; c++) {
        double q = p[c] / ((double)n * (double)m);
        pe += q * q;
    }
    free(p);
    rt_agreement r = {.items = n, .observed = pbar};   /* the mean agreement of annotator pairs */
    if (pe >= 1) {
        r.why = "every annotator gave every item the same label (chance agreement is total)";
        return r;
    }
    r.defined = 1;
    r.value = (pbar - pe) / (1 - pe);
    return r;
}

rt_agreement rt_alpha_nominal(const int *v, size_t units, size_t m, int nlabels)
{
    size_t k = (size_t)nlabels;
    double *o = rt_calloc(k * k + 1, sizeof *o);   /* the coincidence matrix */
    size_t *cnt = rt_calloc(k + 1, sizeof *cnt), pairable = 0;
    for (size_t u = 0; u < units; u++) {
        size_t mu = 0;
        memset(cnt, 0, k * sizeof *cnt);
        for (size_t j = 0; j < m; j++)
            if (v[u * m + j] >= 0) {
                cnt[v[u * m + j]]++;
                mu++;
            }
        if (mu < 2)
            continue;
        pairable++;
        for (size_t c = 0; c < k; c++)
            for (size_t d = 0; d < k; d++)
                if (cnt[c] && cnt[d])   /* ordered pairs of values from different annotators */
                    o[c * k + d] += (double)(cnt[c] * (c == d ? cnt[c] - 1 : cnt[d])) / (double)(mu - 1);
    }
    free(cnt);
    double *nc = rt_calloc(k + 1, sizeof *nc), total = 0, observed = 0, diag = 0;
    for (size_t c = 0; c < k; c++)
        for (size_t d = 0; d < k; d++) {
            nc[c] += o[c * k + d];
            total += o[c * k + d];
            if (c != d)
                observed += o[c * k + d];
            else
                diag += o[c * k + d];
        }
    double expected = 0;
    for (size_t c = 0; c < k; c++)
        for (size_t d = 0; d < k; d++)
            if (c != d)
                expected += nc[c] * nc[d];
    free(o);
    free(nc);
    rt_agreement r = {.items = pairable, .observed = total > 0 ? diag / total : 0};
    if (total < 2) {
        r.why = "fewer than two pairable values (units labelled by at least two annotators)";
        return r;
    }
    if (expected == 0) {
        r.why = "every pairable value is the same label (no disagreement is possible by chance)";
        return r;
    }
    r.defined = 1;
    r.value = 1 - (total - 1) * observed / expected;
    return r;
}
