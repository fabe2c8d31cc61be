#!/bin/sh
# significance_ui.sh — the metrics panel's significance markers, as a person would use them on the
# demo: :baseline marks the runs that `retriage compare --baseline` finds significant (the same
# t-test and Holm correction), and relabels that lift one run on many queries mark its delta —
# recomputed live after each change.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8 RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json"
[ -f "$RETRIAGE_DEMO" ] || skip_all "the demo workspace is missing"
ui() {
    printf '%b' "$1" > "$D/script"
    "$RETRIAGE" --demo --journal-dir "$D/j" --annotator sig --script "$D/script" --size 140x20 > "$D/echo" 2> "$D/err"
}

ui 'm\n:snapshot '"$D"'/m0\n:baseline bm25\n:snapshot '"$D"'/m1\n:baseline none\n:snapshot '"$D"'/m2\n'
ok $? "the panel with and without a baseline"
"$RETRIAGE" compare --demo --baseline bm25 > "$D/cmp" 2> /dev/null
# the panel's markers: per run, the measures whose current value carries a *
st=0
for run in dense rerank; do
    for m in 1 2 3; do
        want=$(awk -F'\t' -v r="$run" -v k="$m" 'NR > 1 && $2 == r { n++; if (n == k) print $22 }' "$D/cmp")
        col=$(grep "^$run " "$D/m1" | awk -v k="$m" '{ print $(3 * k) }')
        case "$col" in *\*) got=yes ;; *) got=no ;; esac
        [ "$want" = "$got" ] || { echo "$run measure $m: compare says $want, the panel $col" | diag; st=1; }
    done
done
grep -q "^bm25 (b) " "$D/m1" || st=1
ok $st "the markers equal retriage compare --baseline bm25 (t-test, Holm): dense RR@10, rerank RR@10 and Success@1"
! sed -n '5,7p' "$D/m2" | grep -q '\*' && ! sed -n '5,7p' "$D/m0" | grep -q '\*'
ok $? "no baseline: no run is marked; no relabel: no delta is"

# lift bm25 on twelve queries: its rank-1 passages, unjudged or not relevant, become relevant
awk 'NR == FNR { if ($4 > 0) rel[$1 " " $3] = 1; next } $4 == 1 && !rel[$1 " " $3] { print ":label " $1 " " $3 " 1" }' \
    "$SRCDIR/data/demo/qrels.trec" "$SRCDIR/data/demo/runs/bm25.trec" | head -12 > "$D/labels"
ui "m\n$(sed 's/$/\\n/' "$D/labels" | tr -d '\n'):snapshot $D/m3\n"
ok $? "twelve relabels"
grep "^bm25 " "$D/m3" | awk '{ exit !($4 ~ /\*$/) }'
ok $? "bm25's RR@10 delta is marked: the relabels changed its score significantly (live)"
sed -n 1,8p "$D/m3" | diag

done_testing
