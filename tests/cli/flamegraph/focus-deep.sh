#!/bin/sh
# --focus on a 20,000-deep recursion (main, then f;f;g repeated) where every call has
# self time, so every callsite is a weighted stack: each callsite's focused node comes from
# its parent's (linear in the callsites; every stack walked whole took minutes). Then the
# same with --fold-recursion, a focus that matches once (main), none, --reverse --focus on
# a 2,000-deep one, and a folded stack as deep as folded input goes (4,095 frames).
set -u
cd "$TT_TMP" || exit 1
deep() { # N FILE
    awk -v N="$1" 'BEGIN {
        print "format legacy 3 dual"; print "thread 1 main"
        print "method 0x4 a.B main ()V B.java"; print "method 0x8 a.B f (I)I B.java"
        print "method 0xc a.B g (I)I B.java"
        print "ev 1 0x4 enter 0 0"
        for (i = 0; i < N; i++) print "ev 1 " (i % 3 == 2 ? "0xc" : "0x8") " enter " 1 + i " " 1 + i
        for (i = N - 1; i >= 0; i--)
            print "ev 1 " (i % 3 == 2 ? "0xc" : "0x8") " exit " 2 * N - i " " 2 * N - i
        print "ev 1 0x4 exit " 2 * N + 1 " " 2 * N + 1 }' > s.txt && gen_art s.txt "$2"
}
deep 20000 a.trace && deep 2000 b.trace || exit 1
sum() {
    awk 'NR > 1 {n++; if ($1 > d) d = $1; s += $4} NR <= 4 || NR > 1 && $1 < 2 {print}
         {last = $0} END {print "last: " last; print n " frames, depth " d ", self " s}'
}
for o in "--focus a.B.g" "--focus a.B.g --fold-recursion" "--focus main"; do
    echo "== $o"
    tracetool flamegraph --format tsv --max-frames 0 $o a.trace | sum
done
tracetool flamegraph --format tsv --focus nothing a.trace; echo "no match: exit $?"
echo "== --reverse --focus a.B.g (2000 deep)"
tracetool flamegraph --format tsv --max-frames 0 --reverse --focus a.B.g b.trace | sum
awk 'BEGIN {s = "main"; for (i = 0; i < 5000; i++) s = s ";f"; print s ";leaf 3"}' > d.folded
echo "== folded, --focus ^f$"
tracetool flamegraph --format tsv --max-frames 0 --focus '^f$' d.folded 2>&1 | sum
