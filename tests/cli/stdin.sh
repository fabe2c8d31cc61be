#!/bin/sh
# stdin.sh — '-' reads standard input once (issue 35, item 11): qrels from a pipe gave "no
# judgments found" (format detection read the pipe to its end, then the loader read it again).
# Each command that takes '-' for qrels, a run, a DBQA file or its score files prints what the
# file form prints; '-' named twice is refused (a pipe can be read once). eval --dbqa takes
# NAME=SCORES as eval takes NAME=RUN.
# shellcheck disable=SC2086 # ($X is split where used)
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
Q=$DEMO/qrels.trec R1=$DEMO/runs/bm25.trec R2=$DEMO/runs/dense.trec

same() {  # same NAME: the pipe form's output ($D/pipe.out) is the file form's ($D/file.out), not empty
    st=0
    cmp -s "$D/file.out" "$D/pipe.out" && [ -s "$D/file.out" ] || st=1
    report $st "$1" "$D/file.out" "$D/pipe.out" "$D/pipe.err"
}
# file FORM…, pipe FILE FORM…: the command's output and status in $D/file.* / $D/pipe.*
file() { "$RETRIAGE" "$@" > "$D/file.out" 2> "$D/file.err"; echo $? > "$D/file.rc"; }
pipe() { in_=$1; shift; "$RETRIAGE" "$@" < "$in_" > "$D/pipe.out" 2> "$D/pipe.err"; echo $? > "$D/pipe.rc"; }
rcs() { [ "$(cat "$D/file.rc")" = 0 ] && [ "$(cat "$D/pipe.rc")" = 0 ]; }

# ---- eval: the qrels from standard input ------------------------------------------------------
file eval -q "$Q" "$R1" "$R2"; cat "$Q" | "$RETRIAGE" eval -q - "$R1" "$R2" > "$D/pipe.out" 2> "$D/pipe.err"
echo $? > "$D/pipe.rc"
rcs; ok $? "cat qrels | eval - RUN RUN: exit 0"
same "cat qrels | eval -q - RUN RUN prints what eval -q QRELS RUN RUN prints"
awk '{ print $1 "\t" $3 "\t" $4 }' "$Q" > "$D/q.tsv"
awk '$4 > 0 { a[$1] = a[$1] (a[$1] ? "," : "") "{\"paragraph_id\":\"" $3 "\"}" }
     END { for (q in a) print "{\"question_id\":\"" q "\",\"answer_paragraphs\":[" a[q] "]}" }' "$Q" > "$D/q.jsonl"
for f in q.tsv q.jsonl; do
    file eval -q --format json "$D/$f" "$R1"; pipe "$D/$f" eval -q --format json - "$R1"
    rcs; ok $? "$f from standard input: exit 0"
    same "$f from standard input: the same output as the file"
done
gzip -c "$Q" > "$D/q.gz"
file eval "$Q" "$R1"; pipe "$D/q.gz" eval - "$R1"
same "gzip-compressed qrels from standard input"
# more lines than format detection looks at (10000): the lines it read and the rest, each once
awk '{ print } END { for (i = 0; i < 12000; i++) print "x" i " 0 p" i " 1" }' "$Q" > "$D/big.qrels"
file eval -q "$D/big.qrels" "$R1"; pipe "$D/big.qrels" eval -q - "$R1"
rcs; ok $? "12138 qrels lines from standard input: exit 0"
same "12138 qrels lines from standard input: the same output as the file"
{ cat "$D/big.qrels"; echo "x 0 p"; } > "$D/bad.qrels"
pipe "$D/bad.qrels" eval - "$R1"
[ "$(cat "$D/pipe.rc")" = 2 ] && grep -q '^retriage: -:12139: expected 4 columns' "$D/pipe.err"
report $? "a bad line past detection is named by its line (-:12139)" "$D/pipe.err"
printf 'q01 0 p1 1\nq01 0 p2 x\n' > "$D/bad2.qrels"
pipe "$D/bad2.qrels" eval - "$R1"
[ "$(cat "$D/pipe.rc")" = 2 ] && grep -q '^retriage: -:2: expected an integer relevance grade' "$D/pipe.err"
report $? "a bad line among those detection read is named by its line (-:2)" "$D/pipe.err"
pipe /dev/null eval - "$R1"
[ "$(cat "$D/pipe.rc")" = 2 ] && grep -q 'no judgments found (empty qrels file)' "$D/pipe.err"
report $? "an empty standard input is still an empty qrels file" "$D/pipe.err"

# ---- eval: a run from standard input, the qrels a file ----------------------------------------
file eval -q "$Q" "$R1" "$R2"; pipe "$R2" eval -q "$Q" "$R1" -
same "cat run | eval QRELS RUN -: the same output as the file"
file eval "$Q" best="$R1"; pipe "$R1" eval "$Q" best=-
same "NAME=- names a run from standard input as NAME=FILE does"
awk '{ print $1 "\t" $3 "\t" $4 }' "$R1" > "$D/bm25.tsv"
file eval "$Q" bm25="$D/bm25.tsv"; pipe "$D/bm25.tsv" eval "$Q" bm25=-
same "a TSV run from standard input"

# ---- '-' twice: refused, naming both ---------------------------------------------------------
CLI_CMD=eval fails 1 "'-' (standard input) is given as both QRELS and RUN" "eval - - is refused (exit 1)" - - < /dev/null
CLI_CMD=eval fails 1 "is given as RUN twice" "eval QRELS - - is refused" "$Q" - a=- < /dev/null
CLI_CMD=pool fails 1 "both --qrels and RUN" "pool --qrels - - is refused" --depth 3 --qrels - - < /dev/null
CLI_CMD=compare fails 1 "both QRELS and RUN" "compare - - RUN is refused" - - "$R2" < /dev/null
CLI_CMD=export fails 1 "both --qrels and --run" "export --qrels - --run - is refused" \
    --what metrics --qrels - --run - --journal-dir "$D/j" < /dev/null

# ---- the other commands that take qrels or runs from standard input --------------------------
file pool --depth 5 --format tsv --qrels "$Q" "$R1" "$R2"; pipe "$Q" pool --depth 5 --format tsv --qrels - "$R1" "$R2"
same "pool --qrels -: the same pool as with the file"
file pool --depth 5 --qrels "$Q" "$R1" "$R2"; pipe "$R2" pool --depth 5 --qrels "$Q" "$R1" -
same "pool with a run from standard input"
file compare -m RR@10 "$Q" "$R1" "$R2"; pipe "$Q" compare -m RR@10 - "$R1" "$R2"
same "compare - RUN RUN: the same table as with the file"
X="--queries $DEMO/queries.tsv --what metrics --no-cache --journal-dir $D/j"
file export $X --qrels "$Q" --run "$R1"; pipe "$Q" export $X --qrels - --run "$R1"
same "export --qrels - (a workspace by flags): the same metrics as with the file"
file export $X --qrels "$Q" --run "$R1"; pipe "$R1" export $X --qrels "$Q" --run -
same "export --run -: the same metrics as with the file"

# ---- eval --dbqa: NAME=SCORES, and standard input -------------------------------------------
printf '北京的首都是哪里\t北京是中国的首都\t1\n北京的首都是哪里\t上海是一个城市\t0\n长江有多长\t长江全长约6300千米\t1\n长江有多长\t黄河是第二长河\t0\n长江有多长\t长江很长\t1\n' > "$D/t.dbqa"
printf '0.5\n0.9\n0.1\n0.3\n0.2\n' > "$D/sys1.score"
printf '1\n0\n0.2\n0.1\n0.3\n' > "$D/sys2.score"
CLI_CMD=eval run --dbqa "$D/t.dbqa" bert="$D/sys1.score" bm25="$D/sys2.score"
[ "$rc" -eq 0 ] && [ "$(cut -f1 "$D/out" | sort -u | tr '\n' ' ')" = "bert bm25 " ]
report $? "eval --dbqa F NAME=SCORES: the runs are named NAME (was: cannot open)"
file eval -q --dbqa "$D/t.dbqa" "$D/sys1.score" "$D/sys2.score"
"$RETRIAGE" eval -q --dbqa "$D/t.dbqa" sys1="$D/sys1.score" "$D/sys2.score" > "$D/pipe.out" 2> "$D/pipe.err"
same "NAME=SCORES gives the values SCORES gives"
file eval -q --dbqa "$D/t.dbqa" s="$D/sys1.score"; pipe "$D/sys1.score" eval -q --dbqa "$D/t.dbqa" s=-
same "scores from standard input (s=-) as from the file"
file eval -q --dbqa "$D/t.dbqa" "$D/sys1.score"; pipe "$D/t.dbqa" eval -q --dbqa - "$D/sys1.score"
same "the DBQA file from standard input (--dbqa -) as from the file"
CLI_CMD=eval fails 1 "both --dbqa FILE and SCORES" "eval --dbqa - - is refused" --dbqa - - < /dev/null
done_testing
