/* rt_agree — agreement between annotators: Cohen's kappa of two annotators (unweighted, or
 * linearly / quadratically weighted for graded labels), Fleiss' kappa of a fixed number of
 * annotators per item, and Krippendorff's alpha for nominal data with missing values. Labels are
 * small non-negative integers (grades, or 0/1 for "has category c"). A coefficient whose chance
 * agreement leaves nothing to measure (every label the same) is undefined: the functions then
 * return 0 and say why, never 0.0 or NaN as a value. */
#ifndef RT_AGREE_H
#define RT_AGREE_H

#include <stddef.h>

typedef enum rt_kappa_weights {
    RT_KAPPA_UNWEIGHTED = 0,
    RT_KAPPA_LINEAR,
    RT_KAPPA_QUADRATIC,
} rt_kappa_weights;

/* The result of one coefficient: value when defined, else why not (a static string). */
typedef struct rt_agreement {
    int defined;
    double value;
    const char *why;
    size_t items;          /* items it is over */
    double observed;       /* observed agreement (share of items, or of pairable values, agreeing) */
} rt_agreement;

/* Cohen's kappa of a[i] and b[i], i < n, labels in [0, nlabels). The weights are computed over
 * the labels either annotator used, in increasing order, as scikit-learn's cohen_kappa_score does
 * (linear: |i - j|, quadratic: (i - j)^2 over those labels' positions). Undefined when n is 0 or
 * when chance agreement is total (both annotators gave one and the same label to everything). */
rt_agreement rt_kappa_cohen(const int *a, const int *b, size_t n, int nlabels, rt_kappa_weights w);

/* Fleiss' kappa: counts[i * nlabels + c] is how many of the m annotators gave item i label c
 * (every item has m labels, m >= 2). Undefined when n is 0 or every label given is the same. */
rt_agreement rt_kappa_fleiss(const int *counts, size_t n, int nlabels);

/* Krippendorff's alpha for nominal values: v[u * m + j] is annotator j's label of unit u, or -1
 * when missing. Units with fewer than two values are not pairable and are skipped. Undefined
 * when fewer than two pairable values exist or all pairable values are the same. */
rt_agreement rt_alpha_nominal(const int *v, size_t units, size_t m, int nlabels);

#endif
