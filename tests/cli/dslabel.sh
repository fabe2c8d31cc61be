#!/bin/sh
# dslabel.sh — `retriage dslabel`, DuReader-retrieval's Algorithm 1: on the DuReader 2.0 demo
# workspace (every passage of a question's own documents, the answers file) it reproduces the
# folder's qrels exactly (384 pairs); --with-f1 explains each pair; --run pools the runs; bad
# input names its file and line.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
S="$SHARED_DATA/dureader2-demo-ws"   # lib.sh: $SHARED_DATA, else ../shared/data beside the source
if [ -f "$S/answers.jsonl" ]; then
    cp "$S/collection.tsv" "$D/collection.tsv"   # a scratch copy: its index is written beside it, not in ../shared
    cut -f1 "$D/collection.tsv" | awk -F- '{ print $1 "\t" $0 }' > "$D/pairs"
    "$RETRIAGE" dslabel --answers "$S/answers.jsonl" --collection "$D/collection.tsv" --pairs "$D/pairs" -o "$D/qrels" 2> "$D/err"
    ok $? "dslabel over every passage of each question's own documents"
    sort "$D/qrels" > "$D/got"; sort "$S/qrels.trec" > "$D/want"
    cmp -s "$D/got" "$D/want" && [ "$(wc -l < "$D/got")" -eq 384 ]
    ok $? "the positives are exactly the reference qrels.trec (384 pairs)"
    has_text "1075 pairs, 384 positive (F1 >= 0.5)" "$D/err" && has_text "1 queries of the answers file have no answer" "$D/err"
    ok $? "the summary counts pairs, positives and the question without an answer ($(cat "$D/err"))"
    "$RETRIAGE" dslabel --answers "$S/answers.jsonl" --collection "$D/collection.tsv" --pairs "$D/pairs" --with-f1 > "$D/f1" 2> /dev/null
    awk -F'\t' 'NR == 1 { ok = $0 == "qid\tpid\tf1\tpositive\tanswer\tspan_start\tspan_end"; next }
                { n++; if ($4 == 1) p++; if (($3 != "" && $3 + 0 >= 0.5) != ($4 == 1)) ok = 0
                  if ($4 == 1 && !($5 >= 1 && $6 < $7)) ok = 0 }
                END { exit !(ok && n == 1075 && p == 384) }' "$D/f1"
    ok $? "--with-f1: every pair, F1 >= 0.5 exactly on the 384 positives, each with its answer and span"
    # the span's bytes are a piece of the passage that starts and ends on a character
    awk -F'\t' 'NR > 1 && $4 == 1 { print $2 "\t" $6 "\t" $7 }' "$D/f1" | head -20 > "$D/spans"
    st=0
    while read -r pid from to; do   # (tab-separated; none of them holds a blank)
        text=$(awk -F'\t' -v p="$pid" '$1 == p { print $2; exit }' "$D/collection.tsv")
        printf '%s' "$text" | tail -c +$((from + 1)) | head -c $((to - from)) | iconv -f UTF-8 -t UTF-8 > /dev/null 2>&1 || st=1
    done < "$D/spans"
    ok $st "spans are whole UTF-8 pieces of their passages"
    # pooled runs: a pair of the question's own documents is positive exactly when the reference says so
    "$RETRIAGE" dslabel --answers "$S/answers.jsonl" --collection "$D/collection.tsv" --run "$S/runs/xapian-bm25-jieba.trec" \
        --run "$S/runs/sklearn-tfidf-char.trec" --depth 10 --with-f1 > "$D/pool" 2> /dev/null
    awk 'NR == FNR { ref[$1 " " $3] = 1; next } FNR > 1 && index($2, $1 "-") == 1 { n++; if (($4 == 1) != (($1 " " $2) in ref)) bad++ }
         END { exit !(n > 500 && !bad) }' "$D/want" FS='\t' "$D/pool"
    ok $? "--run … --depth 10: the pooled pairs of each question's own documents labelled as the reference"
else
    for i in 1 2 3 4 5 6; do ok 0 "# SKIP $S/answers.jsonl is absent (fixtures are read from \$SHARED_DATA, ../shared/data by default, never copied)"; done
fi

# small inputs: TSV answers, a query without answers, an unknown passage, bad lines
printf 'p1\t北京冬奥会在张家口举办\np2\t今天天气很好\np3\t长江全长约6300千米\n' > "$D/c.tsv"
printf 'q1\t北京和张家口\nq2\t6300千米\nq2\t\n' > "$D/a.tsv"
printf 'q1\tp1\nq1\tp2\nq2\tp3\nq3\tp1\nq1\tp9\n' > "$D/p.tsv"
"$RETRIAGE" dslabel --answers "$D/a.tsv" --collection "$D/c.tsv" --pairs "$D/p.tsv" > "$D/out" 2> "$D/err"
printf 'q1 0 p1 1\nq2 0 p3 1\n' | cmp -s - "$D/out"
ok $? "TSV answers: q1 p1 (F1 2/3) and q2 p3 (F1 1) are positive, nothing else"
has_text "5 pairs, 2 positive" "$D/err" && has_text "1 passages not in the collection" "$D/err" && has_text "1 empty answers ignored" "$D/err"
ok $? "the summary counts the missing passage and the empty answer ($(tr '\n' ' ' < "$D/err"))"
"$RETRIAGE" dslabel --answers "$D/a.tsv" --collection "$D/c.tsv" --pairs "$D/p.tsv" --threshold 0.7 > "$D/out" 2> /dev/null
printf 'q2 0 p3 1\n' | cmp -s - "$D/out"
ok $? "--threshold 0.7 keeps only the exact match"
printf '{"question_id": "q1", "answers": ["北京"]}\n{"question_id": "q2", "answers": "6300"}\n' > "$D/bad.jsonl"
"$RETRIAGE" dslabel --answers "$D/bad.jsonl" --collection "$D/c.tsv" --pairs "$D/p.tsv" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "bad.jsonl:2: \"answers\" must be an array of strings" "$D/err"
ok $? "a malformed answers line: file:line ($(cat "$D/err"))"
# what the TSV form refuses, the JSON form refuses too: an answer that is not UTF-8 (cJSON passes
# any byte), and in both a query id that is not one (a control character, invalid UTF-8), which
# the qrels written would carry
printf '{"question_id": "q1", "answers": ["\377北京"]}\n' > "$D/bad8.jsonl"
printf '{"question_id": "q1", "answers": ["北京"]}\n{"question_id": "q\\u001b1", "answers": ["北京"]}\n' > "$D/badid.jsonl"
printf 'q1\t北京\nq\3772\t上海\n' > "$D/badid.tsv"
st=0
"$RETRIAGE" dslabel --answers "$D/bad8.jsonl" --collection "$D/c.tsv" --pairs "$D/p.tsv" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && has_text "bad8.jsonl:1: the answer is not valid UTF-8" "$D/err" || st=1
"$RETRIAGE" dslabel --answers "$D/badid.jsonl" --collection "$D/c.tsv" --pairs "$D/p.tsv" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && has_text "badid.jsonl:2: bad query id: control character in id" "$D/err" || st=1
"$RETRIAGE" dslabel --answers "$D/badid.tsv" --collection "$D/c.tsv" --pairs "$D/p.tsv" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && has_text "badid.tsv:2: bad query id: id is not valid UTF-8" "$D/err" || st=1
ok $st "answers: invalid UTF-8 in a JSON answer, a bad query id in JSON or TSV: file:line"
printf 'q1 p1 extra\n' > "$D/badp"
"$RETRIAGE" dslabel --answers "$D/a.tsv" --collection "$D/c.tsv" --pairs "$D/badp" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && has_text "badp:1: expected qid<TAB>pid" "$D/err"
ok $? "a malformed pairs line: file:line"
printf 'q1\tp1\nq1\tp\001x\n' > "$D/badid.pairs"
"$RETRIAGE" dslabel --answers "$D/a.tsv" --collection "$D/c.tsv" --pairs "$D/badid.pairs" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && has_text "badid.pairs:2: bad passage id: control character in id" "$D/err"
ok $? "a pairs line with a bad id (written out as it is): file:line"
"$RETRIAGE" dslabel --answers "$D/a.tsv" --collection "$D/c.tsv" --pairs "$D/p.tsv" --threshold 1.5 > /dev/null 2> "$D/err"
[ $? -eq 1 ] && grep -q "threshold expects a number in (0, 1]" "$D/err"
ok $? "a threshold outside (0, 1] is a usage error"
"$RETRIAGE" dslabel --answers "$D/a.tsv" --collection "$D/c.tsv" > /dev/null 2> "$D/err"
[ $? -eq 1 ] && has_text "give the pairs" "$D/err"
ok $? "no pairs is a usage error"
done_testing
