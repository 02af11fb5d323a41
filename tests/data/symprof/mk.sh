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
# perf-mmap.txt: the PIE mapped by PERF_RECORD_MMAP2 lines (perf script --show-mmap-events)
# at different addresses in two processes (runtime addresses), the map-relative addresses
# recent perf versions print, and a PIE frame without a mapping line (kept unnamed)
seg=$(readelf -lW "$out/pprof" | awk '$1 == "LOAD" && / E / { print $2, $3; exit }')
off=$((${seg% *})) va=$((${seg#* }))
# runtime address of a function when the executable segment is mapped at base + off
rt() { printf '%x' $(($1 + off + 0x$(at pprof "$2") - va)); }
PM=$(at pprof middle) PR=$(at pprof main)
{
    printf 'prof 300/300 [000] 2.000000000: PERF_RECORD_MMAP2 300/300: [0x555500000000(0x1000) @ 0 08:01 7 0]: r--p /opt/bin/pprof\n'
    printf 'prof 300/300 [000] 2.000000000: PERF_RECORD_MMAP2 300/300: [0x%x(0x1000) @ 0x%x 08:01 7 0]: r-xp /opt/bin/pprof\n' $((0x555500000000 + off)) $((off))
    printf 'prof 301/301 [000] 2.000000000: PERF_RECORD_MMAP2 301/301: [0x%x(0x1000) @ 0x%x 08:01 7 0]: r-xp /opt/bin/pprof\n' $((0x7f0000000000 + off)) $((off))
    printf 'prof 300/300 [000] 2.001000000: 1000000 cpu-clock:\n'
    printf '\t%s [unknown] (/opt/bin/pprof)\n' "$(rt 0x555500000000 leaf_work)"
    printf '\t%s [unknown] (/opt/bin/pprof)\n' "$(rt 0x555500000000 middle)"
    printf '\t%s [unknown] (/opt/bin/pprof)\n\n' "$(rt 0x555500000000 main)"
    printf 'prof 301/301 [000] 2.002000000: 1000000 cpu-clock:\n'
    printf '\t%s [unknown] (/opt/bin/pprof)\n' "$(rt 0x7f0000000000 leaf_work)"
    printf '\t%s [unknown] (/opt/bin/pprof)\n\n' "$(rt 0x7f0000000000 main)"
    printf 'prof 301/301 [000] 2.003000000: 1000000 cpu-clock:\n'
    printf '\t%x [unknown] (/opt/bin/pprof)\n' $((0x$PM - va + off))
    printf '\t%x [unknown] (/opt/bin/pprof)\n\n' $((0x$PR - va + off))
    printf 'prof 302/302 [000] 2.004000000: 1000000 cpu-clock:\n'
    printf '\t6666%08x [unknown] (/opt/bin/other-pie)\n\n' "0x$PM"
} > "$out/perf-mmap.txt"
# perf-mmap-deleted.txt: the same with the executable deleted while perf recorded (perf
# appends " (deleted)" to the mapping's path and to every frame's dso)
sed -e 's# /opt/bin/pprof$# /opt/bin/pprof (deleted)#' -e 's#(/opt/bin/pprof)#(/opt/bin/pprof (deleted))#' \
    "$out/perf-mmap.txt" > "$out/perf-mmap-deleted.txt"
