#!/usr/bin/env bash
# memory.sh — memory an input asks for and the process cannot have is an input error (exit 2, a
# sentence saying so), never SIGABRT: rt_mem's handler, installed by the program (cli/main.c).
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD
export XDG_CACHE_HOME="$D/cache"
# sanitizers reserve terabytes of address space: ulimit -v cannot be used under them
if grep -aq -e __asan_init -e __tsan_init "$RETRIAGE" || [ -n "${ASAN_OPTIONS:-}" ]; then
    skip_all "under sanitizers ulimit -v cannot be used"
fi
# 300 queries x 1,000 passages (8 MB): a whole-run load needs about 40 MB more than the program
awk 'BEGIN { for (q = 0; q < 300; q++) for (r = 0; r < 1000; r++)
             printf "q%d Q0 p%d %d %d x\n", q, (q * 7919 + r * 104729) % 9999991, r + 1, 1000 - r }' > "$D/run.trec"
printf 'q1 0 p1 1\n' > "$D/qrels"
(ulimit -v 30000; exec "$RETRIAGE" export --no-cache --qrels "$D/qrels" --run "$D/run.trec" --what metrics \
     -o "$D/metrics.tsv") > "$D/out" 2> "$D/err"
rc=$?
[ $rc -eq 2 ] && grep -q "retriage: out of memory: [0-9]* bytes more could not be had" "$D/err" && [ ! -e "$D/metrics.tsv" ]
report $? "export of a run too big for ulimit -v 30000: exit 2, said so, no output written (was SIGABRT)"
(ulimit -v 30000; exec "$RETRIAGE" export --no-cache --qrels "$D/qrels" --run "$D/run.trec" --what metrics) \
    > "$D/out" 2> "$D/err"
rc=$?
[ $rc -lt 128 ]; report $? "never a signal (exit $rc)"
# the same with room: the figures come (so the failure above is the limit's, not the input's)
run export --no-cache --qrels "$D/qrels" --run "$D/run.trec" --what metrics
[ $rc -eq 0 ] && [ -s "$D/out" ]; report $? "without the limit the same export works"
done_testing
