#!/bin/sh
# Temporary databases of raw sides are removed on SIGINT/SIGTERM/SIGHUP: diff reads a FIFO
# as its new side; after the base side is analysed it blocks in the FIFO, is signalled,
# and must leave nothing in TMPDIR.
set -u
t=$TT_TMP/diffsig
mkdir -p "$t/tmp"
for sig in INT TERM HUP; do
    rm -f "$t/fifo"
    mkfifo "$t/fifo"
    TMPDIR="$t/tmp" tracetool diff -m 2> /dev/null # usage error: nothing created
    TMPDIR="$t/tmp" tracetool diff --base-mapping an-map.txt an-v1.bin "$t/fifo" > /dev/null 2>&1 &
    pid=$!
    i=0
    while [ ! -f "$(ls -d "$t"/tmp/tracetool-diff-*/base.db 2> /dev/null | head -n 1)" ] && [ $i -lt 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    kill -s "$sig" "$pid"
    wait "$pid"
    echo "$sig: exit $?, left: $(ls "$t/tmp" | wc -l)"
done
