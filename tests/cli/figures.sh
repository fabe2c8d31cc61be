#!/bin/sh
# figures.sh — the SVG figures (issue 12): they parse (xmllint), a real renderer turns them into a
# PNG (rsvg-convert), and their bars are the numbers: a bar a query with the per-query difference
# `retriage eval -q` gives, histogram counts that add up, before/after means as the metrics
# export; heights proportional to the values; CJK run names escaped and rendered. And the plot
# view in the workbench, live.
# shellcheck disable=SC2086 # ($MW is split where used)
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
# the workspace's options are the positional parameters ($SRCDIR may hold blanks)
set -- --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$DEMO/runs/bm25.trec" --run "$DEMO/runs/dense.trec" \
    --journal-dir "$D/j"
vals() { grep -o 'class="bar" data-value="[^"]*"' "$1" | sed 's/.*data-value="//; s/"$//'; }

run export "$@" --what figure-delta --runs bm25,dense -o "$D/delta.svg"
[ "$rc" -eq 0 ] && xmllint --noout "$D/delta.svg" 2> "$D/xml"
report $? "figure-delta: an SVG that parses"
"$RETRIAGE" eval -q -m RR@10 "$DEMO/qrels.trec" "$DEMO/runs/bm25.trec" "$DEMO/runs/dense.trec" > "$D/eval"
awk -F'\t' '$3 != "all" { if ($1 == "bm25") a[$3] = $4; else b[$3] = $4 } END { for (q in a) printf "%.12f\n", a[q] - b[q] }' \
    "$D/eval" | sort -g > "$D/want"
vals "$D/delta.svg" | awk '{ printf "%.12f\n", $1 }' | sort -g > "$D/got"
[ "$(wc -l < "$D/got")" -eq 34 ] && cmp -s "$D/want" "$D/got"
ok $? "34 bars, one a query, each the per-query difference eval gives"
vals "$D/delta.svg" | awk 'NR > 1 && $1 > prev + 1e-15 { bad = 1 } { prev = $1 } END { exit bad }'
ok $? "the bars are sorted by the difference, largest first"
grep -o 'data-value="[^"]*" x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*"' "$D/delta.svg" |
    sed 's/data-value="//; s/" x="[^"]*" y="[^"]*" width="[^"]*" height="/ /; s/"$//' |
    awk '$1 != 0 { r = $2 / ($1 < 0 ? -$1 : $1); if (n++ && (r - r0 > 0.002 * r0 || r0 - r > 0.002 * r0)) bad = 1; r0 = r } END { exit bad || n < 2 }'
ok $? "bar heights are proportional to the values"

run export "$@" --what figure-hist --runs dense -o "$D/hist.svg"
n=$(vals "$D/hist.svg" | wc -l); sum=$(vals "$D/hist.svg" | awk '{ s += $1 } END { print s }')
want=$(awk -F'\t' '$1 == "dense" && $3 != "all" { b = int($4 * 10); if (b > 9) b = 9; c[b]++ } END { for (i = 0; i < 10; i++) printf "%d ", c[i] + 0 }' "$D/eval")
got=$(vals "$D/hist.svg" | tr '\n' ' ')
[ "$rc" -eq 0 ] && xmllint --noout "$D/hist.svg" && [ "$n" -eq 10 ] && [ "$sum" -eq 34 ] && [ "$got" = "$want" ]
ok $? "figure-hist: 10 bins of RR@10 holding the 34 queries as eval's values fall ($got)"

run export "$@" --what figure-before-after -o "$D/ba.svg"
"$RETRIAGE" export "$@" --what metrics > "$D/metrics" 2> /dev/null
want=$(awk -F'\t' '$2 == "RR@10" { printf "%.4f %.4f ", $3, $4 }' "$D/metrics")
got=$(vals "$D/ba.svg" | awk '{ printf "%.4f ", $1 }')
[ "$rc" -eq 0 ] && xmllint --noout "$D/ba.svg" && [ "$got" = "$want" ]
ok $? "figure-before-after: each run's base and current mean, as the metrics export ($got)"

if command -v rsvg-convert > /dev/null; then
    st=0
    for f in delta hist ba; do
        rsvg-convert -o "$D/$f.png" "$D/$f.svg" 2>> "$D/rsvg" && [ "$(head -c 8 "$D/$f.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || st=1
    done
    ok $st "rsvg-convert renders the three figures as PNG"
else
    ok 0 "# SKIP rsvg-convert is not installed (scripts/setup.sh installs librsvg2-bin)"
fi

# CJK run names and markup characters are escaped; the figure still parses and renders
run export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "基线<&>=$DEMO/runs/bm25.trec" \
    --run "稠密=$DEMO/runs/dense.trec" --journal-dir "$D/j" --what figure-before-after -o "$D/cjk.svg"
[ "$rc" -eq 0 ] && xmllint --noout "$D/cjk.svg" && has_text "基线&lt;&amp;&gt;" "$D/cjk.svg" && has_text "稠密" "$D/cjk.svg" &&
    { ! command -v rsvg-convert > /dev/null || rsvg-convert -o "$D/cjk.png" "$D/cjk.svg"; }
report $? "CJK and markup in run names: escaped, parsed, rendered"
# long CJK run names (300 bytes each): the title holds both whole, and stays valid XML
A=$(printf '检索%.0s' $(seq 50)); B=$(printf '稠密%.0s' $(seq 50))
run export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$A=$DEMO/runs/bm25.trec" \
    --run "$B=$DEMO/runs/dense.trec" --journal-dir "$D/j" --what figure-delta -o "$D/long.svg"
[ "$rc" -eq 0 ] && xmllint --noout "$D/long.svg" && grep -q "<title>$A − $B, RR@10 per query" "$D/long.svg"
report $? "long run names: the figure's title whole (it was cut at 256 bytes, mid-character)"
# geometry (issue 35, item 13): ticks at round values (a step of 1, 2, 2.5 or 5 × 10^k; whole numbers
# for the histogram's counts), the legend in its own row above every bar, and every label inside the
# canvas: rendered, the outermost 2 pixels of each edge are blank
ticks() { grep -o 'class="tick" data-value="[^"]*"' "$1" | sed 's/.*data-value="//; s/"$//'; }
round_ticks() {   # round_ticks SVG [int]: evenly spaced ticks, the step's mantissa 1, 2, 2.5 or 5
    ticks "$1" | awk -v whole="${2:-}" '
        NR > 1 { d = $1 - p; if (n++ && (d - d0 > 1e-9 || d0 - d > 1e-9)) bad = 1; d0 = d }
        { p = $1; if (whole != "" && $1 != int($1)) bad = 1 }
        END { if (n < 1 || bad) exit 1; m = d0; while (m >= 10 - 1e-6) m /= 10; while (m < 1 - 1e-6) m *= 10
              ok = 0; split("1 2 2.5 5", c, " "); for (k in c) if (m - c[k] < 1e-9 && c[k] - m < 1e-9) ok = 1; exit !ok }'
}
round_ticks "$D/delta.svg" && round_ticks "$D/ba.svg" && round_ticks "$D/hist.svg" whole &&
    ! grep -q '<text[^>]*text-anchor="end">[0-9]*\.[0-9]*</text>' "$D/hist.svg"
ok $? "ticks at round values, evenly spaced; the histogram's counts whole numbers ($(ticks "$D/hist.svg" | tr '\n' ' '))"
legend_y=$(grep -o '<g class="legend"><rect x="[^"]*" y="[^"]*"' "$D/ba.svg" | sed 's/.*y="//; s/"$//')
top=$(grep -o 'class="bar" data-value="[^"]*" x="[^"]*" y="[^"]*"' "$D/ba.svg" | sed 's/.*y="//; s/"$//' | sort -g | head -1)
[ -n "$legend_y" ] && [ -n "$top" ] && awk -v l="$legend_y" -v t="$top" 'BEGIN { exit !(l + 12 < t) }'
ok $? "before/after: the legend (y $legend_y) is above the tallest bar (y $top)"
A2=$(printf 'xapian-bm25-jieba-分词-检索%.0s' $(seq 3))
run export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$A2=$DEMO/runs/bm25.trec" \
    --run "dense-retriever-with-a-long-name=$DEMO/runs/dense.trec" --journal-dir "$D/j" --what figure-before-after -o "$D/edge.svg"
if command -v rsvg-convert > /dev/null && command -v python3 > /dev/null; then
    rsvg-convert -o "$D/edge.png" "$D/edge.svg" && rsvg-convert -o "$D/hedge.png" "$D/hist.svg" &&
        python3 "$SRCDIR/tests/tools/png_edges.py" "$D/edge.png" "$D/hedge.png" > "$D/edges"
    ok $? "long run names (CJK too) and the histogram's labels: nothing drawn on the edges of the rendered canvas ($(tr '\n' ' ' < "$D/edges"))"
else
    ok 0 "# SKIP rendering the edges needs rsvg-convert and python3"
fi

# a run named by its TREC tag, which holds an invalid byte: U+FFFD in the SVG, which stays XML
sed 's/[^ ]*$/bm\o37725/' "$DEMO/runs/bm25.trec" > "$D/badtag.trec"
run export --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "$D/badtag.trec" \
    --run "$DEMO/runs/dense.trec" --journal-dir "$D/j" --what figure-before-after -o "$D/bad.svg"
[ "$rc" -eq 0 ] && xmllint --noout "$D/bad.svg" && has_text "bm�25" "$D/bad.svg"
report $? "a run tag with invalid UTF-8: U+FFFD, and the figure parses"

# a mean over no query (MFR of a run that retrieves nothing relevant) is undefined, not a bar of 0
# (which for MFR would read as the best run), in the SVG and in the plot view
printf 'q1 0 r1 1\nq2 0 r2 1\n' > "$D/mq"
printf 'q1 Q0 r1 1 9 A\nq2 Q0 x 1 9 A\nq2 Q0 r2 2 8 A\n' > "$D/ma.trec"
printf 'q1 Q0 zz 1 9 N\n' > "$D/mn.trec"
# (a plain string, split where used: the test's own paths, from mktemp, hold no blanks)
MW="--qrels $D/mq --run $D/ma.trec --run $D/mn.trec -m MFR --journal-dir $D/jm"
run export $MW --what figure-before-after -o "$D/mfr.svg"
[ "$rc" -eq 0 ] && xmllint --noout "$D/mfr.svg" && [ "$(vals "$D/mfr.svg" | tr '\n' ' ')" = "1.5 1.5 " ] &&
    [ "$(grep -c 'class="undefined"' "$D/mfr.svg")" -eq 2 ]
report $? "figure-before-after: a run with no MFR to average is 'undefined', no bar"
printf 'v\nv\nv\n:snapshot %s/pm\n' "$D" > "$D/mscript"
"$RETRIAGE" $MW --annotator plot --script "$D/mscript" --size 80x12 > /dev/null 2> "$D/uierr"
grep -q "^N  *base  *undefined" "$D/pm" && grep -q "^ *after  *undefined" "$D/pm"
ok $? "the plot view says undefined for it too"

# the terminal's before/after bars: a long run name is shortened by what tells it apart, never run
# into "base" ("xapian-bm25-jibase"), and a legend names it whole
printf 'v\nv\nv\n:snapshot %s/tp\n' "$D" > "$D/tscript"
"$RETRIAGE" --queries "$DEMO/queries.tsv" --qrels "$DEMO/qrels.trec" --run "xapian-bm25-jieba=$DEMO/runs/bm25.trec" \
    --run "xapian-bm25-jieba-tfidf=$DEMO/runs/dense.trec" --journal-dir "$D/jt" --annotator plot --script "$D/tscript" \
    --size 80x16 > /dev/null 2> "$D/uierr"
grep -q '^…jieba  *base ' "$D/tp" && grep -q '^…jieba-tfidf  *base ' "$D/tp" && ! grep -q 'jibase\|[^ ]base' "$D/tp" &&
    grep -q 'runs: …jieba.=.xapian-bm25-jieba  *…jieba-tfidf.=.xapian-bm25-jieba-tfidf' "$D/tp"
ok $? "the plot view at 80 columns: long run names shortened apart from base, and named in a legend"

# refusals
fails 1 "the figures are written as svg" "a figure in another format is refused" export "$@" --what figure-delta --format tsv
fails 1 "figure-delta compares two runs" "figure-delta of a run with itself" export "$@" --what figure-delta --runs bm25,bm25
fails 1 "--measure: the workspace has no measure MAP" "an unknown measure" export "$@" --what figure-hist --measure MAP
fails 1 "--format svg is for the figures" "svg for a table is refused" export "$@" --what metrics --format svg

# the plot view: v cycles, and the figures follow a relabel
printf 'v\n:snapshot %s/p1\nv\n:snapshot %s/p2\nv\n:snapshot %s/p3\n:label q01 p0023 1\n:snapshot %s/p4\n' "$D" "$D" "$D" "$D" > "$D/script"
"$RETRIAGE" "$@" --annotator plot --script "$D/script" --size 100x30 > /dev/null 2> "$D/uierr"
has_text "bm25 − dense, RR@10 per query (34 queries, sorted)" "$D/p1" && has_text "█" "$D/p1" &&
    has_text "bm25: RR@10 per query (34 queries)" "$D/p2" && has_text "RR@10 before and after the relabels" "$D/p3" &&
    grep -q "after .* 0.4637" "$D/p3" && ! grep -q "after .* 0.4637" "$D/p4"
ok $? "v opens the difference plot, then the histogram and the before/after bars, which follow a relabel"
awk 'NR > 3 && /bins\)$/ { done = 1 } NR > 3 && !done { n++; if (substr($0, 1, 8) !~ /^ *[0-9]+ *$/) bad = 1 } END { exit bad || n < 5 }' "$D/p2"
ok $? "the histogram's axis counts queries in whole numbers"

done_testing
