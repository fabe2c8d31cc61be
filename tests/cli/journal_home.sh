#!/bin/sh
# journal_home.sh — where a workspace given by flags keeps its annotations (issue 35, item 3): a
# folder of its own under $XDG_STATE_HOME/retriage/journals, keyed by the inputs' absolute paths,
# so that the same files opened from two directories see the same tags; the load report names it;
# an open that changes nothing leaves no journal file; and a journal an older retriage left in
# ./annotations for these inputs is kept in use, with a warning saying how to move it.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
mkdir -p "$D/ws/runs" "$D/a" "$D/b/deep"
cp "$SRCDIR/data/demo/queries.tsv" "$SRCDIR/data/demo/qrels.trec" "$D/ws/"
cp "$SRCDIR/data/demo/runs/bm25.trec" "$SRCDIR/data/demo/runs/dense.trec" "$D/ws/runs/"
# from a: relative paths, runs in one order; from b/deep: other relative paths, the other order
FROM_A="--queries ../ws/queries.tsv --qrels ../ws/qrels.trec --run ../ws/runs/bm25.trec --run ../ws/runs/dense.trec"
FROM_B="--queries ../../ws/queries.tsv --qrels ../../ws/qrels.trec --run ../../ws/runs/dense.trec --run ../../ws/runs/bm25.trec"

printf ':snapshot %s/first\n:quit\n' "$D" > "$D/open.script"
(cd "$D/a" && "$RETRIAGE" $FROM_A --annotator ann --script "$D/open.script" > /dev/null 2> "$D/err")
ok $? "a workspace given by flags opens in the workbench"
set -- "$D/state/retriage/journals"/*
[ "$#" -eq 1 ] && [ -d "$1" ] && [ ! -e "$1/ann.jsonl" ] && [ ! -e "$D/a/annotations" ] && [ ! -e "$1/ann.jsonl.lock" ]
ok $? "an open with no operation leaves no journal file (nor ./annotations, nor a lock)"
KEYED=$1

printf ':tag q01 p0023 2\n:quit\n' > "$D/tag.script"
(cd "$D/a" && "$RETRIAGE" $FROM_A --annotator ann --script "$D/tag.script" > /dev/null 2> "$D/err")
[ $? -eq 0 ] && [ -s "$KEYED/ann.jsonl" ] && [ ! -e "$D/a/annotations" ]
ok $? "the first operation writes the journal into the workspace's own folder"

(cd "$D/b/deep" && "$RETRIAGE" export $FROM_B --annotator ann --what tags > "$D/tags.b" 2> "$D/err")
grep -q 'q01.*p0023.*numeral' "$D/tags.b"
ok $? "the same files opened from another directory (other relative paths, runs in another order) see the tag"
(cd "$D/b/deep" && "$RETRIAGE" export $FROM_B --annotator ann --what tags > "$D/tags.b2" 2> "$D/err")
(cd "$D/a" && "$RETRIAGE" export $FROM_A --annotator ann --what tags > "$D/tags.a" 2> "$D/err")
cmp -s "$D/tags.a" "$D/tags.b"
ok $? "both directories export the same tags"

printf 'L\n:snapshot %s/report\n:quit\n' "$D" > "$D/report.script"
(cd "$D/b/deep" && "$RETRIAGE" $FROM_B --annotator ann --script "$D/report.script" --size 200x30 > /dev/null 2> "$D/err")
tr -d '\n' < "$D/report" | grep -q "annotations of ann: $KEYED/ann.jsonl"
ok $? "the load report says where the annotations are"
(cd "$D/b/deep" && "$RETRIAGE" $FROM_B --annotator newbie --script "$D/report.script" --size 200x30 > /dev/null 2> "$D/err")
grep -q "annotations of newbie: .*(written at the first change)" "$D/report" && [ ! -e "$KEYED/newbie.jsonl" ]
ok $? "a journal not written yet is said to be written at the first change"

# a journal an older retriage kept in ./annotations for these inputs: still used, and said
mkdir -p "$D/old/annotations"
cp "$KEYED/ann.jsonl" "$D/old/annotations/old.jsonl"
(cd "$D/old" && "$RETRIAGE" export $FROM_A --annotator old --what tags > "$D/tags.old" 2> "$D/err")
grep -q 'q01.*p0023.*numeral' "$D/tags.old" && grep -q "annotations/old.jsonl: this workspace's journal from an older retriage.*still used.*move" "$D/err"
ok $? "an older ./annotations journal of these inputs is kept in use, with a warning saying how to move it"
[ ! -e "$KEYED/old.jsonl" ]
ok $? "and nothing is made in the keyed folder meanwhile"
# one of another workspace is not taken for this one's
mkdir -p "$D/other/annotations"
printf '{"seq":1,"time":1,"author":"old","op":"tag","qid":"zz-not-here","pid":"p1","cat":"entity"}\n' > "$D/other/annotations/old.jsonl"
(cd "$D/other" && "$RETRIAGE" export $FROM_A --annotator old --what tags > "$D/tags.other" 2> "$D/err")
[ $? -eq 0 ] && [ "$(wc -l < "$D/tags.other")" -eq 1 ] && ! grep -q "older retriage" "$D/err"
ok $? "an ./annotations journal naming none of these queries is left alone (the keyed folder is used)"
done_testing
