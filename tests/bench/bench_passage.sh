#!/usr/bin/env bash
# bench_passage.sh — a single huge passage (issue 9, item 10): opening it in the passage view and
# pressing keys there must cost what a normal passage costs, in time and memory. Makes a 300 MB
# one-passage collection in a temporary folder (removed after), opens the workbench in script
# mode on it, shows the passage and scrolls, and prints wall time and peak RSS beside the same
# with a 2 KiB passage. Usage: RETRIAGE=… BENCH_BIN=… bench_passage.sh [MB]
set -eu
: "${RETRIAGE:?}" "${BENCH_BIN:?}"
mb=${1:-300}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export XDG_CACHE_HOME="$d/cache"
make_ws() {  # make_ws NAME BYTES
    { printf 'huge\t'; yes '北京的天气很好，今天适合出门。' | tr -d '\n' | head -c "$2"; printf '\nsmall\tshort one\n'; } >"$d/$1.tsv"
    printf 'q1\tq\n' >"$d/q.tsv"
    printf 'q1 0 huge 1\n' >"$d/qrels"
    printf 'q1 Q0 huge 1 2 r\nq1 Q0 small 2 1 r\n' >"$d/run"
    printf '{"queries":"q.tsv","collection":"%s.tsv","qrels":"qrels","runs":["run"],"journal_dir":"ann"}' "$1" >"$d/$1.json"
}
keys() {  # a script: open the query, the first passage, scroll, redraw
    printf '<Enter>\n<Enter>\n'
    for _ in $(seq 1 20); do printf 'j\n'; done
    printf 'G\ng\n:quit\n'
}
keys >"$d/script"
for what in small huge; do
    bytes=$([ $what = huge ] && echo $((mb << 20)) || echo 2048)
    make_ws $what "$bytes"
    "$RETRIAGE" "$d/$what.json" --script "$d/script" --size 120x40 >/dev/null 2>&1   # builds the index
    rm -f "$d/ru" "$d/times"
    "$BENCH_BIN/rusage" -o "$d/ru" "$RETRIAGE" "$d/$what.json" --script "$d/script" --size 120x40 \
        --key-times "$d/times" >/dev/null
    n=$(wc -l <"$d/times")
    p99=$(sort -n "$d/times" | sed -n "$(( (n * 99 + 99) / 100 ))p")
    max=$(sort -n "$d/times" | tail -n1)
    printf '%-6s passage of %8d bytes: open + 25 keys %s; per key p99 %s us, max %s us\n' \
        "$what" "$bytes" "$(cat "$d/ru")" "$p99" "$max"
    rm -f "$d/$what.tsv" "$d/$what.tsv.rtidx"
done
