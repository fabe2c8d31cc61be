/* rt_measure — parsing measure names and computing per-query values. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rt_measure.h"
#include "rt_mem.h"

const char *const rt_measure_preset_names[] = {"dureader", "trec", "dbqa", NULL};

const char rt_measure_known[] = "RR[@k], P@k, R[@k], Success@k, AP[@k], AP_min, nDCG[@k], Rprec, MFR[@k], "
                                "NumRet, NumRel, NumRelRet, Judged@k; presets: dureader, trec, dbqa";

const char *rt_measure_preset(const char *name)
{
    if (strcasecmp(name, "dureader") == 0)
        return "RR@10,Success@1,Success@50";
    if (strcasecmp(name, "trec") == 0)
        return "AP,RR,P@10,nDCG@10,R@1000";
    if (strcasecmp(name, "dbqa") == 0)
        return "RR,Success@1,AP_min";
    return NULL;
}

typedef struct spelling {
    const char *prefix;   /* matched case-insensitively */
    rt_measure_kind kind;
    char sep;             /* '@' or '_' before the cutoff, 0 when none is allowed */
    int needs_cutoff;
} spelling;

static const spelling spellings[] = {
    {"RR", RT_M_RR, '@', 0},         {"MRR", RT_M_RR, '@', 0},
    {"recip_rank", RT_M_RR, 0, 0},
    {"P", RT_M_P, '@', 1},           {"P", RT_M_P, '_', 1},
    {"R", RT_M_R, '@', 0},           {"recall", RT_M_R, '_', 1},
    {"Success", RT_M_SUCCESS, '@', 1}, {"success", RT_M_SUCCESS, '_', 1},
    {"ACC", RT_M_SUCCESS, '@', 1},
    {"AP_min", RT_M_AP_MIN, 0, 0},   {"MAP_min", RT_M_AP_MIN, 0, 0},
    {"AP", RT_M_AP, '@', 0},         {"MAP", RT_M_AP, '@', 0},
    {"map", RT_M_AP, 0, 0},          {"map_cut", RT_M_AP, '_', 1},
    {"nDCG", RT_M_NDCG, '@', 0},     {"ndcg", RT_M_NDCG, 0, 0},
    {"ndcg_cut", RT_M_NDCG, '_', 1},
    {"Rprec", RT_M_RPREC, 0, 0},
    {"MFR", RT_M_MFR, '@', 0},
    {"NumRet", RT_M_NUM_RET, 0, 0},  {"num_ret", RT_M_NUM_RET, 0, 0},
    {"NumRel", RT_M_NUM_REL, 0, 0},  {"num_rel", RT_M_NUM_REL, 0, 0},
    {"NumRelRet", RT_M_NUM_REL_RET, 0, 0}, {"num_rel_ret", RT_M_NUM_REL_RET, 0, 0},
    {"Judged", RT_M_JUDGED, '@', 1},
};

static const char *canonical(rt_measure_kind k)
{
    switch (k) {
    case RT_M_RR: return "RR";
    case RT_M_P: return "P";
    case RT_M_R: return "R";
    case RT_M_SUCCESS: return "Success";
    case RT_M_AP: return "AP";
    case RT_M_AP_MIN: return "AP_min";
    case RT_M_NDCG: return "nDCG";
    case RT_M_RPREC: return "Rprec";
    case RT_M_MFR: return "MFR";
    case RT_M_NUM_RET: return "NumRet";
    case RT_M_NUM_REL: return "NumRel";
    case RT_M_NUM_REL_RET: return "NumRelRet";
    case RT_M_JUDGED: return "Judged";
    }
    return "?";
}

static int parse_cutoff(const char *s, uint32_t *k)
{
    if (!*s)
        return 0;
    unsigned long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        v = v * 10 + (unsigned long)(*s - '0');
        if (v > 100000000UL)
            return 0;
    }
    if (v == 0)
        return 0;
    *k = (uint32_t)v;
    return 1;
}

rt_status rt_measure_parse(const char *name, rt_measure *m, rt_err *err)
{
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        const spelling *sp = &spellings[i];
        size_t pl = strlen(sp->prefix);
        if (strncasecmp(name, sp->prefix, pl) != 0)
            continue;
        const char *rest = name + pl;
        uint32_t k = 0;
        if (*rest == '\0') {
            if (sp->needs_cutoff)
                continue;
        } else if (sp->sep && *rest == sp->sep && parse_cutoff(rest + 1, &k)) {
            /* cutoff given */
        } else {
            continue;
        }
        m->kind = sp->kind;
        m->cutoff = k;
        if (k)
            snprintf(m->name, sizeof m->name, "%s@%u", canonical(sp->kind), k);
        else
            snprintf(m->name, sizeof m->name, "%s", canonical(sp->kind));
        return RT_OK;
    }
    rt_err_set(err, RT_EUSAGE, "unknown measure \"%s\" (known: %s)", name, rt_measure_known);
    if (err)
        err->what = RT_ERR_UNKNOWN_MEASURE;
    return RT_EUSAGE;
}

rt_status rt_measure_list_parse(const char *list, rt_measure **ms, size_t *n, rt_err *err)
{
    char *copy = rt_strdup(list);
    rt_status st = RT_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t tl = strlen(tok);
        while (tl && tok[tl - 1] == ' ')
            tok[--tl] = '\0';
        if (!*tok)
            continue;
        const char *preset = rt_measure_preset(tok);
        if (preset) {
            if ((st = rt_measure_list_parse(preset, ms, n, err)) != RT_OK)
                break;
            continue;
        }
        rt_measure m;
        if ((st = rt_measure_parse(tok, &m, err)) != RT_OK)
            break;
        int dup = 0;
        for (size_t i = 0; i < *n; i++)
            dup |= strcmp((*ms)[i].name, m.name) == 0;
        if (dup)
            continue;
        *ms = rt_reallocarray(*ms, *n + 1, sizeof **ms);
        (*ms)[(*n)++] = m;
    }
    free(copy);
    if (st == RT_OK && *n == 0)
        st = rt_err_set(err, RT_EUSAGE, "no measure given");
    return st;
}

int rt_measure_is_sum(const rt_measure *m)
{
    return m->kind == RT_M_NUM_RET || m->kind == RT_M_NUM_REL || m->kind == RT_M_NUM_REL_RET;
}

int rt_measure_is_partial(const rt_measure *m) { return m->kind == RT_M_MFR; }

size_t rt_measure_depth(const rt_measure *ms, size_t n)
{
    size_t depth = 1;
    for (size_t i = 0; i < n; i++) {
        switch (ms[i].kind) {
        case RT_M_NUM_REL:
            break;
        case RT_M_RPREC: case RT_M_NUM_RET: case RT_M_NUM_REL_RET: case RT_M_AP_MIN:
            return 0;
        default:
            if (ms[i].cutoff == 0)
                return 0;
            if (ms[i].cutoff > depth)
                depth = ms[i].cutoff;
        }
    }
    return depth;
}

static double ndcg(const int32_t *g, size_t n, const rt_qinfo *qi, size_t k)
{
    double dcg = 0, ideal = 0;
    for (size_t i = 0; i < n && i < k; i++)
        if (g[i] > 0)
            dcg += (double)g[i] / log2((double)(i + 2));
    for (size_t i = 0; i < qi->n_ideal && i < k; i++)
        ideal += (double)qi->ideal[i] / log2((double)(i + 2));
    return ideal > 0 ? dcg / ideal : 0.0;
}

double rt_measure_compute(const rt_measure *m, const int32_t *g, size_t n, const rt_qinfo *qi,
                          int32_t level, int *defined)
{
    size_t k = m->cutoff ? m->cutoff : (size_t)-1;
    size_t top = n < k ? n : k;
    *defined = 1;
    switch (m->kind) {
    case RT_M_RR:
    case RT_M_MFR:
        for (size_t i = 0; i < top; i++)
            if (g[i] != RT_UNJUDGED && g[i] >= level)
                return m->kind == RT_M_RR ? 1.0 / (double)(i + 1) : (double)(i + 1);
        if (m->kind == RT_M_MFR)
            *defined = 0;
        return 0.0;
    case RT_M_P:
    case RT_M_R:
    case RT_M_SUCCESS:
    case RT_M_NUM_REL_RET: {
        size_t rel = 0;
        for (size_t i = 0; i < top; i++)
            rel += g[i] != RT_UNJUDGED && g[i] >= level;
        if (m->kind == RT_M_P)
            return (double)rel / (double)k;
        if (m->kind == RT_M_R)
            return qi->num_rel ? (double)rel / (double)qi->num_rel : 0.0;
        if (m->kind == RT_M_SUCCESS)
            return rel ? 1.0 : 0.0;
        return (double)rel;
    }
    case RT_M_AP:
    case RT_M_AP_MIN: {
        double sum = 0;
        size_t rel = 0;
        for (size_t i = 0; i < top; i++)
            if (g[i] != RT_UNJUDGED && g[i] >= level) {
                rel++;
                sum += (double)rel / (double)(i + 1);
            }
        size_t denom = qi->num_rel;
        if (m->kind == RT_M_AP_MIN && n < denom)
            denom = n;
        return denom ? sum / (double)denom : 0.0;
    }
    case RT_M_NDCG:
        return ndcg(g, n, qi, k);
    case RT_M_RPREC: {
        size_t rel = 0;
        for (size_t i = 0; i < n && i < qi->num_rel; i++)
            rel += g[i] != RT_UNJUDGED && g[i] >= level;
        return qi->num_rel ? (double)rel / (double)qi->num_rel : 0.0;
    }
    case RT_M_NUM_RET:
        return (double)top;
    case RT_M_NUM_REL:
        return (double)qi->num_rel;
    case RT_M_JUDGED: {
        size_t judged = 0;
        for (size_t i = 0; i < top; i++)
            judged += g[i] != RT_UNJUDGED;
        return (double)judged / (double)k;
    }
    }
    return 0.0;
}

int rt_measure_format(const rt_measure *m, double v, int signed_, char *buf, size_t n)
{
    if (rt_measure_is_sum(m))
        return snprintf(buf, n, signed_ ? "%+.0f" : "%.0f", v);
    return snprintf(buf, n, signed_ ? "%+.4f" : "%.4f", v);
}

static int desc_int(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x > y ? -1 : x < y;
}

void rt_qinfo_set(rt_qinfo *qi, uint32_t num_rel, int32_t *gains, size_t n)
{
    qsort(gains, n, sizeof *gains, desc_int);
    qi->num_rel = num_rel;
    qi->ideal = gains;
    qi->n_ideal = n;
}

double rt_measure_aggregate(const rt_measure *m, const double *value, const unsigned char *defined,
                            size_t nm, size_t col, const uint32_t *rows, size_t nrows,
                            size_t *n_defined)
{
    double sum = 0;
    size_t nd = 0;
    for (size_t k = 0; k < nrows; k++) {
        size_t at = (size_t)rows[k] * nm + col;
        if (!defined[at])
            continue;
        sum += value[at];
        nd++;
    }
    *n_defined = nd;
    return rt_measure_is_sum(m) ? sum : nd ? sum / (double)nd : 0.0;
}
