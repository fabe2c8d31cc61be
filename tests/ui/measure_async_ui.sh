#!/usr/bin/env bash
# measure_async_ui.sh — on a terminal, a measure the workspace lacks is computed behind the screen
# when it takes longer than a key should wait (held here by RETRIAGE_MEASURE_WAIT until a file
# exists): keys work meanwhile, the status line says how far it is, and the list shows the
# measure once it is in, with the values of retriage eval -m. Waited on by events, never by time.
. "${SRCDIR:-.}/tests/ui/defer_lib.sh"
command -v script > /dev/null || skip_all "script(1) is missing (util-linux)"
export RETRIAGE_MEASURE_WAIT=$D/go
rm -f "$D/go"
fresh
term "$D/t.out" 120x45 "${WS[@]}"
first_screen "$D/t.out"
printf ':measure AP\r' >&3
probe "$D/p1"
st=0
grep -q "query (RR@10)" "$D/p1" || st=1
has_plain "computing AP for 2 runs behind the screen" "$D/t.out" || st=1
report $st "held: the list still shows RR@10, the message says AP is being computed" "$D/p1"
printf ':goto q05\r' >&3
probe "$D/p2"
grep -q "side by side" "$D/p2"
report $? "keys work meanwhile (:goto q05 opens it)" "$D/p2"
printf 'q' >&3
probe "$D/p2b"
grep -q "query (RR@10)" "$D/p2b" && grep -q "computing AP: 0 of 2 runs" "$D/p2b"
report $? "back in the list, the status line says how far AP is" "$D/p2b"
touch "$D/go"
shows_ap() { probe "$D/p3" && grep -q "query (AP)" "$D/p3"; }
wait_for 30 "the list to show AP" shows_ap
report $? "once computed, the list shows AP without a key asking for it" "$D/p3"
"$RETRIAGE" eval -q -m AP "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec" |
    awk -F'\t' '$3 != "all" { v[$3, $1] = $4; q[$3] = 1 } END { for (x in q) printf "%s %.2f %.2f\n", x, v[x, "bm25"], v[x, "dense"] }' |
    sort > "$D/want"
awk '/^q[0-9]/ { print $1, $(NF-5), $(NF-3) }' "$D/p3" | sort > "$D/got"
cmp -s "$D/want" "$D/got" && [ "$(wc -l < "$D/got")" -gt 20 ]
report $? "its values are eval -m AP's (two decimals)" "$D/got"
term_end
[ "$rc" -eq 0 ]
report $? "the workbench ends normally ($rc)" "$D/t.out"
# quitting while a measure is still being computed: the job is stopped, nothing hangs
rm -f "$D/go"
fresh
term "$D/t2.out" 120x45 "${WS[@]}"
first_screen "$D/t2.out"
printf ':measure nDCG@10\r' >&3
probe "$D/q1"
term_end   # (the hold is never released: stopping the job lets its threads go)
[ "$rc" -eq 0 ] && ! crashed
report $? "q while a measure is being computed: the workbench ends ($rc)" "$D/t2.out"
# a measure added while the collection is still being indexed: the workspace cache written once it
# is in keeps the file's measures only (its key names them), and the next open reuses it, with
# eval's values for those and for the measure asked for again
unset RETRIAGE_MEASURE_WAIT
export RETRIAGE_COLLECTION_WAIT=$D/cgo
rm -f "$D/cgo"
fresh
term "$D/t3.out" 120x45 "${WS[@]}"
first_screen "$D/t3.out"
printf ':measure AP\r' >&3
wait_for 30 "the list to show AP" shows_ap
report $? "AP asked for while the collection is being indexed" "$D/p3"
touch "$D/cgo"
cached() { ls "$D"/c.tsv.*.rtws > /dev/null 2>&1; }
wait_for 30 "the workspace cache" cached
report $? "the collection in, the workspace cache is written"
term_end
unset RETRIAGE_COLLECTION_WAIT
printf 'L\n:snapshot %s/c0\nq\n:snapshot %s/c1\n:measure AP\n:snapshot %s/c2\n' "$D" "$D" "$D" > "$D/script"
"$RETRIAGE" "${WS[@]}" --journal-dir "$D/j" --annotator d --fresh --script "$D/script" --size 120x45 > "$D/out" 2> "$D/err"
st=$?
evals() {  # evals MEASURE: qid, bm25's and dense's values (two decimals) as the list shows them
    "$RETRIAGE" eval -q -m "$1" "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec" |
        awk -F'\t' '$3 != "all" { v[$3, $1] = $4; q[$3] = 1 } END { for (x in q) printf "%s %.2f %.2f\n", x, v[x, "bm25"], v[x, "dense"] }' | sort
}
rows() { awk '/^q[0-9]/ { print $1, $(NF-5), $(NF-3) }' "$1" | sort; }
[ $st -eq 0 ] && grep -q "workspace cache reused" "$D/c0" && [ "$(rows "$D/c1")" = "$(evals RR@10)" ] &&
    [ "$(rows "$D/c2")" = "$(evals AP)" ] && grep -q "query (AP)" "$D/c2"
report $? "the next open reuses the cache: RR@10 as eval gives it, and AP asked for again as eval gives it" "$D/c1"
done_testing
