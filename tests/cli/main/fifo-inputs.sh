#!/bin/sh
# Inputs that cannot be read twice (cli.md "Inputs"): a FIFO is read once, also where a
# command looks at an input before reading it (analyze's two passes, export's and diff's
# database check). A database cannot be read from a FIFO: a clear error, no hang. Every
# command runs under timeout, so a hang fails (exit 124) instead of blocking the tests.
set -u
t=$TT_TMP/fifo
mkdir -p "$t"
tracetool analyze -o "$t/base.db" -m an-map.txt an-v1.bin > /dev/null
feed() { # a writer that gives up after a while if nobody opens the FIFO
    rm -f "$t/f"
    mkfifo "$t/f"
    timeout 10 sh -c "cat '$1' > '$t/f'" 2> /dev/null &
}
run() {
    label=$1
    shift
    timeout 10 "$@" > "$t/out" 2> "$t/err"
    echo "$label: exit $?"
    head -n 3 "$t/out" | sed "s|$TT_TMP|TMP|g; s/   */  /g"
    grep -v warning "$t/err" | sed "s|$TT_TMP|TMP|g"
    wait
}
feed an-v1.bin
run "analyze beat" tracetool analyze -o "$t/a.db" -m an-map.txt "$t/f"
feed ../../samples/sampling.bin
run "analyze samples" tracetool analyze -o "$t/b.db" "$t/f"
feed ../../samples/stacks.folded
run "export folded" tracetool export --format folded "$t/f"
feed an-v1.bin
run "export beat" tracetool export --format folded -m an-map.txt "$t/f"
feed "$t/base.db"
run "export database" tracetool export --format folded "$t/f"
feed an-v1.bin
run "diff raw" tracetool diff --new-mapping an-map.txt "$t/base.db" "$t/f"
feed "$t/base.db"
run "diff database" tracetool diff "$t/base.db" "$t/f"
rm -f "$t/f"
mkfifo "$t/f"
run "query" tracetool query "$t/f" "select 1"
