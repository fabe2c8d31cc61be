#!/usr/bin/env bash
# bigpassage.sh — a huge passage in the passage view (issue 9, item 10): the view reads only its
# first 128 KiB and says so on screen; lines stay within the screen. (Its cost is measured by
# make bench-passage, not asserted here.)
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache"
{ printf 'huge\t'; yes '北京的天气很好，今天适合出门。' | tr -d '\n' | head -c $((8 << 20)); printf '\n'; } >"$D/c.tsv"
printf 'q1\t北京天气\n' >"$D/q.tsv"
printf 'q1 0 huge 1\n' >"$D/qrels"
printf 'q1 Q0 huge 1 2 r\n' >"$D/run"
printf '{"queries":"q.tsv","collection":"c.tsv","qrels":"qrels","runs":["run"],"journal_dir":"ann"}' >"$D/ws.json"
printf '<Enter>\n<Enter>\n:snapshot %s\nG\n:snapshot %s\n:quit\n' "$D/p1.txt" "$D/p2.txt" >"$D/s"
"$RETRIAGE" "$D/ws.json" --script "$D/s" --size 100x30 >"$D/out" 2>"$D/err"
report $? "an 8 MiB passage opens in the passage view"
grep -q 'passage cut: showing the first 128 KiB of 8.0 MiB' "$D/p1.txt"; report $? "the screen says the passage is cut and how much is shown"
grep -q '北京的天气很好' "$D/p1.txt"; report $? "the text shows"
[ "$(wc -L <"$D/p2.txt")" -le 100 ] && grep -q '北京' "$D/p2.txt"; report $? "scrolled to its end: lines within 100 columns"
done_testing
