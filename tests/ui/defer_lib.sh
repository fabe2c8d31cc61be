# defer_lib.sh — what defer_ui.sh and defer_runs_ui.sh share (sourced): the demo workspace with a
# copy of its collection in $D/c.tsv (q01's first passage in bm25, $pid, made plain text), and the
# workbench on a terminal, waited on by events (what it draws, the files it writes), never by time.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache" LC_ALL=C.UTF-8 RETRIAGE_CACHE_MIN=0
DEMO="$SRCDIR/data/demo"
[ -d "$DEMO" ] || skip_all "the demo workspace is missing"
pid=$(awk '$1 == "q01" && $4 == 1 { print $3 }' "$DEMO/runs/bm25.trec")
awk -F'\t' -v OFS='\t' -v p="$pid" '$1 == p { $2 = "zzqx plain words for the terminal test" } 1' \
    "$DEMO/collection.tsv" > "$D/c.tsv"
WS=(--queries "$DEMO/queries.tsv" --collection "$D/c.tsv" --qrels "$DEMO/qrels.trec"
    --run "$DEMO/runs/bm25.trec" --run "$DEMO/runs/dense.trec")
fresh() { rm -f "$D"/c.tsv.rtidx "$D"/*.rtws "$D"/bad.tsv.rtidx; rm -rf "$D/cache" "$D/j"; }
plain() { sed 's/\x1b\[[0-9;]*[A-Za-z]//g; s/\x1b(B//g' "$1"; }   # the bytes without control sequences
has() { grep -aq -- "$1" "$2"; }                 # has TEXT FILE
has_plain() { plain "$2" | grep -aq -- "$1"; }   # has_plain TEXT FILE — TEXT drawn in one piece or in parts

# term OUT COLSxROWS ARGS… — the workbench on a terminal (script(1)) with ARGS, its journal in
# $D/j (annotator d), no mouse, RETRIAGE_PARALLEL_MIN=${PAR:-0} (the collection behind the first
# screen); the terminal's bytes go to OUT, keys to fd 3 (spid: script's process). term_end types
# q (enough to leave any view), waits for the end (killed after TIMEOUT s, default 30: rc 137) and
# sets rc, the exit status. (Keys are closed only then: script(1) lingers 2 s after their end.)
term() {
    local out=$1 size=$2 cmd= a
    shift 2
    for a in "$@"; do cmd="$cmd '$a'"; done
    rm -f "$D/keys" "$out"
    mkfifo "$D/keys"
    TERM=xterm-256color RETRIAGE_PARALLEL_MIN=${PAR:-0} script -qec "stty cols ${size%x*} rows ${size#*x}; \
        exec '$RETRIAGE'$cmd --journal-dir '$D/j' --annotator d --no-mouse" /dev/null < "$D/keys" > "$out" 2>&1 &
    spid=$!
    exec 3> "$D/keys"
}
term_end() {
    printf 'qqqq' >&3
    wait_for "${1:-30}" "the workbench to end after q" gone "$spid"
    gone "$spid" || kill -9 "$spid"
    exec 3>&-
    wait "$spid"
    rc=$?
}
# first_screen OUT — waits until the first screen is drawn (its title says "query list")
first_screen() { wait_for 30 "the first screen" has "query list" "$1"; }
# probe SNAP — a :snapshot typed now has been written to SNAP (keys typed before it are handled;
# a command that waits keeps it for later)
probe() { rm -f "$1"; printf ':snapshot %s\r' "$1" >&3; wait_for 30 "a :snapshot to $1" test -s "$1"; }
