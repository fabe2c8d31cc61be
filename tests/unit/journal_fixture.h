/* journal_fixture.h — what the annotation unit tests share (test_op, test_journal,
 * test_session, test_live): a mkdtemp folder and its files, operation builders and comparison,
 * journal opening helpers, and a tiny workspace with sessions over it. Header-only; each program
 * uses what it needs (the rest is marked unused). */
#ifndef RT_JOURNAL_FIXTURE_H
#define RT_JOURNAL_FIXTURE_H

#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_annot.h"
#include "rt_eval.h"
#include "rt_journal.h"
#include "rt_live.h"
#include "rt_session.h"
#include "rt_workspace.h"
#include "tap.h"

/* ---- files in the temporary folder ------------------------------------------------------ */

static __attribute__((unused)) char tmp[] = "/tmp/rt_test_journal_XXXXXX";

/* tmp/rel, in one of a few rotating buffers. */
static __attribute__((unused)) const char *P(const char *rel)
{
    static char buf[16][512];
    static unsigned k;
    char *b = buf[k++ % 16];
    snprintf(b, sizeof buf[0], "%s/%s", tmp, rel);
    return b;
}

static __attribute__((unused)) void put_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

static __attribute__((unused)) void put_text(const char *path, const char *text) { put_file(path, text, strlen(text)); }

/* The bytes of path, NUL-terminated (*len without the NUL), or NULL when it cannot be read. */
static __attribute__((unused)) char *get_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, r;
    char *b = malloc(cap);
    while ((r = fread(b + n, 1, cap - n - 1, f)) > 0)
        if ((n += r) == cap - 1)
            b = realloc(b, cap *= 2);
    fclose(f);
    b[n] = 0;
    if (len)
        *len = n;
    return b;
}

static __attribute__((unused)) int file_is(const char *path, const char *data, size_t len)
{
    size_t n;
    char *b = get_file(path, &n);
    int same = b && n == len && memcmp(b, data, len) == 0;
    free(b);
    return same;
}

static __attribute__((unused)) int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* How many entries of dir start with prefix; the path of one of them goes to first. */
static __attribute__((unused)) int count_prefixed(const char *dir, const char *prefix, char *first, size_t flen)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (first)
        first[0] = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n++ == 0 && first)
            snprintf(first, flen, "%s/%s", dir, e->d_name);
    if (d)
        closedir(d);
    return n;
}

static __attribute__((unused)) int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static __attribute__((unused)) int streq(const char *a, const char *b) { return a ? b && strcmp(a, b) == 0 : !b; }

static __attribute__((unused)) char *S(const char *s) { return s ? strdup(s) : NULL; }

/* Whether a report has a line of this kind holding a and b (b may be NULL); prints the report
 * when not, to show what it said instead. */
static __attribute__((unused)) int has_line(const rt_report *r, rt_report_kind kind, const char *a, const char *b)
{
    for (size_t i = 0; i < rt_report_count(r); i++) {
        rt_report_kind k;
        const char *line = rt_report_line(r, i, &k);
        if (k == kind && strstr(line, a) && (!b || strstr(line, b)))
            return 1;
    }
    for (size_t i = 0; i < rt_report_count(r); i++)
        printf("#   report: %s\n", rt_report_line(r, i, NULL));
    return 0;
}

/* ---- 1. the operation line format ------------------------------------------------------- */

static __attribute__((unused)) const int64_t T0 = 1795000000123;   /* 2026-11-18T11:06:40.123Z */

static __attribute__((unused)) rt_op op_new(rt_op_kind kind, const char *qid, const char *pid)
{
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.qid = S(qid);
    op.pid = S(pid);
    op.seq = 7;
    op.time_ms = T0;
    op.author = S("alice");
    return op;
}

static __attribute__((unused)) rt_op op_label(const char *qid, const char *pid, int has_grade, int32_t grade)
{
    rt_op op = op_new(RT_OP_LABEL, qid, pid);
    op.has_grade = has_grade;
    op.grade = grade;
    return op;
}

static __attribute__((unused)) rt_op op_cat(rt_op_kind kind, const char *qid, const char *pid, const char *cat)
{
    rt_op op = op_new(kind, qid, pid);
    op.cat = S(cat);
    return op;
}

static __attribute__((unused)) rt_op op_text(rt_op_kind kind, const char *qid, const char *pid, const char *text)
{
    rt_op op = op_new(kind, qid, pid);
    op.text = S(text);
    return op;
}

static __attribute__((unused)) rt_op op_leak(const char *qid, const char *train, const char *type)
{
    rt_op op = op_text(RT_OP_LEAK, qid, NULL, type);
    op.train = S(train);
    return op;
}

/* A query set; qids NULL deletes it. */
static __attribute__((unused)) rt_op op_set(const char *name, const char *const *qids, size_t n, const char *how)
{
    rt_op op = op_text(RT_OP_SET, NULL, NULL, how);
    op.name = S(name);
    op.has_list = qids != NULL;
    op.nqids = n;
    op.qids = n ? calloc(n, sizeof *op.qids) : NULL;
    for (size_t i = 0; i < n; i++)
        op.qids[i] = S(qids[i]);
    return op;
}

/* An adjudication: grade (has_grade), categories (NULL: none decided), settled decisions. */
static __attribute__((unused)) rt_op op_adjud(const char *qid, const char *pid, int has_grade, int32_t grade,
                                              const char *const *cats, size_t ncats, const char *const *settles,
                                              size_t nsettles)
{
    rt_op op = op_new(RT_OP_ADJUDICATE, qid, pid);
    op.has_grade = has_grade;
    op.grade = grade;
    op.has_cats = cats != NULL;
    op.ncats = ncats;
    op.cats = ncats ? calloc(ncats, sizeof *op.cats) : NULL;
    for (size_t i = 0; i < ncats; i++)
        op.cats[i] = S(cats[i]);
    op.nsettles = nsettles;
    op.settles = nsettles ? calloc(nsettles, sizeof *op.settles) : NULL;
    for (size_t i = 0; i < nsettles; i++)
        op.settles[i] = S(settles[i]);
    return op;
}

/* A package of n pairs (qids[i], pids[i]) for annotator; qids NULL deletes it. */
static __attribute__((unused)) rt_op op_package(const char *name, const char *annotator, const char *const *qids,
                                                const char *const *pids, size_t n, uint64_t seed, uint32_t sample)
{
    rt_op op = op_text(RT_OP_PACKAGE, NULL, NULL, annotator);
    op.name = S(name);
    op.has_list = qids != NULL;
    op.nqids = n;
    op.qids = n ? calloc(n, sizeof *op.qids) : NULL;
    op.pids = qids ? calloc(n + 1, sizeof *op.pids) : NULL;
    for (size_t i = 0; i < n; i++) {
        op.qids[i] = S(qids[i]);
        op.pids[i] = S(pids[i]);
    }
    op.seed = seed;
    op.sample = sample;
    return op;
}

/* Whether a and b hold the same operation; *why names the first difference. */
static __attribute__((unused)) int op_same(const rt_op *a, const rt_op *b, const char **why)
{
#define DIFF(cond, what) \
    do { \
        if (cond) { \
            *why = what; \
            return 0; \
        } \
    } while (0)
    DIFF(a->seq != b->seq, "seq");
    DIFF(a->time_ms != b->time_ms, "time");
    DIFF(!streq(a->author, b->author), "author");
    DIFF(a->kind != b->kind, "kind");
    DIFF(!streq(a->qid, b->qid), "qid");
    DIFF(!streq(a->pid, b->pid), "pid");
    DIFF(a->has_grade != b->has_grade || (a->has_grade && a->grade != b->grade), "grade");
    DIFF(!streq(a->cat, b->cat), "cat");
    DIFF(!streq(a->text, b->text), "text");
    DIFF(!streq(a->train, b->train), "train");
    DIFF(!streq(a->name, b->name), "name");
    DIFF(a->has_list != b->has_list || a->nqids != b->nqids, "qids");
    for (size_t i = 0; i < a->nqids; i++)
        DIFF(!streq(a->qids[i], b->qids[i]) || (a->pids && (!b->pids || !streq(a->pids[i], b->pids[i]))),
             "a pair or qid of the list");
    DIFF(!a->pids != !b->pids, "pairs");
    DIFF(a->has_cats != b->has_cats || a->ncats != b->ncats, "cats");
    for (size_t i = 0; i < a->ncats; i++)
        DIFF(!streq(a->cats[i], b->cats[i]), "a category");
    DIFF(a->nsettles != b->nsettles, "settles");
    for (size_t i = 0; i < a->nsettles; i++)
        DIFF(!streq(a->settles[i], b->settles[i]), "a settled decision");
    DIFF(a->seed != b->seed || a->sample != b->sample, "seed or sample");
    DIFF(a->undo != b->undo, "undo");
    DIFF(a->redo != b->redo, "redo");
    DIFF(!streq(a->via, b->via), "via");
#undef DIFF
    *why = "";
    return 1;
}

/* ---- 2. the journal file ---------------------------------------------------------------- */

typedef struct jo {
    rt_journal *j;
    rt_op *ops;
    size_t nops;
    rt_report *rep;
    rt_status st;
    rt_err err;
} jo;

static __attribute__((unused)) rt_status jo_open(jo *o, const char *dir, const char *who, int readonly)
{
    memset(o, 0, sizeof *o);
    o->rep = rt_report_new();
    o->st = (readonly ? rt_journal_open_readonly : rt_journal_open)(&o->j, dir, who, &o->ops, &o->nops,
                                                                    o->rep, &o->err);
    if (o->st != RT_OK)
        printf("#   %s\n", o->err.msg);
    return o->st;
}

static __attribute__((unused)) void jo_close(jo *o)
{
    for (size_t i = 0; i < o->nops; i++)
        rt_op_clear(&o->ops[i]);
    free(o->ops);
    rt_journal_close(&o->j);
    rt_report_free(&o->rep);
}

/* Appends a tag operation; returns its status and, in *line, the line it should have written
 * (NULL when the append failed; caller frees). */
static __attribute__((unused)) rt_status append_tag(rt_journal *j, const char *qid, char **line)
{
    rt_op op = op_cat(RT_OP_TAG, qid, NULL, "other");
    rt_err err = {0};
    rt_status st = rt_journal_append(j, &op, &err);
    if (line)
        *line = st == RT_OK ? rt_op_to_json(&op) : NULL;
    rt_op_clear(&op);
    return st;
}

/* n operation lines with seq from..from+n-1 (caller frees). */
static __attribute__((unused)) char *good_lines(int from, int n)
{
    char *all = calloc(1, 1);
    for (int i = 0; i < n; i++) {
        char qid[16];
        snprintf(qid, sizeof qid, "q%d", from + i);
        rt_op op = i % 2 ? op_cat(RT_OP_TAG, qid, "p1", "entity") : op_label(qid, "p1", 1, 1);
        op.seq = (uint64_t)(from + i);
        char *line = rt_op_to_json(&op);
        all = realloc(all, strlen(all) + strlen(line) + 1);
        strcat(all, line);
        free(line);
        rt_op_clear(&op);
    }
    return all;
}

/* ---- 3. the workspace and sessions ------------------------------------------------------- */

typedef struct judgment {
    const char *qid, *pid;
    int grade;
} judgment;

/* The base qrels: binary, and graded on the same pairs plus one. */
static __attribute__((unused)) const judgment base_bin[] = {
    {"q1", "p01", 1}, {"q1", "p02", 0}, {"q1", "p03", 1}, {"q2", "p04", 1},
    {"q2", "p05", 0}, {"q3", "p06", 1}, {"q3", "p07", 0},
};
static __attribute__((unused)) const judgment base_graded[] = {
    {"q1", "p01", 3}, {"q1", "p02", 0}, {"q1", "p03", 1}, {"q2", "p04", 2},
    {"q2", "p05", 0}, {"q3", "p06", 1}, {"q3", "p07", 0}, {"q2", "p08", 3},
};

/* Two runs: B does not rank q3 (it scores 0 there); both rank q4, which is not judged; q5 is in
 * the queries file only. */
static __attribute__((unused)) const struct ranking {
    const char *tag, *qid, *pids;
} rankings[] = {
    {"A", "q1", "p09 p03 p02 p01 p10 p11"},
    {"A", "q2", "p05 p06 p04 p08 p01"},
    {"A", "q3", "p07 p10 p11 p06"},
    {"A", "q4", "p08 p07 p01 p02"},
    {"B", "q1", "p01 p02 p03"},
    {"B", "q2", "p08 p09 p10 p11 p12 p04"},
    {"B", "q4", "p02 p03"},
};

static __attribute__((unused)) void write_qrels(const char *path, const judgment *j, size_t n)
{
    char text[8192] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s 0 %s %d\n", j[i].qid, j[i].pid, j[i].grade);
    put_text(path, text);
}

static __attribute__((unused)) void write_run(const char *path, const char *tag)
{
    char text[8192] = "";
    for (size_t i = 0; i < sizeof rankings / sizeof rankings[0]; i++) {
        if (strcmp(rankings[i].tag, tag) != 0)
            continue;
        char pids[256], *save;
        snprintf(pids, sizeof pids, "%s", rankings[i].pids);
        int rank = 1;
        for (char *p = strtok_r(pids, " ", &save); p; p = strtok_r(NULL, " ", &save), rank++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s Q0 %s %d %.1f %s\n",
                     rankings[i].qid, p, rank, 20.0 - rank, tag);
    }
    put_text(path, text);
}

static __attribute__((unused)) void write_inputs(void)
{
    put_text(P("queries.tsv"), "q1\tfirst query\nq2\tsecond query\nq3\tthird\nq4\tfourth, not judged\n"
                               "q5\tfifth, neither judged nor ranked\n");
    write_qrels(P("qrels.bin"), base_bin, sizeof base_bin / sizeof base_bin[0]);
    write_qrels(P("qrels.graded"), base_graded, sizeof base_graded / sizeof base_graded[0]);
    write_run(P("runA.trec"), "A");
    write_run(P("runB.trec"), "B");
}

static __attribute__((unused)) rt_workspace *open_ws(int graded, const char *measures)
{
    char qrels[512], queries[512], run_a[512], run_b[512];
    snprintf(qrels, sizeof qrels, "%s", P(graded ? "qrels.graded" : "qrels.bin"));
    snprintf(queries, sizeof queries, "%s", P("queries.tsv"));
    snprintf(run_a, sizeof run_a, "%s", P("runA.trec"));
    snprintf(run_b, sizeof run_b, "%s", P("runB.trec"));
    const char *runs[] = {run_a, run_b};
    rt_ws_spec spec = {.name = "tiny", .queries = queries, .qrels = qrels, .run_paths = runs,
                       .nruns = 2, .measures = measures, .level = 1, .graded = graded};
    rt_workspace *ws = NULL;
    rt_err err = {0};
    if (rt_workspace_open(&ws, &spec, NULL, &err) != RT_OK)
        printf("#   workspace: %s\n", err.msg);
    return ws;
}

static __attribute__((unused)) uint32_t QID(const rt_session *s, const char *q) { return rt_strtab_find(s->ws->qids, q, strlen(q)); }

static __attribute__((unused)) uint32_t PID(const rt_session *s, const char *p)
{
    return p ? rt_strtab_find(s->ws->pids, p, strlen(p)) : RT_NO_ID;
}

/* The current grade of (q, p), or -99 when unjudged. */
static __attribute__((unused)) int grade_now(const rt_session *s, const char *q, const char *p, const rt_label **relabel)
{
    int32_t g;
    return rt_session_grade(s, QID(s, q), PID(s, p), &g, relabel) ? g : -99;
}

static __attribute__((unused)) const rt_tag *tag_of(const rt_session *s, const char *q, const char *p)
{
    return rt_annot_tag(s->annot, QID(s, q), PID(s, p));
}

static __attribute__((unused)) int has_cat(const rt_session *s, const char *q, const char *p, const char *cat)
{
    const rt_tag *t = tag_of(s, q, p);
    size_t c = rt_taxonomy_find(s->ws->taxonomy, cat);
    return t && c != (size_t)-1 && (t->cats >> c & 1);
}

static __attribute__((unused)) const char *note_of(const rt_session *s, const char *q, const char *p)
{
    const rt_tag *t = tag_of(s, q, p);
    return t ? t->note : NULL;
}

static __attribute__((unused)) const char *leak_of(const rt_session *s, const char *q, const char *train)
{
    const rt_leak_label *l = rt_annot_leak(s->annot, QID(s, q), train);
    return l ? l->type : NULL;
}

/* Does op through the session (which fills in author, seq and time); takes op. */
static __attribute__((unused)) rt_status do_op(rt_session *s, rt_op op, rt_err *err)
{
    free(op.author);
    op.author = NULL;
    rt_status st = rt_session_do(s, &op, err);
    if (st != RT_OK)
        printf("#   %s\n", err->msg);
    rt_op_clear(&op);
    return st;
}

/* The last line of the session's journal (caller frees). */
static __attribute__((unused)) char *last_line(const rt_session *s)
{
    char *text = get_file(rt_journal_path(s->journal), NULL);
    if (!text || !text[0])
        return text;
    size_t n = strlen(text);
    text[n - 1] = 0;
    char *nl = strrchr(text, '\n');
    char *line = strdup(nl ? nl + 1 : text);
    free(text);
    return line;
}

/* rt_session_check refuses op with RT_EUSAGE and a message holding want, and rt_session_do
 * refuses it without touching the journal or the state. Takes op. */
static __attribute__((unused)) void refused(rt_session *s, rt_op op, const char *want, const char *name)
{
    const char *path = rt_journal_path(s->journal);
    size_t len;
    char *before = get_file(path, &len);
    uint64_t seq = rt_journal_next_seq(s->journal);
    size_t nops = rt_annot_nops(s->annot);
    free(op.author);
    op.author = NULL;
    rt_err err = {0};
    rt_status st = rt_session_check(s, &op, &err);
    ok(st == RT_EUSAGE && strstr(err.msg, want), "refused: %s (%s)", name, err.msg);
    rt_err_clear(&err);
    st = rt_session_do(s, &op, &err);
    /* (a journal nothing was written to yet has no file: a refusal makes none) */
    ok(st == RT_EUSAGE && (before ? file_is(path, before, len) : access(path, F_OK) != 0) &&
       rt_journal_next_seq(s->journal) == seq &&
       rt_annot_nops(s->annot) == nops, "refused: %s: nothing written or applied", name);
    free(before);
    rt_op_clear(&op);
}

/* rt_session_check accepts op (without doing it). Takes op. */
static __attribute__((unused)) void accepted(rt_session *s, rt_op op, const char *name)
{
    rt_err err = {0};
    rt_status st = rt_session_check(s, &op, &err);
    ok(st == RT_OK, "accepted: %s (%s)", name, err.msg);
    rt_op_clear(&op);
}

static __attribute__((unused)) int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* " by author #seq @time" when history is wanted, else "". */
static __attribute__((unused)) const char *prov_str(char *buf, size_t len, const rt_prov *p, int history)
{
    buf[0] = 0;
    if (history)
        snprintf(buf, len, " by %s #%llu @%lld", p->author, (unsigned long long)p->seq, (long long)p->time_ms);
    return buf;
}

/* The whole annotation state as sorted lines: relabels, tags, notes, leak labels and sets;
 * with history, also their provenance and the operation / undo / redo counts. Equal dumps:
 * equal states. */
static __attribute__((unused)) char *dump_state(const rt_session *s, int history)
{
    const rt_workspace *ws = s->ws;
    const rt_annot *a = s->annot;
    char **lines = NULL, buf[1024], pv[128];
    size_t n = 0;
#define ADD(...) \
    do { \
        snprintf(buf, sizeof buf, __VA_ARGS__); \
        lines = realloc(lines, (n + 1) * sizeof *lines); \
        lines[n++] = strdup(buf); \
    } while (0)
    for (uint32_t qid = 0; qid < rt_strtab_count(ws->qids); qid++) {
        const char *q = rt_strtab_str(ws->qids, qid);
        size_t k;
        const rt_label *l = rt_annot_labels(a, qid, &k);
        for (size_t i = 0; i < k; i++)
            ADD("label %s %s %d%s", q, rt_strtab_str(ws->pids, l[i].pid), (int)l[i].grade,
                prov_str(pv, sizeof pv, &l[i].prov, history));
        const rt_tag *t = rt_annot_tags(a, qid, &k);
        for (size_t i = 0; i < k; i++)
            ADD("tag %s %s cats=%llx note=%s%s", q, t[i].pid == RT_NO_ID ? "-" : rt_strtab_str(ws->pids, t[i].pid),
                t[i].cats, t[i].note ? t[i].note : "(none)", prov_str(pv, sizeof pv, &t[i].prov, history));
        const rt_leak_label *lk = rt_annot_leaks(a, qid, &k);
        for (size_t i = 0; i < k; i++)
            ADD("leak %s %s %s%s", q, lk[i].train, lk[i].type, prov_str(pv, sizeof pv, &lk[i].prov, history));
    }
    size_t ns;
    const rt_qset *sets = rt_annot_sets(a, &ns);
    for (size_t i = 0; i < ns; i++) {
        char list[512] = "";
        for (size_t k = 0; k < sets[i].n; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), " %s", rt_strtab_str(ws->qids, sets[i].qids[k]));
        ADD("set %s (%s):%s", sets[i].name, sets[i].how ? sets[i].how : "-", list);
    }
    ADD("~ labels=%zu tagged=%zu", rt_annot_nlabels(a), rt_annot_ntagged(a));
    if (history)
        ADD("~ ops=%zu undo=%zu redo=%zu", rt_annot_nops(a), rt_annot_can_undo(a), rt_annot_can_redo(a));
#undef ADD
    qsort(lines, n, sizeof *lines, cmp_str);
    size_t total = 1;
    for (size_t i = 0; i < n; i++)
        total += strlen(lines[i]) + 1;
    char *out = calloc(1, total);
    for (size_t i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
        free(lines[i]);
    }
    free(lines);
    return out;
}


/* Makes the temporary folder; removes it at fixture_end unless RT_KEEP_TMP is set. */
static __attribute__((unused)) int fixture_begin(void)
{
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 0;
    }
    return 1;
}

static __attribute__((unused)) int fixture_end(void)
{
    if (!getenv("RT_KEEP_TMP"))
        nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    else
        printf("# kept %s\n", tmp);
    return tap_done();
}

#endif
