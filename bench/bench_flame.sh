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
