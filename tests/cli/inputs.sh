#!/bin/sh
# inputs.sh — inputs that gave wrong numbers with exit 0 (issue 9, items 5, 6, 12): qrels whose
# qids hold a space were read as TREC, a line starting with a NUL byte was skipped, a binary file
# was "an empty run file", a TREC export or pool could hold ids that do not read back.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache"

# ---- 5. format detection prefers the format every line parses in ------------------------------
printf 'q 1\tp1\t1\nq 2\tp2\t1\n' >"$D/sp.tsv"
printf '{"q 1":["p1"],"q 2":["p9","p2"]}' >"$D/sp.json"
CLI_CMD=eval run -m RR@10 "$D/sp.tsv" "$D/sp.json"
[ "$rc" -eq 0 ] && grep -q 'RR@10.all.0\.75$' "$D/out"; report $? "TSV qrels with spaces in qids: RR@10 0.75 (was 0)"
grep -q 'sp\.tsv: every line reads both as TSV' "$D/err" && has_text 'qrels-format trec' "$D/err"
report $? "the ambiguity is said, with how to override it"
CLI_CMD=eval run -m RR@10 --qrels-format tsv "$D/sp.tsv" "$D/sp.json"
[ "$rc" -eq 0 ] && ! has_text 'reads both' "$D/err"; report $? "an explicit format: no ambiguity warning"
printf 'q1 0 p1 1\nq1\tp2\t1\n' >"$D/mixed.qrels"
CLI_CMD=eval fails 2 "mixed.qrels:2:" "a file mixing TREC and TSV lines is an error naming the line" "$D/mixed.qrels" "$D/sp.json"
printf 'q1 0 p1 1\nq1 0 p2 x\n' >"$D/badgrade.qrels"
CLI_CMD=eval fails 2 "badgrade.qrels:2: expected an integer relevance grade" "a bad grade is still named precisely" \
    "$D/badgrade.qrels" "$D/sp.json"

# TREC output never holds an id that would not read back.
CLI_CMD=export fails 1 'contains a blank' "export --what qrels refuses a qid with a space" \
    --what qrels --qrels "$D/sp.tsv" --run "$D/sp.json" --journal-dir "$D/ann"
CLI_CMD=export run --what qrels-diff --format tsv --qrels "$D/sp.tsv" --run "$D/sp.json" --journal-dir "$D/ann"
[ "$rc" -eq 0 ]; report $? "qrels-diff as TSV works with such ids"
CLI_CMD=pool fails 1 'contains a blank' "pool (TREC) refuses a qid with a space" --depth 5 "$D/sp.json"
CLI_CMD=pool run --depth 5 --format tsv "$D/sp.json"
[ "$rc" -eq 0 ] && grep -q '^q 1	p1	' "$D/out"; report $? "pool --format tsv keeps such ids"

# ---- 6. NUL bytes are errors with file:line, never skipped lines ------------------------------
printf 'q1 0 p1 1\n' >"$D/q.qrels"
printf 'q1 Q0 p1 1 2 t\n' >"$D/r.trec"
printf 'q1 0 p1 1\n\0q1 0 p2 1\n' >"$D/nul.qrels"
CLI_CMD=eval fails 2 "nul.qrels:2: a NUL byte at column 1" "qrels: a line starting with NUL is an error (was skipped: NumRel 1)" \
    "$D/nul.qrels" "$D/r.trec"
printf 'q1 Q0 p1 1 2 t\n\0q1 Q0 p2 2 1 t\n' >"$D/nul.trec"
CLI_CMD=eval fails 2 "nul.trec:2: a NUL byte" "TREC run: a NUL line is an error" "$D/q.qrels" "$D/nul.trec"
printf 'q1\tp1\t1\nq1\tp\0\t2\n' >"$D/nul.tsvrun"
CLI_CMD=eval fails 2 "nul.tsvrun:2: a NUL byte at column 5" "TSV run: a NUL inside a line is an error" \
    --run-format tsv "$D/q.qrels" "$D/nul.tsvrun"
printf '{"q1": ["p1",\n "p\0"]}' >"$D/nul.json"
CLI_CMD=eval fails 2 "nul.json:2: a NUL byte" "DuReader JSON run: a NUL is an error naming its line" "$D/q.qrels" "$D/nul.json"
printf '{"question_id": "q1", "answer_paragraphs": [{"paragraph_id": "p1"}]}\n{"question_id": "q\0"}\n' >"$D/nul.jsonl"
CLI_CMD=eval fails 2 "nul.jsonl:2: a NUL byte" "DuReader JSON qrels: a NUL is an error" "$D/nul.jsonl" "$D/r.trec"
printf 'q1\tabc\0def\n' >"$D/nulq.tsv"
printf 'p1\tpassage one\np2\tpass\0age two\n' >"$D/nulc.tsv"
printf 'p1\tpassage one\n' >"$D/c.tsv"
CLI_CMD=export fails 2 "nulq.tsv:1: a NUL byte at column 7" "queries: a text with a NUL is an error, not cut" \
    --what metrics --queries "$D/nulq.tsv" --qrels "$D/q.qrels" --run "$D/r.trec" --journal-dir "$D/ann"
CLI_CMD=export fails 2 "nulc.tsv:2: a NUL byte at column 8" "collection: a passage with a NUL is an error" \
    --what metrics --collection "$D/nulc.tsv" --qrels "$D/q.qrels" --run "$D/r.trec" --journal-dir "$D/ann"
printf 'what\tsentence\t1\nwhat\tsen\0tence two\t0\n' >"$D/nul.dbqa"
printf '1\n2\n' >"$D/dbqa.scores"
CLI_CMD=eval fails 2 "nul.dbqa:2: a NUL byte" "DBQA: a NUL is an error" --dbqa "$D/nul.dbqa" "$D/dbqa.scores"

# ---- 12. a binary file is called what it is ----------------------------------------------------
cp "$RETRIAGE" "$D/binary.run"   # an ELF file: it starts with a NUL-free line, then NULs
CLI_CMD=eval run "$D/q.qrels" "$D/binary.run"
[ "$rc" -eq 2 ] && ! has_text 'empty run file' "$D/err" && grep -Eq 'binary\.run:[0-9]+: (a NUL byte|.*UTF-8|cannot tell)' "$D/err"
report $? "a binary run is not a text file (was 'empty run file')"
CLI_CMD=eval run "$D/binary.run" "$D/r.trec"
[ "$rc" -eq 2 ] && grep -Eq 'binary\.run:[0-9]+:' "$D/err"; report $? "a binary qrels file is an error with file:line"

done_testing
