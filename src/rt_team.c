/* rt_team — several annotators' journals together, and their agreement. */
#include "config.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_live.h"
#include "rt_mem.h"
#include "rt_names.h"
#include "rt_id.h"
#include "rt_team.h"

/* ---- the members ------------------------------------------------------------------------- */

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Why the entry of the folder can be no journal, though it is named like one: NULL for a
 * regular file (and when it vanished meanwhile). */
static const char *unfit_kind(int dfd, const char *name)
{
    struct stat sb;
    if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || S_ISREG(sb.st_mode))
        return NULL;
    return S_ISLNK(sb.st_mode) ? "a symbolic link (retriage never follows links to journals)"
           : S_ISDIR(sb.st_mode) ? "a folder" : S_ISFIFO(sb.st_mode) ? "a named pipe" : "a device or socket";
}

/* The journals of dir as rt_team_list; odd (may be NULL) gets the NAME.jsonl entries that are
 * no regular file or whose NAME no annotator may have (rt_name_problem), with why (new strings)
 * beside them. */
static rt_status list_dir(const char *dir, char ***names, size_t *n, char ***odd, char ***why, size_t *nodd,
                          rt_err *err)
{
    *names = NULL;
    *n = 0;
    if (odd) {
        *odd = NULL;
        *why = NULL;
        *nodd = 0;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        if (errno == ENOENT)
            return RT_OK;   /* no folder yet: nobody has annotated */
        return rt_err_set(err, RT_EINPUT, "%s: cannot read the journal folder: %s", dir, strerror(errno));
    }
    size_t cap = 0, ocap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len <= 6 || e->d_name[0] == '.' || strcmp(e->d_name + len - 6, ".jsonl") != 0)
            continue;
        char *name = rt_strndup(e->d_name, len - 6);
        char unfit[256] = "";
        const char *kind = unfit_kind(dfd, e->d_name), *bad = kind ? NULL : rt_name_problem(name);
        if (kind)
            snprintf(unfit, sizeof unfit, "%s, not a journal", kind);
        else if (bad)   /* "alice\u2002" would be a second alice on every screen */
            snprintf(unfit, sizeof unfit, "no annotator can have that name (%s)", bad);
        if (unfit[0] && odd) {
            if (*nodd + 1 > ocap) {
                ocap = ocap ? 2 * ocap : 4;
                *odd = rt_reallocarray(*odd, ocap, sizeof **odd);
                *why = rt_reallocarray(*why, ocap, sizeof **why);
            }
            (*why)[*nodd] = rt_strdup(unfit);
            (*odd)[(*nodd)++] = name;
        } else if (unfit[0]) {
            free(name);
        } else {
            RT_GROW(*names, cap, *n + 1);
            (*names)[(*n)++] = name;
        }
    }
    closedir(d);
    if (*n)
        qsort(*names, *n, sizeof **names, by_name);
    return RT_OK;
}

rt_status rt_team_list(const char *dir, char ***names, size_t *n, rt_err *err)
{
    return list_dir(dir, names, n, NULL, NULL, NULL, err);
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

static void dir_time(const char *dir, struct timespec *ts)
{
    struct stat sb;
    *ts = stat(dir, &sb) == 0 ? sb.st_mtim : (struct timespec){0, 0};
}

/* Adds member name (self's session when it is self's); 0, or an error. */
static rt_status add_member(rt_team *t, const char *name, rt_err *err)
{
    if (rt_team_find(t, name) != (size_t)-1)
        return RT_OK;   /* named twice */
    t->m = rt_reallocarray(t->m, t->n + 1, sizeof *t->m);
    rt_member *m = &t->m[t->n];
    memset(m, 0, sizeof *m);
    if (t->self && strcmp(t->self->annotator, name) == 0) {
        m->s = t->self;
        m->self = 1;
    } else {
        rt_status st = rt_session_open_state(&m->s, t->ws, t->dir, name, err);
        if (st != RT_OK)
            return st;
    }
    m->name = rt_strdup(name);
    t->n++;
    return RT_OK;
}

/* A NAME.jsonl left out of the team, as it was when it was. */
struct rt_stray {
    char *name;
    struct timespec mtime;
    off_t size;
};

/* The modification time and size of dir/NAME.jsonl (zeros when it cannot be read). */
static void stray_stat(const rt_team *t, const char *name, struct timespec *mtime, off_t *size)
{
    size_t n = strlen(t->dir) + strlen(name) + 8;
    char *path = rt_malloc(n);
    snprintf(path, n, "%s/%s.jsonl", t->dir, name);
    struct stat sb;
    int got = fstatat(AT_FDCWD, path, &sb, AT_SYMLINK_NOFOLLOW) == 0;
    *mtime = got ? sb.st_mtim : (struct timespec){0, 0};
    *size = got ? sb.st_size : 0;
    free(path);
}

/* Whether every operation s read back names a query or passage the workspace lacks (and there
 * was at least one). */
static int all_foreign(const rt_session *s)
{
    return rt_annot_nops(s->annot) == 0 && s->foreign[0] + s->foreign[1] > 0;
}

/* Adds listed journal name, for a team of every journal in the folder: a file that is no journal
 * at all is a stray, left out with a warning (once, unless it changes), not a reason to give up
 * on the team. */
static rt_status add_listed(rt_team *t, const char *name, rt_err *err)
{
    for (size_t i = 0; i < t->nstrays; i++) {
        if (strcmp(t->strays[i].name, name) != 0)
            continue;
        struct timespec mtime;
        off_t size;
        stray_stat(t, name, &mtime, &size);
        if (mtime.tv_sec == t->strays[i].mtime.tv_sec && mtime.tv_nsec == t->strays[i].mtime.tv_nsec &&
            size == t->strays[i].size)
            return RT_OK;
        free(t->strays[i].name);   /* changed: looked at again (a journal now, say) */
        t->strays[i] = t->strays[--t->nstrays];
        break;
    }
    rt_err e;
    size_t before = t->n;
    rt_status st = add_member(t, name, &e);
    if (st == RT_OK && t->n > before && !t->m[before].self && all_foreign(t->m[before].s)) {
        /* a journal of another workspace alone: no member of this one (its columns, its name
         * among the annotators would be all this workspace sees of it) */
        rt_report_add(t->ws->report, RT_REPORT_WARNING, "%s: every operation names a query or passage this "
                      "workspace lacks: left out of the team", rt_journal_path(t->m[before].s->journal));
        rt_session_close(&t->m[before].s);
        free(t->m[before].name);
        t->n = before;
    } else if (st == RT_OK || !(e.what & RT_ERR_NOT_JOURNAL)) {
        if (st != RT_OK)
            *err = e;
        return st;
    } else {
        char *cut = strstr(e.msg, "; nothing was changed");
        if (cut)
            *cut = '\0';
        rt_report_add(t->ws->report, RT_REPORT_WARNING, "%s: left out of the team", e.msg);
    }
    t->strays = rt_reallocarray(t->strays, t->nstrays + 1, sizeof *t->strays);
    struct rt_stray *s = &t->strays[t->nstrays++];
    s->name = rt_strdup(name);
    stray_stat(t, name, &s->mtime, &s->size);
    return RT_OK;
}

/* Says (once, unless it changes) that NAME.jsonl of the folder, a link, a pipe or a folder, is
 * left out of the team: a journal that silently is not there would change every figure. */
static void note_odd(rt_team *t, const char *name, const char *why)
{
    struct timespec mtime;
    off_t size;
    stray_stat(t, name, &mtime, &size);
    for (size_t i = 0; i < t->nstrays; i++)
        if (strcmp(t->strays[i].name, name) == 0) {
            if (mtime.tv_sec == t->strays[i].mtime.tv_sec && mtime.tv_nsec == t->strays[i].mtime.tv_nsec &&
                size == t->strays[i].size)
                return;
            free(t->strays[i].name);
            t->strays[i] = t->strays[--t->nstrays];
            break;
        }
    char shown[80];
    rt_report_add(t->ws->report, RT_REPORT_WARNING, "%s/%s.jsonl: %s: left out of the team", t->dir,
                  rt_id_show(name, strlen(name), shown, sizeof shown), why);
    t->strays = rt_reallocarray(t->strays, t->nstrays + 1, sizeof *t->strays);
    struct rt_stray *s = &t->strays[t->nstrays++];
    s->name = rt_strdup(name);
    s->mtime = mtime;
    s->size = size;
}

static void note_odds(rt_team *t, char **odd, char **why, size_t nodd)
{
    for (size_t i = 0; i < nodd; i++)
        note_odd(t, odd[i], why[i]);
    rt_team_names_free(odd, nodd);
    rt_team_names_free(why, nodd);
}

rt_status rt_team_open(rt_team **out, rt_workspace *ws, rt_session *self, int with_self, const char *dir,
                       char *const *names, size_t n, rt_err *err)
{
    *out = NULL;
    char **have, **odd, **why;
    size_t nh, nodd;
    rt_status st = list_dir(dir, &have, &nh, &odd, &why, &nodd, err);
    for (size_t i = 0; st == RT_OK && names && i < n; i++)
        for (size_t k = 0; k < nodd && st == RT_OK; k++)
            if (strcmp(names[i], odd[k]) == 0)
                st = rt_err_set(err, RT_EUSAGE, "%s/%s.jsonl: %s", dir, odd[k], why[k]);
    if (st == RT_OK && names)
        st = check_named(names, n, have, nh, dir, err);
    rt_team *t = st == RT_OK ? rt_calloc(1, sizeof *t) : NULL;
    if (t) {
        t->ws = ws;
        t->dir = rt_strdup(dir);
        t->all = names == NULL;
        t->self = self;
        dir_time(dir, &t->dir_mtime);
        if (t->all)
            note_odds(t, odd, why, nodd);
    }
    if (!t || !t->all) {   /* named: one of them there but no file is no journal, said by check_named */
        rt_team_names_free(odd, nodd);
        rt_team_names_free(why, nodd);
    }
    if (st != RT_OK) {
        rt_team_names_free(have, nh);
        return st;
    }
    char *const *want = names ? names : have;
    size_t nw = names ? n : nh;
    for (size_t i = 0; i < nw && st == RT_OK; i++)
        st = names ? add_member(t, want[i], err) : add_listed(t, want[i], err);
    if (st == RT_OK && self && with_self)
        st = add_member(t, self->annotator, err);
    rt_team_names_free(have, nh);
    if (st != RT_OK) {
        rt_team_free(&t);
        return st;
    }
    qsort(t->m, t->n, sizeof *t->m, member_cmp);
    *out = t;
    return RT_OK;
}

/* Keeps the first error of several: one member's bad journal must not stop the others. */
static void keep_first(rt_status st, const rt_err *e, rt_status *first, rt_err *err)
{
    if (st != RT_OK && *first == RT_OK) {
        *first = st;
        *err = *e;
    }
}

rt_status rt_team_refresh(rt_team *t, int *changed, rt_err *err)
{
    *changed = 0;
    rt_status first = RT_OK;
    rt_err e;
    for (size_t i = 0; i < t->n; i++) {
        int c = 0;
        if (!t->m[i].self)
            keep_first(rt_session_refresh(t->m[i].s, &c, &e), &e, &first, err);
        *changed |= c;
    }
    struct timespec now;
    dir_time(t->dir, &now);
    if (!t->all || (now.tv_sec == t->dir_mtime.tv_sec && now.tv_nsec == t->dir_mtime.tv_nsec))
        return first;
    t->dir_mtime = now;
    char **have, **odd, **why;
    size_t nh, nodd;
    keep_first(list_dir(t->dir, &have, &nh, &odd, &why, &nodd, &e), &e, &first, err);
    note_odds(t, odd, why, nodd);
    size_t before = t->n;
    for (size_t i = 0; i < nh; i++)
        keep_first(add_listed(t, have[i], &e), &e, &first, err);
    rt_team_names_free(have, nh);
    if (t->n != before) {
        qsort(t->m, t->n, sizeof *t->m, member_cmp);
        *changed = 1;
    }
    return first;
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
    for (size_t i = 0; i < t->nstrays; i++)
        free(t->strays[i].name);
    free(t->strays);
    free(t->dir);
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

/* Fleiss over the items all judged — all who judged anything: a member who only tagged has no
 * relevance label to give and must not leave Fleiss with no item —, Krippendorff over the items
 * anyone judged. */
static void overall(const rt_team *t, const size_t *mem, size_t nm, rt_team_agreement *r)
{
    size_t judges = 0;
    for (size_t mi = 0; mi < nm; mi++)
        judges += rt_annot_nlabels(A(t, mem[mi])) > 0;
    size_t cap = 0, nk = 0;
    uint64_t *keys = NULL;
    for (size_t mi = 0; mi < nm; mi++)
        for (uint32_t q = 0; q < rt_strtab_count(t->ws->qids); q++) {
            size_t nl;
            const rt_label *l = rt_annot_labels(A(t, mem[mi]), q, &nl);
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
    int *v = rt_calloc(nu * nm + 1, sizeof *v);
    int *counts = rt_calloc(nu * 2 + 1, sizeof *counts);
    size_t nall = 0;
    for (size_t u = 0; u < nu; u++) {
        uint32_t q = (uint32_t)(keys[u] >> 32), p = (uint32_t)keys[u];
        size_t judged = 0;
        int c[2] = {0, 0};
        for (size_t mi = 0; mi < nm; mi++) {
            const rt_label *l = rt_annot_label(A(t, mem[mi]), q, p);
            int g = l ? (l->grade < 0 ? 0 : l->grade >= nlab ? nlab - 1 : l->grade) : -1;
            v[u * nm + mi] = g;
            if (l) {
                judged++;
                c[relevant(t, l->grade)]++;
            }
        }
        if (judged == judges) {
            counts[nall * 2] = c[0];
            counts[nall * 2 + 1] = c[1];
            nall++;
        }
    }
    r->fleiss = rt_kappa_fleiss(counts, nall, 2);
    r->alpha = rt_alpha_nominal(v, nu, nm, nlab);
    free(v);
    free(counts);
    free(keys);
}

static int decided_anything(const rt_team *t, size_t m)
{
    return rt_annot_nlabels(A(t, m)) || rt_annot_ntagged(A(t, m));
}

int rt_team_rater(const rt_team *t, size_t m) { return decided_anything(t, m); }

void rt_team_pair_agreement(const rt_team *t, size_t a, size_t b, rt_pair_agreement *p)
{
    memset(p, 0, sizeof *p);
    p->a = a;
    p->b = b;
    pair_relevance(t, p);
    pair_tags(t, p, t->ws->taxonomy->ncats);
}

void rt_pair_agreement_clear(rt_pair_agreement *p)
{
    free(p->category);
    p->category = NULL;
}

rt_status rt_team_agreement_overall(const rt_team *t, rt_team_agreement **out, rt_err *err)
{
    *out = NULL;
    size_t nd = 0;
    for (size_t m = 0; m < t->n; m++)
        nd += decided_anything(t, m);
    if (nd < 2)
        return rt_err_set(err, RT_EUSAGE, "agreement needs at least two annotators who judged or tagged "
                          "something (%s)", t->n ? "here fewer did" : "no journals");
    rt_team_agreement *r = rt_calloc(1, sizeof *r);
    r->ncats = t->ws->taxonomy->ncats;
    r->npairs = nd * (nd - 1) / 2;
    size_t *mem = rt_calloc(t->n, sizeof *mem), nm = 0;
    for (size_t m = 0; m < t->n; m++)
        if (decided_anything(t, m))
            mem[nm++] = m;
    overall(t, mem, nm, r);
    free(mem);
    *out = r;
    return RT_OK;
}

rt_status rt_team_agreement_compute(const rt_team *t, rt_team_agreement **out, rt_err *err)
{
    rt_status st = rt_team_agreement_overall(t, out, err);
    if (st != RT_OK)
        return st;
    rt_team_agreement *r = *out;
    r->pairs = rt_calloc(r->npairs, sizeof *r->pairs);
    size_t k = 0;
    for (size_t a = 0; a < t->n; a++)
        for (size_t b = a + 1; b < t->n && decided_anything(t, a); b++)
            if (decided_anything(t, b))
                rt_team_pair_agreement(t, a, b, &r->pairs[k++]);
    return RT_OK;
}

void rt_team_agreement_free(rt_team_agreement **ap)
{
    if (!ap || !*ap)
        return;
    for (size_t i = 0; (*ap)->pairs && i < (*ap)->npairs; i++)
        rt_pair_agreement_clear(&(*ap)->pairs[i]);
    free((*ap)->pairs);
    free(*ap);
    *ap = NULL;
}

/* ---- the team's decisions ---------------------------------------------------------------- */

static void add_key(uint64_t **keys, size_t *n, size_t *cap, uint32_t q, uint32_t p)
{
    RT_GROW(*keys, *cap, *n + 1);
    (*keys)[(*n)++] = (uint64_t)q << 32 | p;
}

/* Every pair any member decided, sorted and unique. */
static uint64_t *decided_pairs(const rt_team *t, size_t *n)
{
    size_t cap = 0, nk = 0;
    uint64_t *keys = NULL;
    uint32_t nq = rt_strtab_count(t->ws->qids);
    for (size_t m = 0; m < t->n; m++)
        for (uint32_t q = 0; q < nq; q++) {
            size_t k;
            const rt_label *l = rt_annot_labels(A(t, m), q, &k);
            for (size_t i = 0; i < k; i++)
                add_key(&keys, &nk, &cap, q, l[i].pid);
            const rt_tag *tg = rt_annot_tags(A(t, m), q, &k);
            for (size_t i = 0; i < k; i++)
                if (tg[i].pid != RT_NO_ID && tg[i].cats)
                    add_key(&keys, &nk, &cap, q, tg[i].pid);
            const rt_adjud *d = rt_annot_adjuds(A(t, m), q, &k);
            for (size_t i = 0; i < k; i++)
                add_key(&keys, &nk, &cap, q, d[i].pid);
        }
    if (nk)
        qsort(keys, nk, sizeof *keys, key_cmp);
    size_t u = 0;
    for (size_t i = 0; i < nk; i++)
        if (i == 0 || keys[i] != keys[i - 1])
            keys[u++] = keys[i];
    *n = u;
    return keys;
}

/* Whether adjudication d stands over the one held (the later one: time, then seq). */
static int later(const rt_adjud *d, const rt_team_pair *p)
{
    return !p->has_adj || d->prov.time_ms > p->adj.time_ms ||
           (d->prov.time_ms == p->adj.time_ms && d->prov.seq > p->adj.seq);
}

static void decide_pair(const rt_team *t, rt_team_pair *p, rt_report *rep)
{
    int have_g = 0, have_c = 0;
    int32_t g = 0;
    unsigned long long c = 0;
    p->adj_member = (size_t)-1;
    for (size_t m = 0; m < t->n; m++) {
        const rt_label *l = rt_annot_label(A(t, m), p->qid, p->pid);
        const rt_tag *tg = rt_annot_tag(A(t, m), p->qid, p->pid);
        const rt_adjud *d = rt_annot_adjud(A(t, m), p->qid, p->pid);
        if (l) {
            if (have_g && l->grade != g)
                p->differ |= RT_DIFFER_GRADE;
            g = l->grade;
            have_g = 1;
        }
        if (tg && tg->cats) {
            if (have_c && tg->cats != c)
                p->differ |= RT_DIFFER_CATS;
            c = tg->cats;
            have_c = 1;
        }
        if (d) {
            p->nadj++;
            if (later(d, p)) {   /* copied: d lives in the member's array, which moves */
                p->adj = (rt_team_adjud){d->has_grade, d->grade, d->has_cats, d->cats, d->prov.time_ms, d->prov.seq,
                                         d->nsettles};
                p->has_adj = 1;
                p->adj_member = m;
            }
        }
    }
    if (p->nadj > 1 && rep) {
        char when[32];
        rt_op_format_time(p->adj.time_ms, when, sizeof when);
        rt_report_add(rep, RT_REPORT_WARNING, "%s %s was adjudicated by %zu annotators; %s's, the latest (%s), stands",
                      rt_strtab_str(t->ws->qids, p->qid), rt_strtab_str(t->ws->pids, p->pid), p->nadj,
                      t->m[p->adj_member].name, when);
    }
    /* An adjudication against what every member who decided agrees on (their decisions changed
     * since, or it was made outside the queue) is a difference too: shown, and resolved by it. */
    int adj_g = p->has_adj && p->adj.has_grade, adj_c = p->has_adj && p->adj.has_cats;
    if (adj_g && have_g && !(p->differ & RT_DIFFER_GRADE) && p->adj.grade != g)
        p->differ |= RT_DIFFER_GRADE;
    if (adj_c && have_c && !(p->differ & RT_DIFFER_CATS) && p->adj.cats != c)
        p->differ |= RT_DIFFER_CATS;
    p->unresolved = p->differ;
    if (adj_g) {
        p->has_grade = 1;
        p->grade = p->adj.grade;
        p->unresolved &= ~(unsigned)RT_DIFFER_GRADE;
    } else if (have_g && !(p->differ & RT_DIFFER_GRADE)) {
        p->has_grade = 1;
        p->grade = g;
    }
    if (adj_c) {
        p->has_cats = 1;
        p->cats = p->adj.cats;
        p->unresolved &= ~(unsigned)RT_DIFFER_CATS;
    } else if (have_c && !(p->differ & RT_DIFFER_CATS)) {
        p->has_cats = 1;
        p->cats = c;
    }
}

/* Adds (sign 1) or takes away (-1) p's part of d's counts. Taking away what was never added
 * would wrap a count round to 2^64 - 1: checked, never shown. */
static void count_pair(rt_team_decisions *d, const rt_team_pair *p, int sign)
{
    size_t *c[4] = {NULL, NULL, NULL, NULL};
    size_t k = 0;
    if (p->differ)
        c[k++] = &d->disputed;
    if (p->unresolved)
        c[k++] = &d->unresolved;
    if (p->nadj > 1)
        c[k++] = &d->overridden;
    if (p->has_grade)
        c[k++] = p->has_adj && p->adj.has_grade ? &d->adjudicated : &d->agreed;
    for (size_t i = 0; i < k; i++) {
        assert(sign > 0 || *c[i] > 0);
        *c[i] = sign > 0 ? *c[i] + 1 : *c[i] - 1;
    }
}

static void record_gens(const rt_team *t, rt_team_decisions *d)
{
    if (d->ngens != t->n) {
        free(d->gens);
        d->gens = rt_calloc(t->n + 1, sizeof *d->gens);
        d->ngens = t->n;
    }
    for (size_t m = 0; m < t->n; m++)
        d->gens[m] = rt_annot_generation(A(t, m));
}

int rt_team_decisions_current(const rt_team *t, const rt_team_decisions *d)
{
    if (d->ngens != t->n)
        return 0;
    for (size_t m = 0; m < t->n; m++)
        if (d->gens[m] != rt_annot_generation(A(t, m)))
            return 0;
    return 1;
}

int rt_team_redecide(const rt_team *t, rt_team_decisions *d, uint32_t qid, uint32_t pid)
{
    rt_team_pair *p = (rt_team_pair *)rt_team_pair_of(d, qid, pid);
    if (!p || d->ngens != t->n)
        return 0;
    count_pair(d, p, -1);
    *p = (rt_team_pair){.qid = qid, .pid = pid};
    decide_pair(t, p, NULL);
    count_pair(d, p, 1);
    record_gens(t, d);
    return 1;
}

rt_team_decisions *rt_team_decide(const rt_team *t, rt_report *rep)
{
    rt_team_decisions *d = rt_calloc(1, sizeof *d);
    uint64_t *keys = decided_pairs(t, &d->n);
    d->p = rt_calloc(d->n + 1, sizeof *d->p);
    for (size_t i = 0; i < d->n; i++) {
        rt_team_pair *p = &d->p[i];
        p->qid = (uint32_t)(keys[i] >> 32);
        p->pid = (uint32_t)keys[i];
        decide_pair(t, p, rep);
        count_pair(d, p, 1);
    }
    free(keys);
    record_gens(t, d);
    return d;
}

void rt_team_decisions_free(rt_team_decisions **dp)
{
    if (!dp || !*dp)
        return;
    free((*dp)->p);
    free((*dp)->gens);
    free(*dp);
    *dp = NULL;
}

const rt_team_pair *rt_team_pair_of(const rt_team_decisions *d, uint32_t qid, uint32_t pid)
{
    size_t lo = 0, hi = d->n;
    uint64_t k = (uint64_t)qid << 32 | pid;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t x = (uint64_t)d->p[mid].qid << 32 | d->p[mid].pid;
        if (x == k)
            return &d->p[mid];
        if (x < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

rt_session *rt_team_session(const rt_team *t, const rt_team_decisions *d)
{
    assert(rt_team_decisions_current(t, d));
    rt_annot *annot = rt_annot_new(t->ws->qids, t->ws->pids, t->ws->taxonomy);
    const rt_taxonomy *tax = t->ws->taxonomy;
    uint64_t seq = 1;
    int64_t now = rt_op_now_ms();
    rt_err err;
    for (size_t i = 0; i < d->n; i++) {
        const rt_team_pair *p = &d->p[i];
        rt_op op = {.seq = seq++, .time_ms = now, .author = "team", .by_id = 1,
                    .id = {.qid = p->qid, .pid = p->pid}};
        if (p->has_grade) {
            op.kind = RT_OP_LABEL;
            op.has_grade = 1;
            op.grade = p->grade;
            rt_status st = rt_annot_apply(annot, &op, NULL, &err);
            assert(st == RT_OK);   /* a grade some member gave: it was valid there */
            (void)st;
        }
        for (size_t c = 0; p->has_cats && c < tax->ncats; c++)
            if (p->cats >> c & 1) {
                op.kind = RT_OP_TAG;
                op.seq = seq++;
                op.id.cat = c;
                rt_status st = rt_annot_apply(annot, &op, NULL, &err);
                assert(st == RT_OK);   /* a category of the taxonomy: cannot fail */
                (void)st;
            }
    }
    return rt_session_derived(t->ws, "team", annot, "the team's decisions are made by adjudicating, not here");
}
