#!/bin/sh
# facets.sh — query facets (issue 12): a TSV of facets per query; `export --what metrics --by FACET`
# and the metrics panel's :by split every run's means by value, `compare --facet NAME=VALUE` tests
# within one; each split equals retriage eval on the qrels of that value's queries. Bad facet files
# name file:line.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
awk -F'\t' 'BEGIN { print "qid\ttype\tsource" }
    { t = NR % 3 == 0 ? "entity" : NR % 3 == 1 ? "description" : "yes_no"; print $1 "\t" t "\t" (NR % 2 ? "web" : "") }' \
    "$DEMO/queries.tsv" > "$D/facets.tsv"
# the workspace's options are the positional parameters ($SRCDIR may hold blanks)
set -- --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --run "$DEMO/runs/dense.trec" \
    --facets "$D/facets.tsv" --journal-dir "$D/j"
run export "$@" --what metrics --by type
[ "$rc" -eq 0 ]; report $? "export --what metrics --by type"
cp "$D/out" "$D/split"
st=0
for v in description yes_no entity; do
    awk -F'\t' -v v=$v 'NR == FNR { if ($2 == v) keep[$1] = 1; next } { split($0, f, " "); if (keep[f[1]]) print }' \
        "$D/facets.tsv" "$DEMO/qrels.trec" > "$D/q.$v"
    for r in bm25 dense; do
        want=$("$RETRIAGE" eval "$D/q.$v" "$DEMO/runs/$r.trec" 2> /dev/null | awk -F'\t' '$2 == "RR@10" && $3 == "all" { printf "%s", $4 }')
        got=$(awk -F'\t' -v r=$r -v v=$v '$1 == r && $2 == "RR@10" && $3 == v { print $5 }' "$D/split")
        [ "$want" = "$got" ] || { echo "$r $v: eval $want, split $got" | diag; st=1; }
    done
done
ok $st "each value's RR@10 equals retriage eval on the qrels of its queries"
awk -F'\t' '$2 == "RR@10" && $1 == "bm25" { n += $7 } END { exit n != 34 }' "$D/split"
ok $? "the values' query counts add up to the 34 judged queries"

run compare -m RR@10 --facets "$D/facets.tsv" --facet type=entity "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec"
want=$(awk -F'\t' '$1 == "bm25" && $2 == "RR@10" && $3 == "entity" { print $7 }' "$D/split")
[ "$rc" -eq 0 ] && awk -F'\t' -v n="$want" 'NR == 2 { exit !($4 == n) }' "$D/out"
report $? "compare --facet type=entity: the comparison over that value's $want queries"
# a workspace and --facets F: F's facets, not ignored (the demo has none of its own)
printf '{"queries": "%s/queries.tsv", "qrels": "%s/qrels.trec", "runs": ["%s/runs/bm25.trec", "%s/runs/dense.trec"], "measures": "RR@10"}\n' \
    "$DEMO" "$DEMO" "$DEMO" "$DEMO" > "$D/ws.json"
cp "$D/out" "$D/byfiles"
run compare --workspace "$D/ws.json" --facets "$D/facets.tsv" --facet type=entity
[ "$rc" -eq 0 ] && cmp -s "$D/out" "$D/byfiles"
report $? "compare --workspace F --facets F2 --facet: the comparison of the files' form, over F2's value"
# a facet name of 144 bytes (CJK): found, as a short one is
L=$(printf '问题类型%.0s' $(seq 12))
awk -F'\t' -v L="$L" 'NR == 1 { print "qid\t" L; next } { print $1 "\t" $2 }' "$D/facets.tsv" > "$D/long.tsv"
cp "$D/byfiles" "$D/want.long"
run compare -m RR@10 --facets "$D/long.tsv" --facet "$L=entity" "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec"
[ "$rc" -eq 0 ] && cmp -s "$D/out" "$D/want.long"
report $? "compare --facet with a 144-byte facet name (refused as not NAME=VALUE at 128 bytes and more before)"
fails 1 "facet type has no value movie" "compare --facet: an unknown value" compare -m RR@10 --facets "$D/facets.tsv" --facet type=movie \
    "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec"
CLI_CMD=compare fails 1 "--facet: no facets" "compare --facet without facets" --facet type=entity "$DEMO/qrels.trec" \
    "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec"
fails 1 "no facet genre (type, source)" "export --by an unknown facet lists them" export "$@" --what metrics --by genre

# the workbench: :by splits the metrics panel
printf ':by type\n:snapshot %s/by\n' "$D" > "$D/script"
"$RETRIAGE" "$@" --script "$D/script" --size 120x30 > /dev/null 2>&1
grep -q "^type = entity: 11 judged queries" "$D/by" && grep -A2 "^type = entity" "$D/by" | grep -q "^bm25 .*0.4242"
ok $? ":by type splits the panel (entity: 11 queries, bm25 0.4242 as the export)"

# a workspace file names its facets
printf '{"queries": "%s", "qrels": "%s", "runs": ["%s"], "facets": "%s"}' "$DEMO/queries.tsv" "$DEMO/qrels.trec" \
    "$DEMO/runs/bm25.trec" "$D/facets.tsv" > "$D/ws.json"
run export "$D/ws.json" --journal-dir "$D/j" --what metrics --by source
[ "$rc" -eq 0 ] && has_text "	web	" "$D/out" && has_text "	-	" "$D/out"
report $? "a workspace's \"facets\"; queries without a value are '-'"

# bad facet files
printf 'q01\tentity\n' > "$D/nohead.tsv"
fails 2 "nohead.tsv:1: a facets file starts with a header" "no header: file:line" export --queries "$DEMO/queries.tsv" \
    --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/nohead.tsv" --what metrics
printf 'qid\ttype\ttype\nq01\tentity\tweb\n' > "$D/dupname.tsv"
fails 2 "dupname.tsv:1: facet type is named twice in the header" "a facet named twice (which would --by pick?): file:line" \
    export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/dupname.tsv" --what metrics
printf 'qid\t\tsource\nq01\tentity\tweb\n' > "$D/noname.tsv"
fails 2 "noname.tsv:1: a facet without a name in the header" "a facet without a name: file:line" \
    export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/noname.tsv" --what metrics
printf 'qid\ttype\nq01\tentity\nq02\n' > "$D/short.tsv"
fails 2 "short.tsv:3: 1 tab-separated fields; the header has 2" "a short line: file:line" export --queries "$DEMO/queries.tsv" \
    --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/short.tsv" --what metrics
printf 'qid\ttype\nq01\tentity\nq01\tother\n' > "$D/twice.tsv"
fails 2 "twice.tsv:3: query q01 is given twice" "a query twice: file:line" export --queries "$DEMO/queries.tsv" \
    --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/twice.tsv" --what metrics
printf 'qid\ttype\nq01\t\nq01\tother\n' > "$D/twice-empty.tsv"
fails 2 "twice-empty.tsv:3: query q01 is given twice" "a query twice, the first time without a value: file:line" export \
    --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/twice-empty.tsv" --what metrics
printf '{"question_id": "q01", "question_type": "ENTITY"}\n{"question_id": "q01", "question_type": "YES_NO"}\n' > "$D/twice.jsonl"
fails 2 "twice.jsonl:2: query q01 is given twice, with question_type ENTITY and YES_NO" \
    "DuReader lines: a query given two values is file:line too" export \
    --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/twice.jsonl" --what metrics
printf '{"question_id": "q01", "question_type": "ENTITY"}\n{"question_id": "q01", "answers": ["x"]}\n{"question_id": "q01", "question_type": "ENTITY"}\n' \
    > "$D/lines.jsonl"
run export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/lines.jsonl" \
    --journal-dir "$D/j" --what metrics --by question_type
[ "$rc" -eq 0 ] && grep -q "^bm25	RR@10	ENTITY	.*	1$" "$D/out"
report $? "DuReader lines: a query over several lines that agree (its answers spread out) is one query"
printf 'qid\ttype\nq01\tentity\nzz9\tx\n' > "$D/unknown.tsv"
run export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --facets "$D/unknown.tsv" \
    --journal-dir "$D/j" --what metrics --by type
[ "$rc" -eq 0 ] && has_text "unknown.tsv: 1 queries the workspace does not know (ignored)" "$D/err"
report $? "queries the workspace does not know: a warning, ignored"

# a run whose measure is undefined on every query of a value (MFR: nothing relevant retrieved)
# keeps its rows, with 0 queries, as the metrics export without --by gives it; it is not dropped
printf 'q1\tone\nq2\ttwo\n' > "$D/mq.tsv"
printf 'q1 0 r1 1\nq2 0 r2 1\n' > "$D/mqrels"
printf 'q1 Q0 r1 1 9 A\nq2 Q0 r2 1 9 A\n' > "$D/ma.trec"
printf 'q1 Q0 zz 1 9 N\n' > "$D/mn.trec"
printf 'qid\ttype\nq1\tX\n' > "$D/mf.tsv"
run export --queries "$D/mq.tsv" --qrels "$D/mqrels" --run "$D/ma.trec" --run "$D/mn.trec" --facets "$D/mf.tsv" \
    --journal-dir "$D/jm" -m MFR --what metrics --by type
[ "$rc" -eq 0 ] && grep -q "^N	MFR	X	0	0	0	0$" "$D/out" && grep -q "^N	MFR	-	0	0	0	0$" "$D/out"
report $? "--by: a run with no MFR on a value's queries keeps its row (0 queries)"
printf 'm\n:by type\n:snapshot %s/mby\n' "$D" > "$D/mscript"
"$RETRIAGE" --qrels "$D/mqrels" --run "$D/mn.trec" --run "$D/ma.trec" --facets "$D/mf.tsv" -m MFR --journal-dir "$D/jm" \
    --annotator x --script "$D/mscript" --size 100x20 > /dev/null 2>&1
grep -q "^type = X: 1 judged queries" "$D/mby" && grep -q "^type = (none): 1 judged queries" "$D/mby"
ok $? ":by counts a value's judged queries, not the first run's defined MFR"

# the leaked / clean split is a facet too: --by leaked equals --what leakage
export RETRIAGE_DEMO="$DEMO/workspace.json"
"$RETRIAGE" export --demo --journal-dir "$D/lj" --what metrics --by leaked --leaked candidates > "$D/byleak" 2> /dev/null
"$RETRIAGE" export --demo --journal-dir "$D/lj" --what leakage --leaked candidates > "$D/leak" 2> /dev/null
a=$(awk -F'\t' '$3 == "duplicated" { printf "%s %s %s %s;", $1, $2, $5, $7 } $3 == "others" { printf "%s %s %s %s;", $1, $2, $5, $7 }' "$D/byleak" | tr ';' '\n' | sort)
b=$(awk -F'\t' 'NR > 1 { printf "%s %s %s %s;%s %s %s %s;", $1, $2, $3, $5, $1, $2, $4, $6 }' "$D/leak" | tr ';' '\n' | sort)
[ -n "$a" ] && [ "$a" = "$b" ]
ok $? "export --by leaked (DuReader-retrieval Table 6 as a facet) equals --what leakage"

# DuReader's answers file carries question_type and fact_or_opinion
if [ -f "$SHARED_DATA/dureader2-demo-ws/answers.jsonl" ]; then
    S="$SHARED_DATA/dureader2-demo-ws"
    run export --queries "$S/queries.tsv" --qrels "$S/qrels.trec" --run "$S/runs/baidu-search.trec" \
        --facets "$S/answers.jsonl" --journal-dir "$D/j" --what metrics --by question_type
    awk -F'\t' '$2 == "RR@10" { n += $7 } END { exit n != 93 }' "$D/out"
    st=$?
    awk -F'\t' 'NR == FNR { if ($0 ~ /"question_type": "ENTITY"/) { match($0, /"question_id": "[^"]*"/);
        keep[substr($0, RSTART + 16, RLENGTH - 17)] = 1 }; next } { split($0, f, " "); if (keep[f[1]]) print }' \
        "$S/answers.jsonl" "$S/qrels.trec" > "$D/q.entity"
    want=$("$RETRIAGE" eval "$D/q.entity" "$S/runs/baidu-search.trec" 2> /dev/null | awk -F'\t' '$2 == "RR@10" && $3 == "all" { printf "%s", $4 }')
    got=$(awk -F'\t' '$2 == "RR@10" && $3 == "ENTITY" { print $5 }' "$D/out")
    [ $st -eq 0 ] && [ -n "$want" ] && [ "$want" = "$got" ]
    report $? "DuReader's answers file as facets: question_type splits the 93 judged queries; ENTITY's RR@10 as eval ($got)"
else
    ok 0 "# SKIP ../shared/data/dureader2-demo-ws is absent (fixtures are read from ../shared/data, never copied)"
fi

done_testing
