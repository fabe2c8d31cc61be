#!/bin/sh
# tapdrive_test.sh — make check's test driver (tests/tools/tapdrive) reads TAP as Automake's
# build-aux/tap-driver.sh does: for each of a set of TAP streams (results, plans early, late,
# missing or twice, SKIP and TODO directives, escaped ones, Bail out!, exit statuses, signals,
# stderr, --comments, --expect-failure, colours) both drivers print the same result lines and
# write the same .trs file and the same log.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
TAPDRIVE=${TAPDRIVE:-}
REF=$SRCDIR/build-aux/tap-driver.sh
[ -x "$TAPDRIVE" ] || skip_all "run through make check (TAPDRIVE is tests/tools/tapdrive)"
[ -f "$REF" ] || skip_all "build-aux/tap-driver.sh is missing (run autoreconf)"

# case_ NAME OPTION… — the TAP stream printed by the shell lines on stdin, run by both drivers with
# the driver OPTIONs (words); ok when the result lines, the .trs files and the logs are the same
n=0
case_() {
    name=$1
    shift
    opts=$*
    n=$((n + 1))
    cat > "$D/c$n.sh"
    # shellcheck disable=SC2086 # (opts: words)
    env AM_TAP_AWK="${AWK:-awk}" sh "$REF" $opts --test-name "c$n" --log-file "$D/c$n.ref.log" \
        --trs-file "$D/c$n.ref.trs" -- sh "$D/c$n.sh" > "$D/c$n.ref.out" 2> "$D/c$n.ref.err"
    echo "exit $?" >> "$D/c$n.ref.out"
    # shellcheck disable=SC2086
    "$TAPDRIVE" $opts --test-name "c$n" --log-file "$D/c$n.new.log" \
        --trs-file "$D/c$n.new.trs" -- sh "$D/c$n.sh" > "$D/c$n.new.out" 2> "$D/c$n.new.err"
    echo "exit $?" >> "$D/c$n.new.out"
    st=0
    for f in out trs; do
        cmp -s "$D/c$n.ref.$f" "$D/c$n.new.$f" || st=1
    done
    case ${logs:-same} in   # (set for the next case only)
    same) cmp -s "$D/c$n.ref.log" "$D/c$n.new.log" || st=1 ;;
    # the test's stderr reaches the log beside the driver's lines: in either order
    sorted) sort "$D/c$n.ref.log" > "$D/c$n.ref.sorted" && sort "$D/c$n.new.log" | cmp -s - "$D/c$n.ref.sorted" || st=1 ;;
    # tap-driver.sh's subshell adds the shell's "Terminated" notice
    notice) grep -vx "Terminated" "$D/c$n.ref.log" | cmp -s - "$D/c$n.new.log" || st=1 ;;
    esac
    logs=same
    ok $st "$name"
    if [ $st -ne 0 ]; then
        for f in out trs log; do diff "$D/c$n.ref.$f" "$D/c$n.new.$f" | head -8 | diag; done
    fi
}
# t EXTRA NAME — case_ with the options make check passes, and EXTRA
t() { case_ "$2" --color-tests no --expect-failure no --enable-hard-errors yes $1; }

t "" "passes and a failure, numbered, with descriptions" <<'EOF'
echo 1..3; echo "ok 1 - first"; echo "not ok 2 - second"; echo "ok 3"
EOF
t "" "results without numbers, a plan after them" <<'EOF'
echo ok; echo "not ok - b"; echo "ok - c"; echo 1..3
EOF
t "" "the whole test skipped, with a reason" <<'EOF'
echo "1..0 # SKIP no data here"
EOF
t "" "skipped without a reason, and by 1..0 alone" <<'EOF'
echo "1..0"
EOF
t "" "a missing plan" <<'EOF'
echo "ok 1 - a"
EOF
t "" "too few and too many results" <<'EOF'
echo 1..2; echo "ok 1"
EOF
t "" "a result past the plan, one after a late plan" <<'EOF'
echo 1..1; echo "ok 1"; echo "ok 2 - extra"
EOF
t "" "results out of order" <<'EOF'
echo 1..3; echo "ok 1"; echo "ok 3 - three"; echo "ok 2"
EOF
t "" "SKIP and TODO directives, any case, escaped ones, words that only start like them" <<'EOF'
echo 1..7
echo "ok 1 - a # SKIP not here"
echo "not ok 2 - b # TODO later"
echo "ok 3 - c # todo done early"
echo "ok 4 - d \# SKIP escaped"
echo "ok 5 - e # SKIPPED is not one"
echo "not ok 6 - f #skip: not ok and skipped"
echo "ok 7 - g#SKIP"
EOF
t "" "Bail out! stops the reading" <<'EOF'
echo 1..3; echo "ok 1"; echo "Bail out! the disk is full"; echo "ok 2"
EOF
t "" "two plans" <<'EOF'
echo 1..1; echo "ok 1"; echo 1..1
EOF
t "" "a non-zero exit after good TAP" <<'EOF'
echo 1..1; echo "ok 1"; exit 3
EOF
t "" "exit 127 (a command not found)" <<'EOF'
echo 1..1; echo "ok 1"; exit 127
EOF
logs=notice
t "" "a test killed by a signal" <<'EOF'
echo 1..1; echo "ok 1"; kill -TERM $$
EOF
logs=sorted
t "" "stderr goes to the log, not the TAP" <<'EOF'
echo 1..1; echo "to stderr" >&2; echo "ok 1"
EOF
t "--merge" "--merge: stderr read as TAP" <<'EOF'
echo 1..2; echo "ok 1"; echo "ok 2 - from stderr" >&2
EOF
t "--comments" "--comments: diagnostics shown" <<'EOF'
echo 1..1; echo "# a diagnostic  "; echo "ok 1"; echo "#"
EOF
t "--ignore-exit" "--ignore-exit" <<'EOF'
echo 1..1; echo "ok 1"; exit 5
EOF
t "" "lines that are not TAP, blank lines and odd ones" <<'EOF'
echo "hello"; echo; echo "okay"; echo "not okay"; echo "1..2 # comment"; echo 1..1; echo "ok 1 text"
EOF
case_ "--expect-failure yes: XFAIL and XPASS" --color-tests no --expect-failure yes --enable-hard-errors yes <<'EOF'
echo 1..2; echo "not ok 1"; echo "ok 2"
EOF
case_ "--color-tests yes: each result in its colour" --color-tests yes --expect-failure no --enable-hard-errors yes <<'EOF'
echo 1..4; echo "ok 1"; echo "not ok 2"; echo "ok 3 # SKIP x"; echo "not ok 4 # TODO y"
EOF
done_testing
