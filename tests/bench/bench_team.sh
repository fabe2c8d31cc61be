#!/usr/bin/env bash
# bench_team.sh — a team of 5 annotators × 100,000 judged pairs (issue 11): makes the journals
# once (bench_team --generate-only), then prints the core figures (bench_team), the whole
# `retriage agree` command with the workspace load (wall time, peak RSS), and the workbench's
# disagreement view opening (the Q key's time, --key-times) and a key there afterwards.
# Usage: RETRIAGE=… BENCH_BIN=… bench_team.sh [ANNOTATORS] [PAIRS]
set -eu
: "${RETRIAGE:?}" "${BENCH_BIN:?}"
na=${1:-5} np=${2:-100000}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export XDG_CACHE_HOME="$d/cache"
"$BENCH_BIN/bench_team" --annotators "$na" --pairs "$np" --dir "$d" --generate-only
"$BENCH_BIN/bench_team" --annotators "$na" --pairs "$np" --dir "$d" --keep | tail -n +2
WS=(--queries "$d/queries.tsv" --qrels "$d/qrels.trec" --run "$d/run.trec" --journal-dir "$d/j")
for i in 1 2 3; do
    rm -f "$d/ru"; "$BENCH_BIN/rusage" -o "$d/ru" "$RETRIAGE" agree "${WS[@]}" --format json > "$d/agree.json" 2>/dev/null
    echo "retriage agree (load + team + agreement), run $i: $(cat "$d/ru") (target < 1 s)"
done
printf 'Q\nj\nj\nk\n:quit\n' > "$d/script"
"$RETRIAGE" "${WS[@]}" --annotator lead --script "$d/script" --size 120x40 --key-times "$d/times" > /dev/null
echo "workbench: Q (team open + decide + first draw) $(sed -n 1p "$d/times") us; then j, j, k: $(sed -n 2,4p "$d/times" | tr '\n' ' ')us (target < 100 ms to open)"
