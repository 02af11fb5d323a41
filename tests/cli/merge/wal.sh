#!/bin/sh
# A write-ahead log left beside the output by a writer of the old file (a killed sqlite3
# session or query --write: committed frames not yet checkpointed) must not be read as the log
# of the file merge --append or analyze --append renames over it: its frames go into the old
# file first, so the result holds the edit and the merged traces and is not corrupt; the log
# of a file since deleted is removed. A log another process keeps in use is an error (exit 2)
# and the database is left as it was.
set -u
t=$TT_TMP/merge-wal
rm -rf "$t" && mkdir -p "$t"
tracetool analyze -o "$t/a.db" ../../samples/stacks.folded > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/b.db" ../../samples/perf-fib.txt.gz > /dev/null 2>&1 || exit 1
# edit NAME: a committed UPDATE left in NAME-wal by a process that exits without closing
edit() {
    python3 -c "
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('PRAGMA wal_autocheckpoint = 0')
c.execute(\"UPDATE trace SET package = 'edited'\")
os._exit(0)" "$1"
}
check() {
    python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(sys.argv[2] + ':', c.execute('PRAGMA integrity_check').fetchone()[0],
      c.execute('SELECT COUNT(*), SUM(package IS \'edited\') FROM trace').fetchone())" "$1" "$2"
}
cp "$t/a.db" "$t/out.db" && edit "$t/out.db"
[ -s "$t/out.db-wal" ] && echo "log with frames beside the output"
tracetool merge --append -o "$t/out.db" "$t/b.db" > /dev/null; echo "merge --append: exit $?"
check "$t/out.db" "merged (traces, edited)"
cp "$t/a.db" "$t/an.db" && edit "$t/an.db"
tracetool analyze --append -o "$t/an.db" ../../samples/samples.jsonl > /dev/null 2>&1
echo "analyze --append: exit $?"
check "$t/an.db" "analysed (traces, edited)"
# the log of a file since deleted: not the new file's either
cp "$t/a.db" "$t/gone.db" && edit "$t/gone.db" && rm "$t/gone.db"
tracetool merge -o "$t/gone.db" "$t/b.db" > /dev/null; echo "merge over a deleted file's log: exit $?"
check "$t/gone.db" "new file (traces, edited)"
# the log in use: a reader holds a snapshot that needs its frames
cp "$t/a.db" "$t/busy.db" && edit "$t/busy.db"
rm -f "$t/held"
python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN'); c.execute('SELECT COUNT(*) FROM trace').fetchall()
open(sys.argv[2], 'w').close()
time.sleep(8)" "$t/busy.db" "$t/held" &
holder=$!
i=0
while [ ! -e "$t/held" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
tracetool merge --append -o "$t/busy.db" "$t/b.db" > /dev/null 2> "$t/err"
echo "log in use: exit $?"
sed "s|$t/||g" "$t/err"
kill $holder 2> /dev/null
wait $holder 2> /dev/null
check "$t/busy.db" "left as it was (traces, edited)"
