#!/bin/sh
# The map/reduce recipe on Dask distributed (scripts/dask-analyze.py, tracetool-merge(1)): a
# LocalCluster of eight worker threads analyses seven shards and merges them in
# a tree of fan-in 2; the result equals one analyze of all the inputs (modulo ids), given as
# relative paths as in the man page (stored as given), the last shard holding only the btrace
# sampling-mapping file (no trace: no database, left out of the merges). Needs
# python3-distributed (scripts/deps.sh test); skipped (exit 77) without it. Bounded to 180 s.
set -u
py=
for p in python3 /usr/bin/python3; do
    if command -v "$p" > /dev/null && "$p" -c "import distributed" 2> /dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "python3-distributed is not installed (scripts/deps.sh test installs it)" >&2; exit 77; }
t=$TT_TMP/merge-dask
rm -rf "$t" && mkdir -p "$t"
s=../../samples
set -- $s/beat.bin $s/reports.jsonl $s/perf-fib.txt.gz $s/sampling.bin $s/stacks.folded \
    $s/samples.jsonl $s/startup-events.jsonl $s/startup-am.txt $s/startup-logcat.txt \
    $s/framestats.txt $s/frames.jsonl $s/reports.log $s/sampling-mapping.bin
tracetool analyze -o "$t/all.db" -m $s/methodMapping.txt "$@" > /dev/null 2>&1 || echo "analyze failed"
timeout 180 "$py" ../../scripts/dask-analyze.py -o "$t/dask.db" --shards 7 --workers 8 --fan-in 2 \
    --work "$t/work" --analyze-opt=-m --analyze-opt=$s/methodMapping.txt "$@" 2> "$t/err" |
    "$py" -c "import json, sys; r = json.load(sys.stdin); m = r.pop('merged'); m.pop('database'); print(r, m)" ||
    { echo "dask run failed"; tail -5 "$t/err"; }
python3 ../cli/merge/dbcanon.py "$t/all.db" "$t/dask.db"
tracetool query --format csv "$t/dask.db" "SELECT path FROM trace_input WHERE path LIKE '%sampling%'"
ls "$t/work" | grep "\.db$" | sort | tr "\n" " "; echo
# it stops cleanly: no worker killed at close, no traceback on standard error
echo "shutdown noise: $(grep -c 'still alive\|Traceback\|Error' "$t/err") lines"
