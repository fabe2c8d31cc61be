# lib.sh — helpers for the shell tests (TAP). Source it; it sets -u and defines:
#   ok COND_STATUS NAME, skip_all REASON, need_shared DIR, done_testing, wait_for (waiting for an
#   event), and for checking the command line: run, crashed, show, report, fails (below; a test
#   may redefine any of them but wait_for).
set -u
: "${RETRIAGE:?run through make check (RETRIAGE is the binary)}"
: "${SRCDIR:=.}"
: "${SHARED_DATA:=$SRCDIR/../shared/data}"
tap_n=0
tap_failed=0
tap_waits=''   # the waits that timed out since the last test: they fail the next one
tap_same=''    # out and err of the test folder as the last test left them, when as new as its mark
ok() {  # ok STATUS NAME — STATUS 0 is a pass (unless a wait_for timed out since the last test)
    tap_line "$1" "$2"
    tap_mark
}
tap_line() {  # tap_line STATUS NAME — the TAP line of ok, without the mark
    tap_n=$((tap_n + 1))
    if [ "$1" -eq 0 ] && [ -z "$tap_waits" ]; then
        echo "ok $tap_n - $2"
    else
        echo "not ok $tap_n - $2"
        tap_failed=$((tap_failed + 1))
        [ -z "$tap_waits" ] || printf '%s' "$tap_waits" | diag
        tap_waits=''
    fi
}
# tap_mark — the end of a test, for show: the mark file's time. An out or err older than the mark
# was written by an earlier test; one newer, by the test shown. One of the same time (the clock
# that stamps files ticks every few ms) is stamped now, and compared with that stamp later. No
# process runs unless a file is as new as the mark: a process costs milliseconds on some machines.
tap_mark() {
    : > "$TMPD/.tap_mark"
    tap_same=''
    for f_ in "${D:-$TMPD}/out" "${D:-$TMPD}/err"; do
        if [ -e "$f_" ] && [ ! "$f_" -ot "$TMPD/.tap_mark" ]; then
            tap_same=$(out_stamp "${D:-$TMPD}/out" "${D:-$TMPD}/err")
            break
        fi
    done
}
diag() { sed 's/^/# /'; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
need_shared() {
    [ -d "$SHARED_DATA/$1" ] || skip_all "../shared/data/$1 is absent (fixtures are read from ../shared/data, never copied)"
}
done_testing() {
    [ -z "$tap_waits" ] || ok 1 "the waits after the last test"
    echo "1..$tap_n"
    [ "$tap_failed" -eq 0 ]
}
# ---- waiting for an event -----------------------------------------------------------------
# wait_for SECONDS WHAT CMD… — runs CMD (a command or a function) every 0.03 s until it succeeds;
# status 0 then. After SECONDS (times $TEST_TIMEOUT_SCALE, default 1: slow builds such as
# ThreadSanitizer's set more) it gives up with status 1, and the next test (ok) FAILS, followed
# by "timed out after SECONDS s waiting for WHAT". A test never sleeps a fixed time instead.
# (CMD may wait_for in turn: the deadline is local.)
wait_for() {
    local secs=$1 what=$2 end i=0
    shift 2
    tap_clock
    end=$((tap_t + secs * ${TEST_TIMEOUT_SCALE:-1} + 1))
    while ! "$@"; do
        # (the clock read every 16th time only: a wait costs few processes besides CMD)
        i=$((i + 1))
        if [ $((i % 16)) -eq 0 ] && tap_clock && [ "$tap_t" -ge "$end" ]; then
            tap_waits="${tap_waits}timed out after $((secs * ${TEST_TIMEOUT_SCALE:-1})) s waiting for $what
"
            return 1
        fi
        tap_tick
    done
}
# tap_clock — the time in seconds, in tap_t; tap_tick — a pause of 0.03 s. Under bash neither runs
# a process (a process costs milliseconds on some machines, and a wait ticks often): EPOCHSECONDS,
# and a read that times out on a FIFO nobody writes (held open on fd 8).
if [ -n "${BASH_VERSION:-}" ] && [ -n "${EPOCHSECONDS:-}" ]; then
    tap_clock() { tap_t=$EPOCHSECONDS; }
    tap_tick() {
        if [ -z "${tap_tick_open:-}" ]; then
            mkfifo "$TMPD/.tick" && exec 8<> "$TMPD/.tick" && tap_tick_open=1 || tap_tick_open=0
        fi
        if [ "$tap_tick_open" = 1 ]; then
            read -r -t 0.03 -u 8 _ || :
        else
            sleep 0.03
        fi
    }
else
    tap_clock() { tap_t=$(date +%s); }
    tap_tick() { sleep 0.03; }
fi
# clock_ms — the time in milliseconds, in ms_; clock_past MS — the clock has passed MS (a
# condition for wait_for: an operation written now gets a later time than one written at MS)
clock_ms() {
    if [ -n "${EPOCHREALTIME:-}" ]; then ms_=${EPOCHREALTIME/[.,]/}; ms_=$((ms_ / 1000)); else ms_=$(date +%s%3N); fi
}
clock_past() { clock_ms; [ "$ms_" -gt "$1" ]; }
# gone PID — the process has ended (a condition for wait_for): no such process, or a zombie (ended,
# not yet waited on: init reaps an orphan such as a background writer when it gets to it, which
# may be seconds later)
gone() {
    kill -0 "$1" 2>/dev/null || return 0
    [ -r "/proc/$1/stat" ] || return 1
    IFS= read -r l_ < "/proc/$1/stat" 2>/dev/null || return 1
    l_=${l_##*") "}
    [ "${l_%% *}" = Z ]
}
# ---- acting as another user --------------------------------------------------------------
# as_nobody CMD… — CMD as user nobody (65534, no groups). nobody_can PATH… — as_nobody can test
# here: this is root with setpriv, and nobody can run the binary and read each PATH (a folder of
# mode 0700 above them — /root for a clone there, or a mktemp -d folder — shuts them out); else
# false, with why_not saying why (for a SKIP).
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
nobody_can() {
    why_not=
    if [ "$(id -u)" -ne 0 ]; then
        why_not="needs root to act as another user"
    elif ! command -v setpriv >/dev/null; then
        why_not="needs setpriv (util-linux) to act as another user"
    elif ! as_nobody test -x "$RETRIAGE"; then
        why_not="user nobody cannot run $RETRIAGE (a folder above it is closed to others)"
    else
        for p in "$@"; do
            as_nobody test -r "$p" || { why_not="user nobody cannot read $p (a folder above it is closed to others)"; break; }
        done
    fi
    [ -z "$why_not" ]
}
# ---- checking the command line ------------------------------------------------------------
# run ARGS… runs "$RETRIAGE" $CLI_CMD ARGS… (CLI_CMD: a subcommand the test is about, or empty)
# with stdout in $D/out and stderr in $D/err (D: the test's folder, default $TMPD); sets rc.
run() {
    # shellcheck disable=SC2086
    "$RETRIAGE" ${CLI_CMD:-} "$@" >"${D:-$TMPD}/out" 2>"${D:-$TMPD}/err"
    rc=$?
}
crashed() {   # (the err file read by the shell: fails and crashed run after most commands)
    [ "$rc" -ge 128 ] || has_text AddressSanitizer "${D:-$TMPD}/err" || has_text LeakSanitizer "${D:-$TMPD}/err" ||
        has_text ThreadSanitizer "${D:-$TMPD}/err" || has_text "runtime error" "${D:-$TMPD}/err"
}
# has_text TEXT FILE — FILE holds TEXT (a fixed string); read by the shell for up to 200 lines (no
# process), by grep beyond
has_text() {
    [ -f "$2" ] || return 1
    n_=0
    while IFS= read -r l_ || [ -n "$l_" ]; do
        case $l_ in *"$1"*) return 0 ;; esac
        n_=$((n_ + 1))
        [ $n_ -lt 200 ] || { grep -Fq -- "$1" "$2"; return; }
    done < "$2"
    return 1
}
# out_stamp FILE… — each file's name, inode, modification time (ns) and size, one a line
out_stamp() { stat -c '%n %i %y %s' "$@" 2>/dev/null; }
# written_before PATH — PATH (the test folder's out or err) is as an earlier test left it
written_before() {
    [ -e "$TMPD/.tap_mark" ] || return 1
    [ "$1" -ot "$TMPD/.tap_mark" ] && return 0
    [ "$1" -nt "$TMPD/.tap_mark" ] && return 1
    [ -n "$tap_same" ] && printf '%s\n' "$tap_same" | grep -Fxq -- "$(out_stamp "$1")"
}
# show_file LABEL FILE [earlier] — its first 1500 bytes; with "earlier", not when FILE is as the test
# before this one left it (this test wrote nothing there: an earlier test's output is no evidence)
show_file() {
    if [ ! -e "$2" ]; then
        echo "$1: (none)"
    elif [ "${3:-}" = earlier ] && written_before "$2"; then
        echo "$1: (not written by this test)"
    else
        echo "$1:"
        head -c 1500 "$2"
        [ -z "$(tail -c 1 "$2")" ] || echo
    fi
}
# show [FILE…] — the evidence of the test just reported: the exit status, stdout and stderr of the
# test folder (D, default TMPD) when this test wrote them, and FILE… (the test's own)
show() {
    {
        echo "exit ${rc:-?}"
        show_file stdout "${D:-$TMPD}/out" earlier
        show_file stderr "${D:-$TMPD}/err" earlier
        for f in "$@"; do show_file "$f" "$f"; done
    } | diag
}
report() {  # report STATUS NAME [FILE…] — one TAP line, with the evidence (show FILE…) when it fails
    st_=$1 name_=$2 waits_=$tap_waits
    shift 2
    tap_line "$st_" "$name_"
    [ "$st_" -eq 0 ] && [ -z "$waits_" ] || show "$@"
    tap_mark
}
# fails CODE TEXT NAME ARGS… — exit CODE, TEXT (e.g. "file:3: ") on stderr, nothing on stdout
fails() {
    code=$1 text=$2 name=$3
    shift 3
    run "$@"
    st=0
    [ "$rc" -eq "$code" ] || st=1
    crashed && st=1
    has_text "$text" "${D:-$TMPD}/err" || st=1
    [ -s "${D:-$TMPD}/out" ] && st=1
    report $st "$name"
}

# PYTHON3 — a python3 for the tests that parse JSON, empty when there is none: the system's when
# it has one (a version manager's shim first on PATH starts several processes at each call)
if [ -x /usr/bin/python3 ]; then PYTHON3=/usr/bin/python3
else PYTHON3=$(command -v python3 2>/dev/null) || PYTHON3=''; fi

TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
# a workspace given by flags keeps its journals under the state directory: the test's own
XDG_STATE_HOME=$TMPD/state; export XDG_STATE_HOME
