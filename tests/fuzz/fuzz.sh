#!/usr/bin/env bash
# fuzz.sh — builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined, the core
# sources compiled again with the same instrumentation into OUT, apart from the normal build) and
# runs each for FUZZ_SECONDS. Prints one line per target (executions, new corpus, crash or not)
# and exits 1 when any target crashed; crash inputs are kept in OUT/crashes/. Called by
# `make fuzz`, which passes the library flags configure found.
set -u
: "${SRCDIR:?}" "${OUT:?}"
secs=${FUZZ_SECONDS:-10}
CLANG=${FUZZ_CC:-clang}
if ! command -v "$CLANG" >/dev/null; then
    echo "fuzz: clang is not installed (./scripts/setup.sh --with-fuzz installs it)" >&2
    exit 2
fi
probe=$(mktemp -d)
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$probe/p.c"
if ! "$CLANG" -fsanitize=fuzzer "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
    echo "fuzz: $CLANG cannot link libFuzzer (Debian: libclang-rt-dev; ./scripts/setup.sh --with-fuzz):" >&2
    head -n 3 "$probe/err" >&2
    rm -rf "$probe"
    exit 2
fi
rm -rf "$probe"

mkdir -p "$OUT/obj" "$OUT/bin" "$OUT/crashes"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cflags="-std=c11 -g -O1 -D_GNU_SOURCE -I$SRCDIR/src -I${BUILDDIR:-.} ${LIB_CFLAGS:-} $san"
# the core, instrumented for coverage (fuzzer-no-link: no second main)
objs=()
# an object is rebuilt when its source or any header is newer (a changed struct changes them all)
newest_h=$(ls -t "$SRCDIR"/src/*.h "${BUILDDIR:-.}/config.h" 2>/dev/null | head -n1)
for c in "$SRCDIR"/src/*.c; do
    [ "$(basename "$c")" = rt_faissmod.c ] && continue   # the Faiss module (rt_faiss.h), loaded at run time
    o="$OUT/obj/$(basename "$c" .c).o"
    if [ ! -f "$o" ] || [ "$c" -nt "$o" ] || [ "$newest_h" -nt "$o" ]; then
        "$CLANG" $cflags -fsanitize=fuzzer-no-link -c "$c" -o "$o" || exit 2
    fi
    objs+=("$o")
done
rm -f "$OUT/libcore.a"
ar rcs "$OUT/libcore.a" "${objs[@]}"
targets=()
for t in "$SRCDIR"/tests/fuzz/fuzz_*.c; do
    name=$(basename "$t" .c)
    name=${name#fuzz_}
    "$CLANG" $cflags -fsanitize=fuzzer "$t" "$OUT/libcore.a" ${LIB_LIBS:-} -lm -lpthread -o "$OUT/bin/$name" || exit 2
    targets+=("$name")
done

# seeds: the committed ones, then the project's demo files and ../shared/data samples
seed() {  # seed TARGET FILE… — copies the files that exist into the target's corpus
    local t=$1
    shift
    mkdir -p "$OUT/corpus/$t"
    for f in "$@"; do [ -f "$f" ] && cp "$f" "$OUT/corpus/$t/" 2>/dev/null; done
    return 0
}
SD=${SHARED_DATA:-$SRCDIR/../shared/data}
demo=$SRCDIR/data/demo
for t in "${targets[@]}"; do
    mkdir -p "$OUT/corpus/$t"
    [ -d "$SRCDIR/tests/fuzz/seeds/$t" ] && cp "$SRCDIR/tests/fuzz/seeds/$t"/* "$OUT/corpus/$t/" 2>/dev/null
done
small() { [ -f "$1" ] && [ "$(stat -c %s "$1")" -le 65536 ] && echo "$1"; }
seed run $(small "$demo/runs/bm25.trec") $(small "$SD/metric-vectors/ties/run.trec") \
    $(ls "$SD"/ir-fixtures/*run* "$SD"/lecard/crosscheck/*.json 2>/dev/null | while read -r f; do small "$f"; done)
seed qrels $(small "$demo/qrels.trec") $(ls "$SD"/ir-fixtures/*qrel* "$SD"/trec_eval-fixtures/*qrel* 2>/dev/null | while read -r f; do small "$f"; done)
seed queries $(small "$demo/queries.tsv") $(small "$demo/train_queries.tsv") $(small "$SD/dureader2-demo-ws/queries.tsv")
seed collection $(small "$demo/collection.tsv")
seed answers $(small "$demo/answers.jsonl")
seed workspace "$demo/workspace.json"
seed journal_file $(ls "$SRCDIR"/tests/fuzz/seeds/journal_line/* 2>/dev/null)
# wscache: the committed seeds only (caches of the target's workspace shape, written by retriage;
# a cache holds its machine's stamps, which the target's resealing mode sets to this run's)

status=0
total=0
for t in "${targets[@]}"; do
    log="$OUT/$t.log"
    nice "$OUT/bin/$t" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=20 \
        -print_final_stats=1 -artifact_prefix="$OUT/crashes/$t-" "$OUT/corpus/$t" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
    total=$((total + ${runs:-0}))
    if [ $rc -ne 0 ]; then
        status=1
        printf 'fuzz %-13s CRASH after %s executions (exit %d); input in %s\n' "$t" "${runs:-?}" $rc "$OUT/crashes/"
        grep -m1 -E 'ERROR: (AddressSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" | sed 's/^/    /'
    else
        printf 'fuzz %-13s ok, %s executions in %s s, corpus %s inputs\n' "$t" "${runs:-?}" "$secs" \
            "$(ls "$OUT/corpus/$t" | wc -l)"
    fi
done
echo "fuzz: ${#targets[@]} targets, $total executions, $([ $status -eq 0 ] && echo 'no crash' || echo 'CRASHES (see above)')"
exit $status
