#!/bin/sh
# samples --jobs 2 on a long thread of JSON-lines point and interval samples, where point runs
# straddle the ends of interval samples of the same stack (a run never holds an interval's
# end, samples.md 4.3): the report (text and JSON) is byte for byte the one of --jobs 1
# (run in tests/data).
set -u
f=$TT_TMP/long.jsonl
awk 'BEGIN {
    srand(11); t = 1000; split("alpha beta gamma", fn, " ")
    for (i = 0; i < 40000; i++) {
        t += rand() < 0.003 ? 30000000 : 1000000
        st = "\"main\",\"" fn[int(i / 7) % 3 + 1] "\""
        if (i % 50 == 3)
            printf "{\"ts_ns\":%.0f,\"end_ts_ns\":%.0f,\"tid\":1,\"type\":\"wait\",\"frames\":[%s]}\n", t, t + 1000000 * (1 + int(rand() * 9)) + 500000, st
        else
            printf "{\"ts_ns\":%.0f,\"tid\":1,\"frames\":[%s]}\n", t, st
    } }' > "$f"
for fmt in text json; do
    tracetool samples --format $fmt --top 50 --jobs 1 "$f" > "$TT_TMP/j1.$fmt" || echo "jobs 1 failed"
    tracetool samples --format $fmt --top 50 --jobs 2 "$f" > "$TT_TMP/j2.$fmt" || echo "jobs 2 failed"
    cmp -s "$TT_TMP/j1.$fmt" "$TT_TMP/j2.$fmt" && echo "$fmt: same" || echo "$fmt: differs"
done
grep "^slices:" "$TT_TMP/j1.text"
