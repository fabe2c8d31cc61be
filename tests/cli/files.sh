#!/bin/sh
# files.sh — retriage never destroys a file it did not make (issue 9, items 1-4 and 12): the
# journal is never opened through a link or as a non-journal, complete bad lines are never cut,
# -o writes devices and pipes in place and refuses links, killed exports leave no temporaries,
# a journal that is not writable opens read-only, write errors name the file.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
DEMO="$SRCDIR/data/demo"
export XDG_CACHE_HOME="$D/cache"
printf ':quit\n' >"$D/q.txt"
# holds FILE TEXT — FILE's text is TEXT, as "$(cat FILE)" = TEXT compares it (read by the shell)
holds() {
    [ -f "$1" ] || return 1
    h_=
    while IFS= read -r l_ || [ -n "$l_" ]; do h_="$h_$l_
"; done < "$1"
    while :; do case $h_ in *'
') h_=${h_%?} ;; *) break ;; esac; done
    [ "$h_" = "$2" ]
}
# exists PATH… — the first PATH is there (a glob matched); nfiles N PATH… — a glob matched N files
exists() { [ -e "$1" ] || [ -L "$1" ]; }
nfiles() { n_=$1; shift; exists "$1" || set --; [ $# -eq "$n_" ]; }
workbench() {  # workbench DIR ANNOTATOR [SCRIPT] — the demo in script mode
    "$RETRIAGE" "$DEMO/workspace.json" --journal-dir "$1" --annotator "$2" --size 100x30 \
        --script "${3:-$D/q.txt}" >"$D/out" 2>"$D/err"
    rc=$?
}

# ---- 1. the journal through a link ---------------------------------------------------------
mkdir "$D/ann"
echo secret >"$D/victim.txt"
ln -s ../victim.txt "$D/ann/eve.jsonl"
workbench "$D/ann" eve
st=0
[ "$rc" -eq 2 ] || st=1
crashed && st=1
holds "$D/victim.txt" secret || st=1
has_text 'symbolic link' "$D/err" || st=1
[ -e "$D/ann/eve.jsonl.lock" ] && st=1
report $st "a journal that is a link to another file: refused (exit 2), the file it points to untouched"

ln -s "$D/ann" "$D/annlink"
workbench "$D/annlink" zed
st=0
[ "$rc" -eq 2 ] && has_text 'journal folder is a symbolic link' "$D/err" && [ ! -e "$D/ann/zed.jsonl" ] || st=1
report $st "a journal folder that is a link: refused, nothing made in it"
workbench "$D/annlink/" zed
[ "$rc" -eq 2 ] && has_text 'journal folder is a symbolic link' "$D/err" && [ ! -e "$D/ann/zed.jsonl" ]
report $? "… also when named with a trailing slash (which would make the link followed)"

mkfifo "$D/ann/pipe.jsonl"
timeout 10 "$RETRIAGE" "$DEMO/workspace.json" --journal-dir "$D/ann" --annotator pipe --size 100x30 \
    --script "$D/q.txt" >"$D/out" 2>"$D/err"
rc=$?
[ "$rc" -eq 2 ] && has_text 'named pipe' "$D/err" && [ -p "$D/ann/pipe.jsonl" ]
report $? "a journal that is a named pipe: refused at once (no hang), still a pipe"

echo keep >"$D/lockvictim.txt"
ln -s ../lockvictim.txt "$D/ann/lena.jsonl.lock"
printf ':label q04 p0152 1\n' >"$D/l.txt"
workbench "$D/ann" lena "$D/l.txt"
[ "$rc" -eq 2 ] && has_text 'read-only' "$D/err" && holds "$D/lockvictim.txt" keep
report $? "a lock file that is a link: the journal is read-only, the link's target untouched"

# ---- 2. bad complete lines are never cut; a non-journal is refused ----------------------------
mkdir "$D/j2"
for i in $(seq 1 300); do
    printf '{"question_id": %d, "question": "问题 %d", "answer_paragraphs": [{"paragraph_id": "p%d"}]}\n' \
        $((181000 + i)) "$i" "$i"
done >"$D/j2/data.jsonl"
cp "$D/j2/data.jsonl" "$D/data.copy"
workbench "$D/j2" data
st=0
[ "$rc" -eq 2 ] && has_text 'not a retriage journal' "$D/err" || st=1
cmp -s "$D/j2/data.jsonl" "$D/data.copy" || st=1
nfiles 1 "$D/j2"/* || st=1   # no lock, no .torn copy
report $st "a 300-line DuReader data.jsonl as a journal: refused, byte for byte unchanged, nothing beside it"

printf ':label q04 p0152 1\n:label q29 p0111 1\n' >"$D/two.txt"
workbench "$D/j2" ok "$D/two.txt"
[ "$rc" -eq 0 ]; report $? "a journal with two operations is written"
printf '%s\n' '{"seq":3,"time":"2026-11-21T10:11:12.345Z","author":"ok","op":"label","qid":"q04","pid":"p0152","grade":1.5}' \
    '{"seq":18446744073709551615,"time":"2026-11-21T10:11:12.345Z","author":"ok","op":"tag","qid":"q04","pid":null,"cat":"entity"}' \
    >>"$D/j2/ok.jsonl"
cp "$D/j2/ok.jsonl" "$D/ok.copy"
workbench "$D/j2" ok
st=0
[ "$rc" -eq 0 ] || st=1
cmp -s "$D/j2/ok.jsonl" "$D/ok.copy" || st=1
! exists "$D/j2"/*torn* || st=1
report $st "two complete bad lines (grade 1.5, seq 2^64-1) are not cut: the journal is unchanged"
printf ':label q18 p0270 1\n' >"$D/one.txt"
workbench "$D/j2" ok "$D/one.txt"
[ "$rc" -eq 2 ] && grep -q 'ok\.jsonl:3 is not an operation' "$D/err" && has_text 'aside' "$D/err" &&
    cmp -s "$D/j2/ok.jsonl" "$D/ok.copy"
report $? "and it is read-only: a change is refused, naming the line and how to fix it"
CLI_CMD=export
run --what qrels-diff "$DEMO/workspace.json" --journal-dir "$D/j2" --annotator ok
[ "$rc" -eq 0 ] && [ "$(wc -l <"$D/out")" -eq 2 ] && grep -q 'ok\.jsonl:3: not an operation' "$D/err"
report $? "export still reads the two good operations, and warns about the bad lines"
CLI_CMD=

# A replayed operation whose grade is outside the workspace's scale is a bad line too.
mkdir "$D/j3"
printf '%s\n' '{"seq":1,"time":"2026-11-21T10:11:12.345Z","author":"gr","op":"label","qid":"q04","pid":"p0152","grade":3}' \
    >"$D/j3/gr.jsonl"
cp "$D/j3/gr.jsonl" "$D/gr.copy"
workbench "$D/j3" gr "$D/one.txt"
[ "$rc" -eq 2 ] && has_text 'grade 3 is outside' "$D/err" && grep -q 'gr\.jsonl:1' "$D/err" &&
    cmp -s "$D/j3/gr.jsonl" "$D/gr.copy"
report $? "a replayed grade outside a binary workspace's scale: reported with file:line, read-only"

# ---- 3. -o: devices and pipes in place, links refused, stale temporaries swept ------------------
CLI_CMD=export
mkfifo "$D/fifo"
cat "$D/fifo" >"$D/from_fifo" &
catpid=$!
run --what metrics "$DEMO/workspace.json" --journal-dir "$D/j3x" -o "$D/fifo"
# (an export that never opened the pipe would leave cat waiting for a writer for ever: a writer
# that opens and closes it lets cat end, once cat has it open; past the timeout, or with the
# pipe replaced by a file, cat is killed)
cat_ended() { [ ! -p "$D/fifo" ] || : 1<>"$D/fifo"; gone "$catpid"; }
wait_for 10 "cat to read the pipe to its end" cat_ended || kill "$catpid" 2>/dev/null
wait "$catpid"
[ "$rc" -eq 0 ] && [ -p "$D/fifo" ] && has_text 'RR@10' "$D/from_fifo"
report $? "export -o a named pipe writes into it and leaves it a pipe"
if [ "$(id -u)" -eq 0 ] && mknod "$D/null" c 1 3 2>/dev/null; then
    run --what metrics "$DEMO/workspace.json" --journal-dir "$D/j3x" -o "$D/null"
    [ "$rc" -eq 0 ] && [ -c "$D/null" ]; report $? "export -o a device (a copy of /dev/null) leaves it a device"
    CLI_CMD=pool run --depth 5 -o "$D/null" "$DEMO/runs/bm25.trec"
    [ "$rc" -eq 0 ] && [ -c "$D/null" ]; report $? "pool -o a device leaves it a device"
else
    ok 0 "# SKIP making a device node needs root"
    ok 0 "# SKIP making a device node needs root"
fi
echo precious >"$D/target.txt"
ln -s target.txt "$D/out.link"
run --what metrics "$DEMO/workspace.json" --journal-dir "$D/j3x" -o "$D/out.link"
[ "$rc" -ne 0 ] && has_text 'symbolic link' "$D/err" && holds "$D/target.txt" precious && [ -L "$D/out.link" ]
report $? "export -o a link to a file: refused, the link and its target untouched"
CLI_CMD=pool run --depth 5 -o "$D/out.link" "$DEMO/runs/bm25.trec"
[ "$rc" -ne 0 ] && holds "$D/target.txt" precious && [ -L "$D/out.link" ]
report $? "pool -o a link to a file: refused likewise"
CLI_CMD=leak run --train "$DEMO/train_queries.tsv" --test "$DEMO/queries.tsv" -Q -o "$D/out.link"
[ "$rc" -ne 0 ] && holds "$D/target.txt" precious
report $? "leak -o a link to a file: refused likewise"

# A killed export leaves OUT.tmp-PID-N; the next run with that target removes it (dead PID only).
sh -c 'exit 0' &
dead=$!
wait $dead
touch "$D/m.tsv.tmp-$dead-0" "$D/m.tsv.tmp-$$-0"
run --what metrics "$DEMO/workspace.json" --journal-dir "$D/j3x" -o "$D/m.tsv"
[ "$rc" -eq 0 ] && [ ! -e "$D/m.tsv.tmp-$dead-0" ] && [ -e "$D/m.tsv.tmp-$$-0" ] && [ -s "$D/m.tsv" ]
report $? "a stale temporary of a dead process is swept; a live process's is kept"
if [ -w /dev/full ]; then
    run --what per-query "$DEMO/workspace.json" --journal-dir "$D/j3x" -o /dev/full
    [ "$rc" -eq 2 ] && has_text '/dev/full' "$D/err" && grep -qi 'space' "$D/err"
    report $? "export -o /dev/full: exit 2 naming the file and the reason"
    "$RETRIAGE" export --what per-query "$DEMO/workspace.json" --journal-dir "$D/j3x" >/dev/full 2>"$D/err"
    rc=$?
    [ "$rc" -eq 2 ] && has_text 'standard output' "$D/err"
    report $? "export to a full standard output: exit 2 naming it"
else
    ok 0 "# SKIP /dev/full is not writable here"
    ok 0 "# SKIP /dev/full is not writable here"
fi
CLI_CMD=

# the workbench's own outputs (:snapshot) go through the same writer
echo keepme >"$D/snapvictim"
ln -s snapvictim "$D/snap.link"
printf ':snapshot %s\n:quit\n' "$D/snap.link" >"$D/snap.txt"
workbench "$D/j5" s "$D/snap.txt"
[ "$rc" -eq 2 ] && holds "$D/snapvictim" keepme && has_text 'symbolic link' "$D/err"
report $? ":snapshot to a link: refused, the target untouched"

# ---- 4. a journal that is not writable, in a writable folder ----------------------------------
mkdir -m 0777 "$D/j4"
workbench "$D/j4" nob "$D/two.txt"     # two operations, made by this user
chmod 0644 "$D/j4/nob.jsonl"; [ ! -e "$D/j4/nob.jsonl.lock" ] || chmod 0666 "$D/j4/nob.jsonl.lock"; chmod -R a+rX "$D"
chmod 0777 "$D/j4"
cp "$D/j4/nob.jsonl" "$D/nob.copy"
if nobody_can "$DEMO/workspace.json" "$DEMO/collection.tsv"; then
    as_nobody env XDG_CACHE_HOME="$D/cache-nobody" \
        "$RETRIAGE" "$DEMO/workspace.json" --journal-dir "$D/j4" --annotator nob --size 100x30 \
        --script "$D/q.txt" >"$D/out" 2>"$D/err"
    rc=$?
    [ "$rc" -eq 0 ] && cmp -s "$D/j4/nob.jsonl" "$D/nob.copy"
    report $? "as another user, a journal it cannot write opens (exit 0, not 'Permission denied')"
    as_nobody env XDG_CACHE_HOME="$D/cache-nobody" \
        "$RETRIAGE" "$DEMO/workspace.json" --journal-dir "$D/j4" --annotator nob --size 100x30 \
        --script "$D/one.txt" >"$D/out" 2>"$D/err"
    rc=$?
    [ "$rc" -eq 2 ] && has_text 'not writable' "$D/err" && cmp -s "$D/j4/nob.jsonl" "$D/nob.copy"
    report $? "… read-only, saying it is not writable; nothing changed"
else
    ok 0 "# SKIP $why_not"
    ok 0 "# SKIP $why_not"
fi
# ... and for any user, root included: a journal folder that cannot be made (under a regular file:
# ENOTDIR, whoever asks) opens read-only too; a change is refused, saying why
workbench "$D/victim.txt/j" nob
[ "$rc" -eq 0 ]
report $? "a journal folder that cannot be made (ENOTDIR, for any user): the workbench opens (exit 0)"
workbench "$D/victim.txt/j" nob "$D/one.txt"
[ "$rc" -eq 2 ] && has_text 'read-only: cannot create the journal folder' "$D/err" && has_text 'Not a directory' "$D/err" &&
    holds "$D/victim.txt" secret
report $? "… read-only: a change is refused, saying the folder cannot be made and why; the file untouched"

done_testing
