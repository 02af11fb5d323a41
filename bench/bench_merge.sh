#!/bin/sh
# tracetool merge (issue 17): SHARDS (default 100) shard databases of REPORTS (default 10000)
# Matrix reports each merged into one. One shard is analysed; the others are copies of it
# with their own import keys (as shards of other reports would have), so the figure is
# merge's alone. Prints wall time, peak RSS, rows written and rows/s (target: 500,000).
set -u
shards=${MERGE_BENCH_SHARDS:-100}
n=${MERGE_BENCH_REPORTS:-10000}
d=${BENCH_DIR:-build-bench}/merge
rm -rf "$d" && mkdir -p "$d"
python3 - "$n" "$d" <<'PY'
import sys
n, d = int(sys.argv[1]), sys.argv[2]
jl = [l for l in open("samples/reports.jsonl") if l.strip()]
with open(d + "/reports.jsonl", "w") as f:
    for i in range(n):
        f.write(jl[i % len(jl)])
PY
tracetool analyze -o "$d/shard-0.db" -m samples/methodMapping.txt "$d/reports.jsonl" > /dev/null || exit 1
python3 - "$shards" "$d" <<'PY'
import hashlib, shutil, sqlite3, sys
shards, d = int(sys.argv[1]), sys.argv[2]
for i in range(1, shards):
    p = "%s/shard-%d.db" % (d, i)
    shutil.copy(d + "/shard-0.db", p)
    c = sqlite3.connect(p)
    c.execute("UPDATE trace SET import_key = ?", (hashlib.sha256(b"shard %d" % i).hexdigest(),))
    c.commit()
    c.close()
PY
# wall time and the CPU time of the merge itself (the machine may be shared)
python3 - "$d" "$d"/shard-*.db <<'PY'
import json, os, resource, subprocess, sys, time
d, shards = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
out = subprocess.run(["tracetool", "merge", "--format", "json", "-o", d + "/all.db"] + shards,
                     stdout=subprocess.PIPE, check=True).stdout
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = ru.ru_utime + ru.ru_stime
rows = json.loads(out)["rows"]
print("merge %d shards: wall_s=%.3f cpu_s=%.3f peak_rss_mib=%.1f rows=%d rows_per_s=%d "
      "rows_per_cpu_s=%d" % (len(shards), wall, cpu, ru.ru_maxrss / 1024, rows,
                              rows / max(wall, 0.001), rows / max(cpu, 0.001)))
PY
rm -rf "$d"
