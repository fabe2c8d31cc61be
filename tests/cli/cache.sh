#!/bin/sh
# cache.sh — the workspace cache (issue 15): a second open maps the parsed qrels and runs instead
# of reading them, and no number changes (every per-query value, the metrics, the qrels and the
# load report are compared with an open that reads everything: --no-cache); a change to any
# input (its size, mtime, inode, content or ctime, each in turn) is seen and the cache rebuilt; a
# damaged or half-written cache is never used; two processes opening at once both work; a folder
# where the cache cannot go falls back to the cache folder; --no-cache neither reads nor writes it.
# CACHE_FLIPS sets the number of random damages tried on the cache and on the index (default 24).
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8 RETRIAGE_CACHE_MIN=0

# The workspace: the demo (copied: the cache goes beside the collection) and a fourth run that
# has duplicate lines, a query whose lines are not together and a query nobody judged.
mkdir "$D/ws"
cp -r "$DEMO/queries.tsv" "$DEMO/collection.tsv" "$DEMO/qrels.trec" "$DEMO/runs" "$D/ws/"
R=$D/ws/runs
{ head -60 "$R/bm25.trec"; head -5 "$R/dense.trec" | sed 's/dense$/odd/'; sed -n 3,7p "$R/bm25.trec";
  tail -n +61 "$R/bm25.trec"; echo "q-unjudged Q0 p0001 1 3.5 odd"; } | sed 's/bm25$/odd/' > "$R/odd.trec"
cat > "$D/ws/workspace.json" <<'EOF'
{"name": "cache test", "queries": "queries.tsv", "collection": "collection.tsv", "qrels": "qrels.trec",
 "runs": ["runs/bm25.trec", "runs/dense.trec", {"name": "rr", "path": "runs/rerank.trec"}, "runs/odd.trec"],
 "measures": "RR@10,R@50,nDCG@10,AP,P@5,Success@1,Rprec,MFR,NumRelRet"}
EOF
WS=$D/ws/workspace.json
# (a workspace file names its measures, and -m beside it is refused; a
# second workspace file over the same inputs, with other measures, shares the cache)
sed 's/"measures": "[^"]*"/"measures": "RR@10,AP"/' "$WS" > "$D/ws/other.json"
printf 'L\n:snapshot %s\n:quit\n' "$D/report.txt" > "$D/report.script"

# report [ARGS…] — opens the workspace in script mode; its load report goes to $D/report.txt
report_of() {
    rm -f "$D/report.txt"
    "$RETRIAGE" "$WS" "$@" --script "$D/report.script" --size 250x40 > /dev/null 2> "$D/err"
    rc=$?
}
# open_values DIR [ARGS…] — an open of the workspace: its load report in DIR/report.txt and its
# per-query values, metrics and qrels in DIR/per-query, DIR/metrics, DIR/qrels
open_values() {
    local dir=$1
    shift
    rm -rf "$dir" && mkdir "$dir" && values_into "$dir" "$@"
}
# values_into DIR [ARGS…] — open_values into DIR, which exists and is empty
values_into() {
    local dir=$1
    shift
    printf 'L\n:snapshot %s\n:export per-query tsv %s\n:export metrics tsv %s\n:export qrels trec %s\n:quit\n' \
        "$dir/report.txt" "$dir/per-query" "$dir/metrics" "$dir/qrels" > "$dir.script"
    "$RETRIAGE" "$WS" "$@" --script "$dir.script" --size 250x40 > /dev/null 2> "$dir.err"
}
# says DIR TEXT — the load report in DIR says TEXT (no process: the flips run it often)
says() {
    [ -f "$1/report.txt" ] || return 1
    says_r=
    while IFS= read -r says_l || [ -n "$says_l" ]; do says_r="$says_r$says_l
"; done < "$1/report.txt"
    case $says_r in *"$2"*) return 0 ;; esac
    return 1
}
# values NAME [ARGS…] — every number the workspace gives (per-query values, metrics, qrels) in
# $D/NAME, from one open (open_values)
values() {
    local name=$1
    shift
    open_values "$D/v.$name" "$@"
    cat "$D/v.$name/per-query" "$D/v.$name/metrics" "$D/v.$name/qrels" > "$D/$name" 2> "$D/err.$name"
}
has() { says "$D" "$1"; }   # has TEXT — the load report in $D/report.txt says TEXT

report_of --no-cache   # the collection's index first, so that both reports below say "reused"
report_of
[ "$rc" -eq 0 ] && has "workspace cache written" && ls "$D/ws"/collection.tsv.*.rtws > /dev/null 2>&1
ok $? "a first open writes the cache beside the collection"
cache=$(ls "$D/ws"/collection.tsv.*.rtws)
grep -v 'workspace cache' "$D/report.txt" > "$D/report.parsed"
report_of
has "$cache: workspace cache reused"
ok $? "the second open reuses it"
grep -v 'workspace cache' "$D/report.txt" > "$D/report.cached"
rm -f "$D/report.txt"
(cd "$D" && "$RETRIAGE" ws/workspace.json --script "$D/report.script" --size 250x40 > /dev/null 2>&1)
has "workspace cache reused" && [ "$(ls "$D/ws" | grep -c '\.rtws$')" -eq 1 ]
ok $? "the workspace opened by a relative name finds the same cache (one file)"
cmp -s "$D/report.parsed" "$D/report.cached"
ok $? "the load report is the same, duplicates and unjudged queries included"
grep -q "duplicate passages dropped" "$D/report.cached"
ok $? "(the odd run's duplicates are in it)"

values fresh --no-cache
values cached
[ -s "$D/fresh" ] && cmp -s "$D/fresh" "$D/cached"
ok $? "every per-query value, metric and judgment is the same with and without the cache"
# the evaluation against the base qrels is kept for the measures that wrote the cache: a reopen
# with them reads it, with others evaluates again; both as without a cache
rm -f "$D/ws"/*.rtws
"$RETRIAGE" export "$WS" --what per-query > "$D/pq1" 2> /dev/null   # writes it, with its measures' evals
"$RETRIAGE" export "$WS" --what per-query > "$D/pq2" 2> /dev/null   # reads them
"$RETRIAGE" export "$WS" --what per-query --no-cache > "$D/pq0" 2> /dev/null
"$RETRIAGE" export "$D/ws/other.json" --what per-query > "$D/pq3" 2> /dev/null   # other measures
"$RETRIAGE" export "$D/ws/other.json" --what per-query --no-cache > "$D/pq4" 2> /dev/null
[ -s "$D/pq0" ] && cmp -s "$D/pq0" "$D/pq1" && cmp -s "$D/pq0" "$D/pq2" && [ -s "$D/pq4" ] && cmp -s "$D/pq3" "$D/pq4" &&
    head -1 "$D/pq0" | grep -q 'NumRelRet' && head -1 "$D/pq3" | grep -q 'AP' && ! head -1 "$D/pq3" | grep -q 'nDCG' &&
    [ "$(ls "$D/ws" | grep -c '\.rtws$')" -eq 1 ]
ok $? "per-query values from the cached evaluation, and with other measures, as without a cache"
[ "$(grep -c . "$D/fresh")" -gt 200 ]
ok $? "(that is $(grep -c . "$D/fresh") lines of values)"

# ---- the collection indexed on its own thread while the runs are parsed (large collections; all here)
rm -f "$D/ws/collection.tsv.rtidx" "$cache"
report_of --no-cache
grep -v 'workspace cache' "$D/report.txt" > "$D/report.seq"
rm -f "$D/ws/collection.tsv.rtidx"
RETRIAGE_PARALLEL_MIN=0 report_of --no-cache
grep -v 'workspace cache' "$D/report.txt" > "$D/report.par"
cmp -s "$D/report.seq" "$D/report.par" && grep -q "index built" "$D/report.par"
ok $? "a collection indexed and runs parsed on threads: the same load report, in the same order"
rm -f "$D/ws/collection.tsv.rtidx"
RETRIAGE_PARALLEL_MIN=0 values par
cmp -s "$D/fresh" "$D/par"
ok $? "and the same values"
report_of
has "workspace cache reused" && [ -f "$cache" ]
ok $? "(the cache is there again for what follows)"

# ---- a change to an input, one property at a time ----------------------------------------------
# stale PROP NAME — the next open names the changed property, rebuilds, and the values are those
# of reading everything
stale() {
    local prop=$1 what=$2
    report_of
    st=0
    has "changed ($prop)" || st=1
    has "workspace cache written" || st=1
    values fresh --no-cache
    values cached
    cmp -s "$D/fresh" "$D/cached" || st=1
    report_of
    has "workspace cache reused" || st=1
    ok $st "$what: seen as '$prop', rebuilt, values as read afresh, reused after"
    [ $st -eq 0 ] || diag < "$D/report.txt"
}
echo "q-unjudged Q0 p0002 2 3.0 odd" >> "$R/odd.trec"
stale size "a line appended to a run"
touch -m -d '2020-01-02 03:04:05' "$R/dense.trec"
stale mtime "a run's mtime set back"
cp -p "$D/ws/qrels.trec" "$D/q.tmp" && mv "$D/q.tmp" "$D/ws/qrels.trec"
stale inode "the qrels replaced by a copy (same size and mtime)"
old=$(stat -c %y "$R/bm25.trec")
{ sed -n 2p "$R/bm25.trec"; sed -n 1p "$R/bm25.trec"; tail -n +3 "$R/bm25.trec"; } > "$D/b.tmp"
cat "$D/b.tmp" > "$R/bm25.trec" && touch -d "$old" "$R/bm25.trec"   # two lines swapped: same size
stale content "a run rewritten in place at the same size with its mtime put back"
chmod 600 "$D/ws/queries.tsv"
stale ctime "the queries' mode changed (ctime only)"

# ---- the collection: a change to it is no reason to parse the runs again -------------------------
q1=$(head -1 "$D/ws/qrels.trec" | cut -d' ' -f1)
echo "$q1 0 p-absent 1" >> "$D/ws/qrels.trec"   # a judged passage the collection lacks
report_of
grep 'not in the collection' "$D/report.txt" > "$D/missing.before"
printf 'p-new\ta passage added\n' >> "$D/ws/collection.tsv"
report_of
grep 'not in the collection' "$D/report.txt" > "$D/missing.after"
has "workspace cache reused" && has "index built" && grep -q "1 judged passages" "$D/missing.before" &&
    cmp -s "$D/missing.before" "$D/missing.after"
ok $? "a changed collection: reindexed, the cache still used, the judged pids it lacks counted again"
printf 'p-absent\tnow here\n' >> "$D/ws/collection.tsv"
report_of
has "workspace cache reused" && ! grep -q 'not in the collection' "$D/report.txt"
ok $? "(the judged pid added to the collection: none missing now)"
values fresh --no-cache   # the values of the qrels as they are now, for what follows

# ---- a damaged or half-written cache is never used -----------------------------------------------
size=$(stat -c %s "$cache")
head -c $((size / 2)) "$cache" > "$D/half" && cat "$D/half" > "$cache"
report_of
[ "$rc" -eq 0 ] && ! has "workspace cache reused" && has "workspace cache written"
ok $? "a cache cut in half is not used, and written again whole"
values cached
cmp -s "$D/fresh" "$D/cached"
ok $? "(values as read afresh)"
# u64 AT — the number at byte AT of the cache
u64() { od -An -t u8 -j "$1" -N 8 "$cache" | tr -d ' '; }
# damage NAME SECTION AT BYTES — writes BYTES at byte AT of section SECTION (0 qids, 1 pids, 2 qrels,
# 3 report, 4 evals, 5… runs; the layout is in src/rt_wscache.c), then the open must see the damage
damage() {
    ninputs=$(u64 40)
    sec=$(u64 $((64 + 72 + 56 * ninputs + 24 * $2)))
    printf "$4" | dd of="$cache" bs=1 seek=$((sec + $3)) conv=notrunc 2> /dev/null
    report_of
    st=0
    [ "$rc" -eq 0 ] && ! crashed && has "workspace cache damaged" && has "workspace cache written" || st=1
    values cached
    cmp -s "$D/fresh" "$D/cached" || st=1
    ok $st "$1: seen as damaged, not used, written again; values as read afresh"
    [ $st -eq 0 ] || diag < "$D/report.txt"
}
damage "a pid's offset past the pid table's strings" 1 24 '\377\377\377\377\377\377\377\177'
damage "a judged query's number past the qids" 2 32 '\377\377\377\177'
damage "a run's first query past the qids" 5 112 '\377\377\377\177'
# a cache whose header names another version (3 kept each run's scores) is not read as this one's
report_of
has "workspace cache reused" && [ "$(od -An -t u4 -j 8 -N 4 "$cache" | tr -d ' ')" -eq 5 ]
ok $? "(the cache is whole again, of version 5)"
# the header hash recomputed over the same bytes: the cache stays in use, so the tool hashes as
# the cache does, and the version check below is seen on its own, not through the hash
"$WSCACHE_RESEAL" "$cache" && report_of && has "workspace cache reused"
ok $? "(a cache whose header hash is recomputed unchanged is still used)"
printf '\003\000\000\000' | dd of="$cache" bs=1 seek=8 conv=notrunc 2> /dev/null
"$WSCACHE_RESEAL" "$cache"
report_of
st=0
[ "$rc" -eq 0 ] && ! crashed && ! has "workspace cache reused" && has "workspace cache written" || st=1
[ "$(od -An -t u4 -j 8 -N 4 "$cache" | tr -d ' ')" -eq 5 ] || st=1
values cached
cmp -s "$D/fresh" "$D/cached" || st=1
ok $st "a cache of another version (its header hash right) is not used, and written again as this one's; values as read afresh"
# what a killed writer leaves: a temporary of a dead process beside the cache
head -c 1000 "$cache" > "$cache.tmp-999999-1"
report_of
has "workspace cache reused"
ok $? "a killed writer's temporary is never read"
touch "$R/odd.trec"
report_of
has "workspace cache written" && [ ! -e "$cache.tmp-999999-1" ]
ok $? "and is swept at the next write"

# ---- every byte of the cache is checksummed (issue 33, item 5) ------------------------------------
# What the attach functions cannot check, values: a damaged cache must never change a number.
# damaged_values NAME — every number (as values) from the damaged cache as it is now: each export
# starts from the damaged copy (the first open writes the cache again); then the load report of an
# open of that copy, in $D/report.txt
damaged_values() {
    cp "$cache" "$D/damaged"
    : > "$D/$1"
    local w
    for w in per-query metrics qrels; do
        cp "$D/damaged" "$cache"
        "$RETRIAGE" export "$WS" --what "$w" >> "$D/$1" 2> "$D/err.$1" || echo "exit $? ($w)" >> "$D/$1"
    done
    cp "$D/damaged" "$cache"
    report_of
}
report_of   # a whole cache, written by this build
has "workspace cache reused"
ok $? "(the cache is whole before the checksum tests)"
cp "$cache" "$D/whole"
# (a) the cached metric values edited: run 1's first 64 values made 1.0 (RR@10 = 1 everywhere)
ninputs=$(u64 40)
evals=$(u64 $((64 + 72 + 56 * ninputs + 24 * 4)))
for i in $(seq 0 63); do printf '\000\000\000\000\000\000\360\077'; done |
    dd of="$cache" bs=1 seek=$((evals + 32)) conv=notrunc 2> /dev/null
damaged_values edited
st=0
cmp -s "$D/fresh" "$D/edited" || st=1
has "workspace cache damaged (the checksum of its evaluations does not match); the inputs are read again" || st=1
ok $st "cached metric values edited: every value as read afresh, and the load report says the cache was damaged"
[ $st -eq 0 ] || { diff "$D/fresh" "$D/edited" | head -5 | diag; diag < "$D/report.txt"; }
# (b) 1-8 random bytes at a random place of each part in turn (the header, stamps and section
# table, then each section), FLIPS trials (each part at least twice), seeded: every number as read
# afresh, the open says the cache was damaged (or the bytes written were those already there, and
# it is reused). (tests/fuzz/fuzz_wscache damages caches far more widely, for crashes and reads out
# of bounds; these trials check the numbers.) One open a trial
# gives the load report and every number (the workbench's :export writes what `export` writes);
# the parts' places are read once from the whole cache, and the loop runs few other processes.
FLIPS=${CACHE_FLIPS:-24}
open_values "$D/vfresh" --no-cache
[ -s "$D/vfresh/per-query" ] && [ -s "$D/vfresh/metrics" ] && [ -s "$D/vfresh/qrels" ] &&
    cat "$D/vfresh/per-query" "$D/vfresh/metrics" > "$D/vfresh.both" &&
    "$RETRIAGE" export "$WS" --no-cache --what per-query > "$D/pq.cli" &&
    "$RETRIAGE" export "$WS" --no-cache --what metrics > "$D/m.cli" &&
    cat "$D/pq.cli" "$D/m.cli" | cmp -s - "$D/vfresh.both"
ok $? "(an open's :export gives the numbers export gives: the flips below compare them)"
nsec=$((5 + 4))
meta=$((64 + 72 + 56 * ninputs + 24 * nsec))
# the trials, seeded: "part start length n at hex" a line, each part's place read from the section
# table of the whole cache (offset, length, checksum a section) in one od
od -An -t u8 -j $((64 + 72 + 56 * ninputs)) -N $((24 * nsec)) "$D/whole" |
    awk -v flips="$FLIPS" -v nsec="$nsec" -v meta="$meta" '
    { for (i = 1; i <= NF; i++) v[n++] = $i }
    END {
        srand(33)
        start[0] = 0; len[0] = meta
        for (p = 0; p < nsec; p++) { start[p + 1] = v[3 * p]; len[p + 1] = v[3 * p + 1] }
        for (t = 1; t <= flips; t++) {
            part = (t - 1) % (nsec + 1)   # 0: the meta; 1…: section part-1
            k = int(rand() * 8) + 1
            if (k > len[part]) k = len[part]
            at = start[part] + int(rand() * (len[part] - k + 1))
            hex = ""
            for (b = 0; b < k; b++) hex = hex sprintf("%02x", int(rand() * 256))
            print part, start[part], len[part], k, at, hex
        }
    }' > "$D/trials"
[ "$(grep -c . "$D/trials")" -eq "$FLIPS" ] || echo "the trials could not be drawn" | diag
# ($FLIP writes the damaged copy: one process where cp, dd and cmp took four; each trial has a
# folder of its own, made in one mkdir)
bad=0
dirs=
trial=1
while [ $trial -le "$FLIPS" ]; do dirs="$dirs $D/flip$trial"; trial=$((trial + 1)); done
# shellcheck disable=SC2086 # (folders of the test, without blanks)
mkdir $dirs
trial=0
while read -r part start len n at hex <&3; do
    trial=$((trial + 1))
    "$FLIP" "$D/whole" "$cache" "$at" "$hex"
    same=$?   # 1: the bytes written were those already there
    [ $same -le 1 ] || { bad=$((bad + 1)); echo "trial $trial: no damaged copy of the cache" | diag; continue; }
    dir=$D/flip$trial
    values_into "$dir" < /dev/null
    rc=$?
    st=0
    diff -rq "$D/vfresh" "$dir" -x report.txt > /dev/null || st=1
    if [ $same -eq 1 ]; then
        says "$dir" "workspace cache reused" || st=1
    else
        { [ "$rc" -eq 0 ] && ! says "$dir" "workspace cache reused" &&
          { says "$dir" "workspace cache damaged" || says "$dir" "workspace cache not used"; }; } || st=1
    fi
    if [ $st -ne 0 ]; then
        bad=$((bad + 1))
        echo "trial $trial: $n bytes at $at (part $part, from $start, $len bytes): values or report wrong (exit $rc)" | diag
        diff -r "$D/vfresh" "$dir" | head -4 | diag
    fi
done 3< "$D/trials"
ok $((bad > 0)) "$FLIPS random flips of 1-8 bytes over every part of the cache: every value as read afresh, the damage reported ($bad wrong)"
cp "$D/whole" "$cache"

# (c) the collection's offset index, flipped the same way (FLIPS trials, the header now and then):
# dslabel (every passage's text read through the index) gives what it gives with an index built
# afresh, and the damaged index is built again (the same bytes as before the flip)
IDX=$D/ws/collection.tsv.rtidx
# dsl NAME — dslabel's labels and its summary line (stderr) in $D/NAME ("exit N" when not 0); a
# warning that the index was damaged is kept apart, in $D/NAME.warn (split without a process: the
# flips run it 40 times)
dsl() {
    "$RETRIAGE" dslabel --answers "$DEMO/answers.jsonl" --collection "$D/ws/collection.tsv" \
        --run "$R/bm25.trec" --run "$R/dense.trec" --with-f1 > "$D/$1" 2> "$D/$1.err" || echo "exit $?" >> "$D/$1"
    : > "$D/$1.warn"
    while IFS= read -r dsl_l; do
        case $dsl_l in
        *"offset index damaged"*) printf '%s\n' "$dsl_l" >> "$D/$1.warn" ;;
        *) printf '%s\n' "$dsl_l" >> "$D/$1" ;;
        esac
    done < "$D/$1.err"
}
rm -f "$IDX"
dsl dsl.fresh
cp "$IDX" "$D/idx.whole"
isize=$(stat -c %s "$IDX")
bad=0 warned=0
# the trials, seeded: "n at hex" a line; now and then the header
awk -v flips="$FLIPS" -v isize="$isize" 'BEGIN {
    srand(34)
    for (t = 1; t <= flips; t++) {
        n = int(rand() * 8) + 1
        if (t % 8 == 1) at = int(rand() * (136 - n + 1))
        else at = 136 + int(rand() * (isize - 136 - n + 1))
        hex = ""
        for (b = 0; b < n; b++) hex = hex sprintf("%02x", int(rand() * 256))
        print n, at, hex
    }
}' > "$D/itrials"
trial=0
while read -r n at hex <&3; do
    trial=$((trial + 1))
    "$FLIP" "$D/idx.whole" "$IDX" "$at" "$hex"
    [ $? -le 1 ] || { bad=$((bad + 1)); echo "trial $trial: no damaged copy of the index" | diag; continue; }
    dsl "dsl$trial" < /dev/null
    [ -s "$D/dsl$trial.warn" ] && warned=$((warned + 1))
    if ! cmp -s "$D/dsl.fresh" "$D/dsl$trial" || ! cmp -s "$D/idx.whole" "$IDX"; then
        bad=$((bad + 1))
        echo "trial $trial: $n bytes at $at of the index: dslabel's output differs or the index was not rebuilt" | diag
        diff "$D/dsl.fresh" "$D/dsl$trial" | head -4 | diag
    fi
done 3< "$D/itrials"
ok $((bad > 0)) "$FLIPS random flips of 1-8 bytes in the collection index: dslabel as with a fresh index, the index built again ($bad wrong; $warned said the index was damaged)"
grep -Eq ' [1-9][0-9]* positive' "$D/dsl.fresh"
ok $? "(dslabel found positives: $(grep -o '[0-9]* positive' "$D/dsl.fresh"))"
cp "$D/idx.whole" "$IDX"
printf '\377\377\377\377' | dd of="$IDX" bs=1 seek=$((isize - 100)) conv=notrunc 2> /dev/null
report_of
has "collection.tsv.rtidx: offset index damaged (its checksum does not match); the collection is indexed again" &&
    has "passages (index built"
ok $? "a damaged collection index: the load report says so in one line, and it is built again"

# (d) a compressed collection's decompressed copy edited in place, its mtime put back: seen (its
# ctime and content stamp), decompressed again; dslabel as before the edit
mkdir "$D/z"
command -v zstd > /dev/null || { echo "zstd (the tool) is missing: scripts/setup.sh installs it" | diag; exit 1; }
zstd -q "$D/ws/collection.tsv" -o "$D/z/c.tsv.zst"
zdsl() { "$RETRIAGE" dslabel --answers "$DEMO/answers.jsonl" --collection "$D/z/c.tsv.zst" \
             --run "$R/bm25.trec" --with-f1 > "$D/$1" 2>&1 || echo "exit $?" >> "$D/$1"; }
zdsl zdsl.0
copy=$(ls "$XDG_CACHE_HOME"/retriage/decompressed/*.tsv 2> /dev/null | head -n 1)
st=0
[ -n "$copy" ] && [ -f "$copy" ] || st=1
if [ $st -eq 0 ]; then
    old=$(stat -c %y "$copy")
    half=$(( $(stat -c %s "$copy") / 2 ))
    head -c $half /dev/zero | tr '\0' 'x' | dd of="$copy" bs=1 seek=$((half / 2)) conv=notrunc 2> /dev/null
    touch -d "$old" "$copy"
    [ "$(stat -c %y "$copy")" = "$old" ] || st=1
    zdsl zdsl.1
    cmp -s "$D/zdsl.0" "$D/zdsl.1" || st=1
    zstd -dcq "$D/z/c.tsv.zst" | cmp -s - "$copy" || st=1
fi
ok $st "a decompressed copy edited in place with its mtime put back: decompressed again, dslabel as before"
[ $st -eq 0 ] || diff "$D/zdsl.0" "$D/zdsl.1" | head -4 | diag

# ---- two processes at once ------------------------------------------------------------------------
rm -f "$cache"
"$RETRIAGE" export "$WS" --what per-query > "$D/c1" 2> "$D/e1" &
p1=$!
"$RETRIAGE" export "$WS" --what per-query > "$D/c2" 2> "$D/e2" &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
"$RETRIAGE" export "$WS" --what per-query --no-cache > "$D/c0" 2> /dev/null
[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s "$D/c0" "$D/c1" && cmp -s "$D/c0" "$D/c2"
ok $? "two processes opening the workspace at once both get the right values"
report_of
has "workspace cache reused" && [ -z "$(ls "$D/ws" | grep '\.tmp-')" ]
ok $? "(one of their caches is there, whole, and no temporary is left)"

# ---- where the cache cannot be written --------------------------------------------------------------
rm -f "$cache"
mkdir "$cache"   # a folder in its place: writing beside the collection fails, even as root
report_of
has "workspace cache written" && ls "$D/cache/retriage/workspaces/"*.rtws > /dev/null 2>&1
ok $? "a place that cannot be written: the cache goes to ~/.cache/retriage/workspaces/"
report_of
has "$D/cache/retriage/workspaces/" && has "workspace cache reused"
ok $? "and is reused from there"
values cached
cmp -s "$D/fresh" "$D/cached"
ok $? "(values as read afresh)"
rmdir "$cache"
rm -rf "$D/cache/retriage/workspaces"
# a named pipe in the cache's place, or the collection index's: never opened to be read (that would
# wait for a writer for ever); the cache goes to the cache folder, the index is built again
mkfifo "$cache"
mv "$D/ws/collection.tsv.rtidx" "$D/idx.keep"
mkfifo "$D/ws/collection.tsv.rtidx"
rm -f "$D/report.txt"
timeout 30 "$RETRIAGE" "$WS" --script "$D/report.script" --size 250x40 > /dev/null 2> "$D/err"
rc=$?
[ "$rc" -eq 0 ] && [ -p "$cache" ] && [ -p "$D/ws/collection.tsv.rtidx" ] && has "workspace cache written" &&
    ls "$D/cache/retriage/workspaces/"*.rtws > /dev/null 2>&1
ok $? "a named pipe where the cache and the index go: not waited on, left a pipe; the cache folder used (exit $rc)"
timeout 30 "$RETRIAGE" export "$WS" --what per-query > "$D/fifo.pq" 2> /dev/null &&
    "$RETRIAGE" export "$WS" --what per-query --no-cache > "$D/fifo.pq0" 2> /dev/null &&
    [ -s "$D/fifo.pq" ] && cmp -s "$D/fifo.pq0" "$D/fifo.pq"
ok $? "(values as read afresh)"
rm -f "$cache" "$D/ws/collection.tsv.rtidx"
mv "$D/idx.keep" "$D/ws/collection.tsv.rtidx"
rm -rf "$D/cache/retriage/workspaces"
# the collection itself a named pipe: refused as not mappable, not waited on
mkdir "$D/pipews"
cp "$D/ws/workspace.json" "$D/pipews/"
ln -s ../ws/queries.tsv "$D/pipews/queries.tsv"; ln -s ../ws/qrels.trec "$D/pipews/qrels.trec"; ln -s ../ws/runs "$D/pipews/runs"
mkfifo "$D/pipews/collection.tsv"
timeout 30 "$RETRIAGE" export "$D/pipews/workspace.json" --what metrics > /dev/null 2> "$D/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q 'collection.tsv: not a regular file' "$D/err"
ok $? "a collection that is a named pipe: refused (exit $rc), not waited on"

# a folder another user cannot write (as the issue's read-only folder): the user's cache folder
rm -f "$D/ws"/*.rtws
chmod -R a+rX "$D" && chmod 0755 "$D/ws"
if nobody_can "$WS"; then
    mkdir -m 0777 "$D/nobody" "$D/nobody/j"
    run_nobody() {
        rm -f "$D/report.txt"
        as_nobody env XDG_CACHE_HOME="$D/nobody/cache" \
            RETRIAGE_CACHE_MIN=0 "$RETRIAGE" "$WS" --journal-dir "$D/nobody/j" --annotator nob \
            --script "$D/nobody/report.script" --size 250x40 > /dev/null 2> "$D/err"
        rc=$?
        cp "$D/nobody/report.txt" "$D/report.txt" 2> /dev/null
    }
    printf 'L\n:snapshot %s\n:quit\n' "$D/nobody/report.txt" > "$D/nobody/report.script"
    run_nobody
    st=0
    [ "$rc" -eq 0 ] && has "workspace cache written" && ls "$D/nobody/cache/retriage/workspaces/"*.rtws > /dev/null 2>&1 &&
        [ -z "$(ls "$D/ws" | grep '\.rtws$')" ] || st=1
    run_nobody
    has "workspace cache reused" || st=1
    ok $st "a folder another user cannot write: their cache goes to their ~/.cache/retriage/workspaces/, and is reused"
else
    ok 0 "# SKIP $why_not"
fi
# ... and for any user, root included: neither beside the collection (a folder in the cache's place)
# nor in the cache folder (XDG_CACHE_HOME under a regular file: ENOTDIR, whoever asks): the open
# works all the same, with every value, and the report says why no cache was written
report_of --no-cache
values nocache --no-cache
mkdir "$cache"
touch "$D/plainfile"
XDG_CACHE_HOME="$D/plainfile/cache" report_of
XDG_CACHE_HOME="$D/plainfile/cache" values nowhere
[ "$rc" -eq 0 ] && has "workspace cache not written" && has "plainfile/cache: cannot create the folder: Not a directory" &&
    cmp -s "$D/nocache" "$D/nowhere" && [ -z "$(ls "$D/ws" | grep '\.rtws\.tmp')" ]
ok $? "no place the cache can be written (ENOTDIR, for any user): the open works, every value, the report says why"
rmdir "$cache"

# A run that fails, parsed on a thread: the error is the first failing run's, in the workspace's
# order, as in a sequential open (a later bad run, parsed before it, is not reported).
awk 'NR == 5 { $5 = "abc" } { print }' "$R/dense.trec" > "$D/ws/bad1.trec"
awk 'NR == 3 { $5 = "xyz" } { print }' "$R/bm25.trec" > "$D/ws/bad2.trec"
cat > "$D/ws/bad.json" <<'EOF'
{"name": "bad runs", "queries": "queries.tsv", "collection": "collection.tsv", "qrels": "qrels.trec",
 "runs": ["runs/bm25.trec", "bad1.trec", "runs/dense.trec", "bad2.trec"]}
EOF
"$RETRIAGE" export "$D/ws/bad.json" --what metrics --no-cache > /dev/null 2> "$D/bad.seq"
rc1=$?
RETRIAGE_PARALLEL_MIN=0 "$RETRIAGE" export "$D/ws/bad.json" --what metrics --no-cache > /dev/null 2> "$D/bad.par"
rc2=$?
[ "$rc1" -eq 2 ] && [ "$rc2" -eq 2 ] && cmp -s "$D/bad.seq" "$D/bad.par" && grep -q "bad1.trec:5:" "$D/bad.par" &&
    ! grep -q "bad2" "$D/bad.par"
ok $? "a bad run parsed on a thread: the first bad run's error (bad1.trec:5), as one by one"

# ---- MS MARCO's decimal pids: carried by value from the threads that parse runs, interned in order
# The demo with every pid a number (p0042 → 42): parsed on threads or here, with and without the
# cache, every value is the same (and the same as the demo's own, which names its pids otherwise).
mkdir "$D/num" "$D/num/runs"
awk -F'\t' 'BEGIN { OFS = "\t" } { sub(/^p0*/, "", $1); if ($1 == "") $1 = 0; print }' "$D/ws/collection.tsv" > "$D/num/collection.tsv"
for f in qrels.trec runs/bm25.trec runs/dense.trec runs/rerank.trec runs/odd.trec; do
    awk '{ sub(/^p0*/, "", $3); if ($3 == "") $3 = 0; print }' "$D/ws/$f" > "$D/num/$f"
done
cp "$D/ws/queries.tsv" "$D/ws/workspace.json" "$D/num/"
NUMWS=$D/num/workspace.json
numvalues() {
    local name=$1
    shift
    { "$RETRIAGE" export "$NUMWS" --what per-query "$@" &&
      "$RETRIAGE" export "$NUMWS" --what metrics "$@" &&
      "$RETRIAGE" export "$NUMWS" --what qrels "$@"; } > "$D/$name" 2> "$D/err.$name"
}
numvalues num.seq --no-cache
RETRIAGE_PARALLEL_MIN=0 numvalues num.par --no-cache
numvalues num.first
numvalues num.cached
RETRIAGE_PARALLEL_MIN=0 numvalues num.par2
"$RETRIAGE" export "$WS" --what metrics --no-cache > "$D/demo.metrics" 2> /dev/null
"$RETRIAGE" export "$NUMWS" --what metrics --no-cache 2> /dev/null | sed 's|num/workspace|ws/workspace|' > "$D/num.metrics"
[ "$(grep -c . "$D/num.seq")" -gt 200 ] && cmp -s "$D/num.seq" "$D/num.par" && cmp -s "$D/num.seq" "$D/num.first" &&
    cmp -s "$D/num.seq" "$D/num.cached" && cmp -s "$D/num.seq" "$D/num.par2" && ls "$D/num"/*.rtws > /dev/null 2>&1
ok $? "decimal pids: the same values parsed here or on threads, with and without the cache"
cut -f2- "$D/demo.metrics" > "$D/demo.m"
cut -f2- "$D/num.metrics" > "$D/num.m"
[ -s "$D/demo.m" ] && cmp -s "$D/demo.m" "$D/num.m"
ok $? "and the same metrics as the demo's own pids"

# ---- a large cache is written by a process of its own while the workbench opens ------------------
# (RETRIAGE_CACHE_BACKGROUND_MIN: from 64 MiB by default; 0 here.) The open does not wait for it,
# nor does a pipe the open writes to (the writer holds none of its descriptors); the cache appears
# whole, renamed over no temporary, and the next open maps it.
# (RETRIAGE_CACHE_WRITER_WAIT holds the writer until the file it names exists: the test looks
# while the writer waits, then lets it go.)
rm -f "$cache"
rm -f "$D/report.txt" "$D/go"
RETRIAGE_CACHE_BACKGROUND_MIN=0 RETRIAGE_CACHE_WRITER_WAIT=$D/go \
    "$RETRIAGE" "$WS" --script "$D/report.script" --size 250x40 2> "$D/err" | cat > /dev/null
writer=$(sed -n 's/.*being written in the background (process \([0-9]*\);.*/\1/p' "$D/report.txt" | head -n 1)
[ -n "$writer" ] && ! gone "$writer" && [ ! -e "$cache" ]
ok $? "a large cache: written in the background (process ${writer:-?}); the open and its pipe end first"
: > "$D/go"
wait_for 60 "the background writer's cache" test -e "$cache"
[ -f "$cache" ] && [ -z "$(ls "$D/ws" | grep '\.rtws\.tmp-')" ]
ok $? "the background writer leaves the cache whole and no temporary"
report_of
values bg
has "$cache: workspace cache reused" && cmp -s "$D/fresh" "$D/bg"
ok $? "the next open maps it: every value as without a cache"
rm -f "$cache"

# A collection indexed on its own thread (a large one; all here): its index is not written during
# the open but handed to the background writer, which writes it before the cache.
rm -f "$D/ws/collection.tsv.rtidx" "$D/go"
RETRIAGE_PARALLEL_MIN=0 RETRIAGE_CACHE_BACKGROUND_MIN=0 RETRIAGE_CACHE_WRITER_WAIT=$D/go \
    "$RETRIAGE" "$WS" --script "$D/report.script" --size 250x40 2> "$D/err" | cat > /dev/null
writer=$(sed -n 's/.*being written in the background (process \([0-9]*\);.*/\1/p' "$D/report.txt" | head -n 1)
[ -n "$writer" ] && [ ! -e "$D/ws/collection.tsv.rtidx" ] &&
    has "passages (index built; being written by process $writer"
ok $? "an index built on a thread: written by the cache's writer (process ${writer:-?}), not by the open"
: > "$D/go"
wait_for 60 "the background writer's cache" test -e "$cache"
[ -f "$D/ws/collection.tsv.rtidx" ] && [ -f "$cache" ] && [ "$D/ws/collection.tsv.rtidx" -ot "$cache" -o "$D/ws/collection.tsv.rtidx" -nt "$cache" ] &&
    [ -z "$(ls "$D/ws" | grep '\.tmp-')" ]
ok $? "the writer leaves the index and the cache whole, and no temporary"
report_of
values bgidx
has "passages (index reused" && has "$cache: workspace cache reused" && cmp -s "$D/fresh" "$D/bgidx"
ok $? "the next open reuses both: every value as without a cache"
rm -f "$cache"

# An input changed while the background writer waits (same size, one byte): the writer reads the
# inputs' stamps again, content included, and writes no cache (the open itself only fstats them).
cp -p "$D/ws/runs/dense.trec" "$D/dense.keep"
rm -f "$D/go"
RETRIAGE_CACHE_BACKGROUND_MIN=0 RETRIAGE_CACHE_WRITER_WAIT=$D/go \
    "$RETRIAGE" "$WS" --script "$D/report.script" --size 250x40 2> "$D/err" | cat > /dev/null
writer=$(sed -n 's/.*being written in the background (process \([0-9]*\);.*/\1/p' "$D/report.txt" | head -n 1)
printf 'X' | dd of="$D/ws/runs/dense.trec" bs=1 seek=3 conv=notrunc 2> /dev/null
: > "$D/go"
[ -n "$writer" ] && wait_for 60 "the background writer (process $writer) to end" gone "$writer"
[ -n "$writer" ] && gone "$writer" && [ -z "$(ls "$D/ws" | grep '\.rtws')" ]
ok $? "a run changed while the background writer waited: no cache written (process ${writer:-?})"
cp -p "$D/dense.keep" "$D/ws/runs/dense.trec"

# ---- --no-cache and the size threshold ----------------------------------------------------------------
report_of --no-cache
[ "$rc" -eq 0 ] && ! has "workspace cache" && [ -z "$(ls "$D/ws" | grep '\.rtws$')" ]
ok $? "--no-cache neither reads nor writes the cache"
RETRIAGE_CACHE_MIN= report_of
[ "$rc" -eq 0 ] && ! has "workspace cache" && [ -z "$(ls "$D/ws" | grep '\.rtws$')" ]
ok $? "by default a workspace whose runs are smaller than 16 MiB is not cached"
"$RETRIAGE" --help-open | grep -q -- "--no-cache"
ok $? "--help-open names --no-cache"

done_testing
