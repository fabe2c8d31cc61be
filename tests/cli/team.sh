#!/bin/sh
# team.sh — several annotators: `retriage import` (judgments and tags into each annotator's
# journal, all or nothing, file:line errors, safe against kills and locks) and `retriage agree`
# (hand-computed kappas on a tiny workspace, undefined kappas said as such, and every figure of
# ../shared/data/agreement/expected.json to 1e-9).
# shellcheck disable=SC2086 # (the workspaces' options are split where used)
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache"
J="$D/j"
# The workspaces' options are plain strings, split where used: the test's own paths (from mktemp)
# hold no blanks.
# exists PATH… — the first PATH is there (a glob matched); nfiles N PATH… — a glob matched N files
# (no ls | grep: two processes)
exists() { [ -e "$1" ] || [ -L "$1" ]; }
nfiles() { n_=$1; shift; exists "$1" || set --; [ $# -eq "$n_" ]; }

# a tiny workspace: q1 ranks p1 p2, q2 ranks p3 p4; base: q1 p1 relevant, q2 p3 not
printf 'q1\tfirst\nq2\tsecond\n' > "$D/queries.tsv"
printf 'q1 0 p1 1\nq2 0 p3 0\n' > "$D/qrels"
printf 'q1 Q0 p1 1 2 r\nq1 Q0 p2 2 1 r\nq2 Q0 p3 1 2 r\nq2 Q0 p4 2 1 r\n' > "$D/run"
WS="--queries $D/queries.tsv --qrels $D/qrels --run $D/run --journal-dir $J"

printf 'annotator\tqid\tpid\tgrade\n' > "$D/j.tsv"
printf 'alice\tq1\tp1\t1\nalice\tq1\tp2\t0\nalice\tq2\tp3\t1\nalice\tq2\tp4\t0\n' >> "$D/j.tsv"
printf 'bob\tq1\tp1\t1\nbob\tq1\tp2\t1\nbob\tq2\tp3\t1\nbob\tq2\tp4\t0\n' >> "$D/j.tsv"
run import $WS --judgments "$D/j.tsv"
[ "$rc" -eq 0 ] && [ "$(wc -l < "$J/alice.jsonl")" -eq 4 ] && [ "$(wc -l < "$J/bob.jsonl")" -eq 4 ]
report $? "import: the annotator column picks each line's journal"
grep -q "\"via\":\"import $D/j.tsv:2\"" "$J/alice.jsonl" && grep -q '"author":"bob"' "$J/bob.jsonl"
report $? "import: each operation says where it came from, and whose it is"
grep -q '"pid":"p1","grade":1' "$J/alice.jsonl"; report $? "import: a judgment equal to the base is kept (the annotator's decision)"

# alice 1 0 1 0, bob 1 1 1 0: observed 3/4; chance 1/2·3/4 + 1/2·1/4 = 1/2; kappa (3/4 - 1/2) / (1/2)
run agree $WS
grep -q "^alice	bob	observed agreement	4	0.7500	$" "$D/out" &&
    grep -q "^alice	bob	relevance kappa	4	0.5000	$" "$D/out"
report $? "agree: observed agreement 0.75 and kappa 0.5, worked out by hand"
printf '{"todo":"ask bob about q2"}\n' > "$J/notes.jsonl"; cp "$J/notes.jsonl" "$D/notes.before"
run agree $WS
[ "$rc" -eq 0 ] && grep -q "^alice	bob	relevance kappa	4	0.5000	$" "$D/out" &&
    grep -q "notes.jsonl:1: not a retriage journal.*left out of the team" "$D/err" && cmp -s "$J/notes.jsonl" "$D/notes.before"
report $? "agree: a stray notes.jsonl in the journal folder is left out with a warning, not a failure"
run export $WS --team --what qrels
[ "$rc" -eq 0 ] && has_text "left out of the team" "$D/err"
report $? "export --team: the same"
# issue 33: a link, a pipe and a folder named like journals were left out without a word
ln -s alice.jsonl "$J/eve.jsonl" && mkfifo "$J/pipe.jsonl" && mkdir "$J/dir.jsonl"
run agree $WS
[ "$rc" -eq 0 ] && grep -q "^alice	bob	relevance kappa	4	0.5000	$" "$D/out" &&
    has_text "eve.jsonl: a symbolic link (retriage never follows links to journals), not a journal: left out of the team" "$D/err" &&
    has_text "pipe.jsonl: a named pipe, not a journal: left out of the team" "$D/err" &&
    has_text "dir.jsonl: a folder, not a journal: left out of the team" "$D/err"
report $? "agree: a symbolic link, a named pipe and a folder NAME.jsonl are left out, each named with what it is"
run agree $WS --annotators alice,eve
[ "$rc" -eq 1 ] && has_text "eve.jsonl: a symbolic link (retriage never follows links to journals), not a journal" "$D/err"
report $? "agree --annotators naming the link: an error that says what it is"
rm -f "$J/eve.jsonl" "$J/pipe.jsonl" && rmdir "$J/dir.jsonl"
run agree $WS --annotators alice,notes
[ "$rc" -eq 2 ] && has_text "notes.jsonl:1: not a retriage journal" "$D/err"
report $? "agree --annotators naming it: an error (exit 2)"
rm "$J/notes.jsonl"
# more annotators than the soft limit on open files allows for two descriptors each (journal
# and lock): retriage raises its soft limit towards the hard one
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -ge 512 ]; then
    # (each journal is written and synced: 50 annotators keep the test short, 100 descriptors)
    awk 'BEGIN { print "annotator\tqid\tpid\tgrade"; for (i = 0; i < 50; i++) printf "m%03d\tq1\tp1\t1\n", i }' > "$D/many.tsv"
    (ulimit -Sn 64; "$RETRIAGE" import $WS --journal-dir "$D/many" --judgments "$D/many.tsv" > "$D/out" 2> "$D/err"); rc=$?
    [ "$rc" -eq 0 ] && nfiles 50 "$D/many"/*.jsonl
    report $? "import for 50 annotators under a soft limit of 64 open files"
else
    ok 0 "# SKIP the hard limit on open files ($hard) is too low to raise the soft one"
fi
# a journal written for another workspace: its queries are not in this one's queries file
mkdir -p "$D/fj2"
{ printf '{"seq":1,"time":"2026-11-26T00:00:00.000Z","author":"x","op":"label","qid":"q1","pid":"p2","grade":1}\n'
  printf '{"seq":2,"time":"2026-11-26T00:00:01.000Z","author":"x","op":"label","qid":"q9","pid":"p1","grade":1}\n'
  printf '{"seq":3,"time":"2026-11-26T00:00:02.000Z","author":"x","op":"tag","qid":"q7","pid":"p1","cat":"typo"}\n'; } > "$D/fj2/x.jsonl"
run export $WS --journal-dir "$D/fj2" --annotator x --what qrels
[ "$rc" -eq 0 ] && grep -q 'x.jsonl: 2 operations name queries that are not in .*queries.tsv (the first, line 2: query "q9")' "$D/err"
report $? "a journal whose operations name queries the workspace lacks: a warning with the count and the first"
run export $WS --annotator alice --what qrels
[ "$rc" -eq 0 ] && ! has_text "name queries that are not in" "$D/err"
report $? "no such warning for a journal of this workspace"
# issue 33: a journal of another workspace changed this one's numbers while the warning said none
# counted it: its queries were interned (means over more queries), its annotator was a Fleiss
# judge of nothing, the team's qrels held its judgments. Every figure must be as without it.
mkdir -p "$D/fw"
T0='"time":"2026-11-26T00:00:00.000Z"'
{ printf '{"seq":1,%s,"author":"alice","op":"label","qid":"q1","pid":"p2","grade":1}\n' "$T0"
  printf '{"seq":2,%s,"author":"alice","op":"label","qid":"q2","pid":"p3","grade":1}\n' "$T0"
  printf '{"seq":3,%s,"author":"alice","op":"tag","qid":"q2","pid":"p4","cat":"entity"}\n' "$T0"; } > "$D/fw/alice.jsonl"
{ printf '{"seq":1,%s,"author":"bob","op":"label","qid":"q1","pid":"p2","grade":0}\n' "$T0"
  printf '{"seq":2,%s,"author":"bob","op":"label","qid":"q2","pid":"p3","grade":1}\n' "$T0"
  printf '{"seq":3,%s,"author":"bob","op":"tag","qid":"q2","pid":"p4","cat":"entity"}\n' "$T0"; } > "$D/fw/bob.jsonl"
FW="--queries $D/queries.tsv --qrels $D/qrels --run $D/run --journal-dir $D/fw"
figures() {  # figures SUFFIX: every figure the journals feed, into $D/fw.SUFFIX.*
    "$RETRIAGE" agree $FW > "$D/fw.$1.agree" 2> /dev/null &&
    "$RETRIAGE" agree $FW --format json > "$D/fw.$1.agreejson" 2> /dev/null &&
    "$RETRIAGE" export $FW --team --what qrels > "$D/fw.$1.tq" 2> /dev/null &&
    "$RETRIAGE" export $FW --team --what metrics > "$D/fw.$1.tm" 2> /dev/null &&
    "$RETRIAGE" export $FW --team --what tags 2> /dev/null | cut -f1-6 > "$D/fw.$1.tt" &&   # not the time
    "$RETRIAGE" export $FW --team --what disputes > "$D/fw.$1.td" 2> /dev/null &&
    "$RETRIAGE" export $FW --annotator alice --what metrics > "$D/fw.$1.am" 2> /dev/null &&
    "$RETRIAGE" export $FW --annotator alice --what per-query > "$D/fw.$1.ap" 2> /dev/null &&
    "$RETRIAGE" export $FW --annotator alice --what qrels > "$D/fw.$1.aq" 2> "$D/fw.$1.err"
}
figures before
ok $? "the figures of alice and bob"
# zed judged only queries and passages of another workspace; alice has some of those lines too
{ for q in $(seq 1 9); do printf '{"seq":%d,%s,"author":"zed","op":"label","qid":"x%d","pid":"p1","grade":1}\n' "$q" "$T0" "$q"; done
  printf '{"seq":10,%s,"author":"zed","op":"label","qid":"q1","pid":"p99","grade":1}\n' "$T0"
  printf '{"seq":11,%s,"author":"zed","op":"adjudicate","qid":"q9","pid":"p1","grade":1,"cats":null,"settles":[]}\n' "$T0"
  printf '{"seq":12,%s,"author":"zed","op":"set","name":"theirs","qids":["x1","q1"],"text":"by hand"}\n' "$T0"; } > "$D/fw/zed.jsonl"
{ printf '{"seq":4,%s,"author":"alice","op":"label","qid":"q7","pid":"p1","grade":1}\n' "$T0"
  printf '{"seq":5,%s,"author":"alice","op":"label","qid":"q1","pid":"p98","grade":1}\n' "$T0"
  printf '{"seq":6,%s,"author":"alice","op":"tag","qid":"q8","pid":"p4","cat":"typo"}\n' "$T0"; } >> "$D/fw/alice.jsonl"
figures after
ok $? "the figures with zed's journal and alice's foreign lines"
same=0
for f in agree agreejson tq tm tt td am ap aq; do
    cmp -s "$D/fw.before.$f" "$D/fw.after.$f" || { same=1; echo "differs: $f" | diag; diff "$D/fw.before.$f" "$D/fw.after.$f" | head -5 | diag; }
done
ok $same "agree (table, JSON), export --team qrels/metrics/tags/disputes, alice's metrics, per-query, qrels: all as without them"
grep -q 'alice.jsonl: 2 operations name queries that are not in .*queries.tsv (the first, line 4: query "q7")' "$D/fw.after.err" &&
    grep -q 'alice.jsonl: 1 operation names passages that are not in .* (the first, line 5: passage "p98")' "$D/fw.after.err"
report $? "the warnings still say so, queries and passages apart" "$D/fw.after.err"
"$RETRIAGE" agree $FW > /dev/null 2> "$D/fw.zerr"
has_text 'zed.jsonl: 11 operations name queries that are not in' "$D/fw.zerr" && has_text 'zed.jsonl: 1 operation names passages' "$D/fw.zerr"
report $? "agree says it of zed's journal too" "$D/fw.zerr"
has_text 'zed.jsonl: every operation names a query or passage this workspace lacks: left out of the team' "$D/fw.zerr"
report $? "zed, whose every operation is another workspace's, is no member of this team (no column, no name)" "$D/fw.zerr"
cp "$J/alice.jsonl" "$D/alice.before"; cp "$J/bob.jsonl" "$D/bob.before"
run import $WS --judgments "$D/j.tsv"
[ "$rc" -eq 0 ] && has_text "alice: 0 operations" "$D/err" && cmp -s "$J/alice.jsonl" "$D/alice.before"
report $? "import again: nothing added, the journal untouched"

# tags: both give q1 p2 and q2 p4 "entity" and nothing else: every category kappa is undefined
printf 'annotator\tqid\tpid\tcategory\n' > "$D/t.tsv"
printf 'alice\tq1\tp2\tentity\nbob\tq1\tp2\tentity\nalice\tq2\tp4\t1\nbob\tq2\tp4\tentity mismatch\n' >> "$D/t.tsv"
run import $WS --tags "$D/t.tsv"
[ "$rc" -eq 0 ] && [ "$(grep -c '"cat":"entity"' "$J/bob.jsonl")" -eq 2 ]
report $? "import --tags: a category by id, number or name is stored by id"
# a tags export read back: a tag of the query itself (pid -) is one again
printf '{"seq":1,"time":"2026-11-26T00:00:00.000Z","author":"x","op":"tag","qid":"q2","cat":"typo"}\n' > "$D/qtag.jsonl"
mkdir -p "$D/qt" && cp "$D/qtag.jsonl" "$D/qt/x.jsonl"
"$RETRIAGE" export $WS --journal-dir "$D/qt" --annotator x --what tags > "$D/qtags.tsv" 2> /dev/null
run import $WS --journal-dir "$D/qt2" --annotator y --tags "$D/qtags.tsv"
[ "$rc" -eq 0 ] && grep -q '"op":"tag","qid":"q2","pid":null,"cat":"typo"' "$D/qt2/y.jsonl"
report $? "import --tags: 'export --what tags' output reads back, a query's own tag (pid -) included"
run agree $WS
grep -q "^alice	bob	kappa entity	2	undefined	.*same label" "$D/out"
report $? "agree: a kappa over constant labels is 'undefined' with its reason, never 0"
run agree $WS --format json
has_text '"entity":	null' "$D/out" && has_text '"category_kappa_why"' "$D/out" && has_text '"relevance_kappa":	0.5' "$D/out"
report $? "agree --format json: null and a reason for the undefined kappas"
cp "$J/alice.jsonl" "$D/alice.before"; cp "$J/bob.jsonl" "$D/bob.before"
unchanged() { cmp -s "$J/alice.jsonl" "$D/alice.before" && cmp -s "$J/bob.jsonl" "$D/bob.before" && [ ! -e "$J/carol.jsonl" ]; }
# import_refused NAME PATTERN -- ARGS: `import ARGS` is an input error (exit 2) whose message
# matches PATTERN, and no journal changed
import_refused() {
    local name=$1 pattern=$2
    shift 3
    run import $WS "$@"
    [ "$rc" -eq 2 ] && grep -q -- "$pattern" "$D/err" && unchanged
    report $? "$name"
}

# errors: file:line, exit 2, and no journal written
printf 'annotator\tqid\tpid\tgrade\ncarol\tq1\tp1\t1\ncarol\tq9\tp1\t1\n' > "$D/bad1.tsv"
import_refused "import: an unknown query names file:line; nothing is written (carol's first line neither)" \
    "bad1.tsv:3: unknown query \"q9\"" -- --judgments "$D/bad1.tsv"
printf 'annotator\tqid\tpid\tgrade\ncarol\tq1\tp1\t2\n' > "$D/bad2.tsv"
import_refused "import: a grade outside the binary scale names file:line" \
    "bad2.tsv:2: grade 2" -- --judgments "$D/bad2.tsv"
printf 'annotator\tqid\tpid\tgrade\ncarol\tq1\tnope\t1\n' > "$D/bad3.tsv"
import_refused "import: an unknown passage names file:line" \
    "bad3.tsv:2: unknown passage \"nope\"" -- --judgments "$D/bad3.tsv"
printf 'annotator\tqid\tpid\tcategory\ncarol\tq1\tp1\tsarcasm\n' > "$D/bad4.tsv"
import_refused "import: an unknown category names file:line" \
    "bad4.tsv:2: unknown category \"sarcasm\"" -- --tags "$D/bad4.tsv"
printf 'annotator\tqid\tpid\tgrade\ncarol\tq1\tp1\t1\ncarol\tq1\tp2\t0\ncarol\tq1\tp1\t0\n' > "$D/bad5.tsv"
import_refused "import: a pair judged twice with different grades names both lines" \
    "bad5.tsv:4: carol judged q1 p1 as 0, and as 1 at .*bad5.tsv:2" -- --judgments "$D/bad5.tsv"
printf 'annotator\tqid\tpid\tgrade\ncarol\tq1\tp1\t1\ndave\tq1\tp1\tx\n' > "$D/bad6.tsv"
run import $WS --judgments "$D/bad6.tsv"
[ "$rc" -eq 2 ] && has_text "bad6.tsv:3: the grade must be a whole number" "$D/err" && unchanged && [ ! -e "$J/dave.jsonl" ]
report $? "import: one bad line of one annotator stops every annotator's import"
printf 'qid\tpid\tgrade\nq1\tp1\t1\n' > "$D/noann.tsv"
run import $WS --judgments "$D/noann.tsv"
[ "$rc" -eq 1 ] && has_text "noann.tsv:2: no annotator" "$D/err" && unchanged
report $? "import: no annotator column and no --annotator is a usage error"
printf 'annotator\tqid\tpid\tgrade\n../x\tq1\tp1\t1\n' > "$D/badname.tsv"
run import $WS --judgments "$D/badname.tsv"
[ "$rc" -eq 2 ] && grep -q "badname.tsv:2: annotator \"../x\" cannot name a journal" "$D/err" && unchanged &&
    [ ! -e "$D/x.jsonl" ]
report $? "import: an annotator name that is a path is refused"
printf 'annotator\tqid\tpid\tgrade\nann\tq1\tp1\t1\na\033]0;x\007b\tq1\tp1\t1\n' > "$D/ctlname.tsv"
run import $WS --judgments "$D/ctlname.tsv"
[ "$rc" -eq 2 ] && grep -q 'ctlname.tsv:3: annotator "a\\x1b\]0;x\\x07b" cannot name a journal: it holds a control character' "$D/err" &&
    unchanged && ! exists "$J"/a*b.jsonl
report $? "import: an annotator name with control bytes is refused, shown escaped, nothing written"
printf 'annotator\tqid\tpid\tgrade\nalice \tq1\tp1\t0\n' > "$D/space.tsv"
run import $WS --judgments "$D/space.tsv"
[ "$rc" -eq 2 ] && has_text 'space.tsv:2: annotator "alice " cannot name a journal: it has spaces around it' "$D/err" && unchanged &&
    [ ! -e "$J/alice .jsonl" ]
report $? "import: 'alice ' (a spreadsheet's trailing space) is refused, not made a second alice"
printf 'annotator\tqid\tpid\tgrade\nev\033[31mil\tq1\tp1\t0\nbad\377\tq1\tp1\t0\n' > "$D/ctl.tsv"
import_refused "import: an annotator name with an escape sequence is refused" \
    'ctl.tsv:2: annotator .* cannot name a journal: it holds a control character' -- --judgments "$D/ctl.tsv"
printf 'annotator\tqid\tpid\tgrade\nbad\377\tq1\tp1\t0\n' > "$D/nonutf.tsv"
import_refused "import: an annotator name that is not UTF-8 is refused" \
    'nonutf.tsv:2: annotator .* cannot name a journal: it is not valid UTF-8' -- --judgments "$D/nonutf.tsv"
printf 'q1\tp1\tentity\n' > "$D/nohead.tsv"
import_refused "import: a tags file without its header is refused" \
    "nohead.tsv:1: a tags file starts with a header line" -- --annotator carol --tags "$D/nohead.tsv"
import_refused "import: a tags file given as --judgments is said to be one (not 'no annotator column')" \
    't.tsv:1: the header has no "grade" column (tags are imported with --tags)' -- --judgments "$D/t.tsv"
import_refused "import: a judgments file given as --tags is said to be one" \
    'j.tsv:1: the header has no "category" column (judgments are imported with --judgments)' -- --tags "$D/j.tsv"
printf 'annotator\tqid\tpid\tgrade\n' > "$D/header.tsv"
run import $WS --judgments "$D/header.tsv"
[ "$rc" -eq 0 ] && has_text "nothing imported: the files hold a header and no lines" "$D/err" && unchanged
report $? "import: a header and no lines imports nothing, and says so"
printf 'q1 0 p2 1\nq2 0 p4 1\n' > "$D/erin.qrels"
run import $WS --annotator erin --judgments "$D/erin.qrels"
[ "$rc" -eq 0 ] && [ "$(wc -l < "$J/erin.jsonl")" -eq 2 ]
report $? "import: TREC qrels with --annotator"

run import $WS --journal-dir "$D/t.tsv" --judgments "$D/j.tsv"
[ "$rc" -eq 2 ] && grep -q "journal cannot be written (the journal folder .*t.tsv is not a folder); nothing was imported" "$D/err"
report $? "import: a journal folder that is a file is said to be one before anything is written"
# a journal in use by another process: nothing imported anywhere
if command -v flock > /dev/null; then
    printf 'annotator\tqid\tpid\tgrade\nalice\tq1\tp2\t1\nbob\tq1\tp2\t0\n' > "$D/locked.tsv"
    # (flock gives the command's exit status)
    flock "$J/bob.jsonl.lock" "$RETRIAGE" import $WS --judgments "$D/locked.tsv" > "$D/out" 2> "$D/err"
    rc=$?
    [ "$rc" -eq 2 ] && has_text "bob's journal cannot be written" "$D/err" && unchanged
    report $? "import: a journal locked by another process stops the whole import"
else
    ok 0 "# SKIP flock is not installed"
fi

# a temporary left by a killed import is removed by the next one (its process is dead)
printf 'stale' > "$J/alice.jsonl.tmp-2147483646-0"
had=$(wc -l < "$J/alice.jsonl")
printf 'annotator\tqid\tpid\tgrade\nalice\tq1\tp2\t1\n' > "$D/one.tsv"
run import $WS --judgments "$D/one.tsv"
[ "$rc" -eq 0 ] && [ ! -e "$J/alice.jsonl.tmp-2147483646-0" ] && [ "$(wc -l < "$J/alice.jsonl")" -eq $((had + 1)) ]
report $? "import: a dead process's temporary is swept, the journal gains the line"

# an older file imported again after alice changed her mind: said, not silent
printf 'annotator\tqid\tpid\tgrade\nalice\tq1\tp2\t0\nalice\tq1\tp1\t1\n' > "$D/older.tsv"
run import $WS --judgments "$D/older.tsv"
[ "$rc" -eq 0 ] && has_text "alice: 1 operation imported" "$D/err" &&
    has_text "warning: alice: 1 of them change a grade the journal held" "$D/err"
report $? "import: a judgment that changes the grade alice's journal held is counted in a warning"

# a torn last line (a crash while alice's workbench wrote) is set aside by the import, and said
printf '{"seq":99,"ti' >> "$J/alice.jsonl"
printf 'annotator\tqid\tpid\tgrade\nalice\tq2\tp4\t1\n' > "$D/torn.tsv"
run import $WS --judgments "$D/torn.tsv"
[ "$rc" -eq 0 ] && grep -q "alice.jsonl:[0-9]*: an incomplete last line .* was set aside in .*alice.jsonl.torn-" "$D/err" &&
    exists "$J"/alice.jsonl.torn-* && tail -n 1 "$J/alice.jsonl" | grep -q '"pid":"p4","grade":1'
report $? "import: a torn last line of the journal is set aside, and the import says so"

# kills at any moment leave a journal with none or all of the import
awk 'BEGIN { for (i = 0; i < 30000; i++) printf "q1 Q0 x%05d %d %d big\n", i, i + 1, 30000 - i }' > "$D/bigrun"
awk 'BEGIN { print "qid\tpid\tgrade"; for (i = 0; i < 30000; i++) printf "q1\tx%05d\t%d\n", i, i % 2 }' > "$D/big.tsv"
BWS="--queries $D/queries.tsv --qrels $D/qrels --run $D/bigrun --journal-dir $D/kj"
st=0 seen=""
for delay in 0.05 0.15 0.3; do
    timeout -s KILL "$delay" "$RETRIAGE" import $BWS --annotator kim --judgments "$D/big.tsv" > /dev/null 2>&1
    n=$( [ -e "$D/kj/kim.jsonl" ] && wc -l < "$D/kj/kim.jsonl" || echo 0)
    seen="$seen $n"
    [ "$n" -eq 0 ] || [ "$n" -eq 30000 ] || st=1
    rm -f "$D/kj/kim.jsonl"
done
echo "# lines after each kill:$seen" | diag
ok $st "import killed at three moments: the journal holds none or all 30,000 operations"

# agree: who is in the team
run agree $WS --annotators alice,zed
[ "$rc" -eq 1 ] && grep -q 'no journal of annotator "zed" in .*journals there: alice, bob, erin' "$D/err"
report $? "agree: an annotator without a journal is named, with those who have one"
run agree $WS --annotators alice
[ "$rc" -eq 1 ] && has_text "at least two annotators" "$D/err"; report $? "agree: one annotator is not a team"
sum_before=$(cat "$J"/*.jsonl | cksum)
run agree $WS --annotators alice,bob,erin --format md
[ "$rc" -eq 0 ] && grep -q "^| alice | erin | relevance kappa | 2 |" "$D/out" && has_text "Fleiss kappa" "$D/out" &&
    [ "$(cat "$J"/*.jsonl | cksum)" = "$sum_before" ]
report $? "agree: three annotators as Markdown; nobody's journal changes"
mkdir -p "$D/j2" && cp "$J/alice.jsonl" "$J/bob.jsonl" "$D/j2/" && echo '{"seq":99,"op":"label"' >> "$D/j2/bob.jsonl" &&
    printf '{"bad line"}\n{"seq":1}\n' >> "$D/j2/bob.jsonl"
run agree $WS --journal-dir "$D/j2"
[ "$rc" -eq 0 ] && has_text "bob.jsonl:7: not an operation" "$D/err" && has_text "relevance kappa" "$D/out"
report $? "agree: a journal with bad lines is reported and the rest used"

# packages from the command line, and their refusals
run package $WS --annotator lead --to alice,bob --size 2 --sample 1 --seed 11
[ "$rc" -eq 0 ] && [ "$(grep -c '^pkg-' "$D/out")" -eq 2 ] && grep -q "^pkg-001	alice	1	2	11	1$" "$D/out" &&
    grep -q "^pkg-002	bob	1	2	12	1$" "$D/out" && [ "$(grep -c '"op":"package"' "$J/lead.jsonl")" -eq 2 ]
report $? "package: one query a package (size 2), assigned in turn, seeds counting up, saved in lead's journal"
# made by ids (issue 34), written by name: each line as it always was, a query's two pairs named
pk_pairs='"pairs":\[\["([^"]+)","[^"]+"\],\["\1","[^"]+"\]\]'
grep -qE "\"author\":\"lead\",\"op\":\"package\",\"name\":\"pkg-001\",\"text\":\"alice\",$pk_pairs,\"seed\":11,\"sample\":1\}$" "$J/lead.jsonl" &&
    grep -qE "\"author\":\"lead\",\"op\":\"package\",\"name\":\"pkg-002\",\"text\":\"bob\",$pk_pairs,\"seed\":12,\"sample\":1\}$" "$J/lead.jsonl"
report $? "package: its journal lines name the pairs' queries and passages, in the journal's format" "$J/lead.jsonl"
run package $WS --annotator lead --to alice,bob --size 2
[ "$rc" -eq 1 ] && has_text "a package named pkg-001 exists already" "$D/err" && [ "$(grep -c '"op":"package"' "$J/lead.jsonl")" -eq 2 ]
report $? "package: the same names again are refused, nothing written"
clock_ms
wait_for 5 "the clock to pass a millisecond" clock_past "$ms_"   # the next operation is later
run package $WS --annotator boss --to erin --size 10
[ "$rc" -eq 1 ] && has_text "a package named pkg-001 exists already in lead's journal" "$D/err" && [ ! -e "$J/boss.jsonl" ]
report $? "package: a name in another's journal is refused too (the later would hide alice's pkg-001), no journal left"
run package $WS --annotator lead
[ "$rc" -eq 1 ] && grep -q -- "--to A,B" "$D/err"; report $? "package: --to is required"
run package $WS --annotator lead --to ../x
[ "$rc" -eq 1 ] && has_text "cannot name an annotator" "$D/err"; report $? "package: an annotator name that is a path is refused"
run package $WS --annotator lead --to "alice,$(printf 'b\033[2Jb')"
[ "$rc" -eq 1 ] && grep -q -- '--to: "b\\x1b\[2Jb" cannot name an annotator.s journal: it holds a control character' "$D/err"
report $? "package: an annotator name with an escape byte is refused, shown escaped"
run package $WS --annotator lead --to 'bob ' --prefix sp
[ "$rc" -eq 1 ] && grep -q '"bob " cannot name an annotator.s journal: it has spaces around it' "$D/err"
report $? "package: a name with a trailing space is refused (it would be nobody's package)"
# issue 33: spaces of other widths and invisible characters around a name, bidi controls in it
run package $WS --annotator lead --to "$(printf 'bob\342\200\202')" --prefix sp
[ "$rc" -eq 1 ] && grep -q 'cannot name an annotator.s journal: it has spaces around it' "$D/err"
report $? "package: \"bob\" + U+2002 (an en space) is refused: it would be a second bob"
run package $WS --annotator lead --to "$(printf '\357\273\277bob')" --prefix sp
[ "$rc" -eq 1 ] && grep -q 'cannot name an annotator.s journal: it has an invisible (format) character at an end' "$D/err"
report $? "package: U+FEFF + \"bob\" is refused"
run package $WS --annotator lead --to bob --prefix "$(printf 'p\342\200\256q')"
[ "$rc" -eq 1 ] && grep -q 'package prefix ".*": it holds a bidirectional control character' "$D/err" &&
    [ "$(grep -c '"op":"package"' "$J/lead.jsonl")" -eq 2 ]
report $? "package --prefix holding U+202E (right-to-left override) is refused, nothing written"
run package $WS --annotator "$(printf 'lead\342\200\213')" --to bob --prefix zw
[ "$rc" -eq 1 ] && has_text 'cannot name a journal: it has an invisible (format) character at an end' "$D/err"
report $? "package --annotator \"lead\" + U+200B is refused"
run eval "$D/qrels" "$(printf 'bm25\342\200\257')=$D/run"
[ "$rc" -eq 1 ] && grep -q 'run name ".*": it has spaces around it' "$D/err"
report $? "eval NAME=RUN: a run name ending in U+202F is refused"
run agree $WS --run "$(printf 'r\342\201\246x')=$D/run"
[ "$rc" -eq 1 ] && grep -q 'run name ".*": it holds a bidirectional control character' "$D/err"
report $? "--run NAME=PATH: a run name holding U+2066 is refused"
alice_em=$(printf 'alice\342\200\203')
cp "$J/alice.jsonl" "$J/$alice_em.jsonl"
run agree $WS
[ "$rc" -eq 0 ] && grep -q "^alice	bob	relevance kappa	" "$D/out" && ! grep -q "$alice_em" "$D/out" &&
    has_text "no annotator can have that name (it has spaces around it): left out of the team" "$D/err"
report $? "agree: a journal alice + U+2003 in the folder is no second alice: left out, said"
rm -f "$J/$alice_em.jsonl"
run package $WS --annotator lead --to alice --set nosuch
[ "$rc" -eq 2 ] && has_text 'no query set named "nosuch"' "$D/err"; report $? "package: an unknown query set"
run review-report $WS --reviewers 1
[ "$rc" -eq 0 ] && grep -q "^pkg-001	alice	2	2	1	0		-	in review$" "$D/out" &&
    grep -q "^pkg-002	bob	2	2	1	0		-	in review$" "$D/out" && grep -q "^total		4	4	" "$D/out"
report $? "review-report: both judged their pairs already (imported): in review, no reviewer yet; the totals"
run review-report $WS --reviewers 1 --annotators lead,bob
[ "$rc" -eq 0 ] && grep -q "^pkg-001	alice (not among the annotators read)	0	2	" "$D/out"
report $? "review-report --annotators lead,bob: alice, who has a journal, is not said to have none"
# three reviewers at 19/20 each are at 0.95: a threshold of 0.95 passes (the mean of three
# 0.95s summed in floating point is 0.9499…98)
mkdir -p "$D/acc" && awk 'BEGIN { for (i = 0; i < 20; i++) printf "q1 Q0 x%02d %d %d r\n", i, i + 1, 100 - i }' > "$D/acc/run"
AWS="--queries $D/queries.tsv --qrels $D/qrels --run $D/acc/run --journal-dir $D/acc/j"
"$RETRIAGE" package $AWS --annotator lead --to al -k 20 --size 100 --sample 20 --seed 1 > /dev/null 2>&1
for i in $(seq 0 19); do   # al judged every pair before the reviews
    printf '{"seq":%d,"time":"2026-11-25T00:00:00.000Z","author":"al","op":"label","qid":"q1","pid":"x%02d","grade":1}\n' \
        $((i + 1)) "$i"
done > "$D/acc/j/al.jsonl"
for r in r1 r2 r3; do
    for i in $(seq 0 19); do
        v=correct; [ "$i" -eq 0 ] && v=wrong
        printf '{"seq":%d,"time":"2026-11-26T00:00:00.000Z","author":"%s","op":"review","name":"pkg-001","qid":"q1","pid":"x%02d","text":"%s"}\n' \
            $((i + 1)) "$r" "$i" "$v"
    done > "$D/acc/j/$r.jsonl"
done
run review-report $AWS --reviewers 3 --threshold 0.95
[ "$rc" -eq 0 ] && grep -q "^pkg-001	.*	r1 0.9500 (19/20); r2 0.9500 (19/20); r3 0.9500 (19/20)	0.95	pass$" "$D/out"
report $? "review-report: a mean accuracy of exactly the threshold passes (three reviewers at 19/20, threshold 0.95)"
# issue 33: the threshold and the means are written exactly (0.955 was shown as 0.95), and JSON
# gives numbers, not rounded strings
run review-report $AWS --reviewers 3 --threshold 0.955
[ "$rc" -eq 0 ] && grep -q "	0.95	revise$" "$D/out" && has_text "0 pass, 1 revise (threshold 0.955, 3 reviewers)" "$D/out"
report $? "review-report: threshold 0.955 shown as 0.955, the mean 0.95 below it: revise"
run review-report $AWS --reviewers 3 --threshold 0.955 --format json
[ "$rc" -eq 0 ] && has_text '"threshold":	0.955,' "$D/out" && has_text '"mean":	0.95,' "$D/out" &&
    has_text '"accuracy":	0.95,' "$D/out" && ! grep -q '"0.9' "$D/out"
report $? "review-report --format json: the threshold, means and accuracies are JSON numbers, exact"
# issue 33: al reviews her own package in a journal written by hand: never counted, here or anywhere
for i in $(seq 0 19); do
    printf '{"seq":%d,"time":"2026-11-26T00:00:00.000Z","author":"al","op":"review","name":"pkg-001","qid":"q1","pid":"x%02d","text":"correct"}\n' \
        $((i + 21)) "$i"
done >> "$D/acc/j/al.jsonl"
run review-report $AWS --reviewers 3 --threshold 0.96
[ "$rc" -eq 0 ] && grep -q "^pkg-001	al	20	20	20	3	r1 0.9500 (19/20); r2 0.9500 (19/20); r3 0.9500 (19/20)	0.95	revise$" "$D/out"
report $? "review-report: the annotator's 20 'correct' marks on her own package count for nothing (still revise)"
run review-report $AWS --reviewers 4 --threshold 0.5
[ "$rc" -eq 0 ] && grep -q "	in review$" "$D/out"
report $? "review-report: nor is she one of the 4 reviewers asked for"
# issue 33: the list of packages cannot be written: they were saved all the same, and it says so
if [ -w /dev/full ]; then
    "$RETRIAGE" package $AWS --annotator lead --to al -k 20 --size 100 --sample 5 --seed 3 --prefix full \
        > /dev/full 2> "$D/err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -q "cannot write the list of packages.*the 1 packages were saved all the same" "$D/err" &&
        grep -q '"name":"full-001"' "$D/acc/j/lead.jsonl"
    report $? "package > /dev/full: exit 2, the packages saved, and stderr says they were"
else
    ok 0 "# SKIP no /dev/full to write to"
fi
run review-report $WS --threshold 2
[ "$rc" -eq 1 ] && grep -q -- "--threshold expects a number from 0 to 1" "$D/err"; report $? "review-report: a threshold above 1"

# journals read back: an adjudication outside the scale (a journal from a graded workspace) and a
# review verdict that is neither correct nor wrong are bad lines, reported and not applied
mkdir -p "$D/rj"
T='"time":"2026-11-26T00:00:00.000Z"'
printf '{"seq":1,%s,"author":"ann","op":"label","qid":"q1","pid":"p2","grade":0}\n' "$T" > "$D/rj/ann.jsonl"
printf '{"seq":1,%s,"author":"rev","op":"package","name":"pk","text":"ann","pairs":[["q1","p2"]],"seed":1,"sample":1}\n' "$T" > "$D/rj/rev.jsonl"
printf '{"seq":2,%s,"author":"rev","op":"review","name":"pk","qid":"q1","pid":"p2","text":"Correct"}\n' "$T" >> "$D/rj/rev.jsonl"
printf '{"seq":3,%s,"author":"rev","op":"adjudicate","qid":"q1","pid":"p2","grade":3,"settles":[]}\n' "$T" >> "$D/rj/rev.jsonl"
run export $WS --journal-dir "$D/rj" --team --what qrels
[ "$rc" -eq 0 ] && ! has_text "p2 3" "$D/out" && has_text "rev.jsonl:3 (operation 3): grade 3 is outside this workspace's scale" "$D/err"
report $? "an adjudication with a grade outside the scale is not applied (no grade 3 in binary team qrels)"
run review-report $WS --journal-dir "$D/rj" --reviewers 1
[ "$rc" -eq 0 ] && grep -q "^pk	ann	1	1	1	0		-	in review$" "$D/out" &&
    has_text 'rev.jsonl:2 (operation 2): review verdict "Correct"' "$D/err"
report $? "a review verdict 'Correct' is reported, not counted as a wrong mark"

# an adjudication that overrides what the annotators now agree on (bob changed his mind after it)
# is not hidden: the pair is listed among the disputes, resolved by it
mkdir -p "$D/sj"
printf '{"seq":1,%s,"author":"ann","op":"label","qid":"q1","pid":"p2","grade":0}\n' "$T" > "$D/sj/ann.jsonl"
printf '{"seq":1,%s,"author":"bob","op":"label","qid":"q1","pid":"p2","grade":1}\n' "$T" > "$D/sj/bob.jsonl"
printf '{"seq":2,%s,"author":"bob","op":"label","qid":"q1","pid":"p2","grade":0}\n' "$T" >> "$D/sj/bob.jsonl"
printf '{"seq":1,%s,"author":"lead","op":"adjudicate","qid":"q1","pid":"p2","grade":1,"settles":["ann:1","bob:1"]}\n' "$T" > "$D/sj/lead.jsonl"
run export $WS --journal-dir "$D/sj" --team --what disputes
[ "$rc" -eq 0 ] && grep -q "^q1	p2	grade	0	0	-	lead	resolved$" "$D/out" && has_text "1 pairs decided differently" "$D/err"
report $? "an adjudication against what every annotator now says is listed among the disputes (resolved)"

# the fixture: three simulated annotators on the DuReader 2.0 pool, against scikit-learn / statsmodels
if [ ! -d "$SHARED_DATA/agreement" ] || [ ! -d "$SHARED_DATA/dureader2-demo-ws" ]; then
    ok 0 "# SKIP ../shared/data/agreement or dureader2-demo-ws is absent (fixtures are read from ../shared/data, never copied)"
else
    S="$SHARED_DATA/dureader2-demo-ws"
    # (the fixture's options as the positional parameters: $SHARED_DATA may hold blanks)
    set -- --queries "$S/queries.tsv" --qrels "$S/qrels.trec" \
        --run "$S/runs/baidu-search.trec" --run "$S/runs/sklearn-tfidf-char.trec" \
        --run "$S/runs/xapian-bm25-jieba.trec" --journal-dir "$D/fj"
    run import "$@" --judgments "$SHARED_DATA/agreement/judgments.tsv" --tags "$SHARED_DATA/agreement/tags.tsv"
    [ "$rc" -eq 0 ] && [ -s "$D/fj/ann_a.jsonl" ] && [ -s "$D/fj/ann_b.jsonl" ] && [ -s "$D/fj/ann_c.jsonl" ]
    report $? "the fixture's judgments and tags import into three journals"
    run agree "$@" --format json -o "$D/agree.json"
    [ "$rc" -eq 0 ] && "$JSON_NEAR" "$SHARED_DATA/agreement/expected.json" "$D/agree.json" 1e-9 2> "$D/near"
    st=$?; [ $st -eq 0 ] || diag < "$D/near"
    ok $st "agree --format json: every figure of expected.json to 1e-9 (Cohen per pair and category, Fleiss)"
    has_text '"alpha":	0.3845949550527' "$D/agree.json"
    report $? "Krippendorff's alpha over all 468 judged pairs (checked by hand-written coincidence matrix: 0.38459)"
    printf 'annotator\tqid\tpid\tcategory\ntagger\t181574\t181574-1-0\tentity\n' > "$D/tagger.tsv"
    run import "$@" --tags "$D/tagger.tsv"
    run agree "$@"
    grep -q "^all		Fleiss kappa	363	0.3782	$" "$D/out" && grep -q "^ann_a	tagger	relevance kappa	0	undefined" "$D/out"
    report $? "an annotator who only tags is no rater of relevance: Fleiss stays over the three judges' 363 pairs"
fi

# issue 33: agree held every pair of annotators as table rows (1000 annotators: 1.5 GB); now the
# pairs are written as they are worked out. 300 annotators: 44850 pairs of 10 rows each.
mkdir -p "$D/many/j"
awk -v dir="$D/many/j" 'BEGIN { for (a = 0; a < 300; a++) { f = sprintf("%s/a%03d.jsonl", dir, a)
    printf "{\"seq\":1,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"a%03d\",\"op\":\"label\",\"qid\":\"q1\",\"pid\":\"p2\",\"grade\":%d}\n", a, a % 2 > f
    printf "{\"seq\":2,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"a%03d\",\"op\":\"label\",\"qid\":\"q2\",\"pid\":\"p4\",\"grade\":%d}\n", a, int(a / 3) % 2 >> f
    close(f) } }'
MWS="--queries $D/queries.tsv --qrels $D/qrels --run $D/run --journal-dir $D/many/j"
# memory: the pairs as rows took 140 MB here; written one at a time, under 10 MB (measured in the
# same run; not under the sanitizers, whose shadow memory would swamp it)
rss=
if [ -x /usr/bin/time ] && ! grep -q __asan_init "$RETRIAGE"; then
    rss=$D/many.rss
    timeout 120 /usr/bin/time -f "%M" -o "$rss" "$RETRIAGE" agree $MWS > "$D/many.tsv" 2> "$D/many.err"
else
    timeout 120 "$RETRIAGE" agree $MWS > "$D/many.tsv" 2> "$D/many.err"
fi
rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l < "$D/many.tsv")" -eq $((1 + 44850 * 10 + 2)) ] &&
    grep -q "^a000	a001	relevance kappa	2	" "$D/many.tsv" && grep -q "^a298	a299	kappa other	0	" "$D/many.tsv" &&
    tail -n 1 "$D/many.tsv" | grep -q "^all		Krippendorff alpha	2	"
report $? "agree, 300 annotators: every one of the 44850 pairs written (exit $rc), within 120 s"
if [ -n "$rss" ]; then
    [ "$(tail -n 1 "$rss")" -lt 60000 ]
    report $? "agree, 300 annotators: at most 60 MB resident (got $(tail -n 1 "$rss") KB)"
else
    ok 0 "# SKIP no /usr/bin/time, or a sanitizer build: resident memory not measured"
fi
timeout 120 "$RETRIAGE" agree $MWS --format json > "$D/many.json" 2> /dev/null
[ "$?" -eq 0 ] && [ "$(grep -c '"a":' "$D/many.json")" -eq 44850 ] && has_text '"krippendorff":' "$D/many.json"
report $? "agree --format json, 300 annotators: 44850 pair objects, written as they are worked out"
run agree $MWS --format md
[ "$rc" -eq 1 ] && has_text "44850 pairs of annotators are too many for a Markdown table (at most 5000" "$D/err"
report $? "agree --format md, 300 annotators: refused with a clear message, not laid out in memory"

done_testing
