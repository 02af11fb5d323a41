#!/bin/sh
# An input whose lock another process holds (merge(1)): the merge waits for its writer up to
# 5 seconds. A SIGINT during that wait stops it at once (the wait for the input's check,
# which opens it before the copy, included): the run ends by the signal well within 2.5 s of
# it, where the 5 s wait would end 4.5 s later. After the whole wait, the message says that
# another process holds the lock, also when the input's -wal holds committed changes (not
# "a read-only file system or directory": this one is writable), exit status 2.
set -u
s=$(cd ../../samples && pwd)
t=$TT_TMP/merge-lock-wait
rm -rf "$t" && mkdir -p "$t" && cd "$t" || exit 1
cat > hold.py <<'P'
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA locking_mode=EXCLUSIVE")
if sys.argv[3] == "wal":  # a committed change left in the log, not checkpointed
    c.execute("PRAGMA wal_autocheckpoint=0")
    c.execute("BEGIN IMMEDIATE"); c.execute("UPDATE trace SET package = 'x'"); c.execute("COMMIT")
c.execute("BEGIN EXCLUSIVE"); c.execute("CREATE TABLE IF NOT EXISTS zz(x)")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
c.execute("ROLLBACK")
P
hold() { # what: starts the holder of a fresh in.db, returns once it holds the lock
    rm -f in.db* h.out
    tracetool analyze -o in.db "$s/reports.jsonl" > /dev/null 2>&1 || exit 1
    python3 hold.py in.db 20 "$1" > h.out &
    holder=$!
    i=0; while ! grep -q held h.out 2> /dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
}
hold none
env --default-signal=INT tracetool merge -o out.db in.db > /dev/null 2> err &
pid=$!
# the merge has made its temporary file and installed its handler: it is in the wait
i=0; while [ ! -e out.db.tmp-$pid ] && [ $i -lt 600 ]; do sleep 0.01; i=$((i + 1)); done
sleep 0.5
sent=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
ms=$((($(date +%s%N) - sent) / 1000000))
kill $holder; wait $holder 2> /dev/null || :
echo "SIGINT in the wait: exit status $rc, stopped within 2.5 s: $([ $ms -lt 2500 ] && echo yes || echo "no ($ms ms)")"
echo "left: [$(ls out.db* 2> /dev/null | tr '\n' ' ')] stderr: [$(cat err)]"
for what in none wal; do
    hold $what
    tracetool merge -o out.db in.db > /dev/null 2> err
    echo "$what: exit status $?"
    sed "s|$TT_TMP|TMP|g" err
    kill $holder; wait $holder 2> /dev/null || :
done
