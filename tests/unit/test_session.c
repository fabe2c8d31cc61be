/* test_session — the annotation state through sessions (rt_session, rt_annot) on a tiny workspace:
 * every change, refusals, undo/redo, the same state and history after replay. */
#include "config.h"

#include "journal_fixture.h"
#include "rt_mem.h"
#include "rt_names.h"
#include "rt_package.h"

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
    {   /* a change already so says what is, and is told apart from a change that cannot be */
        rt_err e = {0};
        rt_op op = op_label("q1", "p02", 1, 1);
        ok(rt_session_check(s, &op, &e) == RT_EUSAGE && e.what == RT_ERR_NOOP &&
           streq(e.msg, "q1 p02 already labelled 1: nothing to change"), "a noop: RT_ERR_NOOP, what is so (%s)", e.msg);
        rt_op_clear(&op);
        op = op_cat(RT_OP_UNTAG, "q1", "p03", "overlap");
        ok(rt_session_check(s, &op, &e) == RT_EUSAGE && e.what == RT_ERR_NOOP &&
           strstr(e.msg, "q1 p03 not tagged "), "an untag of no tag: RT_ERR_NOOP (%s)", e.msg);
        rt_op_clear(&op);
        op = op_label("q1", "p03", 1, 2);
        ok(rt_session_check(s, &op, &e) == RT_EUSAGE && e.what == 0, "a grade out of range is no noop");
        rt_op_clear(&op);
    }

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

/* Issue 33: a journal whose seq reaches 2^53. The operation numbered 2^53 is written as digits and
 * reads back; the next is refused with a clear error and nothing written (it used to be written
 * as 9.00719925474099e+15, rejected on the next open, lost, and the journal turned read-only). */
static void test_seq_limit(rt_workspace *ws)
{
    const char *dir = P("seqmax");
    mkdir(dir, 0700);
    char path[600];
    snprintf(path, sizeof path, "%s/ann.jsonl", dir);
    put_text(path, "{\"seq\":9007199254740991,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"ann\","
                   "\"op\":\"label\",\"qid\":\"q1\",\"pid\":\"p09\",\"grade\":1}\n");
    rt_session *s = NULL;
    rt_err err = {0};
    if (!ok(rt_session_open(&s, ws, dir, "ann", 0, &err) == RT_OK && !rt_session_readonly(s),
            "a journal at seq 2^53 - 1 opens to write (%s)", err.msg))
        return;
    ok(rt_session_label(s, "q1", "p10", 1, 1, &err) == RT_OK, "operation 2^53 is written (%s)", err.msg);
    size_t len;
    char *text = get_file(path, &len);
    ok(text && strstr(text, "{\"seq\":9007199254740992,"), "its seq is written as an integer, digit for digit");
    ok(rt_session_label(s, "q1", "p11", 1, 1, &err) == RT_EINPUT && strstr(err.msg, "ann.jsonl") &&
           strstr(err.msg, "nothing was written"),
       "the next is refused: its seq would not read back (%s)", err.msg);
    size_t len2;
    char *text2 = get_file(path, &len2);
    ok(text && text2 && len2 == len && memcmp(text, text2, len) == 0, "and the journal is as it was");
    ok(grade_now(s, "q1", "p11", NULL) == -99, "the refused change is not applied either");
    free(text);
    free(text2);
    rt_session_close(&s);
    size_t before = rt_report_count(ws->report), warnings = 0;
    int opened = rt_session_open(&s, ws, dir, "ann", 0, &err) == RT_OK;
    for (size_t i = before; i < rt_report_count(ws->report); i++) {
        rt_report_kind k;
        const char *line = rt_report_line(ws->report, i, &k);
        if (k == RT_REPORT_WARNING && ++warnings)
            printf("#   %s\n", line);
    }
    ok(opened && rt_annot_nops(s->annot) == 2 && grade_now(s, "q1", "p10", NULL) == 1 && !warnings &&
           !rt_session_readonly(s),
       "reopened: both operations read back, no warning, nothing lost, still writable");
    rt_op op = {.kind = RT_OP_PACKAGE, .seq = 123456789012345678ull, .name = "p", .text = "ann", .seed = (1ull << 52) + 1,
                .sample = 3};
    char *line = rt_op_to_json(&op);
    ok(line && strstr(line, "\"seq\":123456789012345678,") && strstr(line, "\"seed\":4503599627370497,"),
       "every whole number of an operation is written as digits");
    free(line);
    rt_session_close(&s);
}

/* Issue 33: names with spaces of other widths or invisible characters around them made a second
 * "alice"; bidi controls were accepted inside. One rule (rt_name_problem) for annotators, packages,
 * package prefixes, query sets and runs. */
static void test_names(rt_workspace *ws)
{
    static const char *const bad[] = {
        "alice\xe2\x80\x82", "alice\xe2\x80\x83", "alice\xe2\x80\xaf", "alice\xe2\x80\x8b", "\xef\xbb\xbf" "alice",
        " alice", "alice\xc2\xa0", "\xe3\x80\x80" "alice", "alice\xe2\x80\xa8", "\xe2\x80\x8d" "alice",
        "al\xe2\x80\xaeice", "al\xe2\x81\xa6ice", "al\xe2\x80\x8fice", "al\xd8\x9cice", "a\tb", "a\xc2\x85" "b",
        "al\xffice", ""};
    int all = 1;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (!rt_name_problem(bad[i]) || !rt_journal_name_problem(bad[i])) {
            printf("#   accepted: bad name %zu\n", i);
            all = 0;
        }
    ok(all, "U+2002, U+2003, U+202F, U+200B, U+FEFF, spaces, U+2028, ZWJ at an end, bidi controls inside, "
            "controls, bad UTF-8 and the empty name are refused");
    static const char *const good[] = {"alice", "李雷", "a b", "al\xe2\x80\x8bice", "rev-1", "\xd9\x85\xd8\xb1\xd9\x8a\xd9\x85"};
    all = 1;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        all &= rt_name_problem(good[i]) == NULL;
    ok(all, "plain names, Chinese, an inner space or U+200B, Arabic letters are names");
    ok(strstr(rt_name_problem("alice\xe2\x80\x82"), "spaces around") && strstr(rt_name_problem("al\xe2\x80\xaeice"), "bidirectional"),
       "the reasons say what is wrong");

    rt_session *s = NULL;
    rt_err err = {0};
    if (!ok(rt_session_open(&s, ws, P("names"), "ann", 0, &err) == RT_OK, "a session"))
        return;
    rt_change ch;
    uint32_t q1 = QID(s, "q1");
    ok(rt_session_save_set(s, "hard\xe2\x80\x8b", &q1, 1, "by hand", &ch, &err) == RT_EUSAGE &&
           strstr(err.msg, "query set name"),
       "a query set named with U+200B at its end is refused (%s)", err.msg);
    ok(rt_session_save_set(s, "hard", &q1, 1, "by hand", &ch, &err) == RT_OK, "its plain name is taken");
    char *to[] = {"bob\xe2\x80\x83"};
    rt_package_plan plan = {.depth = 2, .size = 10, .sample = 1, .annotators = to, .nannotators = 1};
    rt_op *ops = NULL;
    size_t n = 0;
    ok(rt_package_make(ws, &plan, &ops, &n, &err) == RT_EUSAGE && n == 0 && strstr(err.msg, "cannot name an annotator"),
       "packages for \"bob\" + U+2003 are refused (%s)", err.msg);
    to[0] = "bob";
    plan.prefix = "p\xe2\x81\xa7x";
    ok(rt_package_make(ws, &plan, &ops, &n, &err) == RT_EUSAGE && n == 0 && strstr(err.msg, "package prefix"),
       "a package prefix holding U+2067 (a bidi isolate) is refused (%s)", err.msg);
    plan.prefix = NULL;
    if (ok(rt_package_make(ws, &plan, &ops, &n, &err) == RT_OK && n > 0, "with plain names: packages")) {
        free(ops[0].name);
        ops[0].name = rt_strdup("pkg\xef\xbb\xbf");
        ok(rt_session_add_packages(s, ops, n, &err) == RT_EUSAGE && strstr(err.msg, "package name"),
           "a package operation whose name ends in U+FEFF is refused by the session too (%s)", err.msg);
        for (size_t i = 0; i < n; i++)
            rt_op_clear(&ops[i]);
    }
    free(ops);
    rt_session_close(&s);
    rt_session *twin = NULL;
    ok(rt_session_open(&twin, ws, P("names"), "ann\xe2\x80\x82", 0, &err) == RT_EUSAGE && !twin,
       "no journal opens for \"ann\" + U+2002 (%s)", err.msg);
}

/* Issue 33: a journal of another workspace. Its operations on queries and passages this one
 * lacks are kept in the journal and applied to nothing: no id is interned (means would be taken
 * over more queries), no state holds them; the others apply; the open says how many. */
static void test_foreign(rt_workspace *ws)
{
    const char *dir = P("foreign");
    mkdir(dir, 0700);
    char path[600];
    snprintf(path, sizeof path, "%s/zed.jsonl", dir);
    put_text(path, "{\"seq\":1,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"zed\",\"op\":\"label\",\"qid\":\"q1\",\"pid\":\"p10\",\"grade\":1}\n"
                   "{\"seq\":2,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"zed\",\"op\":\"label\",\"qid\":\"elsewhere-1\",\"pid\":\"p01\",\"grade\":1}\n"
                   "{\"seq\":3,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"zed\",\"op\":\"tag\",\"qid\":\"q1\",\"pid\":\"elsewhere-p\",\"cat\":\"typo\"}\n"
                   "{\"seq\":4,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"zed\",\"op\":\"set\",\"name\":\"mixed\",\"qids\":[\"q1\",\"elsewhere-2\"],\"text\":\"\"}\n"
                   "{\"seq\":5,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"zed\",\"op\":\"label\",\"qid\":\"elsewhere-1\",\"pid\":\"p01\",\"grade\":0,\"undo\":2}\n");
    uint32_t nq = rt_strtab_count(ws->qids), np = rt_strtab_count(ws->pids);
    size_t before = rt_report_count(ws->report);
    rt_session *s = NULL;
    rt_err err = {0};
    if (!ok(rt_session_open(&s, ws, dir, "zed", 0, &err) == RT_OK, "a journal of another workspace opens (%s)", err.msg))
        return;
    ok(rt_strtab_count(ws->qids) == nq && rt_strtab_count(ws->pids) == np, "none of its ids is interned");
    ok(rt_annot_nops(s->annot) == 1 && grade_now(s, "q1", "p10", NULL) == 1 && !rt_annot_set(s->annot, "mixed") &&
           rt_annot_ntagged(s->annot) == 0,
       "its one operation on this workspace's pair applies; the others (and their undo) apply to nothing");
    int said_q = 0, said_p = 0;
    for (size_t i = before; i < rt_report_count(ws->report); i++) {
        const char *line = rt_report_line(ws->report, i, NULL);
        said_q |= strstr(line, "3 operations name queries") && strstr(line, "line 2: query \"elsewhere-1\"") != NULL;
        said_p |= strstr(line, "1 operation names passages") && strstr(line, "passage \"elsewhere-p\"") != NULL;
    }
    ok(said_q && said_p, "the open says how many name unknown queries, and unknown passages, naming the first");
    ok(!rt_session_readonly(s), "they do not make the journal read-only: they are no bad lines");
    rt_session_close(&s);
    size_t len;
    char *text = get_file(path, &len);
    ok(text && strstr(text, "elsewhere-1") && strstr(text, "elsewhere-p"), "and they are still in the journal");
    free(text);
}

int main(void)
{
    if (!fixture_begin())
        return 2;
    write_inputs();
    rt_workspace *ws = open_ws(0, NULL), *graded = open_ws(1, NULL);
    if (ok(ws && graded, "the tiny workspaces open")) {
        test_session_changes(ws);
        test_session_grades(graded);
        test_undo_redo(ws);
        test_undo_each_kind(ws);
        test_seq_limit(ws);
        test_names(ws);
        test_foreign(ws);
    }
    rt_workspace_free(&ws);
    rt_workspace_free(&graded);
    return fixture_end();
}
