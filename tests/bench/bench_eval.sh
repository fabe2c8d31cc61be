#!/bin/sh
# bench_eval — times `retriage eval` on a synthetic set shaped like a large test (6,000 queries ×
# 1,000 passages, DESIGN §10) beside the I/O floor (`cat`), twice: the run in rank order and the
# same run with each query's lines shuffled (trec_eval ranks by score, so line order within a
# query is free). Checks the budget on both: 25× faster than trec_eval 10.0 (6.6 s, 456 MiB on
# such input: ≤ 0.264 s), at most a tenth of its memory (≤ 45.6 MiB). Not part of make check.
#
# Environment: RETRIAGE (the binary), BENCH_BIN (where gen_evalset and rusage are built),
# BENCH_OUT (the set's folder, default $BENCH_BIN/out), BENCH_REPS (3), BENCH_QUERIES (6000),
# BENCH_DEPTH (1000), BENCH_TIMER (gnu-time or rusage; default: GNU time when it is installed),
# TREC_EVAL (a trec_eval binary: timed on the same files, and its figures set the budget instead
# of the reference ones), BENCH_STRICT=1 to exit 1 when the budget is missed.
set -eu
: "${RETRIAGE:?set RETRIAGE to the retriage binary (make bench does)}"
: "${BENCH_BIN:?set BENCH_BIN to the folder of gen_evalset and rusage (make bench does)}"
OUT=${BENCH_OUT:-$BENCH_BIN/out}
REPS=${BENCH_REPS:-3}
NQ=${BENCH_QUERIES:-6000}
DEPTH=${BENCH_DEPTH:-1000}
MEASURES=RR@10,R@50,nDCG@10,AP
# trec_eval 10.0 on this set (reference figures, measured here): 6.6 s, 456 MiB
REF_S=6.6
REF_KIB=$((456 * 1024))
SPEEDUP=25
MEMSHARE=10

QRELS=$OUT/qrels.trec
RUN=$OUT/run.trec
SHUF=$OUT/run.shuffled.trec
STAMP=$OUT/params
if [ ! -s "$RUN" ] || [ ! -s "$SHUF" ] || [ ! -s "$QRELS" ] ||
    [ "$(cat "$STAMP" 2>/dev/null)" != "$NQ $DEPTH shuffled" ]; then
    mkdir -p "$OUT"
    echo "generating $NQ queries × $DEPTH passages in $OUT (in order and shuffled) …"
    "$BENCH_BIN/gen_evalset" -s "$OUT" "$NQ" "$DEPTH"
    echo "$NQ $DEPTH shuffled" >"$STAMP"
fi

if [ -z "${BENCH_TIMER:-}" ]; then
    if /usr/bin/time -f '%e' true >/dev/null 2>&1; then BENCH_TIMER=gnu-time; else BENCH_TIMER=rusage; fi
fi
T=$(mktemp)
trap 'rm -f "$T" "$T.all" "$T.out"' EXIT

# measure COMMAND... — appends "SECONDS KIB" for one run of COMMAND (stdout to /dev/null) to $T.all
measure() {
    : >"$T"
    if [ "$BENCH_TIMER" = gnu-time ]; then
        /usr/bin/time -o "$T" -f '%e s %M KiB (user %U s, sys %S s)' "$@" >/dev/null
    else
        "$BENCH_BIN/rusage" -o "$T" "$@" >/dev/null
    fi
    sed 's/^/    /' "$T"
    awk '{ print $1, $3 }' "$T" >>"$T.all"
}

# bench NAME COMMAND... — REPS runs; prints best and median of time and peak RSS
bench() {
    name=$1
    shift
    echo "$name"
    : >"$T.all"
    i=0
    while [ "$i" -lt "$REPS" ]; do
        measure "$@"
        i=$((i + 1))
    done
    sort -n -k1,1 "$T.all" | awk -v n="$name" '
        { t[NR] = $1; m[NR] = $2 }
        END {
            mid = int((NR + 1) / 2)
            best_m = m[1]; for (i = 2; i <= NR; i++) if (m[i] < best_m) best_m = m[i]
            split("", s); for (i = 1; i <= NR; i++) s[i] = m[i]
            for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (s[j] < s[i]) { x = s[i]; s[i] = s[j]; s[j] = x }
            printf "  %s: best %.3f s, median %.3f s; peak RSS best %.1f MiB, median %.1f MiB\n",
                   n, t[1], t[mid], best_m / 1024, s[mid] / 1024
            print t[1], t[mid], s[mid] > "/dev/stderr"
        }' 2>"$T"
    read -r best median rss <"$T"
}

echo "set: $(wc -l <"$QRELS") judgments, $(wc -l <"$RUN") run lines," \
    "$(du -m "$QRELS" | cut -f1) + $(du -m "$RUN" | cut -f1) MB; timer: $BENCH_TIMER; $REPS runs each"
cat "$QRELS" "$RUN" "$SHUF" >/dev/null   # warm the page cache; nothing is dropped between runs

bench "cat qrels run > /dev/null (I/O floor)" cat "$QRELS" "$RUN"
if [ -n "${TREC_EVAL:-}" ]; then
    # trec_eval's own -M cuts the ranking for every measure, so it takes the full ranking here and
    # the cut measures: the same work retriage does.
    bench "trec_eval -c -q -m recip_rank -m recall.50 -m ndcg_cut.10 -m map (in order)" \
        "$TREC_EVAL" -c -q -m recip_rank -m recall.50 -m ndcg_cut.10 -m map "$QRELS" "$RUN"
    REF_S=$median
    REF_KIB=$rss
fi
BUDGET_S=$(awk -v r="$REF_S" -v k="$SPEEDUP" 'BEGIN { printf "%.3f", r / k }')
BUDGET_KIB=$((REF_KIB / MEMSHARE))

verdict=ok
# check LABEL — compares the last bench's median and RSS with the budget
check() {
    v=ok
    awk -v t="$median" -v b="$BUDGET_S" 'BEGIN { exit !(t <= b) }' || v="over budget"
    [ "$rss" -le "$BUDGET_KIB" ] || v="over budget"
    [ "$v" = ok ] || verdict="over budget"
    printf '  %s: median %s s (%.1f× trec_eval), %s MiB (%.3f of it) — %s\n' "$1" "$median" \
        "$(awk -v r="$REF_S" -v t="$median" 'BEGIN { print (t > 0 ? r / t : 0) }')" "$((rss / 1024))" \
        "$(awk -v r="$REF_KIB" -v m="$rss" 'BEGIN { print m / r }')" "$v"
}

bench "retriage eval -q -m $MEASURES qrels run > /dev/null (in order)" \
    "$RETRIAGE" eval -q -m "$MEASURES" "$QRELS" "$RUN"
lines=$("$RETRIAGE" eval -q -m "$MEASURES" "$QRELS" "$RUN" | tee "$T.out" | wc -l)
echo "  (it printed $lines lines: $NQ queries × 4 measures + 4 means)"
m1=$median r1=$rss
bench "retriage eval -q -m $MEASURES qrels run.shuffled > /dev/null (lines shuffled within each query)" \
    "$RETRIAGE" eval -q -m "$MEASURES" "$QRELS" "$SHUF"
"$RETRIAGE" eval -q -m "$MEASURES" "$QRELS" "$SHUF" | cmp -s - "$T.out" ||
    { echo "  the shuffled run's values differ from the ordered run's"; verdict="wrong values"; }
m2=$median r2=$rss

echo "budget ($SPEEDUP× faster than trec_eval's $REF_S s, ≤ 1/$MEMSHARE of its $((REF_KIB / 1024)) MiB" \
    "→ ≤ $BUDGET_S s, ≤ $((BUDGET_KIB / 1024)) MiB):"
median=$m1 rss=$r1 check "in order"
median=$m2 rss=$r2 check "shuffled"
echo "verdict: $verdict"
[ "$verdict" = ok ] || [ "${BENCH_STRICT:-0}" != 1 ]
