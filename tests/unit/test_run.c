/* test_run — reading runs: ranking order (score descending, ties by pid descending; file order on
 * request and for formats without scores), exact score equality, duplicates, regrouping of
 * scattered query blocks, format detection, BOM/CRLF/no final newline, and errors; a run read
 * in halves on two threads (rt_run_parse_halves) is the run read whole, report and errors too. Each case
 * writes a small file with mkstemp and checks the rankings the scan hands out. */
#include "config.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_eval.h"
#include "rt_run.h"
#include "rt_runstage.h"
#include "tap.h"

/* A scan callback that writes "qid:pid,pid;qid:…" (what it was handed, in order). */
typedef struct collect {
    char buf[4096];
    size_t len;
    int resets;
} collect;

static rt_status on_query(void *ctx, const char *qid, size_t ql, const rt_hit *h, size_t n, rt_err *err)
{
    (void)err;
    collect *c = ctx;
    c->len += (size_t)snprintf(c->buf + c->len, sizeof c->buf - c->len, "%s%.*s:", c->len ? ";" : "",
                               (int)ql, qid);
    for (size_t i = 0; i < n; i++)
        c->len += (size_t)snprintf(c->buf + c->len, sizeof c->buf - c->len, "%s%.*s", i ? "," : "",
                                   (int)h[i].pid_len, h[i].pid);
    return RT_OK;
}

static void on_reset(void *ctx)
{
    collect *c = ctx;
    c->len = 0;
    c->buf[0] = '\0';
    c->resets++;
}

typedef struct scanned {
    rt_status st;
    collect c;
    rt_run_info info;
    rt_err err;
} scanned;

/* Scans path into *s, which must be zeroed before its first use; the previous scan's name is
 * released. */
static void scan_opts(scanned *s, const char *path, rt_run_format fmt, rt_order order, int strict)
{
    rt_run_info_clear(&s->info);
    memset(s, 0, sizeof *s);
    rt_run_opts o = {.format = fmt, .order = order, .strict = strict};
    s->st = rt_run_scan(path, &o, on_query, on_reset, &s->c, &s->info, &s->err);
}

/* Scans text (auto format, score order) and returns the rankings as "q:p,p;…" or the error. */
static const char *ranked(scanned *s, const char *text, rt_order order)
{
    scan_opts(s, tmp_file(text), RT_RUN_AUTO, order, 0);
    return s->st == RT_OK ? s->c.buf : s->err.msg;
}

static void test_order(void)
{
    scanned s = {0};
    /* All scores equal: pid descending in byte order: é (C3 A9) > z > ab > a9 > a10 > a. */
    is_str(ranked(&s, "q Q0 a 1 1 r\nq Q0 a10 2 1 r\nq Q0 z 3 1 r\nq Q0 é 4 1 r\nq Q0 ab 5 1 r\n"
                      "q Q0 a9 6 1 r\n", RT_ORDER_SCORE),
           "q:é,z,ab,a9,a10,a", "ties: pid descending in byte order");
    is_str(ranked(&s, "q Q0 a 1 1 r\nq Q0 a10 2 1 r\nq Q0 z 3 1 r\nq Q0 é 4 1 r\nq Q0 ab 5 1 r\n"
                      "q Q0 a9 6 1 r\n", RT_ORDER_FILE),
           "q:a,a10,z,é,ab,a9", "--order file keeps the lines' order");
    /* v1's q2: 0.5, 0.50, 5e-1 are the same double; e (0.9) first, then d, c, b, a. */
    is_str(ranked(&s, "q2\tQ0\ta\t1\t0.5\trunA\nq2\tQ0\tb\t2\t0.5\trunA\nq2\tQ0\te\t3\t0.9\trunA\n"
                      "q2\tQ0\tc\t4\t0.50\trunA\nq2\tQ0\td\t5\t5e-1\trunA\n", RT_ORDER_SCORE),
           "q2:e,d,c,b,a", "0.5 = 0.50 = 5e-1: a tie, broken by pid descending");
    is_str(ranked(&s, "q Q0 b 1 1000 r\nq Q0 a 2 1e3 r\nq Q0 c 3 1000.000 r\nq Q0 d 4 -1 r\n"
                      "q Q0 e 5 -0.5 r\n", RT_ORDER_SCORE),
           "q:c,b,a,e,d", "1000 = 1e3 = 1000.000; negative scores below");
    is_str(ranked(&s, "q Q0 b 1 0.30000001 r\nq Q0 a 2 0.30000002 r\n", RT_ORDER_SCORE),
           "q:a,b", "0.30000002 > 0.30000001 (doubles, not floats)");
    /* The rank column is ignored: scores say d01 (12) first. */
    is_str(ranked(&s, "q Q0 d02 1 11 r\nq Q0 d01 2 12 r\nq Q0 d03 3 10 r\n", RT_ORDER_SCORE),
           "q:d01,d02,d03", "the rank column is ignored");
    ok(s.info.has_scores && s.info.format == RT_RUN_TREC, "TREC run detected, with scores");
    rt_run_info_clear(&s.info);
}

static void test_duplicates(void)
{
    scanned s = {0};
    /* z at 0.5 (line 1) and 0.9 (line 3): the best-ranked copy stays; b twice at 0.1: the
     * earlier line stays. Dropped: lines 1 and 5. */
    const char *run = "q Q0 z 1 0.5 r\nq Q0 a 2 0.8 r\nq Q0 z 3 0.9 r\nq Q0 b 4 0.1 r\nq Q0 b 5 0.1 r\n";
    is_str(ranked(&s, run, RT_ORDER_SCORE), "q:z,a,b", "duplicates: the best-ranked copy kept");
    is_int(s.info.duplicates, 2, "duplicates counted");
    is_int(s.info.first_dup_line, 1, "first dropped line reported");
    is_int(s.info.hits, 3, "hits kept");
    is_int(s.info.lines, 5, "lines read");
    is_str(ranked(&s, run, RT_ORDER_FILE), "q:z,a,b", "file order: the first copy kept");
    is_int(s.info.first_dup_line, 3, "file order: line 3 dropped first");
    scan_opts(&s, tmp_file(run), RT_RUN_AUTO, RT_ORDER_SCORE, 1);
    ok(s.st == RT_EINPUT && strstr(s.err.msg, "passage z retrieved twice for query q (strict mode)"),
       "--strict: a duplicate is an error (%s)", s.err.msg);
    /* The same pid in two queries is no duplicate. */
    is_str(ranked(&s, "q1 Q0 a 1 1 r\nq2 Q0 a 1 1 r\n", RT_ORDER_SCORE), "q1:a;q2:a", "same pid, two queries");
    is_int(s.info.duplicates, 0, "no duplicate across queries");

    /* rt_run_load reports them. */
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_run *r = NULL;
    rt_err err;
    const char *path = tmp_file(run);
    ok(rt_run_load(&r, path, NULL, qids, pids, rep, &err) == RT_OK, "rt_run_load");
    int warned = 0;
    for (size_t i = 0; i < rt_report_count(rep); i++) {
        rt_report_kind k;
        const char *line = rt_report_line(rep, i, &k);
        warned |= k == RT_REPORT_WARNING && strstr(line, ":1: 2 duplicate passages dropped") != NULL;
    }
    ok(warned, "load report warns about the 2 duplicates at line 1");
    size_t n = 0;
    const uint32_t *p = r ? rt_run_ranking(r, rt_strtab_find(qids, "q", 1), &n) : NULL;
    ok(p && n == 3 && strcmp(rt_strtab_str(pids, p[0]), "z") == 0 &&
       strcmp(rt_strtab_str(pids, p[2]), "b") == 0, "loaded ranking z (0.9), a, b");
    ok(r && rt_run_ranking(r, rt_strtab_intern(qids, "nope", 4), &n) == NULL && n == 0,
       "a query the run lacks has no ranking");
    ok(r && strcmp(rt_run_name(r), "r") == 0 && rt_run_nqueries(r) == 1, "loaded run name and queries");
    rt_run_free(&r);
    ok(r == NULL, "rt_run_free sets the pointer to NULL");
    rt_report_free(&rep);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    rt_run_info_clear(&s.info);
}

/* Evaluates run against qrels with measures; writes the values (all queries, then the means)
 * into out, which holds at least nq * nm + nm doubles. */
static int eval_values(const char *qrels, const char *run, const char *measures, double *out, size_t *count)
{
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_qrels *q = NULL;
    rt_measure *ms = NULL;
    size_t nm = 0;
    rt_err err;
    rt_eval_result *r = NULL;
    int good = rt_qrels_load(&q, qrels, RT_QRELS_AUTO, qids, pids, NULL, NULL, &err) == RT_OK &&
               rt_measure_list_parse(measures, &ms, &nm, &err) == RT_OK;
    rt_eval *ev = good ? rt_eval_new(q, qids, pids, ms, nm, 1) : NULL;
    good = good && rt_eval_file(ev, run, NULL, &r, &err) == RT_OK;
    *count = 0;
    if (good) {
        for (size_t i = 0; i < r->nq * nm; i++)
            out[(*count)++] = r->defined[i] ? r->value[i] : -1;
        for (size_t m = 0; m < nm; m++)
            out[(*count)++] = r->mean[m];
    } else {
        printf("# %s\n", err.msg);
    }
    rt_eval_result_free(&r);
    rt_eval_free(&ev);
    rt_qrels_free(&q);
    free(ms);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);
    return good;
}

static void test_regroup(void)
{
    scanned s = {0};
    /* q1's and q2's lines are scattered; q1 retrieves a twice (3 and 0.5) across its blocks. */
    const char *scattered = "q1 Q0 a 1 3 r\nq2 Q0 b 1 2 r\nq1 Q0 c 2 1 r\nq2 Q0 d 2 5 r\n"
                            "q3 Q0 e 1 1 r\nq1 Q0 a 3 0.5 r\n";
    const char *grouped = "q1 Q0 a 1 3 r\nq1 Q0 c 2 1 r\nq1 Q0 a 3 0.5 r\nq2 Q0 b 1 2 r\n"
                          "q2 Q0 d 2 5 r\nq3 Q0 e 1 1 r\n";
    is_str(ranked(&s, scattered, RT_ORDER_SCORE), "q1:a,c;q2:d,b;q3:e",
           "scattered blocks regrouped, in order of first appearance");
    ok(s.info.regrouped, "regrouped is reported");
    is_int(s.c.resets, 1, "the callback was told to start over once");
    is_int(s.info.queries, 3, "3 queries");
    is_int(s.info.lines, 6, "6 lines");
    is_int(s.info.duplicates, 1, "the duplicate across blocks is found");
    is_int(s.info.first_dup_line, 6, "... at line 6");
    is_str(ranked(&s, grouped, RT_ORDER_SCORE), "q1:a,c;q2:d,b;q3:e", "the grouped file ranks the same");
    ok(!s.info.regrouped && s.c.resets == 0, "a grouped file is read once");
    is_str(ranked(&s, scattered, RT_ORDER_FILE), "q1:a,c;q2:b,d;q3:e", "regrouped, file order");
    is_str(ranked(&s, "q1\tz\t1\nq2\tb\t1\nq1\ta\t2\n", RT_ORDER_SCORE), "q1:z,a;q2:b",
           "scattered TSV without scores: regrouped in file order");

    /* rt_run_load starts over too: nothing of the first pass is left. */
    rt_strtab *qids = rt_strtab_new(), *pids = rt_strtab_new();
    rt_run *run = NULL;
    rt_err err;
    size_t n = 0;
    ok(rt_run_load(&run, tmp_file(scattered), NULL, qids, pids, NULL, &err) == RT_OK, "scattered run loads");
    const uint32_t *p = run ? rt_run_ranking(run, rt_strtab_find(qids, "q1", 2), &n) : NULL;
    ok(p && n == 2 && strcmp(rt_strtab_str(pids, p[0]), "a") == 0 && strcmp(rt_strtab_str(pids, p[1]), "c") == 0,
       "loaded q1: a, c");
    ok(run && rt_run_nqueries(run) == 3 && rt_run_get_info(run)->hits == 5 &&
       strcmp(rt_strtab_str(qids, rt_run_qid(run, 1)), "q2") == 0, "loaded: 3 queries, 5 hits, q2 second");
    rt_run_free(&run);
    rt_strtab_free(&qids);
    rt_strtab_free(&pids);

    /* Evaluating the scattered file gives exactly the grouped file's values. */
    const char *qrels = tmp_file("q1 0 c 1\nq2 0 b 2\nq2 0 d 0\nq3 0 x 1\nq4 0 y 1\n");
    double a[64], b[64];
    size_t na = 0, nb = 0;
    const char *ms = "RR,AP,P@1,nDCG@10,NumRet,MFR,Success@1";
    int good = eval_values(qrels, tmp_file(scattered), ms, a, &na) &&
               eval_values(qrels, tmp_file(grouped), ms, b, &nb);
    ok(good && na == nb && na == 4 * 7 + 7 && memcmp(a, b, na * sizeof *a) == 0,
       "scattered and grouped runs evaluate identically (%zu values)", na);
    /* By hand: q1 c at rank 2 (RR 1/2); q2 b at rank 2 (d, grade 0, first); q3, q4 0. */
    ok(good && a[0] == 0.5 && a[7] == 0.5 && a[14] == 0 && a[21] == 0, "RR per query 1/2, 1/2, 0, 0");
    ok(good && a[4] == 2 && a[11] == 2 && a[18] == 1 && a[25] == 0, "NumRet 2 (duplicate dropped), 2, 1, 0");
    ok(good && a[28] == 0.25, "RR mean 1/4");
    rt_run_info_clear(&s.info);
}

static void test_formats(void)
{
    scanned s = {0};
    is_str(ranked(&s, "q1\tp1\t1\t0.5\nq1\tp3\t2\t0.5\nq1\tp2\t3\t0.9\n", RT_ORDER_SCORE),
           "q1:p2,p3,p1", "TSV with scores: score order, ties by pid descending");
    ok(s.info.format == RT_RUN_TSV && s.info.has_scores, "TSV with scores detected");
    is_str(ranked(&s, "q1\tp2\t2\nq1\tp1\t1\nq2\tp9\t1\n", RT_ORDER_SCORE), "q1:p2,p1;q2:p9",
           "TSV without scores: file order (the rank column is not used)");
    ok(s.info.format == RT_RUN_TSV && !s.info.has_scores, "TSV without scores detected");
    const char *tsv = tmp_file("q1\tp2\t1\n");
    scan_opts(&s, tsv, RT_RUN_AUTO, RT_ORDER_SCORE, 0);
    char *stem = strrchr(tsv, '/') + 1;
    is_str(s.info.name, stem, "a run without a tag column is named after its file");
    is_str(ranked(&s, "{\"q1\": [\"p2\", \"p10\", \"p1\"], \"q2\": [], \"q3\": [7, 3]}", RT_ORDER_SCORE),
           "q1:p2,p10,p1;q2:;q3:7,3", "DuReader JSON: list order, empty list, integer ids");
    ok(s.info.format == RT_RUN_DUREADER && !s.info.has_scores && s.info.queries == 3,
       "DuReader JSON detected, 3 queries");
    is_str(ranked(&s, "{\"q\": []}", RT_ORDER_SCORE), "q:", "DuReader JSON with only an empty list");
    is_int(s.info.queries, 1, "... is one query that retrieved nothing");
    {   /* held in memory: a run of empty rankings only has no pid array (UBSan: no null + 0) */
        rt_strtab *q = rt_strtab_new(), *p = rt_strtab_new();
        rt_report *rep = rt_report_new();
        rt_run *run = NULL;
        rt_err err;
        size_t n = 9;
        const uint32_t *r = NULL;
        if (rt_run_load(&run, tmp_file("{\"q\": []}"), NULL, q, p, rep, &err) == RT_OK)
            r = rt_run_ranking(run, rt_strtab_find(q, "q", 1), &n);
        ok(run && r != NULL && n == 0, "... held in memory: a ranking of nothing, not a missing query");
        rt_run_free(&run);
        rt_report_free(&rep);
        rt_strtab_free(&q);
        rt_strtab_free(&p);
    }
    is_str(ranked(&s, "\n  {\"q\": [\"a\", \"a\", \"b\"]}\n", RT_ORDER_SCORE), "q:a,b",
           "DuReader JSON after blank space; duplicate dropped");
    is_int(s.info.duplicates, 1, "DuReader duplicate counted");
    /* A TREC run that happens to use tabs stays TREC. */
    is_str(ranked(&s, "q\tQ0\tb\t1\t1\tr\nq\tQ0\ta\t2\t2\tr\n", RT_ORDER_SCORE), "q:a,b", "TREC with tabs");
    ok(s.info.format == RT_RUN_TREC, "TREC with tabs detected as TREC");
    /* The format can be forced. */
    scan_opts(&s, tmp_file("{\"q\": [\"a\"]}"), RT_RUN_TREC, RT_ORDER_SCORE, 0);
    ok(s.st == RT_EINPUT && strstr(s.err.msg, ":1: expected 6 columns"), "forced TREC rejects JSON (%s)", s.err.msg);
    rt_run_format f;
    ok(rt_run_format_parse("dureader", &f) && f == RT_RUN_DUREADER && !rt_run_format_parse("csv", &f),
       "format names");
    is_str(rt_run_format_name(RT_RUN_TSV), "tsv", "format name of TSV");
    rt_run_opts o = {.name = "mine"};
    rt_run_info_clear(&s.info);
    memset(&s, 0, sizeof s);
    rt_status st = rt_run_scan(tmp_file("q Q0 a 1 1 tag\n"), &o, on_query, NULL, &s.c, &s.info, &s.err);
    ok(st == RT_OK && strcmp(s.info.name, "mine") == 0, "opts.name overrides the tag");
    rt_run_info_clear(&s.info);
}

static void test_line_ends(void)
{
    scanned s = {0};
    static const char bom_crlf[] = "\xEF\xBB\xBFq1 Q0 a 1 2 t\r\nq1 Q0 b 2 1 t\r\nq2 Q0 c 1 1 t";
    is_str(ranked(&s, bom_crlf, RT_ORDER_SCORE), "q1:a,b;q2:c", "BOM, CRLF, no final newline");
    is_str(s.info.name, "t", "the tag has no CR");
    is_int(s.info.lines, 3, "the unterminated last line is read");
    is_str(ranked(&s, "\xEF\xBB\xBFq1\tp1\t1\r\nq1\tp2\t2", RT_ORDER_SCORE), "q1:p1,p2", "TSV with BOM and CRLF");
    is_str(ranked(&s, "\xEF\xBB\xBF{\"q\": [\"a\"]}\r\n", RT_ORDER_SCORE), "q:a", "JSON with BOM and CRLF");
    is_str(ranked(&s, "# a comment\n\n  \t\nq Q0 a 1 1 r\n# another\n", RT_ORDER_SCORE), "q:a",
           "comment and blank lines skipped");
    rt_run_info_clear(&s.info);
}

static void test_errors(void)
{
    scanned s = {0};
    ok(strstr(ranked(&s, "q Q0 a 1 1 r\nq Q0 b 2 1\n", RT_ORDER_SCORE),
              ":2: expected 6 columns (qid Q0 pid rank score tag), found 5") != NULL,
       "5 columns: error at line 2 (%s)", s.err.msg);
    ok(strstr(ranked(&s, "q Q0 a 1 1 r\nq Q0 b 2", RT_ORDER_SCORE), "no newline: truncated file?") != NULL,
       "a short unterminated last line is called a truncated file (%s)", s.err.msg);
    ok(strstr(ranked(&s, "q Q0 a 1 abc r\n", RT_ORDER_SCORE), ":1: expected a numeric score, found \"abc\"") != NULL,
       "non-numeric score (%s)", s.err.msg);
    ok(strstr(ranked(&s, "q Q0 a 1 nan r\n", RT_ORDER_SCORE), ":1: score \"nan\" is not a finite number") != NULL,
       "nan score (%s)", s.err.msg);
    ok(strstr(ranked(&s, "q1\tp1\tx\n", RT_ORDER_SCORE), ":1: expected an integer rank") != NULL,
       "TSV rank must be an integer (%s)", s.err.msg);
    ok(strstr(ranked(&s, "q1\tp1\t1\nq1\tp2\t2\t0.5\n", RT_ORDER_SCORE), ":2: expected 3 tab-separated columns") != NULL,
       "TSV column count must not change (%s)", s.err.msg);
    ok(strstr(ranked(&s, "just some words\n", RT_ORDER_SCORE), ":1: cannot tell the run format") != NULL,
       "unknown format (%s)", s.err.msg);
    ok(strstr(ranked(&s, "", RT_ORDER_SCORE), "no ranked passages found (empty run file)") != NULL,
       "empty file (%s)", s.err.msg);
    ok(strstr(ranked(&s, "# only a comment\n", RT_ORDER_SCORE), "no ranked passages found") != NULL,
       "only comments (%s)", s.err.msg);
    ok(strstr(ranked(&s, "{\"q\": [\"a\"", RT_ORDER_SCORE), "invalid JSON") != NULL,
       "broken JSON (%s)", s.err.msg);
    ok(strstr(ranked(&s, "{\"q\": \"a\"}", RT_ORDER_SCORE), "expected an array of passage ids") != NULL,
       "JSON query without a list (%s)", s.err.msg);
    ok(strstr(ranked(&s, "{\"q\": [1.5]}", RT_ORDER_SCORE), "expected a passage id string") != NULL,
       "JSON id that is no string or integer (%s)", s.err.msg);
    ok(strstr(ranked(&s, "{\"q1\\u0000x\": [\"p1\"], \"q2\": [\"p2\"], \"q1\": [\"p2\", \"p1\"]}", RT_ORDER_SCORE),
              ":1: a JSON string holds \\u0000 at column 5") != NULL,
       "JSON qid with \\u0000 (was merged with q1) (%s)", s.err.msg);
    ok(strstr(ranked(&s, "{\"q1\": [\"p1\"],\n \"q2\": [\"p\\u0000\"]}", RT_ORDER_SCORE), ":2: a JSON string holds") != NULL,
       "JSON pid with \\u0000, on its line (%s)", s.err.msg);
    ok(strstr(ranked(&s, "{\"\": []}", RT_ORDER_SCORE), ":1: bad query id: empty id") != NULL,
       "JSON empty qid with an empty ranking (was memcpy to NULL) (%s)", s.err.msg);
    ok(strstr(ranked(&s, "{\"q\\u0001\": []}", RT_ORDER_SCORE), ":1: bad query id: control character") != NULL,
       "JSON qid with a control character and an empty ranking (%s)", s.err.msg);
    ok(strstr(ranked(&s, "q Q0 a\x01 1 1 r\n", RT_ORDER_SCORE), ":1: bad passage id: control character") != NULL,
       "control character in a pid (%s)", s.err.msg);
    ok(strstr(ranked(&s, "q\xC3 Q0 a 1 1 r\n", RT_ORDER_SCORE), ":1: bad query id: id is not valid UTF-8") != NULL,
       "invalid UTF-8 in a qid (%s)", s.err.msg);
    scan_opts(&s, "/nonexistent/run.trec", RT_RUN_AUTO, RT_ORDER_SCORE, 0);
    ok(s.st == RT_EINPUT && strstr(s.err.msg, "/nonexistent/run.trec: cannot open"), "missing file (%s)", s.err.msg);
    scan_opts(&s, "/tmp", RT_RUN_AUTO, RT_ORDER_SCORE, 0);
    ok(s.st == RT_EINPUT && strstr(s.err.msg, "is a directory"), "a directory (%s)", s.err.msg);
    ok(s.info.name == NULL, "a failed scan leaves no name behind");
    rt_run_info_clear(&s.info);
}

/* ---- rt_run_parse_halves: the run rt_run_parse reads -------------------------------------- */

/* The rankings of run as "qid:pid,pid;…" from n bytes on. */
static size_t rankings_of(const rt_run *run, rt_strtab *q, rt_strtab *p, char *out, size_t n, size_t cap)
{
    for (uint32_t k = 0; k < rt_run_nqueries(run) && n < cap; k++) {
        size_t m;
        uint32_t qid = rt_run_qid(run, k);
        const uint32_t *r = rt_run_ranking(run, qid, &m);
        n += (size_t)snprintf(out + n, cap - n, "%s:", rt_strtab_str(q, qid));
        for (size_t h = 0; h < m && n < cap; h++)
            n += (size_t)snprintf(out + n, cap - n, "%s%s", h ? "," : "", rt_strtab_str(p, r[h]));
        n += n < cap ? (size_t)snprintf(out + n, cap - n, ";") : 0;
    }
    return n;
}

/* Whether run's image (the workspace cache's), written and attached again, has its size and
 * rankings (a run read in halves writes its two parts as one array). */
static int image_same(const rt_run *run, rt_strtab *q, rt_strtab *p, const char *path)
{
    FILE *f = tmpfile();
    if (!f || rt_run_image_write(run, f) != 0 || fflush(f) != 0)
        return 0;
    size_t len = (size_t)ftell(f);
    void *mem = malloc(len ? len : 8);
    rewind(f);
    int same = len == rt_run_image_size(run) && fread(mem, 1, len, f) == len;
    fclose(f);
    rt_run *back = same ? rt_run_attach(mem, len, path, q, p) : NULL;
    static char x[1 << 16], y[1 << 16];
    same = back && rankings_of(run, q, p, x, 0, sizeof x) == rankings_of(back, q, p, y, 0, sizeof y) &&
           strcmp(x, y) == 0;
    rt_run_free(&back);
    free(mem);
    return same;
}

/* The run at path as "name format lines hits queries dups first_dup physical|qid:pid,pid;…|report"
 * and whether its image reads back the same (read whole, or in halves split at the line after the
 * middle), or the error. */
static void read_as(const char *path, const rt_run_opts *o, int halves, char *out, size_t cap)
{
    rt_run *run = NULL;
    rt_err err = {0};
    rt_status st = halves ? rt_run_parse_halves(&run, path, o, 0, &err) : rt_run_parse(&run, path, o, &err);
    if (st != RT_OK) {
        snprintf(out, cap, "error %d %s", (int)st, err.msg);
        return;
    }
    rt_strtab *q = rt_strtab_new(), *p = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_run_intern(run, q, p, path, rep, NULL, NULL);
    const rt_run_info *i = rt_run_get_info(run);
    size_t n = (size_t)snprintf(out, cap, "%s %d %zu %zu %zu %zu %zu %zu|", i->name, (int)i->format, i->lines,
                                i->hits, i->queries, i->duplicates, i->first_dup_line, i->physical_lines);
    n = rankings_of(run, q, p, out, n, cap);
    n += n < cap ? (size_t)snprintf(out + n, cap - n, "|image %s", image_same(run, q, p, path) ? "ok" : "differs") : 0;
    for (size_t k = 0; k < rt_report_count(rep) && n < cap; k++) {
        rt_report_kind kind;
        n += (size_t)snprintf(out + n, cap - n, "|%s", rt_report_line(rep, k, &kind));
    }
    rt_report_free(&rep);
    rt_strtab_free(&q);
    rt_strtab_free(&p);
    rt_run_free(&run);
}

/* Whether text reads the same in halves as whole (with o), and says so under name. */
static void same_halves(const char *name, const char *text, const rt_run_opts *o)
{
    char path[] = "/tmp/rt_halves_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
    static char whole[1 << 16], halves[1 << 16];
    read_as(path, o, 0, whole, sizeof whole);
    read_as(path, o, 1, halves, sizeof halves);
    ok(strcmp(whole, halves) == 0, "in halves as whole: %s (%.120s)", name, whole);
    if (strcmp(whole, halves) != 0)
        printf("# whole:  %.300s\n# halves: %.300s\n", whole, halves);
    if (strncmp(whole, "error", 5) != 0)
        ok(strstr(halves, "|image ok") != NULL, "in halves: %s: the image reads back the same", name);
    unlink(path);
}

/* A run the halves cannot read (a bad line in the second) is read again whole, on one thread:
 * the shared byte counter of a workspace's progress ends at most at the file's size (each byte
 * counted once), never past it. */
static void test_halves_progress(void)
{
    char path[] = "/tmp/rt_halves_progress_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    for (int i = 0; f && i < 40000; i++)
        fprintf(f, "q%d Q0 p%d %d %s r\n", i / 100, i, i % 100 + 1, i == 39000 ? "high" : "1.5");
    long size = f ? ftell(f) : 0;
    if (!f || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
    _Atomic uint64_t counted = 0;
    rt_run_opts o = {0};
    o.progress_done = &counted;   /* as the workspace's runs worker asks: bytes added, nobody called */
    rt_run *run = NULL;
    rt_err err = {0};
    rt_status st = rt_run_parse_halves(&run, path, &o, 0, &err);
    uint64_t c = atomic_load(&counted);
    ok(st == RT_EINPUT && strstr(err.msg, ":39001:") && c > 0 && c <= (uint64_t)size,
       "halves that fail are read again whole: progress counts %llu bytes of %ld, not more (%s)",
       (unsigned long long)c, size, err.msg);
    rt_run_free(&run);
    unlink(path);
}

static void test_halves(void)
{
    static char t[1 << 15];
    size_t n = 0;
    for (int q = 0; q < 60; q++)   /* decimal and other pids, ties, a duplicate late on */
        for (int k = 0; k < 5; k++)
            n += (size_t)snprintf(t + n, sizeof t - n, "%s%d Q0 %s%d %d %d tg\n", q % 7 ? "" : "x", q,
                                  k % 2 ? "p" : "", q * 10 + k % 4, k + 1, (k * 3) % 4);
    n += (size_t)snprintf(t + n, sizeof t - n, "# a comment\n\n");
    for (int q = 60; q < 120; q++)
        for (int k = 0; k < 5; k++)
            n += (size_t)snprintf(t + n, sizeof t - n, "%d Q0 %d %d %d tg\n", q, q * 10 + (q == 100 ? 0 : k), k + 1,
                                  5 - k);
    rt_run_opts o = {0};
    same_halves("grouped TREC, ties, text and decimal pids, a duplicate, a comment", t, &o);
    o.order = RT_ORDER_FILE;
    same_halves("the same in file order", t, &o);
    o.order = RT_ORDER_SCORE;
    o.name = "named";
    same_halves("the same, named", t, &o);
    o.name = NULL;
    n += (size_t)snprintf(t + n, sizeof t - n, "3 Q0 999 1 9 tg\n");   /* query 3 again, at the end */
    same_halves("a query in both halves (the lines put together)", t, &o);
    n += (size_t)snprintf(t + n, sizeof t - n, "200 Q0 1 1 not-a-score tg\n");
    same_halves("an error in the second half (its line number)", t, &o);
    n = 0;
    for (int k = 0; k < 300; k++)   /* one query straddling the split */
        n += (size_t)snprintf(t + n, sizeof t - n, "q7\tp%d\t%d\n", k, k + 1);
    same_halves("one query across the split, TSV without scores", t, &o);
    n = 0;
    for (int q = 0; q < 40; q++)
        n += (size_t)snprintf(t + n, sizeof t - n, "%d\t%d\t1\t0.5\n", q, q);
    same_halves("TSV with scores, a line a query", t, &o);
    n = 0;
    for (int q = 0; q < 81; q++)   /* text pids in both halves, an odd count of pids in each */
        for (int k = 0; k < 3; k++)
            n += (size_t)snprintf(t + n, sizeof t - n, "%d Q0 %s%d %d %d tg\n", q, (q + k) % 3 ? "" : "t",
                                  q * 7 + k, k + 1, 3 - k);
    same_halves("text pids in both halves, odd halves", t, &o);
}

/* The one check that runs are told apart by name: every later run with an earlier one's name is
 * said once, with the first of that name. */
static void test_same_names(void)
{
    const char *names[] = {"bm25", "dense", "bm25", "bm25", "x"};
    rt_report *w = rt_report_new();
    ok(rt_run_warn_same_names(names, 5, ": name them", w) == 2, "same names: two warnings");
    rt_report_kind k;
    const char *l0 = rt_report_count(w) > 0 ? rt_report_line(w, 0, &k) : "";
    const char *l1 = rt_report_count(w) > 1 ? rt_report_line(w, 1, &k) : "";
    ok(strcmp(l0, "runs 1 and 3 are both named \"bm25\": name them") == 0, "same names: 1 and 3 (%s)", l0);
    ok(strcmp(l1, "runs 1 and 4 are both named \"bm25\": name them") == 0, "same names: 1 and 4 (%s)", l1);
    ok(rt_run_warn_same_names(names + 1, 2, "", w) == 0, "different names: no warning");
    rt_report_free(&w);
}

int main(void)
{
    test_same_names();
    test_order();
    test_duplicates();
    test_regroup();
    test_formats();
    test_line_ends();
    test_errors();
    test_halves();
    test_halves_progress();
    return tap_done();
}
