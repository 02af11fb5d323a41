#!/bin/sh
# analyze --format jsonl writes the rows of the database, one JSON object per row with its
# table under "table": the same rows, column for column, as the database holds (every table);
# with --append only the rows of the new traces and the shared tables.
set -u
t=$TT_TMP/an-jsonl
rm -rf "$t" && mkdir -p "$t"
s=../../samples
tracetool analyze --format jsonl -o "$t/a.db" -m $s/methodMapping.txt $s/beat.bin $s/reports.jsonl \
    $s/frames.jsonl $s/samples.jsonl $s/startup-events.jsonl $s/startup-am.txt $s/sampling.bin \
    > "$t/a.jsonl" 2> /dev/null || echo "analyze failed"
tracetool analyze --append --format jsonl -o "$t/a.db" -m $s/methodMapping.txt $s/stacks.folded \
    $s/beat.bin > "$t/b.jsonl" 2> /dev/null || echo "append failed"
python3 - "$t/a.db" "$t/a.jsonl" "$t/b.jsonl" <<'PY'
import collections, json, sqlite3, sys
db, first, second = sys.argv[1:]
c = sqlite3.connect(db)
tables = [r[0] for r in c.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY rowid")]
rows = collections.defaultdict(collections.Counter)
order = []
for path in (first, second):
    for line in open(path):
        o = json.loads(line)
        t = o.pop("table")
        if not order or order[-1] != t:
            order.append(t)
        cols = [r[1] for r in c.execute("PRAGMA table_info(%s)" % t)]
        assert list(o) == cols, (t, list(o), cols)
        rows[t][tuple(o[k] for k in cols)] += 1
shared = {"method_mapping", "method", "module", "symbol", "symbolized_pc", "args"}
for t in tables:
    want = collections.Counter(c.execute("SELECT * FROM %s" % t).fetchall())
    got = rows[t]
    if t in shared:  # given whole by both runs
        got = collections.Counter({k: 1 for k in got})
    print("%-18s %5d rows: %s" % (t, sum(want.values()),
                                 "same as the database" if got == want else "DIFFERENT"))
print("second run: %d trace row(s)" % sum(1 for l in open(second) if '"table":"trace"' in l))
PY
