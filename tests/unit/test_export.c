/* test_export — what a session writes out (rt_export), on the tiny workspace of journal_fixture.h
 * with the measures RR@10 and P@2: the current qrels and the relabels alone, the tags, the metric
 * table (base, current, delta), per-query values, the leakage split and a query scope, the format
 * rules, and the atomic file. Every value is worked out by hand from the rankings:
 *   A: q1 p09 p03 p02 p01 …  q2 p05 p06 p04 …  q3 p07 p10 p11 p06
 *   B: q1 p01 p02 p03        q2 p08 p09 p10 p11 p12 p04        (q3 not ranked)
 *   judged relevant: q1 p01 p03, q2 p04, q3 p06 (q4 and q5 not judged) */
#include "config.h"

#include "journal_fixture.h"
#include "rt_export.h"

/* The export as text (caller frees); NULL after printing why when it fails. */
static char *text_of(const rt_session *s, rt_export_what what, rt_table_format fmt, const uint32_t *qids,
                     size_t nq, const unsigned char *leaked)
{
    rt_export_opts o = {.what = what, .format = fmt, .qids = qids, .nqids = nq, .leaked = leaked};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rt_err err;
    rt_status st = rt_export_write(s, &o, f, &err);
    fclose(f);
    if (st != RT_OK) {
        printf("#   export: %s\n", err.msg);
        free(buf);
        return NULL;
    }
    return buf;
}

/* Whether the export is exactly want; prints what it was when not. */
static int export_is(const rt_session *s, rt_export_what what, rt_table_format fmt, const uint32_t *qids,
                     size_t nq, const unsigned char *leaked, const char *want)
{
    char *got = text_of(s, what, fmt, qids, nq, leaked);
    int same = got && strcmp(got, want) == 0;
    if (!same)
        printf("#   got:\n%s#   want:\n%s", got ? got : "(nothing)\n", want);
    free(got);
    return same;
}

static void relabel(rt_session *s, const char *q, const char *p, int grade)
{
    rt_err err;
    if (rt_session_label(s, q, p, 1, grade, &err) != RT_OK)
        printf("#   relabel %s %s: %s\n", q, p, err.msg);
}

static void test_formats(void)
{
    rt_table_format f;
    rt_err err;
    ok(rt_export_format(RT_EXPORT_QRELS, NULL, &f, &err) == RT_OK && f == RT_EXPORT_TREC, "qrels default to TREC");
    ok(rt_export_format(RT_EXPORT_METRICS, NULL, &f, &err) == RT_OK && f == RT_TABLE_TSV, "tables default to TSV");
    ok(rt_export_format(RT_EXPORT_QRELS_DIFF, "json", &f, &err) == RT_OK && f == RT_TABLE_JSON,
       "the relabels can be a table");
    ok(rt_export_format(RT_EXPORT_METRICS, "trec", &f, &err) == RT_EUSAGE && strstr(err.msg, "qrels"),
       "trec is only for qrels (%s)", err.msg);
    ok(rt_export_format(RT_EXPORT_QRELS, "tsv", &f, &err) == RT_EUSAGE && strstr(err.msg, "qrels-diff"),
       "whole qrels only as TREC, pointing to qrels-diff (%s)", err.msg);
    ok(rt_export_format(RT_EXPORT_TAGS, "md", &f, &err) == RT_EUSAGE, "tags are not a Markdown table");
    ok(rt_export_format(RT_EXPORT_METRICS, "xlsx", &f, &err) == RT_EUSAGE &&
           strstr(err.msg, "trec, tsv, csv, json, md, latex"),
       "an unknown format lists them all (%s)", err.msg);
    rt_export_what w;
    ok(rt_export_what_parse("per-query", &w) && w == RT_EXPORT_PER_QUERY && !rt_export_what_parse("perquery", &w),
       "what is named from the table");
}

int main(void)
{
    test_formats();
    if (!fixture_begin())
        return 2;
    write_inputs();
    rt_workspace *ws = open_ws(0, "RR@10,P@2");
    rt_session *s = NULL;
    rt_err err;
    if (!ok(ws && rt_session_open(&s, ws, P("ex"), "erin", 0, &err) == RT_OK, "a session on the tiny workspace")) {
        rt_workspace_free(&ws);
        return fixture_end();
    }

    /* RR@10 A: (1/2 + 1/3 + 1/4) / 3 = 0.36111; B: (1 + 1/6 + 0) / 3 = 0.38889.
     * P@2   A: (1/2 + 0 + 0) / 3 = 0.16667;     B: (1/2 + 0 + 0) / 3 */
    ok(export_is(s, RT_EXPORT_METRICS, RT_TABLE_TSV, NULL, 0, NULL,
                 "run\tmeasure\tbase\tcurrent\tdelta\tqueries\n"
                 "A\tRR@10\t0.3611111111111111\t0.3611111111111111\t0\t3\n"
                 "A\tP@2\t0.16666666666666666\t0.16666666666666666\t0\t3\n"
                 "B\tRR@10\t0.3888888888888889\t0.3888888888888889\t0\t3\n"
                 "B\tP@2\t0.16666666666666666\t0.16666666666666666\t0\t3\n"),
       "metrics before any relabel: base = current, to 17 significant digits");
    ok(export_is(s, RT_EXPORT_METRICS, RT_TABLE_MD, NULL, 0, NULL,
                 "| run | measure | base | current | delta | queries |\n"
                 "|---|---|---:|---:|---:|---:|\n"
                 "| A | RR@10 | 0.3611 | 0.3611 | +0.0000 | 3 |\n"
                 "| A | P@2 | 0.1667 | 0.1667 | +0.0000 | 3 |\n"
                 "| B | RR@10 | 0.3889 | 0.3889 | +0.0000 | 3 |\n"
                 "| B | P@2 | 0.1667 | 0.1667 | +0.0000 | 3 |\n"
                 "\n<!-- values rounded to 4 decimal places; TSV, CSV and JSON carry full precision -->\n"),
       "Markdown rounds to 4 decimals and says so");
    ok(export_is(s, RT_EXPORT_QRELS_DIFF, RT_EXPORT_TREC, NULL, 0, NULL, ""), "no relabels: an empty diff");

    /* q2 p05 becomes relevant: A ranks it first (RR 1, P@2 1/2); B does not rank it */
    relabel(s, "q2", "p05", 1);
    ok(export_is(s, RT_EXPORT_METRICS, RT_TABLE_TSV, NULL, 0, NULL,
                 "run\tmeasure\tbase\tcurrent\tdelta\tqueries\n"
                 "A\tRR@10\t0.3611111111111111\t0.58333333333333337\t0.22222222222222227\t3\n"
                 "A\tP@2\t0.16666666666666666\t0.33333333333333331\t0.16666666666666666\t3\n"
                 "B\tRR@10\t0.3888888888888889\t0.3888888888888889\t0\t3\n"
                 "B\tP@2\t0.16666666666666666\t0.16666666666666666\t0\t3\n"),
       "after relabelling q2 p05: A's RR@10 (1/2 + 1 + 1/4) / 3, P@2 (1/2 + 1/2) / 3");
    ok(export_is(s, RT_EXPORT_PER_QUERY, RT_TABLE_TSV, NULL, 0, NULL,
                 "run\tqid\tRR@10\tP@2\n"
                 "A\tq1\t0.5\t0.5\n"
                 "A\tq2\t1\t0.5\n"
                 "A\tq3\t0.25\t0\n"
                 "B\tq1\t1\t0.5\n"
                 "B\tq2\t0.16666666666666666\t0\n"
                 "B\tq3\t0\t0\n"),
       "per query: current values of the judged queries (B's unranked q3 scores 0)");

    /* a scope: q1 and q3 only (q5, never judged, is left out of the means) */
    uint32_t scope[] = {QID(s, "q1"), QID(s, "q3"), QID(s, "q5")};
    ok(export_is(s, RT_EXPORT_METRICS, RT_TABLE_TSV, scope, 3, NULL,
                 "run\tmeasure\tbase\tcurrent\tdelta\tqueries\n"
                 "A\tRR@10\t0.375\t0.375\t0\t2\n"
                 "A\tP@2\t0.25\t0.25\t0\t2\n"
                 "B\tRR@10\t0.5\t0.5\t0\t2\n"
                 "B\tP@2\t0.25\t0.25\t0\t2\n"),
       "metrics over a scope: q1 and q3, the unjudged q5 not counted");
    ok(export_is(s, RT_EXPORT_PER_QUERY, RT_TABLE_CSV, scope, 3, NULL,
                 "run,qid,RR@10,P@2\nA,q1,0.5,0.5\nA,q3,0.25,0\n"
                 "B,q1,1,0.5\nB,q3,0,0\n"),
       "per query over the scope, as CSV");

    /* leakage: q1 leaked. A: q1 0.5 vs (1 + 1/4) / 2; B: q1 1 vs (1/6 + 0) / 2 */
    unsigned char *leaked = calloc(rt_strtab_count(ws->qids), 1);
    leaked[QID(s, "q1")] = 1;
    ok(export_is(s, RT_EXPORT_LEAKAGE, RT_TABLE_TSV, NULL, 0, leaked,
                 "run\tmeasure\tduplicated\tothers\tduplicated_queries\tother_queries\n"
                 "A\tRR@10\t0.5\t0.625\t1\t2\n"
                 "A\tP@2\t0.5\t0.25\t1\t2\n"
                 "B\tRR@10\t1\t0.083333333333333329\t1\t2\n"
                 "B\tP@2\t0.5\t0\t1\t2\n"),
       "the leakage split: q1 against q2 and q3");
    ok(text_of(s, RT_EXPORT_LEAKAGE, RT_TABLE_TSV, NULL, 0, NULL) == NULL, "the split without leaked queries is refused");
    free(leaked);

    /* more relabels: a new pair of a judged query, a query judged only here, and one that
     * repeats the base grade (not a difference) */
    relabel(s, "q1", "p09", 0);
    relabel(s, "q4", "p08", 1);
    relabel(s, "q3", "p06", 0);
    relabel(s, "q3", "p06", 1);
    ok(export_is(s, RT_EXPORT_QRELS, RT_EXPORT_TREC, NULL, 0, NULL,
                 "q1 0 p01 1\nq1 0 p02 0\nq1 0 p03 1\nq1 0 p09 0\n"
                 "q2 0 p04 1\nq2 0 p05 1\n"
                 "q3 0 p06 1\nq3 0 p07 0\n"
                 "q4 0 p08 1\n"),
       "current qrels: base with relabels applied, new pairs after their query's, new queries last");
    ok(export_is(s, RT_EXPORT_QRELS_DIFF, RT_EXPORT_TREC, NULL, 0, NULL, "q1 0 p09 0\nq2 0 p05 1\nq4 0 p08 1\n"),
       "the diff: only what differs from the base (q3 p06 is back to its base grade)");
    char *diff = text_of(s, RT_EXPORT_QRELS_DIFF, RT_TABLE_TSV, NULL, 0, NULL);
    ok(diff && strncmp(diff, "qid\tpid\tbase\tcurrent\tauthor\ttime\nq1\tp09\t\t0\terin\t20", 50) == 0 &&
           strstr(diff, "\nq2\tp05\t0\t1\terin\t20") && strstr(diff, "\nq4\tp08\t\t1\terin\t20"),
       "the diff as a table: an empty base where unjudged, the author and the time");
    free(diff);

    /* tags: a pair with two categories and a note, and a query */
    rt_session_tag(s, RT_OP_TAG, "q1", "p09", "numeral", &err);
    rt_session_tag(s, RT_OP_TAG, "q1", "p09", "entity", &err);
    rt_session_note(s, "q1", "p09", "names \"1999\"\tthe year", &err);
    rt_session_tag(s, RT_OP_TAG, "q2", NULL, "other", &err);
    char *tags = text_of(s, RT_EXPORT_TAGS, RT_TABLE_TSV, NULL, 0, NULL);
    const rt_taxonomy *t = ws->taxonomy;
    const char *g_entity = t->groups[t->cats[rt_taxonomy_find(t, "entity")].group];
    char want[512];
    snprintf(want, sizeof want, "qid\tpid\tgroup\tcategory\tnote\tauthor\ttime\nq1\tp09\t%s\tentity\t", g_entity);
    ok(tags && strncmp(tags, want, strlen(want)) == 0, "tags: one row a category, in taxonomy order (entity first)");
    ok(tags && strstr(tags, "\tnumeral\tnames \"1999\" the year\terin\t"), "the note on each row, its tab a space");
    ok(tags && strstr(tags, "\nq2\t-\t"), "a query's own tag has pid -");
    int rows = 0;
    for (const char *c = tags; c && *c; c++)
        rows += *c == '\n';
    is_int(rows, 4, "a header and three rows");
    free(tags);
    char *json = text_of(s, RT_EXPORT_TAGS, RT_TABLE_JSON, NULL, 0, NULL);
    ok(json && strstr(json, "\"note\": \"names \\\"1999\\\"\\tthe year\"") != NULL,
       "in JSON the note keeps its tab and quotes, escaped");
    free(json);

    /* the file: written whole, no temporary left */
    rt_export_opts o = {.what = RT_EXPORT_QRELS_DIFF, .format = RT_EXPORT_TREC};
    ok(rt_export_file(s, &o, P("out/diff.trec"), NULL, &err) != RT_OK, "a folder that does not exist is an error");
    mkdir(P("out"), 0700);
    rt_status st = rt_export_file(s, &o, P("out/diff.trec"), NULL, &err);
    ok(st == RT_OK, "exported to a file (%s)", st == RT_OK ? "" : err.msg);
    const char *d = "q1 0 p09 0\nq2 0 p05 1\nq4 0 p08 1\n";
    ok(file_is(P("out/diff.trec"), d, strlen(d)), "the file holds the diff");
    is_int(count_prefixed(P("out"), "diff.trec.tmp", NULL, 0), 0, "no temporary is left beside it");
    o.what = RT_EXPORT_LEAKAGE;
    o.format = RT_TABLE_TSV;
    ok(rt_export_file(s, &o, P("out/diff.trec"), NULL, &err) == RT_EUSAGE && file_is(P("out/diff.trec"), d, strlen(d)),
       "a failed export leaves the file as it was");
    is_int(count_prefixed(P("out"), "diff.trec.tmp", NULL, 0), 0, "and no temporary");

    /* Once a bug: -o replaced whatever it named, the base qrels and the journal being written
     * included. With no guard given, the session's inputs and journal folder are protected. */
    o.what = RT_EXPORT_TAGS;
    o.format = RT_TABLE_JSON;
    const char *keep[] = {rt_qrels_path(ws->qrels), rt_run_path(ws->runs[0].run), rt_journal_path(s->journal)};
    const char *kind[] = {"the base qrels", "a run", "a journal"};
    for (size_t i = 0; i < 3; i++) {
        size_t nb = 0, na = 0;
        char *before = get_file(keep[i], &nb);
        st = rt_export_file(s, &o, keep[i], NULL, &err);
        char *after = get_file(keep[i], &na);
        ok(st == RT_EINPUT && strstr(err.msg, keep[i]) && before && after && nb == na && memcmp(before, after, nb) == 0,
           "an export over %s is refused, the file untouched (%s)", kind[i], err.msg);
        free(before);
        free(after);
    }
    st = rt_export_file(s, &o, P("ex/other.jsonl"), NULL, &err);
    ok(st == RT_EINPUT && access(P("ex/other.jsonl"), F_OK) != 0,
       "a new NAME.jsonl in the journal folder is refused too (%s)", err.msg);

    rt_session_close(&s);
    rt_workspace_free(&ws);
    return fixture_end();
}
