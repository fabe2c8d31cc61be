#!/bin/sh
# import_txn.sh — `retriage import` into several journals is all or nothing across annotators:
# a SIGKILL at every step of its commit, or a full disk while it stages, leaves every journal as
# it was or (once the folder is opened again) every journal with its new lines; never some.
# The steps are reached through RETRIAGE_IMPORT_FAULT=kill:N|fail:N (cli/cmd_import.c).
# shellcheck disable=SC2086 # ($WS is split where used)
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache"

printf 'q1\tfirst\nq2\tsecond\n' > "$D/queries.tsv"
printf 'q1 0 p1 1\nq2 0 p3 0\n' > "$D/qrels"
printf 'q1 Q0 p1 1 2 r\nq1 Q0 p2 2 1 r\nq2 Q0 p3 1 2 r\nq2 Q0 p4 2 1 r\n' > "$D/run"
# the workspace but its journal folder, a plain string split where used (the test's own paths, from
# mktemp, hold no blanks)
WS="--queries $D/queries.tsv --qrels $D/qrels --run $D/run"

# the journals before: one judgment each of ann_a, ann_b, ann_c
printf 'annotator\tqid\tpid\tgrade\nann_a\tq1\tp1\t1\nann_b\tq1\tp1\t0\nann_c\tq1\tp1\t1\n' > "$D/first.tsv"
# the import under test: two new judgments each
printf 'annotator\tqid\tpid\tgrade\n' > "$D/second.tsv"
for a in ann_a ann_b ann_c; do printf '%s\tq1\tp2\t1\n%s\tq2\tp3\t1\n' $a $a >> "$D/second.tsv"; done
"$RETRIAGE" import $WS --journal-dir "$D/base" --judgments "$D/first.tsv" > /dev/null 2>&1
ok $? "three journals to import into"

# state DIR: state_ is "old" when every journal has its one line, "new" when every one has three,
# else "mixed" (a line counted as wc -l counts it, each journal's first line compared with the one
# it had; read without a process or a subshell: state runs after every step)
# lines_of FILE — the number of line ends in FILE in n_, and its first line in first_
lines_of() {
    n_=0 first_=
    while :; do
        IFS= read -r l_ || { [ $n_ -gt 0 ] || first_=$l_; break; }   # (a last line without its end: not counted)
        [ $n_ -gt 0 ] || first_=$l_
        n_=$((n_ + 1))
    done < "$1"
}
for a in ann_a ann_b ann_c; do lines_of "$D/base/$a.jsonl"; eval "base_first_$a=\$first_"; done
state() {
    local n_old=0 n_new=0 a n want
    for a in ann_a ann_b ann_c; do
        lines_of "$1/$a.jsonl"
        n=$n_
        eval "want=\$base_first_$a"
        [ "$first_" = "$want" ] || n=x
        [ "$n" = 1 ] && n_old=$((n_old + 1))
        [ "$n" = 3 ] && n_new=$((n_new + 1))
    done
    if [ $n_old -eq 3 ]; then state_=old; elif [ $n_new -eq 3 ]; then state_=new; else state_=mixed; fi
}
# exists PATH… — the first PATH is there (a glob matched; no ls)
exists() { [ -e "$1" ] || [ -L "$1" ]; }
# reopen DIR: any command that opens the folder's journals (here agree) finishes or forgets the import
reopen() {
    "$RETRIAGE" agree $WS --journal-dir "$1" > "$D/reopen.out" 2> "$D/reopen.err"
}
fresh() { rm -rf "$1"; cp -a "$D/base" "$1"; }

steps=9   # 3 journals staged, the marker in place, 3 renames, the folder synced, the marker removed
for n in $(seq 1 $steps); do
    J="$D/k$n"
    fresh "$J"
        RETRIAGE_IMPORT_FAULT=kill:$n "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2> "$D/err"
    rc=$?
    [ $rc -eq 137 ]; ok $? "kill -9 at step $n: the import was killed there (exit $rc)"
    state "$J"; before=$state_
    reopen "$J"
    state "$J"; after=$state_
    if [ "$n" -lt 4 ]; then want=old; else want=new; fi
    [ "$after" = "$want" ]
    ok $? "kill -9 at step $n: after the next open every journal is $want (before it: $before; after: $after)"
    [ "$before" != mixed ] || [ "$n" -ge 4 ]
    ok $? "kill -9 at step $n: before the commit point no journal ever changed"
    if [ "$n" -ge 4 ] && [ "$n" -lt $steps ]; then
        has_text "finished an import that was interrupted (3 journals)" "$D/reopen.err"
        ok $? "kill -9 at step $n: the open says it finished the import"
    fi
    [ -z "$(find "$J" -name '.*.jsonl.import-*' -o -name '.import.txn')" ] || [ "$n" -lt 4 ]
    ok $? "kill -9 at step $n: no staged copy and no marker left once finished"
done

# a kill before the commit point, then the same import again: it succeeds, the stray copies gone
J="$D/k2"
fresh "$J"
RETRIAGE_IMPORT_FAULT=kill:2 "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2>&1
"$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2> "$D/err"
rc=$?
state "$J"
[ $rc -eq 0 ] && [ "$state_" = new ] && [ -z "$(find "$J" -name '.*.jsonl.import-*')" ]
ok $? "an import killed before committing, run again: every journal new, no staged copy left"

# a full disk while staging the second or third journal, or writing the marker: nothing changes
for n in 1 2 3 4; do
    J="$D/f$n"
    fresh "$J"
        RETRIAGE_IMPORT_FAULT=fail:$n "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > "$D/out" 2> "$D/err"
    rc=$?
    st=0
    [ $rc -eq 2 ] || st=1
    has_text "no journal was changed" "$D/err" || st=1
    state "$J"; [ "$state_" = old ] || st=1
    [ -z "$(find "$J" -name '.*.jsonl.import-*' -o -name '.import.txn')" ] || st=1
    ok $st "an I/O error at step $n (before the commit point): exit 2, said, every journal as it was, nothing left"
    [ $st -eq 0 ] || diag < "$D/err"
done

# an I/O error after the commit point: said; the next open finishes it
J="$D/f6"
fresh "$J"
RETRIAGE_IMPORT_FAULT=fail:6 "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2> "$D/err"
rc=$?
[ $rc -eq 2 ] && has_text "next open of the folder finishes it" "$D/err"
ok $? "an I/O error after the commit point: exit 2, saying the next open finishes it"
reopen "$J"
state "$J"; [ "$state_" = new ]; ok $? "and the next open does"

# a journal appended to after the import staged it (a hand edit) is not overwritten
J="$D/k5b"
fresh "$J"
RETRIAGE_IMPORT_FAULT=kill:4 "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2>&1
cp "$J/ann_b.jsonl" "$D/ann_b.before"
printf 'not a line the import knew\n' >> "$J/ann_b.jsonl"
reopen "$J"
head -n 1 "$D/ann_b.before" > "$D/ann_b.first"
head -n 1 "$J/ann_b.jsonl" | cmp -s - "$D/ann_b.first" &&
    grep -q "not a line the import knew" "$J/ann_b.jsonl" &&
    has_text "ann_b.jsonl: an interrupted import was not finished for it" "$D/reopen.err" &&
    exists "$J"/ann_b.jsonl.unimported-*
ok $? "a journal changed after staging keeps its lines; the import's copy is set aside and named"
has_text "an interrupted import was finished for 2 of its 3 journals" "$D/reopen.err" &&
    ! has_text "finished an import that was interrupted" "$D/reopen.err"
ok $? "and the open says 2 of the 3 journals were finished, not that the import was"

# a folder copied (a backup restored, cp -a, another disk) after the commit point and one rename:
# its files have new inodes, and the copy still finishes as all or nothing, without a false word
J="$D/k6"
fresh "$J"
RETRIAGE_IMPORT_FAULT=kill:6 "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2>&1
J2="$D/k6copy"
rm -rf "$J2"
cp -a "$J" "$J2"
reopen "$J2"
state "$J2"; st=$state_
[ "$st" = new ] && ! exists "$J2"/*.unimported-* &&
    has_text "finished an import that was interrupted (3 journals)" "$D/reopen.err" &&
    ! grep -q "is gone\|not the one" "$D/reopen.err"
ok $? "a folder copied after the commit point finishes the import in the copy: every journal new ($st)"
# the original, ann_a (renamed before the kill) then given a line by hand: it counts as finished
printf '{"seq":99,"time":"2026-11-18T11:06:40.123Z","author":"ann_a","op":"label","qid":"q2","pid":"p4","grade":0}\n' \
    >> "$J/ann_a.jsonl"
reopen "$J"
[ "$(wc -l < "$J/ann_a.jsonl")" -eq 4 ] && [ "$(wc -l < "$J/ann_b.jsonl")" -eq 3 ] &&
    [ "$(wc -l < "$J/ann_c.jsonl")" -eq 3 ] && has_text "finished an import that was interrupted (3 journals)" "$D/reopen.err"
ok $? "a journal renamed before the kill and appended to since is finished, not called 'as it was'"

# a reader who cannot write the folder (user nobody) cannot finish an import killed after one
# rename: it reads the import's copies, so its figures count every journal new, and says so once
J="$D/k6ro"
fresh "$J"
RETRIAGE_IMPORT_FAULT=kill:6 "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2>&1
chmod -R a+rX "$D"   # readable, not writable, by user nobody
if nobody_can "$J/ann_a.jsonl" "$D/run"; then
        as_nobody env XDG_CACHE_HOME="$J/nocache" "$RETRIAGE" agree $WS --journal-dir "$J" > "$D/ro.out" 2> "$D/ro.err"
    rc=$?
    # ann_b and ann_c share 3 judged items when both journals count the import, 1 when neither does
    [ $rc -eq 0 ] && grep -q "^ann_b	ann_c	observed agreement	3	" "$D/ro.out" &&
        [ "$(grep -c "could not be finished" "$D/ro.err")" -eq 1 ] && state "$J" && [ "$state_" = mixed ]
    ok $? "a reader who cannot finish the import reads its copies: every journal new (exit $rc), said once"
else
    ok 0 "# SKIP $why_not"
fi

# a marker damaged after the commit point (its end line lost): the next import neither deletes
# the committed copies nor writes over the marker; it stops, saying so
J="$D/k5dmg"
fresh "$J"
RETRIAGE_IMPORT_FAULT=kill:5 "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2>&1
head -n 2 "$J/.import.txn" > "$D/marker" && cat "$D/marker" > "$J/.import.txn"
"$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2> "$D/err"
rc=$?
state "$J"
[ $rc -eq 2 ] && [ "$(ls -a "$J" | grep -c '\.jsonl\.import-')" -eq 3 ] && [ "$state_" = old ] &&
    cmp -s "$J/.import.txn" "$D/marker" && has_text "import.txn" "$D/err"
ok $? "an import over a damaged marker stops (exit $rc): the committed copies and the marker kept"
rm -f "$J/.import.txn"
ln -s "$D/marker" "$J/.import.txn"
reopen "$J"
has_text "import.txn: not an import's marker" "$D/reopen.err"
ok $? "a marker that is a symbolic link is said not to be one (the import above would stop on it)"

# a damaged marker (a NUL byte inside a line) opens without a crash, says so, and changes no
# journal
J="$D/badmarker"
fresh "$J"
printf 'retriage-jtxn 1\n.x\0y\tann_a.jsonl\t1\t2\t3\nend\n' > "$J/.import.txn"
reopen "$J"
rc=$?
state "$J"
[ $rc -lt 128 ] && [ "$state_" = old ] && has_text "not an import's marker" "$D/reopen.err"
ok $? "a marker with a NUL byte: no crash (exit $rc), called not an import's marker, every journal as it was"

# two imports at once into one folder: the second is told, nothing half done
if command -v flock > /dev/null; then
    J="$D/lock"
    fresh "$J"
    command exec 9> "$J/.import.lock"   # (command: a failure is the test's, not the end of the script)
    flock -n 9
        "$RETRIAGE" import $WS --journal-dir "$J" --judgments "$D/second.tsv" > /dev/null 2> "$D/err"
    rc=$?
    exec 9>&-
    state "$J"
    [ $rc -eq 2 ] && has_text "another import into this folder is running" "$D/err" && [ "$state_" = old ]
    ok $? "an import while another holds the folder's import lock is refused, nothing changed"
else
    ok 0 "# SKIP flock is not installed"
fi

done_testing
