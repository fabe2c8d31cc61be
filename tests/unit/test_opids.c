/* test_opids — operations by the workspace's ids (rt_op.id, issue 34): a change made by ids is
 * applied by them and written as the very line the same change by name writes; ids belong to one
 * workspace (a journal written through one table of ids replays, by name, into another's); the
 * state takes ids only and adds none; an operation naming what the workspace lacks stays in the
 * journal byte for byte and reaches no state. */
#include "config.h"

#include "journal_fixture.h"
#include "rt_mem.h"
#include "rt_package.h"

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

/* ---- packages (rt_package_make) by ids ----------------------------------------------------- */

/* The packages of state a, one line each in name order, by ids and by names: equal dumps, the
 * same packages under the same ids. Owned: freed with free. */
static char *dump_packages(const rt_annot *a, const rt_workspace *ws)
{
    size_t n, len = 0, cap = 1;
    const rt_package *ps = rt_annot_packages(a, &n);
    const rt_package **sorted = calloc(n + 1, sizeof *sorted);
    for (size_t i = 0; i < n; i++) {   /* the state keeps them in no order worth comparing */
        size_t k = i;
        while (k && strcmp(sorted[k - 1]->name, ps[i].name) > 0) {
            sorted[k] = sorted[k - 1];
            k--;
        }
        sorted[k] = &ps[i];
    }
    char *out = calloc(1, cap);
    for (size_t i = 0; i < n; i++) {
        const rt_package *p = sorted[i];
        for (size_t k = 0; k <= p->n; k++) {
            char buf[512];
            if (k == 0)
                snprintf(buf, sizeof buf, "%s%s %s %llu %zu:", i ? "\n" : "", p->name, p->annotator,
                         (unsigned long long)p->seed, p->sample);
            else
                snprintf(buf, sizeof buf, " %u/%u=%s/%s", p->qids[k - 1], p->pids[k - 1],
                         rt_strtab_str(ws->qids, p->qids[k - 1]), rt_strtab_str(ws->pids, p->pids[k - 1]));
            size_t bl = strlen(buf);
            while (len + bl + 1 > cap)
                out = realloc(out, cap *= 2);
            memcpy(out + len, buf, bl + 1);
            len += bl;
        }
    }
    free(sorted);
    return out;
}

/* Whether every op of ops (n) is a package by ids only: by_id, ids for each pair, no text form
 * of a query or passage. */
static int all_by_id(const rt_op *ops, size_t n, const rt_workspace *ws)
{
    for (size_t i = 0; i < n; i++) {
        const rt_op *o = &ops[i];
        if (!o->by_id || o->kind != RT_OP_PACKAGE || o->qid || o->pid || o->qids || o->pids || !o->id.qids ||
            !o->id.pids || o->id.qid != RT_NO_ID || o->id.pid != RT_NO_ID || !o->nqids || !o->has_list)
            return 0;
        for (size_t k = 0; k < o->nqids; k++)
            if (o->id.qids[k] >= rt_strtab_count(ws->qids) || o->id.pids[k] >= rt_strtab_count(ws->pids))
                return 0;
    }
    return 1;
}

/* The package ops (n) by name the old rt_package_make made: the same pairs as ops's, as strings. */
static rt_op *packages_by_name(const rt_workspace *ws, const rt_op *ops, size_t n)
{
    rt_op *named = calloc(n + 1, sizeof *named);
    for (size_t i = 0; i < n; i++) {
        const char **q = calloc(ops[i].nqids + 1, sizeof *q), **p = calloc(ops[i].nqids + 1, sizeof *p);
        for (size_t k = 0; k < ops[i].nqids; k++) {
            q[k] = rt_strtab_str(ws->qids, ops[i].id.qids[k]);
            p[k] = rt_strtab_str(ws->pids, ops[i].id.pids[k]);
        }
        named[i] = op_package(ops[i].name, ops[i].text, q, p, ops[i].nqids, ops[i].seed, ops[i].sample);
        named[i].time_ms = 0;
        free(q);
        free(p);
    }
    return named;
}

static void free_ops(rt_op *ops, size_t n)
{
    for (size_t i = 0; ops && i < n; i++)
        rt_op_clear(&ops[i]);
    free(ops);
}

/* The lines of the file at path (a copy each; *n of them). Owned: free each, then the array. */
static char **file_lines(const char *path, size_t *n)
{
    char *text = get_file(path, NULL), *save = NULL, **lines = NULL;
    *n = 0;
    for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        lines = realloc(lines, (*n + 1) * sizeof *lines);
        lines[(*n)++] = strdup(l);
    }
    free(text);
    return lines;
}

/* Whether journal line i holds package op (by ids) under the names of ws's tables, and is byte
 * for byte the line the same package by name (named) writes with its stamps. */
static int line_names_package(const char *line, const rt_op *op, rt_op *named, const rt_workspace *ws)
{
    rt_op back;
    rt_err err;
    if (rt_op_from_json(&back, line, strlen(line), &err) != RT_OK)
        return 0;
    int same = back.kind == RT_OP_PACKAGE && back.nqids == op->nqids && back.qids && back.pids &&
               streq(back.name, op->name) && streq(back.text, op->text) && back.seed == op->seed &&
               back.sample == op->sample;
    for (size_t k = 0; same && k < op->nqids; k++)
        same = !strcmp(back.qids[k], rt_strtab_str(ws->qids, op->id.qids[k])) &&
               !strcmp(back.pids[k], rt_strtab_str(ws->pids, op->id.pids[k]));
    named->seq = back.seq;   /* the stamps of the line, for the same op by name */
    named->time_ms = back.time_ms;
    free(named->author);
    named->author = S(back.author);
    char *want = rt_op_to_json(named);
    size_t wl = strlen(want);
    same = same && wl == strlen(line) + 1 && memcmp(want, line, wl - 1) == 0;
    if (!same)
        printf("#   line: %s\n#   want: %s", line, want);
    free(want);
    rt_op_clear(&back);
    return same;
}

/* rt_package_make builds packages by ids (issue 34 §3): saved, they are written with their pairs'
 * names, the line the same packages by name write; applied, they give the state those give; read
 * back, the same ids; and the team still finds their names taken. */
static void test_packages_by_id(rt_workspace *ws)
{
    char *to[] = {"alice", "bob"};
    rt_package_plan plan = {.depth = 2, .size = 3, .sample = 2, .seed = 7, .annotators = to, .nannotators = 2,
                            .prefix = "t"};
    uint32_t nq = rt_strtab_count(ws->qids), np = rt_strtab_count(ws->pids);
    rt_op *ops = NULL, *named = NULL;
    size_t n = 0;
    rt_err err = {0};
    rt_status st = rt_package_make(ws, &plan, &ops, &n, &err);
    if (!ok(st == RT_OK && n == 4, "four packages made (%zu; %s)", n, st == RT_OK ? "ok" : err.msg))
        return;
    ok(rt_strtab_count(ws->qids) == nq && rt_strtab_count(ws->pids) == np, "no id was interned making them");
    if (!ok(all_by_id(ops, n, ws), "each is by ids (by_id, id.qids and id.pids), with no query or passage string")) {
        free_ops(ops, n);   /* what follows compares with their ids */
        return;
    }
    named = packages_by_name(ws, ops, n);

    rt_session *a, *b;
    if (!ok(rt_session_open(&a, ws, P("pk-id"), "lead", 0, &err) == RT_OK &&
                rt_session_open(&b, ws, P("pk-name"), "lead", 0, &err) == RT_OK,
            "two sessions (%s)", err.msg)) {
        free_ops(ops, n);
        free_ops(named, n);
        return;
    }
    ok(rt_session_add_packages(a, ops, n, &err) == RT_OK, "saved by ids (%s)", err.msg);
    ok(rt_session_add_packages(b, named, n, &err) == RT_OK, "the same packages by name saved (%s)", err.msg);
    ok(all_by_id(ops, n, ws) && rt_strtab_count(ws->qids) == nq && rt_strtab_count(ws->pids) == np,
       "saving them made no text form and interned nothing");
    size_t nl = 0;
    char **lines = file_lines(rt_journal_path(a->journal), &nl);
    int right = nl == n;
    for (size_t i = 0; right && i < n; i++)
        right = line_names_package(lines[i], &ops[i], &named[i], ws);
    ok(right, "each journal line names its pairs through the tables, byte for byte the line by name (%zu lines)", nl);
    for (size_t i = 0; i < nl; i++)
        free(lines[i]);
    free(lines);

    char *by_ids = dump_packages(a->annot, ws), *by_names = dump_packages(b->annot, ws);
    ok(by_ids[0] && !strcmp(by_ids, by_names), "applied, the same state as the packages by name give");
    const rt_package *p1 = rt_annot_package(a->annot, "t-001");
    ok(p1 && p1->n == ops[0].nqids && !memcmp(p1->qids, ops[0].id.qids, p1->n * sizeof *p1->qids) &&
           !memcmp(p1->pids, ops[0].id.pids, p1->n * sizeof *p1->pids),
       "t-001 holds the ids it was made with");

    /* the team sees their names taken (cmd_package's names_taken, the UI's check) */
    rt_op *again = NULL;
    size_t m = 0, owner = (size_t)-1;
    rt_team *team = NULL;
    if (ok(rt_package_make(ws, &plan, &again, &m, &err) == RT_OK &&
               rt_team_open(&team, ws, a, 1, a->journal_dir, NULL, 0, &err) == RT_OK,
           "the same plan again, and the team (%s)", err.msg)) {
        const char *taken = rt_package_name_taken(team, again, m, &owner);
        ok(taken && !strcmp(taken, "t-001") && owner < team->n && !strcmp(team->m[owner].name, "lead"),
           "its names are taken, in lead's journal (%s)", taken ? taken : "none");
    }
    rt_team_free(&team);
    free_ops(again, m);

    /* an id the workspace lacks: refused by the session's check, nothing written */
    rt_op bad = {.kind = RT_OP_PACKAGE, .by_id = 1, .id = {.qid = RT_NO_ID, .pid = RT_NO_ID}, .has_list = 1,
                 .name = S("t-bad"), .text = S("alice"), .nqids = 1};
    bad.id.qids = calloc(2, sizeof *bad.id.qids);
    bad.id.pids = calloc(2, sizeof *bad.id.pids);
    bad.id.qids[0] = nq + 5;
    bad.id.pids[0] = ops[0].id.pids[0];
    size_t before = 0, after = 0;
    free(get_file(rt_journal_path(a->journal), &before));
    ok(rt_session_add_packages(a, &bad, 1, &err) == RT_EUSAGE && strstr(err.msg, "unknown query \"#"),
       "a package by an id outside the table is refused, naming the id (%s)", err.msg);
    bad.id.qids[0] = ops[0].id.qids[0];
    bad.id.pids[0] = np + 9;
    ok(rt_session_add_packages(a, &bad, 1, &err) == RT_EUSAGE && strstr(err.msg, "unknown passage \"#"),
       "so is one by a passage id outside it (%s)", err.msg);
    free(get_file(rt_journal_path(a->journal), &after));
    ok(before && after == before && !rt_annot_package(a->annot, "t-bad"), "and nothing was written or applied");
    rt_op_clear(&bad);
    rt_session_close(&a);
    rt_session_close(&b);

    rt_session *r;
    if (ok(rt_session_open_state(&r, ws, P("pk-id"), "lead", &err) == RT_OK, "the journal opens again")) {
        char *back = dump_packages(r->annot, ws);
        ok(!strcmp(back, by_ids) && !r->foreign[0] && !r->foreign[1] && rt_strtab_count(ws->pids) == np,
           "read back: the same packages under the same ids, nothing foreign, nothing interned");
        free(back);
        rt_session_close(&r);
    }
    free(by_ids);
    free(by_names);
    free_ops(ops, n);
    free_ops(named, n);
}

/* A workspace of 100 queries, each ranking 10 passages of its own (1,000 pairs at depth 10). */
static rt_workspace *open_thousand(void)
{
    size_t cap = 1 << 16;
    char *qs = calloc(1, cap), *run = calloc(1, cap);
    size_t ql = 0, rl = 0;
    for (int q = 0; q < 100; q++) {
        ql += (size_t)snprintf(qs + ql, cap - ql, "bq%03d\tquery %d\n", q, q);
        for (int k = 0; k < 10; k++)
            rl += (size_t)snprintf(run + rl, cap - rl, "bq%03d Q0 bp%03d%02d %d %d.0 big\n", q, q, k, k + 1, 20 - k);
    }
    put_text(P("big.queries"), qs);
    put_text(P("big.trec"), run);
    put_text(P("big.qrels"), "bq000 0 bp00000 1\n");
    free(qs);
    free(run);
    char queries[512], qrels[512], r[512];
    snprintf(queries, sizeof queries, "%s", P("big.queries"));
    snprintf(qrels, sizeof qrels, "%s", P("big.qrels"));
    snprintf(r, sizeof r, "%s", P("big.trec"));
    const char *runs[] = {r};
    rt_ws_spec spec = {.name = "big", .queries = queries, .qrels = qrels, .run_paths = runs, .nruns = 1, .level = 1};
    rt_workspace *ws = NULL;
    rt_err err = {0};
    if (rt_workspace_open(&ws, &spec, NULL, &err) != RT_OK)
        printf("#   big workspace: %s\n", err.msg);
    return ws;
}

/* Packages of 1,000 pairs are made, saved and applied without interning a string: the tables'
 * counts stay, and every op is by ids. */
static void test_thousand_pairs(void)
{
    rt_workspace *ws = open_thousand();
    if (!ok(ws != NULL, "a workspace of 100 queries × 10 passages"))
        return;
    uint32_t nq = rt_strtab_count(ws->qids), np = rt_strtab_count(ws->pids);
    char *to[] = {"alice"};
    rt_package_plan one = {.depth = 10, .seed = 1, .annotators = to, .nannotators = 1, .prefix = "big"};
    rt_op *ops = NULL;
    size_t n = 0;
    rt_err err = {0};
    rt_status st = rt_package_make(ws, &one, &ops, &n, &err);
    ok(st == RT_OK && n == 1 && ops[0].nqids == 1000, "one package of 1,000 pairs (%zu packages, %zu pairs)", n,
       n ? ops[0].nqids : 0);
    ok(all_by_id(ops, n, ws) && rt_strtab_count(ws->qids) == nq && rt_strtab_count(ws->pids) == np,
       "by ids, with no interning (%u queries, %u passages)", rt_strtab_count(ws->qids), rt_strtab_count(ws->pids));
    rt_session *s;
    if (ok(rt_session_open(&s, ws, P("big-j"), "lead", 0, &err) == RT_OK, "a session (%s)", err.msg)) {
        ok(rt_session_add_packages(s, ops, n, &err) == RT_OK && all_by_id(ops, n, ws) &&
               rt_strtab_count(ws->qids) == nq && rt_strtab_count(ws->pids) == np,
           "saved and applied without interning either (%s)", err.msg);
        const rt_package *p = rt_annot_package(s->annot, "big-001");
        ok(p && p->n == 1000 && ops[0].id.pids && !memcmp(p->pids, ops[0].id.pids, 1000 * sizeof *p->pids),
           "the state holds its 1,000 pairs by the same ids");
        rt_session_close(&s);
    }
    free_ops(ops, n);
    rt_package_plan tens = one;
    tens.size = 100;
    tens.prefix = "ten";
    st = rt_package_make(ws, &tens, &ops, &n, &err);
    ok(st == RT_OK && n == 10 && all_by_id(ops, n, ws) && rt_strtab_count(ws->pids) == np,
       "as ten packages of 100: all by ids, nothing interned (%zu)", n);
    free_ops(ops, n);
    if (ok(rt_session_open_state(&s, ws, P("big-j"), "lead", &err) == RT_OK, "read back")) {
        const rt_package *p = rt_annot_package(s->annot, "big-001");
        ok(p && p->n == 1000 && rt_strtab_count(ws->pids) == np && !s->foreign[0] && !s->foreign[1],
           "the 1,000 pairs replay under the workspace's ids, nothing interned");
        rt_session_close(&s);
    }
    rt_workspace_free(&ws);
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
        test_packages_by_id(ws);
    }
    rt_workspace_free(&ws);
    rt_workspace_free(&rev);
    test_thousand_pairs();
    return fixture_end();
}
