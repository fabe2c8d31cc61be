#!/bin/sh
# search_ui.sh — searching inside passages: / in the passage view highlights every match (any
# case) and scrolls to it, ] and [ step through them; :grep TEXT lists the passages the runs rank
# for the listed queries that contain TEXT (as many as the files say), Enter opens one with the
# match highlighted. At 80x24 and 140x42.
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
# cells drawn as a match (the attributes block of a snapshot: R is reverse video)
matched() { awk '/^--- attributes ---$/ { a = 1; next } a { n += gsub(/R/, "") } END { print n + 0 }' "$1"; }

# a passage longer than any screen, the word to find near its end
{
    printf 'p1\t'
    for i in $(seq 1 400); do printf '第%d句话没有要找的词。' "$i"; done
    printf 'Here is the NEEDLE at last.'
    for i in $(seq 1 10); do printf '后面还有一些文字。'; done
    printf '\n'
} > "$D/c.tsv"
printf 'q1\tfind the needle\n' > "$D/q.tsv"
printf 'q1 0 p1 1\n' > "$D/qrels"
printf 'q1 Q0 p1 1 1 r\n' > "$D/run"

# the demo's reference for :grep 冬奥 — every (query, passage) a run ranks, the passage holding it
awk -F'\t' 'FILENAME ~ /collection/ { if (index($2, "冬奥")) has[$1] = 1; next }
            { split($0, f, " "); if (has[f[3]] && !seen[f[1] " " f[3]]++) n++ } END { print n + 0 }' \
    "$DEMO/collection.tsv" "$DEMO"/runs/*.trec > "$D/want"
want=$(cat "$D/want")

for size in 80x24 140x42; do
    ui $size ':goto q01\n<Enter>\n/2018\n<Enter>\n:snapshot '"$D"'/f1 attrs\n]\n:snapshot '"$D"'/f2\n[\n/nothing-like-this\n<Enter>\n'
    grep -q '^match 1 of 2 for "2018" (\] next, \[ previous)$' "$D/echo" && grep -q '^match 2 of 2 for "2018"$' "$D/echo" &&
        grep -q '^match 1 of 2 for "2018"$' "$D/echo" && grep -q '"nothing-like-this" is not in this passage' "$D/echo"
    ok $? "$size: / in the passage view counts the matches; ] and [ step through them, round"
    [ "$(matched "$D/f1")" -eq 8 ]
    ok $? "$size: both matches of 2018 are highlighted ($(matched "$D/f1") cells)"
    ui $size ':goto q21\n<Enter>\n/PYTHON\n<Enter>\n:snapshot '"$D"'/f3 attrs\n'
    grep -q '^match 1 of [0-9]* for "PYTHON"' "$D/echo" && [ "$(matched "$D/f3")" -ge 6 ]
    ok $? "$size: the search ignores the case of Latin letters (PYTHON finds Python)"
    ui $size ':goto q1\n<Enter>\n:snapshot '"$D"'/l0\n/needle\n<Enter>\n:snapshot '"$D"'/l1 attrs\n' \
        --queries "$D/q.tsv" --collection "$D/c.tsv" --qrels "$D/qrels" --run "$D/run"
    ! grep -q NEEDLE "$D/l0" && grep -q "NEEDLE" "$D/l1" && [ "$(matched "$D/l1")" -eq 6 ]
    ok $? "$size: in a long passage the view scrolls to the match"
    ui $size ':grep 冬奥\n:snapshot '"$D"'/g1 attrs\n<Down>\n<Enter>\n:snapshot '"$D"'/g2 attrs\n'
    grep -q "^$want of [0-9]* query-passage pairs contain \"冬奥\" (the rankings of 34 listed queries)" "$D/echo"
    ok $? "$size: :grep 冬奥 finds the $want (query, passage) pairs the files hold"
    pid=$(sed -n 4p "$D/g1" | awk '{ print $2 }')
    head -1 "$D/g2" | grep -q "— passage —" && grep -q "^passage $pid " "$D/g2" && [ "$(matched "$D/g2")" -ge 2 ]
    ok $? "$size: Enter opens the second hit's passage ($pid) with the match highlighted"
    ui $size ':filter notop 5 bm25\n:grep 冬奥\n'
    grep -q "query-passage pairs contain \"冬奥\" (the rankings of [0-9]* listed queries)" "$D/echo" &&
        ! grep -q "(the rankings of 34 listed queries)" "$D/echo"
    ok $? "$size: :grep searches only the listed queries"
done
ui 80x24 ':grep\n'
[ $? -eq 2 ] && grep -q "usage: :grep TEXT" "$D/err"
ok $? ":grep without text says how"
done_testing
