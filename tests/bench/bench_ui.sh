#!/bin/sh
# bench_ui — times the workbench on a DuReader-scale workspace (DESIGN §10: every key press within
# one frame, 16 ms; opening a collection costs one sequential pass the first time and near
# nothing after). Not part of make check. It
#   - generates the workspace once (gen_workspace: 4,000 queries, 1,000,000 passages of ~300
#     characters, ~4 relevant per query, 5 runs × 50) into $BENCH_WS;
#   - times `cat collection > /dev/null` and `cat` of all the workspace's files (the I/O floors),
#     cold and warm;
#   - times the first screen (a script of `:snapshot` and `:quit`: load + first draw; a script
#     waits for a collection the workbench indexes behind its first screen, so this is the whole
#     open) on a first open (index deleted) and on a later open (index cached), each with the files
#     evicted from the page cache (cold) and in it (warm);
#   - on a first open, also the first screen on a terminal (script(1)): the time until the query
#     list is drawn, with a new collection index still being built behind it, and until the
#     workbench, told q at once, has ended (the collection in, the caches handed on);
#   - replays a long script of mixed navigation (≥ 2,000 keys: list moves, paging, sorting,
#     filtering, opening queries, moving across ranks and runs, next/previous query, passages,
#     metrics, relabels, help) with --key-times and prints p50/p90/p99/max of the per-key time (handling +
#     drawing into the curses screen; writing to a real terminal is not included), overall and
#     per kind of key, warm and with a cold page cache;
#   - prints the peak RSS of every run.
# A later open maps the workspace cache (the parsed runs); a first open has neither it nor the
# collection index. Relabels go to a journal in a temporary folder.
#
# Environment: RETRIAGE (the binary), BENCH_BIN (the folder of gen_workspace and rusage),
# BENCH_WS (the workspace folder, default $BENCH_OUT/ws, $BENCH_OUT defaulting to $BENCH_BIN/out),
# BENCH_PASSAGES (1000000), BENCH_QUERIES (4000), BENCH_RUNS (5), BENCH_DEPTH (50), BENCH_SHAPE
# (dureader, or msmarco: decimal ids and ~330-byte passages), BENCH_REPS (3), BENCH_KEYS (3000 timed keys),
# BENCH_SIZE (120x40, the budgeted size), BENCH_EXTRA_SIZES (sizes the key script is replayed at
# once more, for the headroom; default "80x24 200x60", empty for none), BENCH_DROP (how the page
# cache is made cold: files = posix_fadvise DONTNEED on the workspace's files through
# `dd iflag=nocache count=0`, the default, which leaves other caches alone; global = sync and
# /proc/sys/vm/drop_caches, root only; none = skip the cold runs), BENCH_KEEP=1 to keep the
# temporary folder (script, labels, key times, snapshots), BENCH_STRICT=1 to exit 1 when the warm
# p99 is 16 ms or more, BENCH_RESULTS (a file to which NAME VALUE lines of the main figures are
# appended, for bench_scale.sh).
set -eu
: "${RETRIAGE:?set RETRIAGE to the retriage binary (make bench does)}"
: "${BENCH_BIN:?set BENCH_BIN to the folder of gen_workspace and rusage (make bench does)}"
OUT=${BENCH_OUT:-$BENCH_BIN/out}
WS=${BENCH_WS:-$OUT/ws}
NP=${BENCH_PASSAGES:-1000000}
NQ=${BENCH_QUERIES:-4000}
NRUNS=${BENCH_RUNS:-5}
DEPTH=${BENCH_DEPTH:-50}
SHAPE=${BENCH_SHAPE:-dureader}
REPS=${BENCH_REPS:-3}
NKEYS=${BENCH_KEYS:-3000}
SIZE=${BENCH_SIZE:-120x40}
EXTRA_SIZES=${BENCH_EXTRA_SIZES-80x24 200x60}
DROP=${BENCH_DROP:-files}
BUDGET_US=16000
export LC_ALL=C.UTF-8

TMPD=$(mktemp -d)
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$TMPD"' EXIT
# Any index that does not fit beside the collection goes to a private cache folder.
export XDG_CACHE_HOME="$TMPD/cache"

COLL=$WS/collection.tsv
IDX=$COLL.rtidx
STAMP=$WS/params
PARAMS="$NP $NQ $NRUNS $DEPTH $SHAPE"
[ "$NRUNS $DEPTH $SHAPE" != "5 50 dureader" ] || PARAMS="$NP $NQ $NRUNS"   # as earlier versions wrote
if [ ! -s "$COLL" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$PARAMS" ]; then
    mkdir -p "$WS"
    echo "generating $NQ queries, $NP passages, $NRUNS runs × $DEPTH ($SHAPE) in $WS …"
    start=$(date +%s.%N)
    shape=
    [ "$SHAPE" = msmarco ] && shape=--msmarco
    "$BENCH_BIN/gen_workspace" $shape "$WS" "$NP" "$NQ" "$NRUNS" "$DEPTH"
    rm -f "$IDX" "$COLL".*.rtws
    echo "$PARAMS" >"$STAMP"
    echo "  generated in $(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }') s"
fi
WSJSON=$WS/workspace.json
FILES="$COLL $WS/queries.tsv $WS/qrels.trec"
i=1
while [ "$i" -le "$NRUNS" ]; do FILES="$FILES $WS/runs/run$i.trec"; i=$((i + 1)); done
# the derived files: the collection index and the workspace cache (found when they exist)
derived() { ls "$IDX" "$COLL".*.rtws 2>/dev/null || true; }
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >>"$BENCH_RESULTS"; }

# ---- timing -------------------------------------------------------------------------------

if [ -x "$BENCH_BIN/rusage" ]; then
    TIMER=rusage
elif /usr/bin/time -f '%e' true >/dev/null 2>&1; then
    TIMER=gnu-time
else
    echo "bench_ui: neither $BENCH_BIN/rusage nor GNU time is available" >&2
    exit 2
fi

# measure COMMAND... — runs COMMAND once (stdout to /dev/null), prints and appends
# "SECONDS KIB CPU_SECONDS" (user + sys) to $TMPD/all; fails when the command fails.
measure() {
    : >"$TMPD/t"
    if [ "$TIMER" = rusage ]; then
        "$BENCH_BIN/rusage" -o "$TMPD/t" "$@" >/dev/null
    else
        /usr/bin/time -o "$TMPD/t" -f '%e s %M KiB (user %U s, sys %S s)' "$@" >/dev/null
    fi
    sed 's/^/    /' "$TMPD/t"
    awk '{ print $1, $3, $6 + $9 }' "$TMPD/t" >>"$TMPD/all"
}

# summary NAME [KEY] — best, median, worst time and median, worst peak RSS of the runs in
# $TMPD/all; with KEY, "KEY MEDIAN_S MAX_RSS_KIB MEDIAN_CPU_S" goes to the results
summary() {
    if [ -n "${2:-}" ]; then
        result "$2" "$(sort -n -k1,1 "$TMPD/all" | awk '{ t[NR] = $1; if ($2 > m) m = $2 } END { print t[int((NR + 1) / 2)], m }') $(sort -n -k3,3 "$TMPD/all" | awk '{ c[NR] = $3 } END { print c[int((NR + 1) / 2)] }')"
    fi
    sort -n -k1,1 "$TMPD/all" | awk -v n="$1" '
        { t[NR] = $1; m[NR] = $2; c[NR] = $3 }
        END {
            for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
                if (m[j] < m[i]) { x = m[i]; m[i] = m[j]; m[j] = x }
                if (c[j] < c[i]) { x = c[i]; c[i] = c[j]; c[j] = x }
            }
            mid = int((NR + 1) / 2)
            printf "  => %s: best %.3f s, median %.3f s, worst %.3f s; peak RSS median %.1f MiB, max %.1f MiB; CPU (user + sys) median %.2f s\n",
                   n, t[1], t[mid], t[NR], m[mid] / 1024, m[NR] / 1024, c[mid]
        }'
}

# ---- the page cache -----------------------------------------------------------------------

resident() {   # resident KiB of the given files, or "?" without fincore
    if command -v fincore >/dev/null 2>&1; then
        fincore -b -n -o RES "$@" 2>/dev/null | awk '{ s += $1 } END { printf "%d", s / 1024 }'
    else
        printf '?'
    fi
}

evict() {   # evict FILE... — drops the files' pages from the page cache (see BENCH_DROP)
    if [ "$DROP" = global ]; then
        sync
        echo 3 >/proc/sys/vm/drop_caches
    else
        sync "$@" 2>/dev/null || sync   # dirty pages are not dropped
        for f in "$@"; do
            if [ -e "$f" ]; then dd if="$f" iflag=nocache count=0 status=none; fi
        done
    fi
}

if [ "$DROP" != none ]; then
    evict $FILES
    left=$(resident $FILES)
    if [ "$left" != "?" ] && [ "$left" -gt 10240 ] && [ "$DROP" = files ]; then
        echo "bench_ui: fadvise left $left KiB cached; falling back to drop_caches" >&2
        DROP=global
        evict $FILES
    fi
fi
case $DROP in
files) how="posix_fadvise(DONTNEED) per file (dd iflag=nocache count=0)" ;;
global) how="sync; echo 3 > /proc/sys/vm/drop_caches" ;;
*) how="not dropped (BENCH_DROP=none): cold runs skipped" ;;
esac

nlines() { wc -l <"$1" | tr -d ' '; }
echo "workspace $WS: $(nlines "$WS/queries.tsv") queries, $(nlines "$COLL") passages" \
    "($(du -m "$COLL" | cut -f1) MB), $(nlines "$WS/qrels.trec") judgments, $NRUNS runs ×" \
    "$(($(nlines "$WS/runs/run1.trec") / $(nlines "$WS/queries.tsv"))) passages"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM;" \
    "timer: $TIMER; $REPS runs each; screen $SIZE; page cache: $how"
echo

# ---- (a) the I/O floor --------------------------------------------------------------------

if [ "$DROP" != none ]; then
    echo "(a) cat collection > /dev/null, cold"
    : >"$TMPD/all"
    i=0
    while [ "$i" -lt "$REPS" ]; do
        evict "$COLL"
        echo "    resident before: $(resident "$COLL") KiB"
        measure cat "$COLL"
        i=$((i + 1))
    done
    summary "cat, cold" cat_coll_cold
    echo "(a) cat of all the workspace's files > /dev/null, cold"
    : >"$TMPD/all"
    i=0
    while [ "$i" -lt "$REPS" ]; do
        evict $FILES
        measure cat $FILES
        i=$((i + 1))
    done
    summary "cat all, cold" cat_all_cold
fi
echo "(a) cat collection > /dev/null, warm"
cat "$COLL" >/dev/null
: >"$TMPD/all"
i=0
while [ "$i" -lt "$REPS" ]; do measure cat "$COLL"; i=$((i + 1)); done
summary "cat, warm"
echo

# ---- (b), (c) first screen ----------------------------------------------------------------

printf ':snapshot %s/first.txt\n:quit\n' "$TMPD" >"$TMPD/quit.txt"
JOURNAL="--journal-dir $TMPD/journal --annotator bench"
# shellcheck disable=SC2086
open_ws() { measure "$RETRIAGE" "$WSJSON" $JOURNAL --script "$TMPD/quit.txt" --size "$SIZE"; }
drop_index() { rm -f "$IDX" "$COLL".*.rtws; rm -rf "$XDG_CACHE_HOME/retriage"; }

# first_screen LABEL cold|warm fresh|cached
first_screen() {
    echo "$1"
    : >"$TMPD/all"
    i=0
    while [ "$i" -lt "$REPS" ]; do
        [ "$3" = fresh ] && drop_index
        if [ "$2" = cold ]; then
            evict $FILES $(derived)
        else
            cat $FILES $(derived) >/dev/null
        fi
        open_ws
        [ "$3" = fresh ] && wait_writer
        i=$((i + 1))
    done
    summary "$1" "$4"
}

# A large workspace cache is written by a background process after the workbench opens: the next
# measurement waits for it (its temporary gone, the cache there), and says how long it took.
wait_writer() {
    local t0 waited=0
    t0=$(date +%s.%N)
    while [ "$waited" -lt 1200 ]; do
        if ! ls "$WS"/*.rtws.tmp-* "$COLL".*.rtws.tmp-* >/dev/null 2>&1 && ls "$COLL".*.rtws >/dev/null 2>&1; then
            break
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    # its pages written out too: the kernel's writeback of ~800 MB would otherwise run during the
    # next timing and count against it
    sync
    if ls "$COLL".*.rtws >/dev/null 2>&1; then
        echo "    workspace cache on disk $(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }') s after the open ended"
    else
        echo "    (no workspace cache written)"
    fi
}

# first_tty LABEL cold|warm KEY — a first open on a terminal (script(1), the workbench as a user
# starts it): seconds until the query list is on the screen (it comes with the first run, the
# others are read behind it), then seconds until every run is in (":delta NRUNS 1" waits for the
# last, then ":snapshot" writes a file), then q, and seconds until the process has ended (it
# finishes the collection's index first); "KEY MEDIAN_SCREEN MEDIAN_END MEDIAN_RUNS" to the results
first_tty() {
    echo "$1"
    : >"$TMPD/tty_all"
    i=0
    while [ "$i" -lt "$REPS" ]; do
        drop_index
        if [ "$2" = cold ]; then evict $FILES; else cat $FILES >/dev/null; fi
        rm -f "$TMPD/tty.in" "$TMPD/tty.out" "$TMPD/tty.snap"
        mkfifo "$TMPD/tty.in"
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        TERM=xterm-256color script -qec "stty cols ${SIZE%x*} rows ${SIZE#*x}; exec '$RETRIAGE' '$WSJSON' $JOURNAL --no-mouse" /dev/null \
            <"$TMPD/tty.in" >"$TMPD/tty.out" 2>&1 &
        spid=$!
        exec 3>"$TMPD/tty.in"
        while ! grep -aq "query (" "$TMPD/tty.out" 2>/dev/null && kill -0 "$spid" 2>/dev/null; do
            sleep 0.02
        done
        t1=$(date +%s.%N)
        printf ':delta %s 1\r:snapshot %s\r' "$NRUNS" "$TMPD/tty.snap" >&3
        while [ ! -e "$TMPD/tty.snap" ] && kill -0 "$spid" 2>/dev/null; do
            sleep 0.02
        done
        t3=$(date +%s.%N)
        printf q >&3
        wait "$spid"
        t2=$(date +%s.%N)
        exec 3>&-
        echo "$t0 $t1 $t2 $t3" | awk '{ printf "    first screen %.3f s, every run in %.3f s, ended %.3f s\n", $2 - $1, $4 - $1, $3 - $1 }'
        echo "$t0 $t1 $t2 $t3" | awk '{ print $2 - $1, $3 - $1, $4 - $1 }' >>"$TMPD/tty_all"
        wait_writer
        i=$((i + 1))
    done
    sort -n -k1,1 "$TMPD/tty_all" | awk -v n="$1" -v k="$3" -v out="${BENCH_RESULTS:-/dev/null}" '
        { s[NR] = $1; e[NR] = $2; r[NR] = $3 }
        END {
            for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
                if (e[j] < e[i]) { x = e[i]; e[i] = e[j]; e[j] = x }
                if (r[j] < r[i]) { x = r[i]; r[i] = r[j]; r[j] = x }
            }
            mid = int((NR + 1) / 2)
            printf "  => %s: first screen median %.3f s (best %.3f, worst %.3f); every run in median %.3f s; ended median %.3f s\n", n, s[mid], s[1], s[NR], r[mid], e[mid]
            print k, s[mid], e[mid], r[mid] >> out
        }'
}

if [ "$DROP" != none ]; then
    first_screen "(b) first open (no index, no cache), cold page cache" cold fresh first_cold
fi
first_screen "(b) first open (no index, no cache), files in the page cache" warm fresh first_warm
if command -v script >/dev/null 2>&1; then
    if [ "$DROP" != none ]; then
        first_tty "(b) on a terminal: first open, cold page cache" cold tty_cold
    fi
    first_tty "(b) on a terminal: first open, files in the page cache" warm tty_warm
else
    echo "  (script(1) is missing: no first screen on a terminal)"
fi
if [ -e "$IDX" ]; then
    echo "    index: $IDX, $(du -k "$IDX" | cut -f1) KiB"
else
    echo "    index: not beside the collection; cache folder: $(find "$XDG_CACHE_HOME" -name '*.rtidx' 2>/dev/null | head -1)"
fi
if [ "$DROP" != none ]; then
    first_screen "(c) later open (index and workspace cache), cold page cache" cold cached reopen_cold
fi
first_screen "(c) later open (index and workspace cache), warm page cache" warm cached reopen_warm
if ! grep -q "queries" "$TMPD/first.txt"; then
    echo "bench_ui: the first screen does not look like the query list:" >&2
    cat "$TMPD/first.txt" >&2
    exit 2
fi
echo

# ---- (d) per-key latency ------------------------------------------------------------------

# The script: a random walk over the views, weighted like a session of error analysis, written
# with its labels (view:key, one per timed event) so that the times can be broken down. The
# generator tracks the view stack as app.c does and never presses q on the query list; it clears
# a filter before setting another, so that no list is ever empty (Enter would open nothing).
LC_ALL=C awk -v nkeys="$NKEYS" -v nruns="$NRUNS" -v script="$TMPD/keys.txt" -v labels="$TMPD/labels.txt" \
    -v snap="$TMPD/last.txt" '
function rnd() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
function pick(n) { return int(rnd() * n) }
function line(s) { print s > script }
function label(s) { print s > labels; timed++ }
function push(v) { if (view != v) { stack[depth++] = view; view = v } }
function pop() { view = stack[--depth] }
function tolist() { depth = 0; view = "list" }
# key K (a script token) labelled view:NAME
function key(k, name) { line(k); label(view ":" name) }
function cmd(c, name) { line(":" c); label(view ":" name) }
# unfilter: clears the filter, if any, before a new one (:filter none also goes to the list)
function unfilter() {
    if (!filtered) return
    if (view == "list" && rnd() < 0.5) key("F", "F")
    else { cmd("filter none", ":filter none"); tolist() }
    filtered = 0
}
function search(    q, t, txt) {
    unfilter()
    q = pick(nq) + 1
    if (rnd() < 0.3) {   # 4 characters of a qid (32 hex digits, or a number of 7)
        n0 = length(qid[q]) - 3
        txt = substr(qid[q], 1 + pick(n0 > 1 ? n0 : 1), 4)
    }
    else {
        t = qtext[q]
        txt = substr(t, 1 + 3 * pick(length(t) / 3 - 1), 6)   # two CJK characters (3 bytes each)
    }
    line("/" txt "<Enter>")
    label(view ":/")
    for (c = 0; c < (txt ~ /^[0-9a-f]+$/ ? length(txt) : 2); c++) label("prompt:type")
    label("prompt:enter-search")
    if (view != "list") tolist()
    filtered = 1
}
# choose: draws one of the weighted choices "w1 name1 w2 name2 …"
function choose(spec,    n, a, i, tot, x) {
    n = split(spec, a, " ")
    tot = 0
    for (i = 1; i < n; i += 2) tot += a[i]
    x = rnd() * tot
    for (i = 1; i < n; i += 2) { x -= a[i]; if (x < 0) return a[i + 1] }
    return a[n]
}
FNR == 1 { nfile++ }
nfile == 1 { split($0, f, "\t"); qid[++nq] = f[1]; qtext[nq] = f[2] }
END {
    seed = 20220523
    view = "list"; depth = 0; timed = 0
    L = "25 j 8 k 5 Down 6 PgDn 3 PgUp 2 G 2 g 3 s 1 S 18 Enter 3 search 4 goto 2 sortrun 2 sortcol 2 notop 1 worse 2 f 3 F 1 none 2 m 1 help"
    C = "25 j 8 k 5 Down 8 l 6 h 4 Right 2 Left 3 PgDn 2 PgUp 1 G 2 g 8 n 4 p 12 Enter 6 q 2 Esc 1 m 1 f 1 search 2 + 2 -"
    split("order qid text delta judged tags rbo jaccard", COLS, " ")
    P = "15 j 5 k 4 PgDn 1 PgUp 1 G 1 g 40 q 5 Esc 1 m"
    M = "2 j 1 k 10 q 1 Esc"
    H = "3 j 1 PgDn 1 G 8 q"
    while (timed < nkeys) {
        if (view == "list") {
            a = choose(L)
            if (a == "Enter") { key("<Enter>", "Enter"); push("cmp") }
            else if (a == "search") search()
            else if (a == "goto") { cmd("goto " qid[pick(nq) + 1], ":goto"); tolist(); push("cmp") }
            else if (a == "sortrun") cmd("sort run" (pick(nruns) + 1) (rnd() < 0.5 ? " desc" : ""), ":sort RUN")
            else if (a == "sortcol") { c = COLS[pick(8) + 1]; cmd("sort " c (rnd() < 0.5 ? " desc" : ""), ":sort " c) }
            else if (a == "notop") { unfilter(); cmd("filter notop " (pick(10) + 1) " run" (pick(nruns) + 1), ":filter notop"); filtered = 1 }
            else if (a == "worse") { unfilter(); cmd("filter worse run" (pick(nruns - 1) + 2) " run1", ":filter worse"); filtered = 1 }
            else if (a == "f") { unfilter(); key("f", "f"); filtered = 1 }
            else if (a == "F") { key("F", "F"); filtered = 0 }
            else if (a == "none") { cmd("filter none", ":filter none"); filtered = 0 }
            else if (a == "m") { key("m", "m"); push("metrics") }
            else if (a == "help") { key("?", "?"); push("help") }
            else if (a ~ /^(Down|PgDn|PgUp)$/) key("<" a ">", a)
            else key(a, a)
        } else if (view == "cmp") {
            a = choose(C)
            if (a == "Enter") { key("<Enter>", "Enter"); push("pas") }
            else if (a == "q" || a == "Esc") { key(a == "q" ? "q" : "<Esc>", a); pop() }
            else if (a == "m") { key("m", "m"); push("metrics") }
            else if (a == "f") { unfilter(); if (view == "cmp") { key("f", "f"); tolist() } else key("f", "f"); filtered = 1 }
            else if (a == "search") search()
            else if (a == "+" || a == "-") key(a, "relabel " a)
            else if (a ~ /^(Down|Right|Left|PgDn|PgUp)$/) key("<" a ">", a)
            else key(a, a)
        } else if (view == "pas") {
            a = choose(P)
            if (a == "q" || a == "Esc") { key(a == "q" ? "q" : "<Esc>", a); pop() }
            else if (a == "m") { key("m", "m"); push("metrics") }
            else if (a ~ /^(PgDn|PgUp)$/) key("<" a ">", a)
            else key(a, a)
        } else {
            a = choose(view == "help" ? H : M)
            if (a == "q" || a == "Esc") { key(a == "q" ? "q" : "<Esc>", a); pop() }
            else if (a ~ /^(PgDn)$/) key("<" a ">", a)
            else key(a, a)
        }
    }
    cmd("snapshot " snap, ":snapshot")
    cmd("quit", ":quit")   # timed too
}' "$WS/queries.tsv"
nk=$(nlines "$TMPD/labels.txt")

# keys_run LABEL cold|warm — replays the script; appends the times to $TMPD/times.all and
# LABEL<TAB>time lines to $TMPD/bykey.all
keys_run() {
    if [ "$2" = cold ]; then evict $FILES $(derived); else cat $FILES $(derived) >/dev/null; fi
    rm -f "$TMPD/times.txt" "$TMPD/last.txt"
    # shellcheck disable=SC2086
    measure "$RETRIAGE" "$WSJSON" $JOURNAL --script "$TMPD/keys.txt" --size "$SIZE" --key-times "$TMPD/times.txt"
    got=$(nlines "$TMPD/times.txt")
    if [ "$got" -ne "$nk" ] || [ ! -s "$TMPD/last.txt" ]; then
        echo "bench_ui: the script stopped early ($got of $nk key times)" >&2
        exit 2
    fi
    percentiles "$1" <"$TMPD/times.txt"
    cat "$TMPD/times.txt" >>"$TMPD/times.all"
    paste "$TMPD/labels.txt" "$TMPD/times.txt" >>"$TMPD/bykey.all"
}

# percentiles NAME — p50/p90/p99/max (nearest rank) of the µs values on stdin
percentiles() {
    sort -n | awk -v n="$1" '
        { v[NR] = $1; s += $1 }
        function q(p,  k) { k = int(p * NR + 0.999999); if (k < 1) k = 1; return v[k] }
        END { printf "  %s: %d keys, mean %.0f µs, p50 %.0f µs, p90 %.0f µs, p99 %.0f µs, max %.0f µs\n",
                     n, NR, s / NR, q(0.5), q(0.9), q(0.99), v[NR] }'
}

# bykey — the kinds of key (view:key), slowest p99 first
bykey() {
    sort -t "$(printf '\t')" -k1,1 -k2,2n "$1" | awk -F '\t' '
        function flush() {
            if (!n) return
            k99 = int(0.99 * n + 0.999999); k50 = int(0.5 * n + 0.999999)
            printf "%10.0f %10.0f %10.0f %7d  %s\n", v[k50], v[k99], v[n], n, key
        }
        $1 != key { flush(); key = $1; n = 0 }
        { v[++n] = $2 }
        END { flush() }' | sort -k2,2nr | head -"${2:-15}"
}

echo "(d) per-key latency: $nk timed keys per run (script: $(nlines "$TMPD/keys.txt") lines)"
: >"$TMPD/times.all"
: >"$TMPD/bykey.all"
: >"$TMPD/all"
i=0
while [ "$i" -lt "$REPS" ]; do keys_run "warm run $((i + 1))" warm; i=$((i + 1)); done
summary "key script, warm (whole process)"
percentiles "warm, all runs pooled" <"$TMPD/times.all" | tee "$TMPD/pooled.txt"
echo "  slowest kinds of key, warm (µs): p50, p99, max, count, view:key"
bykey "$TMPD/bykey.all" 15 | sed 's/^/    /'
if [ "$DROP" != none ]; then
    mv "$TMPD/times.all" "$TMPD/times.warm"
    : >"$TMPD/times.all"
    : >"$TMPD/bykey.all"
    : >"$TMPD/all"
    i=0
    while [ "$i" -lt "$REPS" ]; do keys_run "cold run $((i + 1))" cold; i=$((i + 1)); done
    summary "key script, cold (whole process)"
    percentiles "cold, all runs pooled" <"$TMPD/times.all" | tee "$TMPD/pooled.cold"
    result p99_cold_us "$(sed 's/.*p99 \([0-9]*\) µs.*/\1/' "$TMPD/pooled.cold")"
    echo "  slowest kinds of key, cold page cache (µs): p50, p99, max, count, view:key"
    bykey "$TMPD/bykey.all" 8 | sed 's/^/    /'
    mv "$TMPD/times.warm" "$TMPD/times.all"
fi
for size in $EXTRA_SIZES; do
    cat $FILES $(derived) >/dev/null
    rm -f "$TMPD/last.txt"
    : >"$TMPD/all"
    # shellcheck disable=SC2086
    "$RETRIAGE" "$WSJSON" $JOURNAL --script "$TMPD/keys.txt" --size "$size" --key-times "$TMPD/times.$size"
    percentiles "warm, screen $size (one run; not budgeted)" <"$TMPD/times.$size"
done
echo

p99=$(sed 's/.*p99 \([0-9]*\) µs.*/\1/' "$TMPD/pooled.txt")
result p99_warm_us "$p99"
if [ "$p99" -lt "$BUDGET_US" ]; then verdict=ok; else verdict="over budget"; fi
echo "budget (DESIGN §10: every key within one frame, 16 ms): warm p99 $p99 µs — $verdict"
[ "${BENCH_KEEP:-0}" != 1 ] || echo "kept: $TMPD (keys.txt, labels.txt, times.txt, snapshots)"
[ "$verdict" = ok ] || [ "${BENCH_STRICT:-0}" != 1 ]
