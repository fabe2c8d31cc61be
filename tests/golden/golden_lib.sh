# golden_lib.sh — helpers shared by the golden tests, which compare `retriage eval` with the
# outputs of outside references (trec_eval 10.0, the official DuReader script) stored under
# ../shared/data. Source it after tests/lib.sh. Only POSIX sh and awk (mawk is enough).

# TE_AWK_MAP — te_map(m, M): the retriage measure name for the trec_eval measure m of a reference
# made with -M cutoff M (0: none; -1: the reference is already in retriage's names, as made by the
# converters below), or "" when none maps.
TE_AWK_MAP='
function te_map(m, M,    k) {
    if (M < 0) return m;   # the reference already uses retriage names
    # Under -M the ranking is cut at M before every measure: only measures whose own cutoff is
    # at most M keep their meaning (recip_rank becomes RR@M; NumRet, AP, R, nDCG... do not).
    if (m == "recip_rank") return M ? "RR@" M : "RR";
    if (m ~ /^P_[0-9]+$/) { k = substr(m, 3) + 0; return (!M || k <= M) ? "P@" k : "" }
    if (m ~ /^success_[0-9]+$/) { k = substr(m, 9) + 0; return (!M || k <= M) ? "Success@" k : "" }
    if (m ~ /^recall_[0-9]+$/) { k = substr(m, 8) + 0; return (!M || k <= M) ? "R@" k : "" }
    if (m ~ /^ndcg_cut_[0-9]+$/) { k = substr(m, 10) + 0; return (!M || k <= M) ? "nDCG@" k : "" }
    if (m ~ /^map_cut_[0-9]+$/) { k = substr(m, 9) + 0; return (!M || k <= M) ? "AP@" k : "" }
    if (M) return "";
    if (m == "map") return "AP";
    if (m == "ndcg") return "nDCG";
    if (m == "Rprec") return "Rprec";
    if (m == "num_ret") return "NumRet";
    if (m == "num_rel") return "NumRel";
    if (m == "num_rel_ret") return "NumRelRet";
    return "";
}
# A reference line is "measure<blanks>qid<blanks>value"; expected/*.out files add "$ command",
# "[stderr] …" and "[exit] rc" lines, which are not values.
function te_value_line() { return NF == 3 && $1 !~ /^(\$|\[)/ }
'

# te_compare REF OUT M TOL — compares trec_eval output REF with `retriage eval` TSV OUT.
# Every mapped (measure, qid) of REF, per query and 'all', must be in OUT within TOL, and OUT
# must have no (measure, qid) that REF lacks. Prints the number of values compared, then a
# line per mismatch; exits non-zero on any mismatch or when nothing was compared.
te_compare() {
    awk -v M="$3" -v tol="$4" "$TE_AWK_MAP"'
        FNR == NR {
            if (te_value_line() && (r = te_map($1, M)) != "") {
                key = r SUBSEP $2
                if (key in ref) { print "duplicate reference value " r " " $2; bad++ }
                ref[key] = $3; nref++
            }
            next
        }
        {
            n = split($0, f, "\t")
            if (n != 4) { print "malformed retriage line: " $0; bad++; next }
            if (f[2] ~ /\.queries$/) next
            key = f[2] SUBSEP f[3]
            if (!(key in ref)) { print "retriage has " f[2] " " f[3] " = " f[4] ", the reference does not"; bad++; next }
            d = f[4] - ref[key]; if (d < 0) d = -d
            if (d > tol) { printf "%s %s: retriage %.17g, reference %s (|diff| %.3g > %g)\n", f[2], f[3], f[4], ref[key], d, tol; bad++ }
            got[key] = 1; ncmp++
        }
        END {
            for (key in ref) if (!(key in got)) { split(key, k, SUBSEP); print "retriage lacks " k[1] " " k[2] " (reference " ref[key] ")"; bad++ }
            print "compared " ncmp + 0 " values"
            exit (bad || ncmp == 0) ? 1 : 0
        }' "$1" "$2"
}

# te_check NAME REF M TOL [retriage eval options] QRELS RUN — evaluates with the measures REF
# prints (per query when REF has per-query lines), compares, and reports one TAP result (with retriage's exit status checked too).
te_check() {
    _name=$1 _ref=$2 _m=$3 _tol=$4
    shift 4
    # the measures REF prints, mapped (a comma-separated list) and, for a reference with only 'all' lines (made without -q), -q to
    # ask retriage for the means only: one awk, "LIST -q" or "LIST -" (few processes a check: a
    # process costs milliseconds on some machines, and there are a hundred checks)
    _meta=$(awk -v M="$_m" "$TE_AWK_MAP"'
        te_value_line() {
            r = te_map($1, M); if (r != "" && !(r in seen)) { seen[r] = 1; out = out (out == "" ? "" : ",") r }
            if ($2 != "all") q = "-q"
        }
        END { print out " " (q == "" ? "-" : q) }' "$_ref")
    _list=${_meta% *} _q=${_meta##* }
    [ "$_q" = - ] && _q=
    if [ -z "$_list" ]; then
        ok 1 "$_name: no comparable measure in $_ref"
        return
    fi
    "$RETRIAGE" eval $_q -m "$_list" "$@" >"$TMPD/out" 2>"$TMPD/err"
    _rc=$?
    if [ $_rc -ne 0 ]; then
        diag <"$TMPD/err"
        ok 1 "$_name: retriage eval exited $_rc"
        return
    fi
    te_compare "$_ref" "$TMPD/out" "$_m" "$_tol" >"$TMPD/cmp"
    _rc=$?
    if [ $_rc -eq 0 ]; then
        read -r _count <"$TMPD/cmp"   # (only the count when nothing differs)
    else
        _count=$(tail -n 1 "$TMPD/cmp")
        sed '$d' "$TMPD/cmp" | head -n 20 | diag
    fi
    ok $_rc "$_name ($_count, tol $_tol)"
}

# value_of OUT MEASURE QID — the value retriage printed for (MEASURE, QID), or empty.
value_of() {
    awk -F '\t' -v m="$2" -v q="$3" '$2 == m && $3 == q { print $4; exit }' "$1"
}

# near A B TOL — exit status 0 when |A - B| <= TOL (A, B decimal strings; empty never matches).
near() {
    [ -n "$1" ] && [ -n "$2" ] || return 1
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# Tolerances. Stock trec_eval prints %6.4f, so its values carry a rounding error of up to 5e-5;
# trec_eval_hp prints %.17g and is compared at 1e-9, as DESIGN.md §5 asks.
TOL_HP=1e-9
TOL_4DP=0.0000500001

# dr_json_ref FILE — the official DuReader script's JSON line in FILE ({"MRR@10": …, "recall@1":
# …, "recall@50": …}) as reference lines in retriage names: MRR@10 = RR@10, recall@k = Success@k
# (DESIGN.md §5). Other lines of FILE (the command, warnings) are ignored.
dr_json_ref() {
    awk '/^\{/ {
        gsub(/[{}" ]/, ""); n = split($0, kv, ",")
        for (i = 1; i <= n; i++) {
            split(kv[i], p, ":")
            if (p[1] == "MRR@10") print "RR@10\tall\t" p[2]
            else if (p[1] ~ /^recall@[0-9]+$/) print "Success@" substr(p[1], 8) "\tall\t" p[2]
        }
    }' "$1"
}

# alt_ref FILE — the independent reference alt_metrics_ref.py (metric-vectors) in retriage names:
# "qid<TAB>RR=…<TAB>AP_minmn=…<TAB>ACC@1=…" (nlpcc), "qid<TAB>first_rel_rank=N|None" (mfr) and
# their "all" lines. An undefined first_rel_rank gives no line: retriage prints none either.
alt_ref() {
    awk -F '\t' '$1 !~ /^(\$|\[)/ && NF >= 2 {
        for (i = 2; i <= NF; i++) {
            split($i, p, "=")
            name = p[1] == "RR" || p[1] == "MRR" ? "RR" : \
                   p[1] == "AP_minmn" || p[1] == "MAP_minmn" ? "AP_min" : \
                   p[1] == "ACC@1" ? "Success@1" : \
                   p[1] == "first_rel_rank" || p[1] == "MFR" ? "MFR" : ""
            if (name != "" && p[2] != "None") print name "\t" $1 "\t" p[2]
        }
    }' "$1"
}
