/* test_qrels — loading judgments: each format detected from content, duplicates (first kept,
 * reported, an error under strict), DuReader questions with no answer paragraph, negative grades,
 * BOM/CRLF/no final newline, comments, and errors naming file:line. */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "rt_eval.h"
#include "rt_qrels.h"
#include "tap.h"

typedef struct loaded {
    rt_strtab *qids, *pids;
    rt_report *rep;
    rt_qrels *q;
    rt_status st;
    rt_err err;
} loaded;

static void load_as(loaded *l, const char *text, rt_qrels_format fmt, int strict)
{
    rt_load_opts o = {.strict = strict};
    l->qids = rt_strtab_new();
    l->pids = rt_strtab_new();
    l->rep = rt_report_new();
    l->q = NULL;
    l->st = rt_qrels_load(&l->q, tmp_file(text), fmt, l->qids, l->pids, &o, l->rep, &l->err);
}

static int load(loaded *l, const char *text)
{
    load_as(l, text, RT_QRELS_AUTO, 0);
    if (l->st != RT_OK)
        printf("# %s\n", l->err.msg);
    return l->st == RT_OK;
}

static void unload(loaded *l)
{
    rt_qrels_free(&l->q);
    rt_report_free(&l->rep);
    rt_strtab_free(&l->qids);
    rt_strtab_free(&l->pids);
}

/* The grade of (qid, pid), or -99 when not judged (or unknown ids). */
static int32_t grade(const loaded *l, const char *qid, const char *pid)
{
    uint32_t q = rt_strtab_find(l->qids, qid, strlen(qid));
    uint32_t p = rt_strtab_find(l->pids, pid, strlen(pid));
    uint32_t i = q == RT_NO_ID ? RT_NO_ID : rt_qrels_index(l->q, q);
    int32_t g;
    if (i == RT_NO_ID || p == RT_NO_ID || !rt_qrels_lookup(l->q, i, p, &g))
        return -99;
    return g;
}

static size_t njudged(const loaded *l, const char *qid)
{
    uint32_t q = rt_strtab_find(l->qids, qid, strlen(qid));
    uint32_t i = q == RT_NO_ID ? RT_NO_ID : rt_qrels_index(l->q, q);
    size_t n = (size_t)-1;
    if (i != RT_NO_ID)
        rt_qrels_judgments(l->q, i, &n);
    return n;
}

static int reported(const loaded *l, rt_report_kind kind, const char *text)
{
    for (size_t i = 0; i < rt_report_count(l->rep); i++) {
        rt_report_kind k;
        const char *line = rt_report_line(l->rep, i, &k);
        if (k == kind && strstr(line, text))
            return 1;
    }
    return 0;
}

static void test_trec(void)
{
    loaded l;
    if (!ok(load(&l, "q2 0 c 2\nq1 0 b 0\nq1 0 a 1\nq1\t0\td\t-1\n"), "TREC qrels load"))
        return;
    is_int(rt_qrels_format_of(l.q), RT_QRELS_TREC, "detected as TREC");
    is_int(rt_qrels_nqueries(l.q), 2, "2 queries");
    is_str(rt_strtab_str(l.qids, rt_qrels_qid(l.q, 0)), "q2", "queries in order of first appearance");
    is_int(rt_qrels_njudgments(l.q), 4, "4 judgments");
    is_int(grade(&l, "q1", "a"), 1, "q1 a = 1");
    is_int(grade(&l, "q1", "b"), 0, "q1 b = 0 (judged non-relevant)");
    is_int(grade(&l, "q1", "d"), -1, "q1 d = -1 (negative grades kept; tabs work too)");
    is_int(grade(&l, "q2", "a"), -99, "q2 a not judged");
    is_int(grade(&l, "q3", "a"), -99, "q3 not a query");
    size_t n;
    const rt_judgment *j = rt_qrels_judgments(l.q, rt_qrels_index(l.q, rt_strtab_find(l.qids, "q1", 2)), &n);
    int sorted = n == 3;
    for (size_t k = 1; k < n; k++)
        sorted &= j[k - 1].pid < j[k].pid;
    ok(sorted, "judgments sorted by pid id");
    ok(reported(&l, RT_REPORT_INFO, "4 judgments for 2 queries (trec)"), "load report counts");
    is_int(rt_report_warnings(l.rep), 0, "no warning");
    unload(&l);
}

static void test_tsv(void)
{
    loaded l;
    if (ok(load(&l, "q1\ta\t2\nq1\tb\t0\n"), "TSV with grades loads")) {
        is_int(rt_qrels_format_of(l.q), RT_QRELS_TSV, "detected as TSV");
        ok(grade(&l, "q1", "a") == 2 && grade(&l, "q1", "b") == 0, "TSV grades");
        unload(&l);
    }
    if (ok(load(&l, "q1\ta\nq2\tb\n"), "TSV without grades loads")) {
        is_int(rt_qrels_format_of(l.q), RT_QRELS_TSV, "2 columns detected as TSV");
        ok(grade(&l, "q1", "a") == 1 && grade(&l, "q2", "b") == 1, "TSV without grades: grade 1");
        unload(&l);
    }
    rt_qrels_format f;
    ok(rt_qrels_format_parse("tsv", &f) && f == RT_QRELS_TSV && !rt_qrels_format_parse("json", &f),
       "format names");
    is_str(rt_qrels_format_name(RT_QRELS_DUREADER), "dureader", "format name of DuReader");
}

static void test_dureader(void)
{
    loaded l;
    /* q2 has no answer paragraph: still a judged query, with nothing relevant; ids may be ints. */
    const char *text =
        "{\"question_id\": \"q1\", \"question\": \"…\", \"answer_paragraphs\": [{\"paragraph_id\": \"p1\", "
        "\"paragraph_text\": \"\"}, {\"paragraph_id\": \"p2\"}]}\n"
        "{\"question_id\": \"q2\", \"answer_paragraphs\": []}\n"
        "{\"question_id\": 7, \"answer_paragraphs\": [{\"paragraph_id\": 42}]}\n";
    if (!ok(load(&l, text), "DuReader JSON lines load"))
        return;
    is_int(rt_qrels_format_of(l.q), RT_QRELS_DUREADER, "detected as DuReader");
    is_int(rt_qrels_nqueries(l.q), 3, "3 judged queries, q2 included");
    is_int(njudged(&l, "q2"), 0, "q2 has no judgment");
    is_int(njudged(&l, "q1"), 2, "q1 has 2");
    ok(grade(&l, "q1", "p1") == 1 && grade(&l, "q1", "p2") == 1, "answer paragraphs have grade 1");
    is_int(grade(&l, "7", "42"), 1, "integer ids become their decimal strings");
    is_int(grade(&l, "q2", "p1"), -99, "q2 p1 not judged");

    /* Evaluated, q2 counts in the mean with 0 (as in the DuReader script). By hand: q1 RR 1,
     * q2 0, 7 missing from the run 0 → MRR 1/3. */
    rt_measure *ms = NULL;
    size_t nm = 0;
    rt_err err;
    rt_eval_result *r = NULL;
    rt_measure_list_parse("RR@10,MFR", &ms, &nm, &err);
    rt_eval *ev = rt_eval_new(l.q, l.qids, l.pids, ms, nm, 1);
    ok(rt_eval_file(ev, tmp_file("{\"q1\": [\"p2\"], \"q2\": [\"p1\"]}"), NULL, &r, &err) == RT_OK,
       "a DuReader run evaluates against them");
    if (r) {
        is_dbl(r->mean[0], 1.0 / 3, 1e-15, "MRR@10 = 1/3 over the 3 questions");
        is_int(r->n_defined[1], 1, "MFR defined on q1 only");
        is_int(r->qrels_queries_missing, 1, "question 7 is missing from the run");
    }
    rt_eval_result_free(&r);
    rt_eval_free(&ev);
    free(ms);
    unload(&l);

    /* An empty question in the middle does not disturb the others' judgments. */
    if (ok(load(&l, "{\"question_id\": \"a\", \"answer_paragraphs\": [{\"paragraph_id\": \"x\"}]}\n"
                    "{\"question_id\": \"b\", \"answer_paragraphs\": []}\n"
                    "{\"question_id\": \"c\", \"answer_paragraphs\": [{\"paragraph_id\": \"y\"}, "
                    "{\"paragraph_id\": \"x\"}]}\n"), "empty question between two others")) {
        ok(njudged(&l, "a") == 1 && njudged(&l, "b") == 0 && njudged(&l, "c") == 2, "judgment counts 1, 0, 2");
        ok(grade(&l, "c", "x") == 1 && grade(&l, "c", "y") == 1 && grade(&l, "b", "x") == -99, "lookups");
        unload(&l);
    }
    if (ok(load(&l, "{\"question_id\": \"only\", \"answer_paragraphs\": []}\n"), "only an empty question")) {
        ok(rt_qrels_nqueries(l.q) == 1 && njudged(&l, "only") == 0, "one judged query without judgments");
        unload(&l);
    }
}

static void test_duplicates(void)
{
    loaded l;
    /* a judged at lines 1, 2 and 4 (grades 1, 0, 3); b once. The first grade stays. */
    const char *text = "q1 0 a 1\nq1 0 a 0\nq1 0 b 2\nq1 0 a 3\nq2 0 a 1\n";
    if (ok(load(&l, text), "qrels with duplicates load")) {
        is_int(grade(&l, "q1", "a"), 1, "the first grade is kept");
        is_int(rt_qrels_njudgments(l.q), 3, "duplicates dropped (q2 a is no duplicate)");
        ok(reported(&l, RT_REPORT_WARNING, ":2: 2 duplicate judgments dropped, the first of each kept "
                                           "(2 with a different grade)"),
           "warning names line 2 and counts the conflicts");
        unload(&l);
    }
    load_as(&l, text, RT_QRELS_AUTO, 1);
    ok(l.st == RT_EINPUT && l.q == NULL && strstr(l.err.msg, ":2: duplicate judgment for query q1, passage a"),
       "strict: a duplicate judgment is an error (%s)", l.err.msg);
    unload(&l);
    load_as(&l, "{\"question_id\": \"q\", \"answer_paragraphs\": [{\"paragraph_id\": \"p\"}, "
                "{\"paragraph_id\": \"p\"}]}\n", RT_QRELS_AUTO, 0);
    ok(l.st == RT_OK && njudged(&l, "q") == 1 && reported(&l, RT_REPORT_WARNING, "1 duplicate judgments dropped"),
       "DuReader duplicate paragraph dropped and reported");
    unload(&l);
}

static void test_line_ends(void)
{
    loaded l;
    if (ok(load(&l, "\xEF\xBB\xBFq1 0 a 1\r\nq1 0 b 2"), "TREC with BOM, CRLF, no final newline")) {
        ok(grade(&l, "q1", "a") == 1 && grade(&l, "q1", "b") == 2, "ids and grades clean of BOM and CR");
        unload(&l);
    }
    if (ok(load(&l, "\xEF\xBB\xBFq1\ta\r\n"), "TSV with BOM and CRLF")) {
        is_int(grade(&l, "q1", "a"), 1, "TSV id clean of CR");
        unload(&l);
    }
    if (ok(load(&l, "\xEF\xBB\xBF{\"question_id\": \"q\", \"answer_paragraphs\": [{\"paragraph_id\": \"p\"}]}\r\n"
                    "\r\n{\"question_id\": \"r\", \"answer_paragraphs\": []}"),
           "DuReader with BOM, CRLF, a blank line, no final newline")) {
        ok(rt_qrels_nqueries(l.q) == 2 && grade(&l, "q", "p") == 1, "DuReader lines read");
        unload(&l);
    }
    if (ok(load(&l, "# header\n\n  # indented comment\nq1 0 a#1 1\n\t\n"), "comments and blank lines")) {
        ok(rt_qrels_njudgments(l.q) == 1 && grade(&l, "q1", "a#1") == 1, "only the judgment is read; # inside an id kept");
        unload(&l);
    }
}

static void expect_error(const char *text, const char *want, const char *name)
{
    loaded l;
    load_as(&l, text, RT_QRELS_AUTO, 0);
    ok(l.st == RT_EINPUT && l.q == NULL && strstr(l.err.msg, want), "%s (%s)", name, l.err.msg);
    unload(&l);
}

static void test_errors(void)
{
    expect_error("q1 0 a x\n", ":1: expected an integer relevance grade, found \"x\"", "non-integer grade");
    expect_error("q1 0 a 1.5\n", ":1: expected an integer relevance grade", "decimal grade");
    expect_error("q1 0 a 1\nq1 0 b\n", ":2: expected 4 columns (qid iter pid grade), found 3", "short TREC line");
    expect_error("q1 0 a 1\nq1 0 b 1 extra\n", ":2: expected 4 columns", "long TREC line");
    expect_error("q1\ta\t1\nq1\ta\t1\tx\n", ":2: expected 3 tab-separated columns", "bad TSV line");
    expect_error("q1\ta\t1\nq1\tb\n", ":2: expected 3 tab-separated columns (qid, pid, grade) like line 1, found 2",
                 "TSV line shorter than the first");
    expect_error("", "no judgments found (empty qrels file)", "empty file");
    expect_error("# nothing\n\n", "no judgments found", "only comments");
    expect_error("one\n", ":1: cannot tell the qrels format", "unknown format");
    expect_error("{\"question_id\": \"q\", \"answer_paragraphs\": []}\n{oops\n", ":2: expected a JSON object per line",
                 "broken JSON line");
    expect_error("{\"answer_paragraphs\": []}\n", ":1: expected a \"question_id\"", "JSON without question_id");
    expect_error("{\"question_id\": \"q\"}\n", ":1: expected an \"answer_paragraphs\" array", "JSON without answers");
    expect_error("{\"question_id\": \"q\", \"answer_paragraphs\": [{\"id\": 1}]}\n", ":1: expected {\"paragraph_id\"",
                 "answer without paragraph_id");
    expect_error("q1 0 \xFF 1\n", ":1: bad passage id: id is not valid UTF-8", "invalid UTF-8 pid");
    expect_error("{\"question_id\": \"q1\", \"answer_paragraphs\": [{\"paragraph_id\": \"a\"}]}\n"
                 "{\"question_id\": \"q1\\u0000junk\", \"answer_paragraphs\": [{\"paragraph_id\": \"b\"}]}\n",
                 ":2: a JSON string holds \\u0000", "question_id with \\u0000 (its judgments went to q1)");
    expect_error("{\"question_id\": \"q1\", \"answer_paragraphs\": [{\"paragraph_id\": \"a\\u0000\"}]}\n",
                 ":1: a JSON string holds \\u0000", "paragraph_id with \\u0000");
    loaded l;
    l.qids = rt_strtab_new();
    l.pids = rt_strtab_new();
    l.q = NULL;
    rt_status st = rt_qrels_load(&l.q, "/nonexistent/qrels", RT_QRELS_AUTO, l.qids, l.pids, NULL, NULL, &l.err);
    ok(st == RT_EINPUT && strstr(l.err.msg, "/nonexistent/qrels: cannot open"), "missing file (%s)", l.err.msg);
    l.rep = NULL;
    unload(&l);
    /* A forced format is not second-guessed. */
    load_as(&l, "q1\ta\t1\n", RT_QRELS_DUREADER, 0);
    ok(l.st == RT_EINPUT && strstr(l.err.msg, ":1: expected a JSON object"), "forced DuReader rejects TSV (%s)", l.err.msg);
    unload(&l);
}

int main(void)
{
    test_trec();
    test_tsv();
    test_dureader();
    test_duplicates();
    test_line_ends();
    test_errors();
    return tap_done();
}
