#!/bin/sh
# Builds prof.c with gcc -O0 -g as OUT/prof (non-PIE) and OUT/pprof (PIE), and writes
# OUT/perf.txt (perf script, "[unknown]" frames at addresses inside the functions, from nm)
# and OUT/samples.jsonl (module + rel_pc frames). Usage: mk.sh OUT  (prints nothing)
set -eu
out=$1
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ ! -f "$out/.stamp" ] || [ "$src/prof.c" -nt "$out/.stamp" ] || [ "$src/mk.sh" -nt "$out/.stamp" ]; then
    gcc -fdebug-prefix-map="$src"=/src -O0 -g -no-pie -o "$out/prof" "$src/prof.c" &
    gcc -fdebug-prefix-map="$src"=/src -O0 -g -pie -fPIE -o "$out/pprof" "$src/prof.c" &
    wait
    mkdir -p "$out/store"
    cp "$out/prof" "$out/store/prof"
    touch "$out/.stamp"
fi
# function start + 4 (inside every function, also when looked up as a return address)
at() { a=$(nm "$out/$1" | awk -v f="$2" '$3 == f { print $1 }'); printf '%x' $((0x$a + ${3:-4})); }
L=$(at prof leaf_work) M=$(at prof middle) R=$(at prof main)
L2=$(at prof leaf_work 12)
PL=$(at pprof leaf_work)
{
    printf 'prof 100/100 [000] 1.000000000: 1000000 cpu-clock:\n'
    printf '\t%s [unknown] (/opt/bin/prof)\n\t%s [unknown] (/opt/bin/prof)\n' "$L" "$M"
    printf '\t%s [unknown] (/opt/bin/prof)\n\n' "$R"
    printf 'prof 100/100 [000] 1.001000000: 1000000 cpu-clock:\n'
    printf '\t%s [unknown] (/opt/bin/prof)\n\t%s [unknown] (/opt/bin/prof)\n' "$L2" "$M"
    printf '\t%s [unknown] (/opt/bin/prof)\n\n' "$R"
    printf 'prof 100/100 [000] 1.002000000: 1000000 cpu-clock:\n'
    printf '\t7f0000001000 [unknown] (/lib/libmissing.so)\n\t%s [unknown] (/opt/bin/prof)\n' "$M"
    printf '\t%s [unknown] (/opt/bin/prof)\n\n' "$R"
    printf 'prof 100/100 [000] 1.003000000: 1000000 cpu-clock:\n'
    printf '\t5555%08x [unknown] (/opt/bin/pprof)\n\t400000 [unknown] (/opt/bin/prof)\n\n' "0x$PL"
    printf 'prof 100/100 [000] 1.004000000: 1000000 cpu-clock:\n'
    printf '\t%s middle (/opt/bin/prof)\n\t%s [unknown] (/opt/bin/prof)\n\n' "$M" "$R"
} > "$out/perf.txt"
PM=$(at pprof middle) PR=$(at pprof main)
{
    printf '{"kind":"meta","format":"tracetool-samples","version":1,"pid":100,"clock":"monotonic"}\n'
    printf '{"kind":"thread","tid":100,"name":"prof","is_main":true}\n'
    printf '{"ts_ns":1000000,"tid":100,"frames":[{"module":"pprof","rel_pc":"0x%s"},{"module":"pprof","rel_pc":"0x%s"},{"module":"pprof","rel_pc":"0x%s"}]}\n' "$PR" "$PM" "$PL"
    printf '{"ts_ns":2000000,"tid":100,"frames":[{"module":"pprof","rel_pc":"0x%s"},{"module":"pprof","rel_pc":"0x%s"}]}\n' "$PR" "$PM"
} > "$out/samples.jsonl"
