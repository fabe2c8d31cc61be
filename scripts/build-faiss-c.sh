#!/usr/bin/env bash
# Builds libfaiss_c.a (the Faiss C API) from Debian's faiss source package, because Debian's
# libfaiss-dev ships the C API headers but not the library. The result is cached in PREFIX
# (default ~/.cache/retriage/faiss-c/<faiss version>) so it is built once per machine.
# Usage: scripts/build-faiss-c.sh [PREFIX]   — prints the prefix on its last line.
set -euo pipefail

say() { printf 'build-faiss-c: %s\n' "$*" >&2; }

ver=$(dpkg-query -W -f='${Version}' libfaiss-dev 2>/dev/null) || {
    say "libfaiss-dev is not installed (run scripts/setup.sh)"; exit 1; }
# "-ndebug": built with NDEBUG, so the C API does not print each exception to stderr (which
# would land on the workbench's screen); the suffix keeps older caches from being reused.
prefix=${1:-${RETRIAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/retriage}/faiss-c/$ver-ndebug}

if [ -f "$prefix/lib/libfaiss_c.a" ]; then
    say "using cached $prefix/lib/libfaiss_c.a"
    echo "$prefix"; exit 0
fi

sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
src_list=/etc/apt/sources.list.d/retriage-deb-src.sources
if ! apt-get source --print-uris faiss >/dev/null 2>&1; then
    say "adding a deb-src entry for bookworm main ($src_list)"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        | $sudo_cmd tee "$src_list" >/dev/null
    $sudo_cmd apt-get update -qq
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say "fetching Debian's faiss source package"
(cd "$work" && apt-get source -qq --download-only faiss >/dev/null && dpkg-source -x faiss_*.dsc src >/dev/null)

say "compiling the C API"
mkdir -p "$work/obj"
n=0
for f in "$work"/src/c_api/*.cpp "$work"/src/c_api/impl/*.cpp "$work"/src/c_api/utils/*.cpp; do
    [ -f "$f" ] || continue
    # GPU sources need CUDA; skip them.
    case "$f" in *gpu*) continue ;; esac
    n=$((n + 1))
    g++ -std=c++17 -O2 -DNDEBUG -fPIC -w -I"$work/src" -c "$f" -o "$work/obj/$n.o" &
    [ $((n % $(nproc))) -eq 0 ] && wait
done
wait
mkdir -p "$prefix/lib"
ar rcs "$prefix/lib/libfaiss_c.a.tmp" "$work"/obj/*.o
mv "$prefix/lib/libfaiss_c.a.tmp" "$prefix/lib/libfaiss_c.a"
say "built $prefix/lib/libfaiss_c.a from $n sources"
echo "$prefix"
