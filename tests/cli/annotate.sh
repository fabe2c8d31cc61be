#!/bin/sh
# annotate.sh — annotation through the workbench's script mode and `retriage export`, on the demo:
#  a. live metrics equal `retriage eval` of the exported qrels (the UI's :export and the CLI's
#     export write the same files);
#  b. exports: qrels of an untouched journal are the base qrels, qrels-diff lists exactly the
#     changed pairs, tags (TSV, JSON) hold what was tagged, the breakdown formats agree, -o
#     replaces files atomically, bad arguments give the documented exit statuses;
#  c. the category breakdown against counts derived here from the run files (k 5 and 1, --set);
#  d. the journal: reopening, the one-writer lock, a bad line in the middle, a torn last line.
. "$SRCDIR/tests/lib.sh"
export RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json"
export LC_ALL=C.UTF-8
DEMO=$SRCDIR/data/demo
[ -f "$RETRIAGE_DEMO" ] && [ -f "$DEMO/qrels.trec" ] && [ -d "$DEMO/runs" ] ||
    skip_all "data/demo is missing"
# The demo's collection index may not be writable beside the sources (distcheck): use a cache.
export XDG_CACHE_HOME="$TMPD/cache"
D=$TMPD
RUNS="bm25 dense rerank"
HAVE_PY=0
[ -n "$PYTHON3" ] && HAVE_PY=1

skip_one() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
# ws DIR NAME SCRIPT [OPTIONS…] — replays SCRIPT on the demo as NAME with journals in DIR.
ws() {
    _d=$1 _n=$2 _s=$3
    shift 3
    "$RETRIAGE" --demo --journal-dir "$_d" --annotator "$_n" --size 240x30 --echo --script "$_s" "$@"
}
# ex DIR NAME OPTIONS… — retriage export on the demo.
ex() {
    _d=$1 _n=$2
    shift 2
    "$RETRIAGE" export --demo --journal-dir "$_d" --annotator "$_n" "$@"
}
# check STATUS NAME FILE… — ok, and on failure the files as diagnostics.
check() {
    _st=$1 _name=$2
    shift 2
    ok "$_st" "$_name"
    if [ "$_st" -ne 0 ]; then
        for _f in "$@"; do
            [ -f "$_f" ] && { echo "--- $_f"; head -n 40 "$_f"; } | diag
        done
    fi
    return 0
}
# base QID PID — the base grade, or "-" when unjudged.
base() {
    awk -v q="$1" -v p="$2" '$1 == q && $3 == p { g = $4 } END { print (g == "" ? "-" : g) }' \
        "$DEMO/qrels.trec"
}
MEASURES=$(sed -n 's/.*"measures": *"\([^"]*\)".*/\1/p' "$DEMO/workspace.json")
: "${MEASURES:=dureader}"

# ============ a. live metrics = retriage eval of the exported qrels ============================
J=$D/a
# The relabels, each with the base grade it assumes (checked first, so a changed demo shows here).
cat >"$D/a.plan" <<'EOF'
q26 p0117 - 1
q01 p0054 - 1
q33 p0142 - 1
q19 p0069 - 0
q13 p0194 1 0
q13 p0246 1 0
q29 p0119 1 0
q18 p0075 0 1
q23 p0100 0 1
EOF
st=0
while read -r q p b g; do
    [ "$(base "$q" "$p")" = "$b" ] || { echo "$q $p: base $(base "$q" "$p"), expected $b" | diag; st=1; }
done <"$D/a.plan"
[ "$(awk '$1 == "q13" && $4 > 0' "$DEMO/qrels.trec" | wc -l)" -eq 2 ] || st=1
check $st "demo: the pairs to relabel have the base grades the plan assumes (q13 has 2 relevant)"

{
    awk '{ print ":label " $1 " " $2 " " $4 }' "$D/a.plan"
    echo ':label q04 p0152 1'        # unjudged → 1 → back to unjudged
    echo ':label q04 p0152 base'
    echo ':label q29 p0111 1'        # judged 0 → 1 → back to its base judgment
    echo ':label q29 p0111 base'
    echo ':label q18 p0270 1'        # 0 → 1 → 0 again by number: no change left
    echo ':label q18 p0270 0'
    echo ':label q31 p0210 1'        # undone below
    echo ':undo'
    echo ":export metrics tsv $D/a.metrics.ui"
    echo ":export qrels trec $D/a.qrels.ui"
    echo ":export per-query tsv $D/a.perq.ui"
    echo ':sample 6 11 all'          # a query set: exports from now on are over its queries
    echo ":export metrics tsv $D/a.metrics.set"
} >"$D/a.script"
ws "$J" alice "$D/a.script" >"$D/a.out" 2>"$D/a.err"
check $? "a: the relabelling script runs" "$D/a.err"
[ "$(grep -c ' (#[0-9]*)$' "$D/a.out")" -eq 17 ] && [ "$(grep -c '^wrote ' "$D/a.out")" -eq 4 ] &&
    [ "$(grep -c . "$J/alice.jsonl")" -eq 18 ] && grep -q '^undone: q31 p0210 .*(#17)$' "$D/a.out"
check $? "a: 17 relabels and an undo acknowledged and journalled, a query set, 4 exports" "$D/a.out"

# The expected current qrels: base with the plan applied (as a set of qid pid grade).
awk 'NR == FNR { g[$1 " " $2] = $4; next }
     { k = $1 " " $3; if (k in g) { print k, g[k]; delete g[k] } else print k, $4 }
     END { for (k in g) print k, g[k] }' "$D/a.plan" "$DEMO/qrels.trec" | sort >"$D/a.qrels.want"
awk '{ print $1, $3, $4 }' "$D/a.qrels.ui" | sort >"$D/a.qrels.got"
cmp -s "$D/a.qrels.want" "$D/a.qrels.got" && awk '$2 != "0" { exit 1 }' "$D/a.qrels.ui"
check $? "a: :export qrels is the base with the relabels (and only them) applied, TREC format" \
    "$D/a.qrels.ui"
[ "$(sort "$D/a.qrels.got" | uniq -d | wc -l)" -eq 0 ] && [ "$(wc -l <"$D/a.qrels.ui")" -eq 142 ]
check $? "a: no pair twice; 138 base judgments + 4 new = 142 lines" "$D/a.qrels.ui"

# retriage eval of the exported qrels, and of the base qrels, full precision.
set --
for r in $RUNS; do set -- "$@" "$DEMO/runs/$r.trec"; done
"$RETRIAGE" eval -Q -q -m "$MEASURES" "$D/a.qrels.ui" "$@" >"$D/a.eval.cur" 2>"$D/a.eval.err"
st1=$?
"$RETRIAGE" eval -Q -q -m "$MEASURES" "$DEMO/qrels.trec" "$@" >"$D/a.eval.base" 2>>"$D/a.eval.err"
check $((st1 | $?)) "a: retriage eval of the exported and of the base qrels" "$D/a.eval.err"
# A metrics row from eval: run measure base current delta queries, to 17 significant digits as
# both print them (TSV carries full precision): the live means are eval's, bit for bit.
nq=$(awk '{ print $1 }' "$D/a.qrels.ui" | sort -u | wc -l)
awk -F '\t' -v nq="$nq" 'NR == FNR { if ($3 == "all") b[$1 "\t" $2] = $4; next }
    $3 == "all" && !($2 ~ /\.queries$/) {
        k = $1 "\t" $2
        printf "%s\t%.17g\t%.17g\t%.17g\t%d\n", k, b[k], $4, $4 - b[k], nq
    }' "$D/a.eval.base" "$D/a.eval.cur" >"$D/a.metrics.want"
tail -n +2 "$D/a.metrics.ui" >"$D/a.metrics.body"
cmp -s "$D/a.metrics.want" "$D/a.metrics.body" &&
    [ "$(wc -l <"$D/a.metrics.body")" -eq $(($(echo $RUNS | wc -w) * 3)) ] &&
    head -n1 "$D/a.metrics.ui" | grep -qx "$(printf 'run\tmeasure\tbase\tcurrent\tdelta\tqueries')"
check $? "a: :export metrics: base, current and delta equal retriage eval (17 digits) for every run and measure" \
    "$D/a.metrics.want" "$D/a.metrics.ui"
# The comparison must not be vacuous: the relabels change several values.
[ "$(awk -F '\t' 'NR > 1 && $5 != "0"' "$D/a.metrics.ui" | wc -l)" -ge 3 ]
check $? "a: the relabels change at least 3 of the means" "$D/a.metrics.ui"
# Per query: every run × judged query × measure equals eval -q at the export's precision.
awk -F '\t' 'NR == 1 { for (i = 3; i <= NF; i++) m[i] = $i; next }
    { for (i = 3; i <= NF; i++) printf "%s\t%s\t%s\t%s\n", $1, m[i], $2, $i }' "$D/a.perq.ui" |
    sort >"$D/a.perq.got"
awk -F '\t' '$3 != "all" && !($2 ~ /\.queries$/) { printf "%s\t%s\t%s\t%s\n", $1, $2, $3, $4 }' \
    "$D/a.eval.cur" | sort >"$D/a.perq.want"
cmp -s "$D/a.perq.want" "$D/a.perq.got" && [ "$(wc -l <"$D/a.perq.got")" -eq $((3 * 34 * 3)) ]
check $? "a: :export per-query equals retriage eval -q for each run, query and measure (306 values)" \
    "$D/a.perq.want" "$D/a.perq.got"
grep -q "^rerank	RR@10	q13	0$" "$D/a.perq.got" && grep -q "^bm25	Success@1	q23	1$" "$D/a.perq.got"
check $? "a: q13 (no relevant passage left) scores 0 and q23 (p0100 now relevant) has a hit at rank 1" \
    "$D/a.perq.got"

# The same over the sampled query set: eval of the exported qrels restricted to its queries.
set_q=$(sed -n 's/.*"op":"set".*"qids":\[\([^]]*\)\].*/\1/p' "$J/alice.jsonl" | tr -d '"' | tr ',' ' ')
echo "$set_q" | tr ' ' '\n' | awk 'NR == FNR { s[$1] = 1; next } $1 in s' - "$D/a.qrels.ui" >"$D/a.qrels.set"
echo "$set_q" | tr ' ' '\n' | awk 'NR == FNR { s[$1] = 1; next } $1 in s' - "$DEMO/qrels.trec" >"$D/a.base.set"
"$RETRIAGE" eval -Q -m "$MEASURES" "$D/a.qrels.set" "$@" >"$D/a.evs.cur" 2>/dev/null
"$RETRIAGE" eval -Q -m "$MEASURES" "$D/a.base.set" "$@" >"$D/a.evs.base" 2>/dev/null
awk -F '\t' -v nq="$(echo $set_q | wc -w)" 'NR == FNR { if ($3 == "all") b[$1 "\t" $2] = $4; next }
    $3 == "all" && !($2 ~ /\.queries$/) {
        k = $1 "\t" $2
        printf "%s\t%.17g\t%.17g\t%.17g\t%d\n", k, b[k], $4, $4 - b[k], nq
    }' "$D/a.evs.base" "$D/a.evs.cur" >"$D/a.metrics.set.want"
tail -n +2 "$D/a.metrics.set" | cmp -s "$D/a.metrics.set.want" - && [ "$(echo $set_q | wc -w)" -eq 6 ] &&
    ! cmp -s "$D/a.metrics.set" "$D/a.metrics.ui"
check $? "a: :export metrics under a query set ($set_q) equals retriage eval of those queries" \
    "$D/a.metrics.set.want" "$D/a.metrics.set"

ex "$J" alice --what metrics >"$D/a.metrics.cli" 2>"$D/a.cli.err"
st1=$?
ex "$J" alice --what qrels -o "$D/a.qrels.cli" 2>>"$D/a.cli.err"
st2=$?
ex "$J" alice --what per-query --format tsv >"$D/a.perq.cli" 2>>"$D/a.cli.err"
[ $((st1 | st2 | $?)) -eq 0 ] && cmp -s "$D/a.metrics.ui" "$D/a.metrics.cli" &&
    cmp -s "$D/a.qrels.ui" "$D/a.qrels.cli" && cmp -s "$D/a.perq.ui" "$D/a.perq.cli"
check $? "a: retriage export writes the same metrics, qrels and per-query files as :export" \
    "$D/a.cli.err" "$D/a.metrics.cli"

# Once bugs: ":export WHAT PATH" without a format read a long path into the format; JSON tables
# wrote numeric cells as they were, so the metrics delta "+0.0049" was not JSON.
printf ':label q26 p0117 1\n:export qrels %s\n' "$D/a.qrels.noformat" >"$D/a2.script"
ws "$D/a2" alice "$D/a2.script" >/dev/null 2>"$D/a2.err"
st=$?
[ $st -eq 0 ] && grep -qx 'q26 0 p0117 1' "$D/a.qrels.noformat"
ok $? ":export qrels PATH (no format, a path of more than 15 bytes) writes the qrels"
if [ "$HAVE_PY" = 1 ]; then
    ex "$J" alice --what metrics --format json >"$D/a.metrics.json" 2>/dev/null
    "$PYTHON3" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == 9' \
        "$D/a.metrics.json" >/dev/null 2>&1
    ok $? "export --what metrics --format json is valid JSON"
fi

# ============ b. export round trips ============================================================
# An untouched journal: the current qrels are the base qrels.
ex "$D/b0" nobody --what qrels >"$D/b0.qrels" 2>"$D/b0.err"
st=$?
awk '{ print $1, $3, $4 }' "$D/b0.qrels" | sort >"$D/b0.got"
awk '{ print $1, $3, $4 }' "$DEMO/qrels.trec" | sort >"$D/base.set"
[ $st -eq 0 ] && cmp -s "$D/b0.got" "$D/base.set" && [ ! -e "$D/b0/nobody.jsonl" ]
check $? "b: qrels of an untouched journal equal the base qrels (set of qid pid grade); export creates nothing" \
    "$D/b0.err" "$D/b0.qrels"
ex "$D/b0" nobody --what qrels-diff >"$D/b0.diff" 2>&1
[ $? -eq 0 ] && [ ! -s "$D/b0.diff" ]
check $? "b: qrels-diff of an untouched journal is empty" "$D/b0.diff"

# qrels-diff: exactly the pairs whose grade changed (not q04 p0152, q18 p0270, q31 p0210).
ex "$J" alice --what qrels-diff >"$D/b.diff" 2>"$D/b.err"
st=$?
awk '{ print $1, $2, $4 }' "$D/a.plan" | sort >"$D/b.diff.want"
awk '{ print $1, $3, $4 }' "$D/b.diff" | sort >"$D/b.diff.got"
[ $st -eq 0 ] && cmp -s "$D/b.diff.want" "$D/b.diff.got" && awk '$2 != "0" || NF != 4 { exit 1 }' "$D/b.diff"
check $? "b: qrels-diff (trec) lists exactly the 9 changed pairs" "$D/b.diff.want" "$D/b.diff"
ex "$J" alice --what qrels-diff --format tsv >"$D/b.difft" 2>>"$D/b.err"
st=$?
awk -F '\t' '{ print $1, $2, ($3 == "" ? "-" : $3), $4, $5 }' "$D/b.difft" | tail -n +2 | sort >"$D/b.difft.got"
awk '{ print $1, $2, $3, $4, "alice" }' "$D/a.plan" | sort >"$D/b.difft.want"
[ $st -eq 0 ] && cmp -s "$D/b.difft.want" "$D/b.difft.got" &&
    head -n1 "$D/b.difft" | grep -qx "$(printf 'qid\tpid\tbase\tcurrent\tauthor\ttime')" &&
    [ "$(tail -n +2 "$D/b.difft" | cut -f6 |
        grep -cE '^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}Z$')" -eq 9 ]
check $? "b: qrels-diff --format tsv: base (empty when unjudged), current, author, ISO time" \
    "$D/b.difft.want" "$D/b.difft"

# Tags and notes: two categories on one pair, a query tag, notes on a pair, a query and an
# untagged pair, a tag taken back.
cat >"$D/t.script" <<'EOF'
:tag q18 p0075 entity
:tag q18 p0075 6
:note q18 p0075 学生票, "成人票"
:tag q26 - other
:note q26 - 查询本身有歧义
:note q01 p0023 only a note
:tag q07 p0030 numeral
:tag q07 p0030 syntactic
:untag q07 p0030 syntactic
:tag q23 p0073 entity
:untag q23 p0073 entity
EOF
ws "$D/t" bob "$D/t.script" >"$D/t.out" 2>"$D/t.err"
check $? "b: the tagging script runs" "$D/t.err"
printf '%s\n' \
    'q18|p0075|Salient phrase mismatch|entity|学生票, "成人票"|bob' \
    'q18|p0075|Other challenges|overlap|学生票, "成人票"|bob' \
    'q26|-|Others|other|查询本身有歧义|bob' \
    'q01|p0023|||only a note|bob' \
    'q07|p0030|Salient phrase mismatch|numeral||bob' | sort >"$D/t.want"
ex "$D/t" bob --what tags >"$D/t.tsv" 2>"$D/t.err"
st=$?
tail -n +2 "$D/t.tsv" | awk -F '\t' -v OFS='|' '{ print $1, $2, $3, $4, $5, $6 }' | sort >"$D/t.got"
[ $st -eq 0 ] && cmp -s "$D/t.want" "$D/t.got" &&
    head -n1 "$D/t.tsv" | grep -qx "$(printf 'qid\tpid\tgroup\tcategory\tnote\tauthor\ttime')"
check $? "b: tags TSV: one row per category, - for the query, notes (also on an untagged pair), untagged gone" \
    "$D/t.want" "$D/t.tsv"
ex "$D/t" bob --what tags --format json >"$D/t.json" 2>"$D/t.err"
st=$?
if [ "$HAVE_PY" = 1 ]; then
    "$PYTHON3" - "$D/t.json" "$D/t.tsv" >"$D/py" 2>&1 <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1], encoding="utf-8"))
lines = open(sys.argv[2], encoding="utf-8").read().splitlines()
head = lines[0].split("\t")
want = [dict(zip(head, l.split("\t"))) for l in lines[1:]]
assert len(rows) == 5, rows
got = [{k: str(v) for k, v in r.items()} for r in rows]
assert got == want, (got, want)
EOF
    check $((st | $?)) "b: tags JSON parses and holds the TSV's rows (notes with quotes and commas intact)" "$D/py" "$D/t.json"
else
    skip_one "b: tags JSON parses" "python3 is absent"
fi

# Breakdown: every format presents the same numbers.
for f in tsv csv json md latex; do
    ex "$D/t" bob --what breakdown --format $f >"$D/bd.$f" 2>"$D/bd.err" || echo "format $f: exit $?" >>"$D/bd.err"
done
check "$([ -s "$D/bd.err" ] && echo 1 || echo 0)" "b: breakdown in tsv, csv, json, md and latex exits 0" "$D/bd.err"
if [ "$HAVE_PY" = 1 ]; then
    "$PYTHON3" - "$D/bd" >"$D/py" 2>&1 <<'EOF'
import csv, json, sys
p = sys.argv[1]
def norm(rows):
    return [[r[0], r[1]] + [float(x) for x in r[2:]] for r in rows]
def rounded(rows):   # Markdown and LaTeX round shares to 1 decimal (counts are whole)
    return [[r[0], r[1]] + [round(x, 1) for x in r[2:]] for r in rows]
tsv = [l.split("\t") for l in open(p + ".tsv", encoding="utf-8").read().splitlines()]
head, body = tsv[0], norm(tsv[1:])
assert head[:4] == ["group", "category", "all", "all %"], head
assert len(body) == 13 and body[-1][:2] == ["(total)", "tagged items"], body
js = json.load(open(p + ".json", encoding="utf-8"))
assert [list(r.keys()) for r in js] == [head] * len(js), js[0].keys()
assert norm([[r[k] for k in head] for r in js]) == body, "json"
cs = list(csv.reader(open(p + ".csv", encoding="utf-8")))
assert cs[0] == head and norm(cs[1:]) == body, "csv"
md = [l for l in open(p + ".md", encoding="utf-8").read().splitlines() if l.startswith("|")]
cells = [[c.strip() for c in l.strip("|").split("|")] for l in md]
assert cells[0] == head, cells[0]
assert norm(cells[2:]) == rounded(body), "md"
assert "<!-- shares in percent rounded to 1 decimal place" in open(p + ".md", encoding="utf-8").read(), "md note"
tex = open(p + ".latex", encoding="utf-8").read().splitlines()
mid = tex.index("\\midrule")
rows = [l.rstrip("\\").strip() for l in tex[mid + 1:tex.index("\\bottomrule")]]
tr = [[c.strip().replace("\\%", "%") for c in l.split("&")] for l in rows]
assert norm(tr) == rounded(body), ("latex", tr)
assert tex[0].startswith("% shares in percent rounded to 1 decimal place"), tex[0]
hd = [c.strip().replace("\\%", "%") for c in tex[mid - 1].rstrip("\\").split("&")]
assert hd == head, hd
EOF
    check $? "b: breakdown tsv, json, csv, md and latex hold the same header, rows and numbers (md, latex rounded, saying so)" "$D/py"
else
    skip_one "b: breakdown formats agree" "python3 is absent"
fi

# -o: atomic replacement; no temporary file left; a failed export leaves the target alone.
mkdir "$D/o"
echo old >"$D/o/out.tsv"
ln "$D/o/out.tsv" "$D/o/hardlink"
ex "$D/t" bob --what tags -o "$D/o/out.tsv" 2>"$D/o.err"
st=$?
[ $st -eq 0 ] && cmp -s "$D/o/out.tsv" "$D/t.tsv" && [ "$(cat "$D/o/hardlink")" = old ] &&
    [ "$(ls -A "$D/o" | sort | tr '\n' ' ')" = "hardlink out.tsv " ]
check $? "b: -o replaces an existing file by rename (a hard link keeps the old text), nothing else left" "$D/o.err"
ex "$D/t" bob --what breakdown --format md -o "$D/o/new.md" 2>>"$D/o.err"
[ $? -eq 0 ] && cmp -s "$D/o/new.md" "$D/bd.md" && [ "$(ls -A "$D/o" | wc -l)" -eq 3 ]
check $? "b: -o writes a new file, the same bytes as stdout" "$D/o.err"
cp "$D/o/out.tsv" "$D/o.keep"
ex "$D/t" bob --what breakdown --set no-such-set -o "$D/o/out.tsv" 2>"$D/o.err2"
st=$?
[ $st -eq 2 ] && cmp -s "$D/o/out.tsv" "$D/o.keep" && [ "$(ls -A "$D/o" | wc -l)" -eq 3 ] &&
    grep -q 'no-such-set' "$D/o.err2"
check $? "b: unknown --set: exit 2 (got $st), names the set, the -o target untouched" "$D/o.err2"
ex "$D/t" bob --what tags -o "$D/o/missing-dir/x.tsv" 2>"$D/o.err3"
st=$?
[ $st -ne 0 ] && [ ! -e "$D/o/missing-dir" ] && [ -s "$D/o.err3" ]
check $? "b: -o into a missing folder fails with a message (exit $st)" "$D/o.err3"

# Usage errors: exit 1, and nothing on stdout.
usage_err() {  # usage_err NAME ARGS…
    _name=$1
    shift
    ex "$D/t" bob "$@" >"$D/u.out" 2>"$D/u.err"
    _st=$?
    [ $_st -eq 1 ] && [ ! -s "$D/u.out" ] && [ -s "$D/u.err" ]
    check $? "b: $_name: exit 1 (got $_st) with a message" "$D/u.err"
}
usage_err "unknown --what" --what frobs
usage_err "no --what" --format tsv
usage_err "unknown --format" --what breakdown --format xml
usage_err "--format trec for tags" --what tags --format trec
usage_err "--format md for tags" --what tags --format md
usage_err "a table format for qrels" --what qrels --format json
usage_err "-k 0" --what breakdown -k 0
ex "$D/t" bob --what metrics --set nope >"$D/u.out" 2>"$D/u.err"
st=$?
[ $st -eq 2 ] && [ ! -s "$D/u.out" ]
check $? "b: unknown --set on metrics: exit 2 (got $st)" "$D/u.err"
printf ':export frobs %s\n' "$D/x" >"$D/u.script"
ws "$D/t" bob "$D/u.script" >/dev/null 2>"$D/u.err"
st=$?
[ $st -eq 2 ] && [ ! -e "$D/x" ] && grep -q 'u.script:1: usage: :export' "$D/u.err"
check $? "b: :export of an unknown kind stops the script (exit $st) and writes nothing" "$D/u.err"

# ============ c. the breakdown, counted by hand ================================================
# The default taxonomy (DESIGN §7): id, name, group, in order.
cat >"$D/tax" <<'EOF'
entity|entity mismatch|Salient phrase mismatch
numeral|numeral mismatch|Salient phrase mismatch
modifier|modifier mismatch|Salient phrase mismatch
syntactic|syntactic mismatch|Syntactic mismatch
typo|robustness on typos|Other challenges
overlap|over-sensitivity on term overlap|Other challenges
false-negative|false negative|Others
other|other|Others
EOF
# What is tagged: qid pid categories (comma-separated ids); - is the query itself.
cat >"$D/c.items" <<'EOF'
q07 p0030 numeral
q07 p0204 other
q18 p0075 entity
q18 p0196 modifier,numeral
q18 - typo
q23 p0100 entity
q23 p0154 other,overlap
q23 p0004 other
EOF
{
    awk '{ n = split($3, c, ","); for (i = 1; i <= n; i++) print ":tag " $1 " " $2 " " c[i] }' "$D/c.items"
    echo ':tag q23 p0073 entity'      # taken back: must not count
    echo ':untag q23 p0073 entity'
    echo ':note q07 p0222 a note without a tag'
    echo ":export breakdown tsv $D/c.ui5"
    echo ':breakdown 1'
    echo ":export breakdown tsv $D/c.ui1"
    echo ':sample 2 7 tagged'
    echo ":export breakdown tsv $D/c.uiset"
} >"$D/c.script"
ws "$D/c" carol "$D/c.script" >"$D/c.out" 2>"$D/c.err"
check $? "c: the tagging script runs (sample, breakdown, exports)" "$D/c.err"

# ranks of each tagged pair in each run, from the run files
# (each run sorted once in trec_eval order, score descending and ties by pid descending: "run qid
# pid rank" lines; 0 for a pair a run lacks)
for r in $RUNS; do
    LC_ALL=C sort -k1,1 -k5,5gr -k3,3r "$DEMO/runs/$r.trec" |
        awk -v r="$r" '$1 != q { q = $1; n = 0 } { print r, $1, $3, ++n }'
done >"$D/c.allranks"
awk -v RUNS="$RUNS" 'BEGIN { nr = split(RUNS, runs, " ") }
    NR == FNR { at[$1 " " $2 " " $3] = $4; next }
    { line = $0
      for (i = 1; i <= nr; i++) line = line " " ($2 == "-" ? 0 : at[runs[i] " " $1 " " $2] + 0)
      print line }' "$D/c.allranks" "$D/c.items" >"$D/c.ranks"
diag <"$D/c.ranks"
# the expected breakdown table of items in queries QIDS (all: every query) at top K
want_breakdown() {  # want_breakdown K QIDS
    awk -v K="$1" -v QS="$2" -v RUNS="$RUNS" '
    BEGIN { FS = "|"; nr = split(RUNS, runs, " ") }
    NR == FNR { nc++; id[nc] = $1; name[nc] = $2; grp[nc] = $3
                if (!(($3) in gi)) { ng++; gi[$3] = ng; gname[ng] = $3 }
                cg[nc] = gi[$3]; next }
    {
        split($0, f, " ")
        if (QS != "all" && index(" " QS " ", " " f[1] " ") == 0) next
        for (c = 0; c <= nr; c++) {
            if (c > 0 && f[2] != "-" && !(f[3 + c] >= 1 && f[3 + c] <= K)) continue
            total[c]++
            split(f[3], cs, ",")
            delete hitg
            for (i = 1; i <= nc; i++) for (j in cs) if (cs[j] == id[i]) { cat[c, i]++; hitg[cg[i]] = 1 }
            for (g in hitg) gcount[c, g]++
        }
    }
    function cells(arr_kind, key,    c, x, s) {
        s = ""
        for (c = 0; c <= nr; c++) {
            x = arr_kind == "g" ? gcount[c, key] + 0 : arr_kind == "c" ? cat[c, key] + 0 : total[c] + 0
            s = s sprintf("\t%d\t%.17g", x, total[c] ? 100 * (x / total[c]) : 0)
        }
        return s
    }
    END {
        printf "group\tcategory\tall\tall %%"
        for (c = 1; c <= nr; c++) printf "\t%s@%d\t%s@%d %%", runs[c], K, runs[c], K
        printf "\n"
        for (g = 1; g <= ng; g++) {
            printf "%s\t(all)%s\n", gname[g], cells("g", g)
            for (i = 1; i <= nc; i++) if (cg[i] == g) printf "%s\t%s%s\n", gname[g], name[i], cells("c", i)
        }
        printf "(total)\ttagged items%s\n", cells("t", 0)
    }' "$D/tax" "$D/c.ranks"
}
want_breakdown 5 all >"$D/c.want5"
want_breakdown 1 all >"$D/c.want1"
! cmp -s "$D/c.want5" "$D/c.want1" && awk '$4 == 5 || $5 == 5 || $6 == 5 { f = 1 } END { exit !f }' "$D/c.ranks" &&
    [ "$(awk -F '\t' '$1 == "(total)" { print $3 }' "$D/c.want5")" -eq 8 ] &&
    [ "$(awk -F '\t' '$2 == "(all)" && $1 == "Salient phrase mismatch" { print $3 }' "$D/c.want5")" -eq 4 ]
check $? "c: derived: 8 tagged items, 4 of them salient-phrase (numeral+modifier counts once), k 1 differs from k 5, a pair at rank 5" \
    "$D/c.want5" "$D/c.want1"
ex "$D/c" carol --what breakdown >"$D/c.cli5" 2>"$D/c.err"
st=$?
[ $st -eq 0 ] && cmp -s "$D/c.want5" "$D/c.cli5"
check $? "c: breakdown at k 5 (default): counts and shares per category, group and run as derived" \
    "$D/c.want5" "$D/c.cli5"
ex "$D/c" carol --what breakdown -k 1 >"$D/c.cli1" 2>"$D/c.err"
st=$?
[ $st -eq 0 ] && cmp -s "$D/c.want1" "$D/c.cli1"
check $? "c: breakdown at -k 1: counts and shares as derived" "$D/c.want1" "$D/c.cli1"
cmp -s "$D/c.ui5" "$D/c.cli5" && cmp -s "$D/c.ui1" "$D/c.cli1"
check $? "c: :export breakdown (after :breakdown 1) equals retriage export -k 5 / -k 1" "$D/c.ui5" "$D/c.ui1"
want_breakdown 50 all >"$D/c.want50"
ex "$D/c" carol --what breakdown -k 50 >"$D/c.cli50" 2>"$D/c.err"
cmp -s "$D/c.want50" "$D/c.cli50"
check $? "c: breakdown at -k 50 (every ranked pair) as derived" "$D/c.want50" "$D/c.cli50"
# The sampled set: its queries are in the journal; the breakdown over it counts only them.
set_name=$(sed -n 's/.*"op":"set".*"name":"\([^"]*\)".*/\1/p' "$D/c/carol.jsonl")
set_qids=$(sed -n 's/.*"op":"set".*"qids":\[\([^]]*\)\].*/\1/p' "$D/c/carol.jsonl" | tr -d '"' | tr ',' ' ')
in_items() { for _q in "$@"; do grep -q "^$_q " "$D/c.items" || return 1; done; }
# shellcheck disable=SC2086
[ "$set_name" = n2-seed7-tagged ] && [ "$(echo $set_qids | wc -w)" -eq 2 ] && in_items $set_qids
check $? "c: :sample 2 7 tagged saved set $set_name of 2 tagged queries ($set_qids)" "$D/c/carol.jsonl"
want_breakdown 1 "$set_qids" >"$D/c.wantset"
ex "$D/c" carol --what breakdown -k 1 --set "$set_name" >"$D/c.cliset" 2>"$D/c.err"
[ $? -eq 0 ] && cmp -s "$D/c.wantset" "$D/c.cliset" && cmp -s "$D/c.uiset" "$D/c.cliset" &&
    ! cmp -s "$D/c.wantset" "$D/c.want1"
check $? "c: breakdown --set (and :export under :set) counts only the set's queries" \
    "$D/c.wantset" "$D/c.cliset" "$D/c.uiset"

# ============ d. the journal =====================================================================
# Reopening shows the same state; undo works on the previous session's changes.
for w in tags qrels-diff; do ex "$D/t" bob --what $w >"$D/d.before.$w" 2>/dev/null; done
printf ':metrics\nq\n' >"$D/d.noop"
ws "$D/t" bob "$D/d.noop" >/dev/null 2>"$D/d.err"
st=$?
for w in tags qrels-diff; do ex "$D/t" bob --what $w >"$D/d.after.$w" 2>/dev/null; done
[ $st -eq 0 ] && cmp -s "$D/d.before.tags" "$D/d.after.tags" && cmp -s "$D/d.before.tags" "$D/t.tsv" &&
    cmp -s "$D/d.before.qrels-diff" "$D/d.after.qrels-diff" && [ "$(grep -c . "$D/t/bob.jsonl")" -eq 11 ]
check $? "d: reopening the journal in the workbench shows the same tags; nothing is appended" "$D/d.err"
printf ':undo\n' >"$D/d.undo"
ws "$D/t" bob "$D/d.undo" >"$D/d.out" 2>"$D/d.err"
[ $? -eq 0 ] && grep -qx 'undone: q23 p0073 tagged entity mismatch (#12)' "$D/d.out"
check $? "d: after reopening, :undo undoes the previous session's last change" "$D/d.out" "$D/d.err"

# The lock: a workbench holds the journal while it reads its script from a FIFO.
L=$D/lock
mkfifo "$D/fifo"
ws "$L" dave "$D/fifo" >"$D/l1.out" 2>"$D/l1.err" &
bg=$!
exec 7>"$D/fifo"
echo ':label q26 p0117 1' >&7
wait_for 30 "the first workbench's acknowledgement" grep -q '(#1)$' "$D/l1.out"
grep -qx 'q26 p0117 labelled 1 (#1)' "$D/l1.out"
check $? "d: the first workbench acknowledges its label" "$D/l1.out" "$D/l1.err"
printf ':label q01 p0054 1\n' >"$D/l2.script"
ws "$L" dave "$D/l2.script" >"$D/l2.out" 2>"$D/l2.err"
st=$?
[ $st -eq 2 ] && grep -q 'read-only' "$D/l2.err" && grep -q 'another retriage' "$D/l2.err" &&
    ! grep -q 'labelled' "$D/l2.out" && [ "$(grep -c . "$L/dave.jsonl")" -eq 1 ]
check $? "d: a second workbench on the locked journal cannot label: exit 2 (got $st), read-only, journal unchanged" \
    "$D/l2.err" "$L/dave.jsonl"
printf 'L\n:snapshot %s\n:goto q01\n' "$D/l2.snap" >"$D/l3.script"
ws "$L" dave "$D/l3.script" >/dev/null 2>"$D/l3.err"
st=$?
[ $st -eq 0 ] && grep -q 'another retriage' "$D/l2.snap"
check $? "d: the second workbench still browses (exit $st); its load report says the journal is taken" \
    "$D/l2.snap" "$D/l3.err"
ex "$L" dave --what qrels-diff >"$D/l.diff" 2>"$D/l.err"
[ $? -eq 0 ] && grep -qx 'q26 0 p0117 1' "$D/l.diff"
check $? "d: retriage export works while the lock is held, and sees the acknowledged label" "$D/l.diff" "$D/l.err"
echo ':label q01 p0054 1' >&7
exec 7>&-
wait $bg
st=$?
[ $st -eq 0 ] && grep -qx 'q01 p0054 labelled 1 (#2)' "$D/l1.out"
check $? "d: the first workbench kept writing (#2) and exits 0 (got $st)" "$D/l1.out" "$D/l1.err"
printf ':label q33 p0142 1\n' >"$D/l4.script"
ws "$L" dave "$D/l4.script" >"$D/l4.out" 2>"$D/l4.err"
[ $? -eq 0 ] && grep -qx 'q33 p0142 labelled 1 (#3)' "$D/l4.out"
check $? "d: once the first has quit, the next workbench writes (#3)" "$D/l4.out" "$D/l4.err"

# A hand-written bad line in the middle: reported with file:line, skipped, the rest applies.
B=$D/bad
mkdir "$B"
cp "$L/dave.jsonl" "$B/erin.jsonl"
sed -i 's/"author":"dave"/"author":"erin"/' "$B/erin.jsonl"
sed -i '2i this line was written by hand' "$B/erin.jsonl"
cp "$B/erin.jsonl" "$B.copy"
printf 'L\n:snapshot %s\n' "$D/bad.snap" >"$D/bad.script"
ws "$B" erin "$D/bad.script" >/dev/null 2>"$D/bad.err"
st=$?
[ $st -eq 0 ] && grep -q 'erin\.jsonl:2: not an operation' "$D/bad.snap"
check $? "d: a bad line in the middle: the workbench opens (exit $st), the load report names erin.jsonl:2" \
    "$D/bad.snap" "$D/bad.err"
ex "$B" erin --what qrels-diff >"$D/bad.diff" 2>"$D/bad.err2"
[ "$(sort "$D/bad.diff" | tr '\n' ' ')" = "q01 0 p0054 1 q26 0 p0117 1 q33 0 p0142 1 " ] &&
    grep -q 'erin\.jsonl:2: not an operation' "$D/bad.err2" && cmp -s "$B/erin.jsonl" "$B.copy" &&
    [ -z "$(ls "$B" | grep torn)" ]
check $? "d: the operations before and after it apply; export warns; the line is kept, nothing set aside" \
    "$D/bad.diff" "$D/bad.err2"
# ... and while that line is there the journal is read-only (issue 9: a complete line that does
# not parse is never cut or written after): a change is refused, saying which line and how to fix.
printf ':label q19 p0069 0\n' >"$D/badro.script"
ws "$B" erin "$D/badro.script" >"$D/badro.out" 2>"$D/badro.err"
st=$?
[ $st -eq 2 ] && grep -q 'read-only' "$D/badro.err" && grep -q 'erin\.jsonl:2 is not an operation' "$D/badro.err" &&
    grep -q 'move .*erin\.jsonl aside' "$D/badro.err" && cmp -s "$B/erin.jsonl" "$B.copy"
check $? "d: a bad line makes the journal read-only: the change is refused (exit $st), the file unchanged" \
    "$D/badro.out" "$D/badro.err"
# The user deletes the hand-written line, as the message says.
sed -i '2d' "$B/erin.jsonl"

# A torn last line: set aside into erin.jsonl.torn-*, reported; the earlier operations apply.
printf '{"seq":9,"ti' >>"$B/erin.jsonl"
cp "$B/erin.jsonl" "$B.torn.copy"
ex "$B" erin --what qrels-diff >"$D/torn.diff0" 2>"$D/torn.err0"
[ $? -eq 0 ] && cmp -s "$B/erin.jsonl" "$B.torn.copy" && [ -z "$(ls "$B" | grep torn)" ] &&
    grep -q 'erin\.jsonl:4: an incomplete last line is ignored' "$D/torn.err0" && cmp -s "$D/torn.diff0" "$D/bad.diff"
check $? "d: export (read-only) ignores a torn last line, says so, and changes nothing" "$D/torn.err0"
printf 'L\n:snapshot %s\n:label q19 p0069 0\n' "$D/torn.snap" >"$D/torn.script"
ws "$B" erin "$D/torn.script" >"$D/torn.out" 2>"$D/torn.err"
st=$?
torn=$(ls "$B" | grep '^erin\.jsonl\.torn-' | head -n1)
[ $st -eq 0 ] && [ -n "$torn" ] && [ "$(cat "$B/$torn")" = '{"seq":9,"ti' ] &&
    grep -q "erin\.jsonl:4: an incomplete last line .*set aside in .*erin\.jsonl\.torn-" "$D/torn.snap"
check $? "d: the workbench sets the torn line aside in $torn with exactly its bytes and reports it" \
    "$D/torn.snap" "$D/torn.err"
grep -qx 'q19 p0069 labelled 0 (#4)' "$D/torn.out" && [ "$(tail -c 1 "$B/erin.jsonl" | od -An -c | tr -d ' ')" = '\n' ] &&
    [ "$(grep -c '^{"seq":[0-9]*,' "$B/erin.jsonl")" -eq 4 ] && ! grep -q '"ti$' "$B/erin.jsonl"
check $? "d: the next operation is #4 on a line of its own; the torn bytes are gone from the journal" \
    "$D/torn.out" "$B/erin.jsonl"
ex "$B" erin --what qrels-diff >"$D/torn.diff" 2>"$D/torn.err2"
[ "$(sort "$D/torn.diff" | tr '\n' ' ')" = "q01 0 p0054 1 q19 0 p0069 0 q26 0 p0117 1 q33 0 p0142 1 " ] &&
    ! grep -q 'incomplete' "$D/torn.err2"
check $? "d: reopened: all four labels apply, no torn line any more" "$D/torn.diff" "$D/torn.err2"

# The last operation without its newline (cut exactly at the end of a line): it is kept, and the
# next operation starts a line of its own.
printf '%s' "$(cat "$L/dave.jsonl")" >"$L/dave.nonl" && mv "$L/dave.nonl" "$L/dave.jsonl"
printf ':label q19 p0069 0\n' >"$D/nl.script"
ws "$L" dave "$D/nl.script" >"$D/nl.out" 2>"$D/nl.err"
[ $? -eq 0 ] && grep -qx 'q19 p0069 labelled 0 (#4)' "$D/nl.out" &&
    [ "$(wc -l <"$L/dave.jsonl")" -eq 4 ] && [ "$(grep -c '^{"seq":[1-4],.*}$' "$L/dave.jsonl")" -eq 4 ]
check $? "d: a last operation without its newline is kept (#3) and #4 goes on the next line" \
    "$D/nl.out" "$L/dave.jsonl"

done_testing
