#!/bin/sh
# Temporary databases of raw sides are removed on SIGINT/SIGTERM/SIGHUP: diff reads a FIFO
# as its new side; after the base side is analysed it blocks in the FIFO, is signalled,
# and must leave nothing in TMPDIR.
# With the argument "ignored" (diff/signal-ignored), the signal is ignored when diff starts
# (`trap '' SIG`, as nohup does for HUP; a background job of a non-interactive shell has INT
# ignored) and stays ignored (tracetool(1), OUTPUT): diff -o goes on when the FIFO is fed,
# finishes normally and leaves only its output.
set -u
mode=${1:-}
t=$TT_TMP/diffsig
mkdir -p "$t/tmp"
sigs="INT TERM HUP"
[ "$mode" = ignored ] && sigs="HUP INT"
for sig in $sigs; do
    rm -f "$t/fifo" "$t/out.txt"
    mkfifo "$t/fifo"
    if [ "$mode" = ignored ]; then
        TMPDIR="$t/tmp" sh -c "trap '' $sig; exec tracetool diff -o '$t/out.txt' \
            --base-mapping an-map.txt --new-mapping an-map.txt an-v1.bin '$t/fifo'" > /dev/null 2>&1 &
    else
        TMPDIR="$t/tmp" tracetool diff -m 2> /dev/null # usage error: nothing created
        # default actions: a background job of this shell (and of the test runner) has INT
        # ignored, and an ignored signal stays ignored
        TMPDIR="$t/tmp" env --default-signal=INT,TERM,HUP \
            tracetool diff --base-mapping an-map.txt an-v1.bin "$t/fifo" > /dev/null 2>&1 &
    fi
    pid=$!
    i=0
    while [ ! -f "$(ls -d "$t"/tmp/tracetool-diff-*/base.db 2> /dev/null | head -n 1)" ] && [ $i -lt 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    kill -s "$sig" "$pid"
    if [ "$mode" = ignored ]; then
        sleep 0.2
        # bounded: a run the signal ended never opens the FIFO
        timeout 10 sh -c 'cat an-v1.bin > "$1"' sh "$t/fifo"
    fi
    wait "$pid"
    rc=$?
    if [ "$mode" = ignored ]; then
        echo "$sig: exit $rc, left: $(ls "$t/tmp" | wc -l), output lines: $(wc -l < "$t/out.txt" 2> /dev/null)"
    else
        echo "$sig: exit $rc, left: $(ls "$t/tmp" | wc -l)"
    fi
done
