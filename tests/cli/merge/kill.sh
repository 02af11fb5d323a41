#!/bin/sh
# Atomicity of merge (storage.md 5.3): killed while merging into an existing database
# (--append), the database stays byte-identical; SIGINT and SIGTERM remove the temporary
# file, a later run removes the one kill -9 left. An input locked by another process (an
# exclusive SQLite lock, held by python3) holds merge at a known point: it waits for the lock
# (busy timeout) with the temporary database already built aside.
set -u
t=$TT_TMP/merge-kill
rm -rf "$t" && mkdir -p "$t"
tracetool analyze -o "$t/a.db" ../../samples/stacks.folded > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/b.db" ../../samples/perf-fib.txt.gz > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/c.db" ../../samples/samples.jsonl > /dev/null 2>&1 || exit 1
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA journal_mode = DELETE')" "$t/c.db"
cp "$t/a.db" "$t/out.db"
cp "$t/out.db" "$t/before"
for sig in KILL INT TERM; do
    rm -f "$t/held"
    python3 -c "
import sqlite3, sys, time, os
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN EXCLUSIVE')
open(sys.argv[2], 'w').close()
time.sleep(8)" "$t/c.db" "$t/held" &
    holder=$!
    i=0
    while [ ! -e "$t/held" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    # default actions: a background job of a non-interactive shell has INT ignored, and an
    # ignored signal stays ignored (diff/signal-ignored)
    env --default-signal=INT,TERM,HUP \
        tracetool merge --append -o "$t/out.db" "$t/b.db" "$t/c.db" > /dev/null 2>&1 &
    pid=$!
    i=0
    while [ ! -e "$t/out.db.tmp-$pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    [ -e "$t/out.db.tmp-$pid" ] && echo "$sig: temporary database created beside the target"
    sleep 0.3
    kill -"$sig" $pid
    wait $pid 2> /dev/null
    echo "$sig: exit status $?"
    kill $holder 2> /dev/null
    wait $holder 2> /dev/null
    cmp -s "$t/out.db" "$t/before" && echo "$sig: database byte-identical"
    if ls "$t" | grep -q 'out\.db\.tmp-'; then echo "$sig: temporary file left"; else echo "$sig: no temporary file left"; fi
    [ -e "$t/out.db.lock" ] && echo "$sig: lock file left"
done
tracetool merge --append -o "$t/out.db" "$t/b.db" "$t/c.db" > /dev/null && echo "rerun: ok"
ls "$t" | grep -q 'out\.db\.tmp-' && echo "rerun: temporary file still there" || echo "rerun: stale temporary file removed"
tracetool query "$t/out.db" "SELECT COUNT(*) AS traces FROM trace"
