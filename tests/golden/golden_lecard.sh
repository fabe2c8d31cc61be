#!/bin/sh
# golden_lecard — `retriage eval` on four real LeCaRD runs against lecard/crosscheck/EXPECTED.txt:
# the official DuReader evaluation.py (full precision, compared at 1e-12) and trec_eval 10.0
# (-c -M10 recip_rank; -c success.1,50; the same recip_rank with -l2 on the graded qrels; stock
# 4-decimal output, compared at 5e-5). Each run is read as TREC (.trec), as DuReader JSON
# (.dureader.json) and as the upstream prediction JSON with integer ids, against both the DuReader
# JSONL reference and the TREC qrels.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/golden/golden_lib.sh"
need_shared lecard/crosscheck
C=$SHARED_DATA/lecard/crosscheck
P=$SHARED_DATA/lecard/prediction
TOL_PY=1e-12

for r in bm25_top100 tfidf_top100 lm_top100 combined_top100; do
    line=$(grep "^$r |" "$C/EXPECTED.txt")
    if [ -z "$line" ]; then
        ok 1 "$r: no line in EXPECTED.txt"
        continue
    fi
    # "… | DuReader evaluation.py: {json} | trec_eval: recip_rank=… success_1=… success_50=… | l2_recip_rank=…"
    echo "$line" | sed 's/.*evaluation.py: *//; s/ *|.*//' >"$TMPD/dr.json"
    dr_json_ref "$TMPD/dr.json" >"$TMPD/dr.ref"
    echo "$line" | sed 's/.*trec_eval://' | tr ' |' '\n\n' | awk -F= '
        $1 == "recip_rank" { print "RR@10\tall\t" $2 }
        $1 ~ /^success_[0-9]+$/ { print "Success@" substr($1, 9) "\tall\t" $2 }' >"$TMPD/te.ref"
    # The l2 column is the -c -M10 recip_rank command run with -l2 (RR, uncut, differs by > 5e-5).
    echo "$line" | sed -n 's/.*l2_recip_rank=\([0-9.]*\).*/RR@10\tall\t\1/p' >"$TMPD/l2.ref"

    for q in ref.golden.dureader.jsonl qrels.golden.trec; do
        for run in "$C/$r.trec" "$C/$r.dureader.json" "$P/$r.json"; do
            te_check "$r: ${run#"$SHARED_DATA"/} + $q vs DuReader evaluation.py" \
                "$TMPD/dr.ref" -1 $TOL_PY "$C/$q" "$run"
        done
    done
    te_check "$r.trec vs trec_eval RR@10, Success@1/50 (4 decimals)" "$TMPD/te.ref" -1 $TOL_4DP \
        "$C/qrels.golden.trec" "$C/$r.trec"
    for run in "$C/$r.trec" "$C/$r.dureader.json"; do
        te_check "${run##*/} -l 2 on qrels.label_top30.trec vs trec_eval -l2 RR@10 (4 decimals)" \
            "$TMPD/l2.ref" -1 $TOL_4DP -l 2 "$C/qrels.label_top30.trec" "$run"
    done
done

done_testing
