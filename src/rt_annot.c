/* rt_annot — applying operations to the annotation state, and the undo / redo history. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rt_annot.h"
#include "rt_mem.h"

typedef struct qstate {
    rt_label *labels;
    size_t nlabels, lcap;
    rt_tag *tags;
    size_t ntags, tcap;
    rt_leak_label *leaks;
    size_t nleaks, kcap;
    rt_adjud *adj;
    size_t nadj, acap;
    rt_review *rev;
    size_t nrev, vcap;
} qstate;

/* An applied operation and the one that reverses it. */
typedef struct hist {
    uint64_t seq;
    rt_op inverse;
} hist;

struct rt_annot {
    rt_strtab *qids, *pids;
    const rt_taxonomy *tax;
    rt_strtab *authors;
    qstate *q;
    size_t nq;
    size_t nlabels, ntagged;
    rt_qset *sets;
    size_t nsets;
    rt_package *packs;
    size_t npacks;
    hist *h;
    size_t nh, hcap;
    size_t *undo, nundo, ucap;   /* indices into h */
    size_t *redo, nredo, rcap;
    size_t nops;
    int no_history;              /* rt_annot_keep_history(a, 0): no inverses, no undo */
    uint64_t gen;                /* rt_annot_generation */
    uint64_t pkg_gen;            /* rt_annot_packages_generation */
};

/* Generations are drawn from one clock for every state: a state rebuilt from a replaced journal
 * never repeats a generation its predecessor had, so derived state cannot mistake it for the
 * one it was made from. */
static _Atomic uint64_t gen_clock;

static uint64_t next_gen(void) { return atomic_fetch_add(&gen_clock, 1) + 1; }

rt_annot *rt_annot_new(rt_strtab *qids, rt_strtab *pids, const rt_taxonomy *tax)
{
    rt_annot *a = rt_calloc(1, sizeof *a);
    a->qids = qids;
    a->pids = pids;
    a->tax = tax;
    a->authors = rt_strtab_new();
    a->gen = next_gen();
    a->pkg_gen = next_gen();
    return a;
}

uint64_t rt_annot_generation(const rt_annot *a) { return a->gen; }
uint64_t rt_annot_packages_generation(const rt_annot *a) { return a->pkg_gen; }

static void free_strings(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void free_package(rt_package *p)
{
    free(p->name);
    free(p->annotator);
    free(p->qids);
    free(p->pids);
}

static void free_set(rt_qset *s)
{
    free(s->name);
    free(s->how);
    free(s->qids);
}

void rt_annot_free(rt_annot **ap)
{
    if (!ap || !*ap)
        return;
    rt_annot *a = *ap;
    for (size_t i = 0; i < a->nq; i++) {
        qstate *q = &a->q[i];
        free(q->labels);
        for (size_t k = 0; k < q->ntags; k++)
            free(q->tags[k].note);
        free(q->tags);
        for (size_t k = 0; k < q->nleaks; k++) {
            free(q->leaks[k].train);
            free(q->leaks[k].type);
        }
        free(q->leaks);
        for (size_t k = 0; k < q->nadj; k++)
            free_strings(q->adj[k].settles, q->adj[k].nsettles);
        free(q->adj);
        for (size_t k = 0; k < q->nrev; k++)
            free(q->rev[k].package);
        free(q->rev);
    }
    free(a->q);
    for (size_t i = 0; i < a->npacks; i++)
        free_package(&a->packs[i]);
    free(a->packs);
    for (size_t i = 0; i < a->nsets; i++)
        free_set(&a->sets[i]);
    free(a->sets);
    for (size_t i = 0; i < a->nh; i++)
        rt_op_clear(&a->h[i].inverse);
    free(a->h);
    free(a->undo);
    free(a->redo);
    rt_strtab_free(&a->authors);
    free(a);
    *ap = NULL;
}

static qstate *qs(rt_annot *a, uint32_t qid)
{
    a->q = rt_grow_index(a->q, &a->nq, qid, sizeof *a->q, 0);
    return &a->q[qid];
}

static const qstate *qs_find(const rt_annot *a, uint32_t qid)
{
    return qid < a->nq ? &a->q[qid] : NULL;
}


static rt_prov prov_of(rt_annot *a, const rt_op *op)
{
    const char *who = op->author ? op->author : "";
    uint32_t id = rt_strtab_intern(a->authors, who, strlen(who));
    return (rt_prov){rt_strtab_str(a->authors, id), op->time_ms, op->seq};
}

static char *dup_or_null(const char *s) { return s ? rt_strdup(s) : NULL; }

/* A copy of the n ids at v (room for n + 1). */
static uint32_t *copy_ids(const uint32_t *v, size_t n)
{
    uint32_t *c = rt_calloc(n + 1, sizeof *c);
    if (n)
        memcpy(c, v, n * sizeof *c);
    return c;
}

/* The skeleton of an inverse: same target (by id: the journal writes its names), no payload. */
static void inverse_base(const rt_annot *a, rt_op *inv, const rt_op *op)
{
    memset(inv, 0, sizeof *inv);
    inv->kind = op->kind;
    inv->by_id = 1;
    inv->id.qid = op->id.qid;
    inv->id.pid = op->id.pid;
    if (a->no_history)
        return;   /* no undo: the inverse's strings are not needed */
    inv->train = dup_or_null(op->train);
    inv->name = dup_or_null(op->name);
}

/* ---- lookups ----------------------------------------------------------------------------- */

static rt_label *find_label(const qstate *q, uint32_t pid)
{
    for (size_t i = 0; q && i < q->nlabels; i++)
        if (q->labels[i].pid == pid)
            return &q->labels[i];
    return NULL;
}

static rt_tag *find_tag(const qstate *q, uint32_t pid)
{
    for (size_t i = 0; q && i < q->ntags; i++)
        if (q->tags[i].pid == pid)
            return &q->tags[i];
    return NULL;
}

static rt_leak_label *find_leak(const qstate *q, const char *train)
{
    for (size_t i = 0; q && i < q->nleaks; i++)
        if (strcmp(q->leaks[i].train, train) == 0)
            return &q->leaks[i];
    return NULL;
}

static rt_adjud *find_adjud(const qstate *q, uint32_t pid)
{
    for (size_t i = 0; q && i < q->nadj; i++)
        if (q->adj[i].pid == pid)
            return &q->adj[i];
    return NULL;
}

static rt_review *find_review(const qstate *q, uint32_t pid, const char *package)
{
    for (size_t i = 0; q && i < q->nrev; i++)
        if (q->rev[i].pid == pid && strcmp(q->rev[i].package, package) == 0)
            return &q->rev[i];
    return NULL;
}

static rt_package *find_package(const rt_annot *a, const char *name)
{
    for (size_t i = 0; i < a->npacks; i++)
        if (strcmp(a->packs[i].name, name) == 0)
            return &a->packs[i];
    return NULL;
}

static rt_qset *find_set(const rt_annot *a, const char *name)
{
    for (size_t i = 0; i < a->nsets; i++)
        if (strcmp(a->sets[i].name, name) == 0)
            return &a->sets[i];
    return NULL;
}

/* Whether op's ids are ones of a's tables (the session resolved them): what the state may index
 * by. A passage named in the text form but not resolved (RT_NO_ID) is not. */
static int ids_valid(const rt_annot *a, const rt_op *op)
{
    uint32_t nq = rt_strtab_count(a->qids), np = rt_strtab_count(a->pids);
    int list = op->kind == RT_OP_SET || op->kind == RT_OP_PACKAGE;
    if (!list && op->id.qid >= nq)
        return 0;
    if (!list && (op->id.pid != RT_NO_ID ? op->id.pid >= np : op->pid != NULL))
        return 0;
    for (size_t i = 0; list && i < op->nqids; i++)
        if (!op->id.qids || op->id.qids[i] >= nq ||
            (op->kind == RT_OP_PACKAGE && (!op->id.pids || op->id.pids[i] >= np)))
            return 0;
    return 1;
}

/* The category the text form names that the taxonomy lacks (for the message), or "". */
static const char *unknown_cat(const rt_annot *a, const rt_op *op)
{
    if (op->cat && rt_taxonomy_find(a->tax, op->cat) == (size_t)-1)
        return op->cat;
    for (size_t i = 0; op->cats && i < op->ncats; i++)
        if (rt_taxonomy_find(a->tax, op->cats[i]) == (size_t)-1)
            return op->cats[i];
    return "";
}

/* ---- applying ---------------------------------------------------------------------------- */

static void apply_label(rt_annot *a, const rt_op *op, rt_op *inv)
{
    qstate *q = qs(a, op->id.qid);
    uint32_t pid = op->id.pid;
    rt_label *l = find_label(q, pid);
    inverse_base(a, inv, op);
    inv->has_grade = l != NULL;
    inv->grade = l ? l->grade : 0;
    if (!op->has_grade) {
        if (l) {
            *l = q->labels[--q->nlabels];
            a->nlabels--;
        }
        return;
    }
    if (!l) {
        RT_GROW(q->labels, q->lcap, q->nlabels + 1);
        l = &q->labels[q->nlabels++];
        l->pid = pid;
        a->nlabels++;
    }
    l->grade = op->grade;
    l->prov = prov_of(a, op);
}

static rt_tag *tag_entry(rt_annot *a, qstate *q, uint32_t pid)
{
    rt_tag *t = find_tag(q, pid);
    if (!t) {
        RT_GROW(q->tags, q->tcap, q->ntags + 1);
        t = &q->tags[q->ntags++];
        memset(t, 0, sizeof *t);
        t->pid = pid;
    }
    (void)a;
    return t;
}

/* Drops an entry that holds nothing any more. */
static void tag_tidy(qstate *q, rt_tag *t)
{
    if (t->cats || t->note)
        return;
    *t = q->tags[--q->ntags];
}

static rt_status apply_tag(rt_annot *a, const rt_op *op, rt_op *inv, rt_err *err)
{
    size_t c = op->kind == RT_OP_NOTE ? 0 : op->id.cat;
    if (op->kind != RT_OP_NOTE && (op->id.unknown_cat || c >= a->tax->ncats))
        return rt_err_set(err, RT_EINPUT, "unknown category \"%s\"", unknown_cat(a, op));
    qstate *q = qs(a, op->id.qid);
    rt_tag *t = tag_entry(a, q, op->id.pid);
    inverse_base(a, inv, op);
    int had_cats = t->cats != 0;
    if (op->kind == RT_OP_NOTE) {
        inv->text = rt_strdup(t->note ? t->note : "");
        free(t->note);
        t->note = op->text && op->text[0] ? rt_strdup(op->text) : NULL;
    } else {
        unsigned long long bit = 1ull << c;
        int had = (t->cats & bit) != 0;
        inv->id.cat = c;
        inv->kind = had == (op->kind == RT_OP_TAG) ? op->kind
                    : op->kind == RT_OP_TAG ? RT_OP_UNTAG : RT_OP_TAG;
        if (op->kind == RT_OP_TAG)
            t->cats |= bit;
        else
            t->cats &= ~bit;
    }
    t->prov = prov_of(a, op);
    a->ntagged += (t->cats != 0) - had_cats;
    tag_tidy(q, t);
    return RT_OK;
}

static void apply_leak(rt_annot *a, const rt_op *op, rt_op *inv)
{
    qstate *q = qs(a, op->id.qid);
    rt_leak_label *l = find_leak(q, op->train);
    inverse_base(a, inv, op);
    inv->text = rt_strdup(l ? l->type : "");
    if (!op->text[0]) {
        if (l) {
            free(l->train);
            free(l->type);
            *l = q->leaks[--q->nleaks];
        }
        return;
    }
    if (!l) {
        RT_GROW(q->leaks, q->kcap, q->nleaks + 1);
        l = &q->leaks[q->nleaks++];
        l->train = rt_strdup(op->train);
        l->type = NULL;
    }
    free(l->type);
    l->type = rt_strdup(op->text);
    l->prov = prov_of(a, op);
}

static void apply_set(rt_annot *a, const rt_op *op, rt_op *inv)
{
    rt_qset *s = find_set(a, op->name);
    inverse_base(a, inv, op);
    inv->has_list = s != NULL;
    if (s) {
        inv->text = dup_or_null(s->how);
        inv->nqids = s->n;
        inv->id.qids = copy_ids(s->qids, s->n);
        free_set(s);
        *s = a->sets[--a->nsets];
    }
    if (!op->has_list)
        return;
    a->sets = rt_reallocarray(a->sets, a->nsets + 1, sizeof *a->sets);
    s = &a->sets[a->nsets++];
    s->name = rt_strdup(op->name);
    s->how = dup_or_null(op->text);
    s->n = op->nqids;
    s->qids = copy_ids(op->id.qids, op->nqids);
}

static char **copy_strings(char *const *v, size_t n)
{
    char **c = n ? rt_calloc(n, sizeof *c) : NULL;
    for (size_t i = 0; i < n; i++)
        c[i] = rt_strdup(v[i]);
    return c;
}

static rt_status apply_adjudicate(rt_annot *a, const rt_op *op, rt_op *inv, rt_err *err)
{
    unsigned long long cats = op->has_cats ? op->id.cats : 0;
    if (op->has_cats && (op->id.unknown_cat || (a->tax->ncats < 64 && cats >> a->tax->ncats)))
        return rt_err_set(err, RT_EINPUT, "unknown category \"%s\"", unknown_cat(a, op));
    qstate *q = qs(a, op->id.qid);
    uint32_t pid = op->id.pid;
    rt_adjud *d = find_adjud(q, pid);
    inverse_base(a, inv, op);
    if (d) {   /* the inverse restores the adjudication this one replaces */
        inv->has_grade = d->has_grade;
        inv->grade = d->grade;
        inv->has_cats = d->has_cats;
        inv->id.cats = d->has_cats ? d->cats : 0;
        inv->settles = copy_strings(d->settles, d->nsettles);
        inv->nsettles = d->nsettles;
        free_strings(d->settles, d->nsettles);
    }
    if (!op->has_grade && !op->has_cats) {   /* withdrawn */
        if (d)
            *d = q->adj[--q->nadj];
        return RT_OK;
    }
    if (!d) {
        RT_GROW(q->adj, q->acap, q->nadj + 1);
        d = &q->adj[q->nadj++];
        d->pid = pid;
    }
    d->has_grade = op->has_grade;
    d->grade = op->grade;
    d->has_cats = op->has_cats;
    d->cats = cats;
    d->settles = copy_strings(op->settles, op->nsettles);
    d->nsettles = op->nsettles;
    d->prov = prov_of(a, op);
    return RT_OK;
}

static void apply_package(rt_annot *a, const rt_op *op, rt_op *inv)
{
    rt_package *p = find_package(a, op->name);
    inverse_base(a, inv, op);
    inv->has_list = p != NULL;
    inv->text = rt_strdup(p ? p->annotator : op->text);
    if (p) {
        inv->nqids = p->n;
        inv->id.qids = copy_ids(p->qids, p->n);
        inv->id.pids = copy_ids(p->pids, p->n);
        inv->seed = p->seed;
        inv->sample = (uint32_t)p->sample;
        free_package(p);
        *p = a->packs[--a->npacks];
    }
    if (!op->has_list)
        return;
    a->packs = rt_reallocarray(a->packs, a->npacks + 1, sizeof *a->packs);
    p = &a->packs[a->npacks++];
    p->name = rt_strdup(op->name);
    p->annotator = rt_strdup(op->text);
    p->n = op->nqids;
    p->qids = copy_ids(op->id.qids, op->nqids);
    p->pids = copy_ids(op->id.pids, op->nqids);
    p->seed = op->seed;
    p->sample = op->sample;
    p->prov = prov_of(a, op);
}

static void apply_review(rt_annot *a, const rt_op *op, rt_op *inv)
{
    qstate *q = qs(a, op->id.qid);
    uint32_t pid = op->id.pid;
    rt_review *r = find_review(q, pid, op->name);
    inverse_base(a, inv, op);
    inv->text = rt_strdup(r ? (r->correct ? "correct" : "wrong") : "");
    if (!op->text[0]) {
        if (r) {
            free(r->package);
            *r = q->rev[--q->nrev];
        }
        return;
    }
    if (!r) {
        RT_GROW(q->rev, q->vcap, q->nrev + 1);
        r = &q->rev[q->nrev++];
        r->pid = pid;
        r->package = rt_strdup(op->name);
    }
    r->correct = strcmp(op->text, "correct") == 0;
    r->prov = prov_of(a, op);
}

/* Keeps the undo and redo stacks in step with the op; returns a warning when they disagree. */
static const char *track_history(rt_annot *a, const rt_op *op, size_t hi)
{
    const char *warn = NULL;
    if (op->undo) {
        if (a->nundo && a->h[a->undo[a->nundo - 1]].seq == op->undo) {
            a->nundo--;
            RT_GROW(a->redo, a->rcap, a->nredo + 1);
            a->redo[a->nredo++] = hi;
            return NULL;
        }
        warn = "an undo does not match the history; undo history reset";
    } else if (op->redo) {
        if (a->nredo && a->h[a->redo[a->nredo - 1]].seq == op->redo) {
            a->nredo--;
            RT_GROW(a->undo, a->ucap, a->nundo + 1);
            a->undo[a->nundo++] = hi;
            return NULL;
        }
        warn = "a redo does not match the history; undo history reset";
    }
    if (warn)
        a->nundo = 0;
    a->nredo = 0;
    RT_GROW(a->undo, a->ucap, a->nundo + 1);
    a->undo[a->nundo++] = hi;
    return warn;
}

void rt_annot_keep_history(rt_annot *a, int keep) { a->no_history = !keep; }

rt_status rt_annot_apply(rt_annot *a, const rt_op *op, const char **warning, rt_err *err)
{
    rt_op inv;
    memset(&inv, 0, sizeof inv);
    if (!op->by_id || !ids_valid(a, op))   /* the session resolves text to ids first */
        return rt_err_set(err, RT_EINPUT, "operation %s not resolved to this workspace's ids",
                          rt_op_kind_name(op->kind));
    rt_status st = RT_OK;
    switch (op->kind) {
    case RT_OP_LABEL: apply_label(a, op, &inv); break;
    case RT_OP_TAG:
    case RT_OP_UNTAG:
    case RT_OP_NOTE: st = apply_tag(a, op, &inv, err); break;
    case RT_OP_LEAK: apply_leak(a, op, &inv); break;
    case RT_OP_SET: apply_set(a, op, &inv); break;
    case RT_OP_ADJUDICATE: st = apply_adjudicate(a, op, &inv, err); break;
    case RT_OP_PACKAGE: apply_package(a, op, &inv); break;
    case RT_OP_REVIEW: apply_review(a, op, &inv); break;
    default: st = rt_err_set(err, RT_EINPUT, "unknown operation");
    }
    if (st == RT_OK && op->kind != RT_OP_SET && op->kind != RT_OP_PACKAGE)
        a->gen = next_gen();   /* a query's or pair's state changed (see rt_annot_generation) */
    if (st == RT_OK && op->kind == RT_OP_PACKAGE)
        a->pkg_gen = next_gen();   /* the package array moved or changed (an undo frees one) */
    if (st != RT_OK || a->no_history) {
        rt_op_clear(&inv);
        a->nops += st == RT_OK;
        if (warning)
            *warning = NULL;
        return st;
    }
    RT_GROW(a->h, a->hcap, a->nh + 1);
    a->h[a->nh].seq = op->seq;
    a->h[a->nh].inverse = inv;
    const char *w = track_history(a, op, a->nh);
    a->nh++;
    a->nops++;
    if (warning)
        *warning = w;
    return RT_OK;
}

int rt_annot_is_noop(const rt_annot *a, const rt_op *op)
{
    uint32_t qid = op->id.qid, pid = op->id.pid;
    const qstate *q = qs_find(a, qid);
    int pid_known = pid != RT_NO_ID || !op->pid;   /* a text pid not resolved: none of the state's */
    switch (op->kind) {
    case RT_OP_LABEL: {
        const rt_label *l = pid_known ? find_label(q, pid) : NULL;
        return op->has_grade ? l && l->grade == op->grade : !l;
    }
    case RT_OP_TAG:
    case RT_OP_UNTAG: {
        size_t c = op->id.cat;
        const rt_tag *t = pid_known ? find_tag(q, pid) : NULL;
        int has = !op->id.unknown_cat && c < a->tax->ncats && t && (t->cats >> c & 1);
        return op->kind == RT_OP_TAG ? has : !has;
    }
    case RT_OP_NOTE: {
        const rt_tag *t = pid_known ? find_tag(q, pid) : NULL;
        const char *cur = t && t->note ? t->note : "";
        return strcmp(cur, op->text ? op->text : "") == 0;
    }
    case RT_OP_LEAK: {
        const rt_leak_label *l = find_leak(q, op->train);
        return strcmp(l ? l->type : "", op->text) == 0;
    }
    case RT_OP_SET: {
        const rt_qset *set = find_set(a, op->name);
        if (!set || !op->has_list)
            return !set && !op->has_list;
        if (set->n != op->nqids)
            return 0;
        for (size_t i = 0; i < set->n; i++)
            if (!op->id.qids || set->qids[i] != op->id.qids[i])
                return 0;
        return 1;
    }
    case RT_OP_ADJUDICATE: {
        const rt_adjud *d = pid_known ? find_adjud(q, pid) : NULL;
        if (!op->has_grade && !op->has_cats)
            return !d;
        unsigned long long cats = op->has_cats ? op->id.cats : 0;
        return d && d->has_grade == op->has_grade && (!op->has_grade || d->grade == op->grade) &&
               d->has_cats == op->has_cats && (!op->has_cats || d->cats == cats);
    }
    case RT_OP_REVIEW: {   /* a mark given again is a change: it dates the check anew (the
                            * annotator may have changed the decision since; rt_package) */
        const rt_review *r = pid_known ? find_review(q, pid, op->name) : NULL;
        return !op->text[0] && !r;
    }
    case RT_OP_PACKAGE: {
        const rt_package *p = find_package(a, op->name);
        if (!p || !op->has_list)
            return !p && !op->has_list;
        if (p->n != op->nqids || strcmp(p->annotator, op->text) != 0 || p->seed != op->seed || p->sample != op->sample)
            return 0;
        for (size_t i = 0; i < p->n; i++)
            if (!op->id.qids || !op->id.pids || p->qids[i] != op->id.qids[i] || p->pids[i] != op->id.pids[i])
                return 0;
        return 1;
    }
    default:
        return 0;
    }
}

int rt_annot_undo_op(const rt_annot *a, rt_op *out)
{
    if (!a->nundo)
        return 0;
    const hist *h = &a->h[a->undo[a->nundo - 1]];
    rt_op_copy(out, &h->inverse);
    out->undo = h->seq;
    out->redo = 0;
    return 1;
}

int rt_annot_redo_op(const rt_annot *a, rt_op *out)
{
    if (!a->nredo)
        return 0;
    const hist *h = &a->h[a->redo[a->nredo - 1]];
    rt_op_copy(out, &h->inverse);
    out->redo = h->seq;
    out->undo = 0;
    return 1;
}

/* ---- reading ----------------------------------------------------------------------------- */

const rt_label *rt_annot_labels(const rt_annot *a, uint32_t qid, size_t *n)
{
    const qstate *q = qs_find(a, qid);
    *n = q ? q->nlabels : 0;
    return q ? q->labels : NULL;
}

const rt_label *rt_annot_label(const rt_annot *a, uint32_t qid, uint32_t pid)
{
    return find_label(qs_find(a, qid), pid);
}

size_t rt_annot_nlabels(const rt_annot *a) { return a->nlabels; }

const rt_tag *rt_annot_tags(const rt_annot *a, uint32_t qid, size_t *n)
{
    const qstate *q = qs_find(a, qid);
    *n = q ? q->ntags : 0;
    return q ? q->tags : NULL;
}

const rt_tag *rt_annot_tag(const rt_annot *a, uint32_t qid, uint32_t pid)
{
    return find_tag(qs_find(a, qid), pid);
}

size_t rt_annot_tag_count(const rt_annot *a, uint32_t qid)
{
    size_t n, c = 0;
    const rt_tag *t = rt_annot_tags(a, qid, &n);
    for (size_t i = 0; i < n; i++)
        c += t[i].cats != 0;
    return c;
}

size_t rt_annot_ntagged(const rt_annot *a) { return a->ntagged; }

const rt_leak_label *rt_annot_leaks(const rt_annot *a, uint32_t qid, size_t *n)
{
    const qstate *q = qs_find(a, qid);
    *n = q ? q->nleaks : 0;
    return q ? q->leaks : NULL;
}

const rt_leak_label *rt_annot_leak(const rt_annot *a, uint32_t qid, const char *train)
{
    return find_leak(qs_find(a, qid), train);
}

const rt_qset *rt_annot_set(const rt_annot *a, const char *name) { return find_set(a, name); }

const rt_qset *rt_annot_sets(const rt_annot *a, size_t *n)
{
    *n = a->nsets;
    return a->sets;
}

size_t rt_annot_nops(const rt_annot *a) { return a->nops; }
size_t rt_annot_can_undo(const rt_annot *a) { return a->nundo; }
size_t rt_annot_can_redo(const rt_annot *a) { return a->nredo; }

const rt_adjud *rt_annot_adjuds(const rt_annot *a, uint32_t qid, size_t *n)
{
    const qstate *q = qs_find(a, qid);
    *n = q ? q->nadj : 0;
    return q ? q->adj : NULL;
}

const rt_adjud *rt_annot_adjud(const rt_annot *a, uint32_t qid, uint32_t pid) { return find_adjud(qs_find(a, qid), pid); }

const rt_package *rt_annot_packages(const rt_annot *a, size_t *n)
{
    *n = a->npacks;
    return a->packs;
}

const rt_package *rt_annot_package(const rt_annot *a, const char *name) { return find_package(a, name); }

const rt_review *rt_annot_reviews(const rt_annot *a, uint32_t qid, size_t *n)
{
    const qstate *q = qs_find(a, qid);
    *n = q ? q->nrev : 0;
    return q ? q->rev : NULL;
}

const rt_review *rt_annot_review(const rt_annot *a, uint32_t qid, uint32_t pid, const char *package)
{
    return find_review(qs_find(a, qid), pid, package);
}
