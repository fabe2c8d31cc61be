#!/bin/sh
# wrap_ui.sh — nothing long is cut at 80x24 or 140x42: help descriptions wrap under their column,
# help lists the taxonomy (which digit tags which category), the views that tag show a legend of
# the digit keys, the judging progress line and the passage view's tags wrap.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8 RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json"
[ -f "$RETRIAGE_DEMO" ] || skip_all "the demo workspace is missing"
ui() {  # ui SIZE SCRIPT
    printf '%b' "$2" > "$D/script"
    "$RETRIAGE" --demo --journal-dir "$D/j" --annotator w --script "$D/script" --size "$1" > /dev/null 2> "$D/err"
}
flat() { sed 's/\xc2\xa0/ /g' "$@" | tr -s ' \n' '  '; }   # the screens as one line of words

for size in 80x24 140x42; do
    # the whole help, page by page
    script='?\n'
    pages=   # (in order; the test's folder has no blanks)
    for i in $(seq 1 40); do script="$script:snapshot $D/h.$size.$i\n<PgDn>\n"; pages="$pages $D/h.$size.$i"; done
    ui $size "$script"
    ok $? "$size: help, page by page"
    rows=${size#*x}
    # the body of each page (no title, no status line); a page repeats the last row of the one before
    awk -v rows="$rows" 'FNR >= (FILENAME ~ /\.1$/ ? 2 : 3) && FNR <= rows - 1' $pages | flat > "$D/help.$size"
    # every action's description, whole (the longest ones wrap), its blanks squeezed as flat does:
    # one awk for all, a line "cut: …" for each not shown and "n N" for the number checked
    "$RETRIAGE" --help-keys | awk -F'  +' 'NF >= 3 && length($NF) > 40 { print $NF }' | sort -u > "$D/descs"
    awk 'NR == FNR { gsub(/ +/, " "); d[++n] = $0; next } { text = text $0 }
         END { for (i = 1; i <= n; i++) if (!index(text, d[i])) print "cut: " d[i]; print "n " n + 0 }' \
        "$D/descs" "$D/help.$size" > "$D/cut"
    st=0 n=0
    while IFS= read -r line; do
        case $line in
        "n "*) n=${line#n } ;;
        *) echo "$line" | diag; st=1 ;;
        esac
    done < "$D/cut"
    [ "$n" -gt 20 ] || st=1
    ok $st "$size: each of the $n long descriptions is shown whole in help"
    grep -qF "1 entity mismatch" "$D/help.$size" && grep -qF "7 false negative" "$D/help.$size" &&
        grep -qF "6 over-sensitivity on term overlap" "$D/help.$size" && grep -qF "Salient phrase mismatch" "$D/help.$size"
    ok $? "$size: help names the category of each digit, by group"
    # the tagging views: a legend of the digit keys
    ui $size ':goto q01\n:snapshot '"$D"'/c\nl\n<Enter>\n:snapshot '"$D"'/p\nq\nq\nJ\n:snapshot '"$D"'/jd\n'
    for v in c p jd; do
        flat "$D/$v" | grep -qF "tags: 1 entity 2 numeral 3 modifier 4 syntactic 5 typo 6 overlap 7 false-negative 8 other"
        ok $? "$size: the $v view shows the legend of the digit keys, whole"
    done
    flat "$D/jd" | grep -Eq "listed queries [0-9]+/[0-9]+ \([0-9]+%\)"
    ok $? "$size: the judging progress line is whole"
    # the passage view's tags: three categories and a long note, wrapped, never cut
    note="a note long enough to run past the end of the row even at one hundred and forty columns: the passage names the 2018 games in PyeongChang, not Beijing"
    ui $size ':goto q01\n<Enter>\n1\n2\n5\n:note q01 p0023 '"$note"'\n:snapshot '"$D"'/pt\n'
    flat "$D/pt" | grep -qF "tags: entity mismatch, numeral mismatch, robustness on typos; note \"$note\""
    ok $? "$size: the passage view's tags and note wrap, whole"
    rm -rf "$D/j"
done
done_testing
