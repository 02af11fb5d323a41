#!/bin/sh
# A shard on a read-only volume with the empty DB-wal and the DB-shm that any read-only
# SQLite reader (sqlite3, Python) leaves beside a WAL database: query read it, merge attached
# it on its read-write connection and failed with "disk I/O error". merge now attaches its
# inputs read-only, as query opens them (merge(1)). Nothing in the directory is writable
# (chmod 0444 files, 0555 directory: tests/cli/readonly-run.sh).
set -u
bin=$(readlink -f "$(command -v tracetool)")
t=$TT_TMP/mergero
rm -rf "$t" && mkdir -p "$t/ro" "$t/w" && chmod 755 "$TT_TMP" "$t" && chmod 777 "$t/w"
tracetool analyze -o "$t/ro/a.db" ../../samples/stacks.folded > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/ro/b.db" ../../samples/perf-fib.txt.gz > /dev/null 2>&1 || exit 1
for f in a b; do
    python3 -c "
import sqlite3, sys
c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
c.execute('SELECT COUNT(*) FROM trace').fetchall()
c.close()" "$t/ro/$f.db" || exit 1
done
ls "$t/ro"
cat > "$t/run.sh" << SCRIPT
cd "$t/ro" || exit 1
touch probe 2> /dev/null && { echo "directory is writable: not testing the read-only case"; rm -f probe; }
"$bin" query --format csv a.db "select count(*) from trace"; echo "query: exit \$?"
"$bin" merge -o ../w/m.db a.db b.db; echo "merge: exit \$?"
"$bin" query --format csv ../w/m.db "select count(*) from trace"
exit 0
SCRIPT
chmod 755 "$t/run.sh"
chmod 444 "$t/ro"/*
ro_dir=$t/ro ro_script=$t/run.sh
. ../cli/readonly-run.sh
ls "$t/ro"
