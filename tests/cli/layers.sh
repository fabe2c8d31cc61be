#!/bin/sh
# layers.sh — what the loading redesign (issue 34) keeps true of the sources: src/ reads no
# RETRIAGE_* variable (cli/tuning.c reads them once into an rt_tuning), nothing outside the loader
# reads its loading state, and src/ holds no file over 1,000 lines and no function over 100.
# Needs no build; it reads the sources in $SRCDIR.
: "${SRCDIR:=$(dirname "$0")/../..}"
n=0
failed=0
check() {  # check NAME OUTPUT — a pass when OUTPUT is empty, else a failure listing it
    n=$((n + 1))
    if [ -z "$2" ]; then
        echo "ok $n - $1"
    else
        echo "not ok $n - $1"
        printf '%s\n' "$2" | sed 's/^/# /'
        failed=$((failed + 1))
    fi
}

check "src/ reads no RETRIAGE_* environment variable (cli/tuning.c does, into rt_tuning)" \
    "$(grep -n '"RETRIAGE_' "$SRCDIR"/src/*.c "$SRCDIR"/src/*.h)"
check "no source file outside src/rt_load*.c reads a workspace's loading state" \
    "$(grep -nE '(ws|->ws)->(pending|runs_pending|collection_failed|runs_failed|warm_asked)\b' \
        "$SRCDIR"/src/*.c "$SRCDIR"/ui/*.c "$SRCDIR"/cli/*.c | grep -v '/src/rt_load')"
check "no file in src/ is over 1,000 lines" \
    "$(wc -l "$SRCDIR"/src/*.c "$SRCDIR"/src/*.h | awk '$2 != "total" && $1 > 1000')"
# A function starts at a line that begins with a type at column 0 and holds "(" without ending in
# ";", and ends at the next "}" at column 0.
check "no function in src/ is over 100 lines" \
    "$(awk '/^[a-z].*\(/ && !/;$/ { name = $0; start = FNR }
            /^}/ && start { if (FNR - start + 1 > 100) print FILENAME ":" start ": " FNR - start + 1 " lines: " name; start = 0 }' \
        "$SRCDIR"/src/*.c)"
echo "1..$n"
[ "$failed" -eq 0 ]
