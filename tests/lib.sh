# lib.sh — helpers for the shell tests (TAP). Source it; it sets -u and defines:
#   ok COND_STATUS NAME, skip_all REASON, need_shared DIR, done_testing, and for checking the
#   command line: run, crashed, show, report, fails (below; a test may redefine any of them).
set -u
: "${RETRIAGE:?run through make check (RETRIAGE is the binary)}"
: "${SRCDIR:=.}"
: "${SHARED_DATA:=$SRCDIR/../shared/data}"
tap_n=0
tap_failed=0
ok() {  # ok STATUS NAME — STATUS 0 is a pass
    tap_n=$((tap_n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"; else echo "not ok $tap_n - $2"; tap_failed=$((tap_failed + 1)); fi
}
diag() { sed 's/^/# /'; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
need_shared() {
    [ -d "$SHARED_DATA/$1" ] || skip_all "../shared/data/$1 is absent (fixtures are read from ../shared/data, never copied)"
}
done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }
# ---- checking the command line ------------------------------------------------------------
# run ARGS… runs "$RETRIAGE" $CLI_CMD ARGS… (CLI_CMD: a subcommand the test is about, or empty)
# with stdout in $D/out and stderr in $D/err (D: the test's folder, default $TMPD); sets rc.
run() {
    # shellcheck disable=SC2086
    "$RETRIAGE" ${CLI_CMD:-} "$@" >"${D:-$TMPD}/out" 2>"${D:-$TMPD}/err"
    rc=$?
}
crashed() { [ "$rc" -ge 128 ] || grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error' "${D:-$TMPD}/err"; }
show() { { echo "exit $rc; stdout:"; head -c 1500 "${D:-$TMPD}/out"; echo "stderr:"; head -c 1500 "${D:-$TMPD}/err"; } | diag; }
report() {  # report STATUS NAME — one TAP line, with the evidence when it fails
    ok "$1" "$2"
    [ "$1" -eq 0 ] || show
}
# fails CODE TEXT NAME ARGS… — exit CODE, TEXT (e.g. "file:3: ") on stderr, nothing on stdout
fails() {
    code=$1 text=$2 name=$3
    shift 3
    run "$@"
    st=0
    [ "$rc" -eq "$code" ] || st=1
    crashed && st=1
    grep -Fq -- "$text" "${D:-$TMPD}/err" || st=1
    [ -s "${D:-$TMPD}/out" ] && st=1
    report $st "$name"
}

TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
