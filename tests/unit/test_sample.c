/* test_sample — query conditions and reproducible samples (rt_sample) on the tiny workspace, the
 * first relevant ranks worked out by hand: A ranks the first relevant passage of q1 at 2, q2 at 3,
 * q3 at 4; B at 1, 6 and not at all. */
#include "config.h"

#include "journal_fixture.h"
#include "rt_sample.h"

static int parses(const rt_workspace *ws, const char *text, rt_condition *c)
{
    rt_err err;
    return rt_condition_parse(ws, text, c, &err) == RT_OK;
}

static int holds(const rt_session *s, const char *text, const char *q)
{
    rt_condition c;
    return parses(s->ws, text, &c) && rt_condition_holds(s, &c, QID(s, q));
}

int main(void)
{
    if (!fixture_begin())
        return 2;
    write_inputs();
    rt_workspace *ws = open_ws(0, NULL);
    rt_session *s = NULL;
    rt_err err;
    if (!ok(ws && rt_session_open(&s, ws, P("sm"), "s", 0, &err) == RT_OK, "a session on the tiny workspace")) {
        rt_workspace_free(&ws);
        return fixture_end();
    }
    rt_condition c;
    ok(parses(ws, "all", &c) && parses(ws, "tagged", &c) && parses(ws, "untagged", &c), "all, tagged, untagged parse");
    ok(parses(ws, "notop 5 A", &c) && c.k == 5 && c.a == 0, "notop 5 A: k 5, run 0");
    ok(parses(ws, "notop 1 2", &c) && c.a == 1, "a run by its number");
    ok(parses(ws, "worse A B", &c) && c.a == 0 && c.b == 1, "worse A B");
    ok(!parses(ws, "notop 0 A", &c) && !parses(ws, "notop -1 A", &c) && !parses(ws, "notop x A", &c),
       "notop K must be a positive whole number");
    ok(!parses(ws, "notop 18446744073709551617 A", &c), "notop K beyond 2^64 is refused, not wrapped");
    ok(!parses(ws, "notop 5 Z", &c) && !parses(ws, "worse A Z", &c) && !parses(ws, "notop 5 3", &c),
       "unknown runs (by name or number) are refused");
    ok(!parses(ws, "often", &c) && !parses(ws, "all extra", &c), "other words are refused");

    ok(holds(s, "notop 1 A", "q1") && !holds(s, "notop 2 A", "q1"), "q1: A's first relevant at rank 2");
    ok(holds(s, "notop 2 A", "q2") && !holds(s, "notop 3 A", "q2"), "q2: at rank 3");
    ok(holds(s, "notop 1000 B", "q3"), "q3: B ranks no relevant passage");
    ok(holds(s, "worse A B", "q1") && !holds(s, "worse A B", "q2") && !holds(s, "worse A B", "q3"),
       "worse A B: RR@10 1/2 < 1 on q1; 1/3 > 1/6 on q2; 1/4 > 0 on q3");
    ok(holds(s, "worse A B 0.5", "q1") && !holds(s, "worse A B 0.5000001", "q1") && holds(s, "better B A 0.5", "q1"),
       "worse A B MIN is by at least MIN: q1's 1 - 1/2 is worse by 0.5 exactly, not by 0.5000001");
    ok(!holds(s, "worse A A", "q1") && !holds(s, "worse A A 0", "q1") && !holds(s, "better A A 0", "q1"),
       "a tie is neither worse nor better, MIN 0 or none");
    ok(rt_session_tag(s, RT_OP_TAG, "q2", "p05", "entity", &err) == RT_OK, "tag q2 p05");
    ok(holds(s, "tagged", "q2") && !holds(s, "tagged", "q1") && holds(s, "untagged", "q1"), "tagged / untagged");
    ok(rt_session_label(s, "q1", "p09", 1, 1, &err) == RT_OK && !holds(s, "notop 1 A", "q1"),
       "a relabel moves the condition: p09 at rank 1 is now relevant");

    uint32_t *q1, *q2;
    size_t n1, n2;
    ok(parses(ws, "all", &c), "all");
    rt_sample_pick(s, 2, 7, &c, &q1, &n1);
    rt_sample_pick(s, 2, 7, &c, &q2, &n2);
    ok(n1 == 2 && n2 == 2 && q1[0] == q2[0] && q1[1] == q2[1] && q1[0] != q1[1], "the same seed: the same 2 queries");
    int judged = 1;
    for (size_t i = 0; i < n1; i++)
        judged &= rt_live_is_judged(s->live, q1[i]);
    ok(judged, "samples are drawn from judged queries");
    free(q1);
    free(q2);
    rt_sample_pick(s, 10, 7, &c, &q1, &n1);
    is_int(n1, 3, "asking for more than there are gives all three judged queries");
    free(q1);
    int differ = 0;
    for (uint64_t seed = 1; seed < 30 && !differ; seed++) {
        rt_sample_pick(s, 1, seed, &c, &q1, &n1);
        rt_sample_pick(s, 1, seed + 1, &c, &q2, &n2);
        differ = q1[0] != q2[0];
        free(q1);
        free(q2);
    }
    ok(differ, "different seeds draw different queries");
    ok(parses(ws, "tagged", &c), "tagged");
    rt_sample_pick(s, 5, 3, &c, &q1, &n1);
    ok(n1 == 1 && q1[0] == QID(s, "q2"), "a sample under a condition holds only queries that meet it");
    free(q1);
    rt_session_close(&s);
    rt_workspace_free(&ws);
    return fixture_end();
}
