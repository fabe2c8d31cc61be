#!/bin/sh
# measure_ui.sh — the query list with any measure (the workspace's, or any other eval knows,
# computed then and kept live): its run columns and delta follow :measure / M (values equal
# `retriage eval -q`), the metrics panel shows it, sorting by a run uses it, and
# :filter worse|better A B [MIN_DELTA] compares on it with a threshold.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
# the workspace: its qrels, two runs and a third run (a path, or nothing)
QRELS=$DEMO/qrels.trec RUN1=$DEMO/runs/bm25.trec RUN2=$DEMO/runs/dense.trec THIRD=
ui() {
    printf '%b' "$1" > "$D/script"
    "$RETRIAGE" --queries "$DEMO/queries.tsv" --qrels "$QRELS" --run "$RUN1" \
        --run "$RUN2" ${THIRD:+--run} ${THIRD:+"$THIRD"} -m RR@10,nDCG@10,Judged@10,P@1 \
        --journal-dir "$D/j" --annotator m --fresh --script "$D/script" --size "${SIZE:-120x45}" --echo > "$D/echo" 2> "$D/err"
}
ui ':snapshot '"$D"'/l0\nM\n:snapshot '"$D"'/l1\nM\n:snapshot '"$D"'/l2\n:measure rr@10\n:snapshot '"$D"'/l3\n'
ok $? "the list, M twice and :measure"
grep -q "query (RR@10)" "$D/l0" && grep -q "query (nDCG@10)" "$D/l1" && grep -q "query (Judged@10)" "$D/l2" &&
    grep -q "query (RR@10)" "$D/l3"
ok $? "the header names the list's measure; M cycles, :measure picks one (any case)"
# the values are eval's, to two decimals: q01..q05 of bm25 and dense under nDCG@10
"$RETRIAGE" eval -q -m nDCG@10 "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec" > "$D/eval"
st=0
for q in q01 q02 q03 q04 q05; do
    want=$(awk -F'\t' -v q=$q '$3 == q { printf "%.2f ", $4 }' "$D/eval")
    got=$(grep "^$q " "$D/l1" | grep -o '[0-9]*\.[0-9][0-9]' | head -2 | tr '\n' ' ')
    [ "$want" = "$got" ] || { echo "$q: eval $want, list $got" | diag; st=1; }
done
ok $st "nDCG@10 in the list equals retriage eval -q (to two decimals)"
ui ':measure nDCG@10\n:filter worse 1 2\n:snapshot '"$D"'/f1\n:filter worse 1 2 0.2\n:snapshot '"$D"'/f2\n:filter better 1 2 0.2\n'
cmp_count() {  # cmp_count worse|better MIN: queries where bm25 is below / above dense by more than MIN
    awk -F'\t' -v how="$1" -v min="$2" '$3 != "all" { if ($1 == "bm25") a[$3] = $4; else b[$3] = $4 }
        END { for (q in a) if ((how == "worse" && a[q] < b[q] - min) || (how == "better" && a[q] > b[q] + min)) n++; print n + 0 }' "$D/eval"
}
want=$(cmp_count worse 0) want2=$(cmp_count worse 0.2) want3=$(cmp_count better 0.2)
got=$(grep -o "^[0-9]* queries shown" "$D/echo" | tr '\n' ' ')
[ "$got" = "$want queries shown $want2 queries shown $want3 queries shown " ]
ok $? "worse 1 2, worse 1 2 0.2, better 1 2 0.2 on nDCG@10: $want, $want2, $want3 queries as eval says (got: $got)"
# contrasts without qrels: the RBO column, sorted most different first, and the filter on it
ui ':contrast rbo\n:sort rbo\n:snapshot '"$D"'/c1\n:filter rbo 1 2 0.5\n:snapshot '"$D"'/c2\n:sort jaccard\n:snapshot '"$D"'/c3\n'
ok $? "the contrast column, sorting and filtering by it"
col() { awk 'NR > 2 && NF > 4 { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]\.[0-9][0-9][0-9]$/) { print $i; break } }' "$1"; }
col "$D/c1" > "$D/rbo"
n=$(wc -l < "$D/rbo"); sorted=$(sort -n "$D/rbo" | tr '\n' ' '); asis=$(tr '\n' ' ' < "$D/rbo")
below=$(awk '$1 <= 0.5' "$D/rbo" | wc -l)
grep -q "RBO" "$D/c1" && [ "$n" -eq 34 ] && [ "$sorted" = "$asis" ] && awk '$1 < 0 || $1 > 1 { bad = 1 } END { exit bad }' "$D/rbo" &&
    grep -q "^$below queries shown" "$D/echo" && grep -q "Jac@10" "$D/c3"
ok $? "RBO of bm25 and dense for the 34 queries, in [0, 1], most different first; rbo 1 2 0.5 keeps the $below at or below 0.5"
# the contrasts computed ahead once the first screen is up (taken once computed: :idle) are the same
ui ':idle\n:contrast rbo\n:sort rbo\n:snapshot '"$D"'/c1a\n:filter rbo 1 2 0.5\n:snapshot '"$D"'/c2a\n:sort jaccard\n:snapshot '"$D"'/c3a\n'
[ $? -eq 0 ] && cmp -s "$D/c1" "$D/c1a" && cmp -s "$D/c2" "$D/c2a" && cmp -s "$D/c3" "$D/c3a"
ok $? "once the contrasts computed ahead are done (:idle): the same RBO and Jaccard columns, sort and filter"
# … and when a :sort came before they were done: the values in so far taken over, the rest computed
# then (held after 10 queries of each kind, of 34)
export RETRIAGE_CONTRAST_AHEAD_MAX=10
ui ':idle\n:contrast rbo\n:sort rbo\n:snapshot '"$D"'/c1b\n:filter rbo 1 2 0.5\n:snapshot '"$D"'/c2b\n:sort jaccard\n:snapshot '"$D"'/c3b\n'
[ $? -eq 0 ] && cmp -s "$D/c1" "$D/c1b" && cmp -s "$D/c2" "$D/c2b" && cmp -s "$D/c3" "$D/c3b"
ok $? "contrasts computed ahead stopped part-way (10 of 34 queries): the same RBO and Jaccard columns, sort and filter"
ui ':idle\n:contrast jaccard\n:sort jaccard\n:snapshot '"$D"'/c4b\n'
st=$?
unset RETRIAGE_CONTRAST_AHEAD_MAX
ui ':contrast jaccard\n:sort jaccard\n:snapshot '"$D"'/c4\n'
[ $st -eq 0 ] && [ $? -eq 0 ] && cmp -s "$D/c4" "$D/c4b" && grep -q "Jac@10" "$D/c4"
ok $? "the Jaccard column from contrasts stopped part-way equals the one computed at once"
# … and never for another pair: with a third run, the delta moved to bm25 / rerank once they are done
THIRD=$DEMO/runs/rerank.trec
# (d0: the column drawn in the list's order, before any sort, is the first to ask for a value)
ui ':delta 1 3\n:contrast rbo\n:snapshot '"$D"'/d0\n:sort rbo\n:snapshot '"$D"'/d1\n:sort jaccard\n:snapshot '"$D"'/d2\n'
ui ':idle\n:delta 1 3\n:contrast rbo\n:snapshot '"$D"'/d0a\n:sort rbo\n:snapshot '"$D"'/d1a\n:sort jaccard\n:snapshot '"$D"'/d2a\n'
[ $? -eq 0 ] && cmp -s "$D/d0" "$D/d0a" && cmp -s "$D/d1" "$D/d1a" && cmp -s "$D/d2" "$D/d2a" &&
    col "$D/c1" > "$D/col.c1" && col "$D/d1" > "$D/col.d1" && ! cmp -s "$D/col.c1" "$D/col.d1"
ok $? "a delta pair changed once the contrasts ahead are done: its own contrasts (bm25 / rerank), not the pair computed ahead"
# … nor the pair remembered: the column shown for bm25 / dense, then the delta moved to bm25 / rerank
ui ':idle\n:contrast rbo\n:snapshot '"$D"'/e12\n:delta 1 3\n:snapshot '"$D"'/e13\n'
[ $? -eq 0 ] && col "$D/e13" > "$D/col.e13" && col "$D/d0" > "$D/col.d0" && col "$D/e12" > "$D/col.e12" &&
    cmp -s "$D/col.e13" "$D/col.d0" && ! cmp -s "$D/col.e12" "$D/col.e13"
ok $? "the contrast column follows the delta pair from one pair to another"
THIRD=
# f with another measure: the queries where the run scores 0 on it
ui ':measure P@1\nf\n'
want=$("$RETRIAGE" eval -q -m P@1 "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" | awk -F'\t' '$3 != "all" && $4 == 0' | wc -l)
[ "$want" -gt 0 ] && grep -q "^$want queries shown" "$D/echo"
ok $? "f on P@1: the $want queries where bm25 scores 0"
# ---- any measure eval knows, not only the workspace's: computed for every run, then kept live
# (rows: qid, bm25's and dense's values of the list's measure, from the right of the row)
rows() { awk '/^q[0-9]/ { print $1, $(NF-5), $(NF-3) }' "$1"; }
evalq() {  # evalq MEASURE QRELS: qid, bm25's and dense's values (two decimals) as the list shows them
    "$RETRIAGE" eval -q -m "$1" "$2" "$RUN1" "$RUN2" |
        awk -F'\t' '$3 != "all" { v[$3, $1] = $4; q[$3] = 1 } END { for (x in q) printf "%s %.2f %.2f\n", x, v[x, "bm25"], v[x, "dense"] }' | sort
}
panel() {  # panel SNAP RUN COL: the base and current values of the COLth measure of RUN in the metrics panel
    awk -v r="$2" -v c="$3" '$1 == r { print $(3 * c - 1), $(3 * c) }' "$1"
}
mean() { "$RETRIAGE" eval -m "$1" "$2" "$3" | awk -F'\t' '$3 == "all" { printf "%.4f", $4 }'; }
SIZE=200x45   # the panel's five measures side by side
ui ':measure AP\n:snapshot '"$D"'/a1\nm\n:snapshot '"$D"'/a2\nq\n:sort bm25\n:snapshot '"$D"'/a3\n'
ok $? ":measure AP, which the workspace (-m RR@10,nDCG@10,Judged@10,P@1) lacks"
grep -q "query (AP)" "$D/a1" && [ "$(rows "$D/a1" | sort)" = "$(evalq AP "$QRELS")" ] && [ "$(rows "$D/a1" | wc -l)" -eq 34 ]
ok $? "the list's run columns show AP, equal to retriage eval -q -m AP for all 34 queries (two decimals)"
b=$(mean AP "$QRELS" "$RUN1") d=$(mean AP "$QRELS" "$RUN2")
grep -q "P@1 *AP" "$D/a2" && [ "$(panel "$D/a2" bm25 5)" = "$b $b" ] && [ "$(panel "$D/a2" dense 5)" = "$d $d" ]
ok $? "the metrics panel has an AP column: base and current equal eval -m AP ($b, $d)"
awk '/^q[0-9]/ { print $(NF-5) }' "$D/a3" > "$D/a3.col"
grep -q "sorted by AP of bm25" "$D/echo" && sort -n -c "$D/a3.col" && [ "$(wc -l < "$D/a3.col")" -eq 34 ]
ok $? "sorting by bm25 orders by its AP"
# a relabel moves it as it moves the workspace's own measures: eval on the qrels so relabelled
sed 's/^q01 0 p0023 0$/q01 0 p0023 1/' "$QRELS" > "$D/qrels-relabelled"
! cmp -s "$QRELS" "$D/qrels-relabelled"
ok $? "(the relabel changes the qrels)"
rm -rf "$D/j"
ui ':measure AP\n:label q01 p0023 1\n:snapshot '"$D"'/r1\nm\n:snapshot '"$D"'/r2\n'
ok $? ":measure AP, then :label q01 p0023 1 (bm25's first passage, judged 0)"
b2=$(mean AP "$D/qrels-relabelled" "$RUN1") n0=$(mean nDCG@10 "$QRELS" "$RUN1") n2=$(mean nDCG@10 "$D/qrels-relabelled" "$RUN1")
[ "$(rows "$D/r1" | sort)" = "$(evalq AP "$D/qrels-relabelled")" ] && [ "$b2" != "$b" ] &&
    [ "$(panel "$D/r2" bm25 5)" = "$b $b2" ] && [ "$(panel "$D/r2" bm25 2)" = "$n0 $n2" ]
ok $? "after the relabel: the list's AP and the panel's current AP ($b -> $b2) are eval's on the relabelled qrels, as nDCG@10 ($n0 -> $n2)"
rm -rf "$D/j"
ui ':label q01 p0023 1\n:measure AP\n:snapshot '"$D"'/r3\nm\n:snapshot '"$D"'/r4\n'
st=$?
rm -rf "$D/j"
[ $st -eq 0 ] && [ "$(head -n -1 "$D/r1")" = "$(head -n -1 "$D/r3")" ] && [ "$(head -n -1 "$D/r2")" = "$(head -n -1 "$D/r4")" ]
ok $? "a measure chosen after the relabel: the same list and panel (its current values from the relabelled qrels)"
ui ':measure mrr@10,ndcg_cut_5,trec\n:snapshot '"$D"'/t1\nm\n:snapshot '"$D"'/t2\n'
[ $? -eq 0 ] && grep -q "query (RR@10)" "$D/t1" && grep -q "P@1 *nDCG@5 *AP *RR$" "$D/t2"
ok $? "names as eval -m takes them (aliases, trec_eval names, a preset): the list shows the first, the rest join the panel"
ui ':measure nDGC@10\n'
[ $? -eq 2 ] && grep -q "nDGC@10: no such measure; ? (help) and retriage eval --help list them: RR\[@k\], P@k" "$D/err"
ok $? "an unknown measure: the script stops, the message says where the known ones are listed"
SIZE=
ui '?\n:snapshot '"$D"'/h1\n'
grep -q "Measures: :measure NAME shows any of them" "$D/h1" && grep -q "nDCG\[@k\]" "$D/h1"
ok $? "the help lists the measures :measure takes"
# contrasts need no qrels: :filter rbo|jaccard keeps the unjudged queries at or below MAX too,
# as the column shows them (q01..q05 without judgments here)
grep -v '^q0[1-5] ' "$DEMO/qrels.trec" > "$D/qrels-part"
QRELS=$D/qrels-part
ui ':contrast rbo\n:snapshot '"$D"'/u0\n:filter rbo 1 2 0.6\n:snapshot '"$D"'/u1\n:filter jaccard 1 2 1\n'
want=$(col "$D/u0" | awk '$1 <= 0.6' | wc -l)
unj=$(grep -c '^q0[1-5] ' "$D/u1")
# (the echo's first line may be the open's message: its load warnings)
[ "$(grep 'queries shown' "$D/echo" | sed -n 1p)" = "$want queries shown" ] && [ "$unj" -gt 0 ] &&
    [ "$(grep 'queries shown' "$D/echo" | sed -n 2p)" = "34 queries shown" ]
ok $? "rbo 1 2 0.6 keeps the $want queries the column shows at or below 0.6, unjudged ones too ($unj); jaccard 1 2 1 all 34"
# … and so do tags: an unjudged query tagged is among the tagged ones, not the untagged
ui ':tag q01 - 1\n:filter tagged\n:snapshot '"$D"'/t1\n:filter untagged\n:snapshot '"$D"'/t2\n'
[ $? -eq 0 ] && [ "$(grep 'queries shown' "$D/echo" | tr '\n' ' ')" = "1 queries shown 33 queries shown " ] &&
    grep -q '^q01 ' "$D/t1" && ! grep -q '^q01 ' "$D/t2" && grep -q '^q02 ' "$D/t2"
ok $? "filter tagged: the unjudged q01 once tagged; untagged: the other 33, unjudged q02 among them"
# queries neither run ranks (q01..q03 here) have no contrast ("-"): last, whichever the direction
QRELS=$DEMO/qrels.trec
grep -v '^q0[1-3] ' "$DEMO/runs/bm25.trec" > "$D/bm25-part"
grep -v '^q0[1-3] ' "$DEMO/runs/dense.trec" > "$D/dense-part"
RUN1=$D/bm25-part RUN2=$D/dense-part
last3() { awk 'NR > 2 && /^q[0-9]/ { print $1 }' "$1" | tail -3 | sort | tr '\n' ' '; }
ui ':sort rbo\n:snapshot '"$D"'/n1\n:sort jaccard desc\n:snapshot '"$D"'/n2\n'
[ $? -eq 0 ] && [ "$(last3 "$D/n1")" = "q01 q02 q03 " ] && [ "$(last3 "$D/n2")" = "q01 q02 q03 " ] &&
    [ "$(col "$D/n1" | wc -l)" -eq 31 ]
ok $? "sorted by rbo, by jaccard descending: the 3 queries without a contrast come last"

done_testing
