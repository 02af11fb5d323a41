#!/bin/sh
# bench_samples: sampled stacks (issue 5). 1,000,000 btrace samples of depth 30 on 8 threads
# (tests/gen/gen_btrace.c, variant bench) through `tracetool samples` and
# `tracetool export --format chrome`: samples/s and peak RSS (targets >= 1 M samples/s,
# <= 200 MiB). Then, when perf can record here, one recording of a small C program is timed
# through `perf report --stdio` and through `tracetool samples` on its `perf script` text,
# and the ratio is printed. N=... overrides the sample count (try a small one first).
# WAKEUPS=... sets the wake-up arrow case's size (export --format chrome).
# PERF_REUSE=1 reuses the real-shaped recording of the previous run.
# Then real-shaped perf script text (issue 16): a recursive C++ program (bench/perf_cxx.cc,
# kernel frames from system calls and page faults) recorded with `perf record -g` for
# PERF_SECONDS, its text repeated with shifted times to PERF_N samples (bench/perf_repeat.py):
# CPU seconds and MB/s of `samples --format json` and `export --format folded`, `perf report
# --no-children` on the same recording as the reference, in CPU seconds on one thread and in
# wall time with the default --jobs; the recording's stacks as folded lines
# and as simpleperf text; for each text, --jobs 1 against --jobs 2 (CPU, per-core MB/s, wall, and
# the main thread's CPU: the serial part).
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
# wake-up arrows at scale: WAKEUPS parks of one thread, each woken by a thread that samples all
# along (gen_btrace --variant wakeups:N); arrows are matched to slices by binary search, so
# the time grows with N log N (it was quadratic)
WAKEUPS=${WAKEUPS:-20000}
gen_btrace --variant "wakeups:$WAKEUPS" "$dir/wakeups.bin" "$dir/wakeups-mapping.bin" || exit 1
m=$(python3 bench/measure.py tracetool export --format chrome "$dir/wakeups.bin" 2>&1 >/dev/null) ||
    { echo "$m"; exit 1; }
echo "$m" | sed -n "s/.*wall_s=\([0-9.]*\).*peak_rss_mib=\([0-9.]*\).*/export --format chrome, $WAKEUPS wake-up arrows: \1 s, peak RSS \2 MiB/p"

# many threads (system-wide perf record -a -g shape): THREADS threads of 4 samples each over
# a shared tree of about 50k callsites (bench/gen_perf_threads.py); each thread's section costs
# its own samples and the callsites they touch, not the whole profile (it was threads x
# callsites: about 13 s here for 5,000 threads)
THREADS=${THREADS:-5000}
python3 bench/gen_perf_threads.py "$THREADS" 4 16000 1 "$dir/threads.txt" || exit 1
ncs=$(tracetool samples --format json "$dir/threads.txt" |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["callsites"])') || exit 1
for f in text json; do
    m=$(python3 bench/measure.py tracetool samples --format $f "$dir/threads.txt" 2>&1 >/dev/null) ||
        { echo "$m"; exit 1; }
    echo "$m" | sed -n "s/.*wall_s=\([0-9.]*\).*peak_rss_mib=\([0-9.]*\).*/samples --format $f, $THREADS threads x 4 samples, $ncs callsites: \1 s, peak RSS \2 MiB/p"
done

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

# ---- real-shaped: a C++ program, perf record -g, 1M samples of perf script text ----
PERF_N=${PERF_N:-1000000}
PERF_SECONDS=${PERF_SECONDS:-5}
command -v g++ >/dev/null 2>&1 || { echo "g++: not installed; real-shaped perf bench skipped"; exit 0; }
g++ -O2 -g -fno-omit-frame-pointer -o "$dir/perf_cxx" bench/perf_cxx.cc || exit 1
# PERF_REUSE=1 keeps the recording and the texts of an earlier run (before/after comparisons)
if [ "${PERF_REUSE:-0}" = 1 ] && [ -s "$dir/cxx.data" ] && [ -s "$dir/cxx-big.txt" ]; then
    echo "recording: reused from an earlier run (PERF_REUSE=1)"
else
    perf record -q -g -F 20000 -o "$dir/cxx.data" "$dir/perf_cxx" "$PERF_SECONDS" >/dev/null 2>&1 ||
        { echo "perf record failed; real-shaped perf bench skipped"; exit 0; }
    perf script -i "$dir/cxx.data" > "$dir/cxx.txt" 2>/dev/null
    python3 bench/perf_repeat.py "$dir/cxx.txt" "$PERF_N" "$dir/cxx-big.txt" || exit 1
fi
awk 'BEGIN { RS = ""; FS = "\n" } { n++; f += NF - 1; if (/kallsyms/) k++ }
     END { printf "recording: %d samples, %.1f frames per sample, %.0f%% with kernel frames\n",
                  n, f / n, 100 * k / n }' "$dir/cxx.txt"
ms() { echo "$1" | sed -n "s/^$2 cpu_ms=\([0-9.]*\).*/\1/p"; }
# the recording itself: perf report against tracetool, CPU seconds (medians of 3, interleaved)
c=$(python3 bench/cpu.py 3 "report=perf report --no-children --stdio -i $dir/cxx.data" \
    "script=perf script -i $dir/cxx.data" \
    "json=tracetool samples --format json --jobs 1 $dir/cxx.txt" \
    "folded=tracetool export --format folded --jobs 1 $dir/cxx.txt" 2>&1) || { echo "$c"; exit 1; }
rep=$(ms "$c" report)
rn=$(grep -c 'cpu-clock\|cycles' "$dir/cxx.txt")
for k in json folded; do
    awk -v k="$k" -v r="$rep" -v t="$(ms "$c" "$k")" -v n="$rn" 'BEGIN {
        printf "recording, %-6s %7d samples: tracetool %.3f s CPU; reference perf report --no-children %.3f s CPU; ratio %.1fx\n",
               k, n, t / 1000, r / 1000, (t > 0 ? r / t : 0) }'
done
awk -v t="$(ms "$c" script)" -v b="$(wc -c < "$dir/cxx.txt")" 'BEGIN {
    printf "recording: perf script writing the %.0f MB of text tracetool reads: %.3f s CPU\n", b / 1e6, t / 1000 }'
# perf report's start-up (reading /proc/kallsyms and the binaries: about 0.07 s here) is paid once
# per run, so the reference for PERF_N samples is its start-up plus PERF_N times its cost per
# sample on the recording (the recording's rate alone would charge the start-up per sample)
perf record -q -g -o "$dir/true.data" true >/dev/null 2>&1
c=$(python3 bench/cpu.py 3 "start=perf report --no-children --stdio -i $dir/true.data" 2>&1) ||
    { echo "$c"; exit 1; }
st=$(ms "$c" start)
awk -v s="$st" -v r="$rep" -v n="$rn" 'BEGIN {
    printf "perf report --no-children: start-up %.3f s CPU (a 2-sample recording), then %.2f us CPU per sample\n",
           s / 1000, (r - s) / n * 1000 }'
# the repeated text: CPU seconds and MB/s on one thread against that reference
bytes=$(wc -c < "$dir/cxx-big.txt")
c=$(python3 bench/cpu.py 3 "json=tracetool samples --format json --jobs 1 $dir/cxx-big.txt" \
    "folded=tracetool export --format folded --jobs 1 $dir/cxx-big.txt" 2>&1) || { echo "$c"; exit 1; }
for k in json folded; do
    awk -v k="$k" -v t="$(ms "$c" "$k")" -v b="$bytes" -v n="$PERF_N" -v r="$rep" -v rn="$rn" \
        -v s="$st" 'BEGIN {
        t /= 1000; pr = (s + (r - s) / rn * n) / 1000
        printf "%-6s %d samples, %.0f MB: %.3f s CPU, %.0f MB/s per core (target 400); reference perf report --no-children for as many samples (start-up + per sample) %.2f s; ratio %.1fx\n",
               k, n, b / 1e6, t, b / 1e6 / t, pr, (t > 0 ? pr / t : 0) }'
done
# what a user waits for: wall time with the default --jobs (one thread per core) against perf
# report's wall time for as many samples (perf report reads on one thread; start-up + per
# sample as above, from wall times; best of 3 and of 5)
bestwall() { # runs command... : the shortest wall time
    n=$1; shift
    for k in $(seq "$n"); do
        python3 bench/measure.py "$@" 2>&1 >/dev/null | sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p'
    done | sort -n | head -n 1
}
rw=$(bestwall 3 perf report --no-children --stdio -i "$dir/cxx.data")
sw=$(bestwall 3 perf report --no-children --stdio -i "$dir/true.data")
for k in json folded; do
    if [ $k = json ]; then
        tw=$(bestwall 5 tracetool samples --format json "$dir/cxx-big.txt")
    else
        tw=$(bestwall 5 tracetool export --format folded "$dir/cxx-big.txt")
    fi
    awk -v k="$k" -v t="$tw" -v n="$PERF_N" -v r="$rw" -v rn="$rn" -v s="$sw" -v c="$(nproc)" 'BEGIN {
        pr = s + (r - s) / rn * n
        printf "%-6s %d samples, wall with the default --jobs (%d cores): %.3f s; reference perf report --no-children for as many samples %.2f s wall (start-up %.3f s); ratio %.1fx (target 5)\n",
               k, n, c, t, pr, s, (t > 0 ? pr / t : 0) }'
done
# folded stacks input: the recording's stacks, unaggregated lines repeated to ~1M lines;
# reference: awk summing the counts per stack (what a script over folded files does)
tracetool export --format folded "$dir/cxx.txt" > "$dir/cxx.folded" || exit 1
reps=$(( 1000000 / $(wc -l < "$dir/cxx.folded") + 1 ))
i=0; while [ $i -lt $reps ]; do cat "$dir/cxx.folded"; i=$((i + 1)); done > "$dir/cxx-big.folded"
cat > "$dir/sum.awk" <<'AWK'
{ n = $NF; $NF = ""; s[$0] += n } END { for (k in s) print k s[k] }
AWK
fb=$(wc -c < "$dir/cxx-big.folded"); fl=$(wc -l < "$dir/cxx-big.folded")
c=$(python3 bench/cpu.py 3 "json=tracetool samples --format json --jobs 1 $dir/cxx-big.folded" \
    "awk=awk -f $dir/sum.awk $dir/cxx-big.folded" 2>&1) || { echo "$c"; exit 1; }
awk -v t="$(ms "$c" json)" -v r="$(ms "$c" awk)" -v b="$fb" -v n="$fl" 'BEGIN {
    printf "folded input %d lines, %.0f MB: samples --format json --jobs 1 %.3f s CPU, %.0f MB/s per core (target 400); reference awk sum per stack %.3f s; ratio %.1fx\n",
           n, b / 1e6, t / 1000, b / 1e6 / (t / 1000), r / 1000, (t > 0 ? r / t : 0) }'
# simpleperf report_sample.py text of the same recording, in the older layout (tab after comm,
# tid only, tabs before the period; frames "%16x<tab>symbol (dso)" without indentation)
sed -e 's/^\([^\t ][^ ]*\) \([0-9]*\) \([0-9.]*:\) *\([0-9]*\) \([^ :]*\)[^ ]* *$/\1\t\2 [000] \3\t\t\4 \5:/' \
    -e 's/^\t\( *[0-9a-f]*\) /\1\t/' "$dir/cxx.txt" > "$dir/sp.txt"
python3 bench/perf_repeat.py "$dir/sp.txt" "$PERF_N" "$dir/sp-big.txt" || exit 1
# --jobs 1 against --jobs 2 (reference --jobs 1): CPU seconds (medians of 5), per-core MB/s,
# wall time (best of 5), and the main thread's CPU with --jobs 2 (bench/threads.py, median of 3):
# its in-order work is the serial part, so on 2 cores wall time is at least
# max(main thread CPU, total CPU / 2), printed as a ratio to --jobs 1's CPU ("bound"), which
# says more than the wall ratio when other work shares the machine (an upper bound: the main
# thread also reads the next chunk itself when the other thread has not, more so under load)
jobs12() { # label file command...
    label=$1 f=$2; shift 2
    b=$(wc -c < "$f")
    c=$(python3 bench/cpu.py 5 "j1=$* --jobs 1 $f" "j2=$* --jobs 2 $f" 2>&1) || { echo "$c"; exit 1; }
    w=$(for k in 1 2 1 2 1 2 1 2 1 2; do
        python3 bench/measure.py "$@" --jobs $k "$f" 2>&1 | sed -n "s/.*wall_s=\([0-9.]*\).*/$k \1/p"
    done | sort -k1,1 -k2,2n | awk '!seen[$1]++ { w[$1] = $2 } END { print w[1], w[2] }')
    m=$(for k in 1 2 3; do python3 bench/threads.py "$@" --jobs 2 "$f"; done |
        sed -n 's/^main_cpu_s=\([0-9.]*\).*/\1/p' | sort -n | sed -n 2p)
    awk -v l="$label" -v c1="$(ms "$c" j1)" -v c2="$(ms "$c" j2)" -v w="$w" -v b="$b" -v m="$m" 'BEGIN {
        split(w, x, " "); c1 /= 1000; c2 /= 1000
        printf "%s, %.0f MB: --jobs 1 %.3f s CPU (%.0f MB/s per core, target 400), %.3f s wall; --jobs 2 %.3f s CPU (%.0f MB/s per core), %.3f s wall (reference --jobs 1); wall ratio %.2f (target <= 0.60); main thread %.3f s CPU (%.0f%% of --jobs 2 CPU), bound max(main, CPU/2) / --jobs 1 CPU %.2f\n",
               l, b / 1e6, c1, b / 1e6 / c1, x[1], c2, b / 1e6 / c2, x[2], (x[1] > 0 ? x[2] / x[1] : 0),
               m, (c2 > 0 ? 100 * m / c2 : 0), (c1 > 0 ? (m > c2 / 2 ? m : c2 / 2) / c1 : 0) }'
}
jobs12 "perf script text, samples --format json" "$dir/cxx-big.txt" tracetool samples --format json
jobs12 "simpleperf text (older layout), samples --format json" "$dir/sp-big.txt" tracetool samples --format json
jobs12 "folded stacks, samples --format json" "$dir/cxx-big.folded" tracetool samples --format json
