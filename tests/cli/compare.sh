#!/bin/sh
# compare.sh — `retriage compare`: a paired t-test worked out by hand, undefined tests said so
# (one query, equal runs), the options' refusals, the paper's table, reproducible Monte Carlo
# tests, the workspace form, and every figure of ../shared/data/significance/expected.json
# (SciPy / statsmodels: 1e-9 for the t-test, Wilcoxon and corrections; ±0.005 randomization at
# 10^5 samples; ±0.01 bootstrap).
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
CLI_CMD=compare

# RR@10: A 1, 1, 1/2; B 1/2, 1/2, 1/2 → d = 1/2, 1/2, 0: mean 1/3, sd sqrt(1/12), t = 2, df 2,
# p = 1 - 2/sqrt(6) = 0.18350341907227397; wins 2, ties 1
printf 'q1 0 r1 1\nq2 0 r2 1\nq3 0 r3 1\n' > "$D/qrels"
printf 'q1 Q0 r1 1 9 A\nq2 Q0 r2 1 9 A\nq3 Q0 x 1 9 A\nq3 Q0 r3 2 8 A\n' > "$D/a.trec"
printf 'q1 Q0 x 1 9 B\nq1 Q0 r1 2 8 B\nq2 Q0 x 1 9 B\nq2 Q0 r2 2 8 B\nq3 Q0 x 1 9 B\nq3 Q0 r3 2 8 B\n' > "$D/b.trec"
run -m RR@10 "$D/qrels" "$D/a.trec" "$D/b.trec"
[ "$rc" -eq 0 ] && awk -F'\t' 'NR == 2 && $1 == "RR@10" && $2 == "A" && $3 == "B" && $4 == 3 && ($8 - 2) < 1e-12 && ($8 - 2) > -1e-12 &&
    ($9 - 0.18350341907227397) < 1e-12 && ($9 - 0.18350341907227397) > -1e-12 && $15 == 2 && $16 == 1 && $17 == 0 { ok = 1 }
    END { exit !ok }' "$D/out"
report $? "t = 2 and p = 1 - 2/sqrt(6) on three queries, 2 wins and a tie, worked out by hand"
run -m RR@10 --format json "$D/qrels" "$D/a.trec" "$D/b.trec"
has_text '"test":	"ttest"' "$D/out" && has_text '"correction":	"holm"' "$D/out" && has_text '"samples":	10000' "$D/out" &&
    has_text '"seed":	1' "$D/out"
report $? "the output states the test, the correction, the samples and the seed"

# one query: the tests that need more say so; equal runs: no difference to test
printf 'q1 0 r1 1\n' > "$D/q1"
run -m RR@10 "$D/q1" "$D/a.trec" "$D/b.trec"
[ "$rc" -eq 0 ] && ! grep -qi "nan" "$D/out" && awk -F'\t' 'NR == 2 && $8 == "undefined" && $9 == "undefined" { ok = 1 } END { exit !ok }' "$D/out" &&
    has_text "warning: 1 comparisons have no ttest p" "$D/err"
report $? "one query: the t-test is undefined, said so, no NaN"
run -m RR@10 --format json "$D/qrels" "$D/a.trec" "$D/a.trec"
[ "$rc" -eq 0 ] && has_text '"p_ttest":	null' "$D/out" && has_text '"p_ttest_why":' "$D/out" && ! grep -qi "nan" "$D/out"
report $? "a run against itself: every difference 0, the tests are null with a reason"

# one query: no test may call it significant, whatever the test, the samples or alpha (the
# bootstrap said p = 0 and the paper's table starred it); the table says why it is unmarked
st=0
for t in ttest wilcoxon randomization bootstrap; do
    for n in 1 10000; do
        run -m RR@10 --format md --test $t --samples $n --alpha 0.99 "$D/q1" "$D/a.trec" "$D/b.trec"
        [ "$rc" -eq 0 ] && ! grep -q '^| B |.*\*' "$D/out" && grep -q "^| B | 0.5000 |$" "$D/out" &&
            grep -q "^n/a: 1 of the comparisons with A have no $t p and are not marked (.*queries)\.$" "$D/out" || { st=1; show; }
    done
done
ok $st "md, one query: no star for any test (1 or 10^4 samples, alpha 0.99), and a footnote says why"
run -m RR@10 --format json --test bootstrap "$D/q1" "$D/a.trec" "$D/b.trec"
[ "$rc" -eq 0 ] && has_text '"p_bootstrap":	null' "$D/out" && has_text '"p_bootstrap_why":	"the bootstrap needs at least two queries"' "$D/out" &&
    has_text '"p_randomization":	null' "$D/out" && has_text '"p_wilcoxon":	null' "$D/out" && has_text '"significant":	false' "$D/out"
report $? "json, one query: every test null with its reason, not significant"
# a Monte Carlo p is never below 1/(samples + 1): three queries all won, one sample each
run -m RR@10 --format json --test bootstrap --samples 1 "$D/qrels" "$D/a.trec" "$D/b.trec"
[ "$rc" -eq 0 ] && has_text '"p_bootstrap":	1,' "$D/out" && grep -q '"p_randomization":	0.5,\|"p_randomization":	1,' "$D/out"
report $? "--samples 1: the bootstrap p is 1 and the randomization p at least 1/2, not 0"

# RR 1/2 vs 1/6 and 1/3 vs 0: every difference is 1/3, but 0.5 - 1/6 and 1/3 differ in the last
# bit; the t-test is undefined, not t = 8.5e15 and p = 7e-17
printf 'q1 0 r1 1\nq2 0 r2 1\n' > "$D/q2"
printf 'q1 Q0 x1 1 9 A\nq1 Q0 r1 2 8 A\nq2 Q0 x1 1 9 A\nq2 Q0 x2 2 8 A\nq2 Q0 r2 3 7 A\n' > "$D/thirds-a.trec"
printf 'q1 Q0 x%d %d %d B\n' 1 1 9 2 2 8 3 3 7 4 4 6 5 5 5 > "$D/thirds-b.trec"
printf 'q1 Q0 r1 6 4 B\nq2 Q0 x1 1 9 B\n' >> "$D/thirds-b.trec"
run -m RR "$D/q2" "$D/thirds-a.trec" "$D/thirds-b.trec"
[ "$rc" -eq 0 ] && awk -F'\t' 'NR == 2 && $7 > 0.3333 && $7 < 0.33334 && $8 == "undefined" && $9 == "undefined" && $14 == "undefined" { ok = 1 }
    END { exit !ok }' "$D/out"
report $? "differences equal but for rounding (1/2 - 1/6, 1/3 - 0): the t-test is undefined"
run -m RR --format json --test bootstrap "$D/q2" "$D/thirds-a.trec" "$D/thirds-b.trec"
[ "$rc" -eq 0 ] && has_text '"p_bootstrap":	null' "$D/out" && has_text '"p_bootstrap_why":	"every query has the same difference' "$D/out" &&
    has_text '"significant":	false' "$D/out" && has_text '"bootstrap95":' "$D/out"
report $? "every difference the same: the bootstrap's interval is given, its test is undefined (was p = 0, significant)"

# refusals
fails 1 "--samples expects" "--samples 0 is a usage error" -m RR@10 --samples 0 "$D/qrels" "$D/a.trec" "$D/b.trec"
fails 1 "unknown baseline 'C' (A, B)" "an unknown baseline lists the runs" --baseline C "$D/qrels" "$D/a.trec" "$D/b.trec"
fails 1 "unknown --test 'z' (ttest, wilcoxon, randomization, bootstrap)" "an unknown test lists them" --test z "$D/qrels" "$D/a.trec" "$D/b.trec"
fails 1 "unknown --correction 'x' (none, bonferroni, holm, bh)" "an unknown correction lists them" --correction x "$D/qrels" "$D/a.trec" "$D/b.trec"
fails 1 "at least two RUNs" "one run is not a comparison" "$D/qrels" "$D/a.trec"
run -m nope "$D/qrels" "$D/a.trec" "$D/b.trec"
[ "$rc" -ne 0 ] && has_text "nope" "$D/err"; report $? "an unknown measure is named"

# the baseline, the paper's table, reproducibility
cp "$D/b.trec" "$D/c.trec"
run -m RR@10 --baseline B "$D/qrels" "$D/a.trec" "B=$D/b.trec" "C=$D/c.trec"
[ "$rc" -eq 0 ] && [ "$(wc -l < "$D/out")" -eq 3 ] && awk -F'\t' 'NR > 1 && $3 != "B" { bad = 1 } END { exit bad }' "$D/out"
report $? "--baseline: each other run against it only"
run -m RR@10,P@1 --format md --test wilcoxon --correction none --alpha 0.5 "$D/qrels" "$D/a.trec" "$D/b.trec"
grep -q "^| B | 0.5000\* | 0.0000\* |$" "$D/out" && grep -q "^| A (baseline) |" "$D/out" &&
    grep -q "^\* significantly different from A: wilcoxon test, none correction over the runs of each measure, alpha 0.5; 3 queries.$" "$D/out"
report $? "md: the paper's table with the baseline, markers and a footnote naming test, correction, alpha" 
run -m RR@10 --test randomization --seed 7 --format json "$D/qrels" "$D/a.trec" "$D/b.trec"
cp "$D/out" "$D/r1"
run -m RR@10 --test randomization --seed 7 --format json "$D/qrels" "$D/a.trec" "$D/b.trec"
cmp -s "$D/out" "$D/r1"; report $? "randomization and bootstrap: the same seed, the same figures"
run --demo --format tsv
[ "$rc" -eq 0 ] && [ "$(awk -F'\t' 'NR > 1' "$D/out" | wc -l)" -eq 9 ]
report $? "the workspace form (--demo): its runs and measures, 3 pairs x 3 measures"

# a measure undefined on some queries (MFR: no relevant passage retrieved): the paper's table
# gives each run's own figure over the compared queries, as eval does, not the paired mean of
# whichever comparison came last; a run with no defined value is undefined, not 0
printf 'q1 Q0 r1 1 9 C\nq2 Q0 x 1 9 C\nq3 Q0 r3 1 9 C\n' > "$D/c2.trec"
printf 'q1 Q0 zz 1 9 N\n' > "$D/n.trec"
run -m MFR --format md "$D/qrels" "$D/a.trec" "$D/b.trec" "$D/c2.trec" "$D/n.trec"
[ "$rc" -eq 0 ] && grep -q '^| A (baseline) | 1.3333 |$' "$D/out" && grep -q '^| C | 1.0000 |$' "$D/out" &&
    grep -q '^| N | undefined |$' "$D/out" && grep -q '^|---|---:|$' "$D/out"
report $? "md with MFR: the baseline's own mean, undefined for a run with none, the column right-aligned"
run -m MFR "$D/qrels" "$D/a.trec" "$D/c2.trec"
[ "$rc" -eq 0 ] && awk -F'\t' 'NR == 1 && $25 == "dropped" { h = 1 } NR == 2 && $4 == 2 && $25 == 1 { r = 1 } END { exit !(h && r) }' "$D/out"
report $? "tsv: the queries left out of a comparison (MFR undefined for a run) are its last column, dropped"
run -m MFR --format json "$D/qrels" "$D/a.trec" "$D/n.trec"
[ "$rc" -eq 0 ] && has_text '"mean_a":	null' "$D/out" && has_text '"mean_diff":	null' "$D/out" &&
    has_text '"p_wilcoxon_why":	"no query to compare"' "$D/out" && has_text '"p_randomization_why":	"no query to compare"' "$D/out" &&
    has_text "warning: 1 comparisons have no ttest p (e.g. the t-test needs at least two queries)" "$D/err"
report $? "no query to compare: means null as TSV's undefined, each test says why, so does the warning"
# what eval says of the runs, compare says too: judged queries a run misses (they score 0), and
# two runs of one name, which its rows and --baseline could not tell apart
run -m RR@10 "$D/qrels" "$D/a.trec" "$D/n.trec" "$D/a.trec"
[ "$rc" -eq 0 ] && has_text "n.trec: 2 judged queries are not in the run and score 0" "$D/err" &&
    has_text 'runs 1 and 3 are both named "A"' "$D/err"
report $? "a run missing judged queries (scored 0) and two runs of one name: warned as eval warns"
run -m RR@10,P@1 --format latex --test wilcoxon --correction none --alpha 0.5 "$D/qrels" "$D/a.trec" "$D/b.trec"
grep -q '^B & 0.5000\* & 0.0000\* ' "$D/out" && grep -q '^\\begin{tabular}{lrr}$' "$D/out"; report $? "latex: mean columns are right-aligned, marked or not"

# a long CJK run name: whole in the paper's table, with its (baseline), never cut inside a character
long=$(printf '系统%.0s' $(seq 1 30))
run -m RR@10 --format md "$D/qrels" "$long=$D/a.trec" "$D/b.trec"
[ "$rc" -eq 0 ] && grep -q "^| $long (baseline) | 0.8333 |$" "$D/out" && iconv -f UTF-8 -t UTF-8 "$D/out" > /dev/null
report $? "md: a run name of 180 bytes is whole, (baseline) included, valid UTF-8"

# a run named after a file whose name holds a newline: LaTeX's footnote is a comment line, which
# the newline would end, leaving the rest of the name as LaTeX source
nl=$(printf 'ev\nil\\input{x}.json')
printf '{"q1": ["r1"], "q2": ["r2"], "q3": ["r3"]}' > "$D/$nl"
run -m RR@10 --format latex "$D/qrels" "$D/$nl" "$D/a.trec"
[ "$rc" -eq 0 ] && ! grep -q '^il' "$D/out" && grep -q '^% \* significantly different from ev il\\input{x}: ' "$D/out"
report $? "latex: the baseline's name in the footnote comment stays on its line"

# the fixture
if [ -d "$SHARED_DATA/significance" ] && [ -d "$SHARED_DATA/dureader2-demo-ws" ]; then
    S="$SHARED_DATA/dureader2-demo-ws"
    run -m RR@10,nDCG@10,AP --samples 100000 --format json "$S/qrels.trec" "$S/runs/baidu-search.trec" \
        "$S/runs/sklearn-tfidf-char.trec" "$S/runs/xapian-bm25-jieba.trec"
    [ "$rc" -eq 0 ] && "$JSON_NEAR" "$SHARED_DATA/significance/expected.json" "$D/out" 1e-9 p_randomization=0.005 \
        bootstrap95=0.01 2> "$D/near"
    st=$?; [ $st -eq 0 ] || diag < "$D/near"
    ok $st "every figure of significance/expected.json: t-test, Wilcoxon, corrections to 1e-9, randomization ±0.005, bootstrap ±0.01"
    # the same figures in TSV and CSV: a row per comparison, each correction's p_adjusted in turn
    # (awk turns the rows into expected.json's members). With 2,000 samples (the 100,000 above
    # check the Monte Carlo figures against SciPy's): every figure is the JSON output's with the
    # same samples, and the exact ones are expected.json's to 1e-9.
    st=0
    run -m RR@10,nDCG@10,AP --samples 2000 --format json "$S/qrels.trec" \
        "$S/runs/baidu-search.trec" "$S/runs/sklearn-tfidf-char.trec" "$S/runs/xapian-bm25-jieba.trec"
    [ "$rc" -eq 0 ] && cp "$D/out" "$D/same-samples.json" || st=1
    for corr in bonferroni holm bh; do
        # expected.json with this correction's adjusted p only, as the rows give it
        sed "s/\"p_ttest_$corr\"/\"keep\"/; /\"p_ttest_[a-z]*\"/d; s/\"keep\"/\"p_ttest_$corr\"/" \
            "$SHARED_DATA/significance/expected.json" | tr -d '\n' | sed 's/,[[:space:]]*}/}/g' > "$D/expected.json"
        for fmt in tsv csv; do
            sep='\t'; [ "$fmt" = csv ] && sep=,   # (awk reads \t in -F as a tab)
            run -m RR@10,nDCG@10,AP --samples 2000 --correction "$corr" --format "$fmt" "$S/qrels.trec" \
                "$S/runs/baidu-search.trec" "$S/runs/sklearn-tfidf-char.trec" "$S/runs/xapian-bm25-jieba.trec"
            [ "$rc" -eq 0 ] || st=1
            awk -F"$sep" -v corr="$corr" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; printf "["; next }
                { printf "%s{\"measure\": \"%s\", \"a\": \"%s\", \"b\": \"%s\", \"queries\": %s, \"mean_a\": %s, \"mean_b\": %s, ", (NR > 2 ? "," : ""),
                      $c["measure"], $c["a"], $c["b"], $c["queries"], $c["mean_a"], $c["mean_b"]
                  printf "\"mean_diff\": %s, \"t\": %s, \"p_ttest\": %s, \"p_wilcoxon\": %s, \"p_randomization\": %s, ",
                      $c["mean_diff"], $c["t"], $c["p_ttest"], $c["p_wilcoxon"], $c["p_randomization"]
                  printf "\"bootstrap95\": [%s, %s], \"p_ttest_%s\": %s}", $c["bootstrap_lo"], $c["bootstrap_hi"], corr, $c["p_adjusted"] }
                END { print "]" }' "$D/out" > "$D/rows.json"
            "$JSON_NEAR" "$D/expected.json" "$D/rows.json" 1e-9 p_randomization=0.05 bootstrap95=0.05 2> "$D/near" || { st=1; diag < "$D/near"; }
            "$JSON_NEAR" "$D/rows.json" "$D/same-samples.json" 1e-12 2> "$D/near" || { st=1; diag < "$D/near"; }
        done
    done
    ok $st "the same figures in TSV and CSV, with each correction's adjusted p (bonferroni, holm, bh)"
else
    for i in 1 2; do ok 0 "# SKIP ../shared/data/significance is absent (fixtures are read from ../shared/data, never copied)"; done
fi

done_testing
