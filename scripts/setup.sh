#!/usr/bin/env bash
# setup.sh — everything retriage needs on a Debian 12 machine, once: the Debian packages, the
# Faiss C API library (built from Debian's faiss source package and cached), and a configured
# tree. Idempotent: a second run only checks. Extra arguments go to ./configure
# (e.g. --enable-werror, --enable-debug, --enable-sanitizers); --with-fuzz also installs clang and
# libFuzzer for `make fuzz` (not needed otherwise).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'setup: %s\n' "$*"; }

# libopenblas0-pthread becomes the system libblas.so.3 (Debian alternatives): Faiss's exact
# search is a matrix product, about 9x faster than with the reference BLAS. libxml2-utils
# (xmllint) and librsvg2-bin (rsvg-convert) check the SVG figures in the tests; zlib1g-dev and
# libzstd-dev read compressed inputs, and the zstd tool makes them in the tests; libxxhash-dev
# checksums the caches (XXH3).
packages=(build-essential autoconf automake libtool pkg-config dpkg-dev
          libncurses-dev libutf8proc-dev libcjson-dev zlib1g-dev libzstd-dev zstd libxxhash-dev libfaiss-dev libblas-dev liblapack-dev
          libopenblas0-pthread libxml2-utils librsvg2-bin)

fuzz=0
pass=()
for a in "$@"; do
    if [ "$a" = --with-fuzz ]; then fuzz=1; else pass+=("$a"); fi
done
set -- ${pass[@]+"${pass[@]}"}
[ $fuzz -eq 1 ] && packages+=(clang libclang-rt-dev)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { say "need root (or sudo) to install: ${missing[*]}"; exit 1; }
        sudo_cmd="sudo"
    fi
    say "installing Debian packages: ${missing[*]}"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    say "Debian packages present"
fi

faiss_prefix=$("$top/scripts/build-faiss-c.sh" | tail -n 1)
say "Faiss C API: $faiss_prefix/lib/libfaiss_c.a"

cd "$top"
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
    say "generating the build system (autogen.sh)"
    ./autogen.sh >/dev/null 2>&1 || ./autogen.sh
fi

args=(--with-faiss-c="$faiss_prefix" "$@")
stamp=.setup-configure-args
if [ -f config.status ] && [ -f Makefile ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${args[*]}" ]; then
    say "already configured (${args[*]})"
else
    say "configuring: ./configure ${args[*]}"
    ./configure "${args[@]}" >config.setup.log 2>&1 || { tail -n 30 config.setup.log; exit 1; }
    printf '%s' "${args[*]}" > "$stamp"
    sed -n '/retriage [0-9]/,$p' config.setup.log
fi
say "done: now 'make -j2' builds, 'make -j2 check' tests, './retriage --demo' opens the demo"
