#!/bin/sh
# Checks for the Debian packages tracetool needs and installs the missing ones when run as
# root (apt-get); otherwise prints the exact command and fails.
# Usage: scripts/deps.sh [build|test|fuzz|bench|all]
# bench adds the reference tools `make bench` times tracetool against (addr2line, eu-addr2line,
# llvm-symbolizer, perf) and GNU time for peak RSS. test has llvm-14 and dwz for the symbolicate
# oracles (llvm-symbolizer-14, dwz -m variants), which are skipped where they are missing, and
# strace (the analyze golden that counts how often a --dsym is read).
set -eu
what=${1:-build}
pkgs="build-essential pkg-config python3 zlib1g-dev libzstd-dev libjansson-dev libsqlite3-dev libssl-dev libelf-dev libdwarf-dev libiberty-dev"
case "$what" in
build) ;;
test) pkgs="$pkgs check mandoc binutils g++ clang llvm-14 dwz python3-distributed libxml2-utils dmtracedump strace" ;;
fuzz) pkgs="$pkgs clang libclang-rt-14-dev" ;;
bench) pkgs="$pkgs binutils elfutils llvm-14 clang linux-perf time" ;;
all) pkgs="$pkgs check mandoc binutils g++ clang llvm-14 dwz libclang-rt-14-dev python3-distributed libxml2-utils dmtracedump strace" ;;
*) echo "usage: $0 [build|test|fuzz|bench|all]" >&2; exit 2 ;;
esac
missing=""
for p in $pkgs; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$st" in *"install ok installed"*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || true
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >&2
else
    echo "deps: missing Debian packages:$missing" >&2
    echo "deps: run: sudo apt-get install -y$missing" >&2
    exit 1
fi
