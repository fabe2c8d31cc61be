#!/usr/bin/env bash
# defer_ui.sh — the workbench does not wait for a new collection index: the first screen needs no
# passage, so a collection large enough for a thread of its own (RETRIAGE_PARALLEL_MIN, 0 here)
# is indexed behind it and taken in when done. A script waits for it before its first line: the
# screens are those of an open that waits, and a bad collection fails the script (exit 2, file and
# line). On a terminal the passages show once it is in, and its index is written; a bad one is a
# message, and the workbench goes on without passages.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8 RETRIAGE_CACHE_MIN=0
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
# a copy, with q01's first passage in bm25 made plain text (the terminal part looks for it)
pid=$(awk '$1 == "q01" && $4 == 1 { print $3 }' "$DEMO/runs/bm25.trec")
awk -F'\t' -v OFS='\t' -v p="$pid" '$1 == p { $2 = "zzqx plain words for the terminal test" } 1' \
    "$DEMO/collection.tsv" > "$D/c.tsv"
WS=(--queries "$DEMO/queries.tsv" --collection "$D/c.tsv" --qrels "$DEMO/qrels.trec"
    --run "$DEMO/runs/bm25.trec" --run "$DEMO/runs/dense.trec")
fresh() { rm -f "$D"/c.tsv.rtidx "$D"/*.rtws "$D"/bad.tsv.rtidx; rm -rf "$D/cache" "$D/j"; }

# ---- a script: the screens of an open that waits ------------------------------------------
printf ':goto q01\n<Enter>\n:snapshot %s/side\n<Enter>\n:snapshot %s/passage\nL\n:snapshot %s/report\n' \
    "$D/PAR" "$D/PAR" "$D/PAR" > "$D/script.in"
for par in 99999999999 0; do
    fresh
    mkdir -p "$D/$par"
    sed "s|PAR|$par|g" "$D/script.in" > "$D/script"
    RETRIAGE_PARALLEL_MIN=$par "$RETRIAGE" "${WS[@]}" --journal-dir "$D/j" --annotator d --script "$D/script" \
        --size 120x30 > "$D/out" 2> "$D/err"
    rc=$?
    report $rc "a script, the collection $([ "$par" = 0 ] && echo "behind the first screen" || echo "read first"): runs"
done
cmp -s "$D/99999999999/side" "$D/0/side" && cmp -s "$D/99999999999/passage" "$D/0/passage"
ok $? "a script sees the passages as an open that waits shows them"
grep -q "c.tsv: 312 passages" "$D/0/report"
ok $? "and the collection's report line"
[ -e "$D/c.tsv.rtidx" ]
ok $? "its index is written"

# ---- a journal naming a passage only the collection knows: its replay adds that id before the
# collection is in; the cache is written all the same (with the ids the open left), and reused
fresh
printf 'zz1\ta passage only the collection knows\n' >> "$D/c.tsv"
mkdir -p "$D/j"
echo '{"seq":1,"time":"2026-11-26T03:49:02.243Z","author":"d","op":"label","qid":"q01","pid":"zz1","grade":1}' > "$D/j/d.jsonl"
printf ':goto q01\n:snapshot %s/j1\nL\n:snapshot %s/r1\n' "$D" "$D" > "$D/script"
RETRIAGE_PARALLEL_MIN=0 "$RETRIAGE" "${WS[@]}" --journal-dir "$D/j" --annotator d --script "$D/script" --size 120x30 > "$D/out" 2> "$D/err"
rc=$?
grep -q "workspace cache written" "$D/r1" && ls "$D"/c.tsv.*.rtws > /dev/null 2>&1
ok $? "a journal naming a passage only the collection knows: the cache is written ($rc)"
printf ':goto q01\n:snapshot %s/j2\nL\n:snapshot %s/r2\n' "$D" "$D" > "$D/script"
RETRIAGE_PARALLEL_MIN=0 "$RETRIAGE" "${WS[@]}" --journal-dir "$D/j" --annotator d --script "$D/script" --size 120x30 > "$D/out" 2> "$D/err"
grep -q "workspace cache reused" "$D/r2" && cmp -s "$D/j1" "$D/j2"
ok $? "and the next open reuses it, with the same screen (the journal's label replayed)"

# ---- a bad collection fails the script, with its file and line -----------------------------
fresh
{ head -5 "$DEMO/collection.tsv"; echo "no tab on this line"; tail -n +6 "$DEMO/collection.tsv"; } > "$D/bad.tsv"
BAD=(--queries "$DEMO/queries.tsv" --collection "$D/bad.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec")
printf ':goto q01\n' > "$D/script"
RETRIAGE_PARALLEL_MIN=0 "$RETRIAGE" "${BAD[@]}" --journal-dir "$D/j" --annotator d --script "$D/script" > "$D/out" 2> "$D/err"
rc=$?
st=0
[ "$rc" -eq 2 ] || st=1
grep -q "bad.tsv:6: expected pid<TAB>text" "$D/err" || st=1
crashed && st=1
report $st "a script on a bad collection behind the first screen: exit 2, with its file and line"

# ---- on a terminal -------------------------------------------------------------------------
if ! command -v script > /dev/null; then
    echo "# skipped: script(1) is missing (util-linux): the terminal part"
    done_testing
    exit
fi
# tty KEYS ARGS… — the workbench on a terminal (script(1)), given KEYS a while after it starts
tty() {
    local keys=$1
    shift
    local cmd="'$RETRIAGE'"
    for a in "$@"; do cmd="$cmd '$a'"; done
    # shellcheck disable=SC2016
    { sleep 3; printf '%b' "$keys"; sleep 2; printf 'qqqq'; sleep 1; } |
        TERM=xterm-256color RETRIAGE_PARALLEL_MIN=0 script -qec "$cmd --journal-dir '$D/j' --annotator d --no-mouse" /dev/null \
        > "$D/tty" 2>&1
    rc=$?
}
fresh
# q01's first passage in bm25, in the passage view
tty ':goto q01\r\r\r' "${WS[@]}"
st=0
[ "$rc" -eq 0 ] || st=1
grep -aq "passage $pid" "$D/tty" || st=1
grep -aq "zzqx plain words for the terminal test" "$D/tty" || st=1
report $st "on a terminal: the passage view shows the passage once the collection is in ($pid)"
[ -e "$D/c.tsv.rtidx" ]
ok $? "and the index is written"
fresh
tty ':goto q01\r' "${BAD[@]}"
st=0
[ "$rc" -eq 0 ] || st=1
grep -aq "the collection could not be opened, passages are not shown" "$D/tty" || st=1
report $st "on a terminal, a bad collection: a message, and the workbench goes on"

# ---- runs taken in behind the first screen ----------------------------------------------------
# The second run is a FIFO: its worker blocks until the test writes it, so the first screen comes
# with bm25 alone, whenever the test looks. (No cache: its stamp would read the FIFO.)
# late CONTENT KEYS AFTER — the workbench on a terminal; once the first screen says 1 of 2 runs are
# read, KEYS are typed, then CONTENT is written to the late run; AFTER is typed a while later (a
# :snapshot of $D/snap, say: the screen as drawn, which the terminal's bytes do not show plainly);
# then q. CONTENT - : never written, q is typed after KEYS (rc 137 when it did not end within 5 s).
# Sets rc, first (the output up to the first screen) and $D/late.out.
late() {
    local content=$1 keys=$2 after=$3
    rm -f "$D/late.trec" "$D/keys" "$D/late.out" "$D/snap" "$D/held"
    mkfifo "$D/late.trec" "$D/keys"
    TERM=xterm-256color RETRIAGE_PARALLEL_MIN=0 script -qec "stty cols 120 rows 30; exec '$RETRIAGE' \
        --queries '$DEMO/queries.tsv' --collection '$D/c.tsv' --qrels '$DEMO/qrels.trec' \
        --run '$DEMO/runs/bm25.trec' --run '$D/late.trec' --no-cache --journal-dir '$D/j' --annotator d \
        --no-mouse" /dev/null < "$D/keys" > "$D/late.out" 2>&1 &
    local spid=$! i
    exec 3> "$D/keys"
    for i in $(seq 200); do grep -aq "runs: 1 of 2 read" "$D/late.out" && break; sleep 0.05; done
    first=$(cat "$D/late.out")
    printf '%b' "$keys" >&3
    sleep 1
    if [ "$content" = - ]; then   # never written: q while it is held
        printf 'qqqq' >&3
        exec 3>&-
        for i in $(seq 100); do kill -0 $spid 2>/dev/null || break; sleep 0.05; done
        kill -0 $spid 2>/dev/null && { kill -9 $spid; rc=137; return; }
        wait $spid
        rc=$?
        return
    fi
    printf '%s' "$content" > "$D/late.trec"
    sleep 1.5
    printf '%b' "$after" >&3
    sleep 0.5
    printf 'qqqq' >&3
    exec 3>&-
    wait $spid
    rc=$?
}
fresh
late "$(cat "$DEMO/runs/dense.trec")" '' ":snapshot $D/snap\r"
st=0
[ "$rc" -eq 0 ] || st=1
case $first in *"runs: 1 of 2 read"*) ;; *) st=1 ;; esac
case $first in *bm25*) ;; *) st=1 ;; esac
case $first in *dense*) st=1 ;; esac
report $st "on a terminal: the first screen comes with the first run, the status line says 1 of 2 are read"
head -2 "$D/snap" | grep -q "bm25 .* dense .* Δ1-2" && grep -q "34/34 queries  2 runs" "$D/snap"
ok $? "the second run's column and the delta of both come once it is read"
# the same, the second run taken in a passage id at a time (keys handled between the steps)
fresh
export RETRIAGE_SETTLE_STEP=1
late "$(cat "$DEMO/runs/dense.trec")" '' ":snapshot $D/snap\r"
unset RETRIAGE_SETTLE_STEP
st=0
[ "$rc" -eq 0 ] || st=1
head -2 "$D/snap" | grep -q "bm25 .* dense .* Δ1-2" && grep -q "34/34 queries  2 runs" "$D/snap" || st=1
report $st "a run taken in a step at a time: its column and the delta come once it is whole"
fresh
late "$(cat "$DEMO/runs/dense.trec")" ':delta dense bm25\r' ":snapshot $D/snap\r"
st=0
[ "$rc" -eq 0 ] || st=1
head -2 "$D/snap" | grep -q "Δ2-1" || st=1
grep -q "unknown run" "$D/late.out" && st=1
report $st "a command naming a run still being read waits for it (:delta dense bm25)"
fresh
late "q01 Q0 p0023 1 0.5 dense
q01 Q0 p0161 2 not-a-score dense
" '' "L:snapshot $D/snap\r"
st=0
[ "$rc" -eq 0 ] || st=1
tr -s '\n ' '  ' < "$D/snap" > "$D/snap1"   # the report wraps its lines
grep -q "late.trec:2: expected a numeric score" "$D/snap1" || st=1
grep -q "that run is not shown" "$D/snap1" || st=1
report $st "a run that cannot be read once the screen is up: the report says why, the workbench goes on"

# The collection's load warnings are said when it comes in, also when the session took it in to
# know a passage: a label of a passage only the collection has, typed on the first screen while a
# collection slow to index (1.5 million filler passages, one judged passage missing) is read.
# term_start OUT COLLECTION [RUN] — the workbench on a terminal, the demo's queries, qrels and bm25
# (and RUN), no cache; keys go to fd 3 (spid: its process). term_end — q, and rc: its exit status.
term_start() {
    local out=$1 coll=$2 run=
    [ -n "${3:-}" ] && run="--run '$3'"
    rm -f "$D/keys" "$out"
    mkfifo "$D/keys"
    TERM=xterm-256color RETRIAGE_PARALLEL_MIN=0 script -qec "stty cols 150 rows 30; exec '$RETRIAGE' \
        --queries '$DEMO/queries.tsv' --collection '$coll' --qrels '$DEMO/qrels.trec' \
        --run '$DEMO/runs/bm25.trec' $run --no-cache --journal-dir '$D/j' --annotator d --no-mouse" \
        /dev/null < "$D/keys" > "$out" 2>&1 &
    spid=$!
    exec 3> "$D/keys"
}
term_end() { printf 'qqqq' >&3; exec 3>&-; wait $spid; rc=$?; }
plain() { sed 's/\x1b\[[0-9;]*[A-Za-z]//g; s/\x1b(B//g' "$1"; }   # the bytes without control sequences

cp "$D/c.tsv" "$D/c.keep"
jp=$(awk '$4 > 0 { print $3; exit }' "$DEMO/qrels.trec")
{ awk -F'\t' -v p="$jp" '$1 != p' "$D/c.keep"
  awk 'BEGIN { for (i = 0; i < 1500000; i++) printf "f%07d\tfiller passage %d\n", 1500000 - i, i }'
  printf 'zzonly\ta passage only the collection has\n'; } > "$D/c.tsv"
fresh
term_start "$D/slow.out" "$D/c.tsv"
for i in $(seq 500); do grep -aq "passages: indexing" "$D/slow.out" && break; sleep 0.01; done
printf ':label q01 zzonly 1\r' >&3
sleep 1.5
term_end
[ "$rc" -eq 0 ] && grep -q '"pid":"zzonly"' "$D/j/d.jsonl" && plain "$D/slow.out" | grep -aq "[0-9]* load warnings: press L"
ok $? "a collection taken in to know a passage (a label): its load warning (a judged passage missing) is said"
# ... and said after an error on the status line (a command that failed meanwhile), not lost
fresh
term_start "$D/slow.out" "$D/c.tsv"
for i in $(seq 500); do grep -aq "passages: indexing" "$D/slow.out" && break; sleep 0.01; done
printf ':goto qnone\r' >&3
for i in $(seq 300); do plain "$D/slow.out" | grep -aq "load warnings" && break; sleep 0.05; done
term_end
# (the status line is written in two parts)
[ "$rc" -eq 0 ] && plain "$D/slow.out" | grep -aq 'no query with id "qnone"; the collection is in, [0-9]* load warnings: press L'
ok $? "an error on the status line when the collection comes in with load warnings: they are said after it"
cp "$D/c.keep" "$D/c.tsv"
# ... and by the message of a command that waited for a run and then the collection, the run (with
# a load warning: a duplicate) in first: a label of a passage only the collection has, typed while
# the run is held, the collection (3 million filler passages, no warning) still being indexed
{ cat "$D/c.keep"; awk 'BEGIN { for (i = 0; i < 3000000; i++) printf "f%07d\tfiller %d\n", i, i }'
  printf 'zzonly\ta passage only the collection has\n'; } > "$D/c3.tsv"
fresh
rm -f "$D/late.trec" "$D/c3.tsv.rtidx"
mkfifo "$D/late.trec"
term_start "$D/wait.out" "$D/c3.tsv" "$D/late.trec"
for i in $(seq 200); do grep -aq "runs: 1 of 2 read" "$D/wait.out" && break; sleep 0.05; done
printf ':label q01 zzonly 1\r' >&3
for i in $(seq 100); do plain "$D/wait.out" | grep -aq "waiting for the runs" && break; sleep 0.02; done
# (written under a timeout: a FIFO whose reader is gone would block the test)
timeout 20 sh -c '{ head -1 "$1"; cat "$1"; } > "$2"' sh "$DEMO/runs/dense.trec" "$D/late.trec"
for i in $(seq 200); do plain "$D/wait.out" | grep -aq "zzonly labelled" && break; sleep 0.05; done
term_end
rm -f "$D/c3.tsv" "$D/c3.tsv.rtidx"
[ "$rc" -eq 0 ] && plain "$D/wait.out" | grep -aq 'q01 zzonly labelled 1 (#1)  ([0-9]* load warnings: press L)'
ok $? "a command that waited for a run and then the collection: its message says the run's load warnings"

# A gzip collection is judged by its text's size (4 bytes a compressed byte) for a thread of its
# own: one whose compressed size is under RETRIAGE_PARALLEL_MIN and its text well over is indexed
# behind the first screen, which says so.
awk 'BEGIN { for (i = 0; i < 800000; i++) printf "g%07d\tfiller passage %d of a compressed collection\n", i, i }' |
    cat "$D/c.tsv" - | gzip -c > "$D/cz.tsv.gz"
zsize=$(wc -c < "$D/cz.tsv.gz")
rm -rf "$D/keys" "$D/gz.out" "$D/cache"
mkfifo "$D/keys"
TERM=xterm-256color RETRIAGE_PARALLEL_MIN=$((zsize * 2)) script -qec "stty cols 120 rows 30; exec '$RETRIAGE' \
    --queries '$DEMO/queries.tsv' --collection '$D/cz.tsv.gz' --qrels '$DEMO/qrels.trec' \
    --run '$DEMO/runs/bm25.trec' --no-cache --journal-dir '$D/j' --annotator d --no-mouse" /dev/null \
    < "$D/keys" > "$D/gz.out" 2>&1 &
spid=$!
exec 3> "$D/keys"
for i in $(seq 300); do grep -aq "queries" "$D/gz.out" && break; sleep 0.02; done
sleep 1
printf 'qqqq' >&3
exec 3>&-
wait $spid
rc=$?
[ "$rc" -eq 0 ] && grep -aq "passages: indexing" "$D/gz.out"
ok $? "a gzip collection under the threshold whose text is over it: indexed behind the first screen"

# what waits for a run still being read, and what does not
LATE=$(head -1 "$DEMO/runs/dense.trec"; printf 'q01 Q0 pzzonly 60 0.001 dense\n'
       tail -n +2 "$DEMO/runs/dense.trec"; printf 'qlate99 Q0 p0001 1 1 dense\n')
fresh
late "$LATE" ":goto qlate99\r:label q01 pzzonly 1\r" ":snapshot $D/snap\r"
st=0
[ "$rc" -eq 0 ] || st=1
grep -q '"pid":"pzzonly"' "$D/j/d.jsonl" 2>/dev/null || st=1
grep -aq "unknown passage" "$D/late.out" && st=1
report $st "a label of a passage only the run being read names waits for it, and is made"
head -2 "$D/snap" | grep -q "^qlate99 "
ok $? ":goto a query only that run ranks waits for it"
fresh
late "$LATE" "\r\r:snapshot $D/held\r" ""
st=0
[ "$rc" -eq 0 ] || st=1
grep -q "zzqx plain words for the terminal test" "$D/held" || st=1
report $st "the collection's passages show while a run is still being read"
fresh
late "$LATE" ":sort nosuch\r\033:snapshot $D/held\r" "G:snapshot $D/snap\r"
st=0
[ -s "$D/held" ] || st=1
grep -aq "sort by what" "$D/late.out" && st=1
report $st "Esc gives up waiting for the runs: the workbench answers again, the command is not run"
grep -q "^qlate99 " "$D/snap"
ok $? "a query only a later run ranks gets a wide enough id column"
# the passage in focus in a :snapshot … attrs (the row drawn in reverse video)
focused_pid() {
    awk '/^--- attributes ---$/ { a = 1; next }
         !a { t[NR] = $0; next }
         a { r++; if ($0 ~ /^RRRRRRRRRR/) { if (match(t[r], /p[0-9]+/)) print substr(t[r], RSTART, RLENGTH); exit } }' "$1"
}
fresh
late "$LATE" "\rJjj:snapshot $D/held attrs\r" ":snapshot $D/snap attrs\r"
st=0
[ -n "$(focused_pid "$D/held")" ] || st=1
[ "$(focused_pid "$D/held")" = "$(focused_pid "$D/snap")" ] || st=1
report $st "judging: when a run comes in, the cursor stays on its passage ($(focused_pid "$D/held"), then $(focused_pid "$D/snap"))"
fresh
start=$(date +%s)
late - "" ""
st=0
[ "$rc" -eq 0 ] || st=1
[ $(( $(date +%s) - start )) -le 6 ] || st=1
report $st "q while a run is held: the workbench ends at once (no cache to write; the run is left)"
done_testing
