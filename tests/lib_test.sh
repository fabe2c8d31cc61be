#!/bin/sh
# lib_test.sh — the test library itself (tests/lib.sh): a wait that times out fails the next test,
# saying what it waited for, and does not wait much longer than asked; a failing test shows its
# own stderr, never one an earlier test left behind. The cases run in a child shell; their TAP is
# checked here.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
cat > "$D/case.sh" <<'CASE'
. "$SRCDIR/tests/lib.sh"
D=$TMPD
echo "an earlier test's error" > "$D/err"
ok 0 "earlier"
rc=1
report 1 "fails, wrote nothing"
echo "its own error" > "$D/err"
report 1 "fails, wrote its error"
wait_for 1 "a file that never comes" test -e "$D/never"
ok 0 "passes, but after a wait in vain"
wait_for 5 "a file that is there" test -e "$D/err"
ok 0 "passes after a wait that ended"
echo "# ticks without a process: ${tap_tick_open:-no}"
done_testing
CASE
# run_case SHELL — runs the cases under SHELL: their TAP in $D/tap.SHELL, the exit status and the
# seconds taken in $D/rc.SHELL (both shells at once: each waits a second in vain)
run_case() {
    start=$(date +%s)
    TEST_TIMEOUT_SCALE=1 "$1" "$D/case.sh" > "$D/tap.$1" 2>&1
    echo "$? $(($(date +%s) - start))" > "$D/rc.$1"
}
# check_case SHELL — checks the TAP of the cases under SHELL (lib.sh waits and ticks differently
# under bash, without a process)
check_case() {
    tap=$D/tap.$1
    read -r rc took < "$D/rc.$1"
    [ "$rc" -ne 0 ] && grep -qx "ok 1 - earlier" "$tap" && grep -qx "ok 5 - passes after a wait that ended" "$tap" &&
        grep -qx "1..5" "$tap"
    report $? "$1: the cases ran: a failing script, five tests (exit $rc)" "$tap"
    ! grep -q "an earlier test's error" "$tap" &&
        sed -n '/^not ok 2 /,/^\(not \)*ok 3 /p' "$tap" | grep -qx "# stderr: (not written by this test)"
    report $? "$1: a failing test that wrote no stderr does not show the one an earlier test left" "$tap"
    sed -n '/^not ok 3 /,/^\(not \)*ok 4 /p' "$tap" | grep -qx "# its own error"
    report $? "$1: a failing test shows its own stderr" "$tap"
    grep -qx "not ok 4 - passes, but after a wait in vain" "$tap" &&
        grep -qx "# timed out after 1 s waiting for a file that never comes" "$tap"
    report $? "$1: a wait that times out fails the next test, saying what it waited for" "$tap"
    [ "$took" -le 6 ]
    report $? "$1: and it gave up about when asked ($took s for a wait of 1 s and the rest)" "$tap"
}
run_case sh &
command -v bash > /dev/null && run_case bash
wait
check_case sh
if command -v bash > /dev/null; then
    check_case bash
    grep -qx "# ticks without a process: 1" "$D/tap.bash"
    report $? "bash: a wait ticks on the FIFO, without a process" "$D/tap.bash"
else
    ok 0 "# SKIP bash is not installed"
fi
done_testing
