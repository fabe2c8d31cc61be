#!/bin/sh
# compressed.sh — inputs compressed with gzip or zstd load directly, told by their first bytes and
# not their names: runs, qrels, queries, judgments, DuReader JSON lines, standard input; errors
# name the line of the decompressed text; a truncated or corrupt file is an error; a compressed
# collection is decompressed once into the cache folder and decompressed again when it changes.
# shellcheck disable=SC2086 # ($WS is split where used)
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
command -v gzip > /dev/null && command -v zstd > /dev/null || skip_all "gzip or zstd is missing (scripts/setup.sh installs them)"
R="$DEMO/runs"
"$RETRIAGE" eval -q "$DEMO/qrels.trec" "$R/bm25.trec" "$R/dense.trec" > "$D/plain" 2> /dev/null

gzip -c "$DEMO/qrels.trec" > "$D/qrels.gz"
zstd -q -c "$R/bm25.trec" > "$D/bm25.zst"
gzip -c "$R/dense.trec" > "$D/dense.trec"   # gzip data under a plain name: told by its bytes
"$RETRIAGE" eval -q "$D/qrels.gz" "$D/bm25.zst" "$D/dense.trec" > "$D/got" 2> "$D/err"
[ $? -eq 0 ] && cmp -s "$D/plain" "$D/got"
ok $? "eval of gzip qrels, a zstd run and a gzip run named .trec equals eval of the plain files"
cp "$R/bm25.trec" "$D/plain.gz"   # a plain file named .gz is read as it is
"$RETRIAGE" eval -q "$DEMO/qrels.trec" "$D/plain.gz" "$R/dense.trec" > "$D/got" 2> /dev/null
cmp -s "$D/plain" "$D/got"
ok $? "a plain file named .gz is read as plain text"
{ head -100 "$R/bm25.trec" | gzip -c; tail -n +101 "$R/bm25.trec" | gzip -c; } > "$D/two.gz"
"$RETRIAGE" eval -q "$DEMO/qrels.trec" "$D/two.gz" "$R/dense.trec" > "$D/got" 2> /dev/null
cmp -s "$D/plain" "$D/got"
ok $? "a gzip file of two members (concatenated) is read whole"
{ head -100 "$R/bm25.trec" | zstd -q -c; tail -n +101 "$R/bm25.trec" | zstd -q -c; } > "$D/two.zst"
"$RETRIAGE" eval -q "$DEMO/qrels.trec" "$D/two.zst" "$R/dense.trec" > "$D/got" 2> /dev/null
cmp -s "$D/plain" "$D/got"
ok $? "a zstd file of two frames is read whole"
"$RETRIAGE" eval -q "$DEMO/qrels.trec" - "$R/dense.trec" < "$D/bm25.zst" > "$D/got" 2> /dev/null
cmp -s "$D/plain" "$D/got"
ok $? "a zstd run on standard input"
RETRIAGE_PARALLEL_MIN=1 "$RETRIAGE" eval -q "$D/qrels.gz" "$D/bm25.zst" "$D/dense.trec" > "$D/got" 2> /dev/null
cmp -s "$D/plain" "$D/got"
ok $? "a compressed run is read in one piece where a plain one would be split between threads"

# errors: the line of the decompressed text; truncated and corrupt data
{ head -2 "$DEMO/qrels.trec"; echo "q01 0 p0001 high"; } | gzip -c > "$D/bad.gz"
"$RETRIAGE" eval "$D/bad.gz" "$R/bm25.trec" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && has_text "bad.gz:3: " "$D/err"
ok $? "an error names the line of the decompressed text ($(head -1 "$D/err"))"
head -c 300 "$D/bm25.zst" > "$D/cut.zst"
"$RETRIAGE" eval "$DEMO/qrels.trec" "$D/cut.zst" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "cut.zst:[0-9]*: the zstd data ends early (a truncated file)" "$D/err"
ok $? "a truncated zstd file is an error ($(head -1 "$D/err"))"
{ printf '\037\213\010\000\000\000\000\000\000\003'; head -c 200 /dev/zero | tr '\0' 'x'; } > "$D/corrupt.gz"
"$RETRIAGE" eval "$DEMO/qrels.trec" "$D/corrupt.gz" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && has_text "corrupt.gz:1: not valid gzip data" "$D/err"
ok $? "corrupt gzip data is an error ($(head -1 "$D/err"))"

# the workspace inputs: queries, a JSON-lines qrels, judgments to import, the collection
gzip -c "$DEMO/queries.tsv" > "$D/queries.tsv.gz"
gzip -c "$DEMO/collection.tsv" > "$D/collection.tsv.gz"
# DuReader's JSON lines: each question with its relevant paragraphs
awk '!($1 in seen) { seen[$1] = 1; order[++n] = $1; rel[$1] = "" }
     $4 > 0 { rel[$1] = rel[$1] (rel[$1] == "" ? "" : ", ") "{\"paragraph_id\": \"" $3 "\"}" }
     END { for (i = 1; i <= n; i++) printf "{\"question_id\": \"%s\", \"answer_paragraphs\": [%s]}\n", order[i], rel[order[i]] }' \
    "$DEMO/qrels.trec" | zstd -q -c > "$D/qrels.jsonl.zst"
# (a plain string, split where used: the test's own paths, from mktemp, hold no blanks)
WS="--queries $D/queries.tsv.gz --collection $D/collection.tsv.gz --qrels $D/qrels.jsonl.zst
    --run $D/bm25.zst --journal-dir $D/j --annotator c"
"$RETRIAGE" export $WS --what metrics > "$D/m1" 2> "$D/err1"
"$RETRIAGE" export --demo --journal-dir "$D/j0" --what metrics 2> /dev/null | awk -F'\t' 'NR == 1 || $1 == "bm25"' > "$D/m0"
[ -s "$D/m1" ] && cmp -s "$D/m0" "$D/m1"
ok $? "a workspace of compressed queries, collection, JSON-lines qrels and run: the demo's metrics"
set -- "$D"/cache/retriage/decompressed/*.tsv
[ -e "$1" ]
ok $? "the collection is decompressed into the cache folder"
printf ':goto q01\n<Enter>\n:snapshot %s/p\n' "$D" > "$D/s"
for size in 80x24 140x42; do
    "$RETRIAGE" $WS --script "$D/s" --size $size > /dev/null 2>&1
    grep -q "^2018年冬奥会在哪个城市举办" "$D/p"
    ok $? "$size: the workbench shows the passages of a gzip collection"
done
# (its inode and its time to the nanosecond: a text written again is a new file, renamed into place)
t1=$(stat -c '%i %y' "$D"/cache/retriage/decompressed/*.tsv | head -1)
"$RETRIAGE" export $WS --what metrics > /dev/null 2>&1
t2=$(stat -c '%i %y' "$D"/cache/retriage/decompressed/*.tsv | head -1)
[ "$t1" = "$t2" ]
ok $? "the next open reuses the decompressed text"
{ zcat "$D/collection.tsv.gz"; printf 'p9999\ta passage added later\n'; } | gzip -c > "$D/c2" && mv "$D/c2" "$D/collection.tsv.gz"
"$RETRIAGE" export $WS --what metrics > /dev/null 2> "$D/err3"
grep -q "p9999" "$D"/cache/retriage/decompressed/*.tsv
ok $? "a changed compressed collection is decompressed again"
set -- "$D"/cache/retriage/decompressed/*.tsv
printf 'p9998\ta line the cache did not get from the source\n' >> "$1"
"$RETRIAGE" export $WS --what metrics > /dev/null 2>&1
! grep -q "p9998" "$D"/cache/retriage/decompressed/*.tsv && grep -q "p9999" "$D"/cache/retriage/decompressed/*.tsv
ok $? "a decompressed text changed in the cache is not used: it is decompressed again"
printf 'p1\tone\np2\n' | gzip -c > "$D/badc.gz"
"$RETRIAGE" export --queries "$DEMO/queries.tsv" --collection "$D/badc.gz" --qrels "$DEMO/qrels.trec" --run "$R/bm25.trec" \
    --journal-dir "$D/j" --what metrics > /dev/null 2> "$D/err"
[ $? -eq 2 ] && has_text "badc.gz (decompressed):2: expected pid<TAB>text" "$D/err"
ok $? "a bad collection line names the compressed file and the line ($(head -1 "$D/err"))"

# judgments to import
printf 'q01 0 p0023 1\n' | gzip -c > "$D/judg.gz"
"$RETRIAGE" import --demo --journal-dir "$D/ji" --annotator imp --judgments "$D/judg.gz" > /dev/null 2> "$D/err"
[ $? -eq 0 ] && grep -q '"op":"label"' "$D/ji/imp.jsonl"
ok $? "judgments to import may be compressed"
done_testing
