#!/bin/sh
# samples --jobs 2 on a thread long enough to rebuild its slices in two halves at once: the
# report (text and JSON) is byte for byte the one of --jobs 1. perf script text of 40,000
# samples on one thread, a random walk over stacks with recursion, repeats and gaps (run in
# tests/data).
set -u
f=$TT_TMP/long.txt
awk 'BEGIN {
    srand(7); t = 1000; d = 1; st[0] = "main"
    split("alpha beta gamma delta alpha", fn, " ")
    for (i = 0; i < 40000; i++) {
        r = rand()
        if (r < 0.4 && d > 1) d -= 1 + int(rand() * (d - 1 < 3 ? d - 1 : 3))
        else if (r < 0.8 && d < 30) for (k = int(rand() * 3) + 1; k > 0 && d < 30; k--) st[d++] = fn[int(rand() * 5) + 1]
        t += rand() < 0.005 ? 0.05 + rand() * 0.2 : 0.001
        printf "long 100/100 %.6f: 250000 cpu-clock:\n", t
        for (k = d - 1; k >= 0; k--) printf "\t%x %s+0x%x (/usr/bin/long)\n", 4096 + k, st[k], k
        printf "\n"
    } }' > "$f"
for fmt in text json; do
    tracetool samples --format $fmt --top 50 --jobs 1 "$f" > "$TT_TMP/j1.$fmt" || echo "jobs 1 failed"
    tracetool samples --format $fmt --top 50 --jobs 2 "$f" > "$TT_TMP/j2.$fmt" || echo "jobs 2 failed"
    cmp -s "$TT_TMP/j1.$fmt" "$TT_TMP/j2.$fmt" && echo "$fmt: same" || echo "$fmt: differs"
done
grep -c "^  *[0-9]" "$TT_TMP/j1.text" | sed 's/^/text rows: /'
