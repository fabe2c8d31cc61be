#!/bin/sh
# numbers.sh — every number read from a workspace, a flag or a typed command is range-checked:
# a fraction, an overflow or a value out of range is an error naming it, never a silent cast
# (issue 9, item 7: "level": 1e10 made grade 0 relevant; 2.7 was taken as 2; :label … 99999999999
# reported grade 1215752191).
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
DEMO="$SRCDIR/data/demo"

# A copy of the demo workspace whose paths point back at the demo, with one key replaced.
ws() {  # ws NAME JSON_FRAGMENT — writes $D/NAME.json (by printf: no cat)
    printf '{"queries": "%s", "collection": "%s", "qrels": "%s",\n "runs": ["%s"], "journal_dir": "%s", %s}\n' \
        "$DEMO/queries.tsv" "$DEMO/collection.tsv" "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$D/ann" "$2" >"$D/$1.json"
}

# ---- workspace numbers --------------------------------------------------------------------
CLI_CMD=export
for bad in '"level": 1e10' '"level": 2.7' '"level": "1"' '"level": -1e300' \
           '"leakage": {"train_queries": "x.tsv", "k": 0}' \
           '"leakage": {"train_queries": "x.tsv", "k": 2.5}' \
           '"leakage": {"train_queries": "x.tsv", "k": 1e12}' \
           '"leakage": {"train_queries": "x.tsv", "dim": 70000}' \
           '"leakage": {"train_queries": "x.tsv", "threshold": 2}'; do
    ws bad "$bad"
    key=${bad%\": *}; key=${key##*\"}   # the last key: level, k, dim, threshold
    fails 2 "$key\" must be" "workspace $bad is refused, naming $key" --what metrics "$D/bad.json"
done

# A level that fits is used as given: level 2 on binary qrels leaves nothing relevant.
ws lv2 '"level": 2'
run --what metrics --format tsv "$D/lv2.json"
st=0; [ "$rc" -eq 0 ] || st=1
awk -F'\t' 'NR > 1 && $2 == "base" && $4 + 0 != 0 { bad = 1 } END { exit bad }' "$D/out" || st=1
report $st "workspace level 2 on binary qrels: every base value is 0"
ws lv0 '"level": 1.0'
run --what metrics --format tsv "$D/lv0.json"
report $rc "workspace level 1.0 is the integer 1"

# ---- flags --------------------------------------------------------------------------------
CLI_CMD=
fails 1 "--level expects a whole number" "export -l 99999999999 is a usage error" \
    export --what metrics --demo -l 99999999999
fails 1 "--level expects a whole number" "export -l 2.7 is a usage error" \
    export --what metrics --demo -l 2.7
fails 1 "--top expects a whole number" "export --top 99999999999 is a usage error" \
    export --what breakdown --demo --journal-dir "$D/ann" --top 99999999999
fails 1 "--size expects COLSxROWS" "--size 4294967297x30 is a usage error" \
    --demo --size 4294967297x30 --script /dev/null
fails 1 "--size expects COLSxROWS" "--size 80x30junk is a usage error" \
    --demo --size 80x30junk --script /dev/null

# ---- typed commands (script mode: an error message ends the script with exit 2) -----------
typed() {  # typed TEXT NAME LINE — the script's one line is refused with TEXT
    printf '%s\n:quit\n' "$3" >"$D/s.txt"
    fails 2 "$1" "$2" --demo --journal-dir "$D/ann" --annotator t --size 120x30 --script "$D/s.txt"
}
typed 'grade "99999999999": a whole number' ":label 99999999999 is refused, not cast" \
    ':label q04 p0152 99999999999'
typed 'grade 7: this workspace uses 0' ":label 7 names the binary scale" ':label q04 p0152 7'
typed 'usage: :sample' ":sample with an overflowing N is refused" ':sample 99999999999999999999 1 all'
typed 'usage: :sample' ":sample with a negative seed is refused" ':sample 5 -1 all'
typed 'usage: :breakdown' ":breakdown 99999999999 is refused" ':breakdown 99999999999'
typed 'usage: :judge' ":judge 4294967306 is refused" ':judge 4294967306'
typed 'usage: :resize' ":resize 4294967376 30 is refused" ':resize 4294967376 30'
typed 'condition' ":sample … notop 18446744073709551617 RUN is refused" ':sample 3 1 notop 18446744073709551617 bm25'
[ ! -s "$D/ann/t.jsonl" ]; ok $? "the journal holds no operation"

# ---- numbers as ids in JSON inputs: only those a double holds exactly ------------------------
CLI_CMD=eval
printf '{"question_id": 9007199254740993, "answer_paragraphs": [{"paragraph_id": "p1"}]}\n' >"$D/big.jsonl"
printf '{"9007199254740992": ["p1"]}' >"$D/big.json"
fails 2 'question_id' "a numeric qid beyond 2^53 is refused (it would read as another id)" "$D/big.jsonl" "$D/big.json"
printf '{"question_id": "q", "answer_paragraphs": [{"paragraph_id": 1e300}]}\n' >"$D/huge.jsonl"
printf '{"q": [1e300]}' >"$D/huge.json"
fails 2 'huge.jsonl:1:' "a numeric pid of 1e300 is refused" "$D/huge.jsonl" "$D/huge.json"
printf '{"question_id": 12, "answer_paragraphs": [{"paragraph_id": 34}]}\n' >"$D/num.jsonl"
printf '{"12": [34]}' >"$D/num.json"
run -m RR@10 "$D/num.jsonl" "$D/num.json"
[ "$rc" -eq 0 ] && grep -q 'RR@10.all.1$' "$D/out"; report $? "small numeric ids still work (RR@10 1)"

done_testing
