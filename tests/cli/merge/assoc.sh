#!/bin/sh
# Merge is associative and order-independent (same rows modulo ids): ((a+b)+c), (a+(b+c)) and
# (c+b+a) compare equal; merging again (--append, or a shard given twice) adds nothing.
set -u
t=$TT_TMP/merge-assoc
rm -rf "$t" && mkdir -p "$t"
s=../../samples
an() { tracetool analyze -m $s/methodMapping.txt "$@" > /dev/null 2>&1; }
an -o "$t/a.db" $s/beat.bin $s/reports.jsonl || echo "a failed"
an -o "$t/b.db" $s/perf-fib.txt.gz $s/samples.jsonl $s/reports.log || echo "b failed"
an -o "$t/c.db" $s/startup-events.jsonl $s/frames.jsonl $s/beat.bin || echo "c failed"
tracetool merge -o "$t/ab.db" "$t/a.db" "$t/b.db" > /dev/null &&
    tracetool merge -o "$t/ab_c.db" "$t/ab.db" "$t/c.db" 2> /dev/null
tracetool merge -o "$t/bc.db" "$t/b.db" "$t/c.db" > /dev/null &&
    tracetool merge -o "$t/a_bc.db" "$t/a.db" "$t/bc.db" 2> /dev/null
tracetool merge -o "$t/cba.db" "$t/c.db" "$t/b.db" "$t/a.db"
python3 ../cli/merge/dbcanon.py "$t/ab_c.db" "$t/a_bc.db" "$t/cba.db"
cp "$t/cba.db" "$t/again.db"
tracetool merge --append -o "$t/again.db" "$t/a.db" "$t/b.db" "$t/c.db" "$t/a.db"
python3 ../cli/merge/dbcanon.py "$t/cba.db" "$t/again.db"
tracetool merge --format json -o "$t/twice.db" "$t/a.db" "$t/a.db" | sed "s|$t|T|"
tracetool query --format csv "$t/twice.db" "SELECT COUNT(*) AS traces FROM trace"
