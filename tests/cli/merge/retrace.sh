#!/bin/sh
# One methodMapping.txt analysed without and with --proguard gives two method mappings (the
# method names differ): merge A B and merge B A hold the same rows modulo ids, every slice's
# and issue's method row has the slice's name and the stack key, as after analyze
# then analyze --append. A database of schema 3 (method_mapping keyed by sha256 alone) is
# migrated by merge --append and analyze --append and keeps its rows.
set -u
t=$TT_TMP/merge-retrace
rm -rf "$t" && mkdir -p "$t"
s=../../samples
tracetool analyze -o "$t/A.db" -m $s/methodMapping-obfuscated.txt $s/beat.bin > /dev/null 2>&1 || echo "A failed"
tracetool analyze -o "$t/B.db" -m $s/methodMapping-obfuscated.txt --proguard $s/mapping.txt $s/beat.txt > /dev/null 2>&1 || echo "B failed"
tracetool merge -o "$t/AB.db" "$t/A.db" "$t/B.db" > /dev/null
tracetool merge -o "$t/BA.db" "$t/B.db" "$t/A.db" > /dev/null
python3 ../cli/merge/dbcanon.py "$t/AB.db" "$t/BA.db" && echo "merge A B = merge B A"
cp "$t/A.db" "$t/W.db"
tracetool analyze --append -o "$t/W.db" -m $s/methodMapping-obfuscated.txt --proguard $s/mapping.txt $s/beat.txt > /dev/null 2>&1 || echo "append failed"
python3 ../cli/merge/dbcanon.py "$t/AB.db" "$t/W.db" && echo "merge = analyze, analyze --append"
consistent() {
    tracetool query --format csv "$1" "SELECT (SELECT COUNT(*) FROM method_mapping) AS mappings, (SELECT COUNT(*) FROM slice s JOIN method m ON m.id = s.method_id WHERE s.name <> m.name) AS slices_misnamed, (SELECT COUNT(*) FROM issue i JOIN method m ON m.id = i.stack_key_method_id WHERE i.stack_key NOT LIKE '%' || m.name || '%') AS issues_misnamed, (SELECT COUNT(*) FROM slice WHERE method_id IS NOT NULL) > 0 AS slices_checked; PRAGMA user_version; PRAGMA integrity_check; PRAGMA foreign_key_check"
}
for db in AB W; do echo "$db:"; consistent "$t/$db.db"; done
# schema 3: the table as it was (UNIQUE sha256), without schema 4's columns, schema 5's
# table and schema 6's column, stamped 3
python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('PRAGMA foreign_keys = OFF')
for (v,) in c.execute(\"SELECT name FROM sqlite_master WHERE type = 'view'\").fetchall():
    c.execute('DROP VIEW ' + v)
c.executescript('''BEGIN;
CREATE TABLE mm3 (id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE, path TEXT NOT NULL,
  method_count INTEGER NOT NULL, retrace_sha256 TEXT);
INSERT INTO mm3 SELECT id, sha256, path, method_count, retrace_sha256 FROM method_mapping;
DROP TABLE method_mapping;
ALTER TABLE mm3 RENAME TO method_mapping;
ALTER TABLE thread DROP COLUMN arg_set_id;
ALTER TABLE call_node DROP COLUMN arg_set_id;
ALTER TABLE call_node DROP COLUMN is_recursive;
ALTER TABLE launch DROP COLUMN not_launched;
ALTER TABLE launch DROP COLUMN incomplete;
DROP TABLE ignored_method;
PRAGMA user_version = 3;
COMMIT;''')" "$t/A.db"
cp "$t/A.db" "$t/A3.db"
tracetool merge --append -o "$t/A.db" "$t/B.db" > /dev/null || echo "merge --append failed"
python3 ../cli/merge/dbcanon.py "$t/AB.db" "$t/A.db" && echo "schema 3 + merge --append = merge"
tracetool analyze --append -o "$t/A3.db" -m $s/methodMapping-obfuscated.txt --proguard $s/mapping.txt $s/beat.txt > /dev/null 2>&1 || echo "append to schema 3 failed"
python3 ../cli/merge/dbcanon.py "$t/AB.db" "$t/A3.db" && echo "schema 3 + analyze --append = merge"
consistent "$t/A3.db"
tracetool merge -o "$t/from3.db" "$t/B.db" "$t/A3.db" > /dev/null 2>&1 && echo "schema 4 merges"
