#!/bin/sh
# dbqa.sh — NLPCC DBQA files in the workbench and the workspace commands (questions as queries,
# sentences as passages, labels as qrels, score files as runs): the metrics equal eval --dbqa,
# ties rank in file order as there, the screens show the questions and sentences, bad input
# names its file and line.
# shellcheck disable=SC2086 # ($WS is split where used)
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8
cd "$D" || exit 1
printf '北京的首都是哪里\t北京是中国的首都\t1\n北京的首都是哪里\t上海是一个城市\t0\n北京的首都是哪里\t天津靠海\t0\n长江有多长\t长江全长约6300千米\t1\n长江有多长\t黄河是第二长河\t0\n谁发明了电话\t贝尔发明了电话\t1\n谁发明了电话\t爱迪生发明了电灯\t0\n谁发明了电话\t电话很有用\t0\n长江有多长\t长江很长\t1\n' > t.dbqa
printf '0.5\n0.9\n0.5\n0.1\n0.3\n0.7\n0.7\n0.2\n0.05\n' > sys1.score
printf '1\n0\n0\n0.2\n0.2\n0.1\n0.9\n0.1\n0.2\n' > sys2.score
WS="--dbqa t.dbqa --run sys1.score --run sys2.score --journal-dir j --annotator d"   # (split where used)

"$RETRIAGE" eval -q --dbqa t.dbqa sys1.score sys2.score > eval 2> /dev/null
ok $? "eval --dbqa"
"$RETRIAGE" export $WS --what metrics > metrics 2> err
ok $? "export --dbqa F --run SCORES --what metrics"
awk -F'\t' '$3 == "all" { print $1 "\t" $2 "\t" $4 }' eval | sort > want
awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' metrics | sort > got
cmp -s want got && [ "$(wc -l < got)" -eq 6 ]
ok $? "the workspace's metrics equal eval --dbqa digit for digit ($(tr '\n' ' ' < got))"
"$RETRIAGE" export $WS --what per-query > perq 2> /dev/null
awk -F'\t' 'NR == 1 { for (i = 3; i <= NF; i++) m[i] = $i; next } { for (i = 3; i <= NF; i++) print $1 "\t" m[i] "\t" $2 "\t" $i }' perq | sort > got
awk -F'\t' '$3 != "all"' eval | sort > want
cmp -s want got
ok $? "per question too (ties ranked in file order, as eval --dbqa)"

for size in 80x24 140x42; do
    printf ':snapshot %s/l\n<Enter>\n:snapshot %s/c\n<Enter>\n:snapshot %s/p\n' "$D" "$D" "$D" > s
    "$RETRIAGE" $WS --fresh --script s --size $size > /dev/null 2> err   # (each size from a first open)
    ok $? "$size: the workbench opens a DBQA file with its score files"
    head -1 l | grep -q "retriage — t.dbqa — query list" && grep -q "^q1  *北京的首都是哪里" l && grep -q "^q3  *谁发明了电话" l
    ok $? "$size: titled after the DBQA file; its questions are the queries"
    # sys1 on q1: 上海 0.9, then 北京 and 天津 tie at 0.5 and keep their file order
    awk -F'|' 'NR >= 4 && NR <= 6 { print $1 }' c | grep -o '[上北天][^ ]*' | tr '\n' ' ' > order
    o=; IFS= read -r o < order   # (one line without its end: tr took the line ends)
    [ "$o" = "上海是一个城市 北京是中国的首都 天津靠海 " ]
    ok $? "$size: side by side, tied sentences keep the file's order ($o)"
    has_text "passage q1-2  judged non-relevant" p && grep -q "^上海是一个城市" p
    ok $? "$size: the passage view shows the sentence and its label"
done

# a relabel is an annotation like any other: the second sentence of q1 becomes relevant
printf ':label q1 q1-2 1\n' > s
"$RETRIAGE" $WS --script s --size 80x24 > /dev/null 2>&1
"$RETRIAGE" export $WS --what qrels > qrels 2> /dev/null
grep -q "^q1 0 q1-2 1$" qrels && grep -q "^q2 0 q2-3 1$" qrels && [ "$(wc -l < qrels)" -eq 9 ]
ok $? "the relabel is in the exported qrels, with the file's labels"
"$RETRIAGE" export $WS --what metrics > metrics2 2> /dev/null
awk -F'\t' '$1 == "sys1" && $2 == "Success@1" { exit !($3 < 0.34 && $4 > 0.66 && $4 < 0.67 && $5 > 0.33) }' metrics2
ok $? "sys1's Success@1 rises from 1/3 to 2/3 (its first sentence of q1 is now relevant)"

# a workspace file may name it
printf '{"dbqa": "t.dbqa", "runs": [{"name": "sys1", "path": "sys1.score"}, "sys2.score"], "journal_dir": "j2"}\n' > ws.json
"$RETRIAGE" export ws.json --what metrics > metrics3 2> /dev/null
cmp -s metrics metrics3
ok $? "a workspace file with \"dbqa\" and its score files as runs"

# bad input: the file and line
printf '0.5\n0.9\n' > short.score
"$RETRIAGE" export --dbqa t.dbqa --run short.score --what metrics > /dev/null 2> err
[ $? -eq 2 ] && has_text "short.score:3: the file ends after 2 scores, for the 9 lines of t.dbqa" err
ok $? "a score file with too few lines: its file and line ($(cat err))"
printf 'q\tsentence\tyes\n' > bad.dbqa
"$RETRIAGE" export --dbqa bad.dbqa --run sys1.score --what metrics > /dev/null 2> err
[ $? -eq 2 ] && has_text "bad.dbqa:1: expected an integer label" err
ok $? "a bad label: the DBQA file and line"
"$RETRIAGE" export --dbqa t.dbqa --qrels t.dbqa --run sys1.score --what metrics > /dev/null 2> err
[ $? -eq 1 ] && has_text "no --queries, --collection or --qrels with it" err
ok $? "--dbqa with --qrels is a usage error"
"$RETRIAGE" --dbqa t.dbqa --script s > /dev/null 2> err
[ $? -eq 1 ] && grep -q "\-\-dbqa needs at least one --run" err
ok $? "--dbqa without a score file is a usage error"
done_testing
