#!/bin/sh
# pool — `retriage pool`: depth-k pools of runs in every run format, in RRF order, as a TREC run
# (which loads back with `retriage eval`) and as TSV; judged/unjudged against qrels; -o written
# atomically; usage errors exit 1, bad input exits 2 naming file:line; and on the demo workspace,
# the pool of depth 10 is the union of each run's top 10 computed independently with sort and awk.
. "$SRCDIR/tests/lib.sh"
export LC_ALL=C
D=$TMPD

# ---- three runs, one per format -----------------------------------------------------------------
# By score A ranks q1: a b c d and q2: x y (lines shuffled); B ranks q3: w, q2: y z, q1: c a e
# (rank column, file order); C (DuReader JSON) ranks q1: f.
cat >"$D/A.trec" <<'EOF'
q1 Q0 c 1 1.0 sysA
q1 Q0 a 2 3.0 sysA
q2 Q0 y 1 1 sysA
q1 Q0 d 3 0.5 sysA
q1 Q0 b 4 2.0 sysA
q2 Q0 x 2 2 sysA
EOF
printf 'q3\tw\t1\nq2\ty\t1\nq2\tz\t2\nq1\tc\t1\nq1\ta\t2\nq1\te\t3\n' >"$D/B.tsv"
printf '{"q1": ["f"]}\n' >"$D/C.json"
RUNS="$D/A.trec $D/B.tsv $D/C.json"

# Depth 2, hand-computed: q1 pools a (A1, B2), c (B1), f (C1), b (A2); c and f tie at 1/61 with
# best rank 1 and go in byte order. q2: y (A2, B1), x (A1), z (B2). q3: w (B1).
cat >"$D/want.tsv" <<'EOF'
q1	a	1	1/61+1/62	1	2
q1	c	2	1/61	1	1
q1	f	3	1/61	1	1
q1	b	4	1/62	2	1
q2	y	1	1/61+1/62	1	2
q2	x	2	1/61	1	1
q2	z	3	1/62	2	1
q3	w	1	1/61	1	1
EOF

# same_rows GOT — GOT (tab-separated: qid pid rank rrf best nruns) equals want.tsv, each rrf
# within 1e-15 of the sum of the fractions it names.
same_rows() {
    awk -F '\t' 'function val(s,   n, p, i, v) { n = split(s, p, "+"); v = 0
                     for (i = 1; i <= n; i++) { sub(/^1\//, "", p[i]); v += 1 / p[i] } return v }
        NR == FNR { want[FNR] = $0; n = FNR; next }
        { split(want[FNR], w, "\t")
          d = $4 - val(w[4]); if (d < 0) d = -d
          if ($1 != w[1] || $2 != w[2] || $3 != w[3] || d > 1e-15 || $5 != w[5] || $6 != w[6]) bad = 1
          m = FNR }
        END { exit bad || m != n }' "$D/want.tsv" "$1"
}

run pool --depth 2 --format tsv $RUNS
[ "$rc" -eq 0 ] && head -n 1 "$D/out" | grep -qx 'qid	pid	rrf_rank	rrf	best_rank	nruns'
st=$?
tail -n +2 "$D/out" >"$D/rows"
same_rows "$D/rows"
report $((st | $?)) "tsv, depth 2: header, union of the top 2 in RRF order, ties by byte order"

run pool --depth 2 $RUNS
st=0
[ "$rc" -eq 0 ] || st=1
awk '{ print $1 "\t" $3 "\t" $4 "\t" $5 }' "$D/out" >"$D/trec4"
awk -F '\t' '{ print $1 "\t" $2 "\t" $3 "\t" $4 }' "$D/rows" | cmp -s - "$D/trec4" || st=1
awk 'NF != 6 || $2 != "Q0" || $6 != "retriage-pool-d2" { bad = 1 } END { exit bad }' "$D/out" || st=1
cp "$D/out" "$D/pool.trec"
report $st "trec (the default): qid Q0 pid rank rrf retriage-pool-d2, the same rows as tsv"

run pool -k 2 --format trec $RUNS
cmp -s "$D/out" "$D/pool.trec"
report $? "-k is --depth, --format trec is the default"

grep -q 'depth 2, 3 runs (sysA, B, C): 3 queries, 8 pooled passages (2.67 per query)$' "$D/err"
report $? "summary on stderr: runs named by tag or stem, queries, pool size, mean per query"

run pool --depth 2 mine=$D/A.trec other=$D/B.tsv $D/C.json
grep -q '(mine, other, C)' "$D/err" && cmp -s "$D/out" "$D/pool.trec"
report $? "NAME=RUN names a run; the pool is unchanged"

# ---- the pool loads back as a run -----------------------------------------------------------------
printf 'q1 0 a 1\nq1 0 f 0\nq2 0 z 1\nq9 0 k 1\n' >"$D/qrels"
run eval -m NumRet "$D/qrels" "$D/pool.trec"
[ "$rc" -eq 0 ] && grep -qx 'retriage-pool-d2	NumRet	all	7' "$D/out"
report $? "retriage eval loads the TREC pool (the judged queries q1, q2 retrieve 4 + 3)"
cut -d' ' -f1-4 "$D/pool.trec" >"$D/p4"
run pool --depth 100 --order file "$D/pool.trec"
cut -d' ' -f1-4 "$D/out" | cmp -s - "$D/p4"
report $? "pooling the pool alone (file order, deep) gives back its order"
run pool --depth 100 "$D/pool.trec"
cut -d' ' -f1-4 "$D/out" >"$D/p4s"
# By score, c and f (equal rrf) reload in trec_eval's tie order, pid descending: f before c.
grep -v '^q1 Q0 [cf] ' "$D/p4" >"$D/p4x"
grep -q '^q1 Q0 f 2$' "$D/p4s" && grep -q '^q1 Q0 c 3$' "$D/p4s" &&
    grep -v '^q1 Q0 [cf] ' "$D/p4s" | cmp -s - "$D/p4x"
report $? "reloaded by score, only passages of equal rrf change places (trec_eval's tie order)"

# ---- depth -------------------------------------------------------------------------------------------
run pool --depth 1 --format tsv $RUNS
[ "$(tail -n +2 "$D/out" | cut -f1,2 | tr '\t\n' ' ,')" = "q1 a,q1 c,q1 f,q2 x,q2 y,q3 w," ]
report $? "depth 1: each run's first passage per query, ties (all 1/61) in byte order"
run pool --depth 1000 --format tsv $RUNS
[ "$(tail -n +2 "$D/out" | cut -f1,2 | tr '\t\n' ' ,')" = "q1 a,q1 c,q1 f,q1 b,q1 e,q1 d,q2 y,q2 x,q2 z,q3 w," ]
report $? "depth beyond the rankings: every retrieved passage"
run pool --depth 2 --rrf-k 0 --format tsv $RUNS
awk -F '\t' '$2 == "a" { exit !($4 == 1.5) }' "$D/out"
report $? "--rrf-k 0: a scores 1/1 + 1/2"

# ---- qrels -------------------------------------------------------------------------------------------
run pool --depth 2 --format tsv --qrels "$D/qrels" $RUNS
st=0
head -n 1 "$D/out" | grep -qx 'qid	pid	rrf_rank	rrf	best_rank	nruns	grade' || st=1
[ "$(tail -n +2 "$D/out" | cut -f2,7 | tr '\t\n' '=,')" = "a=1,c=,f=0,b=,y=,x=,z=1,w=," ] || st=1
grep -q '3 queries, 8 pooled passages (2.67 per query), 3 judged, 5 unjudged$' "$D/err" || st=1
report $st "--qrels: a grade column (empty when unjudged) and judged/unjudged in the summary"

run pool --depth 2 --qrels "$D/qrels" --unjudged $RUNS
[ "$(cut -d' ' -f1,3,4 "$D/out" | tr ' \n' ':,')" = "q1:c:2,q1:b:4,q2:y:1,q2:x:2,q3:w:1," ] &&
    grep -q '8 pooled passages (2.67 per query), 3 judged, 5 unjudged$' "$D/err"
report $? "--unjudged: only what the qrels do not judge, with the ranks of the whole pool"

run pool --depth 2 --qrels "$D/qrels" --qrels-queries --format tsv $RUNS
[ "$(tail -n +2 "$D/out" | cut -f1 | uniq | tr '\n' ,)" = "q1,q2," ] &&
    grep -q ': 2 queries, 7 pooled passages (3.50 per query), 3 judged, 4 unjudged$' "$D/err"
report $? "--qrels-queries: only the judged queries that the runs have (q9 is in no run)"

run pool --depth 2 -Q --qrels "$D/qrels" $RUNS
[ "$rc" -eq 0 ] && [ ! -s "$D/err" ] && cmp -s "$D/out" "$D/pool.trec"
report $? "-Q: no summary; --qrels alone does not change the TREC output"

# ---- -o ----------------------------------------------------------------------------------------------
mkdir "$D/o"
run pool --depth 2 -o "$D/o/pool.trec" $RUNS
[ "$rc" -eq 0 ] && [ ! -s "$D/out" ] && cmp -s "$D/o/pool.trec" "$D/pool.trec" &&
    [ "$(ls "$D/o")" = pool.trec ] && grep -q '8 pooled passages' "$D/err"
report $? "-o F: the pool in F, nothing on stdout, no temporary file left"
run pool --depth 1 --format tsv --output "$D/o/pool.trec" $RUNS
[ "$rc" -eq 0 ] && [ "$(wc -l <"$D/o/pool.trec")" -eq 7 ] && [ "$(ls "$D/o")" = pool.trec ]
report $? "--output replaces an existing file"
cp "$D/o/pool.trec" "$D/o/before"
printf 'q1 Q0 a 1 1.0 t\nq1 Q0 b 2 zz t\n' >"$D/bad.trec"
run pool --depth 2 -o "$D/o/pool.trec" "$D/A.trec" "$D/bad.trec"
[ "$rc" -eq 2 ] && cmp -s "$D/o/pool.trec" "$D/o/before" && [ "$(ls "$D/o" | wc -l)" -eq 2 ]
report $? "-o F with a bad run: exit 2, F left as it was, no temporary file"
run pool --depth 2 -o "$D/no/such/dir/pool.trec" $RUNS
[ "$rc" -eq 2 ] && grep -q "no/such/dir/pool.trec" "$D/err" && [ ! -s "$D/out" ]
report $? "-o into a missing folder: exit 2 naming the path"

# ---- usage and input errors --------------------------------------------------------------------------
usage() {  # usage NAME TEXT ARGS... — exit 1, TEXT and the pointer to --help on stderr, no stdout
    name=$1 text=$2
    shift 2
    run pool "$@"
    st=0
    [ "$rc" -eq 1 ] || st=1
    grep -Fq -- "$text" "$D/err" && grep -Fq "Try 'retriage pool --help'" "$D/err" || st=1
    [ -s "$D/out" ] && st=1
    report $st "usage error: $name"
}
usage "no --depth" "--depth K is required" $RUNS
usage "--depth 0" "--depth expects an integer >= 1, not '0'" --depth 0 $RUNS
usage "--depth -3" "--depth expects an integer >= 1" --depth -3 $RUNS
usage "--depth abc" "--depth expects an integer >= 1, not 'abc'" --depth abc $RUNS
usage "no runs" "expected at least one RUN" --depth 5
usage "unknown format" "unknown format 'xml' (trec, tsv)" --depth 5 --format xml $RUNS
usage "--unjudged without --qrels" "--unjudged needs --qrels" --depth 5 --unjudged $RUNS
usage "--rrf-k -1" "--rrf-k expects an integer >= 0" --depth 5 --rrf-k -1 $RUNS
usage "unknown option" "unknown option" --depth 5 --bogus $RUNS
usage "unknown run format" "unknown run format 'csv'" --depth 5 --run-format csv $RUNS

run pool --help
[ "$rc" -eq 0 ] && grep -q '^Usage: retriage pool --depth K' "$D/out" && [ ! -s "$D/err" ]
report $? "--help: the usage on stdout, exit 0"
run --help
grep -q '^  pool ' "$D/out"
report $? "retriage --help lists pool"

fails() {  # fails NAME TEXT ARGS... — exit 2, TEXT on stderr, nothing on stdout
    name=$1 text=$2
    shift 2
    run pool "$@"
    st=0
    [ "$rc" -eq 2 ] || st=1
    crashed && st=1
    grep -Fq -- "$text" "$D/err" || st=1
    [ -s "$D/out" ] && st=1
    report $st "input error: $name"
}
fails "a bad score names file:line" "bad.trec:2:" --depth 5 "$D/A.trec" "$D/bad.trec"
fails "a missing run" "$D/none.trec" --depth 5 "$D/A.trec" "$D/none.trec"
printf 'q1 0 a 1\nq1 0 b\n' >"$D/bad.qrels"
fails "bad qrels name file:line" "bad.qrels:2:" --depth 5 --qrels "$D/bad.qrels" "$D/A.trec"
printf '{"q1": ["a"}\n' >"$D/bad.json"
fails "a bad JSON run" "bad.json:" --depth 5 "$D/bad.json"
printf 'q1 Q0 a 1 1.0 t\nq1 Q0 a 2 0.5 t\n' >"$D/dup.trec"
fails "--strict: a duplicate passage" "dup.trec:2:" --depth 5 --strict "$D/dup.trec"
run pool --depth 5 "$D/dup.trec"
[ "$rc" -eq 0 ] && grep -q 'warning: .*dup.trec:2: 1 duplicate' "$D/err" && [ "$(wc -l <"$D/out")" -eq 1 ]
report $? "a duplicate passage without --strict: a warning, the best-ranked copy pooled"

# ---- the demo workspace: depth 10 against sort + awk -------------------------------------------------
DEMO=$SRCDIR/data/demo
if [ -f "$DEMO/runs/bm25.trec" ]; then
    # Each run ranked as trec_eval does (score descending, ties by pid descending), its top 10
    # per query, then the distinct (qid, pid) pairs.
    for r in bm25 dense rerank; do
        sort -k1,1 -k5,5gr -k3,3r "$DEMO/runs/$r.trec" | awk '++n[$1] <= 10 { print $1, $3 }'
    done | sort -u >"$D/demo.want"
    run pool --depth 10 "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec" "$DEMO/runs/rerank.trec"
    awk '{ print $1, $3 }' "$D/out" | sort >"$D/demo.got"
    want_n=$(wc -l <"$D/demo.want")
    st=0
    [ "$rc" -eq 0 ] && [ "$want_n" -gt 340 ] || st=1
    cmp -s "$D/demo.want" "$D/demo.got" || st=1
    grep -q ": 34 queries, $want_n pooled passages" "$D/err" || st=1
    report $st "demo, depth 10: the pool is the union of the top 10 of the three runs ($want_n passages)"
    awk '{ if ($4 != (($1 == q) ? r + 1 : 1)) bad = 1; q = $1; r = $4
           if (prev_q == $1 && $5 > prev_s) bad = 1; prev_q = $1; prev_s = $5 } END { exit bad }' "$D/out"
    report $? "demo: ranks 1, 2, … per query and rrf non-increasing"
    run pool --depth 10 --qrels "$DEMO/qrels.trec" --unjudged "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec" "$DEMO/runs/rerank.trec"
    awk 'NR == FNR { j[$1 " " $3] = 1; next } !(($1 " " $2) in j)' "$DEMO/qrels.trec" "$D/demo.want" >"$D/demo.unj"
    awk '{ print $1, $3 }' "$D/out" | sort | cmp -s - "$D/demo.unj" &&
        grep -q "$want_n pooled passages (.*), $((want_n - $(wc -l <"$D/demo.unj"))) judged, $(wc -l <"$D/demo.unj") unjudged$" "$D/err"
    report $? "demo, --unjudged: the pooled pairs not in qrels.trec, counted in the summary"
else
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - demo depth 10 # SKIP data/demo/runs is absent"
fi

done_testing
