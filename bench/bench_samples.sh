#!/bin/sh
# bench_samples: sampled stacks (issue 5). 1,000,000 btrace samples of depth 30 on 8 threads
# (tests/gen/gen_btrace.c, variant bench) through `tracetool samples` and
# `tracetool export --format chrome`: samples/s and peak RSS (targets >= 1 M samples/s,
# <= 200 MiB). Then, when perf can record here, one recording of a small C program is timed
# through `perf report --stdio` and through `tracetool samples` on its `perf script` text,
# and the ratio is printed. N=... overrides the sample count (try a small one first).
set -u
N=${N:-1000000}
dir=${BENCH_DIR:-build-bench}/samples
mkdir -p "$dir"
gen_btrace --variant "bench:$N" "$dir/sampling.bin" "$dir/sampling-mapping.bin" || exit 1
rate() { # label, measure output
    wall=$(echo "$2" | sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p')
    rss=$(echo "$2" | sed -n 's/.*peak_rss_mib=\([>=0-9.]*\).*/\1/p')
    awk -v l="$1" -v n="$N" -v w="$wall" -v r="$rss" 'BEGIN {
        printf "%-28s %9d samples  %7.3f s  %10.0f samples/s  peak RSS %6.1f MiB\n", l, n, w,
               (w > 0 ? n / w : 0), r }'
}
m=$(python3 bench/measure.py tracetool samples "$dir/sampling.bin" 2>&1 >/dev/null) || { echo "$m"; exit 1; }
rate "samples (btrace, depth 30)" "$m"
m=$(python3 bench/measure.py tracetool export --format chrome "$dir/sampling.bin" 2>&1) ||
    { echo "$m"; exit 1; }
rate "export --format chrome" "$m"

# perf report against tracetool samples on one recording
if ! command -v perf >/dev/null 2>&1; then
    echo "perf: not installed; ratio skipped"
    exit 0
fi
cat > "$dir/work.c" <<'C'
#include <stdio.h>
static volatile long sink;
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static double spin(int n) { double s = 0; for (int i = 0; i < n; i++) s += i * 0.5; return s; }
int main(void) { for (int k = 0; k < 40; k++) { sink += fib(27); sink += (long)spin(2000000); }
                 printf("%ld\n", sink); return 0; }
C
cc -O1 -g -fno-omit-frame-pointer -fno-inline -o "$dir/work" "$dir/work.c" || exit 1
if ! perf record -q -g -F 9999 -o "$dir/perf.data" "$dir/work" >/dev/null 2>&1; then
    echo "perf: perf_event_open not permitted here; ratio skipped"
    exit 0
fi
perf script -i "$dir/perf.data" > "$dir/perf.txt" 2>/dev/null
ns=$(grep -c 'cpu-clock\|cycles' "$dir/perf.txt")
p=$(python3 bench/measure.py perf report --stdio -i "$dir/perf.data" 2>&1 >/dev/null | tail -1)
t=$(python3 bench/measure.py tracetool samples "$dir/perf.txt" 2>&1 >/dev/null | tail -1)
pw=$(echo "$p" | sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p')
tw=$(echo "$t" | sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p')
awk -v n="$ns" -v p="$pw" -v t="$tw" 'BEGIN {
    printf "perf report --stdio: %.3f s; tracetool samples (perf script text): %.3f s; %d samples; ratio perf/tracetool %.2f\n",
           p, t, n, (t > 0 ? p / t : 0) }'
