#!/bin/sh
# Two analyze runs writing one database at the same time (storage.md 5.3, 5.4): the second
# waits for the first (the lock file beside the database), then with --append reads what
# the first committed: both runs' traces are in the database, none is lost to a rename.
# Without --append the second run replaces the database after the first (as it would run
# after it). The first run is held inside its write phase by a btrace sampling file whose
# mapping beside it is a FIFO, written only once the second run is seen waiting.
set -u
t=$TT_TMP/concurrent
mkdir -p "$t"
cp ../../samples/sampling.bin "$t/s.bin"
for mode in --append replace; do
    opt=$mode
    [ "$mode" = replace ] && opt=
    rm -f "$t/same.db" "$t/s-mapping.bin" "$t"/err*
    mkfifo "$t/s-mapping.bin"
    tracetool analyze $opt -o "$t/same.db" "$t/s.bin" > /dev/null 2> "$t/err1" &
    p1=$!
    i=0
    while [ ! -e "$t/same.db.tmp-$p1" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    tracetool analyze $opt -o "$t/same.db" -m an-map.txt an-v1.bin > "$t/out2" 2> "$t/err2" &
    p2=$!
    i=0
    while ! grep -q waiting "$t/err2" 2> /dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    sed "s|$TT_TMP|TMP|g; s/process [0-9]*/process PID/" "$t/err2"
    cat ../../samples/sampling-mapping.bin > "$t/s-mapping.bin"
    wait $p1
    echo "$mode: first exit $?"
    wait $p2
    echo "$mode: second exit $?, $(grep -c imported "$t/out2") input imported"
    tracetool query "$t/same.db" "select id, source_format from trace order by id"
    ls "$t" | grep -q 'same\.db\.lock' && echo "$mode: lock file left"
done
exit 0
