#!/bin/sh
# The map/reduce recipe on Dask distributed (scripts/dask-analyze.py, tracetool-merge(1)): by
# default a LocalCluster of worker processes on 127.0.0.1 (four here) analyses seven shards
# and merges them in a tree of fan-in 2; the result equals one analyze of all the inputs
# (modulo ids), given as relative paths as in the man page (stored as given), the method
# mapping given as an INPUT among them (found by analyze --dry-run, given to every shard),
# the last shard holding only the btrace sampling-mapping file (no trace: no database, left
# out of the merges). Then with --threads: an obfuscated method mapping and its ProGuard
# mapping given as INPUTs; a shard that fails (one line naming the shard and tracetool's
# message, tracetool's exit status 2); shards that exit 1 (--keep-going, --fail-on: exit 1
# with their messages); a mapping in a directory INPUT given with --analyze-opt=-m; an
# existing cluster whose workers run elsewhere, with a relative --work. Needs python3-distributed (scripts/deps.sh test);
# skipped (exit 77) without it. Each run bounded to 180 s.
set -u
py=
for p in python3 /usr/bin/python3; do
    if command -v "$p" > /dev/null && "$p" -c "import distributed" 2> /dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "python3-distributed is not installed (scripts/deps.sh test installs it)" >&2; exit 77; }
t=$TT_TMP/merge-dask
rm -rf "$t" && mkdir -p "$t"
s=../../samples
d=../../scripts/dask-analyze.py
# Dask's default dashboard port 8787 held for the whole test, as on a machine that runs
# another cluster: the script's clusters take a free port and print no warning about it
cat > "$t/hold.py" <<'P'
import os, socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("", 8787))
    s.listen()
except OSError:
    pass  # in use already: the condition this needs
print("held", flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.2)
P
"$py" "$t/hold.py" "$t/unhold" > "$t/hold.out" 2>&1 &
holder=$!
i=0; while ! grep -q held "$t/hold.out" 2> /dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
summary() {
    "$py" -c "import json, sys; r = json.load(sys.stdin); m = r.pop('merged'); m.pop('database'); print(r, m)"
}
set -- $s/beat.bin $s/reports.jsonl $s/perf-fib.txt.gz $s/methodMapping.txt $s/sampling.bin \
    $s/stacks.folded $s/samples.jsonl $s/startup-events.jsonl $s/startup-am.txt \
    $s/startup-logcat.txt $s/framestats.txt $s/frames.jsonl $s/reports.log $s/sampling-mapping.bin
tracetool analyze -o "$t/all.db" "$@" > /dev/null 2>&1 || echo "analyze failed"
timeout 180 "$py" $d -o "$t/dask.db" --shards 7 --workers 4 --fan-in 2 --work "$t/work" "$@" \
    2> "$t/err" | summary || { echo "dask run failed"; tail -5 "$t/err"; }
python3 ../cli/merge/dbcanon.py "$t/all.db" "$t/dask.db"
tracetool query --format csv "$t/dask.db" "SELECT count(*) AS methods FROM method"
tracetool query --format csv "$t/dask.db" "SELECT path FROM trace_input WHERE path LIKE '%sampling%'"
ls "$t/work" | grep "\.db$" | sort | tr "\n" " "; echo
# it stops cleanly: no worker killed at close, no traceback on standard error
# (Dask's own logging is critical-only in the script's own cluster; the lines, if any, are
# printed so that a failure says what they were)
echo "shutdown noise: $(grep -c 'still alive\|Traceback\|Error\|ERROR\|WARNING' "$t/err") lines"
grep 'still alive\|Traceback\|Error\|ERROR\|WARNING' "$t/err" | head -8
# an obfuscated mapping and its ProGuard mapping, given as INPUTs, with worker threads
set -- $s/beat.bin $s/methodMapping-obfuscated.txt $s/reports.jsonl $s/mapping.txt
tracetool analyze -o "$t/pg.db" "$@" > /dev/null 2>&1 || echo "analyze failed"
timeout 180 "$py" $d -o "$t/dask-pg.db" --threads --shards 2 "$@" 2> "$t/err" | summary ||
    { echo "dask run failed"; tail -5 "$t/err"; }
python3 ../cli/merge/dbcanon.py "$t/pg.db" "$t/dask-pg.db"
tracetool query --format csv "$t/dask-pg.db" "SELECT count(*) AS retraced FROM method WHERE name LIKE 'com.northwind.%'"
# a shard that fails: one line, tracetool's message and exit status
(head -2 $s/reports.jsonl; echo '{"tag": broken') > "$t/bad.jsonl"
timeout 180 "$py" $d -o "$t/bad.db" --threads --shards 2 $s/reports.jsonl "$t/bad.jsonl" \
    > "$t/out" 2> "$t/err"
echo "exit status $?"
sed "s|$TT_TMP|TMP|g" "$t/out" "$t/err"
# a shard that exits with status 1 (analyze(1) EXIT STATUS: --keep-going and an input failed,
# or a --fail-on condition tripped): its database is merged, tracetool's messages are printed
# naming the shard, and the script exits with the worst status, 1, as one analyze would
timeout 180 "$py" $d -o "$t/kg.db" --threads --shards 2 --analyze-opt=--keep-going \
    $s/reports.jsonl "$t/bad.jsonl" > "$t/out" 2> "$t/err"
echo "--keep-going: exit status $?"
summary < "$t/out"; sed "s|$TT_TMP|TMP|g" "$t/err"
timeout 180 "$py" $d -o "$t/fo.db" --threads --shards 2 --analyze-opt=--fail-on=issue \
    $s/stacks.folded $s/reports.jsonl > "$t/out" 2> "$t/err"
echo "--fail-on issue: exit status $?"
summary < "$t/out"; cat "$t/err"
# a mapping inside a directory INPUT that is also given with --analyze-opt=-m: every shard
# gets the option, so the run is not refused and equals one analyze
mkdir "$t/dd" && cp $s/methodMapping.txt $s/beat.bin "$t/dd/"
tracetool analyze -o "$t/dd.db" -m "$t/dd/methodMapping.txt" "$t/dd" $s/reports.jsonl \
    > /dev/null 2>&1 || echo "analyze failed"
timeout 180 "$py" $d -o "$t/dask-dd.db" --threads --shards 2 --analyze-opt=-m \
    --analyze-opt="$t/dd/methodMapping.txt" "$t/dd" $s/reports.jsonl 2> "$t/err" | summary ||
    { echo "dask run failed"; sed "s|$TT_TMP|TMP|g" "$t/err"; }
python3 ../cli/merge/dbcanon.py "$t/dd.db" "$t/dask-dd.db"
# an existing cluster (--scheduler) whose workers run in another directory, with a relative
# --work: the analyze and the merge tasks both run in the script's directory
mkdir "$t/elsewhere" "$t/here"
cat > "$t/cluster.py" <<'P'
import os, sys, time
os.chdir(sys.argv[1])
from dask.distributed import LocalCluster
c = LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                 host="127.0.0.1", scheduler_port=0, dashboard_address=":0")
print(c.scheduler_address, flush=True)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.2)
c.close()
P
"$py" "$t/cluster.py" "$t/elsewhere" "$t/stop" > "$t/cluster.out" 2> "$t/cluster.err" &
cluster=$!
i=0; while ! grep -q tcp "$t/cluster.out" 2> /dev/null && [ $i -lt 600 ]; do sleep 0.2; i=$((i+1)); done
cp $s/reports.jsonl $s/samples.jsonl "$t/here/"
top=$(cd ../.. && pwd)
(cd "$t/here" && timeout 180 "$py" "$top/scripts/dask-analyze.py" --scheduler \
    "$(cat "$t/cluster.out")" --work relwork -o out.db --shards 2 reports.jsonl samples.jsonl \
    2> "$t/err" | summary || { echo "dask run failed"; sed "s|$TT_TMP|TMP|g" "$t/err"; })
touch "$t/stop"; wait $cluster
echo "relwork: $(ls "$t/here/relwork" | tr '\n' ' ')elsewhere: $(ls "$t/elsewhere" | wc -l) files"
touch "$t/unhold"; wait $holder
