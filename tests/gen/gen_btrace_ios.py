#!/usr/bin/env python3
"""Writes small btrace iOS databases (spec/samples.md 2.1.6) for tests/data/.

Usage: python3 tests/gen/gen_btrace_ios.py OUTDIR
Writes (gzipped, mtime 0): ios-bt-point.db.gz (version 3, CPUSampleModel rows),
ios-bt-interval-v2.db.gz (version 2, microseconds, CPUIntervalSampleModel rows),
ios-bt-interval-eq.db.gz (version 3, interval rows whose end equals their start),
ios-bt-batch.db.gz (version 3, CPUBatchSampleModel + CPUIntervalBatchSampleModel BLOBs),
ios-bt-wal.db.gz (ios-bt-point in WAL mode, fully checkpointed: header bytes 18-19 are 2),
and broken ones: ios-bt-cycle.db.gz (parent cycle), ios-bt-badblob.db.gz (batch BLOB of 21
bytes), ios-bt-nostack.db.gz (a sample naming a stack id that does not exist),
ios-bt-orphan.db.gz (a stack node whose parent does not exist).
The app image has the UUID of tests/data/macho/app (__TEXT at 0x100000000), loaded at
0x104000000: offsets 0x4000 _main, 0x4038 _mid, 0x407c _top, 0x4094 +[Foo bar:].
"""
import gzip, os, sqlite3, struct, sys

APP = 0x104000000
UIKIT = 0x1a0000000
IMAGES = [
    (APP, 0x8000, 0, "/private/var/containers/Bundle/Application/0A1B/Demo.app/app",
     "4C4C44AF-5555-3144-A1BC-C437781A73D8"),
    (UIKIT, 0x100000, 0, "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore",
     "00112233445566778899AABBCCDDEEFF"),
]
# stack tree: id, parent, address (root first by following parents)
NODES = [
    (1, 0, UIKIT + 0x1000),        # UIApplicationMain
    (2, 1, APP + 0x4000 + 0x20),   # main (return address)
    (3, 2, APP + 0x4038 + 0x10),   # mid
    (4, 3, APP + 0x407c + 0x4),    # top (leaf pc)
    (5, 2, APP + 0x4094),          # +[Foo bar:] (leaf pc)
    (6, 0, 0x1c0000010),           # a thread root in no image
    (7, 6, (0x8a5 << 48) | (UIKIT + 0x2000)),  # PAC bits set
]


def schema(db):
    db.executescript("""
CREATE TABLE BTraceModel(trace_id INTEGER, start_time INTEGER, end_time INTEGER,
  sdk_init_time INTEGER, os_version TEXT, bundle_id TEXT, dump_time INTEGER, tag TEXT,
  info TEXT, version INTEGER, main_tid INTEGER);
CREATE TABLE ImageInfoModel(trace_id INTEGER, address INTEGER, len INTEGER, type INTEGER,
  name TEXT, uuid TEXT);
CREATE TABLE ThreadInfoModel(trace_id INTEGER, tid INTEGER, name TEXT);
CREATE TABLE CallStackTableModel(trace_id INTEGER, nodes BLOB);
CREATE TABLE CPUSampleModel(trace_id INTEGER, tid INTEGER, start_time INTEGER,
  start_cpu_time INTEGER, stack_id INTEGER, alloc_size INTEGER, alloc_count INTEGER);
CREATE TABLE CPUIntervalSampleModel(trace_id INTEGER, tid INTEGER, start_time INTEGER,
  start_cpu_time INTEGER, stack_id INTEGER, end_time INTEGER, end_cpu_time INTEGER,
  alloc_size INTEGER, alloc_count INTEGER);
CREATE TABLE CPUBatchSampleModel(trace_id INTEGER, tid INTEGER, samples BLOB);
CREATE TABLE CPUIntervalBatchSampleModel(trace_id INTEGER, tid INTEGER, samples BLOB);
CREATE TABLE MemoryBatchSampleModel(trace_id INTEGER, tid INTEGER, samples BLOB);
""")


def base(db, version, nodes=NODES):
    schema(db)
    db.execute("INSERT INTO BTraceModel VALUES (7, 0, 0, 0, '17.4', 'com.example.demo', 0, "
               "'test', '', ?, 259)", (version,))
    for a, l, t, n, u in IMAGES:
        db.execute("INSERT INTO ImageInfoModel VALUES (7, ?, ?, ?, ?, ?)", (a, l, t, n, u))
    db.execute("INSERT INTO ThreadInfoModel VALUES (7, 259, 'main')")
    db.execute("INSERT INTO ThreadInfoModel VALUES (7, 4611, 'com.apple.worker')")
    blob = b"".join(struct.pack("<IIQ", i, p, a) for i, p, a in nodes)
    db.execute("INSERT INTO CallStackTableModel VALUES (7, ?)", (blob,))


def point_rows(db, nostack=False):
    # main thread: 10 ms in top, 5 ms in Foo bar, 10 ms in top again; ticks of 10 us
    t = 0
    for stack in [4] * 10 + [5] * 5 + [4] * 10:
        db.execute("INSERT INTO CPUSampleModel VALUES (7, 259, ?, ?, ?, 12, 340)",
                   (t, t * 9 // 10, stack))
        t += 100
    for k in range(4):
        db.execute("INSERT INTO CPUSampleModel VALUES (7, 4611, ?, ?, 7, 12, 340)",
                   (k * 500, k * 100))
    if nostack:
        db.execute("INSERT INTO CPUSampleModel VALUES (7, 259, 9000, 9000, 99, 1, 1)")


def interval_rows(db):
    # version 2: microseconds; merged runs of one stack
    rows = [(259, 0, 0, 4, 30000, 28000), (259, 30000, 28000, 5, 45000, 40000),
            (259, 45000, 40000, 4, 60000, 55000), (4611, 1000, 0, 7, 9000, 2000)]
    for tid, t0, c0, st, t1, c1 in rows:
        db.execute("INSERT INTO CPUIntervalSampleModel VALUES (7, ?, ?, ?, ?, ?, ?, 3, 10)",
                   (tid, t0, c0, st, t1, c1))


def interval_eq_rows(db):
    # version 3: interval rows whose end equals their start (points, samples.md 1), a run of
    # three in top, then a real interval in Foo bar
    for t in (0, 100, 200):
        db.execute("INSERT INTO CPUIntervalSampleModel VALUES (7, 259, ?, ?, 4, ?, ?, 3, 10)",
                   (t, t * 9 // 10, t, t * 9 // 10))
    db.execute("INSERT INTO CPUIntervalSampleModel VALUES (7, 259, 300, 270, 5, 500, 450, 3, 10)")


def batch(db, bad=False):
    pts = b"".join(struct.pack("<IIIII", t * 100, t * 80, 4 if t % 3 else 5, 20, 100 + t)
                   for t in range(12))
    if bad:
        pts += b"\0"
    db.execute("INSERT INTO CPUBatchSampleModel VALUES (7, 259, ?)", (pts,))
    ivs = struct.pack("<IIIIIII", 0, 0, 7, 2000, 150, 1, 2) + \
        struct.pack("<IIIIIII", 2000, 150, 6, 2500, 160, 1, 3)
    db.execute("INSERT INTO CPUIntervalBatchSampleModel VALUES (7, 4611, ?)", (ivs,))
    db.execute("INSERT INTO MemoryBatchSampleModel VALUES (7, 259, x'00')")


def write(outdir, name, fill, wal=False):
    tmp = os.path.join(outdir, name + ".tmp")
    if os.path.exists(tmp):
        os.unlink(tmp)
    db = sqlite3.connect(tmp)
    db.execute("PRAGMA page_size = 512")  # small fixtures and fuzz seeds
    if wal:  # header bytes 18-19 = 2; closing checkpoints the log and removes it
        db.execute("PRAGMA journal_mode = WAL")
    fill(db)
    db.commit()
    db.close()
    data = open(tmp, "rb").read()
    os.unlink(tmp)
    with open(os.path.join(outdir, name + ".db.gz"), "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as g:
            g.write(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    write(out, "ios-bt-point", lambda db: (base(db, 3), point_rows(db)))
    write(out, "ios-bt-interval-v2", lambda db: (base(db, 2), interval_rows(db)))
    write(out, "ios-bt-batch", lambda db: (base(db, 3), batch(db)))
    write(out, "ios-bt-interval-eq", lambda db: (base(db, 3), interval_eq_rows(db)))
    write(out, "ios-bt-wal", lambda db: (base(db, 3), point_rows(db)), wal=True)
    cyc = NODES + [(8, 9, APP + 0x4000), (9, 8, APP + 0x4038)]
    write(out, "ios-bt-cycle", lambda db: (base(db, 3, cyc), point_rows(db),
                                           db.execute("INSERT INTO CPUSampleModel VALUES "
                                                      "(7, 259, 5000, 5000, 8, 1, 1)")))
    write(out, "ios-bt-badblob", lambda db: (base(db, 3), batch(db, bad=True)))
    write(out, "ios-bt-nostack", lambda db: (base(db, 3), point_rows(db, nostack=True)))
    orphan = NODES + [(10, 42, APP + 0x4000)]
    write(out, "ios-bt-orphan", lambda db: (base(db, 3, orphan), point_rows(db),
                                            db.execute("INSERT INTO CPUSampleModel VALUES "
                                                       "(7, 259, 5000, 5000, 10, 1, 1)")))


main()
