# lib.sh — helpers for the shell tests (TAP). Source it; it sets -u and defines:
#   ok COND_STATUS NAME, skip_all REASON, need_shared DIR, done_testing.
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
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
