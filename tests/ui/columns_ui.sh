#!/bin/sh
# columns_ui.sh — everything fits at 80x24 and 140x42 with four runs named like a new user's
# (xapian-bm25-jieba, xapian-bm25-bigram, sklearn-tfidf-char, fused-rrf) and six measures: run
# headers in their shortest distinguishing form with a legend, never run together; the list, the
# metrics panel and the breakdown scroll their columns with h/l and say which they show; the
# focused run is named in the status line and f filters on it; a sort starts at the top.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
R=$DEMO/runs
ui() {  # ui SIZE SCRIPT
    printf '%b' "$2" > "$D/script"
    "$RETRIAGE" --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --collection "$DEMO/collection.tsv" \
        --run "xapian-bm25-jieba=$R/bm25.trec" --run "xapian-bm25-bigram=$R/dense.trec" \
        --run "sklearn-tfidf-char=$R/rerank.trec" --run "fused-rrf=$R/bm25.trec" \
        -m RR@10,Success@1,Success@50,nDCG@10,P@1,Judged@10 --journal-dir "$D/j" --annotator c \
        --fresh --script "$D/script" --size "$1" --echo > "$D/echo" 2> "$D/err"
}
S="$D/s"
header() { sed -n 2p "$1"; }

for size in 80x24 140x42; do
    ui $size ':snapshot '"$S"'.l0\nl\n:snapshot '"$S"'.l1\nf\n:snapshot '"$S"'.f\nF\nl\nl\n:snapshot '"$S"'.l3\n'
    ok $? "$size: the list, l, f, F, l l"
    h=$(header "$S.l0")
    echo "$h" | grep -q ">…jieba" && echo "$h" | grep -q " …bigram" && ! echo "$h" | grep -q "xapian-bm25-jieba"
    ok $? "$size: xapian-bm25-jieba and xapian-bm25-bigram head their columns as …jieba / …bigram ($h)"
    sed -n 3,4p "$S.l0" | sed 's/\xc2\xa0/ /g' | grep -q "runs: …jieba = xapian-bm25-jieba   …bigram = xapian-bm25-bigram"
    ok $? "$size: a legend line maps the short names to the full ones"
    # never two headers run together: every run's header ends in a blank before the next one
    echo "$h" | grep -Eq '(…jieba|…bigram|sklearn-…|fused-rrf) +(…bigram|sklearn-…|fused-rrf|Δ)'
    ok $? "$size: the headers are separated"
    tail -1 "$S.l0" | grep -q "run xapian-bm25-jieba" && tail -1 "$S.l1" | grep -q "run xapian-bm25-bigram"
    ok $? "$size: the status line names the focused run; l moves the focus"
    header "$S.l1" | grep -q ">…bigram"
    ok $? "$size: the focused run's header is marked"
    got=$(grep -o '^[0-9]* queries shown' "$D/echo" | head -1)
    ui $size ':filter notop 5 xapian-bm25-bigram\n'
    want=$(grep -o '^[0-9]* queries shown' "$D/echo" | head -1)
    [ -n "$got" ] && [ "$got" = "$want" ] && tail -1 "$S.f" | grep -q "run xapian-bm25-bigram"
    ok $? "$size: f filters on the run named in the status line ($got, notop 5 of it: $want)"
    header "$S.l3" | grep -q ">fused-rrf"
    ok $? "$size: focusing the last run shows its column"
done

# 80 columns: three of the four runs, then scrolled; 140: all four, no hint
! tail -1 "$S.l0" | grep -q "of 4 (h/l)" && header "$S.l0" | grep -q "fused-rrf"
ok $? "140x42 shows all four runs and no column hint" # (the loop's last size)
ui 80x24 ':snapshot '"$S"'.n0\nl\nl\nl\n:snapshot '"$S"'.n3\n'
tail -1 "$S.n0" | grep -q "runs 1–3 of 4 (h/l)" && tail -1 "$S.n3" | grep -q "runs 2–4 of 4 (h/l)" &&
    ! header "$S.n0" | grep -q "fused-rrf" && header "$S.n3" | grep -q ">fused-rrf" && ! header "$S.n3" | grep -q "…jieba"
ok $? "80x24: runs 1–3 of 4, and after l l l runs 2–4 with the focused fused-rrf"

# the metrics panel: six measures, h/l scroll them, the run names stay
for size in 80x24 140x42; do
    ui $size 'm\n:snapshot '"$S"'.m0\nl\nl\nl\nl\nl\n:snapshot '"$S"'.m1\nh\nh\nh\nh\nh\n:snapshot '"$S"'.m2\n'
    grep -q "^run  *RR@10" "$S.m0" && ! grep -q "Judged@10" "$S.m0" && grep -q "Judged@10" "$S.m1" &&
        ! grep -q "RR@10 " "$S.m1" && grep -q "^xapian-bm25-jieba" "$S.m1" && cmp -s "$S.m0" "$S.m2"
    ok $? "$size: the metrics panel scrolls its measures with l and back with h, the run names stay"
done
tail -1 "$S.m0" | grep -q "measures 1–4 of 6 (h/l)"
ok $? "140x42: measures 1–4 of 6"
ui 80x24 'm\n:snapshot '"$S"'.m0\n'
tail -1 "$S.m0" | grep -q "measures 1–2 of 6 (h/l)"
ok $? "80x24: measures 1–2 of 6"

# the breakdown: run columns scroll at 80 columns, each header short and apart
ui 80x24 'b\n:snapshot '"$S"'.b0\nl\nl\n:snapshot '"$S"'.b1\n'
tail -1 "$S.b0" | grep -q "runs 1–2 of 4 (h/l)" && grep -q "…jieba@5 " "$S.b0" && tail -1 "$S.b1" | grep -q "runs 3–4 of 4" &&
    grep -q "fused-rrf@5" "$S.b1"
ok $? "80x24: the breakdown shows runs 1–2 of 4, l scrolls to 3–4"
ui 140x42 'b\n:snapshot '"$S"'.b0\n'
grep -q "…jieba@5 .*…bigram@5 .*sklearn-…@5 .*fused-rrf@5" "$S.b0"
ok $? "140x42: the breakdown shows the four runs"

# a sort starts at the top: the first row holds the largest delta (in size: a loss or a gain)
for size in 80x24 140x42; do
    ui $size ':sort delta desc\n:snapshot '"$S"'.d\n'
    awk 'NR > 2 && $1 ~ /^q[0-9]/ { for (i = NF; i > 0; i--) if ($i ~ /^[+-][0-9]\.[0-9][0-9]$/) { print substr($i, 2); break } }' "$S.d" > "$D/deltas"
    first=$(head -1 "$D/deltas"); max=$(sort -gr "$D/deltas" | head -1)
    [ -n "$first" ] && [ "$first" = "$max" ]
    ok $? "$size: after :sort delta desc the first row shown has the largest delta in size ($first, max $max)"
done

# names and ids far longer than a line (600-byte run names, 300-byte qid and pids, one pid not in
# the collection): every view that puts one in a line of its own draws it cut, never past its
# buffer (the status line, the side-by-side legend, the passage view's judgment and ranks lines,
# the query line and a missing passage's "[pid]" crashed or over-read)
L=$(printf '%0600d' 0 | tr 0 r)
QL=q$(printf '%0300d' 0 | tr 0 x) PL=p$(printf '%0300d' 0 | tr 0 y) PM=m$(printf '%0300d' 0 | tr 0 z)
printf '%s\tlong query\nq2\tshort\n' "$QL" > "$D/lq.tsv"
printf '%s\tlong passage\np2\tshort\n' "$PL" > "$D/lc.tsv"
printf '%s 0 %s 1\nq2 0 p2 1\n' "$QL" "$PL" > "$D/lq.trec"
printf '%s Q0 %s 1 2 t\n%s Q0 %s 2 1 t\nq2 Q0 p2 1 1 t\n' "$QL" "$PM" "$QL" "$PL" > "$D/l.run"
printf ':goto %s\n:snapshot %s.g\nj\n-\n<Enter>\n:snapshot %s.p\nq\nk\n<Enter>\n:snapshot %s.m\n' \
    "$QL" "$S" "$S" "$S" > "$D/script"
"$RETRIAGE" --queries "$D/lq.tsv" --qrels "$D/lq.trec" --collection "$D/lc.tsv" --run "a$L=$D/l.run" \
    --run "b$L=$D/l.run" --journal-dir "$D/lj" --annotator c --fresh --script "$D/script" --size 120x30 --echo \
    > "$D/out" 2> "$D/err"
rc=$?
r50=$(printf '%050d' 0 | tr 0 r)
[ "$rc" -eq 0 ] && ! crashed && tail -1 "$S.g" | grep -q "^ run a$r50" && grep -q "\[m$(printf '%040d' 0 | tr 0 z)" "$S.g" &&
    grep -q '"op":"label"' "$D/lj/c.jsonl" && tail -1 "$S.p" | grep -q "queries  2 runs  run a$r50" &&
    grep -q "^passage p$(printf '%0100d' 0 | tr 0 y)" "$S.p" && grep -q "^a$r50" "$S.p" && grep -q "^passage m" "$S.m"
report $? "600-byte run names, 300-byte ids: the views draw them cut, nothing crashes"
# a side-by-side column wider than its header's buffer: the run name cut, nothing read past it
printf ':goto %s\n:snapshot %s.w\n' "$QL" "$S" > "$D/script"
"$RETRIAGE" --queries "$D/lq.tsv" --qrels "$D/lq.trec" --collection "$D/lc.tsv" --run "a$L=$D/l.run" \
    --run "b$L=$D/l.run" --journal-dir "$D/lj" --annotator c --fresh --script "$D/script" --size 1000x20 \
    > "$D/out" 2> "$D/err"
rc=$?
[ "$rc" -eq 0 ] && sed -n 3p "$S.w" | cut -d'|' -f1 | grep -q "^>a$r50${r50}r* *$"
report $? "a 500-column side-by-side header shows the run name cut, and nothing after it"
done_testing
