/* rt_team — several annotators' journals together, and their agreement. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_team.h"

/* ---- the members ------------------------------------------------------------------------- */

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

rt_status rt_team_list(const char *dir, char ***names, size_t *n, rt_err *err)
{
    *names = NULL;
    *n = 0;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        if (errno == ENOENT)
            return RT_OK;   /* no folder yet: nobody has annotated */
        return rt_err_set(err, RT_EINPUT, "%s: cannot read the journal folder: %s", dir, strerror(errno));
    }
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        struct stat sb;
        if (len <= 6 || e->d_name[0] == '.' || strcmp(e->d_name + len - 6, ".jsonl") != 0 ||
            fstatat(dfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
            continue;
        RT_GROW(*names, cap, *n + 1);
        (*names)[(*n)++] = rt_strndup(e->d_name, len - 6);
    }
    closedir(d);
    if (*n)
        qsort(*names, *n, sizeof **names, by_name);
    return RT_OK;
}

void rt_team_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static rt_status check_named(char *const *names, size_t n, char **have, size_t nh, const char *dir, rt_err *err)
{
    for (size_t i = 0; i < n; i++) {
        int found = 0;
        for (size_t k = 0; k < nh && !found; k++)
            found = strcmp(names[i], have[k]) == 0;
        if (found)
            continue;
        size_t len = 1;
        for (size_t k = 0; k < nh; k++)
            len += strlen(have[k]) + 2;
        char *list = rt_calloc(len, 1);
        for (size_t k = 0; k < nh; k++)
            strcat(strcat(list, k ? ", " : ""), have[k]);
        rt_err_set(err, RT_EUSAGE, "no journal of annotator \"%s\" in %s (%s%s)", names[i], dir,
                   nh ? "journals there: " : "no journals there", list);
        free(list);
        return RT_EUSAGE;
    }
    return RT_OK;
}

static int member_cmp(const void *x, const void *y)
{
    return strcmp(((const rt_member *)x)->name, ((const rt_member *)y)->name);
}

rt_status rt_team_open(rt_team **out, rt_workspace *ws, rt_session *self, const char *dir,
                       char *const *names, size_t n, rt_err *err)
{
    *out = NULL;
    char **have;
    size_t nh;
    rt_status st = rt_team_list(dir, &have, &nh, err);
    if (st == RT_OK && names)
        st = check_named(names, n, have, nh, dir, err);
    if (st != RT_OK) {
        rt_team_names_free(have, nh);
        return st;
    }
    char **want = names ? (char **)names : have;
    size_t nw = names ? n : nh;
    rt_team *t = rt_calloc(1, sizeof *t);
    t->ws = ws;
    t->m = rt_calloc(nw ? nw : 1, sizeof *t->m);
    for (size_t i = 0; i < nw; i++) {
        if (rt_team_find(t, want[i]) != (size_t)-1)
            continue;   /* named twice */
        rt_member *m = &t->m[t->n];
        m->name = rt_strdup(want[i]);
        if (self && strcmp(self->annotator, want[i]) == 0) {
            m->s = self;
            m->self = 1;
        } else if ((st = rt_session_open(&m->s, ws, dir, want[i], 1, err)) != RT_OK) {
            free(m->name);
            break;
        }
        t->n++;
    }
    rt_team_names_free(have, nh);
    if (st != RT_OK) {
        rt_team_free(&t);
        return st;
    }
    qsort(t->m, t->n, sizeof *t->m, member_cmp);
    *out = t;
    return RT_OK;
}

void rt_team_free(rt_team **tp)
{
    if (!tp || !*tp)
        return;
    rt_team *t = *tp;
    for (size_t i = 0; i < t->n; i++) {
        if (!t->m[i].self)
            rt_session_close(&t->m[i].s);
        free(t->m[i].name);
    }
    free(t->m);
    free(t);
    *tp = NULL;
}

size_t rt_team_find(const rt_team *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->m[i].name, name) == 0)
            return i;
    return (size_t)-1;
}

/* ---- agreement --------------------------------------------------------------------------- */

static const rt_annot *A(const rt_team *t, size_t i) { return t->m[i].s->annot; }

static int relevant(const rt_team *t, int32_t grade) { return grade >= t->ws->level; }

static void pair_relevance(const rt_team *t, rt_pair_agreement *p)
{
    size_t cap = 0, n = 0;
    int *ra = NULL, *rb = NULL, *ga = NULL, *gb = NULL;
    size_t cap2 = 0, cap3 = 0, cap4 = 0;
    int nlab = t->ws->graded ? 4 : 2;
    for (uint32_t q = 0; q < rt_strtab_count(t->ws->qids); q++) {
        size_t nl;
        const rt_label *la = rt_annot_labels(A(t, p->a), q, &nl);
        for (size_t k = 0; k < nl; k++) {
            const rt_label *lb = rt_annot_label(A(t, p->b), q, la[k].pid);
            if (!lb)
                continue;
            RT_GROW(ra, cap, n + 1);
            RT_GROW(rb, cap2, n + 1);
            RT_GROW(ga, cap3, n + 1);
            RT_GROW(gb, cap4, n + 1);
            ra[n] = relevant(t, la[k].grade);
            rb[n] = relevant(t, lb->grade);
            ga[n] = la[k].grade < 0 ? 0 : la[k].grade >= nlab ? nlab - 1 : la[k].grade;
            gb[n] = lb->grade < 0 ? 0 : lb->grade >= nlab ? nlab - 1 : lb->grade;
            n++;
        }
    }
    p->relevance = rt_kappa_cohen(ra, rb, n, 2, RT_KAPPA_UNWEIGHTED);
    if (t->ws->graded) {
        p->linear = rt_kappa_cohen(ga, gb, n, nlab, RT_KAPPA_LINEAR);
        p->quadratic = rt_kappa_cohen(ga, gb, n, nlab, RT_KAPPA_QUADRATIC);
    } else {
        p->linear = p->quadratic = (rt_agreement){.why = "binary workspace: no grades to weight", .items = n};
    }
    free(ra);
    free(rb);
    free(ga);
    free(gb);
}

static void pair_tags(const rt_team *t, rt_pair_agreement *p, size_t ncats)
{
    size_t cap = 0, cap2 = 0, n = 0;
    unsigned long long *ca = NULL, *cb = NULL;
    for (uint32_t q = 0; q < rt_strtab_count(t->ws->qids); q++) {
        size_t nt;
        const rt_tag *ta = rt_annot_tags(A(t, p->a), q, &nt);
        for (size_t k = 0; k < nt; k++) {
            if (ta[k].pid == RT_NO_ID || !ta[k].cats)
                continue;
            const rt_tag *tb = rt_annot_tag(A(t, p->b), q, ta[k].pid);
            if (!tb || !tb->cats)
                continue;
            RT_GROW(ca, cap, n + 1);
            RT_GROW(cb, cap2, n + 1);
            ca[n] = ta[k].cats;
            cb[n] = tb->cats;
            n++;
        }
    }
    p->tag_items = n;
    p->category = rt_calloc(ncats ? ncats : 1, sizeof *p->category);
    int *xa = rt_calloc(n + 1, sizeof *xa), *xb = rt_calloc(n + 1, sizeof *xb);
    for (size_t c = 0; c < ncats; c++) {
        for (size_t i = 0; i < n; i++) {
            xa[i] = (int)(ca[i] >> c & 1);
            xb[i] = (int)(cb[i] >> c & 1);
        }
        p->category[c] = rt_kappa_cohen(xa, xb, n, 2, RT_KAPPA_UNWEIGHTED);
    }
    free(xa);
    free(xb);
    free(ca);
    free(cb);
}

static int key_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Fleiss over the items all judged, Krippendorff over the items anyone judged. */
static void overall(const rt_team *t, rt_team_agreement *r)
{
    size_t cap = 0, nk = 0;
    uint64_t *keys = NULL;
    for (size_t m = 0; m < t->n; m++)
        for (uint32_t q = 0; q < rt_strtab_count(t->ws->qids); q++) {
            size_t nl;
            const rt_label *l = rt_annot_labels(A(t, m), q, &nl);
            RT_GROW(keys, cap, nk + nl);
            for (size_t k = 0; k < nl; k++)
                keys[nk++] = (uint64_t)q << 32 | l[k].pid;
        }
    if (nk)
        qsort(keys, nk, sizeof *keys, key_cmp);
    size_t nu = 0;
    for (size_t i = 0; i < nk; i++)
        if (i == 0 || keys[i] != keys[i - 1])
            keys[nu++] = keys[i];
    r->units = nu;
    int nlab = t->ws->graded ? 4 : 2;
    int *v = rt_calloc(nu * t->n + 1, sizeof *v);
    int *counts = rt_calloc(nu * 2 + 1, sizeof *counts);
    size_t nall = 0;
    for (size_t u = 0; u < nu; u++) {
        uint32_t q = (uint32_t)(keys[u] >> 32), p = (uint32_t)keys[u];
        size_t judged = 0;
        int c[2] = {0, 0};
        for (size_t m = 0; m < t->n; m++) {
            const rt_label *l = rt_annot_label(A(t, m), q, p);
            int g = l ? (l->grade < 0 ? 0 : l->grade >= nlab ? nlab - 1 : l->grade) : -1;
            v[u * t->n + m] = g;
            if (l) {
                judged++;
                c[relevant(t, l->grade)]++;
            }
        }
        if (judged == t->n) {
            counts[nall * 2] = c[0];
            counts[nall * 2 + 1] = c[1];
            nall++;
        }
    }
    r->fleiss = rt_kappa_fleiss(counts, nall, 2);
    r->alpha = rt_alpha_nominal(v, nu, t->n, nlab);
    free(v);
    free(counts);
    free(keys);
}

rt_status rt_team_agreement_compute(const rt_team *t, rt_team_agreement **out, rt_err *err)
{
    *out = NULL;
    if (t->n < 2)
        return rt_err_set(err, RT_EUSAGE, "agreement needs at least two annotators (%s)",
                          t->n ? "only one journal" : "no journals");
    rt_team_agreement *r = rt_calloc(1, sizeof *r);
    r->ncats = t->ws->taxonomy->ncats;
    r->npairs = t->n * (t->n - 1) / 2;
    r->pairs = rt_calloc(r->npairs, sizeof *r->pairs);
    size_t k = 0;
    for (size_t a = 0; a < t->n; a++)
        for (size_t b = a + 1; b < t->n; b++, k++) {
            rt_pair_agreement *p = &r->pairs[k];
            p->a = a;
            p->b = b;
            pair_relevance(t, p);
            pair_tags(t, p, r->ncats);
        }
    overall(t, r);
    *out = r;
    return RT_OK;
}

void rt_team_agreement_free(rt_team_agreement **ap)
{
    if (!ap || !*ap)
        return;
    for (size_t i = 0; i < (*ap)->npairs; i++)
        free((*ap)->pairs[i].category);
    free((*ap)->pairs);
    free(*ap);
    *ap = NULL;
}
