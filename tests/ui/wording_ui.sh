#!/usr/bin/env bash
# wording_ui.sh — what the workbench says about its own figures (issue 35, item 12): the
# side-by-side legend explains a cell's "4/1/1" within 80 columns, its header names the list's
# measure (RR in a DBQA workspace, not a fixed RR@10), the agreement view explains "undef" only
# when one shows, and :grep counts query-passage pairs, not passages.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
R=$DEMO/runs
report_ui() { ok "$1" "$2"; [ "$1" -eq 0 ] || { diag < "$3"; diag < "$D/err"; }; }

# (c) four runs with long names at 80 columns: the status line still says what the ranks are
printf ':goto q01\n:snapshot %s/c80\n' "$D" > "$D/s"
"$RETRIAGE" --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --collection "$DEMO/collection.tsv" \
    --run "xapian-bm25-jieba=$R/bm25.trec" --run "xapian-bm25-bigram=$R/dense.trec" \
    --run "sklearn-tfidf-char=$R/rerank.trec" --run "fused-rrf=$R/bm25.trec" --journal-dir "$D/j" --annotator w --fresh \
    --script "$D/s" --size 80x24 > /dev/null 2> "$D/err"
tail -1 "$D/c80" | grep -q "^ run xapian-bm25-jieba  ranks in xapian-bm25-bigram/sklearn-tfidf-char/fused-rrf *$"
report_ui $? "80x24, four runs: the legend names the runs whose ranks a cell shows, uncut" "$D/c80"
printf ':goto q01\n:snapshot %s/d80\n' "$D" > "$D/s"
"$RETRIAGE" --demo --journal-dir "$D/j" --annotator w --fresh --script "$D/s" --size 80x24 > /dev/null 2> "$D/err"
tail -1 "$D/d80" | grep -q "^ run bm25  ranks in dense/rerank  +/-/? judged  \[keys\] tags  1-8 tag *$"
report_ui $? "80x24, the demo: the ranks' legend first, then the keys that fit" "$D/d80"

# (d) DBQA: the list's measure is RR; the side-by-side header says RR too, with the same value
cd "$D" || exit 1
printf '北京的首都是哪里\t北京是中国的首都\t1\n北京的首都是哪里\t上海是一个城市\t0\n北京的首都是哪里\t天津靠海\t0\n长江有多长\t长江全长约6300千米\t1\n长江有多长\t黄河是第二长河\t0\n' > t.dbqa
printf '0.5\n0.9\n0.5\n0.1\n0.3\n' > sys1.score
printf '1\n0\n0\n0.2\n0.2\n' > sys2.score
for size in 80x24 120x30; do
    printf ':snapshot %s/dl\n<Enter>\n:snapshot %s/dc\n' "$D" "$D" > s
    "$RETRIAGE" --dbqa t.dbqa --run sys1.score --run sys2.score --journal-dir j --annotator d --fresh --script s \
        --size $size > /dev/null 2> "$D/err"
    sed -n 2p dl | grep -q "(RR)" && sed -n 3p dl | grep -q "^q1 .* 2 0.50 .* 1 1.00" &&
        sed -n 3p dc | grep -q "^>sys1 first@2 RR 0.50 *| sys2 first@1 RR 1.00" && ! grep -q "RR@10" dc
    report_ui $? "$size: DBQA's side-by-side header shows the list's measure, RR, and its values" dc
done
cd - > /dev/null || exit 1

# (e) agreement: alpha and kappa defined; "undef" explained only when a cell shows it
printf 'q1\tfirst query\nq2\tsecond query\n' > "$D/queries.tsv"
printf 'q1 0 p1 1\nq2 0 p3 0\n' > "$D/qrels"
printf 'q1 Q0 p1 1 2 r\nq1 Q0 p2 2 1 r\nq2 Q0 p3 1 2 r\nq2 Q0 p4 2 1 r\n' > "$D/run"
printf 'p1\tthe first passage\np2\tthe second passage\np3\tthe third passage\np4\tthe fourth passage\n' > "$D/coll.tsv"
WS=(--queries "$D/queries.tsv" --collection "$D/coll.tsv" --qrels "$D/qrels" --run "$D/run" --journal-dir "$D/ja")
printf 'annotator\tqid\tpid\tgrade\n' > "$D/j.tsv"
printf 'alice\tq1\tp1\t1\nalice\tq1\tp2\t0\nalice\tq2\tp3\t1\nalice\tq2\tp4\t0\n' >> "$D/j.tsv"
printf 'bob\tq1\tp1\t1\nbob\tq1\tp2\t1\nbob\tq2\tp3\t1\nbob\tq2\tp4\t0\n' >> "$D/j.tsv"
"$RETRIAGE" import "${WS[@]}" --judgments "$D/j.tsv" 2> "$D/err"
printf 'A\n:snapshot %s/a1\n' "$D" > "$D/s"
"$RETRIAGE" "${WS[@]}" --annotator lead --fresh --script "$D/s" --size 120x30 > /dev/null 2> "$D/err"
sed -n 3p "$D/a1" | grep -q "^Fleiss' kappa  *0\.[0-9]* on 4 pairs all judged | Krippendorff's alpha  *0\.[0-9]* on 4 judged pairs *$" &&
    grep -q "^alice / bob .* undef" "$D/a1" && sed -n 6p "$D/a1" | grep -q "^undef: every label the same, or nothing to compare"
report_ui $? "labels only: alpha defined (no undef beside it); the categories' kappas undef, explained below them" "$D/a1"
# tags from both on every pair, the three categories shown at 80 columns each varied: nothing undef
printf 'annotator\tqid\tpid\tcategory\n' > "$D/t.tsv"
printf 'alice\tq1\tp1\tentity\nalice\tq1\tp2\tnumeral\nalice\tq2\tp3\tmodifier\nalice\tq2\tp4\tentity\nalice\tq2\tp4\tnumeral\n' >> "$D/t.tsv"
printf 'bob\tq1\tp1\tentity\nbob\tq1\tp2\tentity\nbob\tq2\tp3\tmodifier\nbob\tq2\tp4\tnumeral\n' >> "$D/t.tsv"
"$RETRIAGE" import "${WS[@]}" --tags "$D/t.tsv" 2> "$D/err"
printf 'A\n:snapshot %s/a2\n' "$D" > "$D/s"
"$RETRIAGE" "${WS[@]}" --annotator lead --fresh --script "$D/s" --size 80x24 > /dev/null 2> "$D/err"
grep -q "^alice / bob  *4  *0\.7500  *0\.5000  *4  *0\.0000  *0\.5000  *1\.0000" "$D/a2" && ! grep -q "undef" "$D/a2"
report_ui $? "80x24, every value shown defined: no word of undef" "$D/a2"

# (f) :grep counts (query, passage) pairs: the demo ranks some passages for several queries
printf ':grep 冬奥\n:snapshot %s/g1\n' "$D" > "$D/s"
"$RETRIAGE" --demo --journal-dir "$D/j" --annotator w --fresh --script "$D/s" --size 120x30 --echo > "$D/echo" 2> "$D/err"
pairs=$(awk '{ if (!seen[$1 " " $3]++) n++ } END { print n }' "$R"/*.trec)
grep -q "^[0-9]* of $pairs query-passage pairs contain \"冬奥\" (the rankings of 34 listed queries)$" "$D/echo" &&
    sed -n 2p "$D/g1" | grep -q "^\"冬奥\": [0-9]* of the $pairs query-passage pairs ranked for 34 listed queries"
report_ui $? ":grep says query-passage pairs ($pairs of them ranked), in the status line and the header" "$D/g1"
# (b) the status line says which end of a sort comes first, and S says the other
printf ':sort delta\nS\n:sort tags\nS\n:sort qid\nS\n' > "$D/s"
"$RETRIAGE" --demo --journal-dir "$D/j" --annotator w --fresh --script "$D/s" --size 80x24 --echo > "$D/echo" 2> "$D/err"
printf '%s\n' "sorted by delta, the largest difference first (a loss before a gain of the same size)" \
    "sorted by delta, the smallest difference first" "sorted by tags, the most first" "sorted by tags, the fewest first" \
    "sorted by qid" "sorted by qid, descending" > "$D/want"
cmp -s "$D/want" "$D/echo"
report_ui $? ":sort delta, :sort tags and S say which end comes first" "$D/echo"
done_testing
