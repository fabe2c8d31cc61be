#!/bin/sh
# borrowed.sh — every function declared in src/*.h, ui/*.h and cli/*.h that returns a pointer says, in the
# comment above it (or above the group of declarations it belongs to, with no blank line between,
# or after it on its own line), who owns what it returns: "Owned" (and how to free it) or
# "Borrowed" (and how long it stays valid). STYLE.md asks for it; this keeps it true.
#   borrowed.sh            TAP: one test per header, failing with the undocumented declarations
#   borrowed.sh --list     file:line: name: yes|no for every pointer-returning declaration
#   borrowed.sh --count    "N of M pointer-returning functions say nothing"
# Needs no build; it reads the headers in $SRCDIR.
: "${SRCDIR:=$(dirname "$0")/../..}"

# One awk pass per header: prints "file:line<TAB>name<TAB>yes|no" for each declaration whose
# return type holds a '*'. Comments are gathered as the doc of the declarations that follow them;
# a blank line, a preprocessor line or the end of a type definition ends a doc.
scan() {
    awk '
    function flush_stmt(   s, ret, name) {
        s = stmt
        gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
        stmt = ""
        if (s == "" || s ~ /^typedef/ || s ~ /^(struct|enum|union) [A-Za-z_0-9]* ?$/) return
        sub(/ ?__attribute__.*$/, "", s)
        if (s !~ /\)$/) return
        # name( ... ) at the end: find the "(" that opens the parameter list.
        depth = 0
        for (i = length(s); i > 0; i--) {
            c = substr(s, i, 1)
            if (c == ")") depth++
            else if (c == "(") { depth--; if (depth == 0) break }
        }
        if (i <= 1) return
        head = substr(s, 1, i - 1); sub(/ $/, "", head)
        if (!match(head, /[A-Za-z_][A-Za-z_0-9]*$/)) return
        name = substr(head, RSTART)
        ret = substr(head, 1, RSTART - 1)
        if (ret ~ /\(/ || ret !~ /\*/) return
        pend[++np] = FILENAME ":" stmt_line "\t" name
        pdoc[np] = doc
    }
    function emit(   k, d) {
        for (k = 1; k <= np; k++) {
            d = pdoc[k] " " tail
            print pend[k] "\t" (d ~ /(^|[^A-Za-z])(Owned|Borrowed)([^A-Za-z]|$)/ ? "yes" : "no")
        }
        np = 0; tail = ""
    }
    # a new header: what the last one left pending is its own; nothing carries over
    FNR == 1 && NR > 1 {
        emit(); doc = stmt = ctext = ""
        incomment = incont = bdepth = isfunc = instruct = cstandalone = 0
    }
    {
        line = $0
        if (incont) { incont = ($0 ~ /\\$/); next }   # a preprocessor line continued
        if (!incomment && bdepth == 0 && stmt == "" && line ~ /^[ \t]*$/) { emit(); doc = ""; next }
        if (!incomment && bdepth == 0 && stmt == "" && line ~ /^[ \t]*#/) {
            emit(); doc = ""; incont = (line ~ /\\$/)
            # a comment opened on the preprocessor line and left open goes on below it
            pl = line
            while ((b = index(pl, "/*")) > 0) {
                pl = substr(pl, b + 2); e = index(pl, "*/")
                if (e == 0) { incomment = 1; ctext = ""; cstandalone = 0; break }
                pl = substr(pl, e + 2)
            }
            next
        }
        standalone = (!incomment && line ~ /^[ \t]*\/\*/)
        while (line != "") {
            if (incomment) {
                e = index(line, "*/")
                if (e == 0) { ctext = ctext " " line; line = ""; break }
                ctext = ctext " " substr(line, 1, e - 1); line = substr(line, e + 2); incomment = 0
                if (np > 0 && stmt == "" && !cstandalone) tail = tail " " ctext
                else if (stmt != "" || bdepth > 0) doc = doc " " ctext
                else { if (cstandalone && np > 0) emit(); doc = (cstandalone ? ctext : doc " " ctext) }
                continue
            }
            b = index(line, "/*")
            if (b > 0) { seg = substr(line, 1, b - 1); line = substr(line, b + 2) }
            else { seg = line; line = "" }
            # the code in seg, character by character (braces and statement ends)
            for (j = 1; j <= length(seg); j++) {
                c = substr(seg, j, 1)
                if (bdepth > 0) {
                    if (c == "{") bdepth++
                    else if (c == "}") { bdepth--; if (bdepth == 0 && isfunc) { isfunc = 0; doc = ""; emit() } }
                    continue
                }
                if (c == ";") { stmt = stmt " "; if (instruct) { instruct = 0; stmt = ""; doc = "" } else flush_stmt(); continue }
                if (c == "{") {
                    if (stmt ~ /\)[ \t]*$/) { flush_stmt(); isfunc = 1 } else instruct = 1
                    bdepth = 1; continue
                }
                if (stmt == "" && c ~ /[ \t]/) continue
                if (stmt == "") stmt_line = FNR
                stmt = stmt c
            }
            if (b > 0) {
                incomment = 1; ctext = ""
                cstandalone = standalone && seg ~ /^[ \t]*$/
                standalone = 0
            }
        }
        if (!incomment) stmt = stmt " "
        if (stmt ~ /^[ \t]*$/) stmt = ""
    }
    END { emit() }
    ' "$@"
}

list() { scan "$SRCDIR"/src/*.h "$SRCDIR"/ui/*.h "$SRCDIR"/cli/*.h | sed "s|^$SRCDIR/||"; }

case "${1:-}" in
--list) list; exit 0 ;;
--count)
    list | awk -F'\t' '{ n++ } $3 == "no" { m++ } END { printf "%d of %d pointer-returning functions say nothing\n", m, n }'
    exit 0 ;;
esac

# TAP: one test per header with pointer-returning declarations.
all=$(list)
[ -n "$all" ] || { echo "1..0 # SKIP no headers under $SRCDIR (set SRCDIR)"; exit 0; }
n=0 failed=0

# First the scanner itself, on a header made to trip it: what it must find, and judge, is known.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/t.h" <<'H'
/* t.h — the scanner's own test. */
#ifndef T_H
#define T_H
#define T_MACRO(x) \
    char *not_a_decl(x);
typedef struct t { char *(*fn)(void); int x; } t;
typedef const char *(*t_fn)(int);

/* A group under one comment. Owned: the caller frees each with free. */
char *t_group_a(void);
char *t_group_b(int x,
                int y);

/* Says nothing about its result. */
const char *t_silent(void);
int t_not_a_pointer(const char *s);

const t *t_trailing(void);   /* Borrowed: valid until t_free. */
/* borrowed (lower case, about an argument) does not count. */
t *t_lower(t *borrowed);

static inline void *t_inline(void *p)
{
    return p;
}

/* A comment above, then a blank line: it is not t_orphan's. Owned. */

char **t_orphan(void);
#endif
H
expect='t_group_a	yes
t_group_b	yes
t_silent	no
t_trailing	yes
t_lower	no
t_inline	no
t_orphan	no'
got=$(scan "$tmp/t.h" | cut -f2-)
n=$((n + 1))
if [ "$got" = "$expect" ]; then
    echo "ok $n - the scanner finds and judges every pointer-returning declaration of a test header"
else
    echo "not ok $n - the scanner finds and judges every pointer-returning declaration of a test header"
    { echo "expected:"; echo "$expect"; echo "got:"; echo "$got"; } | sed 's/^/# /'
    failed=$((failed + 1))
fi
# one test per header, in order (one awk for all: a process costs milliseconds on some machines)
printf '%s\n' "$all" | awk -F'\t' -v n="$n" -v counts="$tmp/counts" '
    { f = $1; sub(/:[0-9]+$/, "", f) }
    !(f in seen) { seen[f] = 1; order[++nf] = f }
    $3 == "no" { bad[f] = bad[f] "# " $1 ": " $2 "\n" }
    END {
        for (i = 1; i <= nf; i++) {
            f = order[i]; n++
            if (!(f in bad)) print "ok " n " - " f ": every pointer-returning function says Owned or Borrowed"
            else { printf "not ok %d - %s: pointer-returning functions with no Owned/Borrowed sentence\n%s", n, f, bad[f]; failed++ }
        }
        print n, failed + 0 > counts
    }'
read -r n more_failed <"$tmp/counts"
failed=$((failed + more_failed))
# The scanner must find the declarations it is meant to check: a known one, as a control.
n=$((n + 1))
if printf '%s\n' "$all" | grep -q "	rt_strtab_str	"; then echo "ok $n - the scanner finds rt_strtab_str"
else echo "not ok $n - the scanner finds rt_strtab_str"; failed=$((failed + 1)); fi
echo "1..$n"
[ "$failed" -eq 0 ]
