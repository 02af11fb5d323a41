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
# two method mappings: merging Y then Z (which holds both) renumbers the methods of one
# mapping and keeps the other's, so method references are looked up row by row
tracetool analyze -o "$t/y.db" -m an-map.txt an-v1.bin > /dev/null 2>&1 || echo "y failed"
tracetool merge -o "$t/z.db" "$t/a.db" "$t/y.db" > /dev/null
tracetool merge -o "$t/yz.db" "$t/y.db" "$t/z.db" 2> /dev/null
python3 ../cli/merge/dbcanon.py "$t/z.db" "$t/yz.db"
tracetool query --format csv "$t/yz.db" "SELECT COUNT(*) AS mappings FROM method_mapping; SELECT COUNT(*) AS slices_without_method FROM slice WHERE method_id IS NULL AND category = 'beat'; PRAGMA foreign_key_check"
# a module both shards have, with other columns (one app build at two install paths, a path
# and none): the same row whatever the order, in one analyze as in merges
tracetool analyze -o "$t/p.db" ios-lag-2001.json > /dev/null 2>&1 || echo "p failed"
tracetool analyze -o "$t/q.db" ios-bignum.json > /dev/null 2>&1 || echo "q failed"
tracetool analyze -o "$t/pq.db" ios-lag-2001.json ios-bignum.json > /dev/null 2>&1 || echo "pq failed"
tracetool analyze -o "$t/qp.db" ios-bignum.json ios-lag-2001.json > /dev/null 2>&1 || echo "qp failed"
tracetool merge -o "$t/p_q.db" "$t/p.db" "$t/q.db" > /dev/null
tracetool merge -o "$t/q_p.db" "$t/q.db" "$t/p.db" > /dev/null
cp "$t/q.db" "$t/q+p.db" && tracetool merge --append -o "$t/q+p.db" "$t/p.db" > /dev/null
python3 ../cli/merge/dbcanon.py "$t/pq.db" "$t/qp.db" "$t/p_q.db" "$t/q_p.db" "$t/q+p.db"
tracetool query --format csv "$t/q_p.db" "SELECT name, path FROM module WHERE build_id = '4c4c44fd55553144a1aa9d2c5b4e0001'"
# --append that writes nothing leaves the file as it is (same inode); one that only improves
# a module's columns writes it
i1=$(stat -c %i "$t/q+p.db")
tracetool merge --append -o "$t/q+p.db" "$t/p.db" 2> /dev/null
[ "$(stat -c %i "$t/q+p.db")" = "$i1" ] && echo "nothing new: not rewritten"
cp "$t/p.db" "$t/pz.db"
tracetool query --write "$t/pz.db" "UPDATE module SET path = '/zz' WHERE build_id = '4c4c44fd55553144a1aa9d2c5b4e0001'"
tracetool merge --append -o "$t/pz.db" "$t/p.db" 2> /dev/null
tracetool query --format csv "$t/pz.db" "SELECT path FROM module WHERE build_id = '4c4c44fd55553144a1aa9d2c5b4e0001'"
