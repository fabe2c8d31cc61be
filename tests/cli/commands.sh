#!/bin/sh
# commands.sh — the one table of subcommands (cli/cli.c): dispatch, the usage text and every
# "Try '…'" hint come from it, so a hint never names a command that does not exist.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD

run --help
st=0
for c in eval export leak pool dslabel; do
    grep -Eq "^  $c +" "$D/out" || { echo "usage lacks $c" | diag; st=1; }
done
report $st "the usage lists every command"
for c in eval export leak pool dslabel; do
    run "$c" --help
    [ "$rc" -eq 0 ] && grep -q "^Usage: retriage $c" "$D/out"; report $? "retriage $c --help works"
done

run --bogus-option
st=0
[ "$rc" -eq 1 ] || st=1
has_text "retriage open" "$D/err" && st=1           # there is no command called open
has_text "Try 'retriage --help-open'" "$D/err" || st=1
report $st "an unknown workbench option points to --help-open, not to a command that does not exist"

run eval --bogus-option
[ "$rc" -eq 1 ] && has_text "Try 'retriage eval --help'" "$D/err"; report $? "an unknown eval option points to eval --help"
run bogus
[ "$rc" -eq 1 ] && has_text "unknown command 'bogus'" "$D/err" && grep -Eq "^  pool +" "$D/err"
report $? "an unknown command is named, and the commands listed"
run
[ "$rc" -eq 0 ] && has_text "retriage --demo" "$D/out" && grep -q "^Usage: retriage" "$D/out"
report $? "no arguments: a welcome pointing to --demo, and the usage (exit 0)"

# Every "unknown X" lists the valid values, from the same table the parser reads.
run export --demo --what bogus
[ "$rc" -eq 1 ] && has_text "(qrels, qrels-diff, tags, breakdown, metrics, per-query, leakage, disputes, figure-delta, figure-hist, figure-before-after, leak-pairs, leak-types)" "$D/err"
report $? "export: an unknown --what lists every kind"
run export --demo
[ "$rc" -eq 1 ] && has_text "leakage" "$D/err"; report $? "export: a missing --what lists every kind (leakage too)"
run export --demo --what metrics --format xlsx
[ "$rc" -eq 1 ] && has_text "(trec, tsv, csv, json, md, latex)" "$D/err"
report $? "export: an unknown format lists the formats"

# The shared options (cli/opts.c) are parsed in one place: every command that takes one says
# the same thing about a bad value, listing the valid ones.
for c in "eval" "pool -k 1" "export --what metrics --demo" ""; do
    # shellcheck disable=SC2086
    run $c --order sideways x y
    [ "$rc" -eq 1 ] && has_text "unknown --order 'sideways' (score, file)" "$D/err"
    report $? "${c:-workbench}: a bad --order lists score, file"
done
for c in "eval" "pool -k 1"; do
    # shellcheck disable=SC2086
    run $c --run-format xml x y
    [ "$rc" -eq 1 ] && has_text "unknown run format 'xml' (auto, trec, tsv, dureader)" "$D/err"
    report $? "$c: a bad --run-format lists the formats"
    # shellcheck disable=SC2086
    run $c --qrels-format xml x y
    [ "$rc" -eq 1 ] && has_text "unknown qrels format 'xml' (auto, trec, tsv, dureader)" "$D/err"
    report $? "$c: a bad --qrels-format lists the formats"
done
run leak --train a --test b --queries-format xml
[ "$rc" -eq 1 ] && has_text "unknown queries format 'xml' (auto, tsv, dureader)" "$D/err"
report $? "leak: a bad --queries-format lists the formats"
run eval --preset nope x y
[ "$rc" -eq 1 ] && has_text "unknown preset 'nope' (dureader, trec, dbqa)" "$D/err"
report $? "eval: an unknown preset lists the presets"
for c in "eval" "export --what metrics --demo" ""; do
    # shellcheck disable=SC2086
    run $c -l 2.5 x y
    [ "$rc" -eq 1 ] && grep -q -- "--level expects a whole number, not '2.5'" "$D/err"
    report $? "${c:-workbench}: -l 2.5 is refused in the same words"
done
run export --demo --what leakage --leaked some
[ "$rc" -eq 1 ] && has_text "unknown --leaked 'some' (reviewed, candidates)" "$D/err"
report $? "export: a bad --leaked lists its values"
printf '{"qrels": "q", "runs": ["r"], "order": "x"}\n' > "$D/ws.json"
run "$D/ws.json"
[ "$rc" -eq 2 ] && has_text '"order" must be one of score, file' "$D/err"
report $? "a workspace file's bad order lists the valid ones"
# ws_fails JSON MESSAGE NAME: export over the workspace file JSON is an input error (exit 2)
# whose message, after the file's name, is MESSAGE (a grep pattern)
ws_fails() {
    printf '%s\n' "$1" > "$D/ws.json"
    run export "$D/ws.json" --what metrics
    [ "$rc" -eq 2 ] && grep -q -- "$D/ws.json: $2" "$D/err"
    report $? "$3"
}
# ws_fails_at JSON LINE MESSAGE NAME: the same, the message after the file's name and LINE
ws_fails_at() {
    printf '%s\n' "$1" > "$D/ws.json"
    run export "$D/ws.json" --what metrics
    [ "$rc" -eq 2 ] && grep -q -- "$D/ws.json:$2: $3" "$D/err"
    report $? "$4"
}
ws_fails_at '{"qrels": "q", "runs": ["r"], "measures": "RR@10,bogus"}' 1 '"measures": unknown measure "bogus" (known: ' \
    "a workspace file's unknown measure: an input error (exit 2) naming the file and line"
# "measures" as a JSON array: each element a name (or preset, or list) as -m takes; a bad element
# is named by its number and line
ws_fails_at "$(printf '{"qrels": "q", "runs": ["r"],\n "measures": [\n  "RR@10",\n  "nDGC@10"\n ]}')" 4 \
    '"measures" element 2: unknown measure "nDGC@10" (known: RR\[@k\]' \
    "a workspace file's measures array with an unknown name: file:line of that element, its number"
ws_fails_at "$(printf '{"qrels": "q", "runs": ["r"],\n "measures": ["RR@10",\n 10]}')" 3 \
    '"measures" element 2 must be a measure name (a string, as -m takes)' \
    "a measures array with a number: file:line of that element"
ws_fails_at '{"qrels": "q", "runs": ["r"], "measures": []}' 1 '"measures" must name at least one measure' \
    "an empty measures array is refused"
ws_fails_at '{"qrels": "q", "runs": ["r"], "measures": {"a": 1}}' 1 '"measures" must be a string .* or an array of them' \
    "measures neither a string nor an array is refused"
printf '{"qrels": "%s", "runs": ["%s"], "measures": ["nDCG@10", "dbqa", "P@1,RR@10"]}\n' \
    "$SRCDIR/data/demo/qrels.trec" "$SRCDIR/data/demo/runs/bm25.trec" > "$D/wsa.json"
run export "$D/wsa.json" --what metrics --journal-dir "$D/ja"
cut -f2,3 "$D/out" > "$D/wsa.got"
run eval -m nDCG@10,dbqa,P@1,RR@10 "$SRCDIR/data/demo/qrels.trec" "$SRCDIR/data/demo/runs/bm25.trec"
awk -F'\t' '$3 == "all" { print $2 "\t" $4 }' "$D/out" > "$D/wsa.want"
[ "$(sed 1d "$D/wsa.got")" = "$(cat "$D/wsa.want")" ] && [ "$(wc -l < "$D/wsa.want")" -eq 6 ]
report $? "a measures array (names, a preset, a comma list): the measures and values of eval -m on the joined list"
ws_fails '{"dbqa": "d", "qrels": "q", "runs": ["r"]}' \
    '"dbqa" holds the queries, passages and labels: no "queries", "collection" or "qrels" with it' \
    "a workspace file with \"dbqa\" and \"qrels\": an input error naming the file and its members"
ws_fails '{"qrels": "q", "runs": ["r"], "annotator": "../lead"}' \
    "\"annotator\" cannot name a journal: it holds a '/' or starts with '.'" \
    "a workspace file's annotator that cannot name a journal: an input error naming the file"
ws_fails '{"qrels": "q", "runs": ["r"], "annotator": "a\u001b[31mb"}' \
    '"annotator" cannot name a journal: it holds a control character' \
    "a workspace file's annotator with an escape byte: an input error naming the file"
run --script /dev/null --demo --journal-dir "$D/jr" --annotator "$(printf 'a\033b')"
[ "$rc" -eq 1 ] && grep -q 'annotator name "a\\x1bb" cannot name a journal: it holds a control character' "$D/err" &&
    [ ! -e "$D/jr" ]
report $? "--annotator with an escape byte is refused, shown escaped, and nothing is created"
# -m and --preset add up, as the help says
printf 'q1 0 p1 1\n' > "$D/q.trec"; printf 'q1 Q0 p1 1 1.0 r\n' > "$D/r.trec"
run eval -m RR@10 --preset dbqa -m P@2 "$D/q.trec" "$D/r.trec"
[ "$rc" -eq 0 ] && [ "$(cut -f2 "$D/out" | tr '\n' ' ')" = "RR@10 RR Success@1 AP_min P@2 " ]
report $? "eval: -m and --preset add up in the order given"
# a WORKSPACE.json (or --demo) names its own inputs and measures: a flag saying otherwise is not
# silently ignored but refused, for every command that opens a workspace
WSJ="$SRCDIR/data/demo/workspace.json"
st=0
for args in "export $WSJ -m AP --what metrics" "export $WSJ --what metrics --strict" \
    "--demo --run $D/r.trec" "export $WSJ --order file --what metrics" "export --demo -l 2 --what metrics" \
    "export $WSJ --qrels $D/q.trec --what metrics"; do
    # shellcheck disable=SC2086
    run $args
    case " $args " in   # (the one flag each holds, found without a process)
    *" -m "*) flag=-m ;;
    *" --strict "*) flag=--strict ;;
    *" --run "*) flag=--run ;;
    *" --order "*) flag=--order ;;
    *" -l "*) flag=-l ;;
    *" --qrels "*) flag=--qrels ;;
    *) flag="(none)" ;;
    esac
    { [ "$rc" -eq 1 ] && grep -q -- "$flag describes a workspace given by flags" "$D/err" && [ ! -s "$D/out" ]; } ||
        { echo "retriage $args: exit $rc" | diag; show; st=1; }
done
report $st "a workspace flag with a WORKSPACE.json or --demo is refused (exit 1), naming the flag"
run export "$WSJ" --no-cache --what metrics
[ "$rc" -eq 0 ] && has_text "RR@10" "$D/out"
report $? "(--no-cache still goes with a WORKSPACE.json)"

done_testing
