#!/bin/sh
# json.sh — JSON inputs and imports that gave wrong results or crashed (issue 33, items 3, 11-13,
# 15, 17): a \u0000 inside a JSON string cut ids and texts short (two queries merged, judgments
# given to another query, the wrong passage labelled) in every kind of JSON file; an empty qid was
# undefined behaviour; a JSON run was read whole with no limit (a zstd bomb took gigabytes, or
# an abort); an import header wider than 16 columns overflowed; '#' rows after a header were
# dropped; an empty annotator cell, a category by number and a truncated compressed run were
# reported wrongly.
# shellcheck disable=SC2086 # ($IM and $cols are split where used)
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO=$(cd "$SRCDIR/data/demo" 2>/dev/null && pwd)
[ -n "$DEMO" ] && [ -d "$DEMO" ] || skip_all "the demo workspace is missing"

# ---- 3. \u0000 in a JSON string is an input error with file:line, in every kind of file ------
printf 'q1 0 p1 1\nq1 0 p2 0\nq2 0 p2 1\n' > "$D/qrels"
printf '{"q1\\u0000x": ["p1"],\n "q2": ["p2"],\n "q1": ["p2", "p1"]}\n' > "$D/nul.json"
CLI_CMD=eval fails 2 'nul.json:1: a JSON string holds \u0000' "a run: a key with \\u0000 (merged q1 with q1\\u0000x: RR 1, not 0.5)" \
    -m RR "$D/qrels" "$D/nul.json"
printf '{"q1": ["p2", "p1"],\n "q2": ["p2\\u0000"]}\n' > "$D/nulpid.json"
CLI_CMD=eval fails 2 'nulpid.json:2:' "a run: a pid with \\u0000, on line 2" -m RR "$D/qrels" "$D/nulpid.json"
printf '{"q1": ["p2", "p1"], "q2": ["p2"], "q\\\\u0000": ["p1"]}\n' > "$D/escaped.json"
CLI_CMD=eval run -m RR "$D/qrels" "$D/escaped.json"
[ "$rc" -eq 0 ] && grep -q 'RR.all.0\.75$' "$D/out"
report $? "a run: an escaped backslash before u0000 is no NUL (qid q\\u0000 loads)"
printf '{"question_id": "q1", "answer_paragraphs": [{"paragraph_id": "p2"}]}\n{"question_id": "q1\\u0000junk", "answer_paragraphs": [{"paragraph_id": "p1"}]}\n' > "$D/nul.jsonl"
printf 'q1 Q0 p1 1 2 r\nq1 Q0 p2 2 1 r\n' > "$D/run.trec"
CLI_CMD=eval fails 2 'nul.jsonl:2: a JSON string holds \u0000' "qrels JSON lines: a question_id with \\u0000 (was given to q1)" \
    "$D/nul.jsonl" "$D/run.trec"
printf '{"question_id": "q01", "question": "北京\\u0000上海"}\n' > "$D/queries.jsonl"
CLI_CMD=export fails 2 'queries.jsonl:1: a JSON string holds \u0000' "queries JSON lines: a question with \\u0000" \
    --queries "$D/queries.jsonl" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --journal-dir "$D/j3" --what metrics
printf '{"question_id": "q01", "answers": ["上海\\u0000北京是中国的首都"]}\n' > "$D/answers.jsonl"
printf 'p1\t上海是中国最大的城市\np2\t北京是中国的首都\n' > "$D/coll.tsv"
printf 'q01\tp1\nq01\tp2\n' > "$D/pairs"
CLI_CMD=dslabel fails 2 'answers.jsonl:1: a JSON string holds \u0000' "answers: an answer with \\u0000 (labelled the wrong passage)" \
    --answers "$D/answers.jsonl" --collection "$D/coll.tsv" --pairs "$D/pairs"
printf '{"question_id": "q01", "question_type": "ENTITY\\u0000x"}\n' > "$D/facets.jsonl"
CLI_CMD=export fails 2 'facets.jsonl:1: a JSON string holds \u0000' "facets: a value with \\u0000" \
    --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --journal-dir "$D/j3" --facets "$D/facets.jsonl" --what metrics --by question_type
mkdir -p "$D/ws"
for f in queries.tsv collection.tsv qrels.trec; do ln -s "$DEMO/$f" "$D/ws/$f"; done
printf '{"queries": "queries.tsv", "collection": "collection.tsv", "qrels": "qrels.trec",\n "runs": ["%s"],\n "annotator": "ann\\u0000x"}\n' "$DEMO/runs/bm25.trec" > "$D/ws/ws.json"
CLI_CMD=export fails 2 'ws.json:3: a JSON string holds \u0000' "workspace: a string with \\u0000, on its line" \
    "$D/ws/ws.json" --journal-dir "$D/j3" --what metrics
printf '{"queries": "queries.tsv", "collection": "collection.tsv", "qrels": "qrels.trec", "runs": ["%s"],\n "taxonomy": [{"group": "g", "categories": [{"name": "a\\u0000b"}]}]}\n' "$DEMO/runs/bm25.trec" > "$D/ws/tax.json"
CLI_CMD=export fails 2 'tax.json:2: a JSON string holds \u0000' "taxonomy: a category name with \\u0000" \
    "$D/ws/tax.json" --journal-dir "$D/j3" --what metrics
mkdir -p "$D/jn"
{ echo '{"seq":1,"time":"2026-11-21T10:11:12.345Z","author":"ann","op":"label","qid":"q01","pid":"p0001","grade":0}'
  printf '%s\n' '{"seq":2,"time":"2026-11-21T10:11:13.345Z","author":"ann","op":"label","qid":"q01\u0000x","pid":"p0002","grade":1}'
} > "$D/jn/ann.jsonl"
CLI_CMD=export run --demo --journal-dir "$D/jn" --annotator ann --what qrels
grep -q 'ann.jsonl:2: .*\\u0000' "$D/err" && ! grep -q '^q01 0 p0002 1$' "$D/out"
report $? "journal: an operation with \\u0000 is not one (line 2 named; q01 p0002 not relabelled)"

# ---- 13. an empty qid in a JSON run (was memcpy to NULL) ------------------------------------
printf '{"": []}' > "$D/empty-qid.json"
CLI_CMD=eval fails 2 'empty-qid.json:1: bad query id' "a JSON run with an empty qid and no passages" "$D/qrels" "$D/empty-qid.json"

# ---- 12. a JSON input's size is capped; memory refused is an error, never an abort ----------
if command -v zstd > /dev/null; then
    # 100 MB of spaces on one line (the run's format is told line by line: a line's limit), and
    # of line ends (read as one JSON document: the document's limit). Each is a chain of zstd
    # frames (a file may hold several, read as one stream): 100 copies of one frame of 1 MB, which
    # zstd compresses once, not 100 MB piped through tr and zstd.
    # bomb FILE CHAR — the bomb of CHAR ('\040' or '\n') in FILE
    bomb() {
        printf '{"q1": ["p1"],' | zstd -q -c > "$D/head.zst"
        head -c 1000000 /dev/zero | tr '\0' "$2" | zstd -q -19 -c > "$D/mb.zst"
        printf '"q2": ["p2"]}\n' | zstd -q -c > "$D/tail.zst"
        set -- "$1" "$D/head.zst"
        for _ in $(seq 1 100); do set -- "$@" "$D/mb.zst"; done
        out_=$1
        shift
        cat "$@" "$D/tail.zst" > "$out_"
    }
    bomb "$D/bomb.json.zst" '\040'
    RETRIAGE_JSON_MAX=1M CLI_CMD=eval fails 2 'bomb.json.zst:1: a line is larger than the limit of 1048576 bytes (RETRIAGE_JSON_MAX' \
        "a zstd bomb (100 MB of spaces in $(stat -c %s "$D/bomb.json.zst") bytes) over RETRIAGE_JSON_MAX=1M: exit 2 naming the limit" \
        "$D/qrels" "$D/bomb.json.zst"
    bomb "$D/nlbomb.json.zst" '\n'
    RETRIAGE_JSON_MAX=1M CLI_CMD=eval fails 2 'the document (decompressed) is larger than the limit of 1048576 bytes (RETRIAGE_JSON_MAX' \
        "a zstd bomb of 100 MB of line ends over RETRIAGE_JSON_MAX=1M: exit 2 naming the limit" \
        "$D/qrels" "$D/nlbomb.json.zst"
    { printf '{"q1": ["p1"],'; head -c 3000000 /dev/zero | tr '\0' '\n'; printf '"q2": ["p2"]}\n'; } | zstd -q -1 -c > "$D/small.json.zst"
    RETRIAGE_JSON_MAX=4M CLI_CMD=eval run -m RR "$D/qrels" "$D/small.json.zst"
    [ "$rc" -eq 0 ] && grep -q 'RR.all.1$' "$D/out"; report $? "a 3 MB JSON run under RETRIAGE_JSON_MAX=4M loads"
    RETRIAGE_JSON_MAX=lots "$RETRIAGE" eval "$D/qrels" "$D/bomb.json.zst" > /dev/null 2> "$D/err"; rc=$?
    [ "$rc" -eq 1 ] && has_text 'RETRIAGE_JSON_MAX must be a size' "$D/err"; report $? "RETRIAGE_JSON_MAX=lots is a usage error (exit 1)"
    # under a memory limit the default limit (1 GiB) is not reached first: the memory refused is
    # an input error, not SIGABRT (sanitizers reserve terabytes of address space: not under them)
    if grep -aq -e __asan_init -e __tsan_init "$RETRIAGE" || [ -n "${ASAN_OPTIONS:-}" ]; then
        ok 0 "# SKIP under sanitizers ulimit -v cannot be used"
    else
        (ulimit -v 60000; exec "$RETRIAGE" eval "$D/qrels" "$D/nlbomb.json.zst") > /dev/null 2> "$D/err"; rc=$?
        [ "$rc" -eq 2 ] && grep -q 'nlbomb.json.zst:[0-9]*: a document of more than [0-9]* bytes does not fit in memory' "$D/err"
        report $? "under ulimit -v 60000 the bomb is exit 2, 'does not fit in memory' (was SIGABRT)"
        awk 'BEGIN { printf "{\"q1\": ["; for (i = 1; i <= 1000000; i++) printf "\"p%d\",\n", i; print "\"p0\"]}" }' | zstd -q -c > "$D/many.json.zst"
        (ulimit -v 60000; exec "$RETRIAGE" eval "$D/qrels" "$D/many.json.zst") > /dev/null 2> "$D/err"; rc=$?
        [ "$rc" -eq 2 ] && grep -q 'many.json.zst: the JSON document ([0-9]* bytes) does not fit in memory once parsed' "$D/err"
        report $? "under ulimit -v 60000 a run of a million pids whose parse needs more: exit 2, said so"
    fi
else
    ok 0 "# SKIP zstd is missing (scripts/setup.sh installs it)"
fi
printf '{"q1":\n["p1"],\n"q2":\n["p2"]}\n' > "$D/small.json"
RETRIAGE_JSON_MAX=12 CLI_CMD=eval fails 2 'small.json:2: the document (decompressed) is larger than the limit of 12 bytes' \
    "a plain JSON run over a limit below the first buffer" "$D/qrels" "$D/small.json"
printf '{"question_id": "q1", "answer_paragraphs": [{"paragraph_id": "p1"}]}\n' > "$D/line.jsonl"
RETRIAGE_JSON_MAX=32 CLI_CMD=eval fails 2 'line.jsonl:1: a line is larger than the limit of 32 bytes' \
    "a JSON-lines qrels line over the limit" "$D/line.jsonl" "$D/run.trec"
mkdir -p "$D/jl"
{ echo '{"seq":1,"time":"2026-11-21T10:11:12.345Z","author":"ann","op":"label","qid":"q01","pid":"p0001","grade":0}'
  printf '{"seq":2,"time":"2026-11-21T10:11:13.345Z","author":"ann","op":"label","qid":"q01","pid":"p0002","grade":1,"via":"%s"}\n' \
      "$(head -c 300 /dev/zero | tr '\0' x)"; } > "$D/jl/ann.jsonl"
RETRIAGE_JSON_MAX=200 CLI_CMD=export run --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --journal-dir "$D/jl" \
    --annotator ann --what qrels
[ "$rc" -eq 0 ] && grep -q 'ann.jsonl:2: .*a line larger than the limit of 200 bytes' "$D/err" && ! grep -q '^q01 0 p0002 1$' "$D/out"
report $? "journal: a line over RETRIAGE_JSON_MAX is no operation, said with the limit"

# ---- 11, 15, 17a, 17b. import ---------------------------------------------------------------
# (the options as a plain string, split where used: the test's own paths hold no blanks)
IM="--demo --journal-dir $D/ji"
cols=$(seq 1 196)
{ printf 'annotator\tqid\tpid\tgrade'; printf '\tc%d' $cols; printf '\n'
  printf 'wide\tq01\tp0001\t1'; printf '\tx%d' $cols; printf '\n'; } > "$D/wide.tsv"
CLI_CMD=import run $IM --judgments "$D/wide.tsv"
[ "$rc" -eq 0 ] && ! crashed && grep -q '"author":"wide".*"qid":"q01","pid":"p0001","grade":1' "$D/ji/wide.jsonl"
report $? "import: a header of 200 columns (was a stack overflow from 17)"
{ printf 'c1\tc2\tc3\tc4\tc5\tc6\tc7\tc8\tc9\tc10\tc11\tc12\tc13\tc14\tc15\tc16\tc17\tqid\tpid\tannotator\tgrade\n'
  printf '1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\t13\t14\t15\t16\t17\tq02\tp0003\tlate\t1\n'; } > "$D/late.tsv"
CLI_CMD=import run $IM --judgments "$D/late.tsv"
[ "$rc" -eq 0 ] && ! crashed && grep -q '"qid":"q02","pid":"p0003","grade":1' "$D/ji/late.jsonl"
report $? "import: the named columns after the 17th are found"
printf 'annotator\tqid\tpid\tgrade\n#lead\tq01\tp0002\t1\n' > "$D/hash.tsv"
CLI_CMD=import run $IM --judgments "$D/hash.tsv"
[ "$rc" -eq 0 ] && grep -q '"author":"#lead".*"pid":"p0002"' "$D/ji/#lead.jsonl"
report $? "import: a row whose annotator starts with '#' is data, not a comment (was dropped, exit 0)"
printf 'annotator\tqid\tpid\tgrade\nbob\tq01\tp0002\t1\n\tq01\tp0003\t1\n' > "$D/emptycell.tsv"
CLI_CMD=import fails 2 'emptycell.tsv:3: the annotator cell (column 1) is empty' \
    "import: an empty annotator cell is named at file:line (was 'the file has no annotator column')" \
    $IM --judgments "$D/emptycell.tsv" --annotator bob
mkdir -p "$D/tx"
for f in queries.tsv collection.tsv qrels.trec; do ln -s "$DEMO/$f" "$D/tx/$f"; done
printf '{"queries": "queries.tsv", "collection": "collection.tsv", "qrels": "qrels.trec", "runs": ["%s"],\n "taxonomy": [{"group": "g", "categories": [{"name": "first", "key": "2"}, {"name": "second", "key": "1"}]}]}\n' \
    "$DEMO/runs/bm25.trec" > "$D/tx/ws.json"
printf 'annotator\tqid\tpid\tcategory\ncat\tq01\tp0001\t1\n' > "$D/bykey.tsv"
CLI_CMD=import run "$D/tx/ws.json" --journal-dir "$D/tx/j" --tags "$D/bykey.tsv"
[ "$rc" -eq 0 ] && grep -q '"cat":"second"' "$D/tx/j/cat.jsonl"
report $? "import: category 1 is the one whose key is 1 (the legend's), not the first"
printf 'annotator\tqid\tpid\tcategory\ncat\tq01\tp0001\t3\n' > "$D/nokey.tsv"
CLI_CMD=import fails 2 'nokey.tsv:2: unknown category "3"' "import: a number that is no category's key is unknown" \
    "$D/tx/ws.json" --journal-dir "$D/tx/j" --tags "$D/nokey.tsv"

# ---- 11. no fixed number of fields anywhere: a facets file of 100 facets (was refused at 64)
awk -F '\t' 'BEGIN { printf "qid"; for (i = 1; i <= 100; i++) printf "\tf%d", i; printf "\n" }
    { printf "%s", $1; for (i = 1; i <= 99; i++) printf "\tx"; print ($1 ~ /^q0/ ? "\tearly" : "\tlate") }' \
    "$DEMO/queries.tsv" > "$D/wide-facets.tsv"
CLI_CMD=export run --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --queries "$DEMO/queries.tsv" \
    --journal-dir "$D/jf" --facets "$D/wide-facets.tsv" --what metrics --by f100
[ "$rc" -eq 0 ] && has_text 'early' "$D/out" && has_text 'late' "$D/out"
report $? "facets: a header of 101 columns, split by the 100th facet"

# ---- 17c. a truncated compressed run names the line reached ---------------------------------
if command -v zstd > /dev/null && command -v gzip > /dev/null; then
    awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "q%d Q0 p%d 1 %d.5 r\n", i, i, i }' > "$D/long.trec"
    for z in zstd gzip; do
        $z -q -c "$D/long.trec" > "$D/whole.$z"
        head -c $(($(stat -c %s "$D/whole.$z") / 2)) "$D/whole.$z" > "$D/cut.$z"
        CLI_CMD=eval run "$D/qrels" "$D/cut.$z"
        line=$(sed -n "s/.*cut\.$z:\([0-9]*\): .*ends early.*/\1/p" "$D/err")
        [ "$rc" -eq 2 ] && [ "${line:-0}" -gt 100 ] && [ "${line:-0}" -le 20000 ]
        report $? "a truncated $z run names the line reached (line ${line:-none}, was 1)"
    done
    awk 'BEGIN { for (i = 1; i <= 30000; i++) printf "p%d\tpassage number %d with some text\n", i, i }' | gzip -c > "$D/coll.gz"
    head -c $(($(stat -c %s "$D/coll.gz") / 2)) "$D/coll.gz" > "$D/cutcoll.gz"
    CLI_CMD=export run --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --collection "$D/cutcoll.gz" \
        --journal-dir "$D/jc" --what metrics
    line=$(sed -n 's/.*cutcoll\.gz:\([0-9]*\): the gzip data ends early.*/\1/p' "$D/err")
    [ "$rc" -eq 2 ] && [ "${line:-0}" -gt 100 ] && [ "${line:-0}" -le 30000 ]
    report $? "a truncated gzip collection names the line reached (line ${line:-none})"
    printf '{"q1": ["p1"],\n"q2": ["p2"],\n"q3": ["p3"]}\n' | gzip -c | head -c 30 > "$D/cut.json.gz"
    CLI_CMD=eval run "$D/qrels" "$D/cut.json.gz"
    [ "$rc" -eq 2 ] && grep -q 'cut.json.gz:[2-4]: the gzip data ends early' "$D/err"
    report $? "a truncated gzip JSON run names the line reached"
else
    ok 0 "# SKIP gzip or zstd is missing"
fi
done_testing
