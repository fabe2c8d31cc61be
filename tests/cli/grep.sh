#!/bin/sh
# grep.sh — `retriage grep`, whole-collection search: every passage whose text holds all the words
# (ASCII letters in either case, Chinese as its bytes), in file order, against awk's answer over a
# generated collection of two threads' size; snippets; JSON; gzip; bad input names file:line;
# and on the DuReader demo collection when ../shared is there.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export LC_ALL=C.UTF-8
CLI_CMD=grep

# 30,000 passages (over 1 MiB: read in two halves): words in mixed case, Chinese words, a pid that
# holds a word its text lacks, CRLF ends, a BOM, one passage of 5 MB (longer than a read buffer)
awk 'BEGIN {
    printf "\357\273\277";
    for (i = 1; i <= 30000; i++) {
        t = "passage " i;
        if (i % 7 == 0) t = t " the Needle here";
        if (i % 11 == 0) t = t " 踩踏事故 发生";
        if (i % 13 == 0) t = t " NEEDLE again and needle";
        if (i % 17 == 0) t = t " haystack";
        pid = (i % 1000 == 0) ? "needle-" i : "p" i;
        end = (i % 5 == 0) ? "\r\n" : "\n";
        if (i == 20000) { x = "xxxxxxxxxx"; while (length(x) < 5000000) x = x x; t = t " " x " needle far" }
        printf "%s\t%s%s", pid, t, end
    }
}' > "$D/coll.tsv"
[ "$(wc -c < "$D/coll.tsv")" -gt 5000000 ]
ok $? "the generated collection is over 5 MB (two halves, a line longer than a read buffer)"

# reference: the pids whose text (after the tab, line end stripped) holds every word, any case for ASCII
ref() {
    awk -v words="$*" 'BEGIN { n = split(words, w, " "); for (k = 1; k <= n; k++) w[k] = tolower(w[k]) }
        { sub(/\r$/, ""); if (NR == 1) sub(/^\357\273\277/, "")
          tab = index($0, "\t"); text = tolower(substr($0, tab + 1)); pid = substr($0, 1, tab - 1)
          for (k = 1; k <= n; k++) if (index(text, w[k]) == 0) next
          print pid }' "$D/coll.tsv"
}
check() {   # check NAME WORD... — the pids found equal awk's, in order
    name=$1; shift
    run --collection "$D/coll.tsv" "$@"
    cut -f1 "$D/out" > "$D/got"
    ref "$@" > "$D/want"
    [ "$rc" -eq 0 ] && cmp -s "$D/got" "$D/want" && [ -s "$D/want" ]
    ok $? "$name: $(wc -l < "$D/want") passages, as awk finds them, in file order"
}
check "one ASCII word in any case (needle, Needle, NEEDLE)" needle
check "two words, one Chinese" NEEDLE 踩踏事故
check "three words" haystack 发生 needle
check "the 5 MB passage's far word" far
run --collection "$D/coll.tsv" zzz
[ "$rc" -eq 0 ] && [ ! -s "$D/out" ]
ok $? "a word in no passage: no line, exit 0"
run --collection "$D/coll.tsv" needle-1000
[ "$rc" -eq 0 ] && [ ! -s "$D/out" ]
ok $? "a word only in pids is not found (the text is searched)"

# the snippet: the text around the first word's first match, whole characters, no tab or line break
run --collection "$D/coll.tsv" 踩踏事故
awk -F'\t' 'NF != 2 || index($2, "踩踏事故") == 0 { bad = 1 } END { exit bad || NR == 0 }' "$D/out" &&
    ! grep -q "$(printf '\r')" "$D/out" && iconv -f UTF-8 -t UTF-8 "$D/out" > /dev/null
ok $? "each line is pid<TAB>snippet; the snippet holds the match, is valid UTF-8, has no CR"
run --collection "$D/coll.tsv" far
len=$(cut -f2 "$D/out" | wc -c)
[ "$len" -le 162 ] && cut -f2 "$D/out" | grep -q "needle far"
ok $? "the snippet of a 5 MB passage is at most 160 bytes around the match ($len)"

# JSON
run --collection "$D/coll.tsv" --format json haystack 发生
if command -v python3 > /dev/null; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d["matches"]
ok = d["words"] == ["haystack", "发生"] and len(m) > 0
for x in m: ok = ok and ("发生" in x["snippet"] or "haystack" in x["snippet"].lower())
sys.exit(0 if ok else 1)' "$D/out"
    st=$?
    python3 -c 'import json,sys; print("\n".join(x["pid"] for x in json.load(open(sys.argv[1]))["matches"]))' "$D/out" > "$D/got"
    ref haystack 发生 > "$D/want"
    cmp -s "$D/got" "$D/want" || st=1
    ok $st "--format json: the words, and each match's pid and snippet; the same passages"
else
    ok 0 "# SKIP --format json: python3 is not here to read it"
fi

# gzip: one thread, the same answer
gzip -c "$D/coll.tsv" > "$D/coll.tsv.gz"
run --collection "$D/coll.tsv.gz" needle
cut -f1 "$D/out" > "$D/got"; ref needle > "$D/want"
[ "$rc" -eq 0 ] && cmp -s "$D/got" "$D/want"
ok $? "a gzip collection: the same passages"

# a stream: standard input (one thread, as a compressed file)
"$RETRIAGE" grep --collection - needle < "$D/coll.tsv" > "$D/out" 2> "$D/err"
rc=$?
cut -f1 "$D/out" > "$D/got"; ref needle > "$D/want"
[ "$rc" -eq 0 ] && cmp -s "$D/got" "$D/want"
ok $? "--collection - (standard input): the same passages"

# bad input
printf 'a\tfine needle\nno tab needle here\n' > "$D/bad.tsv"
run --collection "$D/bad.tsv" needle
[ "$rc" -eq 2 ] && has_text "bad.tsv:2: expected pid<TAB>text" "$D/err"
ok $? "a line without a tab that holds the word: file:line, exit 2 ($(cat "$D/err"))"
run --collection "$D" needle
[ "$rc" -eq 2 ] && has_text "is a directory" "$D/err"
ok $? "a folder as the collection: exit 2, said ($(cat "$D/err"))"
run --collection "$D/none.tsv" needle
[ "$rc" -eq 2 ] && has_text "none.tsv" "$D/err"
ok $? "a missing collection: exit 2, named"
run --collection "$D/coll.tsv"
[ "$rc" -eq 1 ]
ok $? "no word: usage error, exit 1"
run --collection "$D/coll.tsv" ""
[ "$rc" -eq 1 ]
ok $? "an empty word: usage error, exit 1"
run --collection "$D/coll.tsv" -o "$D/coll.tsv" needle
[ "$rc" -eq 2 ] && [ -s "$D/coll.tsv" ]
ok $? "-o over the collection is refused, the collection untouched"

# the DuReader demo collection: as grep over the texts
S="$SHARED_DATA/dureader2-demo-ws"
if [ -f "$S/collection.tsv" ]; then
    run --collection "$S/collection.tsv" 2017 年
    cut -f1 "$D/out" > "$D/got"
    awk -F'\t' 'index($2, "2017") && index($2, "年") { print $1 }' "$S/collection.tsv" > "$D/want"
    [ "$rc" -eq 0 ] && cmp -s "$D/got" "$D/want" && [ "$(wc -l < "$D/want")" -gt 10 ]
    ok $? "the DuReader demo collection: 2017 年 finds the $(wc -l < "$D/want") passages awk finds"
else
    ok 0 "# SKIP the DuReader demo collection: ../shared/data is absent"
fi
done_testing
