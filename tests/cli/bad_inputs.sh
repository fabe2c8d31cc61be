#!/bin/sh
# bad_inputs — `retriage eval` on malformed qrels and runs (DESIGN §4): each fails with exit 2 and a
# message naming file:line, or loads to the same values as the clean file where §4 says it must
# (BOM, CRLF, no final newline); usage errors exit 1; nothing crashes or half-prints.
. "$SRCDIR/tests/lib.sh"

D=$TMPD
M=RR@10,AP,nDCG@10,P@2,R@1

# loads NAME WANT WARN ARGS... — exit 0 and the per-query values of file WANT (run name cut off);
# stderr empty when WARN is "", else containing WARN
loads() {
    name=$1 want=$2 warn=$3
    shift 3
    run eval -q -m "$M" "$@"
    st=0
    [ "$rc" -eq 0 ] || st=1
    crashed && st=1
    cut -f2- "$D/out" | cmp -s - "$want" || st=1
    if [ -z "$warn" ]; then
        [ -s "$D/err" ] && st=1
    else
        grep -Fq -- "$warn" "$D/err" || st=1
    fi
    report $st "$name"
    [ $st -eq 0 ] || cut -f2- "$D/out" | diff "$want" - | diag
}

# ---- the clean data, in each format ----------------------------------------------------------
printf '1 0 a 1\n1 0 b 0\n2 0 c 2\n' >"$D/q"
printf '1\ta\t1\n1\tb\t0\n2\tc\t2\n' >"$D/q.tsv"
printf '{"question_id": "1", "answer_paragraphs": [{"paragraph_id": "a"}]}\n{"question_id": "2", "answer_paragraphs": [{"paragraph_id": "c"}]}\n' >"$D/q.jsonl"
printf '1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n2 Q0 d 1 0.9 t\n2 Q0 c 2 0.8 t\n' >"$D/r"
printf '1\ta\t1\t0.5\n1\tb\t2\t0.4\n2\td\t1\t0.9\n2\tc\t2\t0.8\n' >"$D/r.tsv"
printf '{"1": ["a", "b"],\n "2": ["d", "c"]}\n' >"$D/r.json"

run eval -q -m "$M" "$D/q" "$D/r"
cut -f2- "$D/out" >"$D/want"
grep -q '^RR@10	all	0.75$' "$D/want"
report $? "the clean files evaluate (RR@10 0.75)"
# The binary-graded forms (JSONL) differ in nDCG only; compare them with a binary TREC qrels.
printf '1 0 a 1\n1 0 b 0\n2 0 c 1\n' >"$D/qb"
run eval -q -m "$M" "$D/qb" "$D/r"
cut -f2- "$D/out" >"$D/want_b"

# ---- files that are not there or not files ---------------------------------------------------
: >"$D/empty"
printf '# only a comment\n\n   \n' >"$D/blank"
mkdir "$D/dir"
for f in missing dir empty blank; do
    what="a file named $f"
    fails 2 "$D/$f" "qrels: $what is an input error naming it" eval "$D/$f" "$D/r"
    fails 2 "$D/$f" "run: $what is an input error naming it" eval "$D/q" "$D/$f"
done

# ---- malformed lines: qrels ------------------------------------------------------------------
bq() {  # bq NAME LINE CONTENT — a qrels file NAME whose line LINE is at fault: exit 2, NAME:LINE
    # shellcheck disable=SC2059 # the content is a printf format: its escapes are the bad bytes
    printf "$3" >"$D/$1"
    fails 2 "$D/$1:$2: " "qrels $1: error names line $2" eval "$D/$1" "$D/r"
}
bq q_trunc 2 '1 0 a 1\n1 0 b'
# A TSV qrels cut after the pid: the first line fixes the column count (as for TSV runs), so
# the short last line is an error, not a 2-column judgment with grade 1.
printf '1\ta\t1\n1\tb' >"$D/q_trunc_tsv"
run eval "$D/q_trunc_tsv" "$D/r"
[ "$rc" -eq 2 ] && ! crashed && grep -Fq "$D/q_trunc_tsv:2: " "$D/err"
report $? "qrels q_trunc_tsv: error names line 2"
bq q_trunc_jsonl 2 '{"question_id": "1", "answer_paragraphs": [{"paragraph_id": "a"}]}\n{"question_id": "2", "answer_par'
bq q_cols3 2 '1 0 a 1\n1 0 b\n2 0 c 2\n'
bq q_cols5 2 '1 0 a 1\n1 0 b 0 9\n2 0 c 2\n'
bq q_cols_tsv 2 '1\ta\t1\n1\tb\t0\tx\n'
bq q_cols_first 1 '1 0 a 1 x y\n'
bq q_grade 2 '1 0 a 1\n1 0 b x\n'
bq q_grade_tsv 2 '1\ta\t1\n1\tb\tyes\n'
bq q_grade_float 2 '1 0 a 1\n1 0 b 1.0\n'
bq q_grade_big 2 '1 0 a 1\n1 0 b 99999999999\n'
bq q_grade_inf 2 '1 0 a 1\n1 0 b inf\n'
bq q_utf8_pid 2 '1 0 a 1\n1 0 b\303 0\n'
bq q_utf8_qid 2 '1 0 a 1\n\355\240\200 0 b 0\n'
bq q_utf8_tsv 2 '1\ta\t1\n1\t\377\t0\n'
bq q_ctl_pid 2 '1 0 a 1\n1 0 b\033[1m 0\n'
bq q_ctl_qid 2 '1 0 a 1\n1\177 0 b 0\n'
bq q_nul 2 '1 0 a 1\n1 0 b\000c 0\n'
bq q_empty_id 2 '1\ta\t1\n\tb\t1\n'
bq q_jsonl_bad 2 '{"question_id": "1", "answer_paragraphs": [{"paragraph_id": "a"}]}\n{"question_id": "2", "answer_paragraphs": [{"paragraph_id": "c"},]}\n'
bq q_jsonl_noarray 2 '{"question_id": "1", "answer_paragraphs": [{"paragraph_id": "a"}]}\n{"question_id": "2", "answer_paragraphs": {"paragraph_id": "c"}}\n'
bq q_jsonl_noqid 2 '{"question_id": "1", "answer_paragraphs": [{"paragraph_id": "a"}]}\n{"answer_paragraphs": [{"paragraph_id": "c"}]}\n'

# ---- malformed lines: runs -------------------------------------------------------------------
br() {  # br NAME LINE CONTENT — a run file NAME whose line LINE is at fault: exit 2, NAME:LINE
    # shellcheck disable=SC2059 # the content is a printf format: its escapes are the bad bytes
    printf "$3" >"$D/$1"
    fails 2 "$D/$1:$2: " "run $1: error names line $2" eval "$D/q" "$D/$1"
}
br r_trunc 2 '1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4'
br r_trunc_tsv 2 '1\ta\t1\t0.5\n1\tb'
br r_trunc_json 2 '{"1": ["a", "b"],\n"2": ["d"'
br r_cols 3 '1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n2 Q0 d 1 0.9\n'
br r_cols_first 1 '1 Q0 a 1 0.5\n'
br r_cols_tsv3 2 '1\ta\t1\n1\tb\t2\t0.4\t0\n'
br r_cols_tsv4 2 '1\ta\t1\t0.5\n1\tb\t2\n'
br r_score 2 '1 Q0 a 1 0.5 t\n1 Q0 b 2 abc t\n'
br r_score_tsv 2 '1\ta\t1\t0.5\n1\tb\t2\t0.4x\n'
br r_score_empty 2 '1\ta\t1\t0.5\n1\tb\t2\t\n'
br r_rank_tsv 2 '1\ta\t1\n1\tb\tsecond\n'
for v in NaN nan inf -inf Infinity 1e999 -1e999; do
    br "r_score_$v" 2 "1 Q0 a 1 0.5 t\n1 Q0 b 2 $v t\n"
done
br r_score_tsv_inf 2 '1\ta\t1\t0.5\n1\tb\t2\tinf\n'
br r_utf8_pid 2 '1 Q0 a 1 0.5 t\n1 Q0 b\377 2 0.4 t\n'
br r_utf8_qid 2 '1 Q0 a 1 0.5 t\n\300\257 Q0 b 2 0.4 t\n'
br r_utf8_tsv 2 '1\ta\t1\n1\tb\355\240\200\t2\n'
br r_ctl_pid 2 '1 Q0 a 1 0.5 t\n1 Q0 b\001 2 0.4 t\n'
br r_ctl_qid 2 '1 Q0 a 1 0.5 t\n\0331 Q0 b 2 0.4 t\n'
br r_nul 2 '1 Q0 a 1 0.5 t\n1 Q0 b\000c 2 0.4 t\n'
br r_json_bad 3 '{\n"1": ["a", "b"],\n "2": ["d" "c"]\n}\n'
br r_json_root 1 '["a", "b"]\n'

# DuReader JSON: a value that is not an array. The error names the file, the line and the query
# (cJSON keeps no positions; the run parser walks the text alongside it to find the line).
printf '{\n"1": ["a", "b"],\n "2": "d"\n}\n' >"$D/r_json_str"
fails 2 "$D/r_json_str" "run r_json_str: a non-array value is an input error" eval "$D/q" "$D/r_json_str"
grep -Fq '"2"' "$D/err"
report $? "run r_json_str: the error names the query"
grep -Fq "$D/r_json_str:3:" "$D/err"
report $? "run r_json_str: the error names line 3"
printf '{\n"1": ["a", "b"],\n "2": ["d", "c\\u0001"]\n}\n' >"$D/r_json_ctl"
fails 2 "$D/r_json_ctl" "run r_json_ctl: a control character in a JSON pid is an input error" \
    eval "$D/q" "$D/r_json_ctl"
grep -Fq "$D/r_json_ctl:3:" "$D/err"
report $? "run r_json_ctl: the error names line 3 (not 1)"
# A duplicate pid on a later line of a JSON run: the warning names that line.
printf '{"1": ["a",\n "b",\n "a"]}\n' >"$D/r_json_dup"
run eval "$D/q" "$D/r_json_dup"
[ "$rc" -eq 0 ] && grep -Fq "$D/r_json_dup:3: 1 duplicate" "$D/err"
report $? "run r_json_dup: the duplicate warning names line 3"

# A bad second run: nothing is printed for the good first one either.
fails 2 "$D/r_score:2: " "a bad second run fails the whole command, no partial output" \
    eval "$D/q" "$D/r" "$D/r_score"

# ---- accepted variations: BOM, CRLF, no final newline -----------------------------------------
bom() { printf '\357\273\277' >"$2"; cat "$1" >>"$2"; }
crlf() { sed 's/$/\r/' "$1" >"$2"; }
nonl() { printf '%s' "$(cat "$1")" >"$2"; }
for v in bom crlf nonl; do
    $v "$D/q" "$D/q_$v"
    $v "$D/q.tsv" "$D/q_$v.tsv"
    $v "$D/q.jsonl" "$D/q_$v.jsonl"
    $v "$D/r" "$D/r_$v"
    $v "$D/r.tsv" "$D/r_$v.tsv"
    $v "$D/r.json" "$D/r_$v.json"
    loads "$v: TREC qrels loads with the same values" "$D/want" "" "$D/q_$v" "$D/r"
    loads "$v: TSV qrels loads with the same values" "$D/want" "" "$D/q_$v.tsv" "$D/r"
    loads "$v: JSONL qrels loads with the same values" "$D/want_b" "" "$D/q_$v.jsonl" "$D/r"
    loads "$v: TREC run loads with the same values" "$D/want" "" "$D/q" "$D/r_$v"
    loads "$v: TSV run loads with the same values" "$D/want" "" "$D/q" "$D/r_$v.tsv"
    loads "$v: JSON run loads with the same values" "$D/want" "" "$D/q" "$D/r_$v.json"
done
crlf "$D/q_bom" "$D/q_all"
nonl "$D/q_all" "$D/q_all2"
crlf "$D/r_bom" "$D/r_all"
nonl "$D/r_all" "$D/r_all2"
loads "BOM + CRLF + no final newline together load" "$D/want" "" "$D/q_all2" "$D/r_all2"

# ---- a 10 MB passage id ------------------------------------------------------------------------
# No id length limit is documented and the reader grows to any line below 1 GiB, so a 10 MB id is
# an id: it loads, matches itself between qrels and run, and costs one line's worth of memory.
big() {  # big PREFIX SUFFIX FILE — appends PREFIX, a 10 MB pid, SUFFIX
    { printf '%s' "$1"; head -c 10485760 /dev/zero | tr '\0' x; printf '%s' "$2"; } >>"$3"
}
cp "$D/q" "$D/q_big"; big '3 0 ' ' 1
' "$D/q_big"
cp "$D/r" "$D/r_big"; printf '3 Q0 z 1 0.5 t\n' >>"$D/r_big"; big '3 Q0 ' ' 2 0.75 t
' "$D/r_big"
cp "$D/q" "$D/q_small"; printf '3 0 xxx 1\n' >>"$D/q_small"
cp "$D/r" "$D/r_small"; printf '3 Q0 z 1 0.5 t\n3 Q0 xxx 2 0.75 t\n' >>"$D/r_small"
run eval -q -m "$M" "$D/q_small" "$D/r_small"
cut -f2- "$D/out" >"$D/want_big"
grep -q '^RR@10	3	1$' "$D/want_big"
report $? "10 MB id: the small stand-in ranks the id first (RR@10 1 for query 3)"
loads "10 MB id in qrels and run loads, matches itself, same values as a short id" \
    "$D/want_big" "" "$D/q_big" "$D/r_big"
run eval -q -m "$M" "$D/q_small" "$D/r"
cut -f2- "$D/out" >"$D/want_bigq"
loads "10 MB id in the qrels only: loads, the query scores 0" "$D/want_bigq" "$D/r" \
    "$D/q_big" "$D/r"
cp "$D/r" "$D/r_big_bad"; big '3 Q0 ' ' 2 zz t
' "$D/r_big_bad"
fails 2 "$D/r_big_bad:5: " "10 MB id followed by a bad score: the error names line 5" \
    eval "$D/q" "$D/r_big_bad"
[ "$(wc -c <"$D/err")" -lt 4096 ]
report $? "10 MB id: the error message is not the 10 MB line"

# ---- duplicates --------------------------------------------------------------------------------
# A pid twice in a query: the best-ranked copy counts, a warning names the dropped line.
printf '1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n1 Q0 a 3 0.3 t\n2 Q0 d 1 0.9 t\n2 Q0 c 2 0.8 t\n' >"$D/r_dup"
loads "run duplicate: kept first, warning names line 3, values as without it" \
    "$D/want" "$D/r_dup:3:" "$D/q" "$D/r_dup"
fails 2 "$D/r_dup:3: " "run duplicate under --strict: exit 2 naming line 3" \
    eval --strict "$D/q" "$D/r_dup"
# The later copy scores higher: the best-ranked copy is the one kept (a ranks below b here).
printf '1 Q0 a 1 0.1 t\n1 Q0 b 2 0.6 t\n1 Q0 a 3 0.5 t\n2 Q0 d 1 0.9 t\n2 Q0 c 2 0.8 t\n' >"$D/r_dup2"
printf '1 Q0 b 1 0.6 t\n1 Q0 a 2 0.5 t\n2 Q0 d 1 0.9 t\n2 Q0 c 2 0.8 t\n' >"$D/r_nodup2"
run eval -q -m "$M" "$D/q" "$D/r_nodup2"
cut -f2- "$D/out" >"$D/want_dup2"
loads "run duplicate scoring higher later: the best-ranked copy kept, warned" \
    "$D/want_dup2" "$D/r_dup2:" "$D/q" "$D/r_dup2"
printf '1\ta\t1\n1\tb\t2\n1\ta\t3\n2\td\t1\n2\tc\t2\n' >"$D/r_dup.tsv"
loads "TSV run duplicate (file order): kept first, warning names line 3" \
    "$D/want" "$D/r_dup.tsv:3:" "$D/q" "$D/r_dup.tsv"
printf '{"1": ["a", "b", "a"], "2": ["d", "c"]}\n' >"$D/r_dup.json"
loads "JSON run duplicate: kept first, warned" "$D/want" "$D/r_dup.json" "$D/q" "$D/r_dup.json"
fails 2 "$D/r_dup.json" "JSON run duplicate under --strict: exit 2" eval --strict "$D/q" "$D/r_dup.json"

# A (qid, pid) judged twice: the first judgment counts (a later grade 0 must not unjudge a).
printf '1 0 a 1\n1 0 b 0\n2 0 c 2\n1 0 a 0\n' >"$D/q_dup"
loads "qrels duplicate: first kept, warning names line 4, values as without it" \
    "$D/want" "$D/q_dup:4:" "$D/q_dup" "$D/r"
fails 2 "$D/q_dup:4: " "qrels duplicate under --strict: exit 2 naming line 4" \
    eval --strict "$D/q_dup" "$D/r"
printf '1\ta\t1\n1\tb\t0\n2\tc\t2\n2\tc\t0\n' >"$D/q_dup.tsv"
loads "TSV qrels duplicate: first kept, warning names line 4" \
    "$D/want" "$D/q_dup.tsv:4:" "$D/q_dup.tsv" "$D/r"
printf '{"question_id": "1", "answer_paragraphs": [{"paragraph_id": "a"}, {"paragraph_id": "a"}]}\n{"question_id": "2", "answer_paragraphs": [{"paragraph_id": "c"}]}\n' >"$D/q_dup.jsonl"
loads "JSONL qrels duplicate: kept once, warning names line 1" \
    "$D/want_b" "$D/q_dup.jsonl:1:" "$D/q_dup.jsonl" "$D/r"

# ---- queries that do not line up ---------------------------------------------------------------
printf '1 Q0 a 1 0.5 t\n3 Q0 a 1 0.5 t\n' >"$D/r_unk"
printf 'RR@10\t1\t1\nRR@10\t2\t0\nRR@10\tall\t0.5\n' >"$D/want_unk"
run eval -q -m RR@10 "$D/q" "$D/r_unk"
st=0
[ "$rc" -eq 0 ] || st=1
crashed && st=1
cut -f2- "$D/out" | cmp -s - "$D/want_unk" || st=1
report $st "run query unknown to the qrels: not averaged nor listed; missing judged query scores 0"
grep -F "$D/r_unk" "$D/err" | grep -qi 'judgment'
report $? "run query unknown to the qrels: a warning names the run"
run eval -Q -q -m RR@10 "$D/q" "$D/r_unk"
[ "$rc" -eq 0 ] && [ ! -s "$D/err" ]
report $? "-Q silences the load warnings"

# ---- usage errors ------------------------------------------------------------------------------
fails 1 "foo" "unknown measure: exit 1 naming it" eval -m foo "$D/q" "$D/r"
fails 1 "RR@x" "measure with a bad cut-off: exit 1" eval -m RR@x "$D/q" "$D/r"
fails 1 "nDCG@0" "measure with cut-off 0: exit 1" eval -m nDCG@0 "$D/q" "$D/r"
fails 1 "foo" "unknown measure beats missing files: exit 1" eval -m foo "$D/missing" "$D/missing"
fails 1 "" "empty measure list: exit 1" eval -m '' "$D/q" "$D/r"
fails 1 "nope" "unknown preset: exit 1 naming it" eval --preset nope "$D/q" "$D/r"
for l in x 1.5 '' 99999999999; do
    fails 1 "'$l'" "bad --level '$l': exit 1 naming it" eval -l "$l" "$D/q" "$D/r"
done
fails 1 "xml" "bad --format: exit 1 naming it" eval --format xml "$D/q" "$D/r"
fails 1 "sideways" "bad --order: exit 1 naming it" eval --order sideways "$D/q" "$D/r"
fails 1 "xml" "bad --qrels-format: exit 1" eval --qrels-format xml "$D/q" "$D/r"
fails 1 "xml" "bad --run-format: exit 1" eval --run-format xml "$D/q" "$D/r"
fails 1 "" "unknown option: exit 1" eval --frobnicate "$D/q" "$D/r"
fails 1 "" "option without its argument: exit 1" eval "$D/q" "$D/r" -m
fails 1 "" "no arguments: exit 1" eval
fails 1 "" "qrels but no run: exit 1" eval "$D/q"
run
[ "$rc" -eq 0 ] && grep -q "retriage --demo" "$D/out"; report $? "no command: a welcome, exit 0 (issue 13: a first run is not an error)"
fails 1 "frob" "unknown command: exit 1 naming it" frob

run eval --help
[ "$rc" -eq 0 ] && grep -q '^Usage: retriage eval' "$D/out" && [ ! -s "$D/err" ]
report $? "eval --help: exit 0, usage on stdout"
run eval -h "$D/missing"
[ "$rc" -eq 0 ] && grep -q '^Usage: retriage eval' "$D/out"
report $? "eval -h: exit 0 without reading files"
run --help
[ "$rc" -eq 0 ] && grep -q '^Usage: retriage' "$D/out"
report $? "retriage --help: exit 0"

if [ -w /dev/full ]; then
    "$RETRIAGE" eval "$D/q" "$D/r" >/dev/full 2>"$D/err"
    rc=$?
    [ "$rc" -eq 2 ] && [ -s "$D/err" ] && ! crashed
    report $? "a full disk on stdout: exit 2 with a message"
fi

# a run read from a pipe whose queries' lines are not grouped: it cannot be read again (the
# regrouping reads a file twice), which is said, with the line, rather than "empty run file"
printf 'q1 Q0 a 1 1 r\nq2 Q0 b 1 1 r\nq1 Q0 c 2 0.5 r\n' > "$D/ungrouped"
mkfifo "$D/pipe"
cat "$D/ungrouped" > "$D/pipe" &
fails 2 "$D/pipe:3: a query's lines come again after other queries'" \
    "an ungrouped run from a pipe: the reason and the line, not \"empty\"" eval "$D/q" "$D/pipe"
wait
run eval "$D/q" "$D/ungrouped"
[ "$rc" -eq 0 ]
ok $? "the same run from a file is regrouped and evaluated"

done_testing
