#!/bin/sh
# golden_vectors — `retriage eval` against the metric test vectors (../shared/data/metric-vectors,
# README.md there explains each case): trec_eval 10.0 printing %.17g (te10hp, compared at 1e-9),
# stock trec_eval (te10, 4 decimals, 5e-5) only where no te10hp file exists, the official DuReader
# script and the independent alt_metrics_ref.py (both full precision, 1e-12).
# Not compared: te9 (trec_eval 9.0.8 stores scores as float and differs by design), -J
# (judged-only, no retriage equivalent), the runs without -c where trec_eval aborts, and the
# Dec-2023 DuReader MRR denominator (dureader_v2: retriage averages over the reference queries).
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/golden/golden_lib.sh"
need_shared metric-vectors
V=$SHARED_DATA/metric-vectors
TOL_PY=1e-12

# ---- v1: binary relevance, score ties (0.5 = 0.50 = 5e-1, pid descending), rank column ignored
D=$V/v1_basic_ties
te_check "v1 all measures vs te10hp" "$D/expected/all.te10hp.out" 0 $TOL_HP "$D/qrels" "$D/run"
te_check "v1 RR@10 vs te10hp -M10" "$D/expected/mrr10.te10hp.out" 10 $TOL_HP "$D/qrels" "$D/run"
alt_ref "$D/expected/nlpcc.alt.out" >"$TMPD/ref"
te_check "v1 RR, AP_min, Success@1 vs alt nlpcc" "$TMPD/ref" -1 $TOL_PY "$D/qrels" "$D/run"
alt_ref "$D/expected/mfr.alt.out" >"$TMPD/ref"
te_check "v1 MFR vs alt mfr (q3 has no hit: no value)" "$TMPD/ref" -1 $TOL_PY "$D/qrels" "$D/run"
"$RETRIAGE" eval -m MFR "$D/qrels" "$D/run" >"$TMPD/out" 2>/dev/null
want=$(awk -F '\t' '$1 == "all" { sub(/.*=/, "", $3); print $3 }' "$D/expected/mfr.alt.out")
[ "$(value_of "$TMPD/out" MFR.queries all)" = "$want" ]
ok $? "v1 MFR.queries = queries_with_hit ($want)"

# ---- v2: query set rules (-c): q3 missing from the run scores 0, q4 (run only) is ignored
D=$V/v2_missing_queries
te_check "v2 -c vs te10hp (q3 scored 0, q4 ignored)" "$D/expected/c.te10hp.out" 0 $TOL_HP "$D/qrels" "$D/run"
"$RETRIAGE" eval -m RR "$D/qrels" "$D/run" >/dev/null 2>"$TMPD/err"
grep -q 'run: 1 queries have no judgments' "$TMPD/err" &&
    grep -q 'run: 1 judged queries are not in the run' "$TMPD/err"
ok $? "v2 warns about q4 (not judged) and q3 (not in the run)"

# ---- v3: graded qrels, unjudged passages, a negative grade, -l
D=$V/v3_graded_unjudged
te_check "v3 -l1 vs te10hp" "$D/expected/all.te10hp.out" 0 $TOL_HP "$D/qrels" "$D/run"
te_check "v3 -l2 vs te10hp (nDCG unchanged)" "$D/expected/all.l2.te10hp.out" 0 $TOL_HP -l 2 "$D/qrels" "$D/run"
te_check "v3 -l3 vs te10hp" "$D/expected/all.l3.te10hp.out" 0 $TOL_HP -l 3 "$D/qrels" "$D/run"
te_check "v3 RR@10 vs te10hp -M10" "$D/expected/mrr10.te10hp.out" 10 $TOL_HP "$D/qrels" "$D/run"

# ---- v4: parser and error behaviour
D=$V/v4_dups_precision
te_check "v4 run_float (0.30000002 > 0.30000001 as doubles) vs te10hp" \
    "$D/expected/float.te10hp.out" 0 $TOL_HP "$D/qrels" "$D/run_float"
te_check "v4 run_messy (comment, blank lines, tabs, extra columns, CRLF) vs te10hp" \
    "$D/expected/messy.te10hp.out" 0 $TOL_HP "$D/qrels" "$D/run_messy"
te_check "v4 run_dup RR@1 vs te10 -M1 (4 decimals)" "$D/expected/dup_M1.te10.out" 1 $TOL_4DP "$D/qrels" "$D/run_dup"
# trec_eval aborts on run_dup (z twice). retriage keeps the first, best-ranked z (0.9) and drops
# the one at 0.7: z, a → a at rank 2, RR = 1/2 (by hand), with a warning naming line 3.
"$RETRIAGE" eval -q -m RR,NumRet "$D/qrels" "$D/run_dup" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ $rc -eq 0 ] && near "$(value_of "$TMPD/out" RR p1)" 0.5 0 && near "$(value_of "$TMPD/out" NumRet p1)" 2 0
ok $? "v4 run_dup: the first z kept, RR = 0.5, NumRet = 2"
grep -q 'run_dup:3: 1 duplicate passages dropped' "$TMPD/err"
ok $? "v4 run_dup: warning names the first dropped line"
"$RETRIAGE" eval --strict -m RR "$D/qrels" "$D/run_dup" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMPD/out" ] && grep -q 'run_dup:3: passage z retrieved twice' "$TMPD/err"
ok $? "v4 run_dup --strict: exit 2, error at line 3, no values"
"$RETRIAGE" eval -m RR "$D/qrels" "$D/run_5col" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMPD/out" ] && grep -q 'run_5col:1:' "$TMPD/err"
ok $? "v4 run_5col (trec_eval: Malformed line 1, exit 2): exit 2, error at line 1"
# trec_eval rejects blank and doubled comment lines in qrels and crashes on a final comment;
# retriage skips them. The judgment left is p1 a 1, as in qrels, so RR stays 1 (= float.te10hp).
for f in qrels_blankline qrels_two_comments qrels_comment_last; do
    "$RETRIAGE" eval -m RR "$D/$f" "$D/run_float" >"$TMPD/out" 2>"$TMPD/err"
    rc=$?
    [ $rc -eq 0 ] && near "$(value_of "$TMPD/out" RR all)" 1 0
    ok $? "v4 $f: blank and comment lines skipped, RR = 1"
done

# ---- v5: DuReader official script = trec_eval -c (-M10) on the same lists, all input forms
D=$V/v5_dureader_equiv
for q in qrels reference.jsonl; do
    for r in run candidate.json; do
        te_check "v5 $q + $r: RR@10 vs te10hp -c -M10" "$D/expected/mrr10.c.te10hp.out" 10 $TOL_HP "$D/$q" "$D/$r"
        te_check "v5 $q + $r: P@1, R@1/50, Success@1/50 vs te10hp -c" \
            "$D/expected/succ_recall.c.te10hp.out" 0 $TOL_HP "$D/$q" "$D/$r"
        dr_json_ref "$D/expected/dureader_v1.out" >"$TMPD/ref"
        te_check "v5 $q + $r: DuReader official (v1) MRR@10, recall@1/50" "$TMPD/ref" -1 $TOL_PY "$D/$q" "$D/$r"
    done
done
# candidate_dup.json ranks nb01 twice for qb: DuReader warns and scores on; so does retriage.
dr_json_ref "$D/expected/dureader_v1_dup.out" >"$TMPD/ref"
te_check "v5 candidate_dup.json vs DuReader official (duplicate warned)" "$TMPD/ref" -1 $TOL_PY \
    "$D/reference.jsonl" "$D/candidate_dup.json"
"$RETRIAGE" eval "$D/reference.jsonl" "$D/candidate_dup.json" >/dev/null 2>"$TMPD/err"
grep -q 'candidate_dup.json:66: 1 duplicate passages dropped' "$TMPD/err"
ok $? "v5 candidate_dup.json: 1 duplicate reported"

# ---- v6: NLPCC DBQA MAP (denominator min(#relevant, #retrieved)) vs trec_eval map
D=$V/v6_dbqa_map
te_check "v6 all measures vs te10hp" "$D/expected/all.te10hp.out" 0 $TOL_HP "$D/qrels" "$D/run"
te_check "v6 RR@10 vs te10hp -M10" "$D/expected/mrr10.te10hp.out" 10 $TOL_HP "$D/qrels" "$D/run"
alt_ref "$D/expected/nlpcc.alt.out" >"$TMPD/ref"
te_check "v6 RR, AP_min, Success@1 vs alt nlpcc" "$TMPD/ref" -1 $TOL_PY "$D/qrels" "$D/run"
"$RETRIAGE" eval --preset dbqa "$D/qrels" "$D/run" >"$TMPD/out" 2>/dev/null
map=$(awk '$1 == "AP_min" && $2 == "all" { print $3 }' "$TMPD/ref")
acc=$(awk '$1 == "Success@1" && $2 == "all" { print $3 }' "$TMPD/ref")
near "$(value_of "$TMPD/out" AP_min all)" "$map" $TOL_PY && near "$(value_of "$TMPD/out" Success@1 all)" "$acc" $TOL_PY
ok $? "v6 --preset dbqa gives alt nlpcc's MAP ($map) and ACC@1 ($acc)"

done_testing
