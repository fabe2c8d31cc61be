#!/bin/sh
# bench_grep — `retriage grep` over a whole collection beside `grep -c` of one word over the same
# file (issue 35, item 7: an 8.8M-passage collection answers in about the time of a grep -c). Not
# part of make check. The collection is make bench-scale's (8.8M MS MARCO-shaped passages, ~3 GB;
# BENCH_COLL to give another), warm in the page cache; each timing the median of BENCH_REPS (3).
# Prints each search's wall and CPU time, the passages found, and the ratio to grep -c in the C
# locale (bytes; in a UTF-8 locale grep is slower on Chinese, shown too). grep -c counts lines
# whose pid holds the word as well, retriage grep only passages whose text does.
set -eu
: "${RETRIAGE:?set RETRIAGE to the retriage binary (make bench-grep does)}"
: "${BENCH_BIN:?set BENCH_BIN to the folder of rusage (make bench-grep does)}"
OUT=${BENCH_OUT:-$BENCH_BIN/out}
COLL=${BENCH_COLL:-$OUT/scale/collection.tsv}
REPS=${BENCH_REPS:-3}
[ -s "$COLL" ] || { echo "bench_grep: no collection at $COLL (run make bench-scale first, or set BENCH_COLL)" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat "$COLL" > /dev/null   # warm
# median COMMAND... — median wall and CPU seconds of REPS runs; the last run's stdout in $T/out
median() {
    : > "$T/all"
    i=0
    while [ "$i" -lt "$REPS" ]; do
        "$BENCH_BIN/rusage" -o "$T/t" "$@" > "$T/out" || true
        awk '{ print $1, $6 + $9 }' "$T/t" >> "$T/all"
        : > "$T/t"
        i=$((i + 1))
    done
    sort -n "$T/all" | awk '{ w[NR] = $1; c[NR] = $2 } END { m = int((NR + 1) / 2); printf "%.3f %.3f", w[m], c[m] }'
}
echo "bench_grep: $COLL ($(du -m "$COLL" | cut -f1) MB), $(nproc) CPUs, medians of $REPS, warm"
printf '%-34s %8s %8s %10s %9s\n' "search" "wall s" "CPU s" "found" "÷ grep -c"
for words in "zzzqqq" "上涉区" "方善 谁令" "865"; do
    # shellcheck disable=SC2086
    set -- $words
    g=$(median env LC_ALL=C grep -c "$1" "$COLL"); gc=$(cat "$T/out")
    gu=$(median env LC_ALL=C.UTF-8 grep -c "$1" "$COLL")
    # shellcheck disable=SC2086
    r=$(median "$RETRIAGE" grep --collection "$COLL" $words); rn=$(wc -l < "$T/out")
    printf '%-34s %8s %8s %10s\n' "grep -c $1 (LC_ALL=C)" "${g% *}" "${g#* }" "$gc"
    printf '%-34s %8s %8s %10s\n' "grep -c $1 (LC_ALL=C.UTF-8)" "${gu% *}" "${gu#* }" "$gc"
    printf '%-34s %8s %8s %10s %9s\n' "retriage grep $words" "${r% *}" "${r#* }" "$rn" \
        "$(awk -v a="${r% *}" -v b="${g% *}" 'BEGIN { printf "%.2f", a / b }')"
done
