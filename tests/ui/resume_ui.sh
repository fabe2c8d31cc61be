#!/bin/sh
# resume_ui.sh — picking up where you left off (issue 35, item 2): the last view state (measure,
# sort, filter, delta pair, contrast, focused query, run, view) is kept per workspace and
# annotator when the workbench ends and restored on the next open, saying "restored: …";
# --fresh and :fresh start fresh; Esc never quits (it goes back), q quits from the query list;
# named views (:view save NAME, :view NAME, :views) round-trip; a damaged state file gives a
# message, and a file retriage did not write is never replaced.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
ui() {   # ui SCRIPT [OPTION…] — one session as annotator m; status messages in $D/echo
    printf '%b' "$1" > "$D/script"
    shift
    "$RETRIAGE" --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" \
        --run "$DEMO/runs/dense.trec" --run "$DEMO/runs/rerank.trec" --journal-dir "$D/j" --annotator m \
        --script "$D/script" --size 120x30 --echo "$@" > "$D/echo" 2> "$D/err"
}
title() { head -1 "$1" | grep -q -- "— $2 — m"; }

ui ':snapshot '"$D"'/s0\nq\n:snapshot '"$D"'/never\n'
[ $? -eq 0 ] && [ -f "$D/s0" ] && [ ! -e "$D/never" ] && tail -1 "$D/s0" | grep -q "q quit$"
ok $? "q quits from the query list (the footer says q quit there)"
[ ! -e "$D/j/m.view" ] && ! grep -q restored "$D/echo"
ok $? "a first open restores nothing, and a state as a first open shows it is not kept"

ui ':goto q04\n<Esc>\n:snapshot '"$D"'/e1\n<Esc>\n:snapshot '"$D"'/e2\n'
[ $? -eq 0 ] && title "$D/e1" "query list" && [ -f "$D/e2" ] && grep -q "Esc never quits: q quits from the query list" "$D/echo"
ok $? "Esc goes back from the side by side, and at the query list it says so instead of quitting"

SETUP=':measure Success@1\n:delta dense rerank\n:contrast rbo\n:sort bm25 desc\n:filter zero dense\nl\n:goto q22\n'
ui "$SETUP"   # (the script's end ends the workbench, in the side by side)
[ $? -eq 0 ] && grep -q "^measure Success@1$" "$D/j/m.view" && grep -q "^focus q22$" "$D/j/m.view"
ok $? "the view state is kept in the journal folder when the workbench ends"
ui ':snapshot '"$D"'/r1\nq\n:snapshot '"$D"'/r2\n'
head -1 "$D/echo" | grep -q "^restored: measure Success@1, filter zero dense, sort bm25 desc, query q22, view compare" &&
    title "$D/r1" "side by side" && grep -q "q22" "$D/r1" && grep -q "query (Success@1)" "$D/r2" &&
    grep -q "RBO" "$D/r2" && grep -q "Δ2-3" "$D/r2" && tail -1 "$D/r2" | grep -q "run dense"
ok $? "the next open restores measure, delta pair, contrast, sort, filter, query, run and view, and says so"
awk 'NR > 2 && $1 ~ /^q[0-9]/ { print $1 }' "$D/r2" | sort > "$D/listed"
"$RETRIAGE" eval -q -m Success@1 "$DEMO/qrels.trec" "$DEMO/runs/dense.trec" |
    awk -F'\t' '$3 ~ /^q[0-9]/ && $4 + 0 == 0 { print $3 }' | sort > "$D/zero"
[ -s "$D/listed" ] && [ -z "$(comm -23 "$D/listed" "$D/zero")" ]
ok $? "the restored filter lists only queries dense scores 0 on"

ui ':snapshot '"$D"'/f1\n' --fresh
! grep -q restored "$D/echo" && title "$D/f1" "query list" && grep -q "query (RR@10)" "$D/f1"
ok $? "--fresh restores nothing"
ui ':snapshot '"$D"'/f2\n'
! grep -q "^restored:" "$D/echo" && title "$D/f2" "query list"
ok $? "where a --fresh session ended is where the next open starts"
ui "$SETUP"

ui ':view save triage-1\n:fresh\n:snapshot '"$D"'/n1\n:views\n:view triage-1\n:snapshot '"$D"'/n2\n:view nope\n'
grep -q "query (RR@10)" "$D/n1" && title "$D/n1" "query list" && grep -q "^1 view: triage-1$" "$D/echo" &&
    grep -q "^view triage-1: measure Success@1" "$D/echo" && title "$D/n2" "side by side" &&
    [ -f "$D/j/views/triage-1.view" ] && grep -q "^retriage: .*no view nope" "$D/err"
ok $? ":view save NAME, :fresh, :views, :view NAME round-trip; an unknown name is an error"
ui ':view ../x\n'
[ $? -eq 2 ] && grep -q "a view's name is 1 to 64 letters" "$D/err" && [ ! -e "$D/j/x.view" ]
ok $? ":view with a name that is not a plain name is refused"
ui ':fresh\nq\n'
[ ! -e "$D/j/m.view" ]
ok $? "quitting after :fresh leaves no last state (the next open is a first open)"

ui '/北京<Enter>\nq\n'
ui ':snapshot '"$D"'/t1\n:fresh\nq\n'
grep -q "^restored: measure RR@10, search 北京" "$D/echo" && grep -q "北京" "$D/t1" && ! grep -q "^q22 " "$D/t1"
ok $? "the list's text filter (/) is restored too"

# a damaged state file: the lines that can be taken are, the first other is named, no crash
printf '# retriage view state 1\nmeasure Success@1\nsort nosuchrun desc\nbogus \033[31mred\nview list\n' > "$D/j/m.view"
ui ':snapshot '"$D"'/d1\n'
[ $? -eq 0 ] && grep -q "query (Success@1)" "$D/d1" &&
    grep -q "^restored: measure Success@1; not restored: .*/m.view:3: sort by what?" "$D/echo" &&
    ! grep -q "$(printf '\033')" "$D/echo" "$D/d1"
ok $? "a damaged state file: what can be taken is, the first bad line is named FILE:LINE, nothing raw"
printf 'not a view state\n' > "$D/j/m.view"
ui ':sort qid\nq\n'
[ $? -eq 0 ] && grep -q "m.view:1: not a view state retriage wrote" "$D/echo" &&
    [ "$(cat "$D/j/m.view")" = "not a view state" ] && grep -q "not kept for the next open.*not a view state retriage wrote" "$D/err"
ok $? "a file retriage did not write is reported and never replaced"
rm -f "$D/j/m.view"
ln -s "$D/elsewhere" "$D/j/m.view"
ui ':sort qid\nq\n'
[ -L "$D/j/m.view" ] && [ ! -e "$D/elsewhere" ]
ok $? "nor followed when it is a symbolic link"
done_testing
