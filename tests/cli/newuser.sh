#!/bin/sh
# newuser.sh — what a new user met (issue 13): a first run without arguments is welcomed, the man
# page is reachable from the source tree, two runs of one name are warned about and NAME=RUN names
# them in eval, a run can come from standard input, and in the workbench (at 80×24 and 140×42)
# a workspace given by flags is titled after its qrels, :sort qid is natural, and :export with an
# unknown format is an error that writes nothing.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"

run
[ "$rc" -eq 0 ] && has_text "Welcome to retriage" "$D/out" && has_text "    retriage --demo" "$D/out"
report $? "no arguments: a welcome pointing to --demo, exit 0"
run --help
has_text "man ./man/retriage.1" "$D/out"; report $? "--help says how to read the man page from the source tree"
if command -v man > /dev/null && [ -f "$SRCDIR/man/retriage.1" ]; then
    MANWIDTH=100 man -l "$SRCDIR/man/retriage.1" 2> /dev/null | grep -q "retriage compare"
    ok $? "man -l man/retriage.1 reads (and documents compare)"
else
    ok 0 "# SKIP man is not installed"
fi

run eval "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$DEMO/runs/bm25.trec"
[ "$rc" -eq 0 ] && has_text 'warning: runs 1 and 2 are both named "bm25"' "$D/err"
report $? "eval: two runs of one name are warned about"
run eval "$DEMO/qrels.trec" "A=$DEMO/runs/bm25.trec" "B=$DEMO/runs/bm25.trec"
[ "$rc" -eq 0 ] && [ "$(cut -f1 "$D/out" | sort -u | tr '\n' ' ')" = "A B " ] && [ ! -s "$D/err" ]
report $? "eval: NAME=RUN names them"
"$RETRIAGE" eval "$DEMO/qrels.trec" - < "$DEMO/runs/dense.trec" > "$D/stdin" 2> /dev/null
"$RETRIAGE" eval "$DEMO/qrels.trec" "$DEMO/runs/dense.trec" > "$D/file" 2> /dev/null
cmp -s "$D/stdin" "$D/file"; ok $? "eval QRELS - reads the run from standard input"
run export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --run "$DEMO/runs/bm25.trec" \
    --journal-dir "$D/j" --what metrics
has_text 'warning: runs 1 and 2 are both named "bm25": name them' "$D/err"
report $? "a workspace with two runs of one name warns in its load report"

# the workbench at both sizes
printf 'q10\tten\nq2\ttwo\nq1\tone\n' > "$D/q.tsv"
printf 'q10 0 p1 1\nq2 0 p1 1\nq1 0 p1 1\n' > "$D/qrels.trec"
printf 'q10 Q0 p1 1 1 r\nq2 Q0 p1 1 1 r\nq1 Q0 p1 1 1 r\n' > "$D/run"
for size in 80x24 140x42; do
    printf ':sort qid\n:snapshot %s/s.%s\n:export breakdown xlsx out.txt\n' "$D" "$size" > "$D/script"
    (cd "$D" && "$RETRIAGE" --queries q.tsv --qrels qrels.trec --run run --journal-dir j --annotator n \
        --script script --size "$size" > /dev/null 2> "$D/err.$size")
    rc=$?
    head -1 "$D/s.$size" | grep -q "^ retriage — qrels.trec — query list — n" && ! head -1 "$D/s.$size" | grep -q "retriage — retriage"
    ok $? "$size: a workspace given by flags is titled after its qrels file"
    [ "$(sed -n '3,5p' "$D/s.$size" | awk '{ print $1 }' | tr '\n' ' ')" = "q1 q2 q10 " ]
    ok $? "$size: :sort qid is natural (q1, q2, q10)"
    [ "$rc" -eq 2 ] && grep -q 'unknown format "xlsx" (trec, svg, tsv, csv, json, md, latex)' "$D/err.$size" &&
        [ ! -e "$D/xlsx out.txt" ] && [ ! -e "$D/out.txt" ]
    ok $? "$size: :export with an unknown format is an error listing the formats; nothing written"
done

# a clean quit leaves the journal and no lock file; a killed one's lock is taken over next time
printf ':label q1 p1 0\n:quit\n' > "$D/quit"
(cd "$D" && "$RETRIAGE" --queries q.tsv --qrels qrels.trec --run run --journal-dir j2 --annotator n \
    --script quit --size 80x24 > /dev/null 2>&1)
set -- "$D/j2"/*   # (what ls lists: the folder's names not starting with a dot)
[ -s "$D/j2/n.jsonl" ] && [ ! -e "$D/j2/n.jsonl.lock" ] && [ $# -eq 1 ] && [ "$1" = "$D/j2/n.jsonl" ]
ok $? "a clean quit removes the lock file, keeps the journal ($(ls "$D/j2" | tr '\n' ' '))"
echo 999999 > "$D/j2/n.jsonl.lock"   # left by a process that was killed
printf ':label q1 p1 1\n:quit\n' > "$D/quit"
(cd "$D" && "$RETRIAGE" --queries q.tsv --qrels qrels.trec --run run --journal-dir j2 --annotator n \
    --script quit --size 80x24 > /dev/null 2> "$D/err.stale")
[ "$(grep -c '"op":"label"' "$D/j2/n.jsonl")" -eq 2 ] && [ ! -e "$D/j2/n.jsonl.lock" ]
ok $? "a stale lock file (killed process) is taken over and removed on quit"

done_testing
