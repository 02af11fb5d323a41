#!/bin/sh
# A database with a damaged page (PRAGMA quick_check fails: the b-tree page header of table
# issue overwritten) is refused as a merge input (no output written, its rows would be lost)
# and as the --append target of merge and analyze: exit 2, "FILE: database is corrupt:
# <SQLite's first finding>". The reading commands read it as SQLite does (no whole-file check
# per question, tracetool-schema(5) INPUT CHECKS); query 'PRAGMA quick_check' names the damage.
set -u
t=$TT_TMP/merge-corrupt
rm -rf "$t" && mkdir -p "$t"
tracetool analyze -o "$t/a.db" -m ../../samples/methodMapping.txt ../../samples/beat.bin \
    ../../samples/reports.jsonl > /dev/null 2>&1 || echo "analyze failed"
python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); p = c.execute(\"SELECT rootpage FROM sqlite_master WHERE name = 'issue'\").fetchone()[0]; n = c.execute('PRAGMA page_size').fetchone()[0]; c.close()
d = bytearray(open(sys.argv[1], 'rb').read()); d[(p - 1) * n:(p - 1) * n + 208] = bytes([0x0d, 0xff, 0xff, 0x00, 0x50, 0xff, 0xff, 0x00]) + b'\xee' * 200
open(sys.argv[2], 'wb').write(d)
print('integrity_check:', 'ok' if sqlite3.connect(sys.argv[2]).execute('PRAGMA integrity_check').fetchone()[0] == 'ok' else 'fails')" "$t/a.db" "$t/c.db"
cp "$t/c.db" "$t/c-before.db"
r() { "$@" > "$t/stdout" 2> "$t/stderr"; rc=$?; sed "s|$t/||g; s|Page [0-9]*|Page N|" "$t/stderr" | head -2; return $rc; }
r tracetool merge -o "$t/m.db" "$t/c.db"; echo "merge input: exit $?"
[ -e "$t/m.db" ] && echo "output written"
r tracetool merge -o "$t/m.db" "$t/a.db" "$t/c.db"; echo "merge second input: exit $?"
[ -e "$t/m.db" ] && echo "output written"
r tracetool merge --append -o "$t/c.db" "$t/a.db"; echo "merge --append target: exit $?"
r tracetool analyze --append -o "$t/c.db" ../../samples/startup-am.txt; echo "analyze --append target: exit $?"
r tracetool query "$t/c.db" "SELECT COUNT(*) FROM issue"; echo "query: exit $?"
r tracetool export --format folded "$t/c.db"; echo "export: exit $?"
r tracetool query --format csv "$t/c.db" "PRAGMA quick_check"; echo "query quick_check: exit $?"
sed 's/Page [0-9]*/Page N/' "$t/stdout" | head -3
cmp -s "$t/c.db" "$t/c-before.db" && echo "corrupt database untouched"
r tracetool merge -o "$t/m.db" "$t/a.db"; echo "the intact database: exit $?"
