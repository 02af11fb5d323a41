#!/bin/sh
# Atomicity of analyze (storage.md 5.3): killed while the new database is being built, the
# previous database stays byte-identical; SIGINT removes the temporary file; a later run
# removes the temporary file a kill -9 left behind. A FIFO holds analyze at a known point:
# pass 1 hashes the FIFO's first content, pass 2 blocks re-opening it with the temporary
# database already created.
set -u
t=$TT_TMP/kill
mkdir -p "$t"
tracetool analyze -o "$t/a.db" -m an-map.txt an-v1.bin > /dev/null || exit 1
cp "$t/a.db" "$t/before"
for sig in KILL INT TERM; do
    rm -f "$t/fifo"
    mkfifo "$t/fifo"
    tracetool analyze -o "$t/a.db" "$t/fifo" > /dev/null 2>&1 &
    pid=$!
    cat an-v1.bin > "$t/fifo"          # pass 1 reads this and reaches EOF
    i=0
    while [ -z "$(ls "$t" | grep 'a\.db\.tmp-')" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    tmpfile=$(ls "$t" | grep 'a\.db\.tmp-')
    [ -n "$tmpfile" ] && echo "$sig: temporary database created beside the target"
    kill -"$sig" $pid
    wait $pid
    echo "$sig: exit status $?"
    cmp -s "$t/a.db" "$t/before" && echo "$sig: previous database byte-identical"
    if ls "$t" | grep -q 'a\.db\.tmp-'; then echo "$sig: temporary file left"; else echo "$sig: no temporary file left"; fi
done
# the next successful run cleans up after the killed one
tracetool analyze -o "$t/a.db" -m an-map.txt an-v1.txt > /dev/null && echo "rerun: ok"
ls "$t" | grep -q 'a\.db\.tmp-' && echo "rerun: temporary file still there" || echo "rerun: stale temporary file removed"
tracetool query "$t/a.db" "select count(*) as traces from trace"
