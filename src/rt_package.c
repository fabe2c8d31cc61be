/* rt_package — packages of pairs to judge, their review samples and the review report. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_names.h"
#include "rt_package.h"
#include "rt_id.h"
#include "rt_pool.h"
#include "rt_rng.h"

/* ---- making packages --------------------------------------------------------------------- */

/* The pairs of the package being filled, as the workspace's ids: a package is made and applied
 * by ids, and its names are written only by the journal (rt_op_to_json_names), so that making
 * packages of a million pairs copies no string and interns nothing. */
typedef struct pending {
    uint32_t *q, *p;
    size_t n, cap;
    size_t queries;
} pending;

static void emit(const rt_package_plan *plan, pending *pk, rt_op **ops, size_t *n, size_t *cap)
{
    if (!pk->n)
        return;
    RT_GROW(*ops, *cap, *n + 1);
    rt_op *op = &(*ops)[*n];
    memset(op, 0, sizeof *op);
    op->kind = RT_OP_PACKAGE;
    op->by_id = 1;   /* no text form: the journal names the ids as it writes the line */
    op->id.qid = op->id.pid = RT_NO_ID;   /* a package names its pairs, not one query */
    char name[256];
    snprintf(name, sizeof name, "%.200s-%03zu", plan->prefix && plan->prefix[0] ? plan->prefix : "pkg", *n + 1);
    op->name = rt_strdup(name);
    op->text = rt_strdup(plan->annotators[*n % plan->nannotators]);
    op->has_list = 1;
    op->id.qids = pk->q;
    op->id.pids = pk->p;
    op->nqids = pk->n;
    op->seed = (plan->seed + *n) & ((1ull << 53) - 1);   /* JSON holds it exactly */
    op->sample = (uint32_t)(plan->sample ? plan->sample : RT_PACKAGE_SAMPLE);
    (*n)++;
    *pk = (pending){0};
}

rt_status rt_package_make(const rt_workspace *ws, const rt_package_plan *plan, rt_op **ops, size_t *n,
                          rt_err *err)
{
    *ops = NULL;
    *n = 0;
    if (!plan->nannotators)
        return rt_err_set(err, RT_EUSAGE, "no annotator to assign the packages to");
    const char *why = plan->prefix ? rt_name_problem(plan->prefix) : NULL;
    char shown[80];
    if (why)   /* it begins every package's name: the rule of names */
        return rt_err_set(err, RT_EUSAGE, "package prefix \"%s\": %s",
                          rt_id_show(plan->prefix, strlen(plan->prefix), shown, sizeof shown), why);
    for (size_t i = 0; i < plan->nannotators; i++)
        if ((why = rt_name_problem(plan->annotators[i])) != NULL)
            return rt_err_set(err, RT_EUSAGE, "\"%s\" cannot name an annotator: %s",
                              rt_id_show(plan->annotators[i], strlen(plan->annotators[i]), shown, sizeof shown), why);
    size_t depth = plan->depth ? plan->depth : 10, size = plan->size ? plan->size : RT_PACKAGE_SIZE;
    const rt_run **runs = rt_calloc(ws->nruns + 1, sizeof *runs);
    for (size_t r = 0; r < ws->nruns; r++)
        runs[r] = ws->runs[r].run;
    const uint32_t *qs = plan->qids ? plan->qids : ws->qlist;
    size_t nq = plan->qids ? plan->nqids : ws->nq, cap = 0, pcap = 0, total = 0;
    rt_pool_entry *pool = NULL;
    pending pk = {0};
    for (size_t i = 0; i < nq; i++) {
        size_t np = rt_pool_query(runs, ws->nruns, qs[i], depth, ws->pids, &pool, &pcap), keep = 0;
        for (size_t k = 0; k < np; k++) {
            int32_t g;
            if (!plan->unjudged || !rt_workspace_grade(ws, qs[i], pool[k].pid, &g))
                pool[keep++] = pool[k];
        }
        if (!keep)
            continue;
        if (pk.n && pk.n + keep > size)
            emit(plan, &pk, ops, n, &cap);   /* this query starts the next package */
        RT_GROW(pk.q, pk.cap, pk.n + keep);
        pk.p = rt_reallocarray(pk.p, pk.cap + 1, sizeof *pk.p);
        for (size_t k = 0; k < keep; k++) {
            pk.q[pk.n] = qs[i];
            pk.p[pk.n++] = pool[k].pid;
        }
        pk.queries++;
        total += keep;
    }
    emit(plan, &pk, ops, n, &cap);
    free(pool);
    free(runs);
    if (!total)
        return rt_err_set(err, RT_EUSAGE, "no pair to judge (depth %zu%s)", depth,
                          plan->unjudged ? ", unjudged pairs only" : "");
    return RT_OK;
}

size_t rt_package_sample(const rt_package *p, size_t *idx)
{
    size_t k = p->sample < p->n ? p->sample : p->n;
    for (size_t i = 0; i < p->n; i++)
        idx[i] = i;
    uint64_t st = p->seed;
    for (size_t i = 0; i < k; i++) {
        size_t j = i + (size_t)rt_rng_below(&st, p->n - i);
        size_t t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    return k;
}

/* ---- the team's packages ----------------------------------------------------------------- */

size_t rt_team_packages(const rt_team *t, rt_team_package **out)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    for (size_t m = 0; m < t->n; m++) {
        size_t np;
        const rt_package *ps = rt_annot_packages(t->m[m].s->annot, &np);
        for (size_t i = 0; i < np; i++) {
            size_t k = 0;
            while (k < n && strcmp((*out)[k].p->name, ps[i].name) != 0)
                k++;
            if (k < n) {
                if (ps[i].prov.time_ms > (*out)[k].p->prov.time_ms)
                    (*out)[k] = (rt_team_package){&ps[i], m};
                continue;
            }
            RT_GROW(*out, cap, n + 1);
            (*out)[n++] = (rt_team_package){&ps[i], m};
        }
    }
    return n;
}

const char *rt_package_name_taken(const rt_team *t, const rt_op *ops, size_t n, size_t *owner)
{
    for (size_t i = 0; i < n; i++)
        for (size_t m = 0; m < t->n; m++)
            if (rt_annot_package(t->m[m].s->annot, ops[i].name)) {
                *owner = m;
                return ops[i].name;
            }
    return NULL;
}

static int by_package_name(const void *x, const void *y)
{
    return strcmp(((const rt_package_state *)x)->p->name, ((const rt_package_state *)y)->p->name);
}

/* Whether review v of a pair still judges the annotator's decision: one they had made when it was
 * given. A mark on a pair they had not judged checked nothing; one older than their current
 * decision checked a decision they have since changed (a package sent back for revision is
 * reviewed again where it changed). */
static int review_holds(const rt_annot *judge, uint32_t qid, uint32_t pid, const rt_review *v)
{
    const rt_label *l = judge && v ? rt_annot_label(judge, qid, pid) : NULL;
    return l && l->prov.time_ms <= v->prov.time_ms;
}

int rt_package_review_holds(const rt_team *t, const rt_package_state *s, uint32_t qid, uint32_t pid,
                            const rt_review *v)
{
    return review_holds(s->annotator != (size_t)-1 ? t->m[s->annotator].s->annot : NULL, qid, pid, v);
}

static void package_state(const rt_team *t, rt_package_state *s, double threshold, size_t min_reviewers)
{
    const rt_package *p = s->p;
    s->annotator = rt_team_find(t, p->annotator);
    for (size_t i = 0; s->annotator != (size_t)-1 && i < p->n; i++)
        s->judged += rt_annot_label(t->m[s->annotator].s->annot, p->qids[i], p->pids[i]) != NULL;
    size_t *idx = rt_calloc(p->n + 1, sizeof *idx);
    s->sample = rt_package_sample(p, idx);
    const rt_annot *judge = s->annotator != (size_t)-1 ? t->m[s->annotator].s->annot : NULL;
    for (size_t m = 0; m < t->n; m++) {
        if (m == s->annotator)
            continue;   /* one's own decisions reviewed by oneself check nothing: never counted */
        rt_package_reviewer r = {.member = m};
        for (size_t i = 0; i < s->sample; i++) {
            const rt_review *v = rt_annot_review(t->m[m].s->annot, p->qids[idx[i]], p->pids[idx[i]], p->name);
            if (v && review_holds(judge, p->qids[idx[i]], p->pids[idx[i]], v)) {
                r.reviewed++;
                r.correct += v->correct != 0;
            }
        }
        if (!r.reviewed)
            continue;
        r.complete = r.reviewed == s->sample;
        s->rev = rt_reallocarray(s->rev, s->nrev + 1, sizeof *s->rev);
        s->rev[s->nrev++] = r;
    }
    free(idx);
    /* Every complete reviewer reviewed the same sample, so the mean of their accuracies is their
     * correct marks over their marks: one division of whole numbers, correctly rounded, so that
     * three reviewers at 19/20 are at 0.95 exactly (a sum of three 0.95s over 3 is 0.9499…98
     * and failed a threshold of 0.95). */
    size_t correct = 0, marks = 0;
    for (size_t i = 0; i < s->nrev; i++)
        if (s->rev[i].complete) {
            s->complete++;
            correct += s->rev[i].correct;
            marks += s->rev[i].reviewed;
        }
    s->has_accuracy = s->complete > 0;
    s->accuracy = marks ? (double)correct / (double)marks : 0;
    if (s->complete >= (min_reviewers ? min_reviewers : 1) && s->sample)
        s->status = s->accuracy >= threshold ? "pass" : "revise";
    else
        s->status = s->judged < p->n ? "judging" : "in review";
}

rt_package_report *rt_package_report_make(const rt_team *t, double threshold, size_t min_reviewers)
{
    rt_package_report *r = rt_calloc(1, sizeof *r);
    r->threshold = threshold;
    r->min_reviewers = min_reviewers;
    rt_team_package *tp;
    r->n = rt_team_packages(t, &tp);
    r->s = rt_calloc(r->n + 1, sizeof *r->s);
    for (size_t i = 0; i < r->n; i++) {
        r->s[i].p = tp[i].p;
        r->s[i].owner = tp[i].owner;
        package_state(t, &r->s[i], threshold, min_reviewers);
        r->pairs += r->s[i].p->n;
        r->judged += r->s[i].judged;
        r->passed += strcmp(r->s[i].status, "pass") == 0;
        r->revise += strcmp(r->s[i].status, "revise") == 0;
    }
    free(tp);
    if (r->n)
        qsort(r->s, r->n, sizeof *r->s, by_package_name);
    r->ngens = t->n;
    r->gens = rt_calloc(2 * t->n + 1, sizeof *r->gens);
    for (size_t m = 0; m < t->n; m++) {
        r->gens[2 * m] = rt_annot_generation(t->m[m].s->annot);
        r->gens[2 * m + 1] = rt_annot_packages_generation(t->m[m].s->annot);
    }
    return r;
}

int rt_package_report_current(const rt_team *t, const rt_package_report *r)
{
    if (!r || r->ngens != t->n)
        return 0;
    for (size_t m = 0; m < t->n; m++)
        if (r->gens[2 * m] != rt_annot_generation(t->m[m].s->annot) ||
            r->gens[2 * m + 1] != rt_annot_packages_generation(t->m[m].s->annot))
            return 0;
    return 1;
}

void rt_package_report_free(rt_package_report **rp)
{
    if (!rp || !*rp)
        return;
    for (size_t i = 0; i < (*rp)->n; i++)
        free((*rp)->s[i].rev);
    free((*rp)->s);
    free((*rp)->gens);
    free(*rp);
    *rp = NULL;
}

const rt_package_state *rt_package_report_find(const rt_package_report *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->s[i].p->name, name) == 0)
            return &r->s[i];
    return NULL;
}

const char *rt_package_exact(double v, char *buf, size_t n)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

static void put_exact(char *buf, size_t n, double v) { rt_package_exact(v, buf, n); }

rt_table *rt_package_report_table(const rt_team *t, const rt_package_report *r)
{
    const char *h[] = {"package", "annotator", "judged", "pairs", "sample", "reviewers", "accuracy", "mean", "status"};
    rt_table *tab = rt_table_new(9, h);
    for (size_t c = 2; c < 8; c++)   /* judged, pairs, sample, reviewers, (accuracy is text), mean */
        if (c != 6)
            rt_table_number(tab, c);
    for (size_t i = 0; i < r->n; i++) {
        const rt_package_state *s = &r->s[i];
        char judged[32], pairs[32], sample[32], nrev[32], mean[32], acc[1024] = "", who[256];
        snprintf(judged, sizeof judged, "%zu", s->judged);
        snprintf(pairs, sizeof pairs, "%zu", s->p->n);
        snprintf(sample, sizeof sample, "%zu", s->sample);
        snprintf(nrev, sizeof nrev, "%zu", s->nrev);
        size_t o = 0;
        for (size_t k = 0; k < s->nrev && o < sizeof acc; k++) {
            const rt_package_reviewer *v = &s->rev[k];
            o += (size_t)snprintf(acc + o, sizeof acc - o, "%s%s %.4f (%zu/%zu)", k ? "; " : "", t->m[v->member].name,
                                  (double)v->correct / (double)v->reviewed, v->correct, v->reviewed);
        }
        if (s->has_accuracy)   /* exact: it is what the threshold is compared with */
            put_exact(mean, sizeof mean, s->accuracy);
        else
            snprintf(mean, sizeof mean, "-");
        /* a team of named annotators may leave out one who has a journal: do not say they have none */
        snprintf(who, sizeof who, "%s%s", s->p->annotator, s->annotator != (size_t)-1 ? ""
                                                          : t->all ? " (no journal yet)"
                                                                   : " (not among the annotators read)");
        const char *row[] = {s->p->name, who, judged, pairs, sample, nrev, acc, mean, s->status};
        rt_table_add(tab, row);
    }
    char judged[32], pairs[32], st[128], thr[32];
    snprintf(judged, sizeof judged, "%zu", r->judged);
    snprintf(pairs, sizeof pairs, "%zu", r->pairs);
    put_exact(thr, sizeof thr, r->threshold);
    snprintf(st, sizeof st, "%zu pass, %zu revise (threshold %s, %zu reviewers)", r->passed, r->revise, thr,
             r->min_reviewers);
    const char *tot[] = {"total", "", judged, pairs, "", "", "", "", st};
    rt_table_add(tab, tot);
    return tab;
}
