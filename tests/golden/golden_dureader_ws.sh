#!/bin/sh
# golden_dureader_ws — `retriage eval` on the dureader2-demo-ws workspace (three real runs over
# 100 DuReader questions, 93 with positives) against its expected/ outputs: trec_eval 10.0
# printing %.17g (-c -M10 recip_rank; -c success.1,50 recall.50 ndcg_cut.10 map P.1), per query
# and 'all', at 1e-9; and the official DuReader evaluation.py JSON at 1e-12 (its sums run in JSON
# key order, see expected/COMMANDS.txt). Every run is read both as TREC and as DuReader JSON, and
# the qrels both as TREC and as DuReader JSON lines.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/golden/golden_lib.sh"
need_shared dureader2-demo-ws
W=$SHARED_DATA/dureader2-demo-ws
E=$W/expected
TOL_PY=1e-12

for r in baidu-search xapian-bm25-jieba sklearn-tfidf-char; do
    for q in qrels.trec qrels.dureader.jsonl; do
        for run in "$r.trec" "$r.dureader.json"; do
            what="$run + $q"
            te_check "$what: RR@10 per query vs $r.mrr10.q.txt" "$E/$r.mrr10.q.txt" 10 $TOL_HP "$W/$q" "$W/runs/$run"
            te_check "$what: RR@10 mean vs $r.mrr10.txt" "$E/$r.mrr10.txt" 10 $TOL_HP "$W/$q" "$W/runs/$run"
            te_check "$what: Success@1/50, R@50, nDCG@10, AP, P@1 per query vs $r.main.q.txt" \
                "$E/$r.main.q.txt" 0 $TOL_HP "$W/$q" "$W/runs/$run"
            te_check "$what: means vs $r.main.txt" "$E/$r.main.txt" 0 $TOL_HP "$W/$q" "$W/runs/$run"
            dr_json_ref "$E/$r.dureader-official.json" >"$TMPD/dr.ref"
            te_check "$what: MRR@10, recall@1/50 vs the official DuReader script" \
                "$TMPD/dr.ref" -1 $TOL_PY "$W/$q" "$W/runs/$run"
        done
    done
    # The 7 questions without a positive are in every run but in neither qrels: not averaged.
    "$RETRIAGE" eval "$W/qrels.trec" "$W/runs/$r.trec" >/dev/null 2>"$TMPD/err"
    grep -q "$r.trec: 7 queries have no judgments and are not averaged" "$TMPD/err"
    ok $? "$r: the 7 run-only questions are reported and left out of the mean"
done

done_testing
