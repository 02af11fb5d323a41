#!/bin/sh
# tracetool report on many reports: the sample reports repeated to N (default 100000) as a
# JSON array, as JSON lines and as a gzip-compressed logcat capture. Prints wall time, peak
# RSS (bounded by one report, not the file) and reports/s per container and format.
set -u
n=${REPORT_BENCH_N:-100000}
d=${BENCH_DIR:-build-bench}
python3 - "$n" "$d" <<'PY'
import sys
n, d = int(sys.argv[1]), sys.argv[2]
jl = [l for l in open("samples/reports.jsonl") if l.strip()]
log = [l for l in open("samples/reports.log") if "content[" in l]
with open(d + "/reports-big.json", "w") as a, open(d + "/reports-big.jsonl", "w") as b, \
        open(d + "/reports-big.log", "w") as c:
    a.write("[\n")
    for i in range(n):
        a.write((",\n" if i else "") + jl[i % len(jl)].rstrip("\n"))
        b.write(jl[i % len(jl)])
        c.write("11-23 05:30:00.000  8812  8812 I Matrix.Other: unrelated line %d\n" % i)
        c.write(log[i % len(log)])
    a.write("\n]\n")
PY
gzip -f -k "$d/reports-big.log"
m=samples/methodMapping.txt
[ -f "$m" ] && set -- -m "$m" || set --
run() {
    label=$1; shift
    r=$(python3 bench/measure.py tracetool report "$@" 2>&1 >/dev/null | tail -1)
    w=$(echo "$r" | sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p')
    echo "report $label: $r reports_per_s=$(python3 -c "print(int($n / max($w, 0.001)))")"
}
run "array --format jsonl" --format jsonl "$@" "$d/reports-big.json"
run "jsonl --format text" "$@" "$d/reports-big.jsonl"
run "log.gz --format jsonl" --format jsonl "$@" "$d/reports-big.log.gz"
run "jsonl --group" --group "$@" "$d/reports-big.jsonl"
