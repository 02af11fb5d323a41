#!/bin/sh
# `make bench`: runs every bench/bench_<area>.sh with the built ./tracetool. Each prints its
# figures (wall time, throughput, peak RSS, ratios against reference tools where an issue
# names them). Timings are reported, never asserted. BENCH_DIR holds generated inputs.
set -u
BENCH_DIR=${BENCH_DIR:-build-bench}
mkdir -p "$BENCH_DIR"
export BENCH_DIR PATH="$(pwd)/build/gen:$(pwd):$PATH"
st=0
for b in bench/bench_*.sh; do
    [ -f "$b" ] || continue
    echo "== $(basename "$b" .sh)"
    sh "$b" || { echo "bench: $b failed"; st=1; }
done
exit $st
