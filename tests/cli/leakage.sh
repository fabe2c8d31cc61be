#!/bin/sh
# leakage.sh — the workbench's leakage review on the demo (training queries named by the
# workspace): review labels are journal operations that survive reopening and undo, and the
# leaked / others split of `retriage export --what leakage` follows them.
. "$SRCDIR/tests/lib.sh"
export RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json" XDG_CACHE_HOME="$TMPD/cache" LC_ALL=C.UTF-8
[ -f "$RETRIAGE_DEMO" ] || skip_all "the demo workspace is missing"
J="$TMPD/j"
run() { "$RETRIAGE" --demo --journal-dir "$J" --annotator rev --script "$1" --size 120x30 --echo; }

# three typed pairs: q01×t001 specialization, q01×t014 not a leak, q18×t002 identical
printf 'D\n3\n6\n:goto q18\nD\n' > "$TMPD/s1"
run "$TMPD/s1" > "$TMPD/out1"; ok $? "review session runs"
grep -q 'q01 × t001: specialization' "$TMPD/out1"; ok $? "first pair typed specialization"
grep -q 'q01 × t014: not-leak' "$TMPD/out1"; ok $? "second pair typed not-leak"
n=$(grep -c '"op":"leak"' "$J/rev.jsonl"); [ "$n" = 2 ]; ok $? "two leak operations in the journal (got $n)"

# reopen: the labels are replayed (the view shows them) and the split counts q01 only
printf 'D\n:snapshot %s\n' "$TMPD/snap" > "$TMPD/s2"
run "$TMPD/s2" > /dev/null; ok $? "reopened"
grep -q 'specialization' "$TMPD/snap" && grep -q 'not-leak' "$TMPD/snap"; ok $? "labels shown after reopening"
grep -q 'reviewed 2/' "$TMPD/snap"; ok $? "progress counts the reviewed pairs"
for size in 80x24 140x42; do
    "$RETRIAGE" --demo --journal-dir "$J" --annotator rev --script "$TMPD/s2" --size $size > /dev/null
    sed 's/\xc2\xa0/ /g' "$TMPD/snap" > "$TMPD/snap.sp"   # the keys hold no-break spaces
    grep -q '3 specialization (1)' "$TMPD/snap.sp" && grep -q '6 not-leak (1)' "$TMPD/snap.sp" &&
        grep -q '1 identical (0)' "$TMPD/snap.sp" && grep -q 'x next unreviewed' "$TMPD/snap.sp" &&
        grep -q 'test queries confirmed leaked' "$TMPD/snap.sp"
    ok $? "$size: the review view counts the pairs of each type, its key line and header wrapped, not cut"
done
"$RETRIAGE" export --demo --journal-dir "$J" --annotator rev --what leakage > "$TMPD/split"
ok $? "export --what leakage"
awk -F'\t' 'NR > 1 && ($5 != 1 || $6 != 33) { bad = 1 } END { exit bad }' "$TMPD/split"
ok $? "one duplicated query (q01), 33 others"

# the review itself: each reviewed pair with the check's cosine, and the count per type
"$RETRIAGE" export --demo --journal-dir "$J" --annotator rev --what leak-pairs > "$TMPD/pairs"
ok $? "export --what leak-pairs"
"$RETRIAGE" leak --train "$SRCDIR/data/demo/train_queries.tsv" --test "$SRCDIR/data/demo/queries.tsv" 2>/dev/null |
    awk -F'\t' '$1 == "q01" && ($2 == "t001" || $2 == "t014") { print $1 "\t" $2 "\t" $3 }' | sort > "$TMPD/want_cos"
awk -F'\t' 'NR > 1 { printf "%s\t%s\t%.6f\n", $1, $2, $3 }' "$TMPD/pairs" | sort > "$TMPD/got_cos"
cmp -s "$TMPD/want_cos" "$TMPD/got_cos"; ok $? "leak-pairs: the reviewed pairs with the cosine retriage leak reports"
awk -F'\t' 'NR == 1 { ok = $4 == "type" && $5 == "leak" && $6 == "author" && $7 == "time" }
             NR > 1 && $6 != "rev" { ok = 0 } NR > 1 && $7 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T/ { ok = 0 }
             $2 == "t001" && ($4 != "specialization" || $5 != "yes") { ok = 0 }
             $2 == "t014" && ($4 != "not-leak" || $5 != "no") { ok = 0 } END { exit !ok }' "$TMPD/pairs"
ok $? "leak-pairs: type, leak or not, who and when of each"
"$RETRIAGE" export --demo --journal-dir "$J" --annotator rev --what leak-types > "$TMPD/types"
ok $? "export --what leak-types"
awk -F'\t' '$1 == "specialization" && $3 == 1 && $4 == 0.5 { a = 1 } $1 == "not-leak" && $3 == 1 { b = 1 }
             $1 == "identical" && $3 == 0 { c = 1 } $1 == "all" && $3 == 2 { d = 1 } END { exit !(a && b && c && d) }' "$TMPD/types"
ok $? "leak-types: one specialization, one not-leak, shares of the two reviewed"
"$RETRIAGE" export --demo --journal-dir "$J" --annotator rev --what leak-types --format json > "$TMPD/types.json"
if [ -n "$PYTHON3" ]; then
    "$PYTHON3" -c 'import json, sys; r = {x["type"]: x for x in json.load(open(sys.argv[1]))}; sys.exit(r["all"]["pairs"] != 2)' "$TMPD/types.json"
    ok $? "leak-types as JSON parses, with numbers"
else
    ok 0 "# SKIP python3 is absent (leak-types as JSON)"
fi

# undo the last label through the journal: q01 stays leaked (specialization), none removed
printf ':undo\n' > "$TMPD/s3"
run "$TMPD/s3" > "$TMPD/out3"; grep -q 'undone: q01 × t014: label removed' "$TMPD/out3"
ok $? "undo of a leak label appends its inverse"
printf ':undo\n' > "$TMPD/s4"
run "$TMPD/s4" > /dev/null
"$RETRIAGE" export --demo --journal-dir "$J" --annotator rev --what leakage > "$TMPD/split2"
awk -F'\t' 'NR > 1 && ($5 != 0 || $6 != 34) { bad = 1 } END { exit bad }' "$TMPD/split2"
ok $? "after undoing both labels nothing is leaked"

# candidates: every test query with a candidate above the threshold counts
"$RETRIAGE" export --demo --journal-dir "$J" --annotator rev --what leakage --leaked candidates > "$TMPD/split3"
want=$("$RETRIAGE" leak --train "$SRCDIR/data/demo/train_queries.tsv" --test "$SRCDIR/data/demo/queries.tsv" 2>/dev/null |
       awk -F'\t' 'NR > 1 { q[$1] = 1 } END { print length(q) }')
awk -F'\t' -v w="$want" 'NR > 1 && $5 != w { bad = 1 } END { exit bad }' "$TMPD/split3"
ok $? "--leaked candidates counts the $want test queries retriage leak reports"
"$RETRIAGE" export --demo --journal-dir "$J" --annotator rev --what leakage --leaked maybe > /dev/null 2>&1
[ $? = 1 ]; ok $? "a bad --leaked is a usage error"
done_testing
