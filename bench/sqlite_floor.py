#!/usr/bin/env python3
"""The SQLite floor for analyze's biggest table: writes N rows shaped like the slices of a
method-beat buffer (same columns, 60,000 distinct names, the same pragmas as `analyze`) with
one INSERT ... SELECT inside SQLite, builds the three slice indexes, commits, and prints
'floor_s=<seconds>'. No binding, no parsing: no client of this SQLite can write these rows
faster, so it bounds what `analyze` can reach on this machine.
Usage: bench/sqlite_floor.py DB N"""
import os, sqlite3, sys, time

path, n = sys.argv[1], int(sys.argv[2])
if os.path.exists(path):
    os.unlink(path)
t0 = time.monotonic()
db = sqlite3.connect(path, isolation_level=None)
for p in ("page_size=8192", "journal_mode=OFF", "synchronous=OFF", "locking_mode=EXCLUSIVE",
          "temp_store=MEMORY", "cache_size=-65536"):
    db.execute("PRAGMA " + p)
db.execute("BEGIN")
db.execute("""CREATE TABLE slice (id INTEGER PRIMARY KEY, trace_id INTEGER NOT NULL,
  utid INTEGER NOT NULL, ts INTEGER NOT NULL, dur INTEGER NOT NULL, depth INTEGER NOT NULL,
  parent_id INTEGER, name TEXT NOT NULL, category TEXT NOT NULL, frame_id INTEGER,
  callsite_id INTEGER, method_id INTEGER, end_kind TEXT NOT NULL CHECK (end_kind IN
  ('exact','inferred','unterminated','truncated')), thread_dur INTEGER, self_dur INTEGER NOT NULL,
  self_thread_dur INTEGER, block_dur INTEGER, sample_count INTEGER, gap_before INTEGER,
  gap_after INTEGER, msg_id INTEGER, type TEXT, is_recursive INTEGER NOT NULL DEFAULT 0,
  wakeup_utid INTEGER, alloc_objects INTEGER, alloc_bytes INTEGER, maj_flt INTEGER,
  nv_csw INTEGER, niv_csw INTEGER, arg_set_id INTEGER)""")
db.execute("""WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?)
  INSERT INTO slice (id, trace_id, utid, ts, dur, depth, parent_id, name, category, method_id,
                     end_kind, self_dur)
  SELECT i, 1, 1, i * 5000000, 5000000, i % 30, CASE WHEN i % 30 THEN i - 1 END,
         'com.example.app.pkg' || (i * 7919 % 60000) || '.Klass.method(int,java.lang.String)',
         'beat', i * 7919 % 60000, 'exact', 1000000 FROM c""", (n,))
db.execute("CREATE INDEX slice_by_thread ON slice(trace_id, utid, ts)")
db.execute("CREATE INDEX slice_by_name ON slice(name)")
db.execute("CREATE INDEX slice_by_parent ON slice(parent_id)")
db.execute("COMMIT")
db.close()
print(f"floor_s={time.monotonic() - t0:.3f}")
