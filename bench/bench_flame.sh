#!/bin/sh
# bench_flame: flame graphs (issue 14, visual.md 9). 1,000,000 samples over 200,000
# distinct stacks: merge + layout + SVG in process (tests/gen/gen_flame.c; goal <= 150 ms,
# target < 1 s) and the SVG size (goal <= 4 MB, target < 5 MB); then the same stacks as
# folded input through analyze and `tracetool flamegraph DB` end to end, with peak RSS.
set -u
dir=${BENCH_DIR:-build-bench}/flame
mkdir -p "$dir"
gen_flame --samples 1000000 --stacks 200000 -o "$dir/gen.svg" --folded "$dir/big.folded" || exit 1
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout --nonet "$dir/gen.svg" && echo "gen.svg: parses"
fi
rm -f "$dir/big.db"
m=$(python3 bench/measure.py tracetool analyze -o "$dir/big.db" "$dir/big.folded" 2>&1 >/dev/null) ||
    { echo "$m"; exit 1; }
echo "analyze (folded, 200k stacks): $m"
m=$(python3 bench/measure.py tracetool flamegraph -o "$dir/big.svg" "$dir/big.db" 2>&1) ||
    { echo "$m"; exit 1; }
echo "flamegraph DB -> SVG (load included): $m, SVG $(wc -c < "$dir/big.svg") bytes"
# a 20,000-deep recursion whose every call has self time: --focus walks each callsite once
# (linear; it took 215 s when every stack was walked whole), --reverse takes every stack
# whole (its tree can hold every path: quadratic in the depth, 4 s)
awk 'BEGIN { N = 20000; print "format legacy 3 dual"; print "thread 1 main"
    print "method 0x4 a.B f (I)I B.java"
    for (i = 0; i < N; i++) print "ev 1 0x4 enter " i " " i
    for (i = 0; i < N; i++) print "ev 1 0x4 exit " N + i " " N + i }' > "$dir/deep.txt"
gen_art "$dir/deep.txt" "$dir/deep.trace" || exit 1
for o in --focus=f --reverse; do
    m=$(python3 bench/measure.py tracetool flamegraph --format tsv --max-frames 0 "$o" \
        -o "$dir/deep.tsv" "$dir/deep.trace" 2>&1) || { echo "$m"; exit 1; }
    echo "flamegraph $o, 20,000-deep recursion: $m"
done
# raw sampled input (flamegraph(1), RAW INPUTS): a system-wide `perf record -a -g` of
# PERF_SECONDS (default 3) repeated with shifted times to about PERF_MB (default 100) MB of
# perf script text. flamegraph reads it in memory as export does (samples alike); through a
# database (analyze, then flamegraph DB) for comparison, which is what flamegraph of a raw
# input did before. The widths must equal export's folded counts. The big files are removed.
if ! command -v perf >/dev/null 2>&1; then
    echo "perf: not installed; raw perf flamegraph skipped"
    exit 0
fi
if ! perf record -q -a -g -o "$dir/sys.data" -- sleep "${PERF_SECONDS:-3}" >/dev/null 2>&1; then
    echo "perf: system-wide recording not permitted here; raw perf flamegraph skipped"
    exit 0
fi
perf script -i "$dir/sys.data" > "$dir/sys.txt" 2>/dev/null
rm -f "$dir/sys.data"
ns=$(grep -c '^[^ 	].* [0-9]*\.[0-9]*:' "$dir/sys.txt")
sz=$(wc -c < "$dir/sys.txt")
[ "$ns" -gt 0 ] && [ "$sz" -gt 0 ] || { echo "perf script: no samples; raw perf flamegraph skipped"; exit 0; }
python3 bench/perf_repeat.py "$dir/sys.txt" $((ns * ${PERF_MB:-100} * 1000000 / sz)) "$dir/sys-big.txt" ||
    exit 1
rm -f "$dir/sys.txt"
mb=$(($(wc -c < "$dir/sys-big.txt") / 1000000))
for c in "samples" "export --format folded" "flamegraph -o $dir/sys.svg"; do
    m=$(python3 bench/measure.py tracetool $c "$dir/sys-big.txt" 2>&1 >/dev/null | tail -1)
    echo "perf -a -g, $mb MB of text: ${c%% -o*}: $m"
done
rm -f "$dir/sys.db"
m=$(python3 bench/measure.py tracetool analyze -o "$dir/sys.db" "$dir/sys-big.txt" 2>&1 >/dev/null | tail -1)
echo "perf -a -g, $mb MB of text: analyze into a database: $m"
m=$(python3 bench/measure.py tracetool flamegraph -o "$dir/sys-db.svg" "$dir/sys.db" 2>&1 | tail -1)
echo "perf -a -g, $mb MB of text: flamegraph of that database: $m"
cmp -s "$dir/sys.svg" "$dir/sys-db.svg" && echo "flamegraph: raw input and database draw the same SVG" ||
    echo "flamegraph: raw input and database draw DIFFERENT SVGs"
a=$(tracetool flamegraph --format tsv --minwidth 0 "$dir/sys-big.txt" 2>/dev/null | awk 'NR == 2 {print $3}')
b=$(tracetool export --format folded "$dir/sys-big.txt" 2>/dev/null | awk '{s += $NF} END {print s}')
echo "samples drawn: flamegraph $a, export --format folded $b"
rm -f "$dir/sys-big.txt" "$dir/sys.db" "$dir/sys.svg" "$dir/sys-db.svg"
