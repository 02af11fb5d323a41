#!/bin/sh
# export -o FILE (cli.md "Outputs"): the document is written beside FILE and renamed over it
# on success; a failed export (a check after the input was read, a write error) leaves the
# previous FILE byte-identical and no temporary file. A symbolic link keeps pointing at its
# target, which is replaced; /dev/null is written as it is; analyze -o follows a link the
# same way.
set -u
t=$TT_TMP/atomic
mkdir -p "$t"
printf 'previous export\n' > "$t/prev.json"
chmod 640 "$t/prev.json"
cp "$t/prev.json" "$t/before"
check() {
    cmp -s "$t/prev.json" "$t/before" && echo "$1: previous file byte-identical" || echo "$1: previous file CHANGED"
    ls "$t" | grep -q '\.tmp-' && echo "$1: temporary file left"
}
tracetool export --format folded --thread nosuch -o "$t/prev.json" ../../samples/stacks.folded 2>&1
check "no such thread"
tracetool analyze -o "$t/s.db" ../../samples/stacks.folded > /dev/null
tracetool export --format folded --trace 7 -o "$t/prev.json" "$t/s.db" 2>&1 | sed "s|$TT_TMP|TMP|g"
check "no such trace"
tracetool export --format folded --thread nosuch -o "$t/prev.json" "$t/s.db" 2>&1
check "database, no such thread"
(trap '' XFSZ; ulimit -f 1; tracetool export --format chrome -o "$t/prev.json" ../../samples/perf-fib.txt.gz 2>&1) | sed "s|$TT_TMP|TMP|g"
check "write error"
tracetool export --format folded -o "$t/prev.json" ../../samples/stacks.folded && echo "success: exit 0"
cmp -s "$t/prev.json" "$t/before" || echo "success: replaced, $(wc -l < "$t/prev.json") lines"
ls -l "$t/prev.json" | cut -c1-10
ln -s prev.json "$t/link.json"
tracetool export --format speedscope -o "$t/link.json" ../../samples/stacks.folded
[ -L "$t/link.json" ] && echo "link: still a symbolic link"
head -c 30 "$t/prev.json"; echo
tracetool export --format folded -o /dev/null ../../samples/stacks.folded && [ -c /dev/null ] && echo "/dev/null: still a device"
tracetool export --format folded -o "$t" ../../samples/stacks.folded 2>&1 | sed "s|$TT_TMP|TMP|g"
tracetool analyze -o /dev/null an-v1.bin 2>&1; [ -c /dev/null ] && echo "analyze /dev/null: still a device"
ln -s s.db "$t/link.db"
tracetool analyze -o "$t/link.db" -m an-map.txt an-v1.bin > /dev/null
[ -L "$t/link.db" ] && echo "analyze: link still a symbolic link"
tracetool query "$t/s.db" "select source_format from trace"
ls "$t" | grep -q '\.tmp-' && echo "temporary file left"
ls "$t" | grep -q '\.lock' && echo "lock file left"
exit 0
