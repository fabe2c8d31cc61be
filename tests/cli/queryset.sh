#!/bin/sh
# queryset.sh — query sets over runs with long names (:sample, :set): a condition names a run in
# full, whatever its length; a sample's set is named after its whole condition, so two
# conditions that differ only past the 127th byte make two sets; :set finds a set by its whole
# name and limits the list to it.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
L=$(awk 'BEGIN { while (n++ < 150) printf "a" }')
X=${L}X Y=${L}Y Z=${L}Z
WS="--queries $DEMO/queries.tsv --collection $DEMO/collection.tsv --qrels $DEMO/qrels.trec
    --run $X=$DEMO/runs/bm25.trec --run $Y=$DEMO/runs/dense.trec --run $Z=$DEMO/runs/rerank.trec"
{
    echo ":sample 40 1 worse $X $Y"
    echo ":sample 40 1 worse $X $Z"
    echo ":set none"
    echo ":set n40-seed1-worse-$X-$Y"
    echo ":set n40-seed1-worse-$X-$Z"
    echo ":set n40-seed1-worse-$X-$Y"
    echo ":snapshot $D/snap"
} > "$D/s"
# shellcheck disable=SC2086
"$RETRIAGE" $WS --journal-dir "$D/j" --annotator t --script "$D/s" --echo --size 120x40 > "$D/out" 2> "$D/err"
ok $? "the script runs"
# the same conditions by run number: the counts to expect
printf ':sample 40 1 worse 1 2\n:sample 40 1 worse 1 3\n' > "$D/n"
# shellcheck disable=SC2086
"$RETRIAGE" $WS --journal-dir "$D/jn" --annotator t --script "$D/n" --echo --size 120x40 > "$D/nout" 2>&1
ny=$(sed -n 1p "$D/nout" | grep -o 'only [0-9]* queries' | tr -dc 0-9)
nz=$(sed -n 2p "$D/nout" | grep -o 'only [0-9]* queries' | tr -dc 0-9)
[ -n "$ny" ] && [ -n "$nz" ] && [ "$ny" != "$nz" ]
ok $? "by run number: $ny and $nz queries (the two conditions differ)"
grep -qx "query set n40-seed1-worse-$X-$Y: only $ny queries meet the condition" "$D/out" &&
    grep -qx "query set n40-seed1-worse-$X-$Z: only $nz queries meet the condition" "$D/out"
ok $? "a condition names runs of 151 bytes in full"
[ "$(grep -c '"set"' "$D/j/t.jsonl")" -eq 2 ] &&
    grep -q "\"name\":\"n40-seed1-worse-$X-$Y\"" "$D/j/t.jsonl" &&
    grep -q "\"name\":\"n40-seed1-worse-$X-$Z\"" "$D/j/t.jsonl"
ok $? "two sets, each named after its whole condition"
[ "$(grep -c "^query set n40-seed1-worse-$X-$Y: $ny queries shown\$" "$D/out")" -eq 2 ] &&
    grep -qx "query set n40-seed1-worse-$X-$Z: $nz queries shown" "$D/out"
ok $? ":set finds each by its whole name"
[ "$(grep -c '^q[0-9]' "$D/snap")" -eq "$ny" ]
ok $? "and the list shows that set's queries"
done_testing
