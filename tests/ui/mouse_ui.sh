#!/bin/sh
# mouse_ui.sh — the mouse (script mode obeys it with --mouse): a click focuses a list row, a
# ranked passage or a :grep hit, a double click opens it, a click on a list header sorts by that
# column (again: reversed), the wheel scrolls; without --mouse a script's mouse event is an error.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8 RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json"
DEMO="$SRCDIR/data/demo"
[ -f "$RETRIAGE_DEMO" ] || skip_all "the demo workspace is missing"
ui() {  # ui SIZE SCRIPT [options]
    printf '%b' "$2" > "$D/script"
    local size=$1
    shift 2
    "$RETRIAGE" --demo --journal-dir "$D/j" --annotator m --fresh --script "$D/script" --size "$size" --echo "$@" > "$D/echo" 2> "$D/err"
}
col_of() {  # col_of SNAPSHOT TEXT — the 0-based column where TEXT starts on the header row (2nd line)
    sed -n 2p "$1" | awk -v t="$2" '{ i = index($0, t); print i ? i - 1 : -1 }'
}
for size in 80x24 140x42; do
    ui $size '<Click 3 4>\n<Enter>\n:snapshot '"$D"'/c\n' --mouse
    head -1 "$D/c" | grep -q "side by side" && sed -n 2p "$D/c" | grep -q "^q03 "
    ok $? "$size: a click on the third row focuses q03 (Enter opens it)"
    ui $size '<DoubleClick 3 5>\n:snapshot '"$D"'/c\n' --mouse
    head -1 "$D/c" | grep -q "side by side" && sed -n 2p "$D/c" | grep -q "^q04 "
    ok $? "$size: a double click opens the row"
    ui $size ':snapshot '"$D"'/l\n'
    jx=$(col_of "$D/l" judged); dx=$(col_of "$D/l" dense)
    ui $size "<Click $jx 1>\n<Click $jx 1>\n<Click $dx 1>\n" --mouse
    [ "$(sed -n 1p "$D/echo")" = "sorted by judged, descending" ] && [ "$(sed -n 2p "$D/echo")" = "sorted by judged" ] &&
        [ "$(sed -n 3p "$D/echo")" = "sorted by RR@10 of dense, descending" ]
    ok $? "$size: a click on a header sorts by it, again reverses ($(tr '\n' '|' < "$D/echo"))"
    ui $size '<WheelDown 10 6>\n<Enter>\n:snapshot '"$D"'/c\n' --mouse
    sed -n 2p "$D/c" | grep -q "^q04 "
    ok $? "$size: the wheel moves three rows"
    # side by side: the click picks the run and rank; Enter shows that passage
    ui $size ':goto q01\n:snapshot '"$D"'/s\n' --mouse
    x=$(sed -n 3p "$D/s" | awk '{ i = index($0, "dense"); print i + 2 }')
    ui $size ':goto q01\n'"<Click $x 6>"'\n<Enter>\n:snapshot '"$D"'/p\n' --mouse
    want=$(awk '$1 == "q01" && $4 == 4 { print $3 }' "$DEMO/runs/dense.trec")
    grep -q "^passage $want " "$D/p"
    ok $? "$size: a click in the side-by-side focuses dense's rank 4 ($want)"
    ui $size ':grep 冬奥\n<DoubleClick 2 4>\n:snapshot '"$D"'/g\n' --mouse
    head -1 "$D/g" | grep -q "— passage —"
    ok $? "$size: a double click opens a :grep hit"
done
ui 80x24 '<Click 3 4>\n'
[ $? -eq 2 ] && grep -q "mouse events in a script need --mouse" "$D/err"
ok $? "without --mouse a script's click is an error"
"$RETRIAGE" --help-open 2>&1 | grep -q -- "--no-mouse"
ok $? "--help names --no-mouse"
done_testing
