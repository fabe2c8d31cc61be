#!/bin/sh
# grepall_ui.sh — :grep all WORDS: the passages of the whole collection holding every word, paired
# with the query in focus, each with its rank in every run or "not retrieved"; + judges one where
# it is listed (a relevant passage no run retrieved gets into the qrels), Enter opens one. On a
# small workspace where two of four passages holding the word are retrieved, and on the demo.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8 RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json"
DEMO="$SRCDIR/data/demo"
[ -f "$RETRIAGE_DEMO" ] || skip_all "the demo workspace is missing"
ui() {  # ui SIZE SCRIPT [workspace options]
    printf '%b' "$2" > "$D/script"
    local size=$1
    shift 2
    [ $# -gt 0 ] || set -- --demo
    "$RETRIAGE" "$@" --journal-dir "$D/j" --annotator s --script "$D/script" --size "$size" --echo > "$D/echo" 2> "$D/err"
}

printf 'p1\tthe Needle is here\np2\tnothing\np3\tanother needle, never retrieved\np4\tNEEDLE and 针 too\np5\tno\np6\tneedle 针 again\n' > "$D/c.tsv"
printf 'q1\tfind the needle\n' > "$D/q.tsv"
printf 'q1 0 p1 1\n' > "$D/qrels"
printf 'q1 Q0 p1 1 2 a\nq1 Q0 p2 2 1 a\n' > "$D/ra"
printf 'q1 Q0 p2 1 2 b\nq1 Q0 p4 2 1 b\n' > "$D/rb"
WS="--queries $D/q.tsv --collection $D/c.tsv --qrels $D/qrels --run a=$D/ra --run b=$D/rb"

for size in 80x24 120x30; do
    rm -rf "$D/j"
    # shellcheck disable=SC2086
    ui $size ':grep all needle\n:snapshot '"$D"'/s1\n<Down>\n+\n:snapshot '"$D"'/s2\n' $WS
    grep -q '^4 passages of the collection hold "needle" (paired with query q1)$' "$D/echo"
    ok $? "$size: :grep all needle finds the 4 passages holding it in any case ($(head -1 "$D/echo"))"
    grep -q '^p1 .* a@1 b:- ' "$D/s1" && grep -q '^p3 .*not retrieved' "$D/s1" && grep -q '^p4 .* a:- b@2 ' "$D/s1" &&
        grep -q '^p6 .*not retrieved' "$D/s1" && ! grep -q '^p2 ' "$D/s1"
    ok $? "$size: each with its rank in every run, or not retrieved (p3, p6); p2 does not hold it"
    grep -q '^p3 *rel ' "$D/s2" && grep -q '"pid": *"p3"' "$D/j"/s.jsonl
    ok $? "$size: + on p3 judges it relevant for q1, journalled"
done

# the judgment is the qrels' now: export writes it
# shellcheck disable=SC2086
"$RETRIAGE" export $WS --journal-dir "$D/j" --annotator s --what qrels -o "$D/out.qrels" 2> "$D/err"
grep -q '^q1 0 p3 1$' "$D/out.qrels" && grep -q '^q1 0 p1 1$' "$D/out.qrels"
ok $? "export --what qrels holds p3, found by :grep all alone"

# two words, one Chinese; Enter opens the passage
# shellcheck disable=SC2086
ui 120x30 ':grep all needle 针\n:snapshot '"$D"'/s3\n<Down>\n<Enter>\n:snapshot '"$D"'/s4\n' $WS
grep -q '^2 passages of the collection hold "needle 针"' "$D/echo" && grep -q '^p4 ' "$D/s3" && grep -q '^p6 ' "$D/s3" &&
    grep -q '^passage p6 ' "$D/s4"
ok $? "two words (needle 针): p4 and p6; Enter opens the second"

# usage, nothing found and a workspace without a collection: a script stops there (exit 2), saying why
# shellcheck disable=SC2086
ui 120x30 ':grep all\n' $WS
st=$?
[ "$st" -eq 2 ] && grep -q 'script:1: usage: :grep all WORDS' "$D/err"
ok $? ":grep all alone says how to use it ($(cat "$D/err"))"
# shellcheck disable=SC2086
ui 120x30 ':grep all zzzz\n' $WS
grep -q '^0 passages of the collection hold "zzzz"' "$D/echo"
ok $? "a word in no passage: none found, said"
ui 120x30 ':grep all needle\n' --queries "$D/q.tsv" --qrels "$D/qrels" --run "$D/ra"
st=$?
[ "$st" -eq 2 ] && grep -q 'the workspace has none' "$D/err"
ok $? "without a collection: said, not a crash"

# the demo: as many as awk finds in the collection's texts
want=$(awk -F'\t' 'index($2, "冬奥") { n++ } END { print n + 0 }' "$DEMO/collection.tsv")
ui 120x30 ':goto q01\n:grep all 冬奥\n'
grep -q "^$want passages of the collection hold \"冬奥\" (paired with query q01)$" "$D/echo"
ok $? "the demo: :grep all 冬奥 finds the $want passages awk finds"
done_testing
