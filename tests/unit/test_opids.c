/* test_opids — operations by the workspace's ids (rt_op.id, issue 34): a change made by ids is
 * applied by them and written as the very line the same change by name writes; ids belong to one
 * workspace (a journal written through one table of ids replays, by name, into another's); the
 * state takes ids only and adds none; an operation naming what the workspace lacks stays in the
 * journal byte for byte and reaches no state. */
#include "config.h"

#include "journal_fixture.h"
#include "rt_mem.h"

/* The journal line op (by name) writes, stamped like the session's last change. */
static char *line_by_name(const rt_session *s, rt_op op)
{
    op.seq = s->last.seq;
    op.time_ms = s->last.time_ms;
    op.author = s->annotator;
    op.undo = s->last.undo;
    op.redo = s->last.redo;
    return rt_op_to_json(&op);
}

/* Whether the journal's last line is want (a line with its newline; freed here). */
static int last_line_is(const rt_session *s, char *want, const char *what)
{
    char *got = last_line(s);
    size_t n = want ? strlen(want) : 0;
    int same = got && want && n && want[n - 1] == '\n' && strlen(got) == n - 1 && memcmp(got, want, n - 1) == 0;
    if (!same)
        printf("#   %s:\n#   want %s#   got  %s\n", what, want ? want : "(none)\n", got ? got : "(none)");
    free(got);
    free(want);
    return same;
}

/* Changes through the session by ids: applied to the state under those ids, with no string made
 * for them, and written as the lines the same changes by name write. */
static void test_changes_by_id(rt_workspace *ws)
{
    rt_session *s;
    rt_err err = {0};
    if (!ok(rt_session_open(&s, ws, P("byid"), "ann", 0, &err) == RT_OK, "a session opens (%s)", err.msg))
        return;
    uint32_t q1 = QID(s, "q1"), q2 = QID(s, "q2"), q3 = QID(s, "q3"), p09 = PID(s, "p09"), p04 = PID(s, "p04");
    rt_change ch;

    ok(rt_session_relabel(s, q1, p09, 1, 1, &ch, &err) == RT_OK && ch.qid == q1 && ch.pid == p09,
       "relabel (q1, p09) to 1 by ids (%s)", err.msg);
    const rt_label *l = rt_annot_label(s->annot, q1, p09);
    ok(l && l->grade == 1 && l->prov.seq == ch.seq, "the state holds it under those ids");
    ok(ch.op->by_id && !ch.op->qid && !ch.op->pid, "the change as made has ids and no strings");
    ok(last_line_is(s, line_by_name(s, (rt_op){.kind = RT_OP_LABEL, .qid = "q1", .pid = "p09", .has_grade = 1,
                                               .grade = 1}), "label"),
       "its journal line is the line of the same label by name");

    ok(rt_session_step(s, 0, &ch, &err) == RT_OK && !rt_annot_label(s->annot, q1, p09), "undone (%s)", err.msg);
    ok(last_line_is(s, line_by_name(s, (rt_op){.kind = RT_OP_LABEL, .qid = "q1", .pid = "p09"}), "undo"),
       "the undo (made by the state, by ids) writes the undo line by name");
    ok(rt_session_step(s, 1, &ch, &err) == RT_OK && rt_annot_label(s->annot, q1, p09), "redone (%s)", err.msg);
    ok(last_line_is(s, line_by_name(s, (rt_op){.kind = RT_OP_LABEL, .qid = "q1", .pid = "p09", .has_grade = 1,
                                               .grade = 1}), "redo"),
       "and the redo the redo line");

    const rt_taxonomy *tax = ws->taxonomy;
    size_t typo = rt_taxonomy_find(tax, "typo"), entity = rt_taxonomy_find(tax, "entity");
    ok(typo != (size_t)-1 && entity != (size_t)-1 && rt_session_set_tag(s, q2, RT_NO_ID, typo, 1, &ch, &err) == RT_OK &&
           has_cat(s, "q2", NULL, "typo"),
       "tag the query q2 by taxonomy index (%s)", err.msg);
    ok(last_line_is(s, line_by_name(s, (rt_op){.kind = RT_OP_TAG, .qid = "q2", .cat = "typo"}), "tag"),
       "written with the category's id and a null pid, as by name");

    char *settles[] = {"bob:3"};
    unsigned long long bits = 1ull << typo | 1ull << entity;
    ok(rt_session_adjudicate(s, q2, p04, 1, 0, 1, bits, settles, 1, &ch, &err) == RT_OK &&
           rt_annot_adjud(s->annot, q2, p04) && rt_annot_adjud(s->annot, q2, p04)->cats == bits,
       "adjudicate (q2, p04) with two categories as bits (%s)", err.msg);
    char *cats[2] = {"", ""};
    cats[typo < entity ? 0 : 1] = "typo";   /* in taxonomy order, as the bits name them */
    cats[typo < entity ? 1 : 0] = "entity";
    ok(last_line_is(s, line_by_name(s, (rt_op){.kind = RT_OP_ADJUDICATE, .qid = "q2", .pid = "p04", .has_grade = 1,
                                               .has_cats = 1, .cats = cats, .ncats = 2, .settles = settles,
                                               .nsettles = 1}), "adjudicate"),
       "written with its categories in taxonomy order, as by name");

    uint32_t set[] = {q3, q1};
    char *set_names[] = {"q3", "q1"};
    ok(rt_session_save_set(s, "picked", set, 2, "by hand", &ch, &err) == RT_OK && rt_annot_set(s->annot, "picked") &&
           rt_annot_set(s->annot, "picked")->qids[0] == q3,
       "save a query set by ids (%s)", err.msg);
    ok(last_line_is(s, line_by_name(s, (rt_op){.kind = RT_OP_SET, .name = "picked", .has_list = 1, .qids = set_names,
                                               .nqids = 2, .text = "by hand"}), "set"),
       "written with its queries' names in order");

    /* by name: resolved once at the boundary, written as typed; the same op by ids writes it too */
    ok(rt_session_label(s, "q2", "p09", 1, 1, &err) == RT_OK && rt_annot_label(s->annot, q2, p09),
       "a label by name (%s)", err.msg);
    rt_op by_id = {.kind = RT_OP_LABEL, .by_id = 1, .id = {.qid = q2, .pid = p09}, .has_grade = 1, .grade = 1};
    rt_op_names names = {ws->qids, ws->pids, ws->taxonomy};
    char *line = last_line(s), *want = NULL;
    rt_op parsed;   /* its stamps, for the op by ids */
    if (line && rt_op_from_json(&parsed, line, strlen(line), &err) == RT_OK) {
        by_id.seq = parsed.seq;
        by_id.time_ms = parsed.time_ms;
        by_id.author = "ann";
        want = rt_op_to_json_names(&by_id, &names);
        rt_op_clear(&parsed);
    }
    size_t wl = want ? strlen(want) : 0;
    ok(line && want && wl && strlen(line) == wl - 1 && memcmp(line, want, wl - 1) == 0,
       "the same label by ids renders the line by name wrote (%s)", want ? want : "none");
    free(want);
    free(line);
    rt_session_close(&s);
}

/* A second workspace over the same names read in another order: its ids are not the first's. */
static rt_workspace *open_reversed(void)
{
    put_text(P("queries.rev"), "q5\tfifth, neither judged nor ranked\nq4\tfourth, not judged\nq3\tthird\n"
                               "q2\tsecond query\nq1\tfirst query\n");
    put_text(P("qrels.rev"), "q3 0 p07 0\nq3 0 p06 1\nq2 0 p05 0\nq2 0 p04 1\nq1 0 p03 1\nq1 0 p02 0\nq1 0 p01 1\n");
    char queries[512], qrels[512], run_a[512], run_b[512];
    snprintf(queries, sizeof queries, "%s", P("queries.rev"));
    snprintf(qrels, sizeof qrels, "%s", P("qrels.rev"));
    snprintf(run_a, sizeof run_a, "%s", P("runA.trec"));
    snprintf(run_b, sizeof run_b, "%s", P("runB.trec"));
    const char *runs[] = {run_b, run_a};
    rt_ws_spec spec = {.name = "reversed", .queries = queries, .qrels = qrels, .run_paths = runs, .nruns = 2,
                       .level = 1};
    rt_workspace *ws = NULL;
    rt_err err = {0};
    if (rt_workspace_open(&ws, &spec, NULL, &err) != RT_OK)
        printf("#   reversed workspace: %s\n", err.msg);
    return ws;
}

/* Ids are a workspace's own: a journal written by ids in one replays, through its names, under
 * the other's ids; an op's ids are named through the tables it is written with. An operation or
 * a journal that carried raw ids, or a state that took the first workspace's ids, fails here. */
static void test_two_tables(rt_workspace *ws, rt_workspace *rev)
{
    const char *q = "q1", *p = "p09";
    uint32_t q1 = rt_strtab_find(ws->qids, q, 2), p09 = rt_strtab_find(ws->pids, p, 3);
    uint32_t rq1 = rt_strtab_find(rev->qids, q, 2), rp09 = rt_strtab_find(rev->pids, p, 3);
    if (!ok(q1 != RT_NO_ID && p09 != RT_NO_ID && rq1 != RT_NO_ID && rp09 != RT_NO_ID && q1 != rq1 && p09 != rp09,
            "the two workspaces give q1 and p09 different ids (%u/%u, %u/%u)", q1, rq1, p09, rp09))
        return;
    rt_session *s, *r;
    rt_err err = {0};
    rt_change ch;
    if (!ok(rt_session_open(&s, ws, P("two"), "ann", 0, &err) == RT_OK, "a session on the first (%s)", err.msg))
        return;
    uint32_t set[] = {q1, rt_strtab_find(ws->qids, "q3", 2)};
    ok(rt_session_relabel(s, q1, p09, 1, 1, &ch, &err) == RT_OK &&
           rt_session_save_set(s, "two", set, 2, "", &ch, &err) == RT_OK,
       "a relabel and a set by the first's ids (%s)", err.msg);
    rt_session_close(&s);
    if (!ok(rt_session_open_state(&r, rev, P("two"), "ann", &err) == RT_OK, "the journal opens on the second (%s)",
            err.msg))
        return;
    const rt_label *l = rt_annot_label(r->annot, rq1, rp09);
    ok(l && l->grade == 1, "the relabel is on the second's ids of q1 and p09");
    ok(!rt_annot_label(r->annot, q1, p09) && rt_annot_nlabels(r->annot) == 1,
       "and on nothing the first's ids name there");
    const rt_qset *qs = rt_annot_set(r->annot, "two");
    ok(qs && qs->n == 2 && qs->qids[0] == rq1 && qs->qids[1] == rt_strtab_find(rev->qids, "q3", 2),
       "the set holds the second's ids of q1 and q3");
    rt_session_close(&r);

    /* one op by ids, written through either table: each names its own string */
    rt_op op = {.kind = RT_OP_LABEL, .by_id = 1, .id = {.qid = q1, .pid = p09}, .has_grade = 1, .grade = 1,
                .seq = 1, .author = "ann"};
    rt_op_names first = {ws->qids, ws->pids, ws->taxonomy}, second = {rev->qids, rev->pids, rev->taxonomy};
    char *a = rt_op_to_json_names(&op, &first), *b = rt_op_to_json_names(&op, &second);
    char want_b[200];
    snprintf(want_b, sizeof want_b, "\"qid\":\"%s\",\"pid\":\"%s\"", rt_strtab_str(rev->qids, q1),
             rt_strtab_str(rev->pids, p09));
    ok(a && strstr(a, "\"qid\":\"q1\",\"pid\":\"p09\"") && b && strstr(b, want_b) && !strstr(b, "\"q1\""),
       "an op's ids are named through the tables it is written with (%s / %s)", a ? a : "-", b ? b : "-");
    free(a);
    free(b);
    op.id.pid = rt_strtab_count(ws->pids) + 7;
    ok(!rt_op_to_json_names(&op, &first), "an id outside the table writes nothing");
}

/* The state takes ids only, and adds none to the workspace. */
static void test_state_takes_ids(rt_workspace *ws)
{
    rt_annot *a = rt_annot_new(ws->qids, ws->pids, ws->taxonomy);
    uint32_t nq = rt_strtab_count(ws->qids), np = rt_strtab_count(ws->pids);
    rt_err err = {0};
    rt_op text = {.kind = RT_OP_LABEL, .qid = "q1", .pid = "p-nowhere", .has_grade = 1, .grade = 1};
    ok(rt_annot_apply(a, &text, NULL, &err) == RT_EINPUT && rt_annot_nlabels(a) == 0 &&
           rt_strtab_count(ws->pids) == np && rt_strtab_count(ws->qids) == nq,
       "an op by name only is refused, no id interned (%s)", err.msg);
    rt_op wild = {.kind = RT_OP_LABEL, .by_id = 1, .id = {.qid = nq + 1000000, .pid = 0}, .has_grade = 1, .grade = 1};
    ok(rt_annot_apply(a, &wild, NULL, &err) == RT_EINPUT && rt_annot_nlabels(a) == 0,
       "an id outside the workspace's tables is refused (%s)", err.msg);
    rt_op good = {.kind = RT_OP_LABEL, .by_id = 1, .id = {.qid = rt_strtab_find(ws->qids, "q2", 2),
                                                          .pid = rt_strtab_find(ws->pids, "p04", 3)},
                  .has_grade = 1, .grade = 0, .seq = 1};
    ok(rt_annot_apply(a, &good, NULL, &err) == RT_OK && rt_annot_label(a, good.id.qid, good.id.pid),
       "one by ids applies");
    rt_annot_free(&a);
}

/* An operation read back naming a passage this workspace lacks: kept in the journal exactly as
 * written (spacing the writer would not make included) through appends and an import's rewrite,
 * applied to nothing, no id interned. */
static void test_foreign_verbatim(rt_workspace *ws)
{
    const char *dir = P("verbatim");
    mkdir(dir, 0700);
    char path[600];
    snprintf(path, sizeof path, "%s/zed.jsonl", dir);
    static const char foreign[] = "{\"seq\":2,  \"time\":\"2026-11-26T00:00:00.000Z\", \"author\":\"zed\","
                                  "\"op\":\"label\",\"qid\":\"q1\",\"pid\":\"elsewhere-p\",\"grade\":1}\n";
    char text[1024];
    snprintf(text, sizeof text, "{\"seq\":1,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"zed\",\"op\":\"label\","
                                "\"qid\":\"q1\",\"pid\":\"p10\",\"grade\":1}\n%s", foreign);
    put_text(path, text);
    uint32_t np = rt_strtab_count(ws->pids);
    rt_session *s;
    rt_err err = {0};
    rt_change ch;
    if (!ok(rt_session_open(&s, ws, dir, "zed", 0, &err) == RT_OK && !rt_session_readonly(s), "it opens, writable (%s)",
            err.msg))
        return;
    ok(s->foreign[1] == 1 && rt_annot_nops(s->annot) == 1 && rt_strtab_count(ws->pids) == np &&
           rt_strtab_find(ws->pids, "elsewhere-p", 11) == RT_NO_ID,
       "the op on an unknown passage is counted, not applied, its pid not interned");
    ok(rt_session_relabel(s, QID(s, "q2"), PID(s, "p09"), 1, 1, &ch, &err) == RT_OK, "a change by ids is appended (%s)",
       err.msg);
    rt_op imp = {.kind = RT_OP_LABEL, .qid = S("q3"), .pid = S("p10"), .has_grade = 1, .grade = 1,
                 .via = S("import x.jsonl:1")};
    size_t done = 0;
    ok(rt_session_import(s, &imp, 1, 0, &done, &err) == RT_OK && done == 1, "an import rewrites the journal (%s)",
       err.msg);
    rt_op_clear(&imp);
    rt_session_close(&s);
    char *now = get_file(path, NULL);
    ok(now && strncmp(now, text, strlen(text)) == 0,
       "the lines read, the foreign one too, are still there byte for byte");
    free(now);
    if (ok(rt_session_open(&s, ws, dir, "zed", 1, &err) == RT_OK, "it opens again (%s)", err.msg)) {
        ok(rt_annot_nops(s->annot) == 3 && s->foreign[1] == 1 &&
               rt_strtab_find(ws->pids, "elsewhere-p", 11) == RT_NO_ID,
           "replayed: three applied, the foreign one still to nothing");
        rt_session_close(&s);
    }
}

int main(void)
{
    if (!fixture_begin())
        return 2;
    write_inputs();
    rt_workspace *ws = open_ws(0, NULL), *rev = open_reversed();
    if (ok(ws && rev, "the workspaces open")) {
        test_changes_by_id(ws);
        test_two_tables(ws, rev);
        test_state_takes_ids(ws);
        test_foreign_verbatim(ws);
    }
    rt_workspace_free(&ws);
    rt_workspace_free(&rev);
    return fixture_end();
}
