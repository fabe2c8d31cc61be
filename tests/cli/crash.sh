#!/bin/sh
# crash.sh — DESIGN §6: "a scripted annotation session killed with SIGKILL at 50 random moments;
# after each, reopening shows every operation that had been acknowledged and the workspace loads."
#
# A long script of distinct, valid operations (relabels of unjudged pairs, tags, notes) is replayed
# with --echo, which prints each status line only once the operation is on disk; the process is
# killed with SIGKILL after a pseudo-random delay spread over the time a whole replay takes. Then:
#  - every acknowledged operation (its "(#N)" and its pair) is in the replayed state, via
#    `retriage export --what tags` and `--what qrels-diff`, with the sequence number it was given;
#  - the journal has consecutive sequence numbers and at most one durable operation that was not
#    acknowledged (the one in flight);
#  - the workbench reopens it (exit 0); a torn last line is set aside and reported, never fatal.
# Iterations alternate between a fresh journal and one that accumulates. Every fifth kill also
# gets a simulated torn write (a prefix of an operation line appended), which SIGKILL alone
# rarely leaves. CRASH_ITERATIONS, CRASH_OPS and CRASH_SEED override the defaults (25, 300, 7919):
# the 50 kills are 25 here and 25 more in crash2.sh (another seed), which make -j2 runs beside it.
. "$SRCDIR/tests/lib.sh"
export RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json"
export LC_ALL=C.UTF-8
DEMO=$SRCDIR/data/demo
[ -f "$RETRIAGE_DEMO" ] && [ -f "$DEMO/qrels.trec" ] || skip_all "data/demo is missing"
export XDG_CACHE_HOME="$TMPD/cache"
D=$TMPD
ITER=${CRASH_ITERATIONS:-25}
OPS=${CRASH_OPS:-300}
SEED=${CRASH_SEED:-7919}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
diag_file() { [ -f "$1" ] && { echo "--- $1"; tail -n 20 "$1"; } | diag; return 0; }

# ---- the pool of operation slots: (unjudged pair, kind), shuffled with a fixed seed -------------
# Each slot is used at most once per journal, so every operation is valid and changes something.
awk -v seed="$SEED" 'BEGIN { srand(seed) }
    NR == FNR { judged[$1 " " $3] = 1; next }
    { qids[++nq] = $1 }
    END {
        split("entity numeral modifier syntactic typo overlap false-negative other", cat, " ")
        n = 0
        for (i = 1; i <= nq; i++)
            for (p = 1; p <= 312; p++) {
                pid = sprintf("p%04d", p)
                if ((qids[i] " " pid) in judged) continue
                for (k = 0; k < 3; k++) { n++; slot[n] = qids[i] " " pid " " k; key[n] = rand() }
            }
        # a Fisher-Yates shuffle driven by the seeded generator
        for (i = n; i > 1; i--) { j = int(rand() * i) + 1; t = slot[i]; slot[i] = slot[j]; slot[j] = t }
        for (i = 1; i <= n; i++) {
            split(slot[i], f, " ")
            if (f[3] == 0) printf ":label %s %s %d\n", f[1], f[2], i % 2
            else if (f[3] == 1) printf ":tag %s %s %s\n", f[1], f[2], cat[i % 8 + 1]
            else printf ":note %s %s n%d\n", f[1], f[2], i
        }
    }' "$DEMO/qrels.trec" "$DEMO/queries.tsv" >"$D/pool"
npool=$(wc -l <"$D/pool")
nacc=$(((ITER + 1) / 2))
[ "$npool" -ge $(((nacc + 1) * OPS)) ]
ok $? "a pool of $npool distinct operations, enough for $nacc accumulating runs of $OPS"

# script K: the K-th slice of OPS slots of the pool
script() { sed -n "$(($1 * OPS + 1)),$((($1 + 1) * OPS))p" "$D/pool" >"$2"; }

run() {  # run DIR SCRIPT OUT — the workbench on the demo as annotator "crash"
    "$RETRIAGE" --demo --journal-dir "$1" --annotator crash --size 120x30 --echo --script "$2" \
        >"$3" 2>"$3.err"
}

# exports DIR — the tags and the qrels-diff of the journal in DIR ($D/tags, $D/diff), read-only
exports() {
    "$RETRIAGE" export --demo --journal-dir "$1" --annotator crash --what tags >"$D/tags" 2>"$D/export.err" &&
        "$RETRIAGE" export --demo --journal-dir "$1" --annotator crash --what qrels-diff \
            >"$D/diff" 2>>"$D/export.err" || { echo "export failed: $(cat "$D/export.err")" >&2; return 1; }
}
# check_acks SCRIPT OUT BASE TAGS DIFF — checks every acknowledged operation of OUT against the
# exports TAGS and DIFF (tsv tags, trec qrels-diff); prints the number checked; BASE is the number of
# operations the journal held before; $partial is 1 when OUT ends without a line end. Exit status 1
# (with reasons on stderr) when one is missing.
check_acks() {
    awk -v base="$3" -v S="$1" -v T="$4" -v Q="$5" '
    BEGIN {
        while ((getline l < S) > 0) { n++; split(l, f, " "); kind[n] = f[1]; q[n] = f[2]; p[n] = f[3]; a[n] = f[4] }
        FS = "\t"
        while ((getline l < T) > 0) { split(l, f, "\t"); tag[f[1] " " f[2] " " f[4]] = 1; note[f[1] " " f[2]] = f[5] }
        while ((getline l < Q) > 0) { split(l, f, " "); lab[f[1] " " f[3]] = f[4] }
        FS = " "
    }
    /\(#[0-9]+\)$/ {
        k++
        seq = $NF; gsub(/[(#)]/, "", seq)
        if (seq != base + k) { printf "ack %d: #%s, expected #%d\n", k, seq, base + k > "/dev/stderr"; bad++ }
        if ($1 != q[k] || $2 != p[k]) { printf "ack %d is for %s %s, the script line for %s %s\n", k, $1, $2, q[k], p[k] > "/dev/stderr"; bad++ }
        if (kind[k] == ":label" && lab[q[k] " " p[k]] != a[k] "") { printf "#%s %s %s labelled %s: not in qrels-diff\n", seq, q[k], p[k], a[k] > "/dev/stderr"; bad++ }
        if (kind[k] == ":tag" && !((q[k] " " p[k] " " a[k]) in tag)) { printf "#%s %s %s tagged %s: not in tags\n", seq, q[k], p[k], a[k] > "/dev/stderr"; bad++ }
        if (kind[k] == ":note" && note[q[k] " " p[k]] != a[k]) { printf "#%s %s %s note %s: not in tags\n", seq, q[k], p[k], a[k] > "/dev/stderr"; bad++ }
        next
    }
    /./ { odd++; odd_nr = NR; odd_line = $0 }
    END {
        # a last line cut short by the kill (no newline) is not an acknowledgement
        if (odd && !(odd == 1 && odd_nr == NR && partial)) { printf "unexpected output: %s\n", odd_line > "/dev/stderr"; bad++ }
        print k + 0
        exit bad > 0
    }' partial="$partial" "$2"
}
# ends_torn FILE — FILE is not empty and its last byte is not a line end
ends_torn() { [ -n "$(tail -c 1 "$1")" ]; }

# journal_count FILE — the number of operations in a journal; status 1 when their sequence numbers
# are not 1, 2, 3… (a torn last line is no operation)
journal_count() {
    [ -e "$1" ] || { echo 0; return 0; }
    awk 'match($0, /^\{"seq":[0-9]+,.*\}$/) { n++; s = substr($0, 8); sub(/,.*/, "", s); if (s + 0 != n) bad = 1 }
         END { print n + 0; exit bad }' "$1"
}

# ---- calibration: a whole replay, not killed ------------------------------------------------------
script 0 "$D/s.cal"
t0=$(now_ms)
run "$D/cal" "$D/s.cal" "$D/cal.out"
st=$?
t1=$(now_ms)
T=$((t1 - t0))
[ "$T" -ge 1 ] || T=1
partial=0
exports "$D/cal" 2>"$D/cal.why" && n=$(check_acks "$D/s.cal" "$D/cal.out" 0 "$D/tags" "$D/diff" 2>>"$D/cal.why")
[ $st -eq 0 ] && [ "$n" = "$OPS" ] && [ "$(grep -c . "$D/cal/crash.jsonl")" -eq "$OPS" ]
ok $? "an uninterrupted replay acknowledges and keeps all $OPS operations ($T ms)"
[ -s "$D/cal.why" ] && diag <"$D/cal.why"
# the reopen after each kill: the load report, and the tags and qrels-diff as the workbench
# exports them (checked here to be what export writes)
printf 'L\n:snapshot %s\n:export tags tsv %s\n:export qrels-diff trec %s\n' "$D/report.txt" "$D/tags.re" "$D/diff.re" >"$D/reopen"
run "$D/cal" "$D/reopen" "$D/reopen.out" && [ -s "$D/tags.re" ] && cmp -s "$D/tags" "$D/tags.re" && cmp -s "$D/diff" "$D/diff.re"
ok $? "the workbench's :export tags and qrels-diff are export's (the reopens below check them)"

# ---- the kills ----------------------------------------------------------------------------------
# delays in seconds, uniform over (2%, 100%) of the whole replay's time, from the seeded generator.
# (Each iteration runs few processes besides retriage: a process costs milliseconds on some
# machines, and 50 kills are in make check.)
awk -v seed="$SEED" -v n="$ITER" -v t="$T" 'BEGIN { srand(seed + 1); for (i = 1; i <= n; i++) printf "%.3f\n", t * (0.02 + 0.98 * rand()) / 1000 }' >"$D/delays"
acked=0 durable_extra=0 torn_natural=0 torn_simulated=0 complete=0 failed=0 acc_ops=0 acc_k=1
i=0
while read -r delay; do
    i=$((i + 1))
    if [ $((i % 2)) -eq 1 ]; then
        J=$D/fresh
        rm -rf "$J"
        base=0
        k=$((i % (npool / OPS)))   # any slice suits a fresh journal
    else
        J=$D/acc
        base=$acc_ops
        k=$acc_k
        acc_k=$((acc_k + 1))
    fi
    script "$k" "$D/s"
    # retriage itself in the background (not a function in a subshell), so that $! is its pid
    "$RETRIAGE" --demo --journal-dir "$J" --annotator crash --size 120x30 --echo --script "$D/s" \
        >"$D/out" 2>"$D/out.err" &
    pid=$!
    sleep "$delay"
    kill -KILL "$pid" 2>/dev/null || complete=$((complete + 1))
    wait "$pid" 2>/dev/null
    why="$D/why.$i"
    : >"$why"
    partial=0
    ends_torn "$D/out" && partial=1

    # 1. every acknowledged operation is there, read-only (export), before any repair
    n=
    exports "$J" 2>>"$why" && n=$(check_acks "$D/s" "$D/out" "$base" "$D/tags" "$D/diff" 2>>"$why") ||
        echo "iteration $i: acknowledged operations missing" >>"$why"
    n=${n:-0}
    acked=$((acked + n))
    echo "$n" >>"$D/acked.each"

    # 2. the journal: consecutive sequence numbers, at most one operation beyond the acknowledged
    jf=$J/crash.jsonl
    torn=0
    if [ -s "$jf" ] && ends_torn "$jf"; then
        torn=1 torn_natural=$((torn_natural + 1))
    fi
    if [ $((i % 5)) -eq 0 ] && [ $torn -eq 0 ] && [ -s "$jf" ]; then
        # a simulated torn write: the start of one more operation line, cut at a seeded length
        # (after a journal line: a kill in the first milliseconds may leave no journal at all)
        cut=$(awk -v seed="$SEED" -v i="$i" 'BEGIN { srand(seed * 100 + i); print 1 + int(rand() * 90) }')
        printf '{"seq":%d,"time":"2026-01-01T00:00:00.000Z","author":"crash","op":"tag","qid":"q01","pid":"p0001","cat":"other"}' \
            $((base + n + 2)) | head -c "$cut" >>"$jf"
        torn=1 torn_simulated=$((torn_simulated + 1))
    fi
    m=$(journal_count "$jf") || echo "iteration $i: sequence numbers not 1..$m" >>"$why"
    extra=$((m - base - n))
    if [ $extra -lt 0 ] || [ $extra -gt 1 ]; then
        echo "iteration $i: $m operations in the journal for $base before + $n acknowledged" >>"$why"
    fi
    [ $extra -eq 1 ] && durable_extra=$((durable_extra + 1))

    # 3. the workbench reopens it; a torn line is set aside and reported
    set -- "$J"/*.torn-*
    [ -e "$1" ] && ntorn=$# || ntorn=0
    rm -f "$D/tags.re" "$D/diff.re"
    run "$J" "$D/reopen" "$D/reopen.out" || { echo "iteration $i: reopening failed" >>"$why"; cat "$D/reopen.out.err" >>"$why"; }
    set -- "$J"/*.torn-*
    [ -e "$1" ] && new_torn=$(($# - ntorn)) || new_torn=$((0 - ntorn))
    if [ $torn -eq 1 ]; then
        [ $new_torn -eq 1 ] && grep -q 'crash\.jsonl:[0-9]*: an incomplete last line (a crash during a write) was set aside' "$D/report.txt" ||
            echo "iteration $i: the torn line was not set aside and reported" >>"$why"
        # (a kill before the first operation leaves the journal empty once its torn line is gone)
        [ ! -s "$jf" ] || ! ends_torn "$jf" || echo "iteration $i: the journal still ends in a torn line" >>"$why"
    else
        [ $new_torn -eq 0 ] && ! grep -q 'incomplete' "$D/report.txt" || echo "iteration $i: a torn line reported where there was none" >>"$why"
    fi
    grep -q 'not an operation' "$D/report.txt" && echo "iteration $i: bad lines in the journal" >>"$why"
    # after the repair, the state (as the reopened workbench exports it) still holds every
    # acknowledged operation
    check_acks "$D/s" "$D/out" "$base" "$D/tags.re" "$D/diff.re" >/dev/null 2>>"$why" ||
        echo "iteration $i: after reopening, operations missing" >>"$why"
    [ "$(journal_count "$jf")" -eq "$m" ] || echo "iteration $i: reopening changed the number of operations" >>"$why"
    [ "$J" = "$D/acc" ] && acc_ops=$m

    if [ -s "$why" ]; then
        failed=$((failed + 1))
        { echo "iteration $i (delay ${delay} s, $J, $n acknowledged):"; cat "$why"; } | head -n 20 | diag
    fi
done <"$D/delays"

distinct=$(sort -u "$D/acked.each" | wc -l)
[ "$i" -eq "$ITER" ] && [ "$distinct" -ge $((ITER / 5)) ]
ok $? "$ITER kills at delays over 0-$T ms stopped the replays at $distinct different points (at least $((ITER / 5)))"
[ $failed -eq 0 ]
ok $? "after every kill the acknowledged operations are in the journal and its exports, and it reopens ($failed iterations failed)"
[ "$acked" -gt "$((ITER * OPS / 10))" ] && [ "$complete" -lt "$ITER" ]
ok $? "the kills landed during the replays ($complete of $ITER replays had finished first)"
[ "$torn_simulated" -ge 1 ]
ok $? "torn last lines were set aside and reported ($torn_natural left by SIGKILL, $torn_simulated simulated)"
echo "$acked acknowledged operations checked over $ITER kills ($OPS-operation script, whole replay $T ms); $durable_extra kills left one durable unacknowledged operation; the accumulating journal holds $acc_ops" | diag
done_testing
