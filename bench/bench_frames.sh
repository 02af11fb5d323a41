#!/bin/sh
# frames: 1,000,000 frames of JSON lines (10 scenes, FrameMetrics on every frame, as
# tests/gen/gen_frames writes them) through `tracetool frames --format json`, and the same
# frames as lean records (scene and times only); then the framestats rendering of 100,000
# frames. Prints frames/s and peak RSS. Inputs are generated into $BENCH_DIR once.
set -eu
d=$BENCH_DIR
[ -s "$d/frames-1m.jsonl" ] || gen_frames --scenes 10 --frames 100000 --seed 3 > "$d/frames-1m.jsonl"
[ -s "$d/frames-1m-lean.jsonl" ] ||
    sed 's/,"vsync_ns".*$/}/' "$d/frames-1m.jsonl" > "$d/frames-1m-lean.jsonl"
[ -s "$d/framestats-100k.txt" ] ||
    gen_frames --format framestats --scenes 10 --frames 10000 --seed 3 > "$d/framestats-100k.txt"
run() {
    n=$1
    shift
    r=$(python3 bench/measure.py "$@" 2>&1 >/dev/null | tail -1)
    wall=$(echo "$r" | sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p')
    fps=$(awk -v n="$n" -v w="$wall" 'BEGIN { if (w > 0) printf "%.0f", n / w; else print "-" }')
    echo "$*: $r frames_per_s=$fps"
}
run 1000000 tracetool frames --format json "$d/frames-1m.jsonl"
run 1000000 tracetool frames --format json "$d/frames-1m-lean.jsonl"
run 1000000 tracetool frames --model matrix-c --format jsonl "$d/frames-1m.jsonl"
run 100000 tracetool frames --format json "$d/framestats-100k.txt"
