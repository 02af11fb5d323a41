#!/bin/sh
# A file stamped as a tracetool database (application_id, user_version) whose schema is not
# tracetool's is refused with exit 2 before any of its SQL runs: each table replaced in turn
# by a view of that name (a view's rows would be made up; a never-ending recursive view hung
# merge), a table of its schema version missing; as a merge input, by query, and as the
# --append target of analyze. A table younger than the file's version is not expected.
set -u
t=$TT_TMP/merge-hostile
rm -rf "$t" && mkdir -p "$t"
tracetool analyze -o "$t/a.db" ../../samples/stacks.folded > /dev/null 2>&1 || echo "analyze failed"
sql() { python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()" "$@"; }
r() { "$@" > "$t/stdout" 2> "$t/stderr"; rc=$?; sed "s|$t/||g" "$t/stderr" | head -2; return $rc; }
for tab in $(python3 -c "import sqlite3, sys; print(' '.join(r[0] for r in sqlite3.connect(sys.argv[1]).execute(\"SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 7) != 'sqlite_' ORDER BY name\")))" "$t/a.db"); do
    cp "$t/a.db" "$t/v.db"
    sql "$t/v.db" "DROP TABLE $tab; CREATE VIEW $tab AS SELECT 1 AS id"
    r tracetool merge -o "$t/m.db" "$t/v.db"; echo "  exit $?"
done
[ -e "$t/m.db" ] && echo "output written"
cp "$t/a.db" "$t/rec.db"
sql "$t/rec.db" "DROP TABLE stats; CREATE VIEW stats AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS id, 1 AS trace_id, 'x' AS name, NULL AS idx, 'info' AS severity, 'trace' AS source, 1 AS value, 'd' AS description FROM r"
r timeout 20 tracetool merge -o "$t/m.db" "$t/rec.db"; echo "never-ending view, merge: exit $?"
r timeout 20 tracetool query "$t/rec.db" "SELECT COUNT(*) FROM trace"; echo "never-ending view, query: exit $?"
r timeout 20 tracetool analyze --append -o "$t/rec.db" ../../samples/startup-am.txt; echo "never-ending view, analyze --append: exit $?"
cp "$t/a.db" "$t/nowakeup.db"
sql "$t/nowakeup.db" "DROP TABLE wakeup"
r tracetool merge -o "$t/m.db" "$t/nowakeup.db"; echo "no table wakeup: exit $?"
r tracetool analyze --append -o "$t/nowakeup.db" ../../samples/startup-am.txt; echo "no table wakeup, analyze --append: exit $?"
# schema 1 had no binary_image (schema 3) nor ignored_method (schema 5)
gunzip -c db-schema-v1.db.gz > "$t/v1.db"
r tracetool query "$t/v1.db" "SELECT COUNT(*) FROM trace"; echo "schema 1: exit $?"
