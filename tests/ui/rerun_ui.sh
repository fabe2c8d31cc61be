#!/bin/sh
# rerun_ui.sh — a change made again as it already is (:label to the current grade, a tag already
# there, an untag of what is not tagged, the same note, + on a relevant passage) is said on the
# status line and is no error: a script that makes its changes twice runs to its end (exit 0),
# and the journal holds each change once. A real error still stops the script (exit 2).
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
ui() {  # ui SCRIPT-TEXT: the demo workspace, journal in $D/j, status messages in $D/echo
    printf '%b' "$1" > "$D/script"
    "$RETRIAGE" --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" \
        --collection "$DEMO/collection.tsv" --journal-dir "$D/j" --annotator re \
        --script "$D/script" --size 100x30 --echo > "$D/echo" 2> "$D/err"
}
lines() { if [ -f "$D/j/re.jsonl" ]; then wc -l < "$D/j/re.jsonl" | tr -d ' '; else echo 0; fi; }

# q01 p0013 is judged 0 in the qrels: relabelled 1, then again
ui ':label q01 p0013 1\n:label q01 p0013 1\n'
rc=$?
[ $rc -eq 0 ]; ok $? "a script labelling the same pair twice runs to its end (exit $rc)"
[ -s "$D/err" ] && diag < "$D/err"
[ "$(lines)" = 1 ]; ok $? "the journal holds one line ($(lines))"
grep -qx 'q01 p0013 labelled 1 (#1)' "$D/echo" && grep -qx 'q01 p0013 already labelled 1: nothing to change' "$D/echo"
ok $? "the second label is said, not refused"

# the whole script again: every change is already so; nothing is appended
ui ':label q01 p0013 1\n'
[ $? -eq 0 ] && [ "$(lines)" = 1 ]; ok $? "the script run a second time: exit 0, still one line"
# the grade the base already gives, and base on a pair with no relabel
ui ':label q01 p0023 0\n:label q01 p0046 base\n'
[ $? -eq 0 ] && [ "$(lines)" = 1 ] && grep -qx 'q01 p0023 already labelled 0: nothing to change' "$D/echo" &&
    grep -qx 'q01 p0046 already has its base judgment: nothing to change' "$D/echo"
ok $? "a label equal to the base and base without a relabel: said, exit 0, nothing written"

# tags, untags, notes: the same rule
ui ':tag q01 p0023 entity\n:tag q01 p0023 1\n:untag q01 p0023 numeral\n:untag q01 - 2\n:note q01 p0023 seen\n:note q01 p0023 seen\n:note q02 - \n'
rc=$?
[ $rc -eq 0 ] && [ "$(lines)" = 3 ]; ok $? "tag twice, untag of absent tags, the same note twice: exit $rc, two lines more ($(lines))"
[ -s "$D/err" ] && diag < "$D/err"
grep -qx 'q01 p0023 already tagged entity mismatch: nothing to change' "$D/echo" &&
    grep -qx 'q01 p0023 not tagged numeral mismatch: nothing to change' "$D/echo" &&
    grep -qx 'q01 (query) not tagged numeral mismatch: nothing to change' "$D/echo" &&
    grep -qx 'q01 p0023 already has this note: nothing to change' "$D/echo" &&
    grep -qx 'q02 (query) has no note: nothing to change' "$D/echo"
ok $? "each says what is already so"
[ $? -eq 0 ] || diag < "$D/echo"

# a key: + on the passage just relabelled relevant (q01's rank of p0013 in bm25)
rank=$(awk '$1 == "q01" && $3 == "p0013" { print $4 }' "$DEMO/runs/bm25.trec")
keys=$(awk -v n="$rank" 'BEGIN { s = ""; for (i = 1; i < n; i++) s = s "j"; print s }')
ui ':goto q01\n'"$keys"'\n+\n'
[ $? -eq 0 ] && [ "$(lines)" = 3 ] && grep -qx 'q01 p0013 already labelled 1: nothing to change' "$D/echo"
st=$?
ok $st "+ on a passage already relevant: said, exit 0, nothing written"
[ $st -eq 0 ] || { diag < "$D/echo"; diag < "$D/err"; }

# what cannot be done still stops the script
ui ':label q01 p0013 7\n:label q01 p0013 0\n'
[ $? -eq 2 ] && grep -q 'script:1: grade 7' "$D/err" && [ "$(lines)" = 3 ]
ok $? "a grade out of range still fails the script (exit 2, file:line), nothing written"
done_testing
