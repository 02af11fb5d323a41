#!/bin/sh
# merge = one analyze (storage.md 9): the sample inputs analysed as four shards and merged give
# the same rows, modulo ids, in every table and view, as one analyze of all the inputs; the
# merged database passes SQLite's integrity and foreign key checks.
set -u
t=$TT_TMP/merge-equal
rm -rf "$t" && mkdir -p "$t"
s=../../samples
sh symprof/mk.sh "$t/sp"
p=$t/sp
an() { tracetool analyze -m $s/methodMapping.txt -m $s/ignoreMethodMapping.txt -e $p/pprof -e $p/prof "$@" > /dev/null 2>&1; }
an -o "$t/s1.db" $s/beat.bin $s/reports.jsonl || echo "s1 failed"
an -o "$t/s2.db" $s/perf-fib.txt.gz $s/sampling.bin $s/stacks.folded || echo "s2 failed"
an -o "$t/s3.db" $s/samples.jsonl $p/samples.jsonl $s/startup-events.jsonl $s/startup-am.txt $s/startup-logcat.txt || echo "s3 failed"
an -o "$t/s4.db" $s/framestats.txt $s/frames.jsonl $s/reports.log $p/perf-mmap.txt $s/ios-lag.json || echo "s4 failed"
an -o "$t/all.db" $s/beat.bin $s/reports.jsonl $s/perf-fib.txt.gz $s/sampling.bin $s/stacks.folded \
    $s/samples.jsonl $p/samples.jsonl $s/startup-events.jsonl $s/startup-am.txt \
    $s/startup-logcat.txt $s/framestats.txt $s/frames.jsonl $s/reports.log $p/perf-mmap.txt \
    $s/ios-lag.json ||
    echo "all failed"
tracetool merge -o "$t/m.db" "$t/s1.db" "$t/s2.db" "$t/s3.db" "$t/s4.db"
python3 ../cli/merge/dbcanon.py "$t/all.db" "$t/m.db"
tracetool query --format csv "$t/m.db" "PRAGMA integrity_check; PRAGMA foreign_key_check; PRAGMA user_version; PRAGMA journal_mode"
# every table that has rows in one analyze has rows here: the comparison is not vacuous
tracetool query --format csv "$t/m.db" "SELECT 'symbols', COUNT(*) > 0 FROM symbol UNION ALL SELECT 'wakeups', COUNT(*) > 0 FROM wakeup UNION ALL SELECT 'call_nodes', COUNT(*) > 0 FROM call_node UNION ALL SELECT 'segments', COUNT(*) > 0 FROM startup_segment UNION ALL SELECT 'methods', COUNT(*) > 0 FROM method UNION ALL SELECT 'binary_images', COUNT(*) > 0 FROM binary_image UNION ALL SELECT 'ignored_methods', COUNT(*) > 0 FROM ignored_method"
