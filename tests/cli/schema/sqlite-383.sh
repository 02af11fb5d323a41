#!/bin/sh
# Every table, index, view and trigger of a database tracetool writes is SQL that SQLite
# 3.8.3 parses (storage.md 1, tracetool-schema(5)): no index on an expression, no STRICT
# table, no generated column, no window function... A database of schema 4 to 6 written
# before (the unique indexes on IFNULL(...) expressions) gets plain indexes when it is next
# written, at its schema version; read-only commands leave it as it is.
set -u
t=$TT_TMP/schema-383
rm -rf "$t" && mkdir -p "$t"
tracetool analyze -o "$t/a.db" -m an-map.txt -m an-ignore.txt an-v1.bin > /dev/null 2>&1 ||
    echo "analyze failed"
python3 ../cli/schema/sqlite-383.py "$t/a.db"
# the indexes an older tracetool wrote
cp "$t/a.db" "$t/old.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(\"DROP INDEX method_mapping_pair; DROP INDEX ignored_method_name; CREATE UNIQUE INDEX method_mapping_key ON method_mapping(sha256, IFNULL(retrace_sha256, '')); CREATE UNIQUE INDEX ignored_method_key ON ignored_method(mapping_id, class_name, method_name, IFNULL(descriptor, ''))\"); c.commit()" "$t/old.db"
python3 ../cli/schema/sqlite-383.py "$t/old.db"
tracetool query "$t/old.db" "SELECT COUNT(*) AS ignored FROM ignored_method" > /dev/null &&
    python3 ../cli/schema/sqlite-383.py "$t/old.db" | tail -1
tracetool analyze --append -o "$t/old.db" -m an-map.txt -m an-ignore.txt an-v1.bin > /dev/null 2>&1 ||
    echo "analyze --append failed"
python3 ../cli/schema/sqlite-383.py "$t/old.db"
tracetool query --format csv "$t/old.db" "PRAGMA user_version; SELECT COUNT(*) AS ignored FROM ignored_method; SELECT COUNT(*) AS mappings FROM method_mapping"
# the same ignore file again, with and without the retrace mapping: keys still unique
tracetool analyze --append -o "$t/old.db" -m an-map.txt -m an-ignore.txt an-v1.txt > /dev/null 2>&1 ||
    echo "analyze --append failed"
tracetool query --format csv "$t/old.db" "SELECT COUNT(*) AS traces FROM trace; SELECT COUNT(*) AS ignored FROM ignored_method; SELECT COUNT(*) AS mappings FROM method_mapping"
# a database of schema 4 (written with the index on an expression) migrated
gunzip -c db-schema-v4-ignore.db.gz > "$t/v4.db"
python3 ../cli/schema/sqlite-383.py "$t/v4.db" | tail -1
tracetool analyze --append -o "$t/v4.db" ../../samples/stacks.folded > /dev/null 2>&1 ||
    echo "analyze --append failed"
python3 ../cli/schema/sqlite-383.py "$t/v4.db"
