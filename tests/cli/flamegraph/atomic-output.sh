#!/bin/sh
# flamegraph -o and html -o write FILE as export -o does (cli.md "Outputs"): beside FILE and
# renamed over it on success; a failed write leaves the previous FILE byte-identical and no
# temporary file; a symbolic link keeps pointing at its target, which is replaced; a FIFO
# or device (/dev/null) is written as it is, never replaced by a file.
set -u
t=$TT_TMP/atomic
mkdir -p "$t"
tracetool analyze -o "$t/s.db" ../../samples/stacks.folded > /dev/null
for cmd in "flamegraph $t/s.db" "html $t/s.db"; do
    c=${cmd%% *}
    printf 'previous\n' > "$t/prev"
    cp "$t/prev" "$t/before"
    (trap '' XFSZ; ulimit -f 1; tracetool $cmd -o "$t/prev" 2>&1) | sed "s|$TT_TMP|TMP|g"
    cmp -s "$t/prev" "$t/before" && echo "$c: failed write: previous file byte-identical"
    ls "$t" | grep -q '\.tmp-' && echo "$c: temporary file left"
    rm -f "$t/real" "$t/link"
    ln -s real "$t/link"
    tracetool $cmd -o "$t/link" && [ -L "$t/link" ] && [ -s "$t/real" ] &&
        echo "$c: link still a symbolic link, its target written"
    rm -f "$t/fifo" "$t/fifo.out"
    mkfifo "$t/fifo"
    timeout 10 cat "$t/fifo" > "$t/fifo.out" &
    tracetool $cmd -o "$t/fifo"
    wait
    [ -p "$t/fifo" ] && echo "$c: FIFO still a FIFO"
    cmp -s "$t/fifo.out" "$t/real" && echo "$c: FIFO read the document"
    ls "$t" | grep -q '\.tmp-' && echo "$c: temporary file left"
done
exit 0
