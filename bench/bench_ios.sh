#!/bin/sh
# iOS symbolication speed (issue 13 "Speed", spec/ios.md I10): IOS_BENCH_N (default 10,000)
# Matrix lag dumps x 100 frames, 300 binary images each, against one dSYM
# (tests/data/macho/app.dSYM), generated at bench time by bench/gen_ios_dumps.py. Prints CPU
# time (user + sys, medians of interleaved runs: the machine may be shared) and frames/s of
# `tracetool report` (text and --group) end to end, and the same figures for
# llvm-symbolizer-14 on the same lookup addresses when it is installed, with the ratio.
set -u
d=${BENCH_DIR:-build-bench}/ios
n=${IOS_BENCH_N:-10000}
runs=${IOS_BENCH_RUNS:-3}
dsym=tests/data/macho/app.dSYM
mkdir -p "$d"
if [ ! -f "$d/dumps-$n.jsonl" ]; then
    python3 bench/gen_ios_dumps.py "$d/dumps-$n.jsonl" "$d/dumps-$n.addrs" "$n" ||
        { echo "bench_ios: generator failed"; exit 1; }
fi
frames=$((n * 100))
echo "-- $n dumps ($(du -m "$d/dumps-$n.jsonl" | cut -f1) MiB of JSON lines), $frames frames"
set -- "text=tracetool report --dsym $dsym $d/dumps-$n.jsonl" \
    "group=tracetool report --group --dsym $dsym $d/dumps-$n.jsonl"
llvm=$(command -v llvm-symbolizer-14 || true)
[ -n "$llvm" ] && set -- "$@" \
    "llvm-symbolizer-14=$llvm --obj=$dsym/Contents/Resources/DWARF/app <$d/dumps-$n.addrs"
python3 bench/cpu.py "$runs" "$@" | tee "$d/cpu.txt" | while read -r label cpu rest; do
    ms=${cpu#cpu_ms=}
    echo "ios $label: $cpu $rest frames_per_s=$(python3 -c "print(int($frames / max($ms, 1) * 1000))")"
done
if [ -n "$llvm" ]; then
    python3 - "$d/cpu.txt" <<'PY'
import sys
ms = {l.split()[0]: float(l.split()[1].split("=")[1]) for l in open(sys.argv[1])}
for k in ("text", "group"):
    print("ios %s: %.2fx llvm-symbolizer-14's speed (CPU time ratio)" %
          (k, ms["llvm-symbolizer-14"] / ms[k]))
PY
else
    echo "bench_ios: llvm-symbolizer-14 not installed, no ratio"
fi
