#!/usr/bin/env bash
# defer_runs_ui.sh — runs taken in behind the workbench's first screen (on a terminal): the first
# screen comes with the first run, the others join as they are read; a command naming what a run
# still being read brings waits for it (Esc gives up), the rest answers at once; a run that cannot
# be read is said, and left out. The second run is a FIFO: its worker blocks until the test writes
# it, so the first screen comes with bm25 alone, whenever the test looks. (No cache: its stamp
# would read the FIFO.) What the screen shows is read from :snapshot files, never after a fixed
# time: the test waits for the events (defer_lib.sh).
. "${SRCDIR:-.}/tests/ui/defer_lib.sh"
command -v script > /dev/null || skip_all "script(1) is missing (util-linux)"

# taken — the late run is in (or given up): a snapshot taken now no longer says 1 of 2 are read
taken() { probe "$D/probe" && ! grep -q "runs: 1 of 2 read" "$D/probe"; }
# coll_in — the collection is in: a snapshot taken now no longer says it is being indexed
coll_in() { probe "$D/probe" && ! grep -q "passages: indexing" "$D/probe"; }
# handled — the keys typed are handled: a :snapshot typed after them is written, or they wait for
# the runs (and say so; not enough when they give the wait up with Esc: the snapshot then)
handled() { [ -s "$D/probe" ] || { [ "$esc" = 0 ] && has_plain "waiting for the runs" "$D/late.out"; }; }
# late CONTENT KEYS AFTER — the workbench on a terminal; once the first screen says 1 of 2 runs are
# read and the collection is in, KEYS are typed; once they are handled, CONTENT is written to the late run; once it is taken
# in, AFTER is typed (a :snapshot of $D/snap, say: the screen as drawn, which the terminal's bytes
# do not show plainly), then q. CONTENT - : never written, q is typed after KEYS (rc 137 when it
# did not end within 5 s). Sets rc, first (the output up to the first screen) and $D/late.out.
late() {
    local content=$1 keys=$2 after=$3
    rm -f "$D/late.trec" "$D/snap" "$D/held" "$D/probe"
    mkfifo "$D/late.trec"
    term "$D/late.out" 120x30 --queries "$DEMO/queries.tsv" --collection "$D/c.tsv" --qrels "$DEMO/qrels.trec" \
        --run "$DEMO/runs/bm25.trec" --run "$D/late.trec" --no-cache
    wait_for 30 "the first screen with 1 of 2 runs" has "runs: 1 of 2 read" "$D/late.out"
    first=$(cat "$D/late.out")
    wait_for 30 "the collection taken in" coll_in   # (what is held here is the run alone)
    rm -f "$D/probe"
    if [ "$content" = - ]; then   # never written: q while it is held
        printf '%b' "$keys" >&3
        term_end 5
        return
    fi
    if [ -n "$keys" ]; then
        case $keys in *'\033'*) esc=1 ;; *) esc=0 ;; esac
        printf '%b:snapshot %s\r' "$keys" "$D/probe" >&3
        wait_for 30 "the keys handled while the run is held" handled
    fi
    # (written under a timeout: a FIFO whose reader is gone would block the test)
    timeout 20 sh -c 'printf "%s" "$1" > "$2"' sh "$content" "$D/late.trec"
    if [ -n "$after" ]; then
        wait_for 30 "the late run taken in" taken
        printf '%b' "$after" >&3
    fi
    term_end
}

fresh
late "$(cat "$DEMO/runs/dense.trec")" '' ":snapshot $D/snap\r"
st=0
[ "$rc" -eq 0 ] || st=1
case $first in *"runs: 1 of 2 read"*) ;; *) st=1 ;; esac
case $first in *bm25*) ;; *) st=1 ;; esac
case $first in *dense*) st=1 ;; esac
report $st "on a terminal: the first screen comes with the first run, the status line says 1 of 2 are read" "$D/late.out"
head -2 "$D/snap" | grep -q "bm25 .* dense .* Δ1-2" && grep -q "34/34 queries  2 runs" "$D/snap"
report $? "the second run's column and the delta of both come once it is read" "$D/snap"
# the same, the second run taken in a passage id at a time (keys handled between the steps)
fresh
export RETRIAGE_SETTLE_STEP=1
late "$(cat "$DEMO/runs/dense.trec")" '' ":snapshot $D/snap\r"
unset RETRIAGE_SETTLE_STEP
st=0
[ "$rc" -eq 0 ] || st=1
head -2 "$D/snap" | grep -q "bm25 .* dense .* Δ1-2" && grep -q "34/34 queries  2 runs" "$D/snap" || st=1
report $st "a run taken in a step at a time: its column and the delta come once it is whole" "$D/snap"
fresh
late "$(cat "$DEMO/runs/dense.trec")" ':delta dense bm25\r' ":snapshot $D/snap\r"
st=0
[ "$rc" -eq 0 ] || st=1
head -2 "$D/snap" | grep -q "Δ2-1" || st=1
has "unknown run" "$D/late.out" && st=1
has_plain "waiting for the runs" "$D/late.out" || st=1
report $st "a command naming a run still being read waits for it (:delta dense bm25)" "$D/snap"
fresh
late "q01 Q0 p0023 1 0.5 dense
q01 Q0 p0161 2 not-a-score dense
" '' "L:snapshot $D/snap\r"
st=0
[ "$rc" -eq 0 ] || st=1
tr -s '\n ' '  ' < "$D/snap" > "$D/snap1"   # the report wraps its lines
grep -q "late.trec:2: expected a numeric score" "$D/snap1" || st=1
grep -q "that run is not shown" "$D/snap1" || st=1
report $st "a run that cannot be read once the screen is up: the report says why, the workbench goes on" "$D/snap"

# what waits for a run still being read, and what does not
LATE=$(head -1 "$DEMO/runs/dense.trec"; printf 'q01 Q0 pzzonly 60 0.001 dense\n'
       tail -n +2 "$DEMO/runs/dense.trec"; printf 'qlate99 Q0 p0001 1 1 dense\n')
fresh
late "$LATE" ":goto qlate99\r:label q01 pzzonly 1\r" ":snapshot $D/snap\r"
st=0
[ "$rc" -eq 0 ] || st=1
grep -q '"pid":"pzzonly"' "$D/j/d.jsonl" 2>/dev/null || st=1
has "unknown passage" "$D/late.out" && st=1
report $st "a label of a passage only the run being read names waits for it, and is made" "$D/late.out"
head -2 "$D/snap" | grep -q "^qlate99 "
report $? ":goto a query only that run ranks waits for it" "$D/snap"
fresh
late "$LATE" "\r\r:snapshot $D/held\r" ""
st=0
[ "$rc" -eq 0 ] || st=1
grep -q "zzqx plain words for the terminal test" "$D/held" || st=1
report $st "the collection's passages show while a run is still being read" "$D/held"
fresh
late "$LATE" ":sort nosuch\r\033:snapshot $D/held\r" "G:snapshot $D/snap\r"
st=0
[ -s "$D/held" ] || st=1
has "sort by what" "$D/late.out" && st=1
report $st "Esc gives up waiting for the runs: the workbench answers again, the command is not run" "$D/late.out"
grep -q "^qlate99 " "$D/snap"
report $? "a query only a later run ranks gets a wide enough id column" "$D/snap"
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
report $st "judging: when a run comes in, the cursor stays on its passage ($(focused_pid "$D/held"), then $(focused_pid "$D/snap"))" "$D/held"
fresh
start=$(date +%s)
late - "" ""
st=0
[ "$rc" -eq 0 ] || st=1
[ $(( $(date +%s) - start )) -le 6 ] || st=1
report $st "q while a run is held: the workbench ends at once (no cache to write; the run is left)" "$D/late.out"
done_testing
