/* test_op — the operation line format (rt_op): every kind of operation round-trips through its JSON line,
 * times before 1970 and far years included, and malformed lines are refused with a reason. */
#include "config.h"

#include "journal_fixture.h"

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

/* The fast path and the general parser read line alike. */
static void both_read(const char *line, const char *name)
{
    rt_op a, b;
    rt_err ea = {0}, eb = {0};
    rt_status sa = rt_op_from_json(&a, line, strlen(line), &ea), sb = rt_op_from_json_full(&b, line, strlen(line), &eb);
    const char *why = "status";
    int same = sa == sb && (sa != RT_OK || op_same(&a, &b, &why));
    ok(same, "fast and general parser agree: %s%s%s", name, same ? "" : "; differ in ", same ? "" : why);
    if (sa == RT_OK)
        rt_op_clear(&a);
    if (sb == RT_OK)
        rt_op_clear(&b);
}

static void test_fast_path(void)
{
    both_read("{\"seq\":1,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}", "a label");
    both_read("{\"seq\":2,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":null,\"undo\":1}", "back to base, an undo");
    both_read("{\"seq\":3,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"tag\",\"qid\":\"q 1\",\"pid\":null,\"cat\":\"entity\",\"redo\":2,\"via\":\"import f:2\"}", "a query tag, a redo, via");
    both_read("{\"seq\":4,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"untag\",\"qid\":\"中文\",\"pid\":\"p\",\"cat\":\"x\"}", "UTF-8, an untag");
    both_read("{\"seq\":5,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"label\",\"qid\":\"q\\\"\",\"pid\":\"p\",\"grade\":-3}", "an escape: the general parser");
    both_read("{\"seq\":0,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}", "seq 0 (refused by both)");
    both_read("{\"seq\":007,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}", "a leading zero");
    both_read("{\"seq\":9,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"label\",\"qid\":\"q\",\"pid\":null,\"grade\":1}", "a label without a passage (refused by both)");
    both_read("{\"seq\":9,\"time\":\"2026-11-21T10:11:12.345Z\",\"author\":\"a\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1000001}", "a grade too large (refused by both)");
    both_read("{\"seq\":9,\"time\":\"2026-02-30T10:11:12.345Z\",\"author\":\"a\",\"op\":\"label\",\"qid\":\"q\",\"pid\":\"p\",\"grade\":1}", "Feb 30 (refused by both)");
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
    static const char *const cats[] = {"entity", "typo"}, *const settled[] = {"ann_a:12", "ann_b:7"};
    static const char *const pq[] = {"q1", "q1", "q2"}, *const pp[] = {"p1", "p 2", "p3"};
    roundtrip(op_adjud("q1", "p1", 1, 0, cats, 2, settled, 2), "\"grade\":0,\"cats\":[\"entity\",\"typo\"],\"settles\":[\"ann_a:12\",\"ann_b:7\"]",
              "adjudication of grade and categories");
    roundtrip(op_adjud("q1", "p1", 1, 1, NULL, 0, settled, 1), "\"cats\":null", "adjudication of the grade only");
    roundtrip(op_adjud("q1", "p1", 0, 0, cats, 0, NULL, 0), "\"grade\":null,\"cats\":[]", "adjudication: no category at all");
    roundtrip(op_adjud("q1", "p1", 0, 0, NULL, 0, NULL, 0), "\"settles\":[]", "adjudication withdrawn");
    roundtrip(op_package("pk1", "ann_a", pq, pp, 3, 42, 100), "\"pairs\":[[\"q1\",\"p1\"],[\"q1\",\"p 2\"],[\"q2\",\"p3\"]],\"seed\":42,\"sample\":100",
              "package with its pairs, seed and sample size");
    roundtrip(op_package("pk1", "ann_a", NULL, NULL, 0, 0, 0), "\"pairs\":null", "package deleted");
    rt_op rv = op_text(RT_OP_REVIEW, "q1", "p1", "wrong");
    rv.name = S("pk1");
    roundtrip(rv, "\"op\":\"review\",\"name\":\"pk1\"", "review verdict");
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

int main(void)
{
    if (!fixture_begin())
        return 2;
    test_op_roundtrip();
    test_fast_path();
    test_op_rejects();
    return fixture_end();
}
