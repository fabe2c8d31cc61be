#!/bin/sh
# hint_ui.sh — the distant-supervision hint (the demo names its answers): the passage view gives
# the best answer-span F1 (as dslabel --with-f1 computes it) and underlines the span; the
# side-by-side and the judging view show it as a badge; :hint orders the unjudged by it and
# keeps the likely false negatives; a query without answers says so; a workspace without answers
# shows nothing and refuses :hint. At 80x24 and 140x42.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8 RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json"
DEMO="$SRCDIR/data/demo"
[ -f "$DEMO/answers.jsonl" ] || skip_all "the demo's answers are missing"
ui() {  # ui SIZE SCRIPT [workspace options]
    printf '%b' "$2" > "$D/script"
    local size=$1
    shift 2
    [ $# -gt 0 ] || set -- --demo
    "$RETRIAGE" "$@" --journal-dir "$D/j" --annotator h --script "$D/script" --size "$size" --echo > "$D/echo" 2> "$D/err"
}
# what dslabel says of q01's pooled passages (the reference for the screens)
cp "$DEMO/collection.tsv" "$D/c.tsv"
printf 'q01\tp0023\nq01\tp0008\n' > "$D/pairs"
"$RETRIAGE" dslabel --answers "$DEMO/answers.jsonl" --collection "$D/c.tsv" --pairs "$D/pairs" --with-f1 > "$D/f1" 2> /dev/null
f23=$(awk -F'\t' '$2 == "p0023" { printf "%.2f", $3 }' "$D/f1")
a23=$(awk -F'\t' '$2 == "p0023" { print $5 }' "$D/f1")
for size in 80x24 140x42; do
    ui $size ':goto q01\n<Enter>\n:snapshot '"$D"'/p attrs\n'
    tr -d '\n' < "$D/p" | grep -q "hint: F1 $f23 (Algorithm 1: positive) with answer $a23 of 2"
    ok $? "$size: the passage view gives the hint as dslabel computes it (F1 $f23, answer $a23)"
    # the span: cells in the hint's own attribute on the passage rows, not the query-overlap ones
    awk '/^--- attributes ---$/ { a = 1; next } a && NR > 0 { rows[++n] = $0 } END { for (i = 6; i <= n; i++) if (index(rows[i], "G")) f = 1; exit !f }' "$D/p"
    ok $? "$size: the span is drawn in the hint's attribute"
    ui $size ':goto q01\n:snapshot '"$D"'/c\n'
    sed -n 4p "$D/c" | grep -Eq '^ +1 - \.5 '
    ok $? "$size: the side-by-side badge gives the hint in tenths (rank 1, p0023: .5)"
    ui $size ':goto q01\nJ\n:hint order\n:snapshot '"$D"'/j1\n:hint 0.5\n:snapshot '"$D"'/j2\n:hint off\n:snapshot '"$D"'/j3\n'
    grep -q "^unjudged passages first, closest to an answer first$" "$D/echo" &&
        grep -q "pooled passages with hint >= 0.50 not judged relevant (likely false negatives)" "$D/echo"
    ok $? "$size: :hint order and :hint 0.5 in judging"
    # ordered: the unjudged rows come first and their badges do not rise
    awk '$1 ~ /^[0-9]+$/ && ($2 == "?" || $2 == "+" || $2 == "-") { print $2, $3 }' "$D/j1" > "$D/rows1"
    awk 'BEGIN { seen_judged = 0; last = 2 } { v = ($2 == "1.0") ? 1 : $2 + 0
         if ($1 == "?") { if (seen_judged || v > last) bad = 1; last = v } else seen_judged = 1 } END { exit bad }' "$D/rows1"
    ok $? "$size: :hint order lists the unjudged first, by falling hint"
    awk '$1 ~ /^[0-9]+$/ && ($2 == "?" || $2 == "+" || $2 == "-") { print $2, $3 }' "$D/j2" > "$D/rows2"
    [ -s "$D/rows2" ] && awk '{ v = ($2 == "1.0") ? 1 : $2 + 0; if ($1 == "+" || v < 0.5) bad = 1 } END { exit bad }' "$D/rows2"
    ok $? "$size: :hint 0.5 keeps only passages at .5 or more not judged relevant ($(wc -l < "$D/rows2") rows)"
    grep -q "fusion order" "$D/j3"
    ok $? "$size: :hint off goes back to the fusion order"
    ui $size ':goto q01\nJ\n:hint 0.5\n:snapshot '"$D"'/k1\n+\n:snapshot '"$D"'/k2\n'
    first=$(awk '$1 == "1" && $2 == "?" { print $5; exit }' "$D/k1")
    n1=$(grep -cE '^ +[0-9]+ [?+-] ' "$D/k1"); n2=$(grep -cE '^ +[0-9]+ [?+-] ' "$D/k2")
    [ -n "$first" ] && [ "$n2" -eq $((n1 - 1)) ] && ! grep -q " $first " "$D/k2"
    ok $? "$size: under :hint 0.5 a passage judged relevant (+) leaves the list ($first; $n1 -> $n2 rows)"
done

# a query without answers, and answers for queries the workspace lacks
grep -v '"q02"' "$DEMO/answers.jsonl" > "$D/answers.jsonl"
printf '{"question_id": "zz9", "answers": ["nothing"]}\n' >> "$D/answers.jsonl"
printf '{"question_id": "q02", "answers": []}\n' >> "$D/answers.jsonl"
ui 80x24 ':goto q02\n<Enter>\n:snapshot '"$D"'/n\nL\n:snapshot '"$D"'/r\n' --queries "$DEMO/queries.tsv" \
    --collection "$D/c.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --answers "$D/answers.jsonl"
tr -d '\n' < "$D/n" | grep -q "hint: this query has no answers in"
ok $? "a query without answers says so (no F1 0)"
tr '\n' ' ' < "$D/r" | tr -s ' ' | grep -q "1 lines name queries the workspace does not have (first: zz9)"
ok $? "answers of unknown queries are counted in the load report"
ui 80x24 ':goto q01\n<Enter>\n:snapshot '"$D"'/w\n:hint order\n' --queries "$DEMO/queries.tsv" --collection "$D/c.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec"
! grep -q "hint:" "$D/w" && grep -q "the workspace has no answers" "$D/err"
ok $? "without answers: no hint, and :hint says why"
# bounded time: a 200 KiB passage and a 5,000-character answer
{ printf 'p1\t北京和张家口'; head -c 200000 /dev/zero | tr '\0' 'x'; printf '\n'; } > "$D/big.tsv"
printf 'q1\tbig\n' > "$D/bq.tsv"; printf 'q1 0 p1 1\n' > "$D/bqr"; printf 'q1 Q0 p1 1 1 r\n' > "$D/brun"
{ printf '{"question_id": "q1", "answers": ["北京和张家口", "'; head -c 5000 /dev/zero | tr '\0' 'y'; printf '"]}\n'; } > "$D/big.jsonl"
ui 80x24 ':goto q1\n<Enter>\n:snapshot '"$D"'/b\n' --queries "$D/bq.tsv" --collection "$D/big.tsv" --qrels "$D/bqr" --run "$D/brun" --answers "$D/big.jsonl"
tr '\n' ' ' < "$D/b" | tr -s ' ' | grep -q "hint: F1 1.00 (Algorithm 1: positive) with answer 1 of 2 .*over the first 64 KiB of the passage; long answers by their first 2,048 characters"
ok $? "a 200 KiB passage and a 5,000-character answer: the hint says what it read"
# DuReader's answers carry facets: the demo's queries split by question_type
"$RETRIAGE" export --demo --journal-dir "$D/jf" --what metrics --by question_type > "$D/byq" 2> /dev/null
awk -F'\t' 'NR > 1 && $1 == "bm25" && $2 == "RR@10" { n += $7; v[$3] = 1 } END { exit !(n == 34 && ("ENTITY" in v) && ("YES_NO" in v)) }' "$D/byq"
ok $? "the answers' question_type is a query facet (export --by question_type: 34 queries)"
printf '{"question_id": "q01", "answers": "one"}\n' > "$D/bad.jsonl"
ui 80x24 ':quit\n' --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --answers "$D/bad.jsonl"
grep -q "bad.jsonl:1: \"answers\" must be an array of strings" "$D/err"
ok $? "a malformed answers line: file:line"
done_testing
