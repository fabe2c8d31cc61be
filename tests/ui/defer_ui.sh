#!/usr/bin/env bash
# defer_ui.sh — the workbench does not wait for a new collection index: the first screen needs no
# passage, so a collection large enough for a thread of its own (RETRIAGE_PARALLEL_MIN, 0 here)
# is indexed behind it and taken in when done. A script waits for it before its first line: the
# screens are those of an open that waits, and a bad collection fails the script (exit 2, file and
# line). On a terminal the passages show once it is in, and its index is written; a bad one is a
# message, and the workbench goes on. (Runs taken in behind the first screen: defer_runs_ui.sh.)
. "${SRCDIR:-.}/tests/ui/defer_lib.sh"

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
command -v script > /dev/null || { echo "# skipped: script(1) is missing (util-linux): the terminal part"; done_testing; exit; }
fresh
# q01's first passage in bm25, in the passage view, once the collection is in
term "$D/tty" 120x30 "${WS[@]}"
first_screen "$D/tty"
printf ':goto q01\r\r\r' >&3
wait_for 30 "the passage's text on the terminal" has "zzqx plain words for the terminal test" "$D/tty"
term_end
st=0
[ "$rc" -eq 0 ] || st=1
has "passage $pid" "$D/tty" || st=1
has "zzqx plain words for the terminal test" "$D/tty" || st=1
report $st "on a terminal: the passage view shows the passage once the collection is in ($pid)" "$D/tty"
[ -e "$D/c.tsv.rtidx" ]
ok $? "and the index is written"
fresh
term "$D/tty" 120x30 "${BAD[@]}"
first_screen "$D/tty"
wait_for 30 "the message on the terminal" has_plain "the collection could not be opened, passages are not shown" "$D/tty"
printf ':goto q01\r' >&3   # (after the message: a key typed meanwhile would clear it before it is drawn)
wait_for 30 "the side by side view" has "side by side" "$D/tty"
term_end
[ "$rc" -eq 0 ] && has_plain "the collection could not be opened, passages are not shown" "$D/tty"
report $? "on a terminal, a bad collection: a message, and the workbench goes on" "$D/tty"

# The collection's load warnings are said when it comes in, also when the session took it in to
# know a passage: a label of a passage only the collection has, typed on the first screen while a
# collection slow to index (1.5 million filler passages, one judged passage missing) is read.
# demo COLLECTION [RUN] — the arguments of a workspace of the demo's queries, qrels and bm25 (and
# RUN) over COLLECTION, no cache
demo() { echo "--queries $DEMO/queries.tsv --collection $1 --qrels $DEMO/qrels.trec --run $DEMO/runs/bm25.trec${2:+ --run $2} --no-cache"; }
# labelled PID — the journal holds a label of PID, and the terminal said the load warnings
# held ARGS… — term with the collection held until $D/go exists (RETRIAGE_COLLECTION_WAIT)
held() { rm -f "$D/go"; RETRIAGE_COLLECTION_WAIT=$D/go term "$@"; }
labelled() { grep -q "\"pid\":\"$1\"" "$D/j/d.jsonl" 2> /dev/null && has_plain "[0-9]* load warnings: press L" "$D/slow.out"; }

cp "$D/c.tsv" "$D/c.keep"
jp=$(awk '$4 > 0 { print $3; exit }' "$DEMO/qrels.trec")
{ awk -F'\t' -v p="$jp" '$1 != p' "$D/c.keep"
  awk 'BEGIN { for (i = 0; i < 1500000; i++) printf "f%07d\tfiller passage %d\n", 1500000 - i, i }'
  printf 'zzonly\ta passage only the collection has\n'; } > "$D/c.tsv"
fresh
# shellcheck disable=SC2046
term "$D/slow.out" 150x30 $(demo "$D/c.tsv")
wait_for 30 "the first screen, the collection being indexed" has "passages: indexing" "$D/slow.out"
printf ':label q01 zzonly 1\r' >&3
wait_for 60 "the label made, and the load warnings said" labelled zzonly
term_end
[ "$rc" -eq 0 ] && labelled zzonly
report $? "a collection taken in to know a passage (a label): its load warning (a judged passage missing) is said" "$D/slow.out"
# ... and said after an error on the status line (a command that failed meanwhile), not lost
fresh
# shellcheck disable=SC2046
term "$D/slow.out" 150x30 $(demo "$D/c.tsv")
wait_for 30 "the first screen, the collection being indexed" has "passages: indexing" "$D/slow.out"
printf ':goto qnone\r' >&3
wait_for 60 "the load warnings said" has_plain "load warnings" "$D/slow.out"
term_end
# (the status line is written in two parts)
[ "$rc" -eq 0 ] && has_plain 'no query with id "qnone"; the collection is in, [0-9]* load warnings: press L' "$D/slow.out"
report $? "an error on the status line when the collection comes in with load warnings: they are said after it" "$D/slow.out"
cp "$D/c.keep" "$D/c.tsv"
# ... and by the message of a command that waited for a run and then the collection, the run (with
# a load warning: a duplicate) in first: a label of a passage only the collection has, typed while
# the run is held, the collection (3 million filler passages, no warning) still being indexed.
# (Not held with RETRIAGE_COLLECTION_WAIT: held, the waiting line before the message already ends
# in "(1 load warnings: press L)", and ncurses keeps that tail on the screen, deleting the
# characters before it (ESC [ N P), so the message is right on the screen but not in one piece in
# the bytes this test reads. The slow collection's waiting line ends otherwise.)
{ cat "$D/c.keep"; awk 'BEGIN { for (i = 0; i < 3000000; i++) printf "f%07d\tfiller %d\n", i, i }'
  printf 'zzonly\ta passage only the collection has\n'; } > "$D/c3.tsv"
fresh
rm -f "$D/late.trec" "$D/c3.tsv.rtidx"
mkfifo "$D/late.trec"
# shellcheck disable=SC2046
term "$D/wait.out" 150x30 $(demo "$D/c3.tsv" "$D/late.trec")
wait_for 30 "the first screen with 1 of 2 runs" has "runs: 1 of 2 read" "$D/wait.out"
printf ':label q01 zzonly 1\r' >&3
wait_for 30 "the label waiting for the runs" has_plain "waiting for the runs" "$D/wait.out"
# (written under a timeout: a FIFO whose reader is gone would block the test)
timeout 20 sh -c '{ head -1 "$1"; cat "$1"; } > "$2"' sh "$DEMO/runs/dense.trec" "$D/late.trec"
wait_for 60 "the label made" has_plain "zzonly labelled" "$D/wait.out"
term_end
rm -f "$D/c3.tsv" "$D/c3.tsv.rtidx"
[ "$rc" -eq 0 ] && has_plain 'q01 zzonly labelled 1 (#1)  ([0-9]* load warnings: press L)' "$D/wait.out"
report $? "a command that waited for a run and then the collection: its message says the run's load warnings" "$D/wait.out"

# A gzip collection is judged by its text's size (4 bytes a compressed byte) for a thread of its
# own: one whose compressed size is under RETRIAGE_PARALLEL_MIN and its text well over is indexed
# behind the first screen, which says so (held there until the screen is drawn).
gzip -c "$D/c.tsv" > "$D/cz.tsv.gz"
zsize=$(wc -c < "$D/cz.tsv.gz")
rm -rf "$D/cache"
# shellcheck disable=SC2046
PAR=$((zsize * 2)) held "$D/gz.out" 120x30 $(demo "$D/cz.tsv.gz")
first_screen "$D/gz.out"
: > "$D/go"
term_end
[ "$rc" -eq 0 ] && has "passages: indexing" "$D/gz.out"
report $? "a gzip collection under the threshold whose text is over it: indexed behind the first screen" "$D/gz.out"
# and one whose text is under it is read before the first screen (held or not: not on a thread)
rm -rf "$D/cache"
# shellcheck disable=SC2046
PAR=$((zsize * 8)) held "$D/gz2.out" 120x30 $(demo "$D/cz.tsv.gz")
first_screen "$D/gz2.out"
term_end
[ "$rc" -eq 0 ] && ! has "passages: indexing" "$D/gz2.out"
report $? "(a gzip collection whose text is under the threshold: read before the first screen)" "$D/gz2.out"

done_testing
