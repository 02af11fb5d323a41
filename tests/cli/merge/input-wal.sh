#!/bin/sh
# An input whose write-ahead log holds committed changes (a sqlite3 session that wrote a row
# and is still open, or was killed) is read as query reads it, log included: merge's own
# connection keeps its file exclusive, but an attached input reads with normal locking.
# A merge that stops part-way leaves no -wal or -shm file beside an input that had none.
set -u
t=$TT_TMP/merge-input-wal
rm -rf "$t" && mkdir -p "$t"
tracetool analyze -o "$t/in.db" ../../samples/stacks.folded > /dev/null 2>&1 || exit 1
# note NAME VALUE: a committed row left in the log by a process that exits without closing
note() {
    python3 -c "
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('PRAGMA wal_autocheckpoint = 0')
c.execute(\"INSERT INTO metadata(trace_id, name, str_value) VALUES (1, ?, 'x')\", ('note_' + sys.argv[2],))
os._exit(0)" "$1" "$2"
}
notes() {
    python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(sys.argv[2] + ':', [r[0] for r in c.execute(\"SELECT name FROM metadata WHERE name LIKE 'note^_%' ESCAPE '^' ORDER BY 1\")])" "$1" "$2"
}
note "$t/in.db" killed
[ -s "$t/in.db-wal" ] && echo "input log with frames"
tracetool merge -o "$t/out.db" "$t/in.db" > /dev/null; echo "merge, writer gone: exit $?"
notes "$t/out.db" "merged notes"
# a live session that wrote a row and keeps its connection open
rm -f "$t/held"
python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('PRAGMA wal_autocheckpoint = 0')
c.execute(\"INSERT INTO metadata(trace_id, name, str_value) VALUES (1, 'note_live', 'x')\")
open(sys.argv[2], 'w').close()
time.sleep(8)" "$t/in.db" "$t/held" &
holder=$!
i=0
while [ ! -e "$t/held" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
tracetool merge -o "$t/out2.db" "$t/in.db" > /dev/null; echo "merge, writer open: exit $?"
kill $holder 2> /dev/null
wait $holder 2> /dev/null
notes "$t/out2.db" "merged notes"
# part-way: a file stamped as a tracetool database without its tables fails after it is
# attached; the merge is abandoned and no log is left beside either input
tracetool analyze -o "$t/ok.db" ../../samples/stacks.folded > /dev/null 2>&1 || exit 1
python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute('PRAGMA journal_mode = WAL')
c.execute('PRAGMA application_id = 1414808642')
c.execute('PRAGMA user_version = 1')
c.execute('CREATE TABLE trace (trace_id INTEGER PRIMARY KEY)')
c.commit()
c.close()" "$t/bad.db"
tracetool merge -o "$t/out3.db" "$t/ok.db" "$t/bad.db" > /dev/null 2> "$t/err"
echo "merge of a broken input: exit $?"
sed "s|$t/||g" "$t/err"
cd "$t" && ls ok.db* bad.db* out3.db* 2> /dev/null
exit 0
