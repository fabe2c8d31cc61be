#!/bin/sh
# ui_tests.sh — scripted UI tests (tig-style, headless): each cases/NAME.script is replayed on the
# demo workspace with --script; every ':snapshot $OUT/NAME.N.txt' it takes is compared with
# expected/NAME.N.txt. Every snapshot is also checked for what must never happen: a line wider
# than the screen, or a raw control character. UPDATE=1 rewrites the expected screens (review
# the diff before committing them).
. "$SRCDIR/tests/lib.sh"
export RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json"
export LC_ALL=C.UTF-8
unset NO_COLOR
[ -f "$RETRIAGE_DEMO" ] || skip_all "the demo workspace is missing"
# The demo's collection index may not be writable beside the sources (distcheck): use a cache.
export XDG_CACHE_HOME="$TMPD/cache"
out="$TMPD/out"
mkdir -p "$out" "$TMPD/w"
# (A process costs milliseconds on some machines: the scripts run one retriage each, and the
# checks below run a few processes over all the snapshots at once, not a dozen per snapshot.)
for script in "$SRCDIR"/tests/ui/cases/*.script; do
    name=${script##*/}
    name=${name%.script}
    # the size, the environment and the widest the screen ever is (the size, or a :resize)
    size='' env='' cols=0
    while IFS= read -r line; do
        case $line in
        "# size: "*) [ -n "$size" ] || size=${line#"# size: "} ;;
        "# env: "*) [ -n "$env" ] || env=${line#"# env: "} ;;
        ":resize "*) w=${line#:resize }; w=${w%% *}; [ "$w" -gt "$cols" ] && cols=$w ;;
        esac
    done < "$script"
    size=${size:-80x24}
    [ "${size%%x*}" -gt "$cols" ] && cols=${size%%x*}
    eval "cols_$name=$cols"
    sed "s|\$OUT|$out|g" "$script" > "$TMPD/$name.script"
    # each script annotates into a journal of its own, as a fixed annotator
    # shellcheck disable=SC2086
    if env $env "$RETRIAGE" --demo --script "$TMPD/$name.script" --size "$size" \
            --journal-dir "$TMPD/journal-$name" --annotator tester \
            > "$TMPD/$name.stdout" 2> "$TMPD/$name.stderr"; then
        ok 0 "$name: script runs"
    else
        ok 1 "$name: script runs"; diag < "$TMPD/$name.stderr"
    fi
    set -- "$out/$name".*.txt
    [ -f "$1" ] || ok 1 "$name: took no snapshot"
done
set -- "$out"/*.txt
[ -f "$1" ] || { ok 1 "no snapshots"; done_testing; exit; }
# when a change was made ("relabelled … by NAME 2026-11-21 10:42") differs between runs
sed -i 's/\(by [^ ]* \)20[0-9][0-9]-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]/\1YYYY-MM-DD hh:mm/g' "$@"
# the text part of each (before an attribute block), whose display width wc -L gives
awk -v w="$TMPD/w" 'FNR == 1 { n = FILENAME; sub(/.*\//, "", n); printf "" > (w "/" n) }
    /^--- attributes ---$/ { nextfile } { print > (w "/" n) }' "$@"
wc -L "$TMPD/w"/*.txt | sed '$d' > "$TMPD/widths"
LC_ALL=C grep -l "$(printf '[\001-\010\013-\037\177]')" "$@" > "$TMPD/controls"
controls=$(cat "$TMPD/controls")
diff -rq "$SRCDIR/tests/ui/expected" "$out" > "$TMPD/differ"
differ=$(cat "$TMPD/differ")
while read -r widest path; do
    base=${path##*/}
    name=${base%%.*}
    snap=$out/$base
    eval "cols=\$cols_$name"
    [ "$widest" -le "$cols" ]; ok $? "$base: no line wider than $cols columns (widest $widest)"
    case "
$controls
" in
    *"
$snap
"*) ok 1 "$base: no raw control characters" ;;
    *) ok 0 "$base: no raw control characters" ;;
    esac
    want="$SRCDIR/tests/ui/expected/$base"
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$snap" "$want"
    fi
    case "
$differ
" in
    *" $snap differ
"* | *"Only in $out: $base
"*) st=1 ;;
    *) st=0 ;;
    esac
    if [ $st -eq 0 ] && [ -f "$want" ]; then
        ok 0 "$base: screen as expected"
    else
        ok 1 "$base: screen as expected"; diff -u "$want" "$snap" 2>&1 | diag
    fi
done < "$TMPD/widths"
done_testing
