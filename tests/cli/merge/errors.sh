#!/bin/sh
# merge refuses what it cannot merge (exit 2, the output untouched): a database of a newer
# schema, a file that is not a tracetool database or one whose schema version was reset, a
# damaged one, a missing input (the system's reason), no -o, no input. A
# database of an older schema (1) is read through the current one.
set -u
t=$TT_TMP/merge-errors
rm -rf "$t" && mkdir -p "$t"
tracetool analyze -o "$t/a.db" ../../samples/stacks.folded > /dev/null 2>&1
cp "$t/a.db" "$t/out.db"
cp "$t/a.db" "$t/new.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 99'); c.commit()" "$t/new.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE t (x)'); c.commit()" "$t/other.db"
m() { tracetool merge "$@" > "$t/stdout" 2> "$t/stderr"; rc=$?; sed "s|$t/||g; s|$t|DIR|g" "$t/stderr" | head -2; return $rc; }
m --append -o "$t/out.db" "$t/a.db" "$t/new.db"; echo "newer schema: exit $?"
m -o "$t/out.db" "$t/other.db"; echo "foreign database: exit $?"
# stamped with tracetool's application_id and schema version, without its tables
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE trace (id INTEGER PRIMARY KEY)'); c.execute('PRAGMA application_id = 1414808642'); c.execute('PRAGMA user_version = 3'); c.commit()" "$t/stamped.db"
m --append -o "$t/out.db" "$t/stamped.db"; echo "stamped, no tables: exit $?"
# a tracetool database (its application_id, its tables and traces) whose user_version was
# reset to 0: not "empty", and analyze --append does not try to create its tables again
cp "$t/a.db" "$t/v0.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 0'); c.commit()" "$t/v0.db"
m -o "$t/out.db" "$t/v0.db"; echo "user_version 0: exit $?"
tracetool analyze --append -o "$t/v0.db" ../../samples/samples.jsonl 2>&1 > /dev/null | sed "s|$t/||g"
m -o "$t/out.db" an-corrupt-db.dat; echo "not SQLite: exit $?"
m -o "$t/out.db" "$t/missing.db"; echo "missing: exit $?"
m -o "$t/out.db" "$t"; echo "directory: exit $?"
m --append -o "$t/out.db" "$t/out.db"; echo "itself: exit $?"
# a damaged page of a table (the sample rows) found only while copying names the input; a
# truncated output database named as such, with SQLite's reason
python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); p = c.execute(\"SELECT rootpage FROM sqlite_master WHERE name = 'sample'\").fetchone()[0]; n = c.execute('PRAGMA page_size').fetchone()[0]; c.close()
d = bytearray(open(sys.argv[1], 'rb').read()); d[(p - 1) * n:p * n] = b'\xff' * n; open(sys.argv[2], 'wb').write(d)" "$t/a.db" "$t/damaged.db"
m --append -o "$t/out.db" "$t/damaged.db"; echo "damaged table: exit $?"
head -c 8192 "$t/a.db" > "$t/cut.db" && cp "$t/cut.db" "$t/cut-before.db"
m --append -o "$t/cut.db" "$t/a.db"; echo "truncated output: exit $?"
cmp -s "$t/cut.db" "$t/cut-before.db" && echo "truncated output untouched"
m "$t/a.db"; echo "no -o: exit $?"
m -o "$t/out.db"; echo "no input: exit $?"
cmp -s "$t/a.db" "$t/out.db" && echo "output untouched"
ls "$t" | grep -q 'out.db.tmp-' && echo "temporary file left"
gunzip -c db-schema-v1.db.gz > "$t/v1.db"
tracetool merge -o "$t/from-v1.db" "$t/v1.db" && tracetool query "$t/from-v1.db" "PRAGMA user_version; SELECT COUNT(*) AS frames_without_file FROM stack_frame WHERE file IS NULL"
tracetool export --format folded "$t/v1.db" > "$t/v1.folded" && tracetool export --format folded "$t/from-v1.db" | cmp - "$t/v1.folded" && echo "schema 1 merged: folded identical"
# an input named "file:..." (relative) is a file, not an SQLite URI
(cd "$t" && cp a.db "file:odd?name.db" && tracetool merge -o odd.db "file:odd?name.db" > /dev/null &&
    echo "input named file:odd?name.db: merged")
# a source in a directory merge cannot write (no -shm file can be made beside it; as root,
# whom the mode does not stop, the case is not exercised) is read as an immutable file, as
# query reads it
mkdir -p "$t/ro" && cp "$t/a.db" "$t/ro/a.db" && chmod a-w "$t/ro"
tracetool merge -o "$t/from-ro.db" "$t/ro/a.db" > /dev/null && echo "source in a read-only directory: merged"
chmod u+w "$t/ro"
