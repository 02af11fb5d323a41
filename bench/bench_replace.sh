#!/bin/sh
# analyze --append --replace: the time to replace a trace against its first import. A
# btrace input of 20,000 samples (depth 30, 8 threads, ~5,700 callsites: tests/gen/gen_btrace.c
# variant bench) is imported alone, then replaced in that database; then it is imported
# beside a second trace of 50,000 samples and replaced there, against a plain --append of it
# to the database holding the second trace only (the import's share of the replace; the
# rest is the delete). A delete that read the other trace's rows once per deleted row took
# minutes here. CPU seconds (user + system; wall on a shared machine varies) and wall.
set -eu
d=$BENCH_DIR/replace
mkdir -p "$d"
[ -f "$d/a.bin" ] || gen_btrace --variant bench:20000 "$d/a.bin" "$d/a-map.bin"
[ -f "$d/b.bin" ] || gen_btrace --variant bench:50000 "$d/b.bin" "$d/b-map.bin"
fig() { # measure output: "cpu s (wall s)"
    echo "$1" | sed -n 's/.*wall_s=\([0-9.]*\).*cpu_s=\([0-9.]*\).*/\2 s cpu (\1 s wall)/p'
}
m() { python3 bench/measure.py tracetool analyze "$@" 2>&1 >/dev/null | tail -n 1; }
rm -f "$d"/r1.db* "$d"/r2.db* "$d"/r3.db*
first=$(m -o "$d/r1.db" "$d/a.bin")
again=$(m --append --replace -o "$d/r1.db" "$d/a.bin")
echo "replace alone:  first import $(fig "$first"), --append --replace $(fig "$again")"
m -o "$d/r2.db" "$d/b.bin" "$d/a.bin" > /dev/null
m -o "$d/r3.db" "$d/b.bin" > /dev/null
app=$(m --append -o "$d/r3.db" "$d/a.bin")
rep=$(m --append --replace -o "$d/r2.db" "$d/a.bin")
echo "replace beside a 50,000-sample trace: --append of it $(fig "$app"), --append --replace $(fig "$rep")"
awk -v f="$(echo "$first" | sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p')" \
    -v r="$(echo "$rep" | sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p')" \
    'BEGIN { if (f > 0) printf "  replace beside / first import (cpu): %.2f x\n", r / f }'
rm -f "$d"/r1.db* "$d"/r2.db* "$d"/r3.db*
