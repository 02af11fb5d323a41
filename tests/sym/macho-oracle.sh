#!/bin/sh
# Optional oracle check (spec/ios.md 13; `make check-oracle`): symbolicates every instruction
# of the committed Mach-O fixtures with tracetool and with llvm-symbolizer-14 run now, and
# compares the whole inline chains (tests/sym/macho_compare.py). Skips when
# llvm-symbolizer-14 is not installed. Usage: sh tests/sym/macho-oracle.sh [BUILD]
build=${1:-build}
top=$(pwd)
tt=$top/$build/tracetool
if ! command -v llvm-symbolizer-14 >/dev/null 2>&1; then
    echo "check-oracle: llvm-symbolizer-14 not installed, skipped"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top/tests/data/macho" || exit 1
st=0
one() { # NAME "tracetool args" "llvm-symbolizer args" ADDRFILE
    "$tt" symbolicate $2 -C --format json $(cat "$4") > "$tmp/ours.json" 2>/dev/null
    llvm-symbolizer-14 --inlining -C --output-style=JSON $3 $(cat "$4") > "$tmp/ref.json"
    if out=$(python3 "$top/tests/sym/macho_compare.py" "$tmp/ours.json" "$tmp/ref.json"); then
        echo "ok $1: $out"
    else
        echo "FAIL $1:"; echo "$out" | head -20; st=1
    fi
}
one app "-e app" "--obj=app" app.addrs
one fat-arm64 "-e fat:arm64" "--obj=fat:arm64" app.addrs
one fat-x86_64 "-e fat:x86_64" "--obj=fat:x86_64" appx.addrs
one dylib "-e Kit --dsym Kit.framework.dSYM" "--obj=Kit --dsym-hint=Kit.framework.dSYM" Kit.addrs
# llvm-symbolizer finds a dSYM only under the binary's own name: its answer for app (same UUID)
one stripped-with-dsym "-e app_stripped --dsym app.dSYM" "--obj=app" app.addrs
one driver-link "-e single" "--obj=single" single.addrs
one dwarf5 "-e d5.dSYM" "--obj=m5.elf" d5.addrs
exit $st
