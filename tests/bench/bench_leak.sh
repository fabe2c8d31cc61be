#!/bin/sh
# bench_leak — times `retriage leak` with exact search on a query-log-sized check: 100,000
# training × 6,000 test queries (tests/bench/gen_leakset: half the test queries one edit away
# from a training query), with the built-in embedder (d = 256) and with given random embeddings
# (d = 768, .npy); beside each, the floor: the bare matrix product of the same shapes through
# the BLAS Faiss links, in the same blocks (tests/bench/bench_gemm), run alternately with it.
# Prints wall time and peak RSS, the ratio to the floor (target for given embeddings: 1.3x, issue
# 15), the load average, and how many of the planted edits the built-in run found. Not part of make check: a few minutes with OpenBLAS,
# about half an hour with the reference BLAS.
#
# Environment: RETRIAGE (the binary), BENCH_BIN (where gen_leakset, bench_gemm and rusage are
# built), BENCH_OUT (the set's folder, default $BENCH_BIN/out/leak), BENCH_TRAIN (100000),
# BENCH_TEST (6000), BENCH_DIM (768), BENCH_REPS (3: the fastest run is shown, with the median),
# BENCH_TIMER (gnu-time or rusage; default: GNU time when it is installed).
set -eu
: "${RETRIAGE:?set RETRIAGE to the retriage binary (make bench-leak does)}"
: "${BENCH_BIN:?set BENCH_BIN to the folder of gen_leakset, bench_gemm and rusage (make bench-leak does)}"
OUT=${BENCH_OUT:-$BENCH_BIN/out/leak}
NTRAIN=${BENCH_TRAIN:-100000}
NTEST=${BENCH_TEST:-6000}
DIM=${BENCH_DIM:-768}
REPS=${BENCH_REPS:-3}

STAMP=$OUT/params
if [ ! -s "$OUT/train.npy" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$NTRAIN $NTEST $DIM" ]; then
    mkdir -p "$OUT"
    echo "generating $NTRAIN training × $NTEST test queries and $DIM-d embeddings in $OUT …"
    "$BENCH_BIN/gen_leakset" "$OUT" "$NTRAIN" "$NTEST" "$DIM"
    echo "$NTRAIN $NTEST $DIM" >"$STAMP"
fi
if [ -z "${BENCH_TIMER:-}" ]; then
    if /usr/bin/time -f '%e' true >/dev/null 2>&1; then BENCH_TIMER=gnu-time; else BENCH_TIMER=rusage; fi
fi
T=$(mktemp)
trap 'rm -f "$T" "$T".*' EXIT

# once FILE COMMAND... — one timed run of COMMAND; appends "wall peak-RSS-KiB user sys" to FILE
# and keeps its stdout in $T.out
once() {
    f=$1
    shift
    if [ "$BENCH_TIMER" = gnu-time ]; then
        /usr/bin/time -o "$T" -f '%e %M %U %S' "$@" >"$T.out"
    else
        "$BENCH_BIN/rusage" -o "$T" "$@" >"$T.out"
        awk '{ print $1, $3, $6, $9 }' "$T" >"$T.x" && mv "$T.x" "$T"
    fi
    cat "$T" >>"$f"
}

# summary NAME FILE — the fastest of FILE's runs as "NAME: S s, M MiB peak RSS", with the median
# time beside it (the machine may be shared)
summary() {
    sort -n -k1,1 "$2" | awk -v n="$1" '{ t[NR] = $0 } END {
        split(t[1], b, " "); split(t[int((NR + 1) / 2)], m, " ")
        printf "  %-54s %7.1f s (median %.1f)  %7.1f MiB  (user %.1f s, sys %.1f s)\n",
               n, b[1], m[1], b[2] / 1024, b[3], b[4] }'
}

# ratio WHAT FLOOR_FILE RUN_FILE [TARGET] — the run's time over the floor's (first column):
# fastest over fastest, median over median, and the median of the ratios of runs made one after
# the other (the least moved by a change in the machine's load), which the target is judged by
ratio() {
    what=$1
    shift
    sort -n -k1,1 "$1" >"$T.a"
    sort -n -k1,1 "$2" >"$T.b"
    awk 'NR == FNR { f[FNR] = $1; next } { print $1 / f[FNR] }' "$1" "$2" | sort -n >"$T.c"
    awk -v target="${3:-}" -v what="$what" 'FILENAME == ARGV[1] { f[FNR] = $1; next }
        FILENAME == ARGV[2] { r[FNR] = $1; n = FNR; next } { p[FNR] = $1 } END {
        m = int((n + 1) / 2)
        printf "  ratio to %s: %.2fx fastest, %.2fx median, %.2fx paired", what, r[1] / f[1],
               r[m] / f[m], p[m]
        if (target != "")
            printf "; target %sx: %s", target, p[m] <= target + 0 ? "met" : "not met"
        printf "\n" }' "$T.a" "$T.b" "$T.c"
}

# pair NAME_FLOOR NAME_RUN TARGET -- FLOOR_COMMAND... -- RUN_COMMAND... — REPS runs of each,
# alternating, so that a change in the machine's load hits both alike; prints both summaries
# (the floor's output below its line) and the ratios: to the product as bench_gemm times it (the
# floor proper; its whole run also fills the matrices with random numbers) and to that whole run;
# the run's stdout of its last run stays in $T.out
pair() {
    nf=$1 nr=$2 target=$3
    shift 4
    floor_cmd=
    while [ "$1" != -- ]; do floor_cmd="$floor_cmd '$1'"; shift; done
    shift
    : >"$T.floor"
    : >"$T.prod"
    : >"$T.run"
    i=0
    while [ "$i" -lt "$REPS" ]; do
        eval "once \"\$T.floor\" $floor_cmd"
        cp "$T.out" "$T.gemm"
        sed -n 's/^sgemm .*: \([0-9.]*\) s, .*/\1/p' "$T.out" >>"$T.prod"
        once "$T.run" "$@"
        i=$((i + 1))
    done
    load=$(cut -d ' ' -f1-3 /proc/loadavg)
    summary "$nf" "$T.floor"
    sed 's/^/    /' "$T.gemm"
    summary "$nr" "$T.run"
    ratio "the product" "$T.prod" "$T.run" "$target"
    ratio "bench_gemm's whole run" "$T.floor" "$T.run"
    echo "  load average after the runs: $load"
}

blas=$(readlink -f "$(ldconfig -p | awk '/libblas\.so\.3 .*x86-64/ { print $NF; exit }')" 2>/dev/null || echo "libblas.so.3")
cat "$OUT"/*.tsv "$OUT"/*.npy >/dev/null   # warm the page cache
echo "set: $NTRAIN training, $NTEST test queries; embeddings $DIM-d ($(du -m "$OUT/train.npy" | cut -f1) MB)"
echo "BLAS: $blas; $(nproc) CPUs; timer: $BENCH_TIMER; best of $REPS runs; load average now $(cut -d ' ' -f1-3 /proc/loadavg)"

echo "built-in embedder (d = 256), exact search:"
pair "floor: sgemm $NTEST × $NTRAIN × 256" "retriage leak --train --test" "" -- \
    "$BENCH_BIN/bench_gemm" "$NTEST" "$NTRAIN" 256 -- \
    "$RETRIAGE" leak -Q --train "$OUT/train.tsv" --test "$OUT/test.tsv"
pairs=$(($(wc -l <"$T.out") - 1))
found=$(awk -F '\t' 'NR == FNR { want[$1 "\t" $2] = $3; n[$3]++; next }
    FNR > 1 && ($1 "\t" $2) in want && !seen[$1 "\t" $2]++ { f[want[$1 "\t" $2]]++; all++ }
    END { printf "%d of %d", all, FNR ? length(want) : 0; for (e in n) printf "; %s %d/%d", e, f[e], n[e] }' \
    "$OUT/planted.tsv" "$T.out")
fresh=$(awk -F '\t' 'NR > 1 { split($1, a, "te"); if ((a[2] + 0) % 2 == 1) m[$1] = 1 } END { print length(m) }' "$T.out")
echo "    $pairs pairs; planted edits found: $found; fresh test queries with a match: $fresh of $((NTEST / 2))"

echo "given embeddings (d = $DIM, random), exact search:"
pair "floor: sgemm $NTEST × $NTRAIN × $DIM" "retriage leak --train-emb .npy --test-emb .npy" 1.3 -- \
    "$BENCH_BIN/bench_gemm" "$NTEST" "$NTRAIN" "$DIM" -- \
    "$RETRIAGE" leak -Q --train "$OUT/train.tsv" --test "$OUT/test.tsv" \
    --train-emb "$OUT/train.npy" --test-emb "$OUT/test.npy"
echo "    $(($(wc -l <"$T.out") - 1)) pairs (random vectors: none reach 0.91)"
