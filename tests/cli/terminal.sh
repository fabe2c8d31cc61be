#!/bin/sh
# terminal.sh — nothing read from a file reaches a terminal raw (issue 9, item 9): run tags,
# bad tokens and file names with escape sequences are shown as visible escapes on a terminal
# (standard output when it is one, standard error always); files and pipes keep the bytes, and
# JSON output stays valid.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
command -v script >/dev/null || skip_all "util-linux script is needed to run the CLI on a terminal"
[ -n "$PYTHON3" ] || skip_all "python3 is needed to parse the JSON output"
export XDG_CACHE_HOME="$D/cache"
ESC=$(printf '\033')
BEL=$(printf '\007')

# on_tty ARGS… — runs retriage on a pseudo-terminal; its whole screen output goes to $D/tty
on_tty() {
    local cmd="'$RETRIAGE'"
    for a in "$@"; do cmd="$cmd '$a'"; done
    script -qec "$cmd" /dev/null </dev/null >"$D/tty" 2>&1
    rc=$?
}
raw_controls() {  # true when the file holds ESC, BEL, CSI (0x9b) or OSC (0x9d) bytes
    LC_ALL=C grep -q "$(printf '[\033\007\233\235]')" "$1"
}

printf 'q1 0 p1 1\n' >"$D/q.trec"
printf 'q1 Q0 p1 1 2 \033]2;PWNED\033\\\n' >"$D/t.run"
on_tty eval "$D/q.trec" "$D/t.run"
st=0
[ "$rc" -eq 0 ] || st=1
raw_controls "$D/tty" && st=1
grep -q '\^\[\]2;PWNED' "$D/tty" || st=1
report $st "eval on a terminal: the run tag's OSC sequence shows as ^[]2;PWNED, no raw ESC"
on_tty eval --format md "$D/q.trec" "$D/t.run"
! raw_controls "$D/tty"; report $? "eval --format md on a terminal: no raw ESC"
"$RETRIAGE" eval "$D/q.trec" "$D/t.run" >"$D/pipe.tsv" 2>/dev/null
grep -q "${ESC}]2;PWNED" "$D/pipe.tsv"; report $? "eval into a pipe keeps the bytes (TSV is data)"
"$RETRIAGE" eval --format json "$D/q.trec" "$D/t.run" >"$D/out.json" 2>/dev/null
"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["runs"][0]["run"].startswith("\x1b]2;")' "$D/out.json"
report $? "eval --format json escapes the ESC and stays valid JSON"
printf 'q1 Q0 p1 1 2 bad\377tag\n' >"$D/u.run"
"$RETRIAGE" eval --format json "$D/q.trec" "$D/u.run" >"$D/u.json" 2>/dev/null
"$PYTHON3" -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$D/u.json"
report $? "eval --format json of a tag with invalid UTF-8 stays valid UTF-8 JSON"
printf 'q1 Q0 p1 1 2 ok\n' >"$D/v.run"
"$RETRIAGE" compare --format json "$D/q.trec" "$D/u.run" "$D/v.run" >"$D/c.json" 2>/dev/null
"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); assert d[0]["a"] == "bad\ufffdtag"' "$D/c.json"
report $? "compare --format json of a tag with invalid UTF-8 stays valid UTF-8 JSON"
# agree: annotators are named after their journals' file names, categories by the workspace file.
# retriage makes no journal named with invalid UTF-8, but one may come from elsewhere: a copy.
printf '{"qrels": "q.trec", "runs": ["v.run"], "journal_dir": "aj", "taxonomy": [{"group": "g",
  "categories": [{"name": "c", "id": "c\377", "key": "1"}]}]}\n' >"$D/agree.json"
printf ':label q1 p1 0\n:tag q1 p1 1\n' >"$D/agree.script"
"$RETRIAGE" "$D/agree.json" --script "$D/agree.script" --annotator b >/dev/null 2>&1
# (a journal whose name is no annotator's name, not UTF-8, is left out of the team, said: issue 33)
cp "$D/aj/b.jsonl" "$D/aj/a$(printf '\377').jsonl"
cp "$D/aj/b.jsonl" "$D/aj/a.jsonl"
"$RETRIAGE" agree --format json "$D/agree.json" >"$D/a.json" 2>"$D/a.err"
"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); assert d["annotators"] == ["a", "b"] and "c\ufffd" in d["pairs"][0]["category_kappa"]' "$D/a.json" &&
    grep -q 'a\\xff.jsonl: no annotator can have that name (it is not valid UTF-8): left out of the team' "$D/a.err"
report $? "agree --format json of a category name with invalid UTF-8 stays valid UTF-8 JSON; a journal so named is left out"

# bidi controls (embeddings, overrides, isolates) would reorder what the terminal shows after
# them ("Trojan source"): escaped as <U+202E> like the C1 controls; other characters kept
printf 'q1 Q0 p1 1 2 a\342\200\256gnp.exe\342\201\246x\342\201\251\n' >"$D/bidi.run"
on_tty eval "$D/q.trec" "$D/bidi.run"
[ "$rc" -eq 0 ] && ! LC_ALL=C grep -q "$(printf '\342\200[\252-\256]\|\342\201[\246-\251]')" "$D/tty" &&
    has_text 'a<U+202E>gnp.exe<U+2066>x<U+2069>' "$D/tty"
report $? "eval on a terminal: a run tag's bidi overrides and isolates show as <U+…>"
"$RETRIAGE" eval "$D/q.trec" "$D/bidi.run" >"$D/pipe.tsv" 2>/dev/null
grep -q "$(printf 'a\342\200\256gnp')" "$D/pipe.tsv"; report $? "into a pipe the bidi controls are kept"

# standard error, always: errors naming bad tokens, warnings, file names, the pool summary
printf 'q1 0 p1 \033]2;X\007\n' >"$D/badgrade.trec"
"$RETRIAGE" eval "$D/badgrade.trec" "$D/t.run" >/dev/null 2>"$D/err"
[ $? -eq 2 ] && ! raw_controls "$D/err" && grep -q '\^\[\]2;X\^G' "$D/err"
report $? "an error quoting a bad token: escapes shown, even with stderr in a file"
cp "$D/q.trec" "$D/q${ESC}]0;T${BEL}.trec"
"$RETRIAGE" eval "$D/q${ESC}]0;T${BEL}.trec" "$D/missing.run" >/dev/null 2>"$D/err"
[ $? -eq 2 ] && ! raw_controls "$D/err"; report $? "a file name with an escape sequence in an error: no raw ESC"
printf 'q1 Q0 p1 1 2 \033]2;PWNED\033\\\nq1 Q0 p1 2 1 \033]2;PWNED\033\\\n' >"$D/dup.run"
"$RETRIAGE" eval "$D/q.trec" "$D/dup.run" >/dev/null 2>"$D/err"
! raw_controls "$D/err" && has_text 'duplicate' "$D/err"; report $? "load warnings: no raw ESC"
"$RETRIAGE" pool --depth 5 "$D/t.run" >/dev/null 2>"$D/err"
has_text 'retriage pool' "$D/err" && ! raw_controls "$D/err"; report $? "the pool summary names the run without raw ESC"
on_tty pool --depth 5 "$D/t.run"
! raw_controls "$D/tty"; report $? "pool on a terminal: no raw ESC anywhere"

# leak: query texts on a terminal
printf 'a1\t北京的\033]2;X\007天气\n' >"$D/train.tsv"
printf 'b1\t北京的\033]2;X\007天气\n' >"$D/test.tsv"
on_tty leak --train "$D/train.tsv" --test "$D/test.tsv" -Q
[ "$rc" -eq 0 ] && ! raw_controls "$D/tty" && has_text '北京' "$D/tty"
report $? "leak on a terminal: query texts without raw controls, Chinese intact"

# the workbench in script mode with --echo: its status messages, which quote names from the
# workspace file (a category name here), reach a terminal as escapes too
printf '{"qrels": "q.trec", "runs": [{"path": "t.run"}], "journal_dir": "wj", "taxonomy": [{"group": "g",
  "categories": [{"name": "c\\u001b]2;PWNED\\u0007\\u009b", "key": "1"}]}]}\n' >"$D/ws.json"
printf ':tag q1 p1 1\n' >"$D/echo.script"
on_tty "$D/ws.json" --script "$D/echo.script" --echo --annotator t
[ "$rc" -eq 0 ] && ! raw_controls "$D/tty" && grep -q 'tagged c\^\[\]2;PWNED\^G<9B>' "$D/tty"
report $? "the workbench's --echo on a terminal: a category name's OSC and CSI show as escapes"
"$RETRIAGE" "$D/ws.json" --script "$D/echo.script" --echo --annotator u >"$D/echo.out" 2>/dev/null
grep -q "tagged c${ESC}]2;PWNED${BEL}" "$D/echo.out"; report $? "--echo into a file keeps the bytes"

# -o to a terminal device is a terminal too
on_tty export --demo --journal-dir "$D/ann" --what metrics -o /dev/stdout
[ "$rc" -eq 0 ] && ! raw_controls "$D/tty" && has_text 'RR@10' "$D/tty"
report $? "export -o /dev/stdout on a terminal goes through the same filter"

# TERM=dumb (no cursor addressing), an unknown TERM, no TERM: a message and exit 2, not a blank
# screen (issue 9, item 12)
for t in dumb no-such-terminal-type ""; do
    TERM=$t script -qec "'$RETRIAGE' --demo --journal-dir '$D/ann'; echo rc=\$?" /dev/null </dev/null >"$D/tty" 2>&1
    has_text 'rc=2' "$D/tty" && has_text 'cannot start the workbench' "$D/tty"
    report $? "TERM='$t': the workbench says why it cannot start (exit 2)"
done

done_testing
