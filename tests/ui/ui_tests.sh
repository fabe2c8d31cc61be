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
mkdir -p "$out"
for script in "$SRCDIR"/tests/ui/cases/*.script; do
    name=$(basename "$script" .script)
    size=$(sed -n 's/^# size: *//p' "$script" | head -n1)
    env=$(sed -n 's/^# env: *//p' "$script" | head -n1)
    sed "s|\$OUT|$out|g" "$script" > "$TMPD/$name.script"
    # each script annotates into a journal of its own, as a fixed annotator
    if env $env "$RETRIAGE" --demo --script "$TMPD/$name.script" --size "${size:-80x24}" \
            --journal-dir "$TMPD/journal-$name" --annotator tester \
            > "$TMPD/$name.stdout" 2> "$TMPD/$name.stderr"; then
        ok 0 "$name: script runs"
    else
        ok 1 "$name: script runs"; diag < "$TMPD/$name.stderr"
        continue
    fi
    for snap in "$out/$name".*.txt; do
        [ -f "$snap" ] || { ok 1 "$name: took no snapshot"; continue; }
        base=$(basename "$snap")
        # the widest the screen ever is in this script
        cols=$( (echo "${size:-80x24}" | cut -dx -f1; sed -n 's/^:resize \([0-9]*\) .*/\1/p' "$script") | sort -n | tail -n1)
        # widths: the text part only (before an attribute block)
        widest=$(sed '/^--- attributes ---$/q' "$snap" | wc -L)
        [ "$widest" -le "$cols" ]; ok $? "$base: no line wider than $cols columns (widest $widest)"
        if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$snap"; then
            ok 1 "$base: no raw control characters"
        else
            ok 0 "$base: no raw control characters"
        fi
        # when a change was made ("relabelled … by NAME 2026-11-21 10:42") differs between runs
        sed -i 's/\(by [^ ]* \)20[0-9][0-9]-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]/\1YYYY-MM-DD hh:mm/g' "$snap"
        want="$SRCDIR/tests/ui/expected/$base"
        if [ "${UPDATE:-0}" = 1 ]; then
            cp "$snap" "$want"
        fi
        if [ -f "$want" ] && diff -u "$want" "$snap" > "$TMPD/diff"; then
            ok 0 "$base: screen as expected"
        else
            ok 1 "$base: screen as expected"; diag < "$TMPD/diff" 2>/dev/null || echo "# missing $want"
        fi
    done
done
done_testing
