#!/bin/sh
# A merge stopped by SIGINT, SIGTERM or SIGHUP while it reads an input (merge(1)): the -wal
# and -shm files its reading made beside the input (which had none) are removed, as on any
# failure, and so is the temporary database; the run ends by the signal. The signal is sent
# once the input's -shm file shows the merge reading it (the input is large enough to take a
# while to copy). The statement copying the input stops at once: the merge appends to a
# database that holds the input's first trace, and a merge that went on to the end of the
# input (its copy not stopped) would print its note "1 of 2 traces already in" first.
set -u
t=$TT_TMP/merge-signal-wal
rm -rf "$t" && mkdir -p "$t" && cd "$t" || exit 1
gen_beat mapping -n 433 --seed 11 -o map.txt && gen_beat buffer --records 150000 --ids 433 --seed 11 -o b.bin || exit 1
gen_beat buffer --records 200 --ids 433 --seed 12 -o s.bin || exit 1
tracetool analyze -m map.txt -o in.db s.bin b.bin > /dev/null 2>&1 || exit 1
tracetool analyze -m map.txt -o first.db s.bin > /dev/null 2>&1 || exit 1
ls in.db-wal in.db-shm 2> /dev/null && echo "setup: -wal or -shm beside the input"
for sig in INT TERM HUP; do
    cp first.db out.db
    env --default-signal=INT,TERM,HUP tracetool merge --append -o out.db in.db > /dev/null 2> err &
    pid=$!
    i=0
    while [ ! -e in.db-shm ] && [ $i -lt 2000 ]; do sleep 0.01; i=$((i + 1)); done
    [ -e in.db-shm ] && echo "$sig: the merge reads the input"
    kill -"$sig" $pid
    wait $pid 2> /dev/null
    echo "$sig: exit status $?"
    left=$(ls in.db-wal in.db-shm out.db-* out.db.* 2> /dev/null | tr '\n' ' ')
    echo "$sig: left: [$left] stderr: [$(cat err)]"
    cmp -s out.db first.db || echo "$sig: out.db changed"
done
rm out.db
tracetool merge -o out.db in.db > /dev/null && echo "rerun: ok"
ls in.db-wal in.db-shm 2> /dev/null
tracetool query out.db "SELECT COUNT(*) AS traces FROM trace"
