#!/bin/sh
# Atomicity of analyze (storage.md 5.3): killed while the new database is being built, the
# previous database stays byte-identical; SIGINT removes the temporary file; a later run
# removes the temporary file a kill -9 left behind. A FIFO holds analyze at a known point:
# a btrace sampling file's mapping is found beside it by name and opened in pass 2, with
# the temporary database already created; that mapping is a FIFO nobody writes.
set -u
t=$TT_TMP/kill
mkdir -p "$t"
tracetool analyze -o "$t/a.db" -m an-map.txt an-v1.bin > /dev/null || exit 1
cp "$t/a.db" "$t/before"
cp ../../samples/sampling.bin "$t/s.bin"
for sig in KILL INT TERM; do
    rm -f "$t/s-mapping.bin"
    mkfifo "$t/s-mapping.bin"
    # default actions: a background job of a non-interactive shell has INT ignored, and an
    # ignored signal stays ignored (diff/signal-ignored)
    env --default-signal=INT,TERM,HUP \
        tracetool analyze -o "$t/a.db" "$t/s.bin" > /dev/null 2>&1 &
    pid=$!
    i=0
    while [ ! -e "$t/a.db.tmp-$pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    # this run's own file: its signal handlers are in place once it exists
    [ -e "$t/a.db.tmp-$pid" ] && echo "$sig: temporary database created beside the target"
    kill -"$sig" $pid
    wait $pid 2> /dev/null
    echo "$sig: exit status $?"
    cmp -s "$t/a.db" "$t/before" && echo "$sig: previous database byte-identical"
    if ls "$t" | grep -q 'a\.db\.tmp-'; then echo "$sig: temporary file left"; else echo "$sig: no temporary file left"; fi
    [ -e "$t/a.db.lock" ] && echo "$sig: lock file left"
done
# the next successful run cleans up after the killed one
tracetool analyze -o "$t/a.db" -m an-map.txt an-v1.txt > /dev/null && echo "rerun: ok"
ls "$t" | grep -q 'a\.db\.tmp-' && echo "rerun: temporary file still there" || echo "rerun: stale temporary file removed"
[ -e "$t/a.db.lock" ] && echo "rerun: lock file still there" || echo "rerun: no lock file left"
tracetool query "$t/a.db" "select count(*) as traces from trace"
