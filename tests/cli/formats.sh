#!/bin/sh
# formats — the same judgments and rankings written in every input format DESIGN §4 lists give the
# same values; every output format carries them (JSON parses, tables have a row per run); --order
# file and score rank differently where the file order is not the score order.
. "$SRCDIR/tests/lib.sh"

D=$TMPD
M=RR@10,RR,P@3,R@5,Success@1,AP,nDCG@10,nDCG,Rprec,MFR,NumRet,NumRel,NumRelRet

skip_one() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
vals() {  # vals ARGS... — per-query values and means, without the run name column
    "$RETRIAGE" eval -Q -q -m "$M" "$@" | cut -f2-
}
same() {  # same NAME WANT ARGS... — the values of ARGS equal file WANT
    name=$1 want=$2
    shift 2
    vals "$@" >"$D/got" 2>"$D/err"
    cmp -s "$D/got" "$want"
    st=$?
    ok $st "$name"
    [ $st -eq 0 ] || { diff "$want" "$D/got"; cat "$D/err"; } | diag
}

# ---- judgments: graded (TREC, TSV 3 columns) and binary (also TSV 2 columns, DuReader JSONL) ---
# 101 has grades 2, 1 and a judged non-relevant; 103 has only a non-relevant; 104 is not in the run.
printf '101 0 p01 2\n101\t0 p02  1\n101 0 p03 0\n101 0\tp04 1\n102 0 p11 1\n102 0 p12 0\n103 0 p21 0\n104 0 p31 1\n' >"$D/g.trec"
printf '101\tp01\t2\n101\tp02\t1\n101\tp03\t0\n101\tp04\t1\n102\tp11\t1\n102\tp12\t0\n103\tp21\t0\n104\tp31\t1\n' >"$D/g.tsv"
sed 's/ 2$/ 1/' "$D/g.trec" >"$D/b.trec"
sed 's/	2$/	1/' "$D/g.tsv" >"$D/b.tsv"
cat >"$D/b.jsonl" <<'EOF'
{"question_id": "101", "question": "q one", "answer_paragraphs": [{"paragraph_id": "p01"}, {"paragraph_id": "p02"}, {"paragraph_id": "p04"}]}
{"question_id": "102", "answer_paragraphs": [{"paragraph_id": "p11"}]}
{"question_id": "103", "answer_paragraphs": []}
{"question_id": "104", "answer_paragraphs": [{"paragraph_id": "p31", "text": "…"}]}
EOF
# TSV with 2 columns lists positives only, so it cannot hold 103: compared without it.
printf '101\tp01\n101\tp02\n101\tp04\n102\tp11\n104\tp31\n' >"$D/b2.tsv"
grep -v '^103' "$D/b.trec" >"$D/b_no103.trec"

# ---- rankings: TREC with ties and shuffled lines; TSV with scores; TSV and JSON in rank order --
# By score (ties: larger pid first) 101 ranks p05 p03 p01 p02 p09 p04 and 102 ranks p13 p12 p11 p14.
cat >"$D/sysA.trec" <<'EOF'
101 Q0 p02 1 0.7 sysA
101 Q0 p05 2 0.9 sysA
101 Q0 p03 3 0.8 sysA
101 Q0 p04 4 0.1 sysA
101 Q0 p01 5 0.8 sysA
101 Q0 p09 6 0.5 sysA
102 Q0 p11 1 1.25 sysA
102 Q0 p13 2 2.5 sysA
102 Q0 p14 3 -1 sysA
102 Q0 p12 4 2.5 sysA
105 Q0 p50 1 1 sysA
105 Q0 p51 2 0.5 sysA
EOF
# The same lines with the queries interleaved, blanks mixed, a comment and CRLF.
{
    echo '# interleaved'
    awk 'NR % 2 == 1' "$D/sysA.trec"
    awk 'NR % 2 == 0 { gsub(/ /, "\t"); print $0 "\r" }' "$D/sysA.trec"
} >"$D/scattered.trec"
awk '{ print $1 "\t" $3 "\t" NR "\t" $5 }' "$D/sysA.trec" | sort -r >"$D/sysB.tsv"
printf '101\tp05\t1\n101\tp03\t2\n101\tp01\t3\n101\tp02\t4\n101\tp09\t5\n101\tp04\t6\n102\tp13\t1\n102\tp12\t2\n102\tp11\t3\n102\tp14\t4\n105\tp50\t1\n105\tp51\t2\n' >"$D/sysC.tsv"
cat >"$D/sysD.json" <<'EOF'
{"101": ["p05", "p03", "p01", "p02", "p09", "p04"],
 "102": ["p13", "p12", "p11", "p14"],
 "105": ["p50", "p51"]}
EOF
# The TREC file's own line order, as a rank-order TSV (what --order file must see).
awk '{ print $1 "\t" $3 "\t" NR }' "$D/sysA.trec" >"$D/fileorder.tsv"

vals "$D/g.trec" "$D/sysA.trec" >"$D/want_g"
st=$?
grep -q '^RR@10	all	0.16666666666666666$' "$D/want_g" &&
    grep -q '^NumRet	all	10$' "$D/want_g" && grep -q '^RR@10	103	0$' "$D/want_g"
ok $((st | $?)) "reference: TREC qrels and run evaluate (RR@10 1/6 over 4 judged queries)"
vals "$D/b.trec" "$D/sysA.trec" >"$D/want_b"
! cmp -s "$D/want_g" "$D/want_b"
ok $? "graded and binary judgments differ (nDCG), so the comparisons below can tell them apart"
vals "$D/b_no103.trec" "$D/sysA.trec" >"$D/want_b2"

for r in sysA.trec scattered.trec sysB.tsv sysC.tsv sysD.json; do
    same "graded TREC qrels, run $r" "$D/want_g" "$D/g.trec" "$D/$r"
    same "graded TSV qrels, run $r" "$D/want_g" "$D/g.tsv" "$D/$r"
    same "binary TREC qrels, run $r" "$D/want_b" "$D/b.trec" "$D/$r"
    same "binary TSV qrels, run $r" "$D/want_b" "$D/b.tsv" "$D/$r"
    same "DuReader JSONL qrels, run $r" "$D/want_b" "$D/b.jsonl" "$D/$r"
    same "TSV qrels without grades, run $r" "$D/want_b2" "$D/b2.tsv" "$D/$r"
done
same "formats given explicitly" "$D/want_g" --qrels-format tsv --run-format dureader \
    "$D/g.tsv" "$D/sysD.json"
same "TREC given explicitly" "$D/want_g" --qrels-format trec --run-format trec \
    "$D/g.trec" "$D/sysA.trec"

# Ids written as JSON numbers are the same ids.
sed 's/"question_id": "\([0-9]*\)"/"question_id": \1/' "$D/b.jsonl" >"$D/b_num.jsonl"
same "DuReader JSONL qrels with numeric question ids" "$D/want_b" "$D/b_num.jsonl" "$D/sysA.trec"

# ---- --order ----------------------------------------------------------------------------------
vals --order file "$D/g.trec" "$D/sysA.trec" >"$D/want_file"
grep -q '^RR@10	all	0.5$' "$D/want_file"
ok $? "--order file ranks 101 by line order (p02 first): RR@10 1/2"
! cmp -s "$D/want_file" "$D/want_g"
ok $? "--order file and --order score differ on a run whose lines are not in score order"
same "--order score is the default" "$D/want_g" --order score "$D/g.trec" "$D/sysA.trec"
same "--order file on TREC equals its lines as a rank-order TSV" "$D/want_file" \
    "$D/g.trec" "$D/fileorder.tsv"
same "--order file on a rank-order TSV changes nothing" "$D/want_g" --order file "$D/g.trec" "$D/sysC.tsv"
same "--order file on a DuReader JSON run changes nothing" "$D/want_g" --order file "$D/g.trec" "$D/sysD.json"
awk -F '\t' '{ print $1 "\t" $2 "\t" NR }' "$D/sysB.tsv" >"$D/sysB_order.tsv"
vals "$D/g.trec" "$D/sysB_order.tsv" >"$D/want_file_b"
same "--order file on a TSV run with scores follows its lines" "$D/want_file_b" \
    --order file "$D/g.trec" "$D/sysB.tsv"

# ---- output formats -----------------------------------------------------------------------------
RUNS="$D/sysA.trec $D/sysB.tsv $D/sysD.json"
# shellcheck disable=SC2086
"$RETRIAGE" eval -Q -q -m "$M" "$D/g.trec" $RUNS >"$D/all.tsv" 2>/dev/null
# shellcheck disable=SC2086
"$RETRIAGE" eval -Q -q -m "$M" --format json "$D/g.trec" $RUNS >"$D/all.json"
ok $? "--format json exits 0"
if [ -n "$PYTHON3" ]; then
    "$PYTHON3" - "$D/all.json" "$D/all.tsv" >"$D/py" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
want = {}
for line in open(sys.argv[2]):
    run, measure, qid, value = line.rstrip("\n").split("\t")
    if not measure.endswith(".queries"):
        want[(run, measure, qid)] = float(value)
got = {}
for r in doc["runs"]:
    for m, v in r["mean"].items():
        got[(r["run"], m, "all")] = v
    for q, vs in r["per_query"].items():
        for m, v in vs.items():
            got[(r["run"], m, q)] = v
assert [r["run"] for r in doc["runs"]] == ["sysA", "sysB", "sysD"], doc["runs"]
assert doc["queries"] == 4, doc["queries"]
assert got == want, sorted(set(got.items()) ^ set(want.items()))[:10]
EOF
    st=$?
    ok $st "--format json parses and holds the TSV values, per query and mean, for each run"
    [ $st -eq 0 ] || diag <"$D/py"
    printf '1 Q0 a 1 1 we"ird\\\\name\n' >"$D/weird.trec"
    printf '1 0 a 1\n' >"$D/one.trec"
    "$RETRIAGE" eval -Q --format json "$D/one.trec" "$D/weird.trec" |
        "$PYTHON3" -c 'import json, sys; sys.exit(json.load(sys.stdin)["runs"][0]["run"] != "we\"ird\\\\name")'
    ok $? "--format json escapes quotes and backslashes in run names"
else
    skip_one "--format json parses" "python3 is absent"
    skip_one "--format json escapes run names" "python3 is absent"
fi

# shellcheck disable=SC2086
"$RETRIAGE" eval -Q -m RR@10,AP --format md "$D/g.trec" $RUNS >"$D/t.md"
st=$?
[ "$(grep -c '^|' "$D/t.md")" -eq 5 ] && sed -n 1p "$D/t.md" | grep -q '^| run | RR@10 | AP |$' &&
    sed -n 2p "$D/t.md" | grep -q '^|[-:| ]*|$' &&
    sed -n '3,5p' "$D/t.md" | cut -d'|' -f2 | tr -d ' ' | tr '\n' , | grep -qx 'sysA,sysB,sysD,' &&
    sed -n 3p "$D/t.md" | grep -q '| 0\.1667 |'
st=$((st | $?))
ok $st "--format md: a header, a rule and one row per run, values to 4 places"
[ $st -eq 0 ] || diag <"$D/t.md"

# shellcheck disable=SC2086
"$RETRIAGE" eval -Q -m RR@10,AP --format latex "$D/g.trec" $RUNS >"$D/t.tex"
st=$?
rows=$(sed -n '/^\\midrule/,/^\\bottomrule/p' "$D/t.tex" | grep -c '\\\\$')
grep -q '^\\begin{tabular}' "$D/t.tex" && grep -q '^\\end{tabular}' "$D/t.tex" && [ "$rows" -eq 3 ] &&
    grep -q '^sysA & 0\.1667 & ' "$D/t.tex"
st=$((st | $?))
ok $st "--format latex: a tabular with one row per run"
[ $st -eq 0 ] || diag <"$D/t.tex"

# shellcheck disable=SC2086
"$RETRIAGE" eval -Q -m RR@10,AP --format csv "$D/g.trec" $RUNS >"$D/t.csv"
st=$?
[ "$(wc -l <"$D/t.csv")" -eq 4 ] && sed -n 1p "$D/t.csv" | grep -qx 'run,RR@10,AP' &&
    cut -d, -f1 "$D/t.csv" | tr '\n' , | grep -qx 'run,sysA,sysB,sysD,'
ok $((st | $?)) "--format csv: a header and one line per run"

done_testing
