#!/bin/sh
# man-keys.sh RETRIAGE MANPAGE — replaces the KEYS block of the man page with the action table
# as the program prints it ('retriage --help-keys man'), so the two cannot drift apart.
set -eu
bin=$1 man=$2
tmp=$(mktemp)
keys=$(mktemp)
"$bin" --help-keys man > "$keys"
awk -v keys="$keys" '
    /^\.\\" BEGIN KEYS/ { print; while ((getline l < keys) > 0) print l; skip = 1; next }
    /^\.\\" END KEYS/ { skip = 0 }
    !skip { print }
' "$man" > "$tmp"
cat "$tmp" > "$man"
rm -f "$tmp" "$keys"
