#!/bin/sh
# bench_check.sh — how long `make -j2 check` takes on this machine (the target: a minute on 2
# cores): RUNS runs in a row (default 3) after one that builds what the tests need, each one's
# wall and CPU time and the processes it started; their median; and the slowest tests of the last
# run (each test's own time, from make check's driver, tests/tools/tapdrive). Run from the build
# folder: `make bench-check [RUNS=N] [JOBS=N]`. Nothing else should run meanwhile: two cores.
set -u
RUNS=${RUNS:-3}; [ -n "$RUNS" ] || RUNS=3
JOBS=${JOBS:-2}; [ -n "$JOBS" ] || JOBS=2
BENCH_BIN=${BENCH_BIN:-tests/bench}
OUT=${TMPDIR:-/tmp}/bench_check.$$
mkdir "$OUT" || exit 2
trap 'rm -rf "$OUT"' EXIT

procs() { awk '/^processes/ { print $2 }' /proc/stat 2> /dev/null || echo 0; }

make -j"$JOBS" check TESTS= > "$OUT/build.log" 2>&1 || { echo "bench_check: the build failed" >&2; exit 2; }
echo "make -j$JOBS check, $RUNS runs ($(nproc 2> /dev/null || echo '?') cores)"
i=1
while [ "$i" -le "$RUNS" ]; do
    rm -f "$OUT/times" "$OUT/rusage"
    p0=$(procs)
    TAPDRIVE_TIMES=$OUT/times "$BENCH_BIN/rusage" -o "$OUT/rusage" make -j"$JOBS" check > "$OUT/check.log" 2>&1
    st=$?
    p1=$(procs)
    # rusage: "WALL s MAXRSS KiB (user U s, sys S s)"
    read -r wall _ _ _ _ user _ _ sys _ < "$OUT/rusage"
    sys=${sys%)}
    res=$(grep -E '^# (PASS|FAIL|ERROR):' "$OUT/check.log" | tr -s ' ' | tr '\n' ' ')
    printf 'run %d: %s s wall, %.1f s CPU (user %s + sys %s), %d processes; %s%s\n' "$i" "$wall" \
        "$(echo "$user $sys" | awk '{ print $1 + $2 }')" "$user" "$sys" $((p1 - p0)) "$res" \
        "$([ "$st" -eq 0 ] || echo " (make check FAILED)")"
    echo "$wall" >> "$OUT/walls"
    i=$((i + 1))
done
sort -n "$OUT/walls" | awk '{ w[NR] = $1 } END { printf "median wall: %s s\n", w[int((NR + 1) / 2)] }'
echo "the slowest tests of the last run (their own wall time, run beside others):"
awk '{ printf "%7.2f s  %s\n", $2 - $1, $3 }' "$OUT/times" | sort -rn | head -15
