/* test_leakage — train–test leakage for a workspace (rt_leakage): the candidates the built-in
 * embedder finds for the workspace's queries among its training queries (a copy, a near copy with
 * a typo, and an unrelated pair), their grouping by test query, the threshold and k the workspace
 * sets, which queries count as leaked (reviewed labels, and optionally every candidate), and the
 * refusal when the workspace names no training queries. */
#include "config.h"

#include "journal_fixture.h"
#include "rt_faiss.h"
#include "rt_leakage.h"
#include "rt_ngram.h"

static rt_workspace *open_leak_ws(const char *train, double threshold, size_t k)
{
    char q[512], qr[512], run[512], tr[512];
    snprintf(q, sizeof q, "%s", P("lq.tsv"));
    snprintf(qr, sizeof qr, "%s", P("lqrels"));
    snprintf(run, sizeof run, "%s", P("lrun"));
    snprintf(tr, sizeof tr, "%s", train ? P(train) : "");
    const char *runs[] = {run};
    rt_ws_spec spec = {.name = "leaky", .queries = q, .qrels = qr, .run_paths = runs, .nruns = 1,
                       .level = 1, .train_queries = train ? tr : NULL, .leak_k = k,
                       .leak_threshold = threshold, .leak_threshold_set = threshold == threshold};
    rt_workspace *ws = NULL;
    rt_err err = {0};
    if (rt_workspace_open(&ws, &spec, NULL, &err) != RT_OK)
        printf("#   workspace: %s\n", err.msg);
    return ws;
}

/* The training qids matched to test query qid, best first, joined with spaces. */
static const char *matches(const rt_leakage *l, const rt_session *s, const char *qid, char *buf, size_t n)
{
    buf[0] = 0;
    for (size_t i = 0; i < l->ntest; i++)
        if (l->test_qid[i] == QID(s, qid))
            for (size_t p = l->first[i]; p < l->first[i + 1]; p++)
                snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? " " : "",
                         rt_leakage_train_qid(l, &l->pairs[p]));
    return buf;
}

int main(void)
{
    rt_faiss_set_module(getenv("RETRIAGE_FAISS_MODULE"));   /* the build tree's, as the program does */
    static const char *const types[] = {"identical", "generalization", "specialization", "reformulation"};
    int all = 1;
    for (size_t i = 0; i < 4; i++)
        all &= rt_leak_type_is_leak(types[i]);
    ok(all && !rt_leak_type_is_leak("different-topic") && !rt_leak_type_is_leak("not-leak") &&
           !rt_leak_type_is_leak("Identical"),
       "the four leak types count as leaks; different-topic, not-leak and other spellings do not");

    if (!fixture_begin())
        return 2;
    put_text(P("lq.tsv"), "q1\thow tall is the eiffel tower\n"
                          "q2\tcapital city of australia\n"
                          "q3\tboiling point of water at altitude\n");
    put_text(P("train.tsv"), "t1\thow tall is the eiffel tower\n"
                             "t2\tcapital city of austraila\n"
                             "t3\tbest pizza recipe with fresh basil\n"
                             "t4\tHow tall is the Eiffel tower?\n");
    put_text(P("lqrels"), "q1 0 p1 1\nq2 0 p2 1\nq3 0 p3 1\n");
    put_text(P("lrun"), "q1 Q0 p1 1 1.0 A\nq2 Q0 p9 1 1.0 A\nq3 Q0 p3 1 1.0 A\n");

    rt_err err;
    rt_leakage *l = NULL;
    rt_workspace *ws = open_leak_ws(NULL, NAN, 0);
    ok(ws && rt_leakage_find(&l, ws, &err) == RT_EUSAGE && l == NULL, "no training queries: refused (%s)",
       ws ? err.msg : "");
    rt_workspace_free(&ws);

    ws = open_leak_ws("train.tsv", NAN, 0);
    rt_session *s = NULL;
    if (!ok(ws && rt_session_open(&s, ws, P("lj"), "lee", 0, &err) == RT_OK, "a workspace naming training queries")) {
        rt_workspace_free(&ws);
        return fixture_end();
    }
    rt_status st = rt_leakage_find(&l, ws, &err);
    if (!ok(st == RT_OK, "candidates found (%s)", st == RT_OK ? "" : err.msg)) {
        rt_session_close(&s);
        rt_workspace_free(&ws);
        return fixture_end();
    }
    char buf[256];
    ok(l->builtin && l->threshold == RT_NGRAM_THRESHOLD, "no embeddings: the built-in embedder and its threshold");
    is_int(l->ntest, 3, "one row a test query, in the file's order");
    ok(l->test_qid[0] == QID(s, "q1") && l->test_qid[2] == QID(s, "q3"), "rows map to the workspace's qids");
    /* t1 is a copy of q1; t4 differs in case and punctuation only, which the embedder ignores */
    ok(strcmp(matches(l, s, "q1", buf, sizeof buf), "t1 t4") == 0, "q1: t1 and t4, equal scores in file order (%s)", buf);
    ok(strcmp(matches(l, s, "q2", buf, sizeof buf), "t2") == 0, "q2: its typo'd copy t2 (%s)", buf);
    ok(strcmp(matches(l, s, "q3", buf, sizeof buf), "") == 0, "q3: nothing near it (%s)", buf);
    const rt_leak_pair *p1 = &l->pairs[l->first[0]], *p2 = &l->pairs[l->first[1]];
    ok(fabsf(p1->score - 1.0f) < 1e-5f && fabsf(l->pairs[l->first[0] + 1].score - 1.0f) < 1e-5f,
       "a copy scores 1 (%g)", (double)p1->score);
    ok(p2->score >= RT_NGRAM_THRESHOLD && p2->score < 0.99f, "the typo'd copy scores below 1 but above the threshold (%g)",
       (double)p2->score);
    ok(strcmp(rt_leakage_train_text(l, p2), "capital city of austraila") == 0, "the training text of a pair");
    is_int(l->npairs, 3, "three pairs in all");

    /* which queries are leaked: none reviewed yet; with candidates, q1 and q2 */
    size_t n;
    unsigned char *m = rt_leakage_mask(s, l, 0, &n);
    ok(n == 0 && !m[QID(s, "q1")], "nothing reviewed: nothing leaked");
    free(m);
    m = rt_leakage_mask(s, l, 1, &n);
    ok(n == 2 && m[QID(s, "q1")] && m[QID(s, "q2")] && !m[QID(s, "q3")], "with candidates: q1 and q2");
    free(m);
    /* a review: q3 typed a reformulation of t3 (the reviewer knows better), q1 × t1 not a leak */
    rt_change ch;
    ok(rt_session_type_leak(s, QID(s, "q3"), "t3", "reformulation", &ch, &err) == RT_OK &&
           rt_session_type_leak(s, QID(s, "q1"), "t1", "not-leak", &ch, &err) == RT_OK,
       "two pairs reviewed");
    m = rt_leakage_mask(s, l, 0, &n);
    ok(n == 1 && m[QID(s, "q3")] && !m[QID(s, "q1")], "reviewed: q3 only (not-leak does not count)");
    free(m);
    m = rt_leakage_mask(s, l, 1, &n);
    ok(n == 3 && m[QID(s, "q1")] && m[QID(s, "q2")] && m[QID(s, "q3")], "with candidates too: all three, each once");
    free(m);
    m = rt_leakage_mask(s, NULL, 1, &n);
    ok(n == 1 && m[QID(s, "q3")], "candidates asked for but none searched: the reviewed ones");
    free(m);
    rt_leakage_free(&l);
    ok(l == NULL, "freed");
    rt_session_close(&s);
    rt_workspace_free(&ws);

    /* the workspace's threshold and k: 0.999 keeps the copies; k 1 keeps one match a query */
    ws = open_leak_ws("train.tsv", 0.999, 1);
    ok(ws && rt_session_open(&s, ws, P("lj"), "lee", 1, &err) == RT_OK && rt_leakage_find(&l, ws, &err) == RT_OK,
       "a strict threshold and k 1");
    if (l) {
        ok(l->threshold == 0.999 && l->npairs == 1 && strcmp(matches(l, s, "q1", buf, sizeof buf), "t1") == 0,
           "only q1 × t1 is left (%s)", buf);
        rt_leakage_free(&l);
    }
    rt_session_close(&s);
    rt_workspace_free(&ws);

    put_text(P("train_bad.tsv"), "t1\tfine\nt2 without a tab\n");
    ws = open_leak_ws("train_bad.tsv", NAN, 0);
    ok(ws && rt_leakage_find(&l, ws, &err) == RT_EINPUT && strstr(err.msg, "train_bad.tsv:2"),
       "a bad training file names its line (%s)", ws ? err.msg : "");
    rt_workspace_free(&ws);
    return fixture_end();
}
