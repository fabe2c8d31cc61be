#!/usr/bin/env bash
# progress.sh — loading a workspace on a terminal shows progress (bytes of total and the rate)
# once it has taken half a second (RETRIAGE_PROGRESS_AFTER sets that delay; 0 here, since the
# test inputs load faster), and erases it afterwards; never when standard error is not a terminal.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
command -v script > /dev/null || skip_all "script(1) is missing (util-linux)"
cp "$DEMO/collection.tsv" "$D/c.tsv"   # a copy: its index is built, with progress
WS="--queries $DEMO/queries.tsv --collection $D/c.tsv --qrels $DEMO/qrels.trec --run $DEMO/runs/bm25.trec --run $DEMO/runs/dense.trec --journal-dir $D/j"
RETRIAGE_PROGRESS_AFTER=0 script -qec "'$RETRIAGE' export $WS --what metrics -o '$D/m'" /dev/null > "$D/tty" 2>&1
tr '\r' '\n' < "$D/tty" > "$D/lines"
grep -Eq '^retriage: loading runs… [0-9.]+ (B|KiB) of [0-9.]+ KiB \([0-9]+%\), [0-9.]+ (B|KiB|MiB|GiB)/s' "$D/lines" &&
    grep -Eq '^retriage: loading collection… [0-9.]+ (B|KiB|MiB) of [0-9.]+ (KiB|MiB) \([0-9]+%\)' "$D/lines"
ok $? "on a terminal: the runs and the collection with bytes of total, percent and rate"
tail -c 4 "$D/tty" | od -An -c | tr -d ' \n' | grep -q '\\r033\[K$'
ok $? "the progress line is erased when the workspace is open"
[ -s "$D/m" ] && [ "$(wc -l < "$D/m")" -eq 7 ]
ok $? "and the export is written"
rm -f "$D/c.tsv.rtidx"; rm -rf "$D/cache"
script -qec "'$RETRIAGE' export $WS --what metrics -o '$D/m2'" /dev/null > "$D/tty2" 2>&1
! grep -q "loading" "$D/tty2"
ok $? "a load under half a second shows nothing"
RETRIAGE_PROGRESS_AFTER=0 "$RETRIAGE" export $WS --what metrics -o "$D/m3" 2> "$D/err"
! grep -q "loading" "$D/err"
ok $? "standard error not a terminal: no progress"
# eval reading a long run: its bytes of total and rate (also when two threads read its halves)
awk '{ for (k = 0; k < 12; k++) { $1 = $1 "x" k; print; sub(/x[0-9]+$/, "", $1) } }' "$DEMO/runs/bm25.trec" > "$D/long.trec"
for par in "" 1; do
    RETRIAGE_PROGRESS_AFTER=0 RETRIAGE_PARALLEL_MIN=${par:-99999999999} script -qec "'$RETRIAGE' eval '$DEMO/qrels.trec' '$D/long.trec' > '$D/e$par'" /dev/null > "$D/tty3" 2>&1
    tr '\r' '\n' < "$D/tty3" | grep -Eq '^retriage: loading run… [0-9.]+ (KiB|MiB) of [0-9.]+ (KiB|MiB) \([0-9]+%\)'
    ok $? "eval on a terminal shows the run's progress${par:+ (two threads)}"
done
"$RETRIAGE" eval "$DEMO/qrels.trec" "$D/long.trec" > "$D/e0" 2> /dev/null
cmp -s "$D/e0" "$D/e" && cmp -s "$D/e0" "$D/e1"
ok $? "and the same values with and without it"
done_testing
