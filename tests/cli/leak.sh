#!/bin/sh
# leak — `retriage leak`: the TSV it writes (header, order, scores, texts that cannot break it),
# -o written whole or not at all, the built-in embedder's notice, given embeddings in each
# format (scores computed by hand), usage errors (exit 1) and bad inputs (exit 2, file:line).
. "$SRCDIR/tests/lib.sh"

D=$TMPD
CLI_CMD=leak   # run and fails check `retriage leak …`

# ---- queries: near-duplicates of the test queries among the training queries -----------------
printf 'tr1\t北京今天天气怎么样\ntr2\t如何办理护照\ntr3\t苹果手机多少钱\ntr4\t北京今天天气怎么样？\ntr5\t香蕉的营养价值有哪些\ntr6\t护照\t办理\n' >"$D/train.tsv"
printf 't1\t北京今天天气怎么 样\nt2\t如何 办理护照？\nt3\t量子计算机的原理\nt4\t护照办理\n' >"$D/test.tsv"
cat >"$D/test.jsonl" <<'EOF'
{"question_id": "t1", "question": "北京今天天气怎么 样"}
{"question_id": "t2", "question": "如何 办理护照？"}
{"question_id": "t3", "question": "量子计算机的原理"}
{"question_id": "t4", "question": "护照办理"}
EOF

run --train "$D/train.tsv" --test "$D/test.tsv"
st=0
[ "$rc" -eq 0 ] || st=1
head -n 1 "$D/out" | grep -q '^test_qid	train_qid	cosine	test_text	train_text$' || st=1
report $st "built-in: exit 0 and a header line"
cp "$D/out" "$D/builtin.tsv"
cut -f1,2 "$D/out" | tail -n +2 | tr '\t\n' ': ' >"$D/pairs"
[ "$(cat "$D/pairs")" = "t1:tr1 t1:tr4 t2:tr2 t4:tr6 " ]
st=$?
report $st "built-in: punctuation and space edits found, in test order, ties in training order"
[ $st -eq 0 ] || diag <"$D/pairs"
awk -F '\t' 'NR > 1 && $3 != "1.000000" { bad = 1 } END { exit bad }' "$D/out"
report $? "built-in: punctuation and spaces do not change the score (cosine 1.000000)"
awk -F '\t' 'NF != 5 { bad = 1 } END { exit bad }' "$D/out" && grep -q '	护照 办理$' "$D/out"
report $? "a tab inside a text is written as a space: five fields a line"
grep -q 'note: .*lexical near-duplicates, not paraphrases' "$D/err"
report $? "built-in: the notice says lexical near-duplicates, not paraphrases"
grep -q 'retriage leak: 4 pairs; 3 of 4 test queries .* >= 0.65 (k 100, exact search)' "$D/err"
report $? "summary on stderr names the default threshold 0.65"

run --train "$D/train.tsv" --test "$D/test.jsonl" -Q
cmp -s "$D/out" "$D/builtin.tsv" && [ ! -s "$D/err" ]
report $? "DuReader JSON lines give the same pairs; -Q silences stderr"

run --train "$D/train.tsv" --test "$D/test.tsv" -Q -k 1 -t 0.2
st=0
[ "$(tail -n +2 "$D/out" | cut -f1 | sort | uniq -d)" = "" ] || st=1
[ "$(tail -n +2 "$D/out" | wc -l)" -ge 3 ] || st=1
report $st "-k 1: one training query per test query"

run --train "$D/train.tsv" --test "$D/test.tsv" -Q --index HNSW16 --index-params efSearch=32
cmp -s "$D/out" "$D/builtin.tsv"
report $? "--index HNSW16 finds the same pairs on a tiny set"

run --train "$D/train.tsv" --test "$D/test.tsv" --dim 1024 -Q
cmp -s "$D/out" "$D/builtin.tsv"
report $? "--dim 1024 finds the same pairs"

# ---- -o: written whole, replacing the file only on success ------------------------------------
echo old >"$D/result.tsv"
run --train "$D/train.tsv" --test "$D/test.tsv" -o "$D/result.tsv"
cmp -s "$D/result.tsv" "$D/builtin.tsv" && [ ! -s "$D/out" ] && [ "$rc" -eq 0 ]
report $? "-o writes the same TSV to the file, nothing to stdout"
[ "$(find "$D" -name 'result.tsv.*' | wc -l)" -eq 0 ]
report $? "-o leaves no temporary file"
echo old >"$D/result.tsv"
run --train "$D/train.tsv" --test "$D/missing.tsv" -o "$D/result.tsv"
[ "$rc" -eq 2 ] && [ "$(cat "$D/result.tsv")" = old ]
report $? "-o: a failed run leaves the old file as it was"
mkfifo "$D/fifo" 2>/dev/null && {
    timeout 30 cat "$D/fifo" >"$D/from_fifo" &   # (a bounded wait: a wrong rename never opens it)
    run --train "$D/train.tsv" --test "$D/test.tsv" -Q -o "$D/fifo"
    wait
    [ "$rc" -eq 0 ] && [ -p "$D/fifo" ] && cmp -s "$D/from_fifo" "$D/builtin.tsv"
    report $? "-o to a named pipe writes into it instead of replacing it"
}
fails 2 "$D/no/such/dir/r.tsv: cannot create a file beside it" "-o into a missing folder: exit 2" \
    --train "$D/train.tsv" --test "$D/test.tsv" -o "$D/no/such/dir/r.tsv"

# ---- given embeddings: cosines computed by hand -------------------------------------------------
# test t1..t4 = (1,0,0) (1,1,0) (0,0,2) (0,1,0); train = (2,0,0) (1,1,0) (0,1,0) (0,0,1) (1,0,1) (0,3,0)
printf '1\t0\t0\n1\t1\t0\n0\t0\t2\n0\t1\t0\n' >"$D/test.emb.tsv"
printf '2 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n0 3 0\n' >"$D/train.emb.txt"
run --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/test.emb.tsv" -t 0.7
cat >"$D/want" <<'EOF'
t1	tr1	1.000000
t1	tr2	0.707107
t1	tr5	0.707107
t2	tr2	1.000000
t2	tr1	0.707107
t2	tr3	0.707107
t2	tr6	0.707107
t3	tr4	1.000000
t3	tr5	0.707107
t4	tr3	1.000000
t4	tr6	1.000000
t4	tr2	0.707107
EOF
tail -n +2 "$D/out" | cut -f1-3 | cmp -s - "$D/want"
report $? "embeddings: cosines as computed by hand, best first, ties in training order"
! grep -q 'note:' "$D/err" && grep -q '>= 0.7 (k 100' "$D/err"
report $? "embeddings: no built-in notice"
run --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/test.emb.tsv"
[ "$(tail -n +2 "$D/out" | cut -f1-3 | tr '\t\n' ': ')" = "t1:tr1:1.000000 t2:tr2:1.000000 t3:tr4:1.000000 t4:tr3:1.000000 t4:tr6:1.000000 " ]
report $? "embeddings: the default threshold is 0.91"

# The same vectors keyed by qid, in another order; as .npy and .fvecs.
printf 't4\t0\t1\t0\nt2\t1\t1\t0\nt1\t1\t0\t0\nt3\t0\t0\t2\n' >"$D/test.keyed.tsv"
run --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/test.keyed.tsv" -t 0.7
tail -n +2 "$D/out" | cut -f1-3 | cmp -s - "$D/want"
report $? "embeddings keyed by qid in a TSV id column"
# float32 little-endian: 0 = 00000000, 1 = 0000803f, 2 = 00000040, 3 = 00004040
f0='\000\000\000\000' f1='\000\000\200\077' f2='\000\000\000\100' f3='\000\000\100\100'
npy_header() {  # npy_header ROWS COLS — a version 1.0 header of 128 bytes
    printf '\223NUMPY\001\000\166\000'
    printf "%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': ($1, $2), }"
}
{ npy_header 4 3; printf "$f1$f0$f0$f1$f1$f0$f0$f0$f2$f0$f1$f0"; } >"$D/test.npy"
d3='\003\000\000\000'
printf "$d3$f2$f0$f0$d3$f1$f1$f0$d3$f0$f1$f0$d3$f0$f0$f1$d3$f1$f0$f1$d3$f0$f3$f0" >"$D/train.fvecs"
run --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.fvecs" --test-emb "$D/test.npy" -t 0.7
tail -n +2 "$D/out" | cut -f1-3 | cmp -s - "$D/want"
report $? "embeddings as .npy and .fvecs"

# ---- usage errors: exit 1 -----------------------------------------------------------------------
fails 1 "--train FILE and --test FILE are both required" "no --test" --train "$D/train.tsv"
fails 1 "--train-emb and --test-emb go together" "--train-emb without --test-emb" \
    --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt"
fails 1 "--threshold expects a number from -1 to 1, not '1.5'" "threshold above 1" \
    --train "$D/train.tsv" --test "$D/test.tsv" -t 1.5
fails 1 "-k expects a whole number from 1" "-k 0" --train "$D/train.tsv" --test "$D/test.tsv" -k 0
fails 1 "--dim expects a whole number" "--dim x" --train "$D/train.tsv" --test "$D/test.tsv" --dim x
fails 1 "unknown embedding format 'npz'" "--emb-format npz" --train "$D/train.tsv" --test "$D/test.tsv" --emb-format npz
fails 1 "unexpected argument" "a stray argument" --train "$D/train.tsv" --test "$D/test.tsv" extra
fails 1 "unknown option" "an unknown option" --train "$D/train.tsv" --test "$D/test.tsv" --nope
fails 1 "Faiss: index 'NoSuchIndex': could not parse index string NoSuchIndex" "a bad --index" \
    --train "$D/train.tsv" --test "$D/test.tsv" --index NoSuchIndex

# ---- bad inputs: exit 2, naming the file and line ------------------------------------------------
fails 2 "$D/missing.tsv: cannot open" "a missing query file" --train "$D/missing.tsv" --test "$D/test.tsv"
printf 'a\tfine\nno tab here\n' >"$D/badq.tsv"
fails 2 "$D/badq.tsv:2: expected qid<TAB>text" "a malformed query file" --train "$D/badq.tsv" --test "$D/test.tsv"
printf '1\t0\t0\n1\tnan\t0\n0\t0\t2\n0\t1\t0\n' >"$D/nan.tsv"
fails 2 "$D/nan.tsv:2: component 2 is not a finite float32 ('nan')" "NaN in an embedding file" \
    --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/nan.tsv"
head -n 3 "$D/test.emb.tsv" >"$D/short.tsv"
fails 2 "$D/short.tsv: 3 vectors for the 4 queries of $D/test.tsv" "fewer vectors than queries" \
    --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/short.tsv"
printf '1\t0\n1\t1\n0\t2\n0\t1\n' >"$D/d2.tsv"
fails 2 "$D/d2.tsv has dimension 2 but $D/train.emb.txt has dimension 3" "dimensions differ" \
    --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/d2.tsv"
printf 't4\t0\t1\t0\nt2\t1\t1\t0\nt1\t1\t0\t0\nt9\t0\t0\t2\n' >"$D/wrongid.tsv"
fails 2 "$D/wrongid.tsv: no vector for query 't3' of $D/test.tsv" "an id that is not a query" \
    --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/wrongid.tsv"
{ npy_header 4 3; printf "$f1$f0$f0$f1$f1$f0"; } >"$D/cut.npy"
fails 2 "$D/cut.npy: truncated: shape (4, 3) needs 48 bytes of data, the file holds 24" "a truncated .npy" \
    --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.fvecs" --test-emb "$D/cut.npy"
{ printf '\223NUMPY\001\000\166\000'; printf "%-117s\n" "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 3), }"; } >"$D/f8.npy"
fails 2 "dtype '<f8' (float64: save x.astype(numpy.float32))" "a float64 .npy" \
    --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.fvecs" --test-emb "$D/f8.npy"
printf '1\t0\t0\n0\t0\t0\n0\t0\t2\n0\t1\t0\n' >"$D/zero.tsv"
fails 2 "$D/zero.tsv: line 2 is a zero vector" "a zero vector" \
    --train "$D/train.tsv" --test "$D/test.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/zero.tsv"

printf 't1\t北京\nt2\t上海\nt1\t广州\nt4\t深圳\n' >"$D/dupq.tsv"
fails 2 "$D/test.emb.tsv: 4 vectors for the 3 queries of $D/dupq.tsv" "a repeated qid, then a count mismatch" \
    --train "$D/train.tsv" --test "$D/dupq.tsv" --train-emb "$D/train.emb.txt" --test-emb "$D/test.emb.tsv"
grep -q "warning: $D/dupq.tsv:3: 1 repeated query ids ignored" "$D/err"
report $? "the repeated qid is reported as a warning before the error"

# ---- the BLAS and Faiss: a module loaded by the first search (src/rt_faiss.h) ------------------
# without $RETRIAGE_FAISS_MODULE, the module beside the program (a build tree)
( unset RETRIAGE_FAISS_MODULE; run --train "$D/train.tsv" --test "$D/test.tsv"; [ "$rc" -eq 0 ] &&
  cmp -s "$D/out" "$D/builtin.tsv" )
report $? "the Faiss module is found beside the program, and finds the same pairs"
RETRIAGE_FAISS_MODULE="$D/nosuch.so" run --train "$D/train.tsv" --test "$D/test.tsv"
[ "$rc" -eq 2 ] && grep -q "retriage: the leakage search's Faiss module could not be loaded: $D/nosuch.so: " "$D/err" &&
    [ ! -s "$D/out" ]
report $? "a missing Faiss module: an error naming the file (exit 2)"
other=$(ldconfig -p 2>/dev/null | awk '/libz\.so\.1 /{print $NF; exit}')
if [ -n "$other" ]; then
    RETRIAGE_FAISS_MODULE="$other" run --train "$D/train.tsv" --test "$D/test.tsv"
    [ "$rc" -eq 2 ] && grep -q "$other: not a Faiss module of this retriage" "$D/err"
    report $? "a library that is not the Faiss module is refused (exit 2)"
else
    ok 0 "# SKIP no libz.so.1 in ldconfig's cache to stand in for a wrong module"
fi
# the commands that never search do not load the BLAS, LAPACK or OpenMP (10-20 ms a start; the C++
# runtime is not checked: the sanitizers' runtime brings it)
printf 'q1 0 p1 1\n' >"$D/q.trec"; printf 'q1 Q0 p1 1 1.0 r\n' >"$D/r.trec"
LD_DEBUG=files "$RETRIAGE" eval "$D/q.trec" "$D/r.trec" >/dev/null 2>"$D/ld"
grep -q 'file=libc\.so' "$D/ld" && ! grep -Eq 'file=(libblas|liblapack|libopenblas|libgomp|retriage-faiss)' "$D/ld"
report $? "eval loads neither the BLAS nor Faiss"

# ---- help ----------------------------------------------------------------------------------------
"$RETRIAGE" leak --help >"$D/help" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q 'not paraphrases' "$D/help" && grep -q -- '--index SPEC' "$D/help"
report $? "leak --help exits 0 and describes the built-in embedder and --index"
"$RETRIAGE" --help | grep -q '^  leak '
report $? "retriage --help lists leak"

done_testing
