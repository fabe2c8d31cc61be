#!/usr/bin/env bash
# truncate.sh — the collection truncated while the workbench shows it (issue 9, item 11): the
# next redraw used to die of SIGBUS. Now the workbench says the collection changed on disk and
# keeps working (the journal takes the next change); a command reading it exits 2 saying so.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
DEMO="$SRCDIR/data/demo"
export XDG_CACHE_HOME="$D/cache"
cp "$DEMO/collection.tsv" "$D/c.tsv"
cat >"$D/ws.json" <<EOF
{"queries": "$DEMO/queries.tsv", "collection": "$D/c.tsv", "qrels": "$DEMO/qrels.trec",
 "runs": ["$DEMO/runs/bm25.trec"], "journal_dir": "$D/ann", "annotator": "t"}
EOF

mkfifo "$D/script"
"$RETRIAGE" "$D/ws.json" --script "$D/script" --size 100x30 --echo >"$D/out" 2>"$D/err" &
pid=$!
exec 3>"$D/script"
printf '<Enter>\n:snapshot %s\n' "$D/before.txt" >&3
wait_for 30 "the first snapshot" test -e "$D/before.txt"; ok $? "the workbench shows the side by side"
: >"$D/c.tsv"                               # truncated to nothing under the open mapping
printf 'j\n<Enter>\n:snapshot %s\n:label q01 p0001 1\n:quit\n' "$D/after.txt" >&3
exec 3>&-
wait $pid
rc=$?
st=0
[ "$rc" -eq 0 ] || st=1
[ -s "$D/after.txt" ] || st=1
grep -q 'collection changed on disk' "$D/out" || st=1
report $st "after the truncation: no SIGBUS (exit $rc), the change is reported"
grep -q '"op":"label"' "$D/ann/t.jsonl"; report $? "and the journal still takes a change"
LC_ALL=C grep -q "$(printf '[\001-\010\013-\037]')" "$D/after.txt"; [ $? -ne 0 ]
report $? "the screen after it holds no raw control character"
# the passage view after it (issue 33, item 18): not "not in the collection" (the pid is there; the
# file changed), but that it changed on disk and how to read it again
tr -s ' \n' '  ' < "$D/after.txt" > "$D/after.flat"
st=0
grep -q "The collection $D/c.tsv changed on disk since it was opened; quit and reopen to read it again" "$D/after.flat" || st=1
grep -q 'not in the collection' "$D/after.txt" && st=1
ok $st "the passage view says the collection changed on disk and to reopen, not that the passage is not in it"
[ $st -eq 0 ] || diag < "$D/after.txt"

# A command that reads the collection after it shrank: exit 2 with the message. (Opening a
# workspace reads the collection while it checks the judged passages; shrink it mid-way by
# giving a collection that is cut after the index was built.)
cp "$DEMO/collection.tsv" "$D/c.tsv"
"$RETRIAGE" export --what metrics "$D/ws.json" >/dev/null 2>&1   # builds the index
head -c 100 "$DEMO/collection.tsv" >"$D/short"
cat "$D/short" >"$D/c.tsv"   # same inode, shorter: the index is stale and rebuilt, no SIGBUS
CLI_CMD=export run --what metrics "$D/ws.json"
! crashed; report $? "a collection shortened between two runs: no crash (rebuilt or an error, exit $rc)"

# The workspace cache cut short under the open mapping (someone else's doing: retriage replaces
# it by rename): the message names the cache and says its rankings are wrong, not the collection.
cp "$DEMO/collection.tsv" "$D/c.tsv"
export RETRIAGE_CACHE_MIN=0
"$RETRIAGE" export --what metrics "$D/ws.json" >/dev/null 2>&1   # writes the cache
rm -f "$D/script2"; mkfifo "$D/script2"
"$RETRIAGE" "$D/ws.json" --script "$D/script2" --size 100x30 --echo >"$D/out2" 2>"$D/err2" &
pid=$!
exec 3>"$D/script2"
printf ':snapshot %s\n' "$D/before2.txt" >&3
wait_for 30 "the first snapshot" test -e "$D/before2.txt"
for f in "$D"/c.tsv.*.rtws; do truncate -s 8192 "$f"; done
printf '<Enter>\n:snapshot %s\n:quit\n' "$D/after2.txt" >&3
exec 3>&-
wait $pid
rc=$?
st=0
ls "$D"/c.tsv.*.rtws >/dev/null 2>&1 || st=1
[ "$rc" -eq 0 ] && [ -s "$D/after2.txt" ] || st=1
grep -q 'workspace cache changed on disk; the rankings, judgments and values' "$D/out2" || st=1
grep -q 'collection changed on disk' "$D/out2" && st=1
report $st "the workspace cache cut short while open: no SIGBUS (exit $rc); the message names the cache, not the collection"
unset RETRIAGE_CACHE_MIN

done_testing
