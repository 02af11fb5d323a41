#!/bin/sh
# diff speed (issue 7): two databases with 1,000,000 call-tree rows (10,000 Matrix issue
# stacks of 100 nodes, 35,000 method names) and 100,000 samples each; the new one has 50
# classes' methods 50% slower. Prints the wall time and peak RSS of diff in text, JSON and
# folded-diff. Target: text diff under 2 s. Sizes: BENCH_DIFF_NODES, BENCH_DIFF_SAMPLES.
set -eu
d=$BENCH_DIR
nodes=${BENCH_DIFF_NODES:-1000000}
samples=${BENCH_DIFF_SAMPLES:-100000}
trees=$((nodes / 100))
make_db() { # db slow_factor_percent
    [ -f "$1" ] && return 0
    rm -f "$1.part"
    # a valid database with trace 1 and thread 1, then bulk rows through recursive CTEs
    tracetool analyze -o "$1.part" -m tests/data/an-map.txt tests/data/an-v1.bin > /dev/null
    tracetool query --write "$1.part" "
BEGIN;
WITH RECURSIVE t(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM t WHERE i < $trees)
INSERT INTO call_tree (id, trace_id, kind) SELECT 1000 + i, 1, 'issue_stack' FROM t;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $nodes - 1)
INSERT INTO call_node (id, tree_id, parent_id, depth, ordinal, name, count, total_dur, self_dur)
SELECT 1000000 + i, 1001 + i / 100,
       CASE WHEN i % 100 = 0 THEN NULL ELSE 1000000 + i - i % 100 + (i % 100 - 1) / 3 END,
       0, i % 100, 'com.bench.Class' || (i % 5000) || '.method' || (i % 7) || '(int)', 1,
       2 * (i % 97) * 1000000 * (CASE WHEN i % 5000 < 50 THEN $2 ELSE 100 END) / 100,
       (i % 97) * 1000000 * (CASE WHEN i % 5000 < 50 THEN $2 ELSE 100 END) / 100
FROM n;
WITH RECURSIVE f(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM f WHERE i < 2000)
INSERT INTO stack_frame (id, trace_id, name, kind) SELECT i, 1, 'libbench.so!fn' || i, 'native' FROM f;
INSERT INTO callsite (id, trace_id, parent_id, depth, frame_id) SELECT id, 1, NULL, 0, id FROM stack_frame;
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < $samples - 1)
INSERT INTO sample (trace_id, utid, ts, callsite_id, count) SELECT 1, 1, i * 1000000, i % 2000 + 1, 1 FROM s;
COMMIT;" > /dev/null
    mv "$1.part" "$1"
}
make_db "$d/diff-base-$nodes.db" 100
make_db "$d/diff-new-$nodes.db" 150
for fmt in text json folded-diff; do
    python3 bench/measure.py tracetool diff --format $fmt "$d/diff-base-$nodes.db" \
        "$d/diff-new-$nodes.db" 2> "$d/m.txt" || true  # exit 1: gates tripped, as planted
    echo "diff $nodes call-tree rows + $samples samples per side, $fmt: $(tail -n 1 "$d/m.txt")"
done
echo "target: text under 2 s"
