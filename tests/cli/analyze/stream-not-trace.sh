#!/bin/sh
# A stream (standard input, /dev/zero) that outgrows memory (16 MiB) is checked before the
# rest is spooled to $TMPDIR: one that cannot be an input stops the run at once with the
# message a file of the same content gets (exit 2). The file size limit (about 25 MB in sh's
# 512-byte blocks) makes a spool of the whole 60 MB stream fail with "cannot write the spool
# file" instead; every command runs under timeout, so reading /dev/zero to its end fails too.
# A valid stream past 16 MiB is still spooled and read whole; --kind still reads anything.
set -u
t=$TT_TMP/snt
mkdir -p "$t/tmp"
trap '' XFSZ
export TMPDIR="$t/tmp"
run() { # LABEL COMMAND...: exit status and messages, under the file size limit
    label=$1
    shift
    (ulimit -f 50000; timeout 60 "$@" > "$t/out" 2> "$t/err"; echo "$label: exit $?")
    sed "s|$TT_TMP|TMP|g" "$t/err"
}
head -c 100000 /dev/zero > "$t/zero.bin"
run "zeros, stdin" sh -c 'head -c 60000000 /dev/zero | tracetool analyze -o "$0/a.db" -' "$t"
run "zeros, a file" tracetool analyze -o "$t/a.db" "$t/zero.bin"
run "zeros, /dev/zero" tracetool analyze -o "$t/a.db" /dev/zero
run "yes, stdin" sh -c 'yes | head -c 60000000 | tracetool analyze -o "$0/a.db" -' "$t"
run "zeros, --skip-unknown" tracetool analyze --skip-unknown -o "$t/a.db" /dev/zero
run "flamegraph" sh -c 'head -c 60000000 /dev/zero | tracetool flamegraph -' "$t"
run "diff" sh -c 'yes | head -c 60000000 | tracetool diff ../../samples/stacks.folded -' "$t"
run "art" tracetool art /dev/zero
[ -e "$t/a.db" ] && echo "a database was written"
[ -z "$(ls -A "$t/tmp")" ] && echo "TMPDIR: empty"
# valid streams past 16 MiB: spooled and read whole, as from a file
yes 'main;a;b 1' | head -n 1600000 > "$t/big.folded"
tracetool analyze -o "$t/p.db" - < "$t/big.folded" > "$t/out" 2> "$t/err" && echo "folded, stdin: exit 0"
sed "s|$TT_TMP|TMP|g; s/   */  /g" "$t/out"
tracetool query "$t/p.db" "select count(*), sum(weight) from sample"
head -c 20000000 /dev/zero | tracetool analyze --kind beat -o "$t/k.db" - > /dev/null 2>&1
tracetool query "$t/k.db" "select source_format from trace"
exit 0
