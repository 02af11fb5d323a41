#!/bin/sh
# tracetool(1) INPUT "Reading once": a FIFO or pipe longer than 16 MiB that a command keeps
# for a second read is spooled to $TMPDIR; a $TMPDIR that cannot be written is an error
# (exit 2) naming the directory. The command must not open the stream again and read only
# what is left after the first 16 MiB (samples of the rest, exit 0), nor hang on a named
# FIFO whose writer is gone. Every command runs under timeout.
set -u
t=$TT_TMP/stu
mkdir -p "$t"
run() { # LABEL COMMAND...
    label=$1
    shift
    timeout 60 "$@" > "$t/out" 2> "$t/err"
    rc=$?
    echo "$label: exit $rc ($(wc -l < "$t/out") lines out)" | sed "s|$TT_TMP|TMP|g"
    sed "s|$TT_TMP|TMP|g" "$t/err"
}
feed() { # a writer of FILE into the FIFO f that gives up when nobody reads
    rm -f "$t/f"
    mkfifo "$t/f"
    timeout 60 sh -c "cat '$1' > '$t/f'" 2> /dev/null &
}
# 17.6 MB of folded stacks, 1600000 samples
yes 'main;a;b 1' | head -n 1600000 > "$t/big.folded"
# the same size of startup logcat lines and of per-frame JSON lines
i=0
while [ $i -lt 12 ]; do cat ../../samples/startup-logcat.txt; i=$((i + 1)); done > "$t/su1"
i=0
while [ $i -lt 12 ]; do cat "$t/su1" "$t/su1" "$t/su1" "$t/su1"; i=$((i + 1)); done > "$t/su2"
while [ "$(wc -c < "$t/su2")" -lt 17000000 ]; do cat "$t/su2" "$t/su2" > "$t/su3"; mv "$t/su3" "$t/su2"; done
i=0
while [ $i -lt 12 ]; do cat ../../samples/frames.jsonl; i=$((i + 1)); done > "$t/fr1"
i=0
while [ $i -lt 12 ]; do cat "$t/fr1" "$t/fr1" "$t/fr1" "$t/fr1"; i=$((i + 1)); done > "$t/fr2"
while [ "$(wc -c < "$t/fr2")" -lt 17000000 ]; do cat "$t/fr2" "$t/fr2" > "$t/fr3"; mv "$t/fr3" "$t/fr2"; done
export TMPDIR="$t/missing"
for c in samples "export --format folded" "analyze -o $t/a.db" report; do
    run "$c, /dev/stdin" sh -c "cat '$t/big.folded' | tracetool $c /dev/stdin"
done
run "startup, /dev/stdin" sh -c "cat '$t/su2' | tracetool startup /dev/stdin"
run "frames, /dev/stdin" sh -c "cat '$t/fr2' | tracetool frames /dev/stdin"
feed "$t/big.folded"
run "samples, FIFO" tracetool samples "$t/f"
wait
feed "$t/big.folded"
run "export, FIFO" tracetool export --format folded "$t/f"
wait
ls "$t/a.db" 2> /dev/null || echo "no database"
# standard input itself is read by these commands in one pass, never spooled: whole
cat "$t/big.folded" | tracetool samples - | sed -n 2p
exit 0
