#!/usr/bin/env bash
# team_ui.sh — the team in the workbench, driven by scripts as a person would: the disagreement
# queue and one-key adjudication (adopt, own grade, undo), the agreement view, the team's metrics,
# another annotator's appends picked up live (two processes), and packages judged and reviewed;
# then the CLI views of the same (export --team, review-report).
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
J="$D/j"
printf 'q1\tfirst query\nq2\tsecond query\n' > "$D/queries.tsv"
printf 'q1 0 p1 1\nq2 0 p3 0\n' > "$D/qrels"
printf 'q1 Q0 p1 1 2 r\nq1 Q0 p2 2 1 r\nq2 Q0 p3 1 2 r\nq2 Q0 p4 2 1 r\n' > "$D/run"
printf 'p1\tthe first passage\np2\tthe second passage\np3\tthe third passage\np4\tthe fourth passage\n' > "$D/coll.tsv"
WS=(--queries "$D/queries.tsv" --collection "$D/coll.tsv" --qrels "$D/qrels" --run "$D/run" --journal-dir "$J")
ui() {  # ui ANNOTATOR SCRIPT-TEXT: runs the workbench headless, echoing status messages to $D/echo
    printf '%b' "$2" > "$D/script"
    "$RETRIAGE" "${WS[@]}" --annotator "$1" --script "$D/script" --size 120x30 --echo > "$D/echo" 2> "$D/uierr"
}

printf 'annotator\tqid\tpid\tgrade\n' > "$D/j.tsv"
printf 'alice\tq1\tp1\t1\nalice\tq1\tp2\t0\nalice\tq2\tp3\t1\nalice\tq2\tp4\t0\n' >> "$D/j.tsv"
printf 'bob\tq1\tp1\t1\nbob\tq1\tp2\t1\nbob\tq2\tp3\t1\nbob\tq2\tp4\t0\n' >> "$D/j.tsv"
"$RETRIAGE" import "${WS[@]}" --judgments "$D/j.tsv" 2> /dev/null
ok $? "two annotators' judgments imported"

# the queue: one pair differs (q1 p2: alice 0, bob 1)
ui lead 'Q\n:snapshot '"$D"'/q1\n1\n:snapshot '"$D"'/q2\nu\n:snapshot '"$D"'/q3\n+\n:snapshot '"$D"'/q4\nA\n:snapshot '"$D"'/a1\nm\n:snapshot '"$D"'/m1\n'
ok $? "the workbench runs the team script"
grep -q "disagreements: resolved 0 / 1" "$D/q1" && grep -q "^! q1  *p2  *g  *0  *1 " "$D/q1"
report_ui() { ok "$1" "$2"; [ "$1" -eq 0 ] || { diag < "$3"; diag < "$D/uierr"; }; }
report_ui $? "Q: the one disputed pair, each annotator's decision beside it" "$D/q1"
grep -q "disagreements: resolved 1 / 1" "$D/q2" && grep -q "q1  *p2 .* lead" "$D/q2"
report_ui $? "1 adopts alice's decision: resolved, adjudicated by lead" "$D/q2"
grep -q '"op":"adjudicate","qid":"q1","pid":"p2","grade":0,"cats":null,"settles":\["alice:2","bob:2"\]' "$J/lead.jsonl"
report_ui $? "the adjudication is lead's operation and names the decisions it settles" "$J/lead.jsonl"
grep -q "disagreements: resolved 0 / 1" "$D/q3" && grep -q "undone: q1 p2: adjudication withdrawn" "$D/echo"
report_ui $? "u undoes it like any operation" "$D/q3"
grep -q "disagreements: resolved 1 / 1" "$D/q4" && grep -q "q1 p2 adjudicated: grade 1" "$D/echo"
report_ui $? "+ sets lead's own grade" "$D/q4"
grep -q "alice / bob  *4  *0.7500  *0.5000" "$D/a1"
report_ui $? "A: agreement of alice and bob, kappa 0.5 (lead, who only adjudicated, is left out)" "$D/a1"
grep -q "Team: 3 pairs agreed, 1 adjudicated; 0 of 1 disagreements unresolved" "$D/m1"
report_ui $? "the metrics panel shows the team's qrels" "$D/m1"

# issue 34: each view of pairs keeps its own cursor (its state, not a shared one): the grep hits'
# third row stays focused while judging moves its own; x on a queue that shows no pair says so
ui lead ':grep passage\nj\nj\n:judge\nj\n:snapshot '"$D"'/pl1\nq\n<Enter>\n:snapshot '"$D"'/pl2\nQ\n:disputes unresolved\nx\n:snapshot '"$D"'/pl3\n'
grep -q "^q2  second query" "$D/pl1" && grep -q "^passage p3 " "$D/pl2" && grep -q "No pair here" "$D/pl3" &&
    grep -q "^every disagreement shown is resolved$" "$D/echo"
report_ui $? "grep, judging, disputes: a cursor each (Enter after judging opens grep's third hit, q2 p3); x on an empty queue" "$D/pl2"

# issue 33: adjudicate, withdraw, adjudicate another pair, adjudicate again — the decisions once
# pointed into carol's moving array of adjudications and "pairs agreed" wrapped to 2^64 - 1
J2="$D/j2"
W2=(--queries "$D/queries.tsv" --collection "$D/coll.tsv" --qrels "$D/qrels" --run "$D/run" --journal-dir "$J2")
printf ':label q1 p2 1\n:label q1 p3 1\n:tag q1 p4 entity\n' > "$D/s2"
"$RETRIAGE" "${W2[@]}" --annotator alice --script "$D/s2" > /dev/null 2> "$D/uierr"
printf ':label q1 p2 0\n:label q1 p3 0\n:tag q1 p4 numeral\n' > "$D/s2"
"$RETRIAGE" "${W2[@]}" --annotator bob --script "$D/s2" > /dev/null 2>> "$D/uierr"
printf ':adjudicate q1 p2 1\n:adjudicate q1 p3 1\n:adjudicate q1 p2 withdraw\n:adjudicate q1 p4 alice\n:adjudicate q1 p3 0\nm\n:snapshot %s/m2\n' "$D" > "$D/s2"
"$RETRIAGE" "${W2[@]}" --annotator carol --script "$D/s2" --size 160x30 > /dev/null 2>> "$D/uierr"
grep -q "Team: 0 pairs agreed, 1 adjudicated; 1 of 3 disagreements unresolved" "$D/m2" && ! grep -q 18446744073709551615 "$D/m2"
report_ui $? "adjudications withdrawn and made again: the panel's counts are those of the team's decisions" "$D/m2"

# issue 33: the agreement view held every pair of annotators (1000: 250 MB); now the overall
# figures, and each pair's row when it is first on the screen. 300 annotators: 44850 pairs.
mkdir -p "$D/many"
awk -v dir="$D/many" 'BEGIN { for (a = 0; a < 300; a++) { f = sprintf("%s/a%03d.jsonl", dir, a)
    printf "{\"seq\":1,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"a%03d\",\"op\":\"label\",\"qid\":\"q1\",\"pid\":\"p2\",\"grade\":%d}\n", a, a % 2 > f
    printf "{\"seq\":2,\"time\":\"2026-11-26T00:00:00.000Z\",\"author\":\"a%03d\",\"op\":\"label\",\"qid\":\"q2\",\"pid\":\"p4\",\"grade\":%d}\n", a, int(a / 3) % 2 >> f
    close(f) } }'
printf 'A\n:snapshot %s/am1\nG\n:snapshot %s/am2\n' "$D" "$D" > "$D/s3"
timeout 120 "$RETRIAGE" --queries "$D/queries.tsv" --collection "$D/coll.tsv" --qrels "$D/qrels" --run "$D/run" \
    --journal-dir "$D/many" --annotator lead --script "$D/s3" --size 120x30 > /dev/null 2>> "$D/uierr"
grep -q "^a000 / a001  *2  *0.5000 " "$D/am1" && grep -q "^a298 / a299  *2  *0.5000 " "$D/am2" &&
    grep -q "^a297 / a299 " "$D/am2" && grep -q "Fleiss' kappa" "$D/am1"
report_ui $? "A with 300 annotators: the first pair's row, and after G the last ones, each worked out when shown" "$D/am2"

# export --team: the adjudicated grade, the disputes list
"$RETRIAGE" export "${WS[@]}" --team --what qrels > "$D/tq" 2> "$D/terr"
grep -q "^q1 0 p2 1$" "$D/tq" && grep -q "^q2 0 p3 1$" "$D/tq" && grep -q "1 of them unresolved\|0 of them unresolved" "$D/terr"
report_ui $? "export --team --what qrels: adjudicated and agreed grades" "$D/terr"
"$RETRIAGE" export "${WS[@]}" --team --what disputes > "$D/td" 2> /dev/null
grep -q "^q1	p2	grade	0	1	-	lead	resolved$" "$D/td"
report_ui $? "export --team --what disputes: the pair, each decision, who adjudicated, resolved" "$D/td"

# a second adjudicator, later: the later stands, and the load report says so
clock_ms
wait_for 5 "the clock to pass a millisecond" clock_past "$ms_"   # chief's is the later
ui chief ':adjudicate q1 p2 alice\n'
"$RETRIAGE" export "${WS[@]}" --team --what qrels > "$D/tq2" 2> "$D/terr2"
grep -q "^q1 0 p2 0$" "$D/tq2" && grep -q "q1 p2 was adjudicated by 2 annotators; chief's, the latest" "$D/terr2"
report_ui $? "two adjudications of one pair: the later (chief's) stands, and it is reported" "$D/terr2"

# the breakdown of the team's categories: both tag q2 p4 entity (the same: the team's), q1 p2 apart
printf 'annotator\tqid\tpid\tcategory\nalice\tq2\tp4\tentity\nbob\tq2\tp4\tentity\nalice\tq1\tp2\ttypo\n' > "$D/t.tsv"
"$RETRIAGE" import "${WS[@]}" --tags "$D/t.tsv" 2> /dev/null
ui lead 'b\n:snapshot '"$D"'/b1\n:breakdown team\n:snapshot '"$D"'/b2\n'
grep -q "^0 tagged items" "$D/b1" && grep -q "^the team's categories: 2 tagged items" "$D/b2" &&
    grep -q "entity mismatch  *1 " "$D/b2"
report_ui $? ":breakdown team counts the team's categories (lead tagged nothing himself)" "$D/b2"
"$RETRIAGE" export "${WS[@]}" --team --what tags > "$D/tt" 2> /dev/null
[ "$(grep -c "	entity	" "$D/tt")" -eq 1 ] && grep -q "^q1	p2	.*typo	" "$D/tt" && grep -q "	team	" "$D/tt"
report_ui $? "export --team --what tags: the agreed category once, a lone tagger's category as the team's" "$D/tt"

# live: bob appends while lead's workbench runs; the queue shows it without a restart. (lead's
# script is a FIFO: its lines are written as the test goes, each after the event it waits for.)
rm -f "$D/live.fifo"; mkfifo "$D/live.fifo"
"$RETRIAGE" "${WS[@]}" --annotator lead --script "$D/live.fifo" --size 120x30 --echo > "$D/live.echo" 2>&1 &
pid=$!
exec 4> "$D/live.fifo"
printf 'Q\n:snapshot %s/live1\n' "$D" >&4
wait_for 30 "lead's first snapshot" test -s "$D/live1"
# bob appends through his own workbench: relabel q2 p4 (alice said 0)
printf ':label q2 p4 1\n' > "$D/bob.txt"
"$RETRIAGE" "${WS[@]}" --annotator bob --script "$D/bob.txt" > /dev/null 2>&1
# (bob's process has ended, so his line is on disk: :sleep 0 takes it in and draws, no time passes)
printf ':sleep 0\n:snapshot %s/live2\n' "$D" >&4
exec 4>&-
wait $pid
grep -q "disagreements: resolved 1 / 1" "$D/live1" && grep -q "disagreements: resolved 1 / 2" "$D/live2" &&
    grep -q "team: new operations picked up (bob +1)" "$D/live.echo"
report_ui $? "another process's append shows in the queue at the next line, and the status line says whose" "$D/live2"

# packages: lead makes one for alice; alice judges; rev1 reviews; it goes back; alice sees it first
ui lead ':package alice size 10 sample 2 seed 3\n'
grep -q "1 packages of 4 pairs for 1 annotators saved" "$D/echo"; report_ui $? ":package saves a package" "$D/echo"
ui chief ':package bob size 10\n'
cat "$D/echo" "$D/uierr" | grep -q "a package named pkg-001 exists already in lead's journal" && ! grep -q '"op":"package"' "$J/chief.jsonl"
report_ui $? ":package refuses a name another's journal has (it would hide lead's)" "$D/echo"
ui alice 'P\n:snapshot '"$D"'/p1\n<Enter>\n+\n-\n+\n-\n:snapshot '"$D"'/p2\n'
grep -q "^\* pkg-001 *alice *4/4 *in review" "$D/p1" && grep -q "you judged 4/4" "$D/p2"
report_ui $? "P lists alice's package (judged already by her import: in review); Enter opens it; + and - judge" "$D/p1"
# each key judged the pair in focus as her import had: said, nothing written, and on to the next
[ "$(grep -c 'already labelled .: nothing to change' "$D/echo")" = 4 ] && [ "$(grep -c '"op":"label"' "$J/alice.jsonl")" = 4 ]
report_ui $? "+ and - on pairs already so judged: said, no line written, each key goes on to the next pair" "$D/echo"
ui rev1 'P\nR\n:snapshot '"$D"'/r1\nc\nw\n:snapshot '"$D"'/r2\n'
grep -q "review of pkg-001 by alice | you: 0/2" "$D/r1" && grep -q "you: 2/2 reviewed, 1 correct" "$D/r2"
report_ui $? "R opens the review sample; c and w mark the pairs" "$D/r2"
"$RETRIAGE" review-report "${WS[@]}" --reviewers 1 > "$D/rr" 2> /dev/null
grep -q "^pkg-001	alice	4	4	2	1	rev1 0.5000 (1/2)	0.5	revise$" "$D/rr"
report_ui $? "review-report: rev1's accuracy 0.5 on the sample, below 0.93: revise" "$D/rr"
ui alice 'P\n<Enter>\n:snapshot '"$D"'/p3\n'
sed -n 4p "$D/p3" | grep -q "^+ wrong q1  *first query  *p1 "
report_ui $? "back to alice: the pair the reviewer marked wrong comes first" "$D/p3"
# alice revises the pair marked wrong: rev1's mark on it no longer holds (stale, to do again)
ui alice ':label q1 p1 0\n'
ui rev1 ':review pkg-001\n:snapshot '"$D"'/r3\n'
grep -q "you: 1/2 reviewed, 1 correct" "$D/r3" && grep -q "^stale  *0  *q1  *first query  *p1 " "$D/r3"
report_ui $? "alice changes a reviewed decision: the reviewer sees that mark stale, the pair to review again" "$D/r3"
"$RETRIAGE" review-report "${WS[@]}" --reviewers 1 > "$D/rr2" 2> /dev/null
grep -q "^pkg-001	alice	4	4	2	1	rev1 1.0000 (1/1)	.*	in review$" "$D/rr2"
report_ui $? "review-report: the stale mark counts for nothing: in review again" "$D/rr2"
ui lead ':package carol size 10 sample 2 seed 9 prefix cz\n'
ui rev1 ':review cz-001\nc\n'
grep -q "carol has not judged this pair yet: a review checks a decision" "$D/echo" "$D/uierr" &&
    ! grep -q '"name":"cz-001"' "$J/rev1.jsonl"
report_ui $? "a pair the annotator has not judged cannot be reviewed" "$D/echo"

# live, with one journal gone bad: alice's replaced by something that is not a journal while
# lead's workbench waits; the error is said, and bob's change still reaches the queue
LWS=(--queries "$D/queries.tsv" --collection "$D/coll.tsv" --qrels "$D/qrels" --run "$D/run" --journal-dir "$D/lj")
printf 'annotator\tqid\tpid\tgrade\nalice\tq1\tp2\t0\nbob\tq1\tp2\t1\n' > "$D/lj.tsv"
"$RETRIAGE" import "${LWS[@]}" --judgments "$D/lj.tsv" 2> /dev/null
rm -f "$D/bad.fifo"; mkfifo "$D/bad.fifo"
"$RETRIAGE" "${LWS[@]}" --annotator lead --script "$D/bad.fifo" --size 120x30 --echo > "$D/bad.echo" 2>&1 &
pid=$!
exec 4> "$D/bad.fifo"
printf 'Q\n:snapshot %s/bad1\n' "$D" >&4
wait_for 30 "lead's first snapshot" test -s "$D/bad1"
printf '{"not":"a journal"}\n' > "$D/lj/new" && mv "$D/lj/new" "$D/lj/alice.jsonl"
printf ':label q1 p2 0\n' > "$D/bob.txt"
"$RETRIAGE" "${LWS[@]}" --annotator bob --script "$D/bob.txt" > /dev/null 2>&1
printf ':sleep 0\n:snapshot %s/bad2\n' "$D" >&4
exec 4>&-
wait $pid
grep -q "disagreements: resolved 0 / 1" "$D/bad1" && grep -q "disagreements: resolved 0 / 0" "$D/bad2" &&
    grep -q "alice.jsonl:1: not a retriage journal" "$D/bad.echo"
report_ui $? "a journal gone bad is reported, and the other annotators' changes still arrive" "$D/bad2"

# an adjudication names the decisions it settles in full, however long the annotators' names
N1=$(printf '标注员%.0s' $(seq 12))甲 N2=$(printf '标注员%.0s' $(seq 12))乙   # 111 bytes each
NWS=(--queries "$D/queries.tsv" --collection "$D/coll.tsv" --qrels "$D/qrels" --run "$D/run" --journal-dir "$D/nj")
printf 'annotator\tqid\tpid\tgrade\n%s\tq1\tp2\t0\n%s\tq1\tp2\t1\n' "$N1" "$N2" > "$D/nj.tsv"
"$RETRIAGE" import "${NWS[@]}" --judgments "$D/nj.tsv" 2> /dev/null
printf 'Q\n2\n' > "$D/long.txt"   # 1 is lead (ASCII sorts first)
"$RETRIAGE" "${NWS[@]}" --annotator lead --script "$D/long.txt" --size 120x30 > /dev/null 2>&1
grep -q "\"settles\":\[\"$N2:1\",\"$N1:1\"\]" "$D/nj/lead.jsonl"   # by name: 乙 (U+4E59) before 甲
report_ui $? "long names: the adjudication's settles hold each whole name and sequence number" "$D/nj/lead.jsonl"
printf ':disputes %s %s\n:snapshot %s/ln1\n:adjudicate q1 p2 %s\n' "$N1" "$N2" "$D" "$N1" > "$D/long2.txt"
"$RETRIAGE" "${NWS[@]}" --annotator chief --script "$D/long2.txt" --size 120x30 --echo > "$D/long2.echo" 2>&1
grep -q "disagreements: resolved 1 / 1 | shown 1" "$D/ln1" && grep -q '"op":"adjudicate","qid":"q1","pid":"p2","grade":0' "$D/nj/chief.jsonl"
report_ui $? ":disputes and :adjudicate take annotators' names past 63 bytes" "$D/long2.echo"
# undoing a package while P shows it: the list follows (the report pointed into the package array
# the undo frees: a use-after-free that showed the undone package)
ui lead ':package alice,bob size 10 sample 1 seed 3 prefix un\nP\n:snapshot '"$D"'/pu1\nu\n:snapshot '"$D"'/pu2\n:redo\n:snapshot '"$D"'/pu3\n'
grep -q "^  un-001 " "$D/pu1" && grep -q "^2 packages" "$D/pu2" && ! grep -q "un-001" "$D/pu2" && grep -q "^  un-001 " "$D/pu3" && ! grep -q "AddressSanitizer" "$D/uierr"
report_ui $? "P after u: the undone package is gone from the list, back after :redo" "$D/pu2"
# :package with a 300-byte prefix and names of 111 bytes; P shows them by columns, cut at a character
PFX=$(printf 'p%.0s' $(seq 300))
printf ':package %s,%s size 1 sample 1 seed 5 prefix %s\nP\n:snapshot %s/lp1\n' "$N1" "$N2" "$PFX" "$D" > "$D/long3.txt"
"$RETRIAGE" "${NWS[@]}" --annotator chief --script "$D/long3.txt" --size 120x30 --echo > "$D/long3.echo" 2>&1
grep -q "packages of .* pairs for 2 annotators saved" "$D/long3.echo" &&
    grep -q "^  pppppppppppp 标注员标注员标  *0/[0-9]  *judging" "$D/lp1"
report_ui $? ":package takes a 300-byte prefix; P lines 111-byte Chinese names up by columns" "$D/lp1"
printf 'P\n<Enter>\n:snapshot %s/lp2\n' "$D" > "$D/long4.txt"
"$RETRIAGE" "${NWS[@]}" --annotator "$N1" --script "$D/long4.txt" --size 120x30 --echo > "$D/long4.echo" 2>&1
grep -q "^package ppppppppppppppppppppppppppppppppppppppppppppppppp" "$D/lp2" && ! grep -q "no package named" "$D/long4.echo"
report_ui $? "Enter opens a package whose name is 304 bytes long" "$D/lp2"

done_testing
