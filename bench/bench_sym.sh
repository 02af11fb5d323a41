#!/bin/sh
# Symbolication speed and agreement (issue 6 "Speed", spec/symbolication.md 9.5): builds the
# SQLite amalgamation (from the better-sqlite3 npm package) with gcc and with clang at
# -O2 -g, then symbolicates 20,000 random .text addresses with tracetool, llvm-symbolizer,
# GNU addr2line and eu-addr2line (those installed) in one run each: wall time (process
# start-up and indexing included), lookups per second after indexing, peak RSS, ratios
# against tracetool, and full inline-chain agreement after clone-suffix normalisation.
# A C++ program (bench/sym_cxx.cc, g++ and clang++) is compared on mangled names too.
# Timings are reported, never asserted. SYM_BENCH_N changes the address count.
set -u
dir=${BENCH_DIR:-build-bench}/sym
n=${SYM_BENCH_N:-20000}
tt=$(pwd)/tracetool
mkdir -p "$dir"
if [ ! -f "$dir/sqlite3.c" ]; then
    if command -v npm >/dev/null 2>&1 &&
        (cd "$dir" && npm pack --silent better-sqlite3@11.10.0 >/dev/null 2>&1 &&
            tar xzf better-sqlite3-11.10.0.tgz package/deps/sqlite3/sqlite3.c \
                package/deps/sqlite3/sqlite3.h &&
            mv package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h . &&
            rm -rf package better-sqlite3-11.10.0.tgz); then
        :
    else
        echo "bench_sym: SQLite amalgamation not available (npm better-sqlite3); skipped"
        exit 0
    fi
fi
for cc in gcc clang; do
    command -v $cc >/dev/null 2>&1 || { echo "bench_sym: $cc not installed, skipped"; continue; }
    lib=$dir/libsqlite3-$cc.so
    if [ ! -f "$lib" ] || [ "$dir/sqlite3.c" -nt "$lib" ]; then
        echo "bench_sym: building $lib ($cc -O2 -g)"
        $cc -O2 -g -shared -fPIC -I"$dir" -o "$lib" "$dir/sqlite3.c" \
            -lm 2>/dev/null || { echo "bench_sym: $cc build failed"; continue; }
    fi
    echo "-- $cc: $(basename "$lib"), $n random .text addresses"
    python3 bench/sym_compare.py -n "$n" --time --runs "${SYM_BENCH_RUNS:-5}" "$tt" "$lib"
done
# C++: agreement only, on mangled names (the two demanglers differ in style, not in meaning)
for cxx in g++ clang++; do
    command -v $cxx >/dev/null 2>&1 || continue
    bin=$dir/sym_cxx-$cxx
    if [ ! -f "$bin" ] || [ bench/sym_cxx.cc -nt "$bin" ]; then
        $cxx -O2 -g -o "$bin" bench/sym_cxx.cc 2>/dev/null || { echo "bench_sym: $cxx build failed"; continue; }
    fi
    echo "-- $cxx: C++ program ($(basename "$bin")), $n random .text addresses, mangled names"
    python3 bench/sym_compare.py --mangled -n "$n" "$tt" "$bin" | grep -v '^agreement'
done
# One function with 16,000 abutting DW_AT_ranges (tests/data/symedge/ranges.py): 1,000
# lookups in its last range, whose StartAddress joins all of them (was quadratic per lookup)
if command -v gcc >/dev/null 2>&1 && python3 tests/data/symedge/ranges.py "$dir/ranges" 16000 4 &&
    gcc -nostdlib -static -o "$dir/ranges" "$dir/ranges.s" 2>/dev/null; then
    e=$(nm "$dir/ranges" | awk '$3 == "hot_end" { print $1 }')
    i=1
    while [ $i -le 1000 ]; do printf '0x%x\n' $((0x$e - i)); i=$((i + 1)); done >"$dir/ranges.txt"
    t0=$(date +%s%N)
    "$tt" symbolicate -e "$dir/ranges" --format jsonl <"$dir/ranges.txt" >/dev/null
    echo "-- 16,000 abutting ranges, 1,000 lookups with StartAddress: $((($(date +%s%N) - t0) / 1000000)) ms"
fi
