#!/bin/sh
# outputs.sh — what an output (-o, the workbench's :export) may write (issue 33):
#  a. never over what retriage reads or keeps: a journal, its lock, another NAME.jsonl in a
#     journal folder, a file whose journal lock is held, the base qrels, a run given to pool, the
#     workspace file, the collection through a hard link, a file through a symlinked folder, a
#     cache (.rtws, .rtidx, the cache folder), from every command with -o and from the
#     workbench's :export, :snapshot and --key-times; each exit 2, the file byte-identical (or still absent);
#  b. JSON ids are strings: 19-digit qids that one double cannot tell apart, "+5", run names and
#     annotators that look like numbers, in every JSON export;
#  c. a write error names the file (or standard output) and the reason, for every command.
. "$SRCDIR/tests/lib.sh"
export LC_ALL=C.UTF-8
D=$TMPD
[ -f "$SRCDIR/data/demo/workspace.json" ] || skip_all "data/demo is missing"
DEMO=$(cd "$SRCDIR/data/demo" && pwd)   # the test changes folders
export XDG_CACHE_HOME="$D/cache"
# A copy of the demo: a refusal that failed would replace these files, never the sources.
mkdir "$D/ws" "$D/saved"
cp -R "$DEMO/." "$D/ws/"
W=$D/ws
rm -rf "$W/annotations"

# refused NAME TARGET ARGS… — retriage ARGS exits 2 naming TARGET, and TARGET is as it was:
# byte-identical to its copy made before, or still absent. HOLD set: run while flock(1) holds a
# lock on that file, as a workbench open on a journal holds its lock.
refused() {
    _name=$1 _t=$2
    shift 2
    if [ -e "$_t" ]; then cp "$_t" "$D/saved/before"; else rm -f "$D/saved/before"; fi
    if [ -n "${HOLD:-}" ]; then
        flock "$HOLD" "$RETRIAGE" "$@" >"$D/out" 2>"$D/err"
    else
        "$RETRIAGE" "$@" >"$D/out" 2>"$D/err"
    fi
    rc=$?
    _st=0
    [ "$rc" -eq 2 ] || _st=1
    crashed && _st=1
    grep -Fq -- "$_t: will not write" "$D/err" || _st=1
    if [ -e "$D/saved/before" ]; then cmp -s "$_t" "$D/saved/before" || _st=1; else [ -e "$_t" ] && _st=1; fi
    report $_st "$_name: exit 2, named, untouched"
}

# ---- a. targets that are inputs, journals, locks or caches ---------------------------------------
printf 'q01 0 p0008 0\nq02 0 p0046 1\n' >"$D/j.trec"
"$RETRIAGE" import "$W/workspace.json" --annotator ann_b --judgments "$D/j.trec" >/dev/null 2>&1
printf 'q01 0 p0008 1\nq02 0 p0046 1\n' >"$D/j2.trec"
"$RETRIAGE" import "$W/workspace.json" --annotator carol --judgments "$D/j2.trec" >/dev/null 2>&1
[ -s "$W/annotations/ann_b.jsonl" ] && [ -s "$W/annotations/carol.jsonl" ]
ok $? "setup: ann_b's and carol's journals hold the imported operations"
EX="export $W/workspace.json --annotator ann_b --what tags --format json"
cd "$D" || exit 1

# shellcheck disable=SC2086
refused "-o ann_b's own journal" "$W/annotations/ann_b.jsonl" $EX -o "$W/annotations/ann_b.jsonl"
# shellcheck disable=SC2086
refused "-o another annotator's journal, spelled ./" "./ws/annotations/ann_b.jsonl" \
    export "$W/workspace.json" --annotator dora --what tags -o ./ws/annotations/ann_b.jsonl
# shellcheck disable=SC2086
refused "-o a new NAME.jsonl in the journal folder" "$W/annotations/zed.jsonl" $EX -o "$W/annotations/zed.jsonl"
cp "$W/annotations/ann_b.jsonl" "$D/backup.txt"
# shellcheck disable=SC2086
refused "-o a copy of a journal under another name" "$D/backup.txt" $EX -o "$D/backup.txt"
if command -v flock >/dev/null 2>&1; then
    # flock(1) holds the lock as a workbench open on the journal does, for as long as the export runs
    HOLD=$W/annotations/ann_b.jsonl.lock
    : >"$HOLD"
    # shellcheck disable=SC2086
    refused "-o a journal lock held by another process" "$HOLD" $EX -o "$HOLD"
    echo notes >"$D/notes.txt"
    HOLD=$D/notes.txt.lock
    : >"$HOLD"
    # shellcheck disable=SC2086
    refused "-o a file whose NAME.lock another process holds" "$D/notes.txt" $EX -o "$D/notes.txt"
    rm -f "$D/notes.txt.lock"
    HOLD=$D/notes.txt
    # shellcheck disable=SC2086
    refused "-o a file another process holds a lock on" "$D/notes.txt" $EX -o "$D/notes.txt"
    HOLD=
    rm -f "$W/annotations/ann_b.jsonl.lock"
else
    tap_n=$((tap_n + 3))
    echo "ok $((tap_n - 2)) # SKIP flock(1) is not installed"
    echo "ok $((tap_n - 1)) # SKIP flock(1) is not installed"
    echo "ok $tap_n # SKIP flock(1) is not installed"
fi
: >"$W/annotations/dave.jsonl.lock"
# shellcheck disable=SC2086
refused "-o a journal's lock file nobody holds" "$W/annotations/dave.jsonl.lock" $EX -o "$W/annotations/dave.jsonl.lock"
rm -f "$W/annotations/dave.jsonl.lock"

# shellcheck disable=SC2086
refused "export -o the base qrels" "$W/qrels.trec" $EX -o "$W/qrels.trec"
# shellcheck disable=SC2086
refused "export -o the workspace file" "$W/workspace.json" $EX -o "$W/workspace.json"
# shellcheck disable=SC2086
refused "export -o the queries, spelled through .." "$W/runs/../queries.tsv" $EX -o "$W/runs/../queries.tsv"
# shellcheck disable=SC2086
refused "export -o the answers" "$W/answers.jsonl" $EX -o "$W/answers.jsonl"
# shellcheck disable=SC2086
refused "export -o the leakage training queries" "$W/train_queries.tsv" $EX -o "$W/train_queries.tsv"
ln "$W/collection.tsv" "$D/coll.link"
# shellcheck disable=SC2086
refused "export -o a hard link to the collection" "$D/coll.link" $EX -o "$D/coll.link"
cmp -s "$W/collection.tsv" "$DEMO/collection.tsv"
ok $? "and the collection itself is untouched"
ln -s ws "$D/wslink"
# shellcheck disable=SC2086
refused "export -o the qrels through a symlinked folder" "$D/wslink/qrels.trec" $EX -o "$D/wslink/qrels.trec"
refused "export --qrels/--run -o a run given as a flag" "$W/runs/bm25.trec" \
    export --qrels "$W/qrels.trec" --run "$W/runs/bm25.trec" --journal-dir "$D/j2" --what metrics -o "$W/runs/bm25.trec"

refused "pool -o a run among its inputs" "$W/runs/dense.trec" \
    pool --depth 5 --qrels "$W/qrels.trec" "$W/runs/bm25.trec" "$W/runs/dense.trec" -o "$W/runs/dense.trec"
refused "pool -o a run among its inputs, spelled ./" "./ws/runs/bm25.trec" \
    pool --depth 5 "$W/runs/bm25.trec" "$W/runs/dense.trec" -o ./ws/runs/bm25.trec
refused "pool -o its qrels" "$W/qrels.trec" \
    pool --depth 5 --qrels "$W/qrels.trec" "$W/runs/bm25.trec" -o "$W/qrels.trec"
refused "compare -o a run it compares" "$W/runs/bm25.trec" \
    compare "$W/qrels.trec" "$W/runs/bm25.trec" "$W/runs/dense.trec" -Q -o "$W/runs/bm25.trec"
refused "compare --workspace -o the workspace's qrels" "$W/qrels.trec" \
    compare --workspace "$W/workspace.json" -Q -o "$W/qrels.trec"
refused "leak -o its training queries" "$W/train_queries.tsv" \
    leak --train "$W/train_queries.tsv" --test "$W/queries.tsv" -Q -o "$W/train_queries.tsv"
refused "agree -o a journal" "$W/annotations/ann_b.jsonl" \
    agree "$W/workspace.json" -o "$W/annotations/ann_b.jsonl"

# caches: a workspace cache (.rtws), a collection index (.rtidx), the cache folder
echo cache >"$D/old.rtws"
# shellcheck disable=SC2086
refused "export -o an existing .rtws" "$D/old.rtws" $EX -o "$D/old.rtws"
echo index >"$D/old.rtidx"
# shellcheck disable=SC2086
refused "export -o an existing .rtidx" "$D/old.rtidx" $EX -o "$D/old.rtidx"
# shellcheck disable=SC2086
refused "export -o a new .rtws" "$D/new.rtws" $EX -o "$D/new.rtws"
mkdir -p "$D/cache/retriage/index"
# shellcheck disable=SC2086
refused "export -o a file in the cache folder" "$D/cache/retriage/index/mine.tsv" $EX -o "$D/cache/retriage/index/mine.tsv"

# the workbench's :export goes through the same writer
cp "$W/annotations/ann_b.jsonl" "$D/saved/journal"
printf ':export tags json %s\n' "$W/annotations/ann_b.jsonl" >"$D/ui.script"
"$RETRIAGE" "$W/workspace.json" --annotator ann_b --size 100x30 --script "$D/ui.script" >"$D/out" 2>"$D/err"
rc=$?
st=0
[ "$rc" -eq 2 ] || st=1
crashed && st=1
grep -q "will not write" "$D/err" || st=1
cmp -s "$W/annotations/ann_b.jsonl" "$D/saved/journal" || st=1
report $st ":export over the workbench's own journal: refused, the journal byte-identical"
printf ':export qrels %s\n' "$W/qrels.trec" >"$D/ui.script"
cp "$W/qrels.trec" "$D/saved/qrels"
"$RETRIAGE" "$W/workspace.json" --annotator ann_b --size 100x30 --script "$D/ui.script" >"$D/out" 2>"$D/err"
rc=$?
st=0
[ "$rc" -eq 2 ] || st=1
cmp -s "$W/qrels.trec" "$D/saved/qrels" || st=1
report $st ":export qrels over the base qrels: refused, the qrels byte-identical"
# a facets file given as a flag to the workbench is one of its inputs too
printf 'qid\tkind\nq01\ta\n' >"$D/facets.tsv"
cp "$D/facets.tsv" "$D/saved/facets"
printf ':export metrics tsv %s\n' "$D/facets.tsv" >"$D/ui.script"
"$RETRIAGE" --queries "$W/queries.tsv" --qrels "$W/qrels.trec" --run "$W/runs/bm25.trec" --journal-dir "$D/jf" \
    --facets "$D/facets.tsv" --annotator ann_b --size 100x30 --script "$D/ui.script" >"$D/out" 2>"$D/err"
rc=$?
st=0
[ "$rc" -eq 2 ] || st=1
grep -q "the facets" "$D/err" || st=1
cmp -s "$D/facets.tsv" "$D/saved/facets" || st=1
report $st ":export over a facets file given with --facets: refused, the file byte-identical"

printf ':snapshot %s\n' "$W/queries.tsv" >"$D/ui.script"
cp "$W/queries.tsv" "$D/saved/queries"
"$RETRIAGE" "$W/workspace.json" --annotator ann_b --size 100x30 --script "$D/ui.script" >"$D/out" 2>"$D/err"
rc=$?
st=0
[ "$rc" -eq 2 ] || st=1
cmp -s "$W/queries.tsv" "$D/saved/queries" || st=1
report $st ":snapshot over the queries: refused, the queries byte-identical"
printf ':quit\n' >"$D/quit.script"
refused "the workbench's --key-times over a run" "$W/runs/dense.trec" \
    "$W/workspace.json" --annotator ann_b --size 100x30 --script "$D/quit.script" --key-times "$W/runs/dense.trec"
refused "dslabel -o a run it labels" "$W/runs/bm25.trec" \
    dslabel --answers "$W/answers.jsonl" --collection "$W/collection.tsv" --run "$W/runs/bm25.trec" -Q -o "$W/runs/bm25.trec"
refused "dslabel -o its answers" "$W/answers.jsonl" \
    dslabel --answers "$W/answers.jsonl" --collection "$W/collection.tsv" --run "$W/runs/bm25.trec" -Q -o "$W/answers.jsonl"

# what is still allowed: a new file, an old export replaced, a device
# shellcheck disable=SC2086
"$RETRIAGE" $EX -o "$D/tags.json" 2>"$D/err" && "$RETRIAGE" $EX -o "$D/tags.json" 2>>"$D/err" &&
    "$RETRIAGE" $EX -o /dev/null 2>>"$D/err" && [ -s "$D/tags.json" ]
st=$?
report $st "a new file, an earlier export and /dev/null are written"
# a workspace file given as a named pipe: read once by the open; the guard does not wait on it
mkfifo "$W/piped.json"
timeout 30 sh -c 'cat "$1" > "$2"' sh "$W/workspace.json" "$W/piped.json" &
feeder=$!
timeout 30 "$RETRIAGE" export "$W/piped.json" --what metrics -o "$D/piped.tsv" >"$D/out" 2>"$D/err"
rc=$?
wait $feeder
rm -f "$W/piped.json"
[ $rc -eq 0 ] && [ -s "$D/piped.tsv" ]
report $? "a workspace file that is a named pipe: exported (exit $rc), the guard does not wait on the pipe"

# ---- b. ids in JSON are strings ----------------------------------------------------------------
mkdir "$D/ids"
cd "$D/ids" || exit 1
printf '1234567890123456789 0 17 1\n1234567890123456788 0 18 1\n+5 0 19 1\n' >q.trec
printf '1234567890123456789 Q0 17 1 2.0 x\n1234567890123456788 Q0 99 1 2.0 x\n+5 Q0 19 1 1.0 x\n' >r.trec
printf '1234567890123456789 Q0 18 1 2.0 y\n1234567890123456788 Q0 18 1 2.0 y\n+5 Q0 19 1 1.0 y\n' >s.trec
printf 'annotator\tqid\tpid\tgrade\n42\t1234567890123456788\t99\t1\n42\t+5\t19\t0\n7\t+5\t19\t1\n' >judg.tsv
printf 'qid\tpid\tcategory\n1234567890123456789\t17\t1\n+5\t-\t2\n' >tags.tsv
IDWS="--qrels q.trec --run 007=r.trec --run +5=s.trec --journal-dir j"
# shellcheck disable=SC2086
"$RETRIAGE" import $IDWS --annotator 42 --judgments judg.tsv --tags tags.tsv >/dev/null 2>"$D/err"
ok $? "setup: judgments and tags on numeric-looking ids imported as annotator 42"
if [ -n "$PYTHON3" ]; then
    # every export first; then one python3 checks them all (a python3 start is not cheap), one
    # result line each ("0 NAME" or "1 NAME: why"), and ok reports them in order
    # shellcheck disable=SC2086
    {
        "$RETRIAGE" export $IDWS --annotator 42 --what per-query --format json -o pq.json
        "$RETRIAGE" export $IDWS --annotator 42 --what metrics --format json -o m.json
        "$RETRIAGE" export $IDWS --annotator 42 --what qrels-diff --format json -o d.json
        "$RETRIAGE" export $IDWS --annotator 42 --what tags --format json -o t.json
        "$RETRIAGE" export $IDWS --annotator 42 --what breakdown --format json -o b.json
        # 42 and 7 judged (+5, 19) differently: a dispute of the team
        "$RETRIAGE" export $IDWS --team --what disputes --format json -o disp.json
        "$RETRIAGE" eval q.trec 007=r.trec --format json -q >e.json
        "$RETRIAGE" compare q.trec 007=r.trec +5=s.trec --format json -Q -o c.json
        "$RETRIAGE" agree $IDWS --format json -o a.json || "$RETRIAGE" agree $IDWS --format json >a.json
    } 2>"$D/err"
    "$PYTHON3" - <<'EOF' >"$D/py" 2>&1
import json
QIDS = {"1234567890123456789", "1234567890123456788", "+5"}
def ids_are_strings(f, *keys):
    """every object's KEY fields are JSON strings, and the qids seen are among the three written"""
    doc = json.load(open(f))
    rows = doc if isinstance(doc, list) else []
    if isinstance(doc, dict):   # eval: runs[].per_query is keyed by qid
        for r in doc["runs"]:
            rows.append({"run": r["run"]})
            rows += [{"qid": q} for q in r["per_query"]]
    assert rows, "no rows"
    qids = set()
    for row in rows:
        for k in keys:
            if k in row:
                assert isinstance(row[k], str), "%s is %r" % (k, row[k])
                if k in ("qid", "test_qid"):
                    qids.add(row[k])
    assert not qids or qids <= QIDS, qids
def dispute():
    d = json.load(open("disp.json"))
    assert [(r["qid"], r["pid"]) for r in d] == [("+5", "19")], d
def annotators():
    d = json.load(open("a.json"))
    assert all(isinstance(x, str) for x in d["annotators"]), d["annotators"]
def three_qids():
    assert {r["qid"] for r in json.load(open("pq.json"))} == QIDS
checks = [
    ("export per-query JSON: qid and run are strings (19 digits, +5, 007)", lambda: ids_are_strings("pq.json", "qid", "run")),
    ("export metrics JSON: run names are strings", lambda: ids_are_strings("m.json", "run")),
    ("export qrels-diff JSON: qid, pid and author are strings", lambda: ids_are_strings("d.json", "qid", "pid", "author")),
    ("export tags JSON: qid, pid, category and author are strings", lambda: ids_are_strings("t.json", "qid", "pid", "category", "author")),
    ("export breakdown JSON: group and category are strings", lambda: ids_are_strings("b.json", "group", "category")),
    ("export --team disputes JSON: qid and pid are strings", lambda: ids_are_strings("disp.json", "qid", "pid")),
    ("the dispute is on (+5, 19), spelled as in the files", dispute),
    ("eval JSON: run and per-query qids are strings", lambda: ids_are_strings("e.json", "qid", "run")),
    ("compare JSON: the runs a and b are strings", lambda: ids_are_strings("c.json", "a", "b")),
    ("agree JSON: the annotator 42 is a string", annotators),
    ("per-query JSON read back by python: three distinct qids, +5 kept", three_qids),
]
for name, check in checks:
    try:
        check()
        print("0 " + name)
    except Exception as e:
        print("1 %s: %r" % (name, e))
EOF
    n=0
    while read -r st name; do
        n=$((n + 1))
        [ "$st" = 0 ] && ok 0 "$name" || { ok 1 "${name%%: *}"; echo "$name" | diag; }
    done <"$D/py"
    [ $n -eq 11 ] || { ok 1 "the JSON checks ran ($n of 11)"; diag <"$D/py"; diag <"$D/err"; }
else
    tap_n=$((tap_n + 1))
    echo "ok $tap_n # SKIP python3 is not installed"
fi
cd "$D" || exit 1

# ---- c. write errors name the file and the reason ------------------------------------------------
# fails_full NAME ARGS… — the command writing to /dev/full: exit 2, "FILE: … No space left on
# device" on stderr, FILE being /dev/full with -o and "standard output" without.
fails_full() {
    _name=$1
    shift
    "$RETRIAGE" "$@" -o /dev/full >"$D/out" 2>"$D/err"
    rc=$?
    _st=0
    [ "$rc" -eq 2 ] || _st=1
    crashed && _st=1
    grep -Eq '^retriage: /dev/full: .*No space left on device' "$D/err" || _st=1
    report $_st "$_name -o /dev/full: exit 2, the file and the reason named"
    "$RETRIAGE" "$@" >/dev/full 2>"$D/err"
    rc=$?
    _st=0
    [ "$rc" -eq 2 ] || _st=1
    crashed && _st=1
    grep -Eq '^retriage: standard output: .*No space left on device' "$D/err" || _st=1
    report $_st "$_name >/dev/full: exit 2, standard output and the reason named"
}
# a fresh copy with journals of its own: nothing part a did can matter here
mkdir "$D/ws2"
cp -R "$DEMO/." "$D/ws2/"
W=$D/ws2
rm -rf "$W/annotations"
"$RETRIAGE" import "$W/workspace.json" --annotator ann_b --judgments "$D/j.trec" >/dev/null 2>&1
"$RETRIAGE" import "$W/workspace.json" --annotator carol --judgments "$D/j2.trec" >/dev/null 2>&1
if [ -w /dev/full ]; then
    for what in per-query metrics tags breakdown qrels qrels-diff; do
        for fmt in json tsv; do
            [ "$what" = qrels ] && fmt=trec
            fails_full "export --what $what --format $fmt" export "$W/workspace.json" --annotator ann_b --what "$what" --format "$fmt"
            [ "$what" = qrels ] && break
        done
    done
    fails_full "export --what figure-hist (SVG)" export "$W/workspace.json" --what figure-hist
    fails_full "pool" pool --depth 50 --qrels "$W/qrels.trec" "$W/runs/bm25.trec" "$W/runs/dense.trec" -Q
    fails_full "compare" compare "$W/qrels.trec" "$W/runs/bm25.trec" "$W/runs/dense.trec" -Q --format json
    fails_full "leak" leak --train "$W/train_queries.tsv" --test "$W/queries.tsv" -Q
    fails_full "agree" agree "$W/workspace.json" --format json
    "$RETRIAGE" eval "$W/qrels.trec" "$W/runs/bm25.trec" "$W/runs/dense.trec" -q --format json >/dev/full 2>"$D/err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -Eq '^retriage: standard output: .*No space left on device' "$D/err"
    report $? "eval >/dev/full: exit 2, standard output and the reason named"
else
    tap_n=$((tap_n + 1))
    echo "ok $tap_n # SKIP /dev/full is not writable here"
fi

# -o "" (an unset variable, say): a usage error that says so, not "retriage: : cannot write"
D=$TMPD fails 1 'retriage: the output file name is empty' "-o '': a usage error saying the name is empty (was ': cannot write')" \
    export --demo --journal-dir "$TMPD/jempty" --what metrics -o ""

done_testing
