/* test_journal — annotation and its durability (DESIGN.md §6), with real files in a mkdtemp
 * folder: the operation line format (every kind round-trips, malformed lines are refused); the
 * journal file (sequence numbers, a torn tail set aside byte for byte, bad lines skipped, a
 * missing final newline completed, the one-writer lock across processes, read-only opens that
 * change nothing); the annotation state through sessions on a tiny workspace (every change,
 * refusals, undo/redo, the same state and history after replay); and the live metrics, which
 * must equal rt_eval_file on a qrels file written out from base ⊕ relabels. One TODO test pins a
 * known core bug: an append after a torn tail that could not be set aside is lost. */
#include "config.h"

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

static char tmp[] = "/tmp/rt_test_journal_XXXXXX";

/* tmp/rel, in one of a few rotating buffers. */
static const char *P(const char *rel)
{
    static char buf[16][512];
    static unsigned k;
    char *b = buf[k++ % 16];
    snprintf(b, sizeof buf[0], "%s/%s", tmp, rel);
    return b;
}

static void put_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

static void put_text(const char *path, const char *text) { put_file(path, text, strlen(text)); }

/* The bytes of path, NUL-terminated (*len without the NUL), or NULL when it cannot be read. */
static char *get_file(const char *path, size_t *len)
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

static int file_is(const char *path, const char *data, size_t len)
{
    size_t n;
    char *b = get_file(path, &n);
    int same = b && n == len && memcmp(b, data, len) == 0;
    free(b);
    return same;
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* How many entries of dir start with prefix; the path of one of them goes to first. */
static int count_prefixed(const char *dir, const char *prefix, char *first, size_t flen)
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

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static int streq(const char *a, const char *b) { return a ? b && strcmp(a, b) == 0 : !b; }

static char *S(const char *s) { return s ? strdup(s) : NULL; }

/* Whether a report has a line of this kind holding a and b (b may be NULL); prints the report
 * when not, to show what it said instead. */
static int has_line(const rt_report *r, rt_report_kind kind, const char *a, const char *b)
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

static const int64_t T0 = 1795000000123;   /* 2026-11-18T11:06:40.123Z */

static rt_op op_new(rt_op_kind kind, const char *qid, const char *pid)
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

static rt_op op_label(const char *qid, const char *pid, int has_grade, int32_t grade)
{
    rt_op op = op_new(RT_OP_LABEL, qid, pid);
    op.has_grade = has_grade;
    op.grade = grade;
    return op;
}

static rt_op op_cat(rt_op_kind kind, const char *qid, const char *pid, const char *cat)
{
    rt_op op = op_new(kind, qid, pid);
    op.cat = S(cat);
    return op;
}

static rt_op op_text(rt_op_kind kind, const char *qid, const char *pid, const char *text)
{
    rt_op op = op_new(kind, qid, pid);
    op.text = S(text);
    return op;
}

static rt_op op_leak(const char *qid, const char *train, const char *type)
{
    rt_op op = op_text(RT_OP_LEAK, qid, NULL, type);
    op.train = S(train);
    return op;
}

/* A query set; qids NULL deletes it. */
static rt_op op_set(const char *name, const char *const *qids, size_t n, const char *how)
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

/* Whether a and b hold the same operation; *why names the first difference. */
static int op_same(const rt_op *a, const rt_op *b, const char **why)
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
        DIFF(!streq(a->qids[i], b->qids[i]), "a qid of the list");
    DIFF(a->undo != b->undo, "undo");
    DIFF(a->redo != b->redo, "redo");
#undef DIFF
    *why = "";
    return 1;
}

/* op → one JSON line → op gives the same operation and the same line again; the line holds
 * want (a fragment of the on-disk format). Takes op. */
static void roundtrip(rt_op op, const char *want, const char *name)
{
    char *line = rt_op_to_json(&op);
    size_t n = strlen(line);
    ok(n > 1 && line[n - 1] == '\n' && memchr(line, '\n', n - 1) == NULL,
       "%s: one line ending in a newline", name);
    ok(strstr(line, want) != NULL, "%s: the line holds %s", name, want);
    rt_op back;
    rt_err err = {0};
    rt_status st = rt_op_from_json(&back, line, n - 1, &err);
    if (ok(st == RT_OK, "%s: parses back (%s)", name, err.msg)) {
        const char *why = "";
        int same = op_same(&op, &back, &why);
        ok(same, "%s: the same operation back%s%s", name, same ? "" : "; differs in ", why);
        char *again = rt_op_to_json(&back);
        is_str(again, line, "%s: written again, the same line", name);
        free(again);
        rt_op_clear(&back);
    } else {
        printf("#   line: %s", line);
    }
    free(line);
    rt_op_clear(&op);
}

static void test_op_roundtrip(void)
{
    static const char *const qs[] = {"q1", "q2", "q 3"};
    roundtrip(op_label("q1", "p1", 1, 2), "\"grade\":2", "label with grade 2");
    roundtrip(op_label("q1", "p1", 1, 0), "\"grade\":0", "label with grade 0 (not the same as null)");
    roundtrip(op_label("q1", "p1", 0, 0), "\"grade\":null", "label back to the base (grade null)");
    roundtrip(op_cat(RT_OP_TAG, "q1", "p1", "entity"), "\"op\":\"tag\"", "tag of a pair");
    roundtrip(op_cat(RT_OP_TAG, "q1", NULL, "numeral"), "\"pid\":null", "tag of a query (pid null)");
    roundtrip(op_cat(RT_OP_UNTAG, "q1", "p1", "entity"), "\"op\":\"untag\"", "untag of a pair");
    roundtrip(op_cat(RT_OP_UNTAG, "q1", NULL, "other"), "\"cat\":\"other\"", "untag of a query");
    roundtrip(op_text(RT_OP_NOTE, "q1", "p1", "say \"why\"\n2nd line\t\\ çé 中文"),
              "\\\"why\\\"\\n2nd", "note with quotes, newline, tab, backslash and UTF-8");
    roundtrip(op_text(RT_OP_NOTE, "q1", NULL, ""), "\"text\":\"\"", "note removal on a query");
    roundtrip(op_leak("q1", "train9", "identical"), "\"train\":\"train9\"", "leak label");
    roundtrip(op_leak("q1", "train9", ""), "\"op\":\"leak\"", "leak label cleared");
    roundtrip(op_set("hard", qs, 3, "sample 3 42"), "\"qids\":[\"q1\",\"q2\",\"q 3\"]", "set with a list");
    roundtrip(op_set("hard", NULL, 0, NULL), "\"qids\":null", "set deleted (null list)");
    roundtrip(op_set("none", qs, 0, "empty"), "\"qids\":[]", "set with an empty list");
    rt_op u = op_label("q1", "p1", 0, 0);
    u.undo = 5;
    roundtrip(u, "\"undo\":5", "undo field");
    rt_op r = op_cat(RT_OP_TAG, "q1", "p1", "typo");
    r.redo = 6;
    r.seq = 123456789012ull;
    roundtrip(r, "\"redo\":6", "redo field, large seq");
    rt_op t = op_label("q1", "p1", 1, 1);
    roundtrip(t, "\"time\":\"2026-11-18T11:06:40.123Z\"", "time written in UTC with milliseconds");
    t = op_label("q1", "p1", 1, 1);
    t.time_ms = T0 - 118;   /* .005 */
    roundtrip(t, "40.005Z\"", "milliseconds zero-padded");
    /* times before 1970 (issue 9, item 12): floor division, and they read back */
    t = op_label("q1", "p1", 1, 1);
    t.time_ms = -500;
    roundtrip(t, "\"time\":\"1969-12-31T23:59:59.500Z\"", "half a second before 1970");
    t = op_label("q1", "p1", 1, 1);
    t.time_ms = -1;
    roundtrip(t, "\"time\":\"1969-12-31T23:59:59.999Z\"", "one millisecond before 1970");
    t = op_label("q1", "p1", 1, 1);
    t.time_ms = -62135596800000LL;   /* 0001-01-01 */
    roundtrip(t, "\"time\":\"0001-01-01T00:00:00.000Z\"", "the year 1");
    t = op_label("q1", "p1", 1, 1);
    t.time_ms = 253402300799999LL;   /* 9999-12-31T23:59:59.999 */
    roundtrip(t, "\"time\":\"9999-12-31T23:59:59.999Z\"", "the year 9999");
    is_str(rt_op_kind_name(RT_OP_SET), "set", "kind name");
    is_str(rt_op_kind_name(RT_OP_KIND_COUNT), "?", "no kind name out of range");
}

#define OPHEAD "{\"seq\":1,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\","

static void rejected(const char *line, size_t len, const char *want, const char *name)
{
    rt_op op;
    memset(&op, 0x5a, sizeof op);
    rt_err err = {0};
    rt_status st = rt_op_from_json(&op, line, len, &err);
    ok(st == RT_EINPUT && strstr(err.msg, want), "rejected: %s (%s)", name, err.msg);
    ok(!op.author && !op.qid && !op.pid && !op.qids, "rejected: %s: nothing left in the op", name);
    if (st == RT_OK)
        rt_op_clear(&op);
}

static void rejected_s(const char *line, const char *want, const char *name)
{
    rejected(line, strlen(line), want, name);
}

static void test_op_rejects(void)
{
    const char *good = OPHEAD "\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}";
    rt_op op;
    rt_err err = {0};
    ok(rt_op_from_json(&op, good, strlen(good), &err) == RT_OK && op.seq == 1 && op.grade == 1 &&
       op.time_ms == 1795255872345, "the line the rejections vary is valid (%s)", err.msg);
    rt_op_clear(&op);

    {   /* a "pid" on a set names nothing and is not written back: it is not kept (fuzzing found it) */
        const char *set = OPHEAD "\"op\":\"set\",\"name\":\"s\",\"qids\":[\"q1\"],\"pid\":\"p1\"}";
        rt_op s1, s2;
        int okp = rt_op_from_json(&s1, set, strlen(set), &err) == RT_OK && !s1.pid;
        char *back = okp ? rt_op_to_json(&s1) : NULL;
        okp = okp && rt_op_from_json(&s2, back, strlen(back) - 1, &err) == RT_OK && !s2.pid && s2.nqids == 1;
        ok(okp, "a set with a stray pid reads, writes back and reads again the same");
        free(back);
        rt_op_clear(&s1);
        rt_op_clear(&s2);
    }
    rejected_s("{\"seq\":1,\"time\":", "not a JSON object", "not JSON (cut short)");
    rejected_s("hello", "not a JSON object", "not JSON (a word)");
    rejected_s("[1,2]", "not a JSON object", "a JSON array");
    rejected_s("{\"time\":\"2026-11-21T10:11:12.345Z\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}",
               "\"seq\" must be a positive integer", "missing seq");
    rejected_s("{\"seq\":0,\"time\":\"2026-11-21T10:11:12.345Z\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}",
               "\"seq\" must be a positive integer", "seq 0");
    rejected_s("{\"seq\":1.5,\"time\":\"2026-11-21T10:11:12.345Z\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}",
               "\"seq\" must be a positive integer", "seq 1.5");
    rejected_s("{\"seq\":\"1\",\"time\":\"2026-11-21T10:11:12.345Z\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}",
               "\"seq\" must be a positive integer", "seq as a string");
    rejected_s(OPHEAD "\"op\":\"relabel\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}", "no known \"op\"", "unknown op");
    rejected_s(OPHEAD "\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}", "no known \"op\"", "no op");
    rejected_s("{\"seq\":1,\"time\":\"yesterday\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}",
               "\"time\" must look like", "time not a date");
    rejected_s("{\"seq\":1,\"time\":\"2026-11-21T10:11:12Z\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}",
               "\"time\" must look like", "time without milliseconds");
    rejected_s("{\"seq\":1,\"time\":\"2026-11-21T10:11:12.345Zx\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}",
               "\"time\" must look like", "time with trailing bytes");
    rejected_s("{\"seq\":1,\"time\":1795255872345,\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}",
               "\"time\" must look like", "time as a number");
    rejected_s(OPHEAD "\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1.5}", "\"grade\" must be an integer",
               "grade 1.5");
    rejected_s(OPHEAD "\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":\"1\"}", "a label needs \"grade\"",
               "grade as a string");
    rejected_s(OPHEAD "\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\"}", "a label needs \"grade\"", "label without grade");
    rejected_s(OPHEAD "\"op\":\"label\",\"qid\":\"q\",\"grade\":1}", "a label needs \"qid\" and \"pid\"",
               "label without pid");
    rejected_s(OPHEAD "\"op\":\"label\",\"qid\":\"q\",\"pid\":null,\"grade\":1}", "a label needs \"qid\" and \"pid\"",
               "label with pid null");
    rejected_s(OPHEAD "\"op\":\"label\",\"qid\":5,\"pid\":\"p\",\"grade\":1}", "should be a string", "qid a number");
    rejected_s(OPHEAD "\"op\":\"tag\",\"qid\":\"q\",\"pid\":\"p\"}", "a tag needs \"qid\" and \"cat\"", "tag without cat");
    rejected_s(OPHEAD "\"op\":\"note\",\"qid\":\"q\"}", "a note needs \"qid\" and \"text\"", "note without text");
    rejected_s(OPHEAD "\"op\":\"leak\",\"qid\":\"q\",\"text\":\"identical\"}", "a leak label needs", "leak without train");
    rejected_s(OPHEAD "\"op\":\"set\",\"name\":\"s\",\"qids\":\"q1\"}", "a query set needs \"name\" and \"qids\"",
               "set qids not an array");
    rejected_s(OPHEAD "\"op\":\"set\",\"name\":\"s\"}", "a query set needs", "set without qids");
    rejected_s(OPHEAD "\"op\":\"set\",\"qids\":[]}", "a query set needs", "set without name");
    rejected_s(OPHEAD "\"op\":\"set\",\"name\":\"s\",\"qids\":[\"q1\",2]}", "\"qids\" must hold strings",
               "set qids holding a number");
    rejected_s(OPHEAD "\"op\":\"tag\",\"qid\":\"q\",\"cat\":\"c\",\"undo\":0}", "must be sequence numbers", "undo 0");
    rejected_s(OPHEAD "\"op\":\"tag\",\"qid\":\"q\",\"cat\":\"c\",\"redo\":-2}", "must be sequence numbers", "redo -2");
    rejected_s("{\"seq\":1,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":7,\"op\":\"tag\",\"qid\":\"q\",\"cat\":\"c\"}",
               "\"author\" must be a string",
               "author a number");
    char nul[256];
    size_t n = strlen(good);
    memcpy(nul, good, n + 1);
    nul[20] = 0;
    rejected(nul, n, "NUL bytes", "a NUL byte inside the line");
    memset(nul, 0, 64);
    rejected(nul, 64, "NUL bytes", "a zero-filled line");
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

static rt_status jo_open(jo *o, const char *dir, const char *who, int readonly)
{
    memset(o, 0, sizeof *o);
    o->rep = rt_report_new();
    o->st = (readonly ? rt_journal_open_readonly : rt_journal_open)(&o->j, dir, who, &o->ops, &o->nops,
                                                                    o->rep, &o->err);
    if (o->st != RT_OK)
        printf("#   %s\n", o->err.msg);
    return o->st;
}

static void jo_close(jo *o)
{
    for (size_t i = 0; i < o->nops; i++)
        rt_op_clear(&o->ops[i]);
    free(o->ops);
    rt_journal_close(&o->j);
    rt_report_free(&o->rep);
}

/* Appends a tag operation; returns its status and, in *line, the line it should have written
 * (NULL when the append failed; caller frees). */
static rt_status append_tag(rt_journal *j, const char *qid, char **line)
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
static char *good_lines(int from, int n)
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

static void test_journal_basics(void)
{
    const char *dir = P("j/nested/deeper"), *path = P("j/nested/deeper/alice.jsonl");
    ok(!exists(P("j")), "the journal folder does not exist yet");
    jo o;
    if (!ok(jo_open(&o, dir, "alice", 0) == RT_OK, "open creates the folders and the journal"))
        return;
    is_str(rt_journal_path(o.j), path, "the journal is <dir>/<annotator>.jsonl");
    ok(file_is(path, "", 0), "an empty journal file exists");
    ok(exists(P("j/nested/deeper/alice.jsonl.lock")), "the lock file is beside it");
    ok(rt_journal_readonly(o.j) == NULL, "writable");
    ok(o.nops == 0 && rt_journal_next_seq(o.j) == 1, "no operations; the next is 1");

    static const char *const qs[] = {"q1", "q2"};
    rt_op ops[3] = {op_label("q1", "p1", 1, 1), op_cat(RT_OP_TAG, "q1", NULL, "entity"),
                    op_set("s", qs, 2, "how")};
    char *expect = calloc(1, 1);
    for (int i = 0; i < 3; i++) {
        rt_err err = {0};
        int64_t before = rt_op_now_ms();
        rt_status st = rt_journal_append(o.j, &ops[i], &err);
        int64_t after = rt_op_now_ms();
        ok(st == RT_OK && ops[i].seq == (uint64_t)i + 1, "append %d gets seq %d (%s)", i + 1, i + 1, err.msg);
        ok(ops[i].time_ms >= before && ops[i].time_ms <= after, "append %d is stamped with the time", i + 1);
        char *line = rt_op_to_json(&ops[i]);
        expect = realloc(expect, strlen(expect) + strlen(line) + 1);
        strcat(expect, line);
        free(line);
    }
    is_int(rt_journal_next_seq(o.j), 4, "the next seq is 4");
    ok(file_is(path, expect, strlen(expect)), "the file holds exactly the three lines");
    jo_close(&o);

    if (ok(jo_open(&o, dir, "alice", 0) == RT_OK, "reopen")) {
        int same = o.nops == 3;
        const char *why = "count";
        for (size_t i = 0; same && i < 3; i++)
            same = op_same(&ops[i], &o.ops[i], &why);
        ok(same, "reopening reads the three operations back identically%s%s", same ? "" : "; differs in ", why);
        is_int(rt_journal_next_seq(o.j), 4, "the next seq is still 4");
        is_int(rt_report_warnings(o.rep), 0, "no warning");
        ok(has_line(o.rep, RT_REPORT_INFO, path, "3 operations"), "the report counts the operations");
        ok(file_is(path, expect, strlen(expect)), "reopening changed nothing");
        jo_close(&o);
    }
    for (int i = 0; i < 3; i++)
        rt_op_clear(&ops[i]);
    free(expect);
}

/* A journal of ngood good lines followed by tail (a torn write): the tail is reported at its
 * line, copied byte for byte to <file>.torn-*, and cut off; appends then continue cleanly. */
static void check_torn(const char *who, int ngood, const char *tail, size_t tail_len, const char *name)
{
    const char *dir = P("torn");
    char path[600], prefix[128], where[640], aside[600];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, who);
    snprintf(prefix, sizeof prefix, "%s.jsonl.torn-", who);
    snprintf(where, sizeof where, "%s:%d:", path, ngood + 1);
    mkdir(dir, 0777);
    char *good = good_lines(1, ngood);
    size_t glen = strlen(good);
    char *all = malloc(glen + tail_len);
    memcpy(all, good, glen);
    memcpy(all + glen, tail, tail_len);
    put_file(path, all, glen + tail_len);

    jo o;
    if (!ok(jo_open(&o, dir, who, 0) == RT_OK, "%s: the journal opens", name))
        goto out;
    is_int(o.nops, ngood, "%s: the %d good operations are read", name, ngood);
    ok(has_line(o.rep, RT_REPORT_WARNING, where, "set aside"), "%s: reported as %s", name, where);
    is_int(count_prefixed(dir, prefix, aside, sizeof aside), 1, "%s: one %s* file", name, prefix);
    ok(file_is(aside, tail, tail_len), "%s: it holds exactly the torn bytes", name);
    ok(has_line(o.rep, RT_REPORT_WARNING, where, aside), "%s: the warning names it", name);
    ok(file_is(path, good, glen), "%s: the journal keeps only the good lines", name);
    is_int(rt_journal_next_seq(o.j), ngood + 1, "%s: the next seq follows the good lines", name);
    char *line;
    if (ok(append_tag(o.j, "qa", &line) == RT_OK, "%s: appending works", name)) {
        char *want = malloc(glen + strlen(line) + 1);
        strcpy(want, good);
        strcat(want, line);
        ok(file_is(path, want, strlen(want)), "%s: the file is the good lines plus the new one", name);
        free(want);
        free(line);
    }
    jo_close(&o);
    if (ok(jo_open(&o, dir, who, 0) == RT_OK, "%s: reopens", name)) {
        ok(o.nops == (size_t)ngood + 1 && o.ops[ngood].seq == (uint64_t)ngood + 1,
           "%s: %d operations, the last with seq %d", name, ngood + 1, ngood + 1);
        is_int(rt_report_warnings(o.rep), 0, "%s: now without a warning", name);
        is_int(count_prefixed(dir, prefix, NULL, 0), 1, "%s: nothing more set aside", name);
        jo_close(&o);
    }
out:
    free(good);
    free(all);
}

static void test_journal_torn(void)
{
    const char half[] = "{\"seq\":4,\"time\":\"2026-11-2";
    check_torn("half", 3, half, sizeof half - 1, "half a JSON object without newline");
    char zeros[64];
    memset(zeros, 0, sizeof zeros);
    check_torn("zeros", 3, zeros, sizeof zeros, "a zero-filled tail");
    const char zeros_nl[] = "\0\0\0\0\0\0\0\0\n\0\0\0";
    check_torn("zeros_nl", 3, zeros_nl, sizeof zeros_nl - 1, "zeros spanning a newline");
    check_torn("only", 0, half, sizeof half - 1, "a journal holding only a torn line");
    const char half_zeros[] = "{\"seq\":4,\"ti\0\0\0\0\0\0";
    check_torn("half_zeros", 3, half_zeros, sizeof half_zeros - 1, "a cut line followed by zeros");
}

/* A complete line that does not parse is a bad line, never a torn one (issue 9, item 2): the good
 * operations load, the journal opens read-only saying which line and how to fix it, and not one
 * byte is cut, rewritten or set aside. */
static void check_bad_complete(const char *who, int ngood, const char *tail, int bad_line, const char *name)
{
    const char *dir = P("badc");
    char path[600], prefix[128], where[640];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, who);
    snprintf(prefix, sizeof prefix, "%s.jsonl.torn-", who);
    snprintf(where, sizeof where, "%s:%d", path, bad_line);
    mkdir(dir, 0777);
    char *good = good_lines(1, ngood);
    char *all = malloc(strlen(good) + strlen(tail) + 1);
    strcpy(all, good);
    strcat(all, tail);
    put_text(path, all);
    jo o;
    if (ok(jo_open(&o, dir, who, 0) == RT_OK, "%s: the journal opens", name)) {
        is_int(o.nops, ngood, "%s: the %d good operations are read", name, ngood);
        const char *why = rt_journal_readonly(o.j);
        ok(why && strstr(why, where) && strstr(why, "aside"), "%s: read-only, naming %s and how to fix it (%s)",
           name, where, why ? why : "writable");
        ok(has_line(o.rep, RT_REPORT_WARNING, where, "not an operation"), "%s: reported as %s", name, where);
        char *line = NULL;
        is_int(append_tag(o.j, "qa", &line), RT_ELOCKED, "%s: appending is refused", name);
        free(line);
        ok(file_is(path, all, strlen(all)), "%s: the file is byte for byte unchanged", name);
        is_int(count_prefixed(dir, prefix, NULL, 0), 0, "%s: nothing set aside", name);
        jo_close(&o);
    }
    free(good);
    free(all);
}

/* A file that is not a journal at all (its first line is no operation) is refused, untouched. */
static void check_not_journal(const char *who, const char *text, size_t len, const char *name)
{
    const char *dir = P("notj");
    char path[600];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, who);
    mkdir(dir, 0777);
    put_file(path, text, len);
    jo o;
    rt_status st = jo_open(&o, dir, who, 0);
    ok(st == RT_EINPUT && strstr(o.err.msg, "not a retriage journal") && strstr(o.err.msg, path),
       "%s: refused as not a journal, naming the file (%s)", name, o.err.msg);
    ok(file_is(path, text, len), "%s: the file is byte for byte unchanged", name);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s.jsonl.", who);
    is_int(count_prefixed(dir, prefix, NULL, 0), 0, "%s: no lock, no copy made beside it", name);
    if (st == RT_OK)
        jo_close(&o);
    else
        rt_report_free(&o.rep);
}

static void test_journal_bad_complete(void)
{
    check_bad_complete("badlast", 2, "{\"seq\":4,\"op\":\"label\"}\n", 3, "an invalid complete last line");
    check_bad_complete("grade15", 2, "{\"seq\":3,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":"
                       "\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1.5}\n", 3, "a complete line with grade 1.5");
    check_bad_complete("seqmax", 2, "{\"seq\":18446744073709551615,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":"
                       "\"a\",\"op\":\"tag\",\"qid\":\"q\",\"pid\":null,\"cat\":\"entity\"}\n", 3,
                       "a complete line with seq 2^64-1");
    /* a DuReader data file (300 lines of JSON objects) given as a journal */
    char *text = malloc(300 * 200 + 1);
    text[0] = 0;
    for (int i = 0; i < 300; i++)
        sprintf(text + strlen(text), "{\"question_id\": %d, \"question\": \"问题 %d\", \"answer_paragraphs\": "
                "[{\"paragraph_id\": \"p%d\"}]}\n", 181000 + i, i, i);
    check_not_journal("data", text, strlen(text), "a 300-line DuReader data.jsonl");
    free(text);
    check_not_journal("words", "hello world\n", 12, "a text file");
    check_not_journal("nonl", "{\"a\": 1}", 8, "one JSON object without a newline");
}

/* A bad line followed by good ones was not a crash: it is reported, the good operations load,
 * the file is left alone, and the journal is read-only until the user fixes it. */
static void test_journal_bad_middle(void)
{
    const char *dir = P("mid"), *path = P("mid/carol.jsonl");
    mkdir(dir, 0777);
    char *l1 = good_lines(1, 1), *l2 = good_lines(5, 1);   /* seq 1 and 5: a gap */
    char text[2048];
    snprintf(text, sizeof text, "%sthis is not json\n\n   \n%s", l1, l2);
    put_text(path, text);
    char where[600];
    snprintf(where, sizeof where, "%s:2:", path);
    jo o;
    if (ok(jo_open(&o, dir, "carol", 0) == RT_OK, "a journal with a bad line in the middle opens")) {
        ok(o.nops == 2 && o.ops[0].seq == 1 && o.ops[1].seq == 5, "the two good operations are read");
        is_int(rt_journal_next_seq(o.j), 6, "the next seq follows the highest one");
        ok(has_line(o.rep, RT_REPORT_WARNING, where, "not an operation"), "the bad line is reported as %s", where);
        is_int(rt_report_warnings(o.rep), 1, "one warning (blank lines are not reported)");
        ok(file_is(path, text, strlen(text)), "the file is unchanged");
        is_int(count_prefixed(dir, "carol.jsonl.torn-", NULL, 0), 0, "nothing is set aside");
        char *line = NULL;
        is_int(append_tag(o.j, "qa", &line), RT_ELOCKED, "appending after it is refused (read-only)");
        free(line);
        ok(file_is(path, text, strlen(text)), "the file is still unchanged");
        jo_close(&o);
    }
    free(l1);
    free(l2);
}

/* A last operation without its newline is complete: kept, and the newline added. */
static void test_journal_no_newline(void)
{
    const char *dir = P("nonl"), *path = P("nonl/dave.jsonl");
    mkdir(dir, 0777);
    char *good = good_lines(1, 2);
    size_t n = strlen(good);
    put_file(path, good, n - 1);
    jo o;
    if (ok(jo_open(&o, dir, "dave", 0) == RT_OK, "a journal whose last line lacks the newline opens")) {
        ok(o.nops == 2 && o.ops[1].seq == 2, "the last operation is kept");
        is_int(rt_report_warnings(o.rep), 0, "no warning");
        ok(file_is(path, good, n), "the newline is completed");
        is_int(count_prefixed(dir, "dave.jsonl.torn-", NULL, 0), 0, "nothing is set aside");
        char *line;
        if (ok(append_tag(o.j, "qa", &line) == RT_OK, "appending works")) {
            char want[4096];
            snprintf(want, sizeof want, "%s%s", good, line);
            ok(file_is(path, want, strlen(want)), "the new operation starts a line of its own");
            free(line);
        }
        jo_close(&o);
        if (ok(jo_open(&o, dir, "dave", 0) == RT_OK, "reopens")) {
            ok(o.nops == 3 && rt_report_warnings(o.rep) == 0, "three operations, no warning");
            jo_close(&o);
        }
    }
    free(good);
}

/* What a journal open in another process found. */
typedef struct child_result {
    int done;
    rt_status opened, appended;
    int readonly;
    size_t nops;
    uint64_t seq;
    char reason[256];
} child_result;

/* Opens dir/who in a child process and tries one append there. */
static child_result in_child(const char *dir, const char *who)
{
    child_result r;
    memset(&r, 0, sizeof r);
    int fd[2];
    if (pipe(fd) != 0) {
        perror("pipe");
        exit(2);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        rt_journal *j = NULL;
        rt_op *ops = NULL;
        rt_err err = {0};
        r.opened = rt_journal_open(&j, dir, who, &ops, &r.nops, NULL, &err);
        if (r.opened == RT_OK) {
            const char *why = rt_journal_readonly(j);
            r.readonly = why != NULL;
            snprintf(r.reason, sizeof r.reason, "%s", why ? why : "");
            rt_op op = op_cat(RT_OP_TAG, "child", NULL, "other");
            r.appended = rt_journal_append(j, &op, &err);
            r.seq = op.seq;
        }
        r.done = 1;
        ssize_t w = write(fd[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = pid > 0 ? read(fd[0], &r, sizeof r) : -1;
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    if (got != (ssize_t)sizeof r)
        memset(&r, 0, sizeof r);
    return r;
}

static void test_journal_lock(void)
{
    const char *dir = P("lock"), *path = P("lock/erin.jsonl");
    jo a, b;
    if (!ok(jo_open(&a, dir, "erin", 0) == RT_OK && !rt_journal_readonly(a.j), "the first open is writable"))
        return;
    ok(append_tag(a.j, "q1", NULL) == RT_OK, "it appends");

    /* flock locks belong to the open file description: a second open() in the same process
     * conflicts as well, so a second session in one process is read-only too. */
    if (ok(jo_open(&b, dir, "erin", 0) == RT_OK, "a second open in the same process succeeds")) {
        ok(rt_journal_readonly(b.j) != NULL, "... read-only: the lock holds within one process too (%s)",
           rt_journal_readonly(b.j) ? rt_journal_readonly(b.j) : "writable");
        rt_err err = {0};
        rt_op op = op_cat(RT_OP_TAG, "q1", NULL, "other");
        ok(rt_journal_append(b.j, &op, &err) == RT_ELOCKED && strstr(err.msg, "read-only"),
           "... and its append is refused with RT_ELOCKED (%s)", err.msg);
        rt_op_clear(&op);
        jo_close(&b);   /* closing the read-only one must not release the holder's lock */
    }
    size_t before_len;
    char *before = get_file(path, &before_len);
    char mypid[32];
    snprintf(mypid, sizeof mypid, "process %ld", (long)getpid());
    child_result r = in_child(dir, "erin");
    ok(r.done && r.opened == RT_OK, "another process opens the locked journal");
    ok(r.readonly, "... read-only");
    ok(strstr(r.reason, "another retriage") && strstr(r.reason, mypid), "... saying who holds it (%s)", r.reason);
    is_int(r.nops, 1, "... and still reads the operations");
    is_int(r.appended, RT_ELOCKED, "its append returns RT_ELOCKED");
    ok(file_is(path, before, before_len), "the file is unchanged by the other process");
    free(before);
    ok(append_tag(a.j, "q2", NULL) == RT_OK && rt_journal_next_seq(a.j) == 3, "the holder goes on appending");
    jo_close(&a);

    r = in_child(dir, "erin");
    ok(r.done && r.opened == RT_OK && !r.readonly, "once the holder closed, another process opens it writable");
    ok(r.appended == RT_OK && r.seq == 3, "... and appends seq 3");
    if (ok(jo_open(&a, dir, "erin", 0) == RT_OK && !rt_journal_readonly(a.j), "then this process opens it writable")) {
        ok(a.nops == 3 && streq(a.ops[2].qid, "child"), "the other process's operation is in the journal");
        jo_close(&a);
    }
}

/* When the torn tail cannot be set aside (here: every name it could take for the next seconds
 * is taken; for a real annotator: a journal folder they cannot create files in), the journal
 * must not take appends that the next open would lose: it opens read-only. */
/* Links, pipes and devices (issue 9, items 1 and 4): the journal, its lock and its folder are
 * never opened through a link; what is not a regular file is refused and left untouched. */
static void test_journal_links(void)
{
    const char *dir = P("links"), *victim = P("links-victim.txt");
    mkdir(dir, 0777);
    put_text(victim, "secret\n");
    ok(symlink(victim, P("links/eve.jsonl")) == 0, "eve.jsonl is a link to another file");
    jo o;
    rt_status st = jo_open(&o, dir, "eve", 0);
    ok(st == RT_EINPUT && strstr(o.err.msg, "symbolic link"), "a journal that is a link is refused (%s)", o.err.msg);
    ok(file_is(victim, "secret\n", 7), "the file it points to is untouched");
    is_int(count_prefixed(dir, "eve.jsonl.", NULL, 0), 0, "no lock or copy made beside it");
    if (st == RT_OK) jo_close(&o); else rt_report_free(&o.rep);

    ok(mkfifo(P("links/pipe.jsonl"), 0644) == 0, "pipe.jsonl is a named pipe");
    st = jo_open(&o, dir, "pipe", 0);
    ok(st == RT_EINPUT && strstr(o.err.msg, "named pipe"), "a journal that is a pipe is refused at once (%s)", o.err.msg);
    if (st == RT_OK) jo_close(&o); else rt_report_free(&o.rep);
    st = jo_open(&o, dir, "pipe", 1);
    ok(st == RT_EINPUT, "also when opened read-only");
    if (st == RT_OK) jo_close(&o); else rt_report_free(&o.rep);

    ok(symlink(dir, P("links-dir")) == 0, "links-dir is a link to the journal folder");
    st = jo_open(&o, P("links-dir"), "frank", 0);
    ok(st == RT_EINPUT && strstr(o.err.msg, "folder is a symbolic link"), "a journal folder that is a link is refused (%s)",
       o.err.msg);
    if (st == RT_OK) jo_close(&o); else rt_report_free(&o.rep);
    ok(access(P("links/frank.jsonl"), F_OK) != 0, "nothing was made in the real folder");

    put_text(P("links-lockvictim.txt"), "keep\n");
    ok(symlink(P("links-lockvictim.txt"), P("links/gina.jsonl.lock")) == 0, "gina's lock file is a link");
    if (ok(jo_open(&o, dir, "gina", 0) == RT_OK, "a journal whose lock is a link opens")) {
        const char *why = rt_journal_readonly(o.j);
        ok(why && strstr(why, "symbolic link"), "read-only, saying why (%s)", why ? why : "writable");
        jo_close(&o);
    }
    ok(file_is(P("links-lockvictim.txt"), "keep\n", 5), "the lock's target is untouched (not truncated)");

    /* a journal that is not writable, in a writable folder: read-only, not an error */
    put_text(P("links/hal.jsonl"), "");
    chmod(P("links/hal.jsonl"), 0444);
    if (geteuid() == 0) {
        printf("ok %d - # SKIP as root every file is writable\n", ++tap_n);
    } else if (ok(jo_open(&o, dir, "hal", 0) == RT_OK, "a journal that is not writable opens")) {
        const char *why = rt_journal_readonly(o.j);
        ok(why && strstr(why, "not writable"), "read-only, saying why (%s)", why ? why : "writable");
        jo_close(&o);
    }
}

static void test_journal_aside_fails(void)
{
    const char *dir = P("aside"), *path = P("aside/gus.jsonl");
    mkdir(dir, 0777);
    char *good = good_lines(1, 1), text[2048];
    snprintf(text, sizeof text, "%s{\"seq\":2,\"time\":\"2026-11-2", good);
    put_text(path, text);
    int64_t now = rt_op_now_ms();
    for (int64_t t = now; t < now + 3000; t++) {
        char name[600];
        snprintf(name, sizeof name, "%s.torn-%lld", path, (long long)t);
        put_text(name, "");
    }
    jo o;
    if (!ok(jo_open(&o, dir, "gus", 0) == RT_OK, "a torn journal whose tail cannot be set aside opens"))
        goto out;
    if (!has_line(o.rep, RT_REPORT_WARNING, "could not be set aside", NULL)) {
        printf("ok %d - # SKIP the set-aside did not fail (too slow to take the names)\n", ++tap_n);
        jo_close(&o);
        goto out;
    }
    ok(file_is(path, text, strlen(text)), "the torn tail is left in place");
    rt_status st = append_tag(o.j, "q9", NULL);
    jo_close(&o);
    jo r;
    if (ok(jo_open(&r, dir, "gus", 1) == RT_OK, "it reopens (read-only, to change nothing)")) {
        int kept = st != RT_OK || (r.nops == 2 && streq(r.ops[1].qid, "q9"));
        ok(kept, "an append acknowledged after a failed set-aside is not lost at the next open");
        ok(st == RT_ELOCKED, "the journal refuses changes when its torn tail could not be set aside");
        jo_close(&r);
    }
out:
    free(good);
}

static void test_journal_names(void)
{
    const char *bad[] = {"", "../x", ".hidden", "..", "a/b", NULL};
    char longname[260];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    const char *dir = P("names/sub");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0] + 1; i++) {
        const char *who = i < sizeof bad / sizeof bad[0] ? bad[i] : longname;
        const char *shown = who ? (strlen(who) > 20 ? "(259 characters)" : who) : "(null)";
        for (int ro = 0; ro < 2; ro++) {
            rt_journal *j = (rt_journal *)1;
            rt_op *ops;
            size_t nops;
            rt_err err = {0};
            rt_status st = (ro ? rt_journal_open_readonly : rt_journal_open)(&j, dir, who, &ops, &nops, NULL, &err);
            ok(st == RT_EUSAGE && j == NULL && strstr(err.msg, "annotator name"),
               "%sannotator \"%s\" is refused (%s)", ro ? "read-only: " : "", shown, err.msg);
        }
    }
    ok(!exists(P("names")) && !exists(P("x.jsonl")), "nothing was created");
}

/* rt_journal_open_readonly never writes: not the torn tail, not a newline, not a lock. */
static void test_journal_readonly(void)
{
    const char *dir = P("ro"), *path = P("ro/fay.jsonl");
    mkdir(dir, 0777);
    char *good = good_lines(1, 2);
    char text[4096];
    snprintf(text, sizeof text, "%s{\"seq\":3,\"ti", good);
    put_text(path, text);
    char where[600];
    snprintf(where, sizeof where, "%s:3:", path);
    jo o;
    if (ok(jo_open(&o, dir, "fay", 1) == RT_OK, "a journal with a torn tail opens read-only")) {
        is_int(o.nops, 2, "the good operations are read");
        ok(rt_journal_readonly(o.j) != NULL, "read-only, with a reason");
        ok(has_line(o.rep, RT_REPORT_WARNING, where, "read-only"), "the torn line is reported, not repaired");
        ok(file_is(path, text, strlen(text)), "the file is byte for byte the same");
        is_int(count_prefixed(dir, "fay.jsonl.torn-", NULL, 0), 0, "nothing is set aside");
        ok(!exists(P("ro/fay.jsonl.lock")), "no lock file is made");
        rt_err err = {0};
        rt_op op = op_cat(RT_OP_TAG, "q1", NULL, "other");
        is_int(rt_journal_append(o.j, &op, &err), RT_ELOCKED, "appending is refused");
        rt_op_clear(&op);
        jo_close(&o);
        ok(file_is(path, text, strlen(text)), "still the same after closing");
    }
    put_file(path, good, strlen(good) - 1);
    if (ok(jo_open(&o, dir, "fay", 1) == RT_OK, "a journal without its final newline opens read-only")) {
        ok(o.nops == 2 && file_is(path, good, strlen(good) - 1), "both operations read; no newline added");
        jo_close(&o);
    }
    put_text(P("ro/a-file"), "x");
    if (ok(jo_open(&o, P("ro/a-file/sub"), "fay", 0) == RT_OK, "a journal whose folder cannot be created opens")) {
        const char *why = rt_journal_readonly(o.j);
        ok(why && strstr(why, "cannot create the journal folder"), "... read-only, saying why (%s)", why ? why : "writable");
        rt_err err = {0};
        rt_op op = op_cat(RT_OP_TAG, "q1", NULL, "other");
        is_int(rt_journal_append(o.j, &op, &err), RT_ELOCKED, "... and refuses appends");
        rt_op_clear(&op);
        jo_close(&o);
    }
    if (ok(jo_open(&o, P("ro/missing/dir"), "fay", 1) == RT_OK, "a missing journal opens read-only")) {
        ok(o.nops == 0 && !exists(P("ro/missing")), "empty, and no folder is created");
        jo_close(&o);
    }
    free(good);
}

/* ---- 3. the workspace and sessions ------------------------------------------------------- */

typedef struct judgment {
    const char *qid, *pid;
    int grade;
} judgment;

/* The base qrels: binary, and graded on the same pairs plus one. */
static const judgment base_bin[] = {
    {"q1", "p01", 1}, {"q1", "p02", 0}, {"q1", "p03", 1}, {"q2", "p04", 1},
    {"q2", "p05", 0}, {"q3", "p06", 1}, {"q3", "p07", 0},
};
static const judgment base_graded[] = {
    {"q1", "p01", 3}, {"q1", "p02", 0}, {"q1", "p03", 1}, {"q2", "p04", 2},
    {"q2", "p05", 0}, {"q3", "p06", 1}, {"q3", "p07", 0}, {"q2", "p08", 3},
};

/* Two runs: B does not rank q3 (it scores 0 there); both rank q4, which is not judged; q5 is in
 * the queries file only. */
static const struct ranking {
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

static void write_qrels(const char *path, const judgment *j, size_t n)
{
    char text[8192] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s 0 %s %d\n", j[i].qid, j[i].pid, j[i].grade);
    put_text(path, text);
}

static void write_run(const char *path, const char *tag)
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

static void write_inputs(void)
{
    put_text(P("queries.tsv"), "q1\tfirst query\nq2\tsecond query\nq3\tthird\nq4\tfourth, not judged\n"
                               "q5\tfifth, neither judged nor ranked\n");
    write_qrels(P("qrels.bin"), base_bin, sizeof base_bin / sizeof base_bin[0]);
    write_qrels(P("qrels.graded"), base_graded, sizeof base_graded / sizeof base_graded[0]);
    write_run(P("runA.trec"), "A");
    write_run(P("runB.trec"), "B");
}

static rt_workspace *open_ws(int graded, const char *measures)
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
    if (rt_workspace_open(&ws, &spec, NULL, NULL, &err) != RT_OK)
        printf("#   workspace: %s\n", err.msg);
    return ws;
}

static uint32_t QID(const rt_session *s, const char *q) { return rt_strtab_find(s->ws->qids, q, strlen(q)); }

static uint32_t PID(const rt_session *s, const char *p)
{
    return p ? rt_strtab_find(s->ws->pids, p, strlen(p)) : RT_NO_ID;
}

/* The current grade of (q, p), or -99 when unjudged. */
static int grade_now(const rt_session *s, const char *q, const char *p, const rt_label **relabel)
{
    int32_t g;
    return rt_session_grade(s, QID(s, q), PID(s, p), &g, relabel) ? g : -99;
}

static const rt_tag *tag_of(const rt_session *s, const char *q, const char *p)
{
    return rt_annot_tag(s->annot, QID(s, q), PID(s, p));
}

static int has_cat(const rt_session *s, const char *q, const char *p, const char *cat)
{
    const rt_tag *t = tag_of(s, q, p);
    size_t c = rt_taxonomy_find(s->ws->taxonomy, cat);
    return t && c != (size_t)-1 && (t->cats >> c & 1);
}

static const char *note_of(const rt_session *s, const char *q, const char *p)
{
    const rt_tag *t = tag_of(s, q, p);
    return t ? t->note : NULL;
}

static const char *leak_of(const rt_session *s, const char *q, const char *train)
{
    const rt_leak_label *l = rt_annot_leak(s->annot, QID(s, q), train);
    return l ? l->type : NULL;
}

/* Does op through the session (which fills in author, seq and time); takes op. */
static rt_status do_op(rt_session *s, rt_op op, rt_err *err)
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
static char *last_line(const rt_session *s)
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
static void refused(rt_session *s, rt_op op, const char *want, const char *name)
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
    ok(st == RT_EUSAGE && file_is(path, before, len) && rt_journal_next_seq(s->journal) == seq &&
       rt_annot_nops(s->annot) == nops, "refused: %s: nothing written or applied", name);
    free(before);
    rt_op_clear(&op);
}

/* rt_session_check accepts op (without doing it). Takes op. */
static void accepted(rt_session *s, rt_op op, const char *name)
{
    rt_err err = {0};
    rt_status st = rt_session_check(s, &op, &err);
    ok(st == RT_OK, "accepted: %s (%s)", name, err.msg);
    rt_op_clear(&op);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* " by author #seq @time" when history is wanted, else "". */
static const char *prov_str(char *buf, size_t len, const rt_prov *p, int history)
{
    buf[0] = 0;
    if (history)
        snprintf(buf, len, " by %s #%llu @%lld", p->author, (unsigned long long)p->seq, (long long)p->time_ms);
    return buf;
}

/* The whole annotation state as sorted lines: relabels, tags, notes, leak labels and sets;
 * with history, also their provenance and the operation / undo / redo counts. Equal dumps:
 * equal states. */
static char *dump_state(const rt_session *s, int history)
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

static void test_session_changes(rt_workspace *ws)
{
    rt_session *s;
    rt_err err = {0};
    const char *dir = P("sess");
    if (!ok(rt_session_open(&s, ws, dir, "ann", 0, &err) == RT_OK, "a session opens (%s)", err.msg))
        return;
    ok(!rt_session_readonly(s) && rt_annot_nops(s->annot) == 0, "writable, nothing annotated");
    is_str(rt_journal_path(s->journal), P("sess/ann.jsonl"), "the journal is the annotator's");

    /* relabels */
    const rt_label *rl = (const rt_label *)1;
    ok(grade_now(s, "q1", "p02", &rl) == 0 && rl == NULL, "q1 p02 is 0 in the base, no relabel");
    ok(rt_session_label(s, "q1", "p02", 1, 1, &err) == RT_OK, "label q1 p02 1 (%s)", err.msg);
    ok(grade_now(s, "q1", "p02", &rl) == 1 && rl && rl->prov.seq == 1 && streq(rl->prov.author, "ann"),
       "q1 p02 is now 1, relabelled by ann in operation 1");
    ok(rt_session_label(s, "q1", "p02", 0, 0, &err) == RT_OK, "label q1 p02 back to the base (%s)", err.msg);
    ok(grade_now(s, "q1", "p02", &rl) == 0 && rl == NULL && rt_annot_nlabels(s->annot) == 0,
       "q1 p02 is 0 again, without relabel");
    ok(grade_now(s, "q1", "p09", NULL) == -99, "q1 p09 (ranked, not judged) is unjudged");
    ok(rt_session_label(s, "q1", "p09", 1, 1, &err) == RT_OK && grade_now(s, "q1", "p09", NULL) == 1,
       "an unjudged passage is labelled 1");
    ok(rt_session_label(s, "q1", "p02", 1, 1, &err) == RT_OK && rt_annot_nlabels(s->annot) == 2,
       "q1 p02 relabelled 1 again: two relabels");

    /* tags */
    ok(rt_session_tag(s, RT_OP_TAG, "q1", "p02", "entity", &err) == RT_OK && has_cat(s, "q1", "p02", "entity") &&
       rt_annot_ntagged(s->annot) == 1, "tag q1 p02 entity");
    ok(rt_session_tag(s, RT_OP_TAG, "q1", NULL, "2", &err) == RT_OK && has_cat(s, "q1", NULL, "numeral") &&
       !has_cat(s, "q1", NULL, "entity") && rt_annot_ntagged(s->annot) == 2, "tag the query q1 by number: numeral");
    char *line = last_line(s);
    ok(line && strstr(line, "\"cat\":\"numeral\"") && strstr(line, "\"pid\":null"),
       "the journal holds the category's id and a null pid (%s)", line);
    free(line);
    ok(rt_session_tag(s, RT_OP_TAG, "q1", "p03", "overlap", &err) == RT_OK && has_cat(s, "q1", "p03", "overlap"),
       "tag q1 p03 overlap");
    ok(rt_session_tag(s, RT_OP_UNTAG, "q1", "p03", "overlap", &err) == RT_OK && tag_of(s, "q1", "p03") == NULL,
       "untag q1 p03 overlap: the entry is gone");
    ok(rt_session_tag(s, RT_OP_TAG, "q2", NULL, "typo", &err) == RT_OK && has_cat(s, "q2", NULL, "typo"),
       "tag the query q2 typo");
    ok(rt_session_tag(s, RT_OP_UNTAG, "q2", NULL, "typo", &err) == RT_OK && tag_of(s, "q2", NULL) == NULL &&
       rt_annot_ntagged(s->annot) == 2, "untag it: gone");
    ok(rt_annot_tag_count(s->annot, QID(s, "q1")) == 2, "q1 has two tagged entries");

    /* notes */
    ok(rt_session_note(s, "q1", "p02", "looks relevant", &err) == RT_OK &&
       streq(note_of(s, "q1", "p02"), "looks relevant") && has_cat(s, "q1", "p02", "entity"),
       "note on q1 p02, its tag kept");
    ok(rt_session_note(s, "q1", NULL, "about the query", &err) == RT_OK &&
       streq(note_of(s, "q1", NULL), "about the query"), "note on the query q1");
    ok(rt_session_note(s, "q2", "p04", "tmp", &err) == RT_OK && streq(note_of(s, "q2", "p04"), "tmp"),
       "note on q2 p04");
    ok(rt_session_note(s, "q2", "p04", "", &err) == RT_OK && tag_of(s, "q2", "p04") == NULL,
       "an empty note removes it: the entry is gone");

    /* leak labels */
    ok(do_op(s, op_leak("q1", "tr7", "identical"), &err) == RT_OK && streq(leak_of(s, "q1", "tr7"), "identical"),
       "leak label q1 × tr7 identical");
    ok(do_op(s, op_leak("q1", "tr8", "reformulation"), &err) == RT_OK &&
       streq(leak_of(s, "q1", "tr8"), "reformulation"), "leak label q1 × tr8 reformulation");
    ok(do_op(s, op_leak("q1", "tr8", ""), &err) == RT_OK && leak_of(s, "q1", "tr8") == NULL,
       "cleared: q1 × tr8 has no label");
    size_t nl;
    rt_annot_leaks(s->annot, QID(s, "q1"), &nl);
    is_int(nl, 1, "q1 has one leak label");

    /* query sets */
    static const char *const hard[] = {"q1", "q3"}, *const tmpset[] = {"q2"};
    ok(do_op(s, op_set("hard", hard, 2, "picked by hand"), &err) == RT_OK, "set hard = q1 q3");
    const rt_qset *qs = rt_annot_set(s->annot, "hard");
    ok(qs && qs->n == 2 && qs->qids[0] == QID(s, "q1") && qs->qids[1] == QID(s, "q3") &&
       streq(qs->how, "picked by hand"), "the set holds q1 q3 and how it was made");
    ok(do_op(s, op_set("tmp", tmpset, 1, NULL), &err) == RT_OK && rt_annot_set(s->annot, "tmp"), "set tmp = q2");
    ok(do_op(s, op_set("tmp", NULL, 0, NULL), &err) == RT_OK && !rt_annot_set(s->annot, "tmp"), "set tmp deleted");
    size_t nsets;
    rt_annot_sets(s->annot, &nsets);
    is_int(nsets, 1, "one set left");

    /* refusals */
    refused(s, op_label("q1", "p02", 1, 1), "nothing to change", "relabel to the current grade");
    refused(s, op_label("q1", "p01", 0, 0), "nothing to change", "back to the base without a relabel");
    refused(s, op_cat(RT_OP_TAG, "q1", "p02", "entity"), "nothing to change", "tag already there");
    refused(s, op_cat(RT_OP_TAG, "q1", NULL, "numeral"), "nothing to change", "query tag already there");
    refused(s, op_cat(RT_OP_UNTAG, "q1", "p03", "overlap"), "nothing to change", "untag absent");
    refused(s, op_cat(RT_OP_UNTAG, "q3", "p06", "entity"), "nothing to change", "untag where nothing is tagged");
    refused(s, op_text(RT_OP_NOTE, "q1", "p02", "looks relevant"), "nothing to change", "the same note");
    refused(s, op_text(RT_OP_NOTE, "q3", NULL, ""), "nothing to change", "removing no note");
    refused(s, op_leak("q1", "tr7", "identical"), "nothing to change", "the same leak label");
    refused(s, op_leak("q1", "tr9", ""), "nothing to change", "clearing no leak label");
    refused(s, op_label("qX", "p01", 1, 1), "unknown query \"qX\"", "label of an unknown query");
    refused(s, op_cat(RT_OP_TAG, "qX", NULL, "entity"), "unknown query", "tag of an unknown query");
    refused(s, op_label("q1", "p99", 1, 1), "unknown passage \"p99\"", "label of an unknown passage");
    refused(s, op_cat(RT_OP_TAG, "q1", "p99", "entity"), "unknown passage", "tag of an unknown passage");
    refused(s, op_cat(RT_OP_TAG, "q1", "p02", "nope"), "unknown category \"nope\"", "unknown category");
    refused(s, op_cat(RT_OP_UNTAG, "q1", "p02", "nope"), "unknown category", "untag of an unknown category");
    refused(s, op_cat(RT_OP_TAG, "q1", "p02", "9"), "unknown category", "category number 9 of 8");
    refused(s, op_label("q1", "p03", 1, 2), "grade 2", "grade 2 in a binary workspace");
    refused(s, op_label("q1", "p03", 1, -1), "grade -1", "grade -1");
    refused(s, op_label("q1", NULL, 1, 1), "a label needs a passage", "label without passage");
    refused(s, op_leak("q1", "tr7", "duplicate"), "a leak label needs", "unknown leak type");
    refused(s, op_set("", hard, 2, NULL), "a query set needs a name", "set without a name");
    accepted(s, op_label("q3", "p07", 1, 1), "grade 1 in a binary workspace");
    refused(s, op_label("q3", "p07", 1, 0), "nothing to change", "relabel to the base grade");
    refused(s, op_label("q1", "p09", 1, 1), "nothing to change", "relabel to the relabelled grade");
    accepted(s, op_cat(RT_OP_TAG, "q1", "p02", "false negative"), "a category by its name");

    /* the journal: one line per change, by ann, in order */
    size_t nops = rt_annot_nops(s->annot), good = 0;
    char *text = get_file(rt_journal_path(s->journal), NULL), *save;
    size_t nlines = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        rt_op op;
        nlines++;
        if (rt_op_from_json(&op, l, strlen(l), NULL) == RT_OK && op.seq == nlines && streq(op.author, "ann"))
            good++;
        if (op.seq)
            rt_op_clear(&op);
    }
    free(text);
    ok(nops == 20 && nlines == nops && good == nops, "the journal has one line per change (%zu), seq 1…, by ann (%zu ok of %zu)",
       nops, good, nlines);

    /* replay */
    char *before = dump_state(s, 1);
    size_t warnings = rt_report_warnings(ws->report);
    rt_session_close(&s);
    if (ok(rt_session_open(&s, ws, dir, "ann", 0, &err) == RT_OK, "the session reopens (%s)", err.msg)) {
        char *after = dump_state(s, 1);
        is_str(after, before, "replaying the journal rebuilds the same state, provenance and history");
        ok(strstr(before, "label q1 p02 1 by ann #4 ") && strstr(before, "tag q1 - cats=2 note=about the query") &&
           strstr(before, "leak q1 tr7 identical") && strstr(before, "set hard (picked by hand): q1 q3") &&
           strstr(before, "ops=20 undo=20 redo=0"), "... a state with every kind of annotation in it");
        if (!strstr(before, "#4 "))
            printf("%s", before);
        is_int(rt_report_warnings(ws->report), warnings, "replaying warns of nothing");
        free(after);
        rt_session_close(&s);
    }
    free(before);

    /* a second session on the same journal in this process is read-only */
    rt_session *s2;
    if (ok(rt_session_open(&s, ws, dir, "ann", 0, &err) == RT_OK &&
           rt_session_open(&s2, ws, dir, "ann", 0, &err) == RT_OK, "two sessions on one journal open")) {
        ok(!rt_session_readonly(s) && rt_session_readonly(s2), "the first is writable, the second read-only");
        ok(has_line(ws->report, RT_REPORT_WARNING, "ann.jsonl: read-only", NULL), "the read-only one is reported");
        rt_op op = op_label("q3", "p07", 1, 1);
        is_int(rt_session_check(s2, &op, &err), RT_ELOCKED, "its changes are refused with RT_ELOCKED");
        rt_op_clear(&op);
        rt_op done;
        is_int(rt_session_undo(s2, &done, &err), RT_ELOCKED, "so is its undo");
        rt_session_close(&s2);
        rt_session_close(&s);
    }
    if (ok(rt_session_open(&s, ws, dir, "ann", 1, &err) == RT_OK, "a read-only session opens")) {
        rt_op op = op_label("q3", "p07", 1, 1);
        is_int(rt_session_check(s, &op, &err), RT_ELOCKED, "and refuses changes");
        rt_op_clear(&op);
        is_int(rt_annot_nops(s->annot), 20, "it replayed the journal");
        rt_session_close(&s);
    }
}

static void test_session_grades(rt_workspace *graded)
{
    rt_session *s;
    rt_err err = {0};
    if (!ok(rt_session_open(&s, graded, P("sess_graded"), "ann", 0, &err) == RT_OK, "a graded session opens"))
        return;
    accepted(s, op_label("q1", "p03", 1, 3), "grade 3 in a graded workspace");
    accepted(s, op_label("q1", "p03", 1, 0), "grade 0 in a graded workspace");
    refused(s, op_label("q1", "p03", 1, 4), "grades 0-3", "grade 4 in a graded workspace");
    refused(s, op_label("q1", "p03", 1, -1), "grade -1", "grade -1 in a graded workspace");
    ok(rt_session_label(s, "q1", "p03", 1, 3, &err) == RT_OK && grade_now(s, "q1", "p03", NULL) == 3,
       "q1 p03 labelled 3");
    rt_session_close(&s);
}

/* The undo/redo state of the "undoer" session: A = q2 p05 labelled 1, B = q2 p04 tagged typo,
 * C = note "c" on q2. */
static void state_is(const rt_session *s, int a, int b, int c, size_t nundo, size_t nredo, const char *step)
{
    ok(grade_now(s, "q2", "p05", NULL) == (a ? 1 : 0) && has_cat(s, "q2", "p04", "typo") == b &&
       streq(note_of(s, "q2", NULL), c ? "c" : NULL),
       "%s: A %s, B %s, C %s", step, a ? "done" : "not done", b ? "done" : "not done", c ? "done" : "not done");
    ok(rt_annot_can_undo(s->annot) == nundo && rt_annot_can_redo(s->annot) == nredo,
       "%s: %zu to undo, %zu to redo (have %zu, %zu)", step, nundo, nredo, rt_annot_can_undo(s->annot),
       rt_annot_can_redo(s->annot));
}

/* Undo or redo through the session; the op it appended must undo / redo seq `of`. */
static void history(rt_session *s, int redo, uint64_t of, const char *step)
{
    rt_op done;
    rt_err err = {0};
    rt_status st = (redo ? rt_session_redo : rt_session_undo)(s, &done, &err);
    ok(st == RT_OK && (redo ? done.redo : done.undo) == of && (redo ? done.undo : done.redo) == 0,
       "%s: appended an op that %s #%llu (%s)", step, redo ? "redoes" : "undoes", (unsigned long long)of, err.msg);
    rt_op_clear(&done);
}

static void test_undo_redo(rt_workspace *ws)
{
    rt_session *s;
    rt_err err = {0};
    rt_op done;
    const char *dir = P("sess");
    if (!ok(rt_session_open(&s, ws, dir, "undoer", 0, &err) == RT_OK, "an undo session opens"))
        return;
    ok(rt_session_undo(s, &done, &err) == RT_EUSAGE && strstr(err.msg, "nothing to undo"), "nothing to undo yet");
    ok(rt_session_redo(s, &done, &err) == RT_EUSAGE && strstr(err.msg, "nothing to redo"), "nothing to redo yet");
    state_is(s, 0, 0, 0, 0, 0, "start");
    ok(rt_session_label(s, "q2", "p05", 1, 1, &err) == RT_OK, "do A (#1)");
    state_is(s, 1, 0, 0, 1, 0, "after A");
    ok(rt_session_tag(s, RT_OP_TAG, "q2", "p04", "typo", &err) == RT_OK, "do B (#2)");
    state_is(s, 1, 1, 0, 2, 0, "after B");
    history(s, 0, 2, "undo (#3)");
    state_is(s, 1, 0, 0, 1, 1, "after undoing B");
    history(s, 0, 1, "undo (#4)");
    state_is(s, 0, 0, 0, 0, 2, "after undoing A");
    ok(rt_session_undo(s, &done, &err) == RT_EUSAGE, "nothing more to undo");
    history(s, 1, 4, "redo (#5)");
    state_is(s, 1, 0, 0, 1, 1, "after redoing A");
    ok(rt_session_note(s, "q2", NULL, "c", &err) == RT_OK, "do C (#6)");
    state_is(s, 1, 0, 1, 2, 0, "after C");
    ok(rt_session_redo(s, &done, &err) == RT_EUSAGE && strstr(err.msg, "nothing to redo"),
       "a new change makes redo impossible");
    char *line = last_line(s);
    ok(line && strstr(line, "\"seq\":6,") && !strstr(line, "\"undo\":") && !strstr(line, "\"redo\":"),
       "the journal ends with C, a plain operation");
    free(line);
    char *before = dump_state(s, 1);
    rt_session_close(&s);

    if (!ok(rt_session_open(&s, ws, dir, "undoer", 0, &err) == RT_OK, "the undo session reopens"))
        goto out;
    char *after = dump_state(s, 1);
    is_str(after, before, "after replay: the same state");
    free(after);
    state_is(s, 1, 0, 1, 2, 0, "after replay");
    ok(rt_session_redo(s, &done, &err) == RT_EUSAGE, "after replay: still nothing to redo");
    history(s, 0, 6, "after replay, undo (#7)");
    state_is(s, 1, 0, 0, 1, 1, "after undoing C");
    history(s, 0, 5, "after replay, undo (#8)");
    state_is(s, 0, 0, 0, 0, 2, "after undoing the redone A");
    history(s, 1, 8, "redo (#9)");
    state_is(s, 1, 0, 0, 1, 1, "after redoing A again");
    history(s, 1, 7, "redo (#10)");
    state_is(s, 1, 0, 1, 2, 0, "after redoing C");
    rt_session_close(&s);
out:
    free(before);
}

/* Does op, undoes it, redoes it: undo must give back the state before (values, not provenance),
 * redo the state after. Takes op. */
static void undo_roundtrip(rt_session *s, rt_op op, const char *name)
{
    char *before = dump_state(s, 0), *after = NULL, *undone = NULL, *redone = NULL;
    rt_err err = {0};
    rt_op done;
    if (!ok(do_op(s, op, &err) == RT_OK, "every kind undoes: %s: done", name))
        goto out;
    after = dump_state(s, 0);
    ok(strcmp(after, before) != 0, "every kind undoes: %s: the state changed", name);
    ok(rt_session_undo(s, &done, &err) == RT_OK, "every kind undoes: %s: undone (%s)", name, err.msg);
    rt_op_clear(&done);
    undone = dump_state(s, 0);
    is_str(undone, before, "every kind undoes: %s: back to the state before", name);
    ok(rt_session_redo(s, &done, &err) == RT_OK, "every kind undoes: %s: redone (%s)", name, err.msg);
    rt_op_clear(&done);
    redone = dump_state(s, 0);
    is_str(redone, after, "every kind undoes: %s: again the state after", name);
out:
    free(before);
    free(after);
    free(undone);
    free(redone);
}

static void test_undo_each_kind(rt_workspace *ws)
{
    rt_session *s;
    rt_err err = {0};
    if (!ok(rt_session_open(&s, ws, P("sess"), "kinds", 0, &err) == RT_OK, "a session for every kind opens"))
        return;
    static const char *const one[] = {"q1"}, *const two[] = {"q2", "q3"};
    undo_roundtrip(s, op_label("q2", "p05", 1, 1), "a new relabel");
    undo_roundtrip(s, op_label("q2", "p05", 1, 0), "a relabel changed");
    undo_roundtrip(s, op_label("q2", "p05", 0, 0), "a relabel removed");
    undo_roundtrip(s, op_label("q2", "p04", 1, 0), "a relevant passage relabelled 0");
    undo_roundtrip(s, op_cat(RT_OP_TAG, "q2", "p04", "entity"), "a first tag");
    undo_roundtrip(s, op_cat(RT_OP_TAG, "q2", "p04", "modifier"), "a second tag");
    undo_roundtrip(s, op_cat(RT_OP_UNTAG, "q2", "p04", "entity"), "an untag");
    undo_roundtrip(s, op_cat(RT_OP_TAG, "q2", NULL, "other"), "a query tag");
    undo_roundtrip(s, op_cat(RT_OP_UNTAG, "q2", NULL, "other"), "a query untag");
    undo_roundtrip(s, op_text(RT_OP_NOTE, "q2", "p05", "n1"), "a new note");
    undo_roundtrip(s, op_text(RT_OP_NOTE, "q2", "p05", "n2"), "a note changed");
    undo_roundtrip(s, op_text(RT_OP_NOTE, "q2", "p05", ""), "a note removed");
    undo_roundtrip(s, op_leak("q2", "tr1", "identical"), "a new leak label");
    undo_roundtrip(s, op_leak("q2", "tr1", "generalization"), "a leak label changed");
    undo_roundtrip(s, op_leak("q2", "tr1", ""), "a leak label cleared");
    undo_roundtrip(s, op_set("s1", one, 1, "h1"), "a new set");
    undo_roundtrip(s, op_set("s1", two, 2, "h2"), "a set replaced");
    undo_roundtrip(s, op_set("s1", NULL, 0, NULL), "a set deleted");
    rt_session_close(&s);
}

/* ---- 4. live metrics --------------------------------------------------------------------- */

/* The test's own model of the relabel overlay, with undo / redo as whole snapshots. */
typedef struct overlay {
    judgment j[16];
    size_t n;
} overlay;

typedef struct model {
    overlay cur, undo[16], redo[16];
    size_t nundo, nredo;
} model;

static void overlay_set(overlay *o, const char *qid, const char *pid, int has_grade, int grade)
{
    size_t i = 0;
    while (i < o->n && !(strcmp(o->j[i].qid, qid) == 0 && strcmp(o->j[i].pid, pid) == 0))
        i++;
    if (!has_grade) {
        if (i < o->n)
            o->j[i] = o->j[--o->n];
        return;
    }
    if (i == o->n)
        o->n++;
    o->j[i] = (judgment){qid, pid, grade};
}

/* Writes base ⊕ overlay as TREC qrels to path. */
static void write_current(const char *path, const judgment *base, size_t nbase, const overlay *o)
{
    judgment all[32];
    size_t n = 0;
    for (size_t i = 0; i < nbase; i++)
        all[n++] = base[i];
    for (size_t k = 0; k < o->n; k++) {
        size_t i = 0;
        while (i < nbase && !(strcmp(base[i].qid, o->j[k].qid) == 0 && strcmp(base[i].pid, o->j[k].pid) == 0))
            i++;
        if (i < nbase)
            all[i].grade = o->j[k].grade;
        else
            all[n++] = o->j[k];
    }
    write_qrels(path, all, n);
}

/* Compares the session's live metrics with rt_eval_file of each run against base ⊕ overlay. */
static void compare_live(const rt_session *s, const judgment *base, size_t nbase, const overlay *o,
                         const char *name)
{
    const rt_workspace *ws = s->ws;
    const char *path = P("current.qrels");
    write_current(path, base, nbase, o);
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_qrels *qrels = NULL;
    rt_err err = {0};
    if (!ok(rt_qrels_load(&qrels, path, RT_QRELS_AUTO, qids, pids, NULL, NULL, &err) == RT_OK,
            "%s: the written qrels load (%s)", name, err.msg))
        goto out;
    rt_eval *ev = rt_eval_new(qrels, qids, pids, ws->ms, ws->nm, ws->level);
    int means = 1, values = 1, unjudged = 1;
    for (size_t r = 0; r < ws->nruns; r++) {
        rt_eval_result *res = NULL;
        rt_run_opts opts = {.order = RT_ORDER_SCORE};
        if (rt_eval_file(ev, P(r ? "runB.trec" : "runA.trec"), &opts, &res, &err) != RT_OK) {
            printf("#   %s\n", err.msg);
            means = values = 0;
            continue;
        }
        const double *mean = rt_live_mean(s->live, r);
        const size_t *nd = rt_live_n_defined(s->live, r);
        size_t nsorted, over_nd[16];
        double over[16];
        const uint32_t *sorted = rt_live_sorted(s->live, &nsorted);
        rt_live_mean_over(s->live, r, sorted, nsorted, 1, over, over_nd);
        for (size_t m = 0; m < ws->nm; m++) {
            if (mean[m] != res->mean[m] || nd[m] != res->n_defined[m]) {
                printf("#   run %zu %s: live %.17g over %zu, eval %.17g over %zu\n", r, ws->ms[m].name, mean[m],
                       nd[m], res->mean[m], res->n_defined[m]);
                means = 0;
            }
            if (over[m] != mean[m] || over_nd[m] != nd[m]) {
                printf("#   run %zu %s: mean over all judged queries %.17g, live mean %.17g\n", r, ws->ms[m].name,
                       over[m], mean[m]);
                means = 0;
            }
        }
        for (uint32_t i = 0; i < rt_qrels_nqueries(qrels); i++) {
            const char *q = rt_strtab_str(qids, rt_qrels_qid(qrels, i));
            uint32_t lq = rt_strtab_find(ws->qids, q, strlen(q));
            for (size_t m = 0; m < ws->nm; m++) {
                double v = -1;
                int def = rt_live_value(s->live, r, lq, m, &v);
                size_t at = (size_t)i * ws->nm + m;
                if (def != res->defined[at] || (def && v != res->value[at])) {
                    printf("#   run %zu %s %s: live %.17g (%d), eval %.17g (%d)\n", r, q, ws->ms[m].name, v, def,
                           res->value[at], res->defined[at]);
                    values = 0;
                }
            }
        }
        /* queries the written qrels do not judge have no live value */
        for (uint32_t qid = 0; qid < rt_strtab_count(ws->qids); qid++) {
            const char *q = rt_strtab_str(ws->qids, qid);
            double v;
            if (rt_strtab_find(qids, q, strlen(q)) == RT_NO_ID && rt_live_value(s->live, r, qid, 0, &v)) {
                printf("#   %s has a live value but is not judged\n", q);
                unjudged = 0;
            }
        }
        rt_eval_result_free(&res);
    }
    ok(means, "%s: the means of both runs equal rt_eval_file on base ⊕ relabels, bit for bit", name);
    ok(values, "%s: so does every per-query value", name);
    ok(unjudged, "%s: queries judged by neither have no value", name);
    is_int(rt_live_nqueries(s->live), rt_qrels_nqueries(qrels), "%s: the number of judged queries", name);
    int grades = 1;
    for (size_t k = 0; k < o->n; k++) {
        int32_t g;
        grades &= rt_live_grade(s->live, QID(s, o->j[k].qid), PID(s, o->j[k].pid), &g) && g == o->j[k].grade;
    }
    ok(grades && rt_annot_nlabels(s->annot) == o->n, "%s: the %zu relabels are the current grades", name, o->n);
    rt_eval_free(&ev);
out:
    rt_qrels_free(&qrels);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
}

/* The live value of measure m for run r on query q, or -1 when it has none. */
static double live_value(const rt_session *s, size_t r, const char *q, size_t m)
{
    double v;
    return rt_live_value(s->live, r, QID(s, q), m, &v) ? v : -1;
}

/* The relabels: 'L' labels (grade for binary, for graded; has_grade 0: back to the base),
 * 'U' undoes, 'R' redoes. */
static const struct step {
    char what;
    const char *qid, *pid;
    int has_grade, gbin, ggraded;
    const char *why;
} steps[] = {
    {'L', "q1", "p09", 1, 1, 3, "an unjudged passage ranked first becomes relevant"},
    {'L', "q1", "p02", 1, 1, 2, "a non-relevant passage becomes relevant"},
    {'L', "q3", "p06", 1, 0, 0, "q3 loses its only relevant passage"},
    {'L', "q4", "p07", 1, 1, 1, "q4, unjudged so far, becomes judged"},
    {'L', "q5", "p01", 1, 1, 2, "q5, ranked by no run, becomes judged"},
    {'U', NULL, NULL, 0, 0, 0, "undo: q5 unjudged again"},
    {'U', NULL, NULL, 0, 0, 0, "undo: q4 unjudged again"},
    {'R', NULL, NULL, 0, 0, 0, "redo: q4 judged again"},
    {'L', "q1", "p02", 0, 0, 0, "q1 p02 back to its base judgment"},
    {'L', "q2", "p04", 1, 0, 1, "q2's first relevant passage relabelled"},
    {'L', "q4", "p07", 1, 0, 0, "q4 judged with nothing relevant"},
};

static void test_live_config(int graded, const char *measures)
{
    char name[128], dir[64];
    snprintf(name, sizeof name, "%s %s", graded ? "graded" : "binary", measures);
    snprintf(dir, sizeof dir, "live-%d-%zu", graded, strlen(measures));
    const judgment *base = graded ? base_graded : base_bin;
    size_t nbase = graded ? sizeof base_graded / sizeof base_graded[0] : sizeof base_bin / sizeof base_bin[0];
    rt_workspace *ws = open_ws(graded, measures);
    rt_session *s;
    rt_err err = {0};
    if (!ok(ws && rt_session_open(&s, ws, P(dir), "live", 0, &err) == RT_OK, "%s: a session opens", name)) {
        rt_workspace_free(&ws);
        return;
    }
    model md;
    memset(&md, 0, sizeof md);
    compare_live(s, base, nbase, &md.cur, name);
    int changed = 0;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        const struct step *st = &steps[k];
        char step[256];
        snprintf(step, sizeof step, "%s, step %zu (%s)", name, k + 1, st->why);
        rt_status rs;
        rt_op done;
        if (st->what == 'L') {
            md.undo[md.nundo++] = md.cur;
            md.nredo = 0;
            overlay_set(&md.cur, st->qid, st->pid, st->has_grade, graded ? st->ggraded : st->gbin);
            rs = rt_session_label(s, st->qid, st->pid, st->has_grade, graded ? st->ggraded : st->gbin, &err);
        } else if (st->what == 'U') {
            md.redo[md.nredo++] = md.cur;
            md.cur = md.undo[--md.nundo];
            rs = rt_session_undo(s, &done, &err);
            rt_op_clear(&done);
        } else {
            md.undo[md.nundo++] = md.cur;
            md.cur = md.redo[--md.nredo];
            rs = rt_session_redo(s, &done, &err);
            rt_op_clear(&done);
        }
        if (!ok(rs == RT_OK, "%s: done (%s)", step, err.msg))
            break;
        compare_live(s, base, nbase, &md.cur, step);
        for (size_t r = 0; r < ws->nruns; r++)
            for (size_t m = 0; m < ws->nm; m++)
                changed += rt_live_mean(s->live, r)[m] != ws->runs[r].base->mean[m];
    }
    ok(changed > 0, "%s: the relabels moved the means away from the base (%d times)", name, changed);

    if (!graded && strcmp(measures, "dureader") != 0) {
        /* by hand, RR@10 (measure 0) of run A: q1 ranks p09 first (relabelled 1); q4 ranks p07
         * second but it is now judged 0; run B does not rank q3 */
        is_dbl(live_value(s, 0, "q1", 0), 1.0, 0, "%s: RR@10 of A on q1 is 1", name);
        is_dbl(live_value(s, 0, "q4", 0), 0.0, 0, "%s: RR@10 of A on q4 is 0", name);
        is_dbl(live_value(s, 1, "q3", 0), 0.0, 0, "%s: RR@10 of B on q3 is 0", name);
        is_dbl(live_value(s, 0, "q5", 0), -1, 0, "%s: q5 (unjudged again) has no value", name);
        size_t n;
        const uint32_t *sorted = rt_live_sorted(s->live, &n);
        ok(n == 4 && sorted[0] == QID(s, "q1") && sorted[3] == QID(s, "q4"), "%s: judged queries q1…q4 in qid order",
           name);
    }

    rt_session_close(&s);
    if (ok(rt_session_open(&s, ws, P(dir), "live", 0, &err) == RT_OK, "%s: reopens", name)) {
        char step[160];
        snprintf(step, sizeof step, "%s, after replay", name);
        compare_live(s, base, nbase, &md.cur, step);
        rt_session_close(&s);
    }
    rt_workspace_free(&ws);
}

static void test_live_by_hand(void)
{
    /* Before any relabel, the live values are the base values: RR@10 of A on q1 is 1/2 (p03 at
     * rank 2), and adding a relevant passage at rank 1 makes it 1. */
    rt_workspace *ws = open_ws(0, "RR@10,R@50,nDCG@10,AP,P@5,MFR,NumRel");
    rt_session *s;
    rt_err err = {0};
    if (!ok(ws && rt_session_open(&s, ws, P("live-hand"), "h", 0, &err) == RT_OK, "by hand: a session opens")) {
        rt_workspace_free(&ws);
        return;
    }
    is_dbl(live_value(s, 0, "q1", 0), 0.5, 0, "by hand: RR@10 of A on q1 is 1/2");
    is_dbl(live_value(s, 0, "q4", 0), -1, 0, "by hand: q4 is not judged: no value");
    is_dbl(rt_live_mean(s->live, 1)[6], 4.0, 0, "by hand: NumRel sums to 4 …");
    is_int(rt_live_n_defined(s->live, 1)[6], 3, "by hand: … over 3 queries");
    ok(rt_session_label(s, "q1", "p09", 1, 1, &err) == RT_OK, "by hand: label q1 p09 1");
    is_dbl(live_value(s, 0, "q1", 0), 1.0, 0, "by hand: with p09 relevant, RR@10 of A on q1 is 1");
    is_dbl(rt_live_mean(s->live, 1)[6], 5.0, 0, "by hand: NumRel is now 5");
    ok(rt_session_label(s, "q4", "p07", 1, 1, &err) == RT_OK, "by hand: label q4 p07 1");
    is_dbl(live_value(s, 0, "q4", 0), 0.5, 0, "by hand: q4 judged: RR@10 of A is 1/2");
    is_int(rt_live_nqueries(s->live), 4, "by hand: 4 judged queries");
    is_dbl(live_value(s, 1, "q4", 5), -1, 0, "by hand: MFR of B on q4 is undefined (p07 not ranked)");
    is_dbl(live_value(s, 0, "q4", 5), 2, 0, "by hand: MFR of A on q4 is 2");
    rt_session_close(&s);
    rt_workspace_free(&ws);
}

int main(void)
{
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 2;
    }
    test_op_roundtrip();
    test_op_rejects();
    test_journal_basics();
    test_journal_torn();
    test_journal_bad_complete();
    test_journal_bad_middle();
    test_journal_no_newline();
    test_journal_lock();
    test_journal_aside_fails();
    test_journal_links();
    test_journal_names();
    test_journal_readonly();

    write_inputs();
    rt_workspace *ws = open_ws(0, NULL), *graded = open_ws(1, NULL);
    if (ok(ws && graded, "the tiny workspaces open")) {
        test_session_changes(ws);
        test_session_grades(graded);
        test_undo_redo(ws);
        test_undo_each_kind(ws);
    }
    rt_workspace_free(&ws);
    rt_workspace_free(&graded);
    test_live_by_hand();
    test_live_config(0, "dureader");
    test_live_config(1, "dureader");
    test_live_config(0, "RR@10,R@50,nDCG@10,AP,P@5,MFR,NumRel");
    test_live_config(1, "RR@10,R@50,nDCG@10,AP,P@5,MFR,NumRel");

    if (!getenv("RT_KEEP_TMP"))
        nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    else
        printf("# kept %s\n", tmp);
    return tap_done();
}
